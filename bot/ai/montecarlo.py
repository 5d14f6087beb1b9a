"""The mittel and schwer levels: determinized Monte-Carlo over sampled hidden hands.

For each sampled deal of the unseen cards every candidate card is played out with the fast
policy of ``bot.ai.playout``; the card with the best mean score for this seat wins. The same
playouts price the next Ansage or Absage. Vorbehalt and contract choice use the heuristic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.ai.heuristic import HeuristicStrategy
from bot.ai.knowledge import Knowledge
from bot.ai.playout import playout
from bot.ai.value import re_value, tricks_class
from bot.rules.calls import Party
from bot.rules.game import Action, Announce, Phase, Play
from bot.rules.view import PlayerView

# A call costs information and invites the opponents' reply: it must pay clearly.
CALL_MARGIN = 0.6
CALL_MIN_WIN = 0.7


@dataclass(slots=True)
class Stats:
    """Counters for the benchmark: decisions searched and playouts run."""

    decisions: int = 0
    playouts: int = 0


@dataclass(slots=True)
class MonteCarloStrategy:
    """``playouts`` is the budget per decision, split over the candidate cards."""

    playouts: int = 1200
    name: str = "montecarlo"
    fallback: HeuristicStrategy = field(default_factory=HeuristicStrategy)
    stats: Stats = field(default_factory=Stats)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
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
        know = Knowledge(view)
        rnd = rng.random
        me = view.seat
        rules = view.ruleset
        total = rules.tricks
        own = view.own_party
        re_level = kontra_level = -1
        for s, c in view.calls:
            # Every caller's party is public, so the view knows it.
            if view.parties[s] is Party.RE:
                re_level = max(re_level, c.level)
            else:
                kontra_level = max(kontra_level, c.level)
        call_level = call.call.level if call is not None else -1
        n = len(plays)
        worlds = max(1, self.playouts // n)
        sums = [0.0] * n
        call_gain = [0.0] * n
        call_wins = [0] * n
        trick = [int(c) for c in view.current_trick]
        leader = view.current_leader
        done = len(view.tricks)
        for _ in range(worlds):
            w = know.sample(rnd)
            t = w.tables
            past_a, past_t, past_sp = know.past(w.re_mask, not t.sonderpunkte)
            for i, a in enumerate(plays):
                hands = w.holdings[:]
                card = int(a.card)
                idx = me * 5 + t.klass[card]
                b = t.bit[card]
                hands[idx] ^= (b << 1) if hands[idx] & (b << 1) else b
                ra, rt, sp, mask, solo = playout(
                    t, hands, leader, [*trick, card], done, w.re_mask, rnd, w.hochzeiter
                )
                ra += past_a
                rt = tricks_class(rt + past_t, total)
                if not solo:
                    sp += past_sp
                is_re = (mask >> me) & 1
                factor = (3 if solo else 1) if is_re else -1
                value = re_value(solo, re_level, kontra_level, ra, rt, rules)
                if not solo:
                    value += sp
                sums[i] += factor * value
                if call_level >= 0:
                    if own is Party.RE:
                        v2 = re_value(solo, call_level, kontra_level, ra, rt, rules)
                    else:
                        v2 = re_value(solo, re_level, call_level, ra, rt, rules)
                    if not solo:
                        v2 += sp
                    call_gain[i] += factor * (v2 - value)
                    call_wins[i] += factor * v2 > 0
        self.stats.decisions += 1
        self.stats.playouts += worlds * n
        bi = max(range(n), key=lambda i: sums[i])
        pays = (
            call is not None
            and call_gain[bi] / worlds > CALL_MARGIN
            and call_wins[bi] / worlds >= CALL_MIN_WIN
        )
        return plays[bi], pays
