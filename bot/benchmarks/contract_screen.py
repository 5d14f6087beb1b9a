"""Mittel with the contract search against mittel with the heuristic's, over many deals cheaply.

``python -m bot.benchmarks.contract_screen DEALS SEED [PLAYOUTS]``: the arena's duplicate match
of mittel (the search) against mittel without it (the heuristic's Vorbehalt), or the same at
another budget (``PLAYOUTS`` 3000: schwer; 12000: schwer of 967a1e5), with the arena's seats
and seeds (``bot.arena.play_deal``), but a deal is played only when some Vorbehalt decision of
the search's seats differs from the heuristic's ``wanted``. In every other deal the two sides
are the same player, so the deal's expected difference is exactly 0 and it counts 0; this
removes the card play's noise of those deals from the interval. The search's Vorbehalt is the
first use of its seat's generator, so it is decided here exactly as in the arena game (commit
76d1df6 measured the same match as ``montecarlo-vb`` against ``montecarlo``). Prints JSON:
difference with its 95 % interval, solos by side.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter

from bot.ai import MITTEL_PLAYOUTS
from bot.ai.contract import ContractSearch
from bot.ai.heuristic import HeuristicStrategy
from bot.ai.montecarlo import MonteCarloStrategy
from bot.arena import mean_ci, play_game, seat_plan
from bot.rules.game import Deal, Game
from bot.rules.ruleset import DDV
from bot.rules.view import player_view

SEARCH, BASE = "search", "heuristic-vorbehalt"
NAMES = (SEARCH, BASE)


def players(budget: int) -> dict[str, MonteCarloStrategy]:
    search = ContractSearch(budget=budget)
    return {
        SEARCH: MonteCarloStrategy(budget, SEARCH, contracts=search),
        BASE: MonteCarloStrategy(budget, BASE),
    }


def differs(deal: Deal, index: int, seed: int, budget: int) -> bool:
    """Whether a seat of the search decides its contract otherwise than the heuristic."""
    game = Game(deal)
    search = ContractSearch(budget=budget)
    for r, plan in enumerate(seat_plan(NAMES)):
        for seat in range(4):
            if plan[seat] != SEARCH:
                continue
            view = player_view(game, seat)
            rng = random.Random(f"{seed}/{index}/{r}/{seat}")
            if search.want(view, rng, vorgefuehrt=False) != HeuristicStrategy().wanted(view):
                return True
    return False


def main(deals: int, seed: int, budget: int = MITTEL_PLAYOUTS) -> None:
    diffs = [0.0] * deals
    solos: dict[str, Counter[str]] = {n: Counter() for n in NAMES}
    played = 0
    for index in range(deals):
        deal = Deal.shuffled(seed * 1_000_003 + index, dealer=index % 4, ruleset=DDV)
        if not differs(deal, index, seed, budget):
            continue
        played += 1
        strategies = players(budget)
        total = dict.fromkeys(NAMES, 0.0)
        for r, plan in enumerate(seat_plan(NAMES)):
            game = play_game(deal, [strategies[n] for n in plan], f"{seed}/{index}/{r}")
            scores = game.result.scores if game.result is not None else (0, 0, 0, 0)
            for seat, n in enumerate(plan):
                total[n] += scores[seat] / 2  # two seats a rotation, two rotations
            if game.soloist is not None and game.contract is not None:
                side = solos[plan[game.soloist]]
                side["solos"] += 1
                side["won"] += scores[game.soloist] > 0
                side["points"] += scores[game.soloist]
        diffs[index] = (total[SEARCH] - total[BASE]) / 2
    m, lo, hi = mean_ci(diffs)
    out = {
        "deals": deals,
        "seed": seed,
        "playouts": budget,
        "played": played,
        "difference": [round(m, 4), round(lo, 4), round(hi, 4)],
        "solos": {n: dict(c) for n, c in solos.items()},
    }
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or not all(a.isdigit() for a in sys.argv[1:]):
        sys.exit("usage: python -m bot.benchmarks.contract_screen DEALS SEED [PLAYOUTS]")
    main(*(int(a) for a in sys.argv[1:]))
