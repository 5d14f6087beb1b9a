"""Inference from play: a small learned model of where the unseen cards are.

Given what one seat has seen of a normal game, the model rates for each other seat and card
kind how likely that seat holds an unseen copy. The Monte-Carlo levels sample their worlds
as before (consistent with voids, Alten and calls) and then resample them by the model
(``weigh``), so worlds that explain the others' plays count more.

The model is a one-hidden-layer network over counts of what each seat led, took tricks with,
played under and smeared onto whom; its weights lie beside this file (``handmodel.npz``) and
are loaded with numpy. ``python -m bot.benchmarks.handmodel`` trains them from self-play.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bot.ai.knowledge import Worlds, voids_of
from bot.ai.playout import Tables
from bot.rules.calls import Party
from bot.rules.cards import AUGEN, Card, deck
from bot.rules.view import PlayerView

Floats = npt.NDArray[np.float32]

KINDS = 24
_GLOBAL = 2 * KINDS + 2 + 1 + 4
_PER_SEAT = 3 * KINDS + 4 + 5 + 1 + 2 + 2
# One row per other seat: what everyone saw, then what that seat did, then which seat it is.
FEATURES = _GLOBAL + _PER_SEAT + 3
WEIGHTS = Path(__file__).with_name("handmodel.npz")
# Row v: the eight bits of the byte value v.
_BYTE_BITS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.float64)
# A card this fat played under another seat's trick is a smear (Zehn, Ass).
_FAT = 10


def features(view: PlayerView) -> Floats:
    """(3, FEATURES): what ``view``'s seat has seen, one row per other seat (1..3 after it)."""
    me = view.seat
    order = view.order
    x = np.zeros(_GLOBAL + 3 * _PER_SEAT, dtype=np.float32)
    unseen = np.zeros(KINDS, dtype=np.float32)
    for c in deck(view.ruleset.with_nines):
        unseen[int(c)] += 1
    for c in view.hand:
        x[int(c)] += 1
        unseen[int(c)] -= 1
    blocks = [_GLOBAL + r * _PER_SEAT for r in range(3)]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    tricks.append((view.current_leader, view.current_trick))
    for leader, cards in tricks:
        best = holder = -1
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            unseen[int(card)] -= 1
            r = (seat - me) % 4
            took = i == 0 or order.beats(card, Card(best))
            if r:
                b = blocks[r - 1]
                if i == 0:
                    x[b + int(card)] += 1
                elif took:
                    x[b + KINDS + int(card)] += 1
                else:
                    x[b + 2 * KINDS + int(card)] += 1
                    if AUGEN[card] >= _FAT:
                        x[b + 3 * KINDS + (holder - me) % 4] += 1
            if took:
                best, holder = int(card), seat
    x[KINDS : 2 * KINDS] = unseen
    g = 2 * KINDS
    own = view.own_party
    x[g] = own is Party.RE
    x[g + 1] = own is Party.KONTRA
    x[g + 2] = len(view.tricks) / 12
    x[g + 3 + len(view.current_trick)] = 1
    voids = voids_of(view)
    level = [-1, -1, -1, -1]
    for s, call in view.calls:
        level[s] = max(level[s], call.level)
    for r in range(1, 4):
        s = (me + r) % 4
        b = blocks[r - 1] + 3 * KINDS + 4
        x[b : b + 5] = [(voids[s] >> k) & 1 for k in range(5)]
        x[b + 5] = view.cards_in_hand[s] / 12
        x[b + 6] = view.parties[s] is Party.RE
        x[b + 7] = view.parties[s] is Party.KONTRA
        x[b + 8] = level[s] >= 0
        x[b + 9] = max(level[s], 0)
    rows = np.zeros((3, FEATURES), dtype=np.float32)
    rows[:, :_GLOBAL] = x[:_GLOBAL]
    for r in range(3):
        rows[r, _GLOBAL : _GLOBAL + _PER_SEAT] = x[blocks[r] : blocks[r] + _PER_SEAT]
        rows[r, _GLOBAL + _PER_SEAT + r] = 1
    return rows


@dataclass(frozen=True, slots=True)
class HandModel:
    """``w1`` (FEATURES, H), ``b1``, ``w2`` (H, KINDS), ``b2``; inputs scaled by ``scale``.
    The same network rates each of the three other seats.
    """

    scale: Floats
    w1: Floats
    b1: Floats
    w2: Floats
    b2: Floats

    def logits(self, x: Floats) -> Floats:
        """(…, 3, KINDS) from (…, 3, FEATURES): each other seat's score for holding an
        unseen copy of each kind, before the hand sizes (``log_odds`` adds them).
        """
        h = np.maximum(0, (x * self.scale) @ self.w1 + self.b1)
        out: Floats = h @ self.w2 + self.b2
        return out

    def log_odds(self, view: PlayerView) -> Floats:
        """(4, KINDS): log of how likely each seat holds an unseen copy of each kind, up to a
        constant per kind; the viewer's own row is 0.
        """
        z = self.logits(features(view))
        out = np.zeros((4, KINDS), dtype=np.float32)
        for r in range(1, 4):
            s = (view.seat + r) % 4
            out[s] = z[r - 1] + np.log(max(view.cards_in_hand[s], 1))
        return out


@cache
def load(path: Path = WEIGHTS) -> HandModel | None:
    """The shipped model, or None if no weights lie there."""
    if not path.exists():
        return None
    with np.load(path) as f:
        return HandModel(*(f[k].astype(np.float32) for k in ("scale", "w1", "b1", "w2", "b2")))


def resample(
    worlds: Worlds,
    log_odds: Floats,
    tables: Tables,
    count: int,
    gen: np.random.Generator,
    temper: float = 1.0,
) -> Worlds:
    """``count`` of ``worlds`` drawn by how well each explains the play so far: a world's
    weight is the product of the model's odds for every card where it lies, to the power
    ``temper`` (below 1 trusts the model less).
    """
    # A hand's score is the sum of its cards' log odds: summed a byte of the hand at a time
    # from tables of every byte value, which is much cheaper than unpacking the bits.
    per_bit = log_odds[:, tables.bit_kinds].astype(np.float64)  # (4, 48)
    table = (_BYTE_BITS @ per_bit.reshape(4, 6, 8).transpose(0, 2, 1)).transpose(0, 2, 1)
    score = np.zeros(len(worlds.holdings))
    for seat in range(4):
        hand = worlds.holdings[:, seat]
        for j in range(6):
            score += table[seat, j].take((hand >> (8 * j)) & 255)
    score *= temper
    p = np.exp(score - score.max())
    # Systematic resampling: each world is drawn about count * its share of the weight times.
    edges = np.cumsum(p / p.sum())
    pick = np.searchsorted(edges, (gen.random() + np.arange(count)) / count)
    pick = np.minimum(pick, len(p) - 1)
    return Worlds(worlds.holdings[pick], worlds.re_mask[pick], worlds.solo[pick])
