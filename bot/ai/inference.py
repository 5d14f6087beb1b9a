"""Inference from the other seats' plays: sampled worlds weighted by how well they explain them.

A world's weight is the likelihood of every card another seat has played so far, had that
seat played the rule-of-thumb policy of ``bot.ai.playout`` with its hand in that world (its
cards still held plus those it played since) and the world's parties. Following, the policy
is certain (smear onto the partner's trick, take the lead as cheaply as possible, else the
cheapest card); leading, it is a mixture (an unled Ass, the soloist's top trump, a random
card). Real players deviate, so each play's likelihood is softened to ``EPS + (1 - EPS) * p``:
no world is ever ruled out, and a play every world explains equally weighs nothing.

The worlds are oversampled and the search's budget of worlds is drawn by weight (importance
resampling), so the search itself stays unweighted.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from bot.ai.knowledge import Knowledge, Worlds
from bot.ai.playout import ACE_LEAD, Bools, Ints, Tables
from bot.rules.cards import Card
from bot.rules.contracts import Contract

Floats = npt.NDArray[np.float64]

_DULLE = int(Card.H10)

# How often a play the policy would not have made is still seen, relative to one it would.
EPS = 0.2
OVERSAMPLE = 3  # worlds drawn per world searched
# How often mittel calls Re or Kontra in its first trick, by normal_strength of the dealt hand
# (a logistic fit over 60 games: 2 % at 8, 42 % at 10, 88 % at 12).
CALL_CENTRE = 10.2
CALL_SLOPE = 1.2


def _top_bit(x: Ints) -> Ints:
    """The highest set bit of each (non-zero) value, as a value."""
    exponent = np.maximum(x.astype(np.float64).view(np.int64) >> 52, 1023)
    top: Ints = np.where(x != 0, 1 << (exponent - 1023), 0)
    return top


def log_likelihood(know: Knowledge, worlds: Worlds) -> Floats:
    """Per world, the log-likelihood of the other seats' plays so far (see the module)."""
    view = know.view
    t = know.tables
    holdings = worlds.holdings
    count = len(holdings)
    hands = [holdings[:, s].copy() for s in range(4)]
    re = worlds.re_mask
    side = [(re >> s) & 1 for s in range(4)]
    # Every trick played so far, with its number and the classes led before it.
    tricks: list[tuple[int, list[int]]] = [
        (t_.leader, [int(c) for c in t_.cards]) for t_ in view.tricks
    ]
    tricks.append((view.current_leader, [int(c) for c in view.current_trick]))
    led_before = [0]
    for _, cards in tricks[:-1]:
        led_before.append(led_before[-1] | 1 << t.klass[cards[0]])
    ll = np.zeros(count)
    # Backwards, so each seat's hand gets its later cards back before its earlier plays.
    for number in range(len(tricks) - 1, -1, -1):
        leader, cards = tricks[number]
        if not cards:
            continue
        above = t.above[t.second_dulle(number + 1)]
        led = t.klass[cards[0]]
        # The public state of the trick before each place: best card and its seat.
        best, wseat = cards[0], leader
        states = [(best, wseat)]
        for i in range(1, len(cards)):
            if above[led * 24 + best] & t.kind_mask[cards[i]]:
                best, wseat = cards[i], (leader + i) % 4
            states.append((best, wseat))
        for i in range(len(cards) - 1, -1, -1):
            seat = (leader + i) % 4
            card = cards[i]
            low = 1 << t.low_bit[card]
            hands[seat] = hands[seat] | np.where(hands[seat] & low, low << 1, low)
            if seat == know.seat:
                continue
            hand = hands[seat]
            kind = int(t.kind_mask[card])
            if i == 0:
                p = _lead_probability(t, hand, kind, led_before[number], worlds.solo, side[seat])
            else:
                best, wseat = states[i - 1]
                p = _follows(
                    t, hand, kind, led, int(above[led * 24 + best]), side[seat] == side[wseat]
                )
            ll += np.log(EPS + (1 - EPS) * p)
    # The hands are now as dealt.
    return ll + _ansage_log_likelihood(know, hands)


def _ansage_log_likelihood(know: Knowledge, dealt: list[Ints]) -> Floats:
    """Of a normal game: each other seat's Re or Kontra made, or not made in time, by the
    strength of its hand as dealt in the world (``heuristic.normal_strength``).
    """
    view = know.view
    ll = np.zeros(len(dealt[0]))
    if know.contract is not Contract.NORMAL or know.fixed_re is not None:
        return ll
    t = know.tables
    km = t.kind_mask
    high = int(km[_DULLE] | km[int(Card.CQ)] | km[int(Card.SQ)])
    aces = int(km[int(Card.CA)] | km[int(Card.SA)] | km[int(Card.HA)])
    callers = {s for s, _ in view.calls}
    for s in range(4):
        # The Ansage is due before a seat's second card.
        late = view.cards_in_hand[s] < view.ruleset.hand_size - 1
        if s == know.seat or not (s in callers or late):
            continue
        h = dealt[s]
        strength = (
            np.bitwise_count(h & t.trumps)
            + np.bitwise_count(h & high)
            + 0.5 * np.bitwise_count(h & aces)
        )
        p = np.clip(1 / (1 + np.exp(-CALL_SLOPE * (strength - CALL_CENTRE))), 0.02, 0.98)
        ll += np.log(p if s in callers else 1 - p)
    return ll


def _follows(t: Tables, hand: Ints, kind: int, led: int, ab: int, partner: Bools) -> Floats:
    """1 where the following policy plays a card of ``kind`` with this hand, else 0."""
    x = hand & t.class_mask[led]
    legal = np.where(x != 0, x, hand)
    fat = legal & t.plain
    y = legal & ab
    src = np.where((y != 0) & ~partner, y, legal)
    pick = np.where(partner & (fat != 0), _top_bit(fat), src & -src)
    out: Floats = ((pick & kind) != 0).astype(np.float64)
    return out


def _lead_probability(
    t: Tables, hand: Ints, kind: int, led_before: int, solo: Bools, mine: Ints
) -> Floats:
    """The leading policy's probability of a card of ``kind`` with this hand."""
    aces = hand & int(t.unled[led_before])
    uniform = np.bitwise_count(hand & kind) / np.maximum(np.bitwise_count(hand), 1)
    ace = ((aces & -aces) & kind) != 0
    p = np.where(aces != 0, ACE_LEAD * ace + (1 - ACE_LEAD) * uniform, uniform)
    pull = solo & (mine == 1) & (hand & t.trumps != 0)
    out: Floats = np.where(pull, (_top_bit(hand) & kind) != 0, p)
    return out


def likely_worlds(
    know: Knowledge, count: int, gen: np.random.Generator, rnd: Callable[[], float]
) -> Worlds:
    """``count`` worlds drawn by the likelihood of the plays seen, from ``OVERSAMPLE`` times
    as many sampled uniformly.
    """
    if not any(s != know.seat for s, _ in (*know.plays, *know.view.calls)):
        return know.sample(count, gen, rnd)
    pool = know.sample(count * OVERSAMPLE, gen, rnd)
    ll = log_likelihood(know, pool)
    w = np.exp(ll - ll.max())
    # Systematic resampling: each world kept about count * its share of the weight.
    cum = np.cumsum(w)
    picks = np.searchsorted(cum, (gen.random() + np.arange(count)) * (cum[-1] / count))
    picks = np.minimum(picks, len(w) - 1)
    return Worlds(pool.holdings[picks], pool.re_mask[picks], pool.solo[picks])
