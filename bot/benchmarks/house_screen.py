"""EXPERIMENT (reverted in the next commit): mittel with the cards an Armut's taker returns
searched against mittel returning the heuristic's, on the arena's deals, playing only the
deals where some dealt hand could offer an Armut or throw in (in every other deal the two
sides are the same player and the deal counts 0).

``python -m bot.benchmarks.house_screen DEALS SEED PRESET``
"""

from __future__ import annotations

import json
import random
import sys
from multiprocessing import Pool

from bot.ai import MITTEL_PLAYOUTS
from bot.ai.contract import (
    ContractSearch,
)
from bot.ai.montecarlo import MonteCarloStrategy
from bot.arena import mean_ci, score_deal
from bot.rules.game import (
    Action,
    Deal,
    Phase,
    armut_trumps,
)
from bot.rules.presets import PRESETS
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView


class OldHouse(ContractSearch):
    """The contract search as at the commit before: the Armut's taker returns the
    heuristic's cards.
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        armut = view.armut
        if view.phase is Phase.ARMUT and armut is not None and armut.taker == view.seat:
            return self.fallback.choose(view, rng)
        return ContractSearch.choose(self, view, rng)


def players() -> dict[str, MonteCarloStrategy]:
    return {
        "new": MonteCarloStrategy(
            MITTEL_PLAYOUTS, "new", contracts=ContractSearch(budget=MITTEL_PLAYOUTS)
        ),
        "old": MonteCarloStrategy(
            MITTEL_PLAYOUTS, "old", contracts=OldHouse(budget=MITTEL_PLAYOUTS)
        ),
    }


def house_deal(deal: Deal, rules: Ruleset) -> bool:
    for hand in deal.hands:
        if rules.armut and len(armut_trumps(hand)) <= rules.armut_max_trumps:
            return True
    return False


def one(args: tuple[int, int, str]) -> float | None:
    index, seed, preset = args
    rules = PRESETS[preset]
    deal = Deal.shuffled(seed * 1_000_003 + index, dealer=index % 4, ruleset=rules)
    if not house_deal(deal, rules):
        return None
    r = score_deal(deal, players(), f"{seed}/{index}")
    return r.points["new"] - r.points["old"]


def main(deals: int, seed: int, preset: str) -> None:
    with Pool(2) as pool:
        out = pool.map(one, [(i, seed, preset) for i in range(deals)], chunksize=4)
    played = [x for x in out if x is not None]
    m, lo, hi = mean_ci([x if x is not None else 0.0 for x in out])
    print(
        json.dumps(
            {
                "deals": deals,
                "played": len(played),
                "mean": m,
                "lo": lo,
                "hi": hi,
                "mean_played": sum(played) / max(1, len(played)),
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3])
