"""The mittel and schwer levels: determinized Monte-Carlo over sampled hidden hands.

For each sampled deal of the unseen cards every candidate card is played out with the
rule-of-thumb policy of ``bot.ai.playout``, all (world, card) games of a decision in one numpy
batch; the card with the best mean score for this seat wins. The same playouts price the next
Ansage or Absage. Vorbehalt, the contract and an Armut (taking it, the cards given back) are
searched by ``bot.ai.contract`` when ``contracts`` is set (mittel and schwer), else left to
the heuristic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from bot.ai.contract import ContractSearch
from bot.ai.heuristic import HeuristicStrategy
from bot.ai.knowledge import Knowledge, Worlds
from bot.ai.playout import Bools, Ints, playouts
from bot.ai.value import values
from bot.rules.calls import Party
from bot.rules.game import Action, Announce, Phase, Play
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView

# A call costs information and invites the opponents' reply: it must pay clearly.
CALL_MARGIN = 0.6
CALL_MIN_WIN = 0.7


@dataclass(frozen=True, slots=True)
class CallMargins:
    """When a priced call is made: it must add more than ``gain`` expected points (for an
    Absage, keine 90 … schwarz, more than ``absage_gain`` when set) and the caller's side
    must then win at least ``win`` of the sampled worlds.
    """

    gain: float = CALL_MARGIN
    win: float = CALL_MIN_WIN
    absage_gain: float | None = None

    def pays(self, rating: Rating, call: Announce) -> bool:
        """Whether ``call``, priced in ``rating``, is worth making."""
        gain, win = rating.call_gain, rating.call_win
        if gain is None or win is None:
            return False
        margin = self.gain
        if call.call.level > 0 and self.absage_gain is not None:
            margin = self.absage_gain
        return gain > margin and win >= self.win


@dataclass(slots=True)
class Stats:
    """Counters for the benchmark: decisions searched and playouts run."""

    decisions: int = 0
    playouts: int = 0


@dataclass(frozen=True, slots=True)
class Rating:
    """One decision searched: ``means[i]`` is the mean score of ``plays[i]`` over ``worlds``
    sampled worlds, ``best`` the index of the highest; with a call asked about, the mean
    score it adds to the best card (``call_gain``) and how often the caller's side then
    wins (``call_win``, 0..1).
    """

    means: tuple[float, ...]
    best: int
    call_gain: float | None
    call_win: float | None
    worlds: int


@dataclass(slots=True)
class MonteCarloStrategy:
    """``playouts`` is the budget per decision, split over the candidate cards."""

    playouts: int = 3000
    name: str = "montecarlo"
    margins: CallMargins = CallMargins()
    fallback: HeuristicStrategy = field(default_factory=HeuristicStrategy)
    stats: Stats = field(default_factory=Stats)
    # Vorbehalt and the contract by search; None leaves them to the heuristic.
    contracts: ContractSearch | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
        if self.contracts is not None and view.phase in (
            Phase.VORBEHALT,
            Phase.DECLARE,
            Phase.ARMUT,
        ):
            return self.contracts.choose(view, rng)
        plays = [a for a in legal if isinstance(a, Play)]
        calls = [a for a in legal if isinstance(a, Announce)]
        if view.phase is not Phase.PLAY or not plays:
            return self.fallback.choose(view, rng)
        if len(plays) == 1 and not calls:
            return plays[0]
        best, call_pays = self.search(view, plays, calls[0] if calls else None, rng)
        if call_pays and calls:
            return calls[0]
        return best

    def search(
        self, view: PlayerView, plays: list[Play], call: Announce | None, rng: random.Random
    ) -> tuple[Play, bool]:
        """The best card, and whether ``call`` raises this seat's expected score."""
        rating = self.rate(view, plays, call, rng)
        return plays[rating.best], call is not None and self.margins.pays(rating, call)

    def rate(
        self, view: PlayerView, plays: list[Play], call: Announce | None, rng: random.Random
    ) -> Rating:
        """Each card's expected score for this seat over the same sampled worlds, and what
        ``call`` would add to the best card's (see :class:`Rating`).
        """
        know = Knowledge(view)
        gen = np.random.default_rng(rng.getrandbits(64))
        me = view.seat
        rules = view.ruleset
        t = know.tables
        own = view.own_party
        re_level = kontra_level = -1
        for s, c in view.calls:
            # Every caller's party is public, so the view knows it.
            if view.parties[s] is Party.RE:
                re_level = max(re_level, c.level)
            else:
                kontra_level = max(kontra_level, c.level)
        n = len(plays)
        worlds = max(1, self.playouts // n)
        w = self.sample_worlds(know, worlds, gen, rng)
        # Game g plays candidate g % n in world g // n.
        hands = np.repeat(w.holdings, n, axis=0)
        cards = np.array([int(a.card) for a in plays], dtype=np.int64)
        mine = hands[:, me] & np.tile(t.kind_mask.take(cards), worlds)
        hands[:, me] ^= mine & -mine
        trick = np.empty((worlds * n, len(view.current_trick) + 1), dtype=np.int64)
        trick[:, :-1] = [int(c) for c in view.current_trick]
        trick[:, -1] = np.tile(cards, worlds)
        led = 0
        for done_trick in view.tricks:
            led |= 1 << t.klass[done_trick.cards[0]]
        out = playouts(
            t,
            hands,
            view.current_leader,
            trick,
            len(view.tricks),
            np.repeat(w.re_mask, n),
            np.repeat(w.solo, n),
            gen,
            know.hochzeiter,
            led,
        )
        solo = out.solo
        # The finished tricks, for the parties of each game's end (few distinct ones).
        ends, where = np.unique(out.re_mask * 2 + solo, return_inverse=True)
        past = np.array([know.past(k >> 1, bool(k & 1)) for k in ends.tolist()])[where]
        re_augen = out.re_augen + past[:, 0]
        re_tricks = out.re_tricks + past[:, 1]
        sp = np.where(solo, 0, out.sonderpunkte + past[:, 2])
        is_re = (out.re_mask >> me) & 1 == 1
        factor = np.where(is_re, np.where(solo, 3, 1), -1)
        value = factor * (values(solo, re_level, kontra_level, re_augen, re_tricks, rules) + sp)
        sums = value.reshape(worlds, n).sum(axis=0)
        self.stats.decisions += 1
        self.stats.playouts += worlds * n
        bi = int(np.argmax(sums))
        gain = win = None
        if call is not None:
            level = call.call.level
            now = value.reshape(worlds, n)[:, bi]
            mine_level, theirs = (level, kontra_level) if own is Party.RE else (level, re_level)
            v2 = self._priced(solo, own, mine_level, theirs, re_augen, re_tricks, rules)
            v2 = (factor * (v2 + sp)).reshape(worlds, n)[:, bi]
            gain = float((v2 - now).mean())
            win = float((v2 > 0).mean())
        return Rating(tuple((sums / worlds).tolist()), bi, gain, win, worlds)

    def sample_worlds(
        self, know: Knowledge, count: int, gen: np.random.Generator, rng: random.Random
    ) -> Worlds:
        """The worlds a decision searches (``bot.benchmarks.oracle`` searches the true deal)."""
        return know.sample(count, gen, rng.random)

    @staticmethod
    def _priced(
        solo: Bools,
        own: Party | None,
        mine: int,
        theirs: int,
        re_augen: Ints,
        re_tricks: Ints,
        rules: Ruleset,
    ) -> Ints:
        """Re's game values with this seat's side at call level ``mine``, the other ``theirs``."""
        if own is Party.RE:
            return values(solo, mine, theirs, re_augen, re_tricks, rules)
        return values(solo, theirs, mine, re_augen, re_tricks, rules)
