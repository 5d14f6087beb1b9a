"""What a seat can infer from its PlayerView, and hidden hands sampled consistently with it.

Inferences: the unseen cards, each seat's card count, voids shown by not following the led
class, and who holds the Kreuz-Damen (a played Alte, a call, a Hochzeit or a solo reveal it).
House rules: an Armut's parties are public (the poor seat and the taker are Re, wherever the
Kreuz-Damen are), and a Schweinchen shown puts the other Karo-Ass in its holder's hand.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bot.ai.playout import Bools, Ints, tables_for
from bot.rules.calls import Party
from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.scoring import is_doppelkopf
from bot.rules.view import PlayerView

log = logging.getLogger(__name__)

_CQ = int(Card.CQ)
_FUCHS = int(Card.DA)


def public_contract(view: PlayerView) -> Contract:
    return view.contract or Contract.NORMAL


def voids_of(view: PlayerView) -> list[int]:
    """Per seat, a bit per card class the seat has shown it no longer holds."""
    klass = view.order.klass
    voids = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    tricks.append((view.current_leader, view.current_trick))
    for leader, cards in tricks:
        if not cards:
            continue
        led = klass[cards[0]]
        for i in range(1, len(cards)):
            if klass[cards[i]] != led:
                voids[(leader + i) % 4] |= 1 << led
    return voids


def played_by(view: PlayerView) -> list[tuple[int, int]]:
    """Every (seat, card) played so far, in order."""
    out: list[tuple[int, int]] = []
    for t in view.tricks:
        out.extend(((t.leader + i) % 4, int(c)) for i, c in enumerate(t.cards))
    out.extend(((view.current_leader + i) % 4, int(c)) for i, c in enumerate(view.current_trick))
    return out


@dataclass(frozen=True, slots=True)
class Worlds:
    """Sampled deals of the hidden cards, one row per world (see ``bot.ai.playout``)."""

    holdings: Ints  # (W, 4) hand bits
    re_mask: Ints  # Re seats as bits
    solo: Bools  # scored as a solo (a stille Hochzeit the sample put in one hand, too)


class Knowledge:
    """Everything one seat knows for sampling, computed once per decision."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.seat = view.seat
        contract = public_contract(view)
        self.contract = contract
        self.schweinchen = view.schweinchen is not None
        self.tables = tables_for(contract, view.ruleset, self.schweinchen)
        self.voids = voids_of(view)
        self.plays = played_by(view)
        unseen = [int(c) for c in deck(view.ruleset.with_nines)]
        for card in view.hand:
            unseen.remove(int(card))
        for _, c in self.plays:
            unseen.remove(c)
        self.need = list(view.cards_in_hand)
        self.need[self.seat] = 0
        self.hochzeiter = -1
        self.fixed_re: int | None = None  # Re seats as bits, when the world can't change them
        self.solo = contract.scored_as_solo
        self.forced: list[tuple[int, int]] = []  # (seat, card) placed before the shuffle
        self.cq_choices: list[list[int]] = []  # per unseen Alte: seats that may hold it
        self._setup_parties(unseen)
        self._setup_schweinchen(unseen)
        self.unseen = unseen  # without the forced cards
        self.unseen_klass = np.array([self.tables.klass[c] for c in unseen], dtype=np.int64)
        # Every card placed in a hand gets its own bit: a kind's first copy the lower one.
        copies = [0] * 24
        self.base = [0, 0, 0, 0]  # the cards each hand holds in every world

        def bit(card: int) -> int:
            copies[card] += 1
            return 1 << (self.tables.low_bit[card] + copies[card] - 1)

        for card in view.hand:
            self.base[self.seat] |= bit(int(card))
        for s, c in self.forced:
            self.base[s] |= bit(c)
        self.cq_bits = [bit(_CQ) for _ in self.cq_choices]
        self.unseen_bits = np.array([bit(c) for c in unseen], dtype=np.int64)
        # Seats known to be Re in a normal game: an Alte in hand or played.
        self.known_re = sum(1 << s for s, c in self.plays if c == _CQ)
        if _CQ in view.hand:
            self.known_re |= 1 << self.seat

    # -- parties ---------------------------------------------------------------------------

    def _setup_parties(self, unseen: list[int]) -> None:
        view = self.view
        contract = self.contract
        me = self.seat
        n_cq = unseen.count(_CQ)
        if view.armut is not None and all(p is not None for p in view.parties):
            # An Armut: the poor seat and the taker are Re, whoever holds the Alten.
            self.fixed_re = sum(1 << s for s in range(4) if view.parties[s] is Party.RE)
            return
        if (
            view.soloist is not None
            or contract.is_declared_solo
            or contract
            in (
                Contract.HOCHZEIT_FAILED,
                Contract.STILLE_HOCHZEIT,
            )
        ):
            soloist = view.soloist if view.soloist is not None else me
            self.fixed_re = 1 << soloist
            self.solo = True
            return
        if contract is Contract.HOCHZEIT:
            h = view.hochzeiter
            assert h is not None
            self._force_cq(unseen, [h] * n_cq)
            if view.clarification_trick is None:
                self.hochzeiter = h
                self.fixed_re = 1 << h
            else:
                self.fixed_re = sum(1 << s for s in range(4) if view.parties[s] is Party.RE)
            return
        # A normal game as this seat sees it (maybe a stille Hochzeit of someone else).
        played_cq = [0, 0, 0, 0]
        for s, c in self.plays:
            if c == _CQ:
                played_cq[s] += 1
        if n_cq == 0:
            return
        trump_void = [bool(v & 1) for v in self.voids]
        must = [
            s
            for s in range(4)
            if s != me and view.parties[s] is Party.RE and played_cq[s] == 0 and not trump_void[s]
        ]
        may = [
            s
            for s in range(4)
            if s != me
            and s not in must
            and view.parties[s] is not Party.KONTRA
            and played_cq[s] == 0
            and not trump_void[s]
        ]
        # Each unseen Alte goes to a different seat unless only a stille Hochzeit explains it.
        self.cq_choices = [must[:1], must[1:2]][: len(must)]
        while len(self.cq_choices) < n_cq:
            self.cq_choices.append(may)
        # Unseen Alten are placed on sampling; drop them from the shuffled pool.
        for _ in range(n_cq):
            unseen.remove(_CQ)

    def _setup_schweinchen(self, unseen: list[int]) -> None:
        """A Schweinchen shown by another seat: its unplayed Karo-Ass is still in that hand."""
        holder = self.view.schweinchen
        if holder is None or holder == self.seat:
            return
        for _ in range(unseen.count(_FUCHS)):
            if self.need[holder] <= 0:
                break
            unseen.remove(_FUCHS)
            self.forced.append((holder, _FUCHS))
            self.need[holder] -= 1

    def _force_cq(self, unseen: list[int], seats: list[int]) -> None:
        for s in seats:
            unseen.remove(_CQ)
            self.forced.append((s, _CQ))
            self.need[s] -= 1

    # -- sampling --------------------------------------------------------------------------

    def sample(self, count: int, gen: np.random.Generator, rnd: Callable[[], float]) -> Worlds:
        """``count`` deals of the unseen cards consistent with the view, drawn near uniformly.

        Deals are drawn as arrays; only those that break a shown void are repaired one by one
        (with ``rnd``).
        """
        need = np.tile(np.array(self.need, dtype=np.int64), (count, 1))
        hands = np.tile(np.array(self.base, dtype=np.int64), (count, 1))
        rows = np.arange(count)
        owners = np.zeros((count, 4), dtype=bool)
        for choices, bit in zip(self.cq_choices, self.cq_bits, strict=True):
            seat = self._cq_seats(choices, need, owners, gen)
            need[rows, seat] -= 1
            owners[rows, seat] = True
            hands[rows, seat] |= bit
        labels = self._labels(need, gen, rnd)
        for s in range(4):
            hands[:, s] |= np.where(labels == s, self.unseen_bits, 0).sum(axis=1)
        if self.fixed_re is not None:
            re_mask = np.full(count, self.fixed_re, dtype=np.int64)
            return Worlds(hands, re_mask, np.full(count, self.solo))
        re_mask = (owners.astype(np.int64) << np.arange(4)).sum(axis=1) | self.known_re
        # One seat holds both Alten: a stille Hochzeit, scored as a solo.
        return Worlds(hands, re_mask, re_mask & (re_mask - 1) == 0)

    def _cq_seats(
        self,
        choices: list[int],
        need: Ints,
        owners: npt.NDArray[np.bool_],
        gen: np.random.Generator,
    ) -> Ints:
        """The seat per world for one unseen Alte, weighted by free places so the draw stays
        near uniform; a seat takes one Alte only.
        """
        free = (need > 0) & np.array([s != self.seat for s in range(4)])
        pool = free & ~owners & np.array([s in choices for s in range(4)])
        fallback = free & np.array([not v & 1 for v in self.voids])
        fallback = np.where(fallback.any(axis=1, keepdims=True), fallback, free)
        pool = np.where(pool.any(axis=1, keepdims=True), pool, fallback)
        cum = (pool * need).cumsum(axis=1)
        x = gen.random(len(need)) * cum[:, 3]
        seat: Ints = np.minimum((cum <= x[:, None]).sum(axis=1), 3)
        return seat

    def _labels(self, need: Ints, gen: np.random.Generator, rnd: Callable[[], float]) -> Ints:
        """Owner seat per world and unseen card: a random permutation, repaired where it
        breaks a void.
        """
        count = len(need)
        n = len(self.unseen)
        order = gen.random((count, n)).argsort(axis=1)
        cum = need.cumsum(axis=1)
        seat_at = (np.arange(n)[None, :, None] >= cum[:, None, :3]).sum(axis=2)
        labels = np.empty((count, n), dtype=np.int64)
        np.put_along_axis(labels, order, seat_at, axis=1)
        if not any(self.voids):
            return labels
        void = np.array([[v >> k & 1 for k in range(5)] for v in self.voids], dtype=bool)
        broken = void[labels, self.unseen_klass].any(axis=1)
        for w in np.flatnonzero(broken):
            labels[w] = self._repair(labels[w].tolist(), rnd)
        return labels

    def _repair(self, labels: list[int], rnd: Callable[[], float]) -> list[int]:
        """Swap owners until no card sits in a hand void in its class (20 passes at most)."""
        n = len(labels)
        voids = self.voids
        klass = self.tables.klass
        cards = self.unseen
        for _attempt in range(20):
            ok = True
            for i in range(n):
                s = labels[i]
                ki = klass[cards[i]]
                if not (voids[s] >> ki) & 1:
                    continue
                start = int(rnd() * n)
                for step in range(n):
                    j = (start + step) % n
                    s2 = labels[j]
                    if (
                        s2 != s
                        and not (voids[s2] >> ki) & 1
                        and not (voids[s] >> klass[cards[j]]) & 1
                    ):
                        labels[i], labels[j] = s2, s
                        break
                else:
                    ok = False
            if ok:
                return labels
        log.debug("no deal fits every void shown; sampling with some voids ignored")
        return labels

    # -- what has happened so far ----------------------------------------------------------

    def past(self, re_mask: int, solo: bool) -> tuple[int, int, int]:
        """Re's Augen, tricks and net Sonderpunkte from the finished tricks, for these parties."""
        augen = 0
        tricks = 0
        sp = 0
        for t in self.view.tricks:
            assert t.winner is not None
            won = (re_mask >> t.winner) & 1
            a = t.augen
            if won:
                augen += a
                tricks += 1
            if solo:
                continue
            sign = 1 if won else -1
            if is_doppelkopf(a):
                sp += sign
            for i, c in enumerate(t.cards):
                if c == _FUCHS and ((re_mask >> ((t.leader + i) % 4)) & 1) != won:
                    sp += sign
        return augen, tricks, sp
