"""The unchecked fast path for Monte-Carlo playouts, behind the same tests as ``game.Game``.

Nothing here validates: callers pass consistent positions (``game.Game`` is the checked API).

Cards are small ints renumbered per card order ("fast ids"): trumps first, then each plain
suit, and within a follow-suit class from weak to strong, so that every class is one
contiguous range. A hand is one sorted list of fast ids; the cards that follow the led class
are the slice found by two ``bisect`` calls, and the trick winner comes from a strength table
precomputed per led card. Tables are built once per (card order, Dulle rule) and cached; a
house-rule card order (Schweinchen) is just another card order.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import floor  # floor(x), not int(x), for x >= 0: the same value, a cheaper call
from operator import itemgetter, mul

from bot.rules.cards import AUGEN, CARDS, Card, deck, seeded_random
from bot.rules.contracts import TRUMP, CardOrder, Contract
from bot.rules.ruleset import DDV, DulleTie, Ruleset

Policy = Callable[[int, list[int], int, int, list[int]], int]
"""``policy(seat, hand, lo, hi, trick) -> index``: pick ``hand[index]`` with ``lo <= index < hi``.

``hand`` is the seat's sorted fast-id list (do not change it), ``hand[lo:hi]`` the legal cards,
``trick`` the fast ids played to the current trick so far, led card first.
"""

# ROT[leader] = the seats in playing order of a trick led by ``leader``.
ROT: tuple[tuple[int, int, int, int], ...] = tuple(
    ((lead + 0) % 4, (lead + 1) % 4, (lead + 2) % 4, (lead + 3) % 4) for lead in range(4)
)


@dataclass(frozen=True, slots=True)
class FastTables:
    """One card order compiled for the fast path; every tuple is indexed by fast id."""

    order: CardOrder
    dulle_tie: DulleTie
    # Card kind → fast id. A dict: a Card (an int subclass) indexes a tuple on the slow
    # generic path, a dict about a third faster. Left out of comparing and hashing.
    code: dict[Card, int] = field(compare=False)
    card: tuple[Card, ...]  # fast id → Card
    augen: tuple[int, ...]
    strength: tuple[tuple[int, ...], ...]  # [led card][card]: the highest strength wins
    # (lo, hi) of this card's follow-suit class: its first fast id and one past its last.
    span: tuple[tuple[int, int], ...]
    same_class: tuple[tuple[bool, ...], ...]  # [led card][card]: the card follows the led one
    dulle: int  # fast id of the H10 when it is a trump, else -1
    second_dulle_wins: tuple[bool, bool]  # (an earlier trick, the last trick)
    house_dulle: int  # ``dulle`` when a house rule may let the second one win, else -2
    deck: tuple[int, ...]  # the 48-card deck as sorted fast ids
    deck_without_nines: tuple[int, ...]
    # ``code`` as a ``bytes.translate`` table (256 entries, the card kinds first).
    code_bytes: bytes

    def encode(self, cards: Sequence[Card]) -> list[int]:
        """A hand as a sorted fast-id list."""
        # Card kinds are bytes: one translate maps the whole hand in C, and sorting the
        # result's plain ints is cheaper than sorting Cards (an int subclass).
        return sorted(bytes(cards).translate(self.code_bytes))

    def decode(self, ids: Sequence[int]) -> list[Card]:
        if len(ids) < 2:
            return [self.card[i] for i in ids]
        return list(itemgetter(*ids)(self.card))


def _second_dulle_wins(tie: DulleTie) -> tuple[bool, bool]:
    """Whether the second Herz-Zehn beats the first (TSR 5.3; house rules as flags)."""
    match tie:
        case DulleTie.FIRST_WINS:
            return (False, False)
        case DulleTie.SECOND_WINS:
            return (True, True)
        case DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK:
            return (True, False)
        case DulleTie.SECOND_WINS_ONLY_LAST_TRICK:
            return (False, True)
    raise ValueError(f"unknown Dulle rule {tie!r}")  # pragma: no cover


@cache
def _compile(order: CardOrder, dulle_tie: DulleTie) -> FastTables:
    # Classes in order TRUMP, then suits; within a class weak → strong, so a class is a range.
    kinds = sorted(CARDS, key=lambda c: (order.klass[c], order.power[c], c))
    code = [0] * len(CARDS)
    for fast_id, c in enumerate(kinds):
        code[c] = fast_id
    klass = [order.klass[c] for c in kinds]
    lo = [klass.index(k) for k in klass]
    hi = [len(klass) - klass[::-1].index(k) for k in klass]
    # Strength when ``led`` opened the trick: trumps above the led class, other plain suits
    # never win (TSR 5.3). Weak → strong numbering makes the fast id itself the rank.
    size = len(kinds)
    by_class: dict[int, tuple[int, ...]] = {}
    for k in set(klass):
        by_class[k] = tuple(
            2 * size + i if klass[i] == TRUMP else size + i if klass[i] == k else 0
            for i in range(size)
        )
    h10 = code[Card.H10]
    dulle = h10 if order.klass[Card.H10] == TRUMP else -1
    second_wins = _second_dulle_wins(dulle_tie)
    return FastTables(
        order=order,
        dulle_tie=dulle_tie,
        code=dict(zip(CARDS, code, strict=True)),
        card=tuple(kinds),
        augen=tuple(AUGEN[c] for c in kinds),
        strength=tuple(by_class[k] for k in klass),
        span=tuple(zip(lo, hi, strict=True)),
        same_class=tuple(tuple(klass[i] == k for i in range(size)) for k in klass),
        dulle=dulle,
        second_dulle_wins=second_wins,
        house_dulle=dulle if second_wins != (False, False) else -2,
        deck=tuple(sorted(code[c] for c in deck(True))),
        deck_without_nines=tuple(sorted(code[c] for c in deck(False))),
        code_bytes=bytes(code).ljust(256, b"\0"),
    )


def fast_tables(
    contract: Contract, ruleset: Ruleset = DDV, schweinchen: bool = False
) -> FastTables:
    """The compiled tables of a contract's card order under a ruleset (cached).

    ``schweinchen``: a seat holds both Karo-Asse as Schweinchen (``Game.schweinchen``), which
    puts them above the Dullen where the contract allows it.
    """
    key = (contract, ruleset.dulle_tie, schweinchen)
    tables = _BY_CONTRACT.get(key)
    if tables is None:
        tables = _BY_CONTRACT[key] = _compile(contract.card_order(schweinchen), ruleset.dulle_tie)
    return tables


# In front of ``_compile``'s cache: hashing a CardOrder's tuples on every game start costs more.
_BY_CONTRACT: dict[tuple[Contract, DulleTie, bool], FastTables] = {}


def legal_range(tables: FastTables, hand: Sequence[int], led: int | None) -> tuple[int, int]:
    """``hand[lo:hi]`` are the cards that may be played: the led class if held (TSR 5.2)."""
    if led is None:
        return 0, len(hand)
    a, b = tables.span[led]
    lo = bisect_left(hand, a)
    hi = bisect_left(hand, b, lo)
    if lo == hi:
        return 0, len(hand)
    return lo, hi


def trick_winner(tables: FastTables, cards: Sequence[int], last_trick: bool) -> int:
    """Position of the winning card; of two equal cards the first wins (TSR 5.3)."""
    st = tables.strength[cards[0]]
    w = 0
    best = st[cards[0]]
    for i in range(1, len(cards)):
        x = st[cards[i]]
        if x > best:
            w = i
            best = x
    dulle = tables.dulle
    if cards[w] == dulle and tables.second_dulle_wins[last_trick]:
        # House rule: the later of the two Herz-Zehnen wins.
        for i in range(len(cards) - 1, w, -1):
            if cards[i] == dulle:
                return i
    return w


def playout(
    tables: FastTables,
    hands: Sequence[Sequence[int]],
    leader: int,
    current_trick_cards: Sequence[int],
    tricks_done: int,
    re_mask: int,
    rng: random.Random,
    policy: Policy | None = None,
    *,
    hochzeiter: int | None = None,
    winners: list[int] | None = None,
) -> tuple[int, int]:
    """Play a position to its end; return ``(re_augen, re_tricks)`` of the tricks finished here.

    ``hands`` are sorted fast-id lists by seat (copied, not changed); ``leader`` led the
    current trick, of which ``current_trick_cards`` are already on the table; ``tricks_done``
    tricks are complete (they only tell which trick is the last one); bit ``s`` of
    ``re_mask`` is set for each Re seat. Augen and tricks taken before this position are not
    included. Without a ``policy`` every card is a uniformly random legal one (one
    ``rng.random()`` per card). ``hochzeiter``: an open Hochzeit, whose partner is the first
    other seat to win one of tricks 1–3 (TSR 4.4); pass ``re_mask = 1 << hochzeiter``.
    ``winners`` collects the winning seat of every trick finished here.
    """
    hs = [list(h) for h in hands]
    total = tricks_done + len(hs[leader]) + (1 if current_trick_cards else 0)
    re = [(re_mask >> s) & 1 for s in range(4)]
    hz = -1 if hochzeiter is None or tricks_done >= 3 else hochzeiter
    rand = rng.random
    if policy is None and winners is None and hz < 0:
        if not current_trick_cards:
            return _lean(tables, hs, leader, tricks_done, total, re, rand)
        # Finish the partly played trick one card at a time, then go lean.
        ra, rt, leader = _general(
            tables,
            hs,
            leader,
            current_trick_cards,
            tricks_done,
            tricks_done + 1,
            total,
            re,
            -1,
            rand,
            None,
            None,
        )
        la, lt = _lean(tables, hs, leader, tricks_done + 1, total, re, rand)
        return ra + la, rt + lt
    ra, rt, _ = _general(
        tables,
        hs,
        leader,
        current_trick_cards,
        tricks_done,
        total,
        total,
        re,
        hz,
        rand,
        policy,
        winners,
    )
    return ra, rt


def _general(
    tables: FastTables,
    hs: list[list[int]],
    leader: int,
    current: Sequence[int],
    number: int,
    stop: int,
    total: int,
    re: list[int],
    hz: int,
    rand: Callable[[], float],
    policy: Policy | None,
    winners: list[int] | None,
) -> tuple[int, int, int]:
    """Play tricks ``number + 1 .. stop`` card by card; returns Re's Augen, tricks, the leader."""
    span = tables.span
    augen = tables.augen
    re_augen = 0
    re_tricks = 0
    trick = list(current)
    while number < stop:
        for pos in range(len(trick), 4):
            seat = ROT[leader][pos]
            h = hs[seat]
            if pos == 0:
                a, b = 0, len(h)
            else:
                lo, hi = span[trick[0]]
                a = bisect_left(h, lo)
                b = bisect_left(h, hi, a)
                if a == b:
                    a, b = 0, len(h)
            i = a + floor(rand() * (b - a)) if policy is None else policy(seat, h, a, b, trick)
            trick.append(h.pop(i))
        number += 1
        leader = ROT[leader][trick_winner(tables, trick, number == total)]
        if hz >= 0:
            # Hochzeit: the first trick of 1–3 won by another seat makes it the partner;
            # if the Hochzeiter wins all three he plays alone (TSR 4.4).
            if leader != hz:
                re[leader] = 1
                hz = -1
            elif number >= 3:
                hz = -1
        if winners is not None:
            winners.append(leader)
        if re[leader]:
            re_augen += augen[trick[0]] + augen[trick[1]] + augen[trick[2]] + augen[trick[3]]
            re_tricks += 1
        trick = []
    return re_augen, re_tricks, leader


def _lean(
    tables: FastTables,
    hs: list[list[int]],
    leader: int,
    number: int,
    total: int,
    re: Sequence[int],
    rand: Callable[[], float],
) -> tuple[int, int]:
    """The hot loop: whole tricks of random legal cards, unrolled, no per-card objects."""
    span = tables.span
    st_of = tables.strength
    augen = tables.augen
    dulle = tables.house_dulle
    re_augen = 0
    re_tricks = 0
    for n in range(total - number, 0, -1):  # every hand holds n cards when a trick starts
        s0, s1, s2, s3 = ROT[leader]
        h = hs[s0]
        c0 = h.pop(floor(rand() * n))
        a, b = span[c0]
        st = st_of[c0]
        h = hs[s1]
        i = bisect_left(h, a)
        j = bisect_left(h, b, i)
        c1 = h.pop(i + floor(rand() * (j - i)) if i != j else floor(rand() * n))
        h = hs[s2]
        i = bisect_left(h, a)
        j = bisect_left(h, b, i)
        c2 = h.pop(i + floor(rand() * (j - i)) if i != j else floor(rand() * n))
        h = hs[s3]
        i = bisect_left(h, a)
        j = bisect_left(h, b, i)
        c3 = h.pop(i + floor(rand() * (j - i)) if i != j else floor(rand() * n))
        best = st[c0]
        leader = s0
        x = st[c1]
        if x > best:
            best = x
            leader = s1
        x = st[c2]
        if x > best:
            best = x
            leader = s2
        if st[c3] > best:
            leader = s3
        if dulle >= 0 and (c0 == dulle or c1 == dulle or c2 == dulle):
            # A house rule may let the second Herz-Zehn win (TSR 5.3 names the first).
            leader = ROT[s0][trick_winner(tables, (c0, c1, c2, c3), n == 1)]
        if re[leader]:
            re_augen += augen[c0] + augen[c1] + augen[c2] + augen[c3]
            re_tricks += 1
    return re_augen, re_tricks


def _draw_ranges(size: int) -> tuple[range, range, range]:
    """How many cards are left before each draw of the first three hands."""
    n = size // 4
    return (range(size, size - n, -1), range(size - n, size - 2 * n, -1), range(2 * n, n, -1))


_DRAWS = {True: _draw_ranges(48), False: _draw_ranges(40)}


def deal(tables: FastTables, rng: random.Random, with_nines: bool = True) -> list[list[int]]:
    """A uniformly random deal as four sorted fast-id hands.

    Three hands are drawn card by card from the sorted deck (one ``rng.random()`` per card);
    what stays is sorted already and is the fourth hand. The ``map`` chains keep the draws
    in C, about twice as fast as ``rng.shuffle`` plus four sorts.
    """
    cards = list(tables.deck if with_nines else tables.deck_without_nines)
    pop = cards.pop
    r1, r2, r3 = _DRAWS[with_nines]
    draws = iter(rng.random, 2.0)  # random() never returns 2.0: an endless stream
    return [
        sorted(map(pop, map(floor, map(mul, r1, draws)))),
        sorted(map(pop, map(floor, map(mul, r2, draws)))),
        sorted(map(pop, map(floor, map(mul, r3, draws)))),
        cards,
    ]


_NORMAL = fast_tables(Contract.NORMAL)
_ALTE = _NORMAL.code[Card.CQ]


def random_playout(rng: random.Random) -> tuple[int, int]:
    """A normal game from a fresh deal, 48 random legal cards: ``(re_augen, re_tricks)``.

    Re are the holders of the Kreuz-Damen; one seat holding both plays alone, as in a
    stille Hochzeit (TSR 4.4). Seat 0 deals, seat 1 leads.
    """
    hands = deal(_NORMAL, rng)
    re = [_ALTE in h for h in hands]
    return _lean(_NORMAL, hands, 1, 0, 12, re, rng.random)


def random_playout_from_deal(seed: int) -> tuple[int, int]:
    """``random_playout`` with its own generator seeded by ``seed`` (the benchmark's unit).

    Deterministic per seed, but not the hands of ``Deal.shuffled(seed)``: ``deal`` draws
    the cards differently from ``rng.shuffle``.
    """
    return random_playout(seeded_random(seed))
