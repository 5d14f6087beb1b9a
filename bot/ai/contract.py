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

What the search does not model stays the heuristic's: an Armut offer and Schmeißen (a hand is
thrown in unless the search picks a solo). Solos far too weak to matter (``solo_strength``
below ``MIN_STRENGTH``) are not searched for a Lustsolo, and a hand with no such solo and no
Hochzeit is left to the heuristic at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from bot.ai.heuristic import (
    LUSTSOLO_STRENGTH,
    HeuristicStrategy,
    pflicht_open,
    reserve_for,
    solo_strength,
    wants_armut,
)
from bot.ai.playout import Ints, playouts, tables_for
from bot.ai.value import values
from bot.rules.cards import Card, deck
from bot.rules.contracts import SOLOS, Contract
from bot.rules.game import Action, ArmutOffer, Declare, Phase
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

_CQ = int(Card.CQ)


@dataclass(frozen=True, slots=True)
class ContractRating:
    """The mean score for this seat of each candidate (None: play normally) over ``worlds``."""

    means: dict[Contract | None, float]
    worlds: int

    def best(self, margin: float = SOLO_MARGIN, solos_only: bool = False) -> Contract | None:
        def score(c: Contract | None) -> float:
            return self.means[c] - (margin if is_solo(c) else 0.0)

        pool = [c for c in self.means if not solos_only or is_solo(c)]
        return max(pool, key=score) if pool else None

    def worth(self, wait: float = 0.0) -> dict[Contract | None, float]:
        """Each option's mean, the others than a solo raised by ``wait``: what keeping an
        open Pflichtsolo for a later hand is worth (``pflicht_threshold``).
        """
        return {c: v + (0.0 if is_solo(c) else wait) for c, v in self.means.items()}

    def pflicht_now(self, wait: float) -> Contract | None:
        """With a Pflichtsolo open: the best solo if it is worth more than waiting, else the
        best other contract.
        """
        worth = self.worth(wait)
        return max(worth, key=lambda c: (worth[c], is_solo(c)))


def is_solo(c: Contract | None) -> bool:
    """Whether a searched option is a declared solo (None: playing normally)."""
    return c is not None and c.is_declared_solo


def pflicht_threshold(view: PlayerView) -> float:
    """How much better than the best other contract the best solo must be to play an open
    Pflichtsolo now: the worth of waiting with the games still free after this one.
    """
    r = view.round
    assert r is not None
    # Vorführen starts once the open Pflichtsoli fill the games left (TSR 4.2).
    free = max(0, r.games_left - 1 - len(r.missing()))
    return PFLICHT_THRESHOLDS[min(free, len(PFLICHT_THRESHOLDS) - 1)]


def candidates(view: PlayerView, vorgefuehrt: bool) -> list[Contract | None]:
    """The contracts worth searching for this hand; None stands for playing normally. A solo
    that must be played some time (vorgeführt, or an open Pflichtsolo) is searched however weak.
    """
    out: list[Contract | None] = [] if vorgefuehrt else [None]
    if view.ruleset.solos_enabled:
        ranked = sorted(SOLOS, key=lambda c: -solo_strength(view.hand, c))
        if not vorgefuehrt and not pflicht_open(view):
            ranked = [c for c in ranked if solo_strength(view.hand, c) >= MIN_STRENGTH]
        out.extend(ranked[:MAX_SOLOS])
    if not vorgefuehrt and view.hand.count(Card.CQ) == 2:
        out.append(Contract.HOCHZEIT)
    return out


def rate_contracts(
    view: PlayerView,
    options: list[Contract | None],
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
    means: dict[Contract | None, float] = {}
    for option in options:
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


def me_both(mine: list[int]) -> bool:
    return mine.count(_CQ) == 2


def _hands(
    low_bit: tuple[int, ...], mine: list[int], unseen: list[int], labels: Ints, me: int
) -> Ints:
    """(worlds, 4) hand bits in one contract's layout: own cards take a kind's low bit first."""
    copies = [0] * 24
    own = 0
    for c in mine:
        own |= 1 << (low_bit[c] + copies[c])
        copies[c] += 1
    bits = []
    for c in unseen:
        bits.append(1 << (low_bit[c] + copies[c]))
        copies[c] += 1
    b = np.array(bits, dtype=np.int64)
    hands = np.zeros((len(labels), 4), dtype=np.int64)
    for s in range(4):
        hands[:, s] = own if s == me else np.where(labels == s, b, 0).sum(axis=1)
    return hands


@dataclass(slots=True)
class ContractSearch:
    """Vorbehalt and the declaration by search; ``budget`` playouts per decision."""

    budget: int = 3000
    margin: float = SOLO_MARGIN
    fallback: HeuristicStrategy = field(default_factory=HeuristicStrategy)
    # The contract chosen at the Vorbehalt, per seat and hand, named when asked for it.
    chosen: dict[int, tuple[tuple[Card, ...], int, Contract | None]] = field(default_factory=dict)
    # The last search's means (None: the last choice needed no search), for the coach.
    rating: ContractRating | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
        if view.phase is Phase.VORBEHALT:
            return self._reserve(view, legal, rng)
        if view.phase is Phase.DECLARE:
            return self._declare(view, legal, rng)
        return self.fallback.choose(view, rng)

    def want(self, view: PlayerView, rng: random.Random, vorgefuehrt: bool) -> Contract | None:
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
        chosen = reserve_for(view, legal, self.want(view, rng, vorgefuehrt=False))
        return chosen or self.fallback.choose(view, rng)

    def _declare(self, view: PlayerView, legal: list[Action], rng: random.Random) -> Action:
        options = {a.contract: a for a in legal if isinstance(a, Declare)}
        vorgefuehrt = view.vorgefuehrt == view.seat
        want = self.want(view, rng, vorgefuehrt)
        if want in options:
            return options[want]
        offer = next((a for a in legal if isinstance(a, ArmutOffer)), None)
        if offer is not None and wants_armut(view):
            return offer
        return self.fallback.choose(view, rng)
