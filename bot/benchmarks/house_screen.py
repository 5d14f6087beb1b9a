"""EXPERIMENT (reverted in the next commit): mittel with the house rules searched against
mittel as at 904ba9f (the heuristic's Armut, Schmeißen unless a solo), on the arena's deals,
playing only the deals where some dealt hand could offer an Armut or throw in (in every other
deal the two sides are the same player and the deal counts 0).

``python -m bot.benchmarks.house_screen DEALS SEED PRESET``
"""

from __future__ import annotations

import json
import random
import sys
from multiprocessing import Pool

from bot.ai import MITTEL_PLAYOUTS
from bot.ai.contract import ContractSearch, HouseOption, Option, candidates, pflicht_threshold
from bot.ai.contract import rate_contracts
from bot.ai.heuristic import pflicht_open, reserve_for, wants_armut
from bot.ai.montecarlo import MonteCarloStrategy
from bot.arena import mean_ci, score_deal
from bot.rules.game import Action, ArmutOffer, Declare, Deal, Phase, armut_trumps
from bot.rules.game import schmeissen_reasons
from bot.rules.presets import PRESETS
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView


class OldHouse(ContractSearch):
    """The contract search as at 904ba9f: no house options searched."""

    def want(self, view: PlayerView, rng: random.Random, vorgefuehrt: bool) -> Option:
        key = (view.hand, view.dealer)
        kept = self.chosen.get(view.seat)
        if kept is not None and kept[:2] == key and not vorgefuehrt:
            return kept[2]
        options = [o for o in candidates(view, vorgefuehrt) if not isinstance(o, HouseOption)]
        pflicht = pflicht_open(view)
        self.rating = None
        choice: Option
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

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
        if view.phase is Phase.VORBEHALT:
            want = self.want(view, rng, vorgefuehrt=False)
            assert not isinstance(want, HouseOption)
            return reserve_for(view, legal, want) or self.fallback.choose(view, rng)
        if view.phase is Phase.DECLARE:
            options = {a.contract: a for a in legal if isinstance(a, Declare)}
            want = self.want(view, rng, view.vorgefuehrt == view.seat)
            if want in options:
                return options[want]  # type: ignore[index]
            offer = next((a for a in legal if isinstance(a, ArmutOffer)), None)
            if offer is not None and wants_armut(view):
                return offer
        return self.fallback.choose(view, rng)


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
        if schmeissen_reasons(hand, rules):
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
