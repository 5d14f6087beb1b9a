"""Batch playouts: many games played to their end in lockstep as numpy arrays.

Monte-Carlo search plays every candidate card out in hundreds of sampled worlds per decision;
a pure-Python playout costs ~75 µs, so all (world, candidate) games of one decision are played
together, one vectorized step per card. The games start from the same position, so trick
number and place in the trick are the same in every game; only who is to act differs.

A hand is one int64 with a bit per physical card: the plain cards by (Augen, suit), so within
a suit by power, then the trumps weakest first. Each card kind owns two neighbouring bits, one
per copy. The rules of thumb then become lowest or highest set bit of a masked hand: the
cheapest card is the lowest bit (a void hand discards before it trumps), the fattest plain
card the highest plain bit, the best trump the highest bit. Card orders come from
``bot.rules.contracts``, so the tables agree with the rules core (Schweinchen included).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from bot.rules.cards import AUGEN, Card, Rank
from bot.rules.contracts import TRUMP, Contract
from bot.rules.ruleset import DulleTie, Ruleset

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

_DULLE = int(Card.H10)
_FUCHS = int(Card.DA)
_KARLCHEN = int(Card.CJ)
# A power of two as float64 has the biased exponent 1023 + its bit index in bits 52 and up;
# tables indexed by that exponent turn an isolated bit into its card in one lookup.
_EXP = 1023
ACE_LEAD = 0.7  # how often a leader with an Ass of a suit not yet led plays it


@dataclass(frozen=True, eq=False)
class Tables:
    """Bit layout and lookup tables of one contract's card order under one ruleset."""

    klass: tuple[int, ...]  # card class per card kind: TRUMP or suit + 1
    low_bit: tuple[int, ...]  # per card kind: index of the first of its two bits (-1: no 9s)
    kind_mask: Ints  # per card kind: its two bits
    class_mask: Ints  # per class
    klass_arr: Ints  # ``klass`` as an array
    augen: Ints  # per card kind
    trumps: int  # mask of all trumps
    plain: int  # mask of all plain cards
    unled: Ints  # per set of led classes (bit per class): the Asse of the suits not led
    # above[d][led class * 24 + best card]: the cards that take the lead from the best card
    # of a trick of that class; d = 1 where a second Dulle beats the first.
    above: tuple[Ints, Ints]
    card_at: Ints  # [_EXP + bit index] -> card kind
    bit_at: Ints  # [_EXP + bit index] -> the bit
    tricks: int
    dulle_tie: DulleTie

    def second_dulle(self, trick_number: int) -> bool:
        """Whether the second Dulle beats the first in trick ``trick_number`` (1-based)."""
        if self.klass[_DULLE] != TRUMP:
            return False
        last = trick_number == self.tricks
        tie = self.dulle_tie
        if tie is DulleTie.SECOND_WINS:
            return True
        if tie is DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK:
            return not last
        if tie is DulleTie.SECOND_WINS_ONLY_LAST_TRICK:
            return last
        return False

    def hand_of(self, cards: list[int]) -> int:
        """The bits of a hand of cards (kinds may repeat)."""
        out = 0
        for c in cards:
            b = 1 << self.low_bit[c]
            out |= b << 1 if out & b else b
        return out

    def cards_of(self, hand: int) -> list[int]:
        """The cards of a hand, in bit order."""
        return [int(self.card_at[_EXP + i]) for i in range(hand.bit_length()) if hand >> i & 1]


@cache
def tables_for(contract: Contract, ruleset: Ruleset, schweinchen: bool = False) -> Tables:
    """The tables of a contract's card order; ``schweinchen``: the Karo-Asse rank highest.

    Pass ``schweinchen`` as the seat knows it (``PlayerView.schweinchen is not None``), so the
    tables agree with ``PlayerView.order``.
    """
    order = contract.card_order(schweinchen)
    klass = order.klass
    power = order.power
    kinds = [c for c in range(24) if ruleset.with_nines or Card(c).rank is not Rank.NEUN]
    trumps = sorted((c for c in kinds if klass[c] == TRUMP), key=lambda c: power[c])
    plain = sorted((c for c in kinds if klass[c] != TRUMP), key=lambda c: (AUGEN[c], klass[c]))
    for a in plain:
        for b in plain:
            # Bit order must be power order within a suit.
            assert klass[a] != klass[b] or (power[a] < power[b]) == (AUGEN[a] < AUGEN[b])
    low_bit = [-1] * 24
    card_at = np.zeros(_EXP + 64, dtype=np.int64)
    bit_at = np.zeros(_EXP + 64, dtype=np.int64)
    for i, c in enumerate([*plain, *trumps]):
        low_bit[c] = 2 * i
        for j in (2 * i, 2 * i + 1):
            card_at[_EXP + j] = c
            bit_at[_EXP + j] = 1 << j
    kind_mask = [3 << b if b >= 0 else 0 for b in low_bit]
    class_mask = [sum(kind_mask[c] for c in kinds if klass[c] == k) for k in range(5)]
    aces = sum(kind_mask[c] for c in plain if Card(c).rank is Rank.ASS)
    unled = [
        sum(class_mask[k] for k in range(1, 5) if not led >> k & 1) & aces for led in range(32)
    ]

    def strength(led: int, card: int) -> int:
        if klass[card] == TRUMP:
            return 200 + power[card]
        return power[card] if klass[card] == led else 0

    above: list[Ints] = []
    for second in (False, True):
        rows = []
        for led in range(5):
            for best in range(24):
                s = strength(led, best)
                tie = second and best == _DULLE and klass[_DULLE] == TRUMP
                rows.append(
                    sum(
                        kind_mask[c] for c in kinds if strength(led, c) > s or (tie and c == _DULLE)
                    )
                )
        above.append(np.array(rows, dtype=np.int64))
    return Tables(
        klass=klass,
        low_bit=tuple(low_bit),
        kind_mask=np.array(kind_mask, dtype=np.int64),
        class_mask=np.array(class_mask, dtype=np.int64),
        klass_arr=np.array(klass, dtype=np.int64),
        augen=np.array(AUGEN, dtype=np.int64),
        trumps=class_mask[TRUMP],
        plain=sum(class_mask[1:]),
        unled=np.array(unled, dtype=np.int64),
        above=(above[0], above[1]),
        card_at=card_at,
        bit_at=bit_at,
        tricks=ruleset.tricks,
        dulle_tie=ruleset.dulle_tie,
    )


def _exponent(x: Ints) -> Ints:
    """``_EXP`` + index of the highest set bit of each (non-zero, below 2**53) value."""
    return x.astype(np.float64).view(np.int64) >> 52


@dataclass(frozen=True, slots=True)
class Outcomes:
    """What Re gains in each game of a batch, from the start position on."""

    re_augen: Ints
    re_tricks: Ints
    sonderpunkte: Ints  # net for Re; 0 where the game is scored as a solo
    re_mask: Ints  # Re seats as bits (a Hochzeit's partner included once found)
    solo: Bools  # scored as a solo (a failed Hochzeit too)
    cards: Ints  # (cards, N): the cards in the order played, the open trick's first
    leaders: Ints  # (tricks, N): who led each trick

    def seats(self) -> Ints:
        """(cards, N): who played each card."""
        place = np.arange(len(self.cards)) % 4
        seats: Ints = (np.repeat(self.leaders, 4, axis=0) + place[:, None]) & 3
        return seats


def playouts(
    t: Tables,
    hands: Ints,
    leader: int,
    trick: Ints,
    tricks_done: int,
    re_mask: Ints,
    solo: Bools,
    gen: np.random.Generator,
    hochzeiter: int = -1,
    led_before: int = 0,
) -> Outcomes:
    """Play every game of a batch to its end with the rule-of-thumb policy.

    ``hands``: (N, 4) hand bits, not changed; ``trick``: (N, m) cards already in the open trick,
    led by ``leader``; ``re_mask``/``solo``: per game; ``hochzeiter``: a seat while a Hochzeit
    is not yet clarified; ``led_before``: bits of the classes led in finished tricks. The
    policy knows the parties of each world, as determinized Monte-Carlo does.
    """
    n = hands.shape[0]
    h = hands.reshape(-1).copy()  # flat: game g, seat s at 4 * g + s
    base = np.arange(n, dtype=np.int64) * 4
    team = re_mask.astype(np.int64)
    side = _sides(team)  # flat like ``h``: 1 for a Re seat
    solo = solo.copy()
    open_h = np.full(n, hochzeiter >= 0)
    led = np.full(n, led_before, dtype=np.int64)
    card_at, bit_at, plain = t.card_at, t.bit_at, t.plain
    m = trick.shape[1]
    total = 4 * (t.tricks - tricks_done)
    draws = gen.random((t.tricks - tricks_done - (1 if m else 0), 2, n))
    number = tricks_done + 1  # 1-based number of the open trick
    above = t.above[t.second_dulle(number)]
    played = np.empty((total, n), dtype=np.int64)
    leaders = np.empty((total // 4, n), dtype=np.int64)
    seat = leaders[0] = np.full(n, leader, dtype=np.int64)
    kb = best = wseat = wteam = lm = seat
    for p in range(total):
        place = p % 4
        fi = base + seat
        mine = side.take(fi)
        if p < m:
            card = trick[:, p].astype(np.int64)
            cb = t.kind_mask.take(card)
            ab = above.take(kb + best)
        else:
            hand = h.take(fi)
            if place == 0:
                u = draws[(p - m) // 4]
                aces = hand & t.unled.take(led)
                # An Ass of a suit not led yet; the soloist pulls trumps from the top (the
                # highest bit of a hand is its best trump); else a random card.
                ace = (u[0] < ACE_LEAD) & (aces != 0)
                pull = solo & (mine == 1) & (hand & t.trumps != 0)
                e = np.where(
                    ace | pull,
                    _exponent(np.where(ace, aces & -aces, hand)),
                    _nth_bit(hand, (u[1] * np.bitwise_count(hand)).astype(np.int64)),
                )
            else:
                ab = above.take(kb + best)
                x = hand & lm
                legal = np.where(x != 0, x, hand)
                fat = legal & plain
                y = legal & ab
                partner = mine == wteam
                # Onto the partner's trick the fattest plain card (a trump led: the cheapest);
                # else the cheapest card that takes the lead, else the cheapest card (plain
                # cards have the low bits, so a void hand discards before it trumps).
                src = np.where((y != 0) > partner, y, legal)
                e = _exponent(np.where(partner & (fat != 0), fat, src & -src))
            cb = bit_at.take(e)
            card = card_at.take(e)
            h[fi] = hand ^ cb
        played[p] = card
        if place == 0:
            k = t.klass_arr.take(card)
            lm = t.class_mask.take(k)
            kb = k * 24
            led = led | (1 << k)
            best = card
            wseat = seat
            wteam = mine
        else:
            beat = (ab & cb) != 0
            best = np.where(beat, card, best)
            wseat = np.where(beat, seat, wseat)
            wteam = np.where(beat, mine, wteam)
        if place < 3:
            seat = _NEXT.take(seat)
            continue
        # The trick is complete.
        if open_h.any():
            found = open_h & (wseat != hochzeiter)
            team = team | (found.astype(np.int64) << wseat)
            side = _sides(team)
            open_h = open_h & ~found
            if number == 3:
                solo = solo | open_h  # a failed Hochzeit: a Karo solo, no Sonderpunkte
                open_h = open_h & False
        seat = wseat
        number += 1
        if number <= t.tricks:
            leaders[number - tricks_done - 1] = seat
            above = t.above[t.second_dulle(number)]
    # Score with the parties at the end, as the rules do.
    tricks = total // 4
    winners = np.concatenate((leaders[1:], wseat[None]))
    won = (team >> winners) & 1  # (tricks, N)
    augen = t.augen.take(played).reshape(tricks, 4, n).sum(axis=1)
    re_augen = (augen * won).sum(axis=0)
    re_tricks = won.sum(axis=0)
    sp = np.zeros(n, dtype=np.int64)
    if not solo.all():
        # Doppelkopf, Füchse of the other party caught, Karlchen winning the last trick.
        sign = 2 * won - 1
        sp = ((augen >= 40) * sign).sum(axis=0) + (best == _KARLCHEN) * sign[-1]
        at, game = np.nonzero(played == _FUCHS)
        by = (leaders[at // 4, game] + at % 4) & 3
        caught = (team[game] >> by) & 1 != won[at // 4, game]
        sp += np.bincount(game[caught], sign[at // 4, game][caught], n).astype(np.int64)
        sp = np.where(solo, 0, sp)
    return Outcomes(re_augen, re_tricks, sp, team, solo, played, leaders)


_NEXT = np.array([1, 2, 3, 0], dtype=np.int64)


def _sides(team: Ints) -> Ints:
    """Per game and seat, flat: 1 for Re."""
    sides: Ints = ((team[:, None] >> np.arange(4)) & 1).reshape(-1)
    return sides


@cache
def _select12() -> npt.NDArray[np.int8]:
    """[v * 12 + r]: the index of the r-th lowest set bit of the 12-bit value v."""
    values = np.arange(1 << 12)
    bits = (values[:, None] >> np.arange(12)) & 1
    rank = bits.cumsum(axis=1) - 1
    v, i = np.nonzero(bits)
    out = np.zeros(12 << 12, dtype=np.int8)
    out[v * 12 + rank[v, i]] = i
    return out


def _nth_bit(x: Ints, j: Ints) -> Ints:
    """``_EXP`` + index of the ``j``-th lowest set bit of each value (values below 2**48)."""
    # Find the 12-bit chunk by the counts below it, then look the bit up in the chunk.
    c0 = np.bitwise_count(x & 0xFFF)
    c1 = np.bitwise_count(x & 0xFFFFFF)
    c2 = np.bitwise_count(x & 0xFFFFFFFFF)
    past0 = j >= c0
    past1 = j >= c1
    past2 = j >= c2
    r = j - np.where(past2, c2, np.where(past1, c1, np.where(past0, c0, 0)))
    shift: Ints = (past0.astype(np.int64) + past1 + past2) * 12
    return _select12().take(((x >> shift) & 0xFFF) * 12 + r) + (shift + _EXP)
