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

from bot.ai.playout import Tables, add_card, tables_for
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
class World:
    """One sampled deal of the hidden cards: 20 class ints (see ``bot.ai.playout``)."""

    holdings: list[int]
    re_mask: int
    tables: Tables
    hochzeiter: int  # -1 unless a Hochzeit is still looking for its partner


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

    def sample(self, rnd: Callable[[], float]) -> World:
        """A deal of the unseen cards consistent with the view, drawn near uniformly."""
        t = self.tables
        me = self.seat
        hands = [0] * 20
        for card in self.view.hand:
            add_card(t, hands, me, int(card))
        need = list(self.need)
        owners = [0, 0, 0, 0]
        for s, c in self.forced:
            add_card(t, hands, s, c)
        for choices in self.cq_choices:
            s = self._pick_cq_seat(choices, need, owners, rnd)
            need[s] -= 1
            owners[s] += 1
            add_card(t, hands, s, _CQ)
        labels = self._labels(need, rnd)
        for c, s in zip(self.unseen, labels, strict=True):
            add_card(t, hands, s, c)
        if self.fixed_re is not None:
            return World(hands, self.fixed_re, t, self.hochzeiter)
        re_mask = 0
        for s in range(4):
            if owners[s] or (s == me and _CQ in self.view.hand):
                re_mask |= 1 << s
        for s, c in self.plays:
            if c == _CQ:
                re_mask |= 1 << s
        if re_mask & (re_mask - 1) == 0:
            # One seat holds both Alten: a stille Hochzeit, scored as a solo.
            return World(
                hands,
                re_mask,
                tables_for(Contract.STILLE_HOCHZEIT, self.view.ruleset, self.schweinchen),
                -1,
            )
        return World(hands, re_mask, t, -1)

    def _pick_cq_seat(
        self, choices: list[int], need: list[int], owners: list[int], rnd: Callable[[], float]
    ) -> int:
        # Weight by free places so the draw stays near uniform; a seat takes one Alte only.
        pool = [s for s in choices if need[s] > 0 and owners[s] == 0]
        if not pool:
            pool = [s for s in range(4) if s != self.seat and need[s] > 0 and not self.voids[s] & 1]
        if not pool:
            pool = [s for s in range(4) if s != self.seat and need[s] > 0]
        total = sum(need[s] for s in pool)
        x = rnd() * total
        for s in pool:
            x -= need[s]
            if x < 0:
                return s
        return pool[-1]

    def _labels(self, need: list[int], rnd: Callable[[], float]) -> list[int]:
        """Owner seat per unseen card: a random permutation repaired to respect the voids."""
        labels: list[int] = []
        for s in range(4):
            labels.extend([s] * need[s])
        n = len(labels)
        for i in range(n - 1, 0, -1):
            j = int(rnd() * (i + 1))
            labels[i], labels[j] = labels[j], labels[i]
        voids = self.voids
        if not any(voids):
            return labels
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
