"""Duplicate comparison: everyone plays the same deals, each result set against the field's.

The field of a deal is everyone who held the same hand in the same seat (a challenge deals
deal ``n`` alike to all). A result counts by its difference to the field's mean for that
deal and seat; a player's standing is the sum of those differences. Pure and exact
(``Fraction``); the front end rounds for display.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

SEED_BITS = 62


def deal_seed(base: int, deal: int, attempt: int = 0) -> int:
    """The seed of deal ``deal`` (from 0) of a challenge with seed ``base``; ``attempt`` > 0
    for a deal dealt again after a throw-in (the same for everyone with the same history).
    """
    digest = hashlib.sha256(f"doko-duplicate:{base}:{deal}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


@dataclass(frozen=True, slots=True)
class DealResult:
    """``player`` scored ``points`` in deal ``deal`` from seat ``seat``."""

    player: int
    deal: int
    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class Compared:
    """A result beside its field: ``field_size`` players, their mean, the difference."""

    result: DealResult
    field_size: int
    field_mean: Fraction

    @property
    def difference(self) -> Fraction:
        return self.result.points - self.field_mean


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: ``rank`` from 1 (equal totals share a rank)."""

    rank: int
    player: int
    deals: int
    points: int
    difference: Fraction


@dataclass(frozen=True, slots=True)
class Comparison:
    compared: tuple[Compared, ...]
    standings: tuple[Standing, ...]

    def of(self, player: int) -> list[Compared]:
        """The player's compared results, by deal."""
        return sorted((c for c in self.compared if c.result.player == player), key=_deal)

    def best(self) -> Compared | None:
        """The result furthest above its field (ties: the earlier deal)."""
        return max(self.compared, key=lambda c: (c.difference, -c.result.deal), default=None)

    def worst(self) -> Compared | None:
        """The result furthest below its field (ties: the earlier deal)."""
        return min(self.compared, key=lambda c: (c.difference, c.result.deal), default=None)


def _deal(compared: Compared) -> int:
    return compared.result.deal


def compare(results: Iterable[DealResult]) -> Comparison:
    """Each result against the mean of its (deal, seat) field; the standings by the summed
    difference (then the points; equal both: the same rank).
    """
    listed = list(results)
    fields: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r in listed:
        fields[r.deal, r.seat].append(r.points)
    compared = tuple(
        Compared(
            r,
            len(fields[r.deal, r.seat]),
            Fraction(sum(fields[r.deal, r.seat]), len(fields[r.deal, r.seat])),
        )
        for r in listed
    )
    totals: dict[int, tuple[Fraction, int, int]] = {}
    for c in compared:
        diff, points, deals = totals.get(c.result.player, (Fraction(0), 0, 0))
        totals[c.result.player] = (diff + c.difference, points + c.result.points, deals + 1)
    order = sorted(totals.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
    standings: list[Standing] = []
    for i, (player, (diff, points, deals)) in enumerate(order):
        if standings and (standings[-1].difference, standings[-1].points) == (diff, points):
            rank = standings[-1].rank
        else:
            rank = i + 1
        standings.append(Standing(rank, player, deals, points, diff))
    return Comparison(compared, tuple(standings))
