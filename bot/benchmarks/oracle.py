"""What knowing the hidden cards would be worth: the ceiling for inference.

    python -m bot.benchmarks.oracle cards|parties DEALS SEED [FIRST LAST]

The arena's duplicate match (same deals, seats and seeds) of schwer that peeks against schwer.
``cards``: the peeking seats search the one true world; ``parties``: worlds drawn as usual but
only those with the true parties kept; with ``FIRST LAST`` they peek only in those tricks
(1-based) and sample as schwer in the others. Everything else (budget, contract search,
calls) is schwer's: 3,000 playouts, mittel's when docs/ai.md's figures were taken. Prints
the difference in points per game with its 95 % interval, as JSON.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass

import numpy as np

from bot.ai import SCHWER_PLAYOUTS, get_strategy
from bot.ai.contract import ContractSearch
from bot.ai.knowledge import Knowledge, Worlds
from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.strategy import Strategy
from bot.arena import mean_ci, score_deal
from bot.rules.cards import Card
from bot.rules.game import Deal
from bot.rules.ruleset import DDV

PEEK, SCHWER = "peek", "schwer"


@dataclass(slots=True)
class Peeking(MonteCarloStrategy):
    """schwer that samples from the true deal: all of it, or only its parties."""

    deal: Deal | None = None
    cards: bool = True
    tricks: range = range(1, 13)  # the tricks (1-based) in which it peeks

    def sample_worlds(
        self, know: Knowledge, count: int, gen: np.random.Generator, rng: random.Random
    ) -> Worlds:
        deal = self.deal
        assert deal is not None and not deal.ruleset.armut
        if len(know.view.tricks) + 1 not in self.tricks:
            return know.sample(count, gen, rng.random)
        re = sum(1 << s for s in range(4) if Card.CQ in deal.hands[s])
        if self.cards:
            # Without an Armut a hand is what was dealt less what it played.
            held = [[int(c) for c in hand] for hand in deal.hands]
            for seat, card in know.plays:
                held[seat].remove(card)
            hands = [know.tables.hand_of(cards) for cards in held]
            fixed = know.fixed_re
            mask = re if fixed is None else fixed
            solo = know.solo if fixed is not None else re & (re - 1) == 0
            return Worlds(
                np.tile(np.array(hands, dtype=np.int64), (count, 1)),
                np.full(count, mask, dtype=np.int64),
                np.full(count, solo),
            )
        if know.fixed_re is not None:
            return know.sample(count, gen, rng.random)
        for _ in range(20):
            w = know.sample(4 * count, gen, rng.random)
            keep = np.flatnonzero(w.re_mask == re)
            if len(keep):
                pick = keep[np.arange(count) % len(keep)]
                return Worlds(w.holdings[pick], w.re_mask[pick], w.solo[pick])
        return know.sample(count, gen, rng.random)


def main(mode: str, deals: int, seed: int, tricks: range = range(1, 13)) -> None:
    diffs = []
    for index in range(deals):
        deal = Deal.shuffled(seed * 1_000_003 + index, dealer=index % 4, ruleset=DDV)
        peek = Peeking(
            SCHWER_PLAYOUTS,
            PEEK,
            contracts=ContractSearch(SCHWER_PLAYOUTS),
            deal=deal,
            cards=mode == "cards",
            tricks=tricks,
        )
        strategies: dict[str, Strategy] = {PEEK: peek, SCHWER: get_strategy(SCHWER)}
        points = score_deal(deal, strategies, f"{seed}/{index}").points
        diffs.append(points[PEEK] - points[SCHWER])
    m, lo, hi = mean_ci(diffs)
    difference = [round(v, 4) for v in (m, lo, hi)]
    span = [tricks.start, tricks.stop - 1]
    out = {"mode": mode, "tricks": span, "deals": deals, "seed": seed, "difference": difference}
    print(json.dumps(out))


if __name__ == "__main__":
    if len(sys.argv) not in (4, 6) or sys.argv[1] not in ("cards", "parties"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    first, last = (int(a) for a in sys.argv[4:6]) if len(sys.argv) == 6 else (1, 12)
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), range(first, last + 1))
