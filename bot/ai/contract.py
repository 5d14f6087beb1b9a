"""Search for the contract: gesund, a solo or a Hochzeit, by playouts from the deal.

At the Vorbehaltsabfrage (and when naming the reservation) each candidate contract is played
out in the same sampled worlds: the other three hands dealt uniformly from the unseen cards,
every game played to its end with the batch policy of ``bot.ai.playout`` and valued for this
seat with ``bot.ai.value`` (a soloist's score counts three times). The candidate with the best
mean wins; a solo must beat playing normally by ``SOLO_MARGIN``.

An open Pflichtsolo is an optimal-stopping problem: played now it is an extra game (the same
dealer deals again), else the hand is played normally and the solo waits for a better hand,
until Vorführen forces it on whatever hand comes. The best solo is played now when its mean
beats the best other contract's by at least ``PFLICHT_THRESHOLDS[k]``, ``k`` the round's
games after this one in which the seat could still choose (see ``pflicht_threshold``).

House rules are searched the same way: offering an Armut is played out with the others
answering by the heuristic's rule (the first strong enough hand takes, returns the cheapest
cards and plays with the poor seat), a hand nobody takes is dealt again and scores 0, and so
does Schmeißen. Whether to take an Armut offered is searched in worlds where the poor seat
holds exactly the trumps it offered (``rate_armut_take``), and the cards its taker gives back
among a few sets (``rate_armut_return``); ``armut_answers`` ranks either. Solos far too weak
to matter (``solo_strength`` below ``MIN_STRENGTH``) are not searched for a Lustsolo, and a
hand with nothing else to choose plays normally at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from bot.ai.heuristic import (
    LUSTSOLO_STRENGTH,
    TAKE_ARMUT_STRENGTH,
    HeuristicStrategy,
    armut_return,
    normal_strength,
    pflicht_open,
    solo_strength,
)
from bot.ai.playout import Ints, Tables, playouts, tables_for
from bot.ai.value import values
from bot.rules.cards import AUGEN, Card, Suit, deck
from bot.rules.contracts import SOLOS, Contract
from bot.rules.game import (
    Action,
    ArmutOffer,
    Declare,
    Phase,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
    armut_trumps,
    schmeissen_reasons,
)
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView

# Solos the rough strength count rates this far below a Lustsolo are never worth searching.
MIN_STRENGTH = LUSTSOLO_STRENGTH - 4.0
# Solos searched at most, the strongest by ``solo_strength`` first.
MAX_SOLOS = 3
# Points per game a solo's mean must exceed the best non-solo's by. 1.0 against 0 measured
# -0.01 points per game (-0.05..+0.03, docs/ai.md): the playouts do not flatter solos.
SOLO_MARGIN = 0.0

# Play an open Pflichtsolo now when the best solo's mean beats the best other contract's by
# at least ``PFLICHT_THRESHOLDS[k]`` points, ``k`` the games after this one still free to
# choose (the last entry for more): what waiting for a better hand is worth, by optimal
# stopping over 8,000 random hands searched at 3,000 playouts (derived and explained in
# ``bot.benchmarks.pflichtsolo``; at 1,000 playouts the figures differ by 0.02 at most).
# fmt: off
PFLICHT_THRESHOLDS: tuple[float, ...] = (
    -7.28, -6.17, -5.51, -5.03, -4.64, -4.32, -4.04, -3.79,
    -3.57, -3.38, -3.19, -3.03, -2.88, -2.73, -2.6, -2.48,
    -2.36, -2.25, -2.14, -2.05, -1.95, -1.86, -1.78, -1.69,
    -1.61,
)
# fmt: on

# Worlds at most for an Armut: each is dealt and exchanged in Python (about 30 µs), so a
# schwer budget would cost 0.2 s or more; 500 worlds rate two answers within 0.1 point or so.
ARMUT_WORLDS = 500

_CQ = int(Card.CQ)
_NORMAL = Contract.NORMAL.order


class HouseOption(StrEnum):
    """House-rule choices searched beside the contracts."""

    ARMUT = "armut"  # offer the hand's trumps
    SCHMEISSEN = "schmeissen"  # throw the hand in: dealt again, nothing scored


# A searched option: a contract to name, a house-rule choice, or None for playing normally.
Option = Contract | HouseOption | None


@dataclass(frozen=True, slots=True)
class ContractRating:
    """The mean score for this seat of each candidate (None: play normally) over ``worlds``."""

    means: dict[Option, float]
    worlds: int

    def best(self, margin: float = SOLO_MARGIN, solos_only: bool = False) -> Option:
        def score(c: Option) -> float:
            return self.means[c] - (margin if is_solo(c) else 0.0)

        pool = [c for c in self.means if not solos_only or is_solo(c)]
        return max(pool, key=score) if pool else None

    def worth(self, wait: float = 0.0) -> dict[Option, float]:
        """Each option's mean, the others than a solo raised by ``wait``: what keeping an
        open Pflichtsolo for a later hand is worth (``pflicht_threshold``).
        """
        return {c: v + (0.0 if is_solo(c) else wait) for c, v in self.means.items()}

    def pflicht_now(self, wait: float) -> Option:
        """With a Pflichtsolo open: the best solo if it is worth more than waiting, else the
        best other contract.
        """
        worth = self.worth(wait)
        return max(worth, key=lambda c: (worth[c], is_solo(c)))


def is_solo(c: Option) -> bool:
    """Whether a searched option is a declared solo (None: playing normally)."""
    return isinstance(c, Contract) and c.is_declared_solo


def pflicht_threshold(view: PlayerView) -> float:
    """How much better than the best other contract the best solo must be to play an open
    Pflichtsolo now: the worth of waiting with the games still free after this one.
    """
    r = view.round
    assert r is not None
    # Vorführen starts once the open Pflichtsoli fill the games left (TSR 4.2).
    free = max(0, r.games_left - 1 - len(r.missing()))
    return PFLICHT_THRESHOLDS[min(free, len(PFLICHT_THRESHOLDS) - 1)]


def candidates(view: PlayerView, vorgefuehrt: bool) -> list[Option]:
    """The contracts worth searching for this hand; None stands for playing normally. A solo
    that must be played some time (vorgeführt, or an open Pflichtsolo) is searched however weak.
    """
    out: list[Option] = [] if vorgefuehrt else [None]
    if view.ruleset.solos_enabled:
        ranked = sorted(SOLOS, key=lambda c: -solo_strength(view.hand, c))
        if not vorgefuehrt and not pflicht_open(view):
            ranked = [c for c in ranked if solo_strength(view.hand, c) >= MIN_STRENGTH]
        out.extend(ranked[:MAX_SOLOS])
    if vorgefuehrt:
        return out
    if view.hand.count(Card.CQ) == 2:
        out.append(Contract.HOCHZEIT)
    rules = view.ruleset
    if rules.armut and len(armut_trumps(view.hand)) <= rules.armut_max_trumps:
        out.append(HouseOption.ARMUT)
    if view.phase is Phase.VORBEHALT and schmeissen_reasons(view.hand, rules):
        out.append(HouseOption.SCHMEISSEN)
    return out


def rate_contracts(
    view: PlayerView,
    options: list[Option],
    budget: int,
    rng: random.Random,
    soloist_leads: bool,
) -> ContractRating:
    """Each option's mean score for this seat, all over the same sampled deals."""
    gen = np.random.default_rng(rng.getrandbits(64))
    rules = view.ruleset
    me = view.seat
    worlds = max(1, budget // max(1, len(options)))
    mine = [int(c) for c in view.hand]
    unseen = [int(c) for c in deck(rules.with_nines)]
    for c in mine:
        unseen.remove(c)
    others = [s for s in range(4) if s != me]
    size = len(mine)
    # Seat of each unseen card per world: a uniform deal of the other three hands.
    place = gen.random((worlds, len(unseen))).argsort(axis=1)
    labels = np.array(others, dtype=np.int64)[np.minimum(place // size, 2)]
    cq_at = np.array([c == _CQ for c in unseen])
    # Seats holding a Kreuz-Dame in each world (Re in a normal game).
    re_normal = np.zeros(worlds, dtype=np.int64)
    for s in others:
        re_normal |= ((labels == s) & cq_at).any(axis=1).astype(np.int64) << s
    if _CQ in mine:
        re_normal |= 1 << me
    lone = re_normal & (re_normal - 1) == 0  # one seat holds both: a stille Hochzeit
    leader = (view.dealer + 1) % 4
    means: dict[Option, float] = {}
    for option in options:
        if option is HouseOption.SCHMEISSEN:
            means[option] = 0.0  # dealt again: the next hand is worth 0 to every seat
            continue
        if option is HouseOption.ARMUT:
            cards = [Card(c) for c in unseen]
            rows = labels[:ARMUT_WORLDS].tolist()
            deals = [_world(list(view.hand), cards, row, me) for row in rows]
            takers = [_armut_taker(d, me, me) for d in deals]
            means[option] = float(_armut_values(rules, deals, me, takers, me, leader, gen).mean())
            continue
        contract = option or Contract.NORMAL
        t = tables_for(contract, rules)
        hands = _hands(t.low_bit, mine, unseen, labels, me)
        hochzeiter = -1
        if option is None:
            re_mask, solo = re_normal, lone
            if me_both(mine) and not rules.stille_hochzeit_enabled:
                # Both Alten and gesund: the rules reveal a Hochzeit anyway.
                hochzeiter = me
                solo = np.zeros(worlds, dtype=bool)
        elif option is Contract.HOCHZEIT:
            re_mask = np.full(worlds, 1 << me, dtype=np.int64)
            solo = np.zeros(worlds, dtype=bool)
            hochzeiter = me
        else:
            re_mask = np.full(worlds, 1 << me, dtype=np.int64)
            solo = np.ones(worlds, dtype=bool)
        start = me if is_solo(option) and soloist_leads else leader
        empty = np.empty((worlds, 0), dtype=np.int64)
        out = playouts(t, hands, start, empty, 0, re_mask, solo, gen, hochzeiter)
        is_re = (out.re_mask >> me) & 1 == 1
        factor = np.where(is_re, np.where(out.solo, 3, 1), -1)
        v = values(out.solo, -1, -1, out.re_augen, out.re_tricks, rules) + out.sonderpunkte
        means[option] = float((factor * v).mean())
    return ContractRating(means, worlds)


def rate_armut_take(view: PlayerView, budget: int, rng: random.Random) -> tuple[float, float]:
    """The mean score for this seat of taking the Armut offered to it and of declining it,
    over the same worlds: the poor seat holds exactly as many trumps as it offered. Declined,
    the seats still to be asked answer by the heuristic's rule; if nobody takes, 0 (dealt
    again).
    """
    armut = view.armut
    assert armut is not None
    rules = view.ruleset
    me, poor, count = view.seat, armut.poor, armut.offered
    gen = np.random.default_rng(rng.getrandbits(64))
    mine = list(view.hand)
    unseen = list(deck(rules.with_nines))
    for c in mine:
        unseen.remove(c)
    size = len(mine)
    worlds = min(ARMUT_WORLDS, max(1, budget // 2))
    labels = _poor_labels(gen, worlds, unseen, me, poor, count, size - count)
    deals = [_world(mine, unseen, row, me) for row in labels.tolist()]
    leader = (view.dealer + 1) % 4
    take = _armut_values(rules, deals, poor, [me] * len(deals), me, leader, gen)
    takers = [_armut_taker(d, poor, me) for d in deals]
    decline = _armut_values(rules, deals, poor, takers, me, leader, gen)
    return float(take.mean()), float(decline.mean())


def armut_answers(
    view: PlayerView,
    budget: int,
    rng: random.Random,
    also: TakeArmut | ReturnCards | None = None,
) -> list[tuple[TakeArmut | ReturnCards, float]]:
    """The answers this seat may give in an Armut with their mean scores, best first (a tie
    keeps the earlier): asked, declining and taking; as its taker, the cards to give back
    (``also``, the cards a player gave back, rated too).
    """
    armut = view.armut
    assert armut is not None
    seat = view.seat
    answers: list[tuple[TakeArmut | ReturnCards, float]]
    if armut.taker is None:
        take, decline = rate_armut_take(view, budget, rng)
        answers = [(TakeArmut(seat, False), decline), (TakeArmut(seat, True), take)]
    else:
        extra = tuple(sorted(also.cards)) if isinstance(also, ReturnCards) else None
        rated = rate_armut_return(view, budget, rng, also=extra)
        answers = [(ReturnCards(seat, cards), mean) for cards, mean in rated.items()]
    return sorted(answers, key=lambda a: -a[1])


def return_options(hand: tuple[Card, ...] | list[Card], count: int) -> list[tuple[Card, ...]]:
    """The sets of ``count`` cards an Armut's taker weighs giving back: the heuristic's
    cheapest cards, each short plain suit given back whole (a void to trump in with, filled
    up with the cheapest cards), the fattest plain cards (the partner's tricks count for both)
    and the weakest trumps. Each set sorted, none twice.
    """
    plain = [c for c in hand if not _NORMAL.is_trump(c)]
    sets = [armut_return(hand, count, _NORMAL)]
    for suit in Suit:
        whole = [c for c in plain if c.suit is suit]
        if 0 < len(whole) <= count:
            rest = list(hand)
            for c in whole:
                rest.remove(c)
            sets.append(whole + armut_return(rest, count - len(whole), _NORMAL))
    if len(plain) >= count:
        sets.append(sorted(plain, key=lambda c: (-AUGEN[c], int(c)))[:count])
    trumps = sorted((c for c in hand if _NORMAL.is_trump(c)), key=_NORMAL.power.__getitem__)
    sets.append(trumps[:count])
    out: list[tuple[Card, ...]] = []
    for cards in sets:
        key = tuple(sorted(cards))
        if len(key) == count and key not in out:
            out.append(key)
    return out


def rate_armut_return(
    view: PlayerView, budget: int, rng: random.Random, also: tuple[Card, ...] | None = None
) -> dict[tuple[Card, ...], float]:
    """The mean score for this seat, the Armut's taker, of giving back each of
    ``return_options`` (and ``also``, sorted), all in the same worlds: the poor seat holds
    only plain cards now (it gave away every trump), the other two hands are dealt from the
    rest.
    """
    armut = view.armut
    assert armut is not None and armut.taker == view.seat
    rules = view.ruleset
    me, poor, count = view.seat, armut.poor, armut.offered
    options = return_options(view.hand, count)
    if also is not None and also not in options:
        options.append(also)
    worlds = max(1, budget // len(options))
    gen = np.random.default_rng(rng.getrandbits(64))
    mine = list(view.hand)
    unseen = list(deck(rules.with_nines))
    for c in mine:
        unseen.remove(c)
    labels = _poor_labels(gen, worlds, unseen, me, poor, 0, rules.hand_size - count)
    t = tables_for(Contract.NORMAL, rules)
    hands = _hands(t.low_bit, [int(c) for c in mine], [int(c) for c in unseen], labels, me)
    n = len(options)
    batch = np.repeat(hands, n, axis=0)
    back = np.tile(np.array([_own_bits(t, mine, cards) for cards in options]), worlds)
    batch[:, me] &= ~back
    batch[:, poor] |= back
    re_mask = np.full(worlds * n, (1 << me) | (1 << poor), dtype=np.int64)
    solo = np.zeros(worlds * n, dtype=bool)
    empty = np.empty((worlds * n, 0), dtype=np.int64)
    out = playouts(t, batch, (view.dealer + 1) % 4, empty, 0, re_mask, solo, gen)
    v = values(out.solo, -1, -1, out.re_augen, out.re_tricks, rules) + out.sonderpunkte
    means = v.reshape(worlds, n).mean(axis=0)
    return dict(zip(options, means.tolist(), strict=True))


def _poor_labels(
    gen: np.random.Generator,
    worlds: int,
    unseen: list[Card],
    me: int,
    poor: int,
    trumps: int,
    plain: int,
) -> Ints:
    """The seat of each unseen card per world, when the poor seat of an Armut holds
    ``trumps`` of the unseen trumps and ``plain`` of the plain cards, all at random; the
    other two seats split the rest evenly.
    """
    rows = np.arange(worlds)[:, None]
    held = np.zeros((worlds, len(unseen)), dtype=bool)
    is_trump = np.array([_NORMAL.is_trump(c) for c in unseen])
    for group, quota in ((np.flatnonzero(is_trump), trumps), (np.flatnonzero(~is_trump), plain)):
        pick = gen.random((worlds, len(group))).argsort(axis=1)[:, :quota]
        held[rows, group[pick]] = True
    key = np.where(held, 2.0, gen.random((worlds, len(unseen))))
    first = key.argsort(axis=1).argsort(axis=1) < (len(unseen) - trumps - plain) // 2
    a, b = (s for s in range(4) if s not in (me, poor))
    return np.where(held, poor, np.where(first, a, b))


def _own_bits(t: Tables, mine: list[Card], cards: tuple[Card, ...]) -> int:
    """The bits ``cards`` of this seat's hand have in ``_hands``."""
    left = list(zip(mine, _card_bits(t.low_bit, mine), strict=True))
    out = 0
    for card in cards:
        i = next(i for i, (c, _) in enumerate(left) if c == card)
        out |= left.pop(i)[1]
    return out


def _world(mine: list[Card], unseen: list[Card], row: list[int], me: int) -> list[list[Card]]:
    """One sampled deal as card lists per seat (``row``: the seat of each unseen card)."""
    hands: list[list[Card]] = [[], [], [], []]
    hands[me] = mine
    for card, seat in zip(unseen, row, strict=True):
        hands[seat].append(card)
    return hands


def _armut_taker(hands: list[list[Card]], poor: int, after: int) -> int | None:
    """Who takes the Armut of ``poor`` among the seats asked after ``after``, by the
    heuristic's rule (a hand strong enough for the game on its own).
    """
    asked = [(poor + i) % 4 for i in range(1, 4)]
    start = asked.index(after) + 1 if after in asked else 0
    for seat in asked[start:]:
        if normal_strength(hands[seat]) >= TAKE_ARMUT_STRENGTH:
            return seat
    return None


def _armut_values(
    rules: Ruleset,
    deals: list[list[list[Card]]],
    poor: int,
    takers: list[int | None],
    me: int,
    leader: int,
    gen: np.random.Generator,
) -> npt.NDArray[np.float64]:
    """This seat's score in each deal played as an Armut of ``poor`` taken by that deal's
    taker (who returns the heuristic's cards); 0 where nobody took it.
    """
    t = tables_for(Contract.NORMAL, rules)
    out = np.zeros(len(deals))
    taken = [i for i, taker in enumerate(takers) if taker is not None]
    if not taken:
        return out
    hands = np.zeros((len(taken), 4), dtype=np.int64)
    re_mask = np.zeros(len(taken), dtype=np.int64)
    for row, i in enumerate(taken):
        taker = takers[i]
        assert taker is not None
        cards = [list(h) for h in deals[i]]
        given = [c for c in cards[poor] if _NORMAL.is_trump(c)]
        got = cards[taker] + given
        back = armut_return(got, len(given), _NORMAL)
        for c in back:
            got.remove(c)
        cards[taker] = got
        cards[poor] = [c for c in cards[poor] if c not in given] + back
        hands[row] = _deal_bits(t, cards)
        re_mask[row] = (1 << poor) | (1 << taker)
    solo = np.zeros(len(taken), dtype=bool)
    empty = np.empty((len(taken), 0), dtype=np.int64)
    game = playouts(t, hands, leader, empty, 0, re_mask, solo, gen)
    sign = np.where((game.re_mask >> me) & 1 == 1, 1, -1)
    v = values(game.solo, -1, -1, game.re_augen, game.re_tricks, rules) + game.sonderpunkte
    out[taken] = sign * v
    return out


def _deal_bits(t: Tables, hands: list[list[Card]]) -> list[int]:
    """Each seat's hand bits, the two copies of a kind on their two bits across the deal."""
    bits = iter(_card_bits(t.low_bit, [c for cards in hands for c in cards]))
    return [sum(next(bits) for _ in cards) for cards in hands]


def me_both(mine: list[int]) -> bool:
    return mine.count(_CQ) == 2


def _hands(
    low_bit: tuple[int, ...], mine: list[int], unseen: list[int], labels: Ints, me: int
) -> Ints:
    """(worlds, 4) hand bits in one contract's layout: own cards take a kind's low bit first."""
    bits = _card_bits(low_bit, mine + unseen)
    own = sum(bits[: len(mine)])
    b = np.array(bits[len(mine) :], dtype=np.int64)
    hands = np.zeros((len(labels), 4), dtype=np.int64)
    for s in range(4):
        hands[:, s] = own if s == me else np.where(labels == s, b, 0).sum(axis=1)
    return hands


def _card_bits(low_bit: tuple[int, ...], cards: Sequence[int]) -> list[int]:
    """The bit of each physical card: a kind's first copy in ``cards`` its low bit, the
    second the next.
    """
    copies = [0] * 24
    out = []
    for c in cards:
        out.append(1 << (low_bit[c] + copies[c]))
        copies[c] += 1
    return out


@dataclass(slots=True)
class ContractSearch:
    """Vorbehalt and the declaration by search; ``budget`` playouts per decision."""

    budget: int = 3000
    margin: float = SOLO_MARGIN
    fallback: HeuristicStrategy = field(default_factory=HeuristicStrategy)
    # The contract chosen at the Vorbehalt, per seat and hand, named when asked for it.
    chosen: dict[int, tuple[tuple[Card, ...], int, Option]] = field(default_factory=dict)
    # The last search's means (None: the last choice needed no search), for the coach.
    rating: ContractRating | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
        if view.phase is Phase.VORBEHALT:
            return self._reserve(view, legal, rng)
        if view.phase is Phase.DECLARE:
            return self._declare(view, legal, rng)
        if view.phase is Phase.ARMUT and view.armut is not None:
            return armut_answers(view, self.budget, rng)[0][0]
        return self.fallback.choose(view, rng)

    def want(self, view: PlayerView, rng: random.Random, vorgefuehrt: bool) -> Option:
        """The contract to name (None: gesund, or whatever the heuristic prefers)."""
        key = (view.hand, view.dealer)
        kept = self.chosen.get(view.seat)
        if kept is not None and kept[:2] == key and not vorgefuehrt:
            return kept[2]
        options = candidates(view, vorgefuehrt)
        pflicht = pflicht_open(view)
        self.rating = None
        if len(options) <= 1 and not vorgefuehrt:
            choice = None if not options else options[0]
        else:
            rating = self.rating = rate_contracts(view, options, self.budget, rng, pflicht)
            if pflicht and not vorgefuehrt:
                choice = rating.pflicht_now(pflicht_threshold(view))
            else:
                choice = rating.best(self.margin, solos_only=vorgefuehrt)
        self.chosen[view.seat] = (*key, choice)
        return choice

    def _reserve(self, view: PlayerView, legal: list[Action], rng: random.Random) -> Action:
        want = self.want(view, rng, vorgefuehrt=False)
        throw = want is HouseOption.SCHMEISSEN
        reserve = want is not None and not throw
        for a in legal:
            if (
                isinstance(a, Schmeissen)
                if throw
                else isinstance(a, Reserve) and a.reserve == reserve
            ):
                return a
        return self.fallback.choose(view, rng)

    def _declare(self, view: PlayerView, legal: list[Action], rng: random.Random) -> Action:
        options: dict[Option, Action] = {a.contract: a for a in legal if isinstance(a, Declare)}
        for a in legal:
            if isinstance(a, ArmutOffer):
                options[HouseOption.ARMUT] = a
        want = self.want(view, rng, vorgefuehrt=view.vorgefuehrt == view.seat)
        if want in options:
            return options[want]
        return self.fallback.choose(view, rng)
