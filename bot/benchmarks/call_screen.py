"""Arena-identical screening of call margins: many variants from one set of games.

``python -m bot.benchmarks.call_screen record SEED N OUT`` plays every deal's two
rotations with four mittel seats (the arena's seeds), storing each seat's call ratings and
the scores. In the arena match V,mittel a game is identical to the all-mittel game until
one of V's call decisions first differs from mittel's (same per-seat generators, same
searches), so a deal where none of V's seats would decide a call differently scores
exactly as the all-mittel games; the other deals are played by ``bot.arena.play_deal``
itself. ``... eval SEED OUT NAME...`` prints, for each NAME against mittel, the arena's
difference and CI, and a paired one: minus the all-mittel games' own difference (whose
mean is 0 by symmetry), which removes the rotations' noise from the deals that agree.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from bot.ai import MITTEL_PLAYOUTS, get_strategy
from bot.ai.contract import ContractSearch
from bot.ai.montecarlo import CallMargins, MonteCarloStrategy, Rating
from bot.arena import mean_ci, play_deal, play_game
from bot.rules.calls import Call
from bot.rules.game import Announce, Deal, Play
from bot.rules.ruleset import DDV
from bot.rules.view import PlayerView


@dataclass(slots=True)
class Recorder(MonteCarloStrategy):
    log: list[list[object]] = field(default_factory=list)

    def rate(
        self, view: PlayerView, plays: list[Play], call: Announce | None, rng: random.Random
    ) -> Rating:
        r = MonteCarloStrategy.rate(self, view, plays, call, rng)
        if call is not None:
            self.log.append(
                [
                    view.seat,
                    str(call.call),
                    len(view.tricks),
                    r.call_gain,
                    r.call_win,
                    None,  # the answered price of commit 62487c7, left out
                ]
            )
        return r


def record(seed: int, n: int, out: str) -> None:
    done = 0
    try:
        with open(out) as f:
            done = sum(1 for _ in f)
    except FileNotFoundError:
        pass
    with open(out, "a") as f:
        for i in range(done, n):
            deal = Deal.shuffled(seed * 1_000_003 + i, dealer=i % 4, ruleset=DDV)
            rots = []
            for r in range(2):
                # mittel exactly: its budget and its contract search.
                search = ContractSearch(budget=MITTEL_PLAYOUTS)
                rec = Recorder(MITTEL_PLAYOUTS, "montecarlo", contracts=search)
                game = play_game(deal, [rec] * 4, f"{seed}/{i}/{r}")
                scores = game.result.scores if game.result is not None else (0, 0, 0, 0)
                rots.append({"scores": list(scores), "calls": rec.log})
            f.write(json.dumps({"i": i, "rots": rots}) + "\n")
            f.flush()


MITTEL = CallMargins()


def decides(m: CallMargins, row: list[Any]) -> bool:
    seat, call, _trick, gain, win, _answered = row
    rating = Rating((0.0,), 0, gain, win, 1)
    return m.pays(rating, Announce(seat, Call(call)))


def evaluate(seed: int, out: str, names: list[str]) -> None:
    with open(out) as f:
        deals = [json.loads(line) for line in f]
    for name in names:
        strat = get_strategy(name)
        assert isinstance(strat, MonteCarloStrategy)
        m = strat.margins
        diffs: list[float] = []
        paired: list[float] = []  # minus the all-mittel games' own difference (mean 0)
        replayed = 0
        for d in deals:
            i = d["i"]
            diverges = False
            for r, rot in enumerate(d["rots"]):
                mine = {0, 2} if r == 0 else {1, 3}
                for row in rot["calls"]:
                    if row[0] in mine and decides(m, row) != decides(MITTEL, row):
                        diverges = True
            s0, s1 = d["rots"][0]["scores"], d["rots"][1]["scores"]
            base = (s0[0] + s0[2] + s1[1] + s1[3] - s0[1] - s0[3] - s1[0] - s1[2]) / 4
            diff = base
            if diverges:
                replayed += 1
                res = play_deal((name, "mittel"), i, seed, DDV).points
                diff = res[name] - res["mittel"]
            diffs.append(diff)
            paired.append(diff - base)
        mm, lo, hi = mean_ci(diffs)
        pm, plo, phi = mean_ci(paired)
        row = {
            "of": f"{name}-mittel",
            "deals": len(diffs),
            "seed": seed,
            "points_per_game": round(mm, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "paired": round(pm, 4),
            "paired_ci95": [round(plo, 4), round(phi, 4)],
            "replayed": replayed,
        }
        print(json.dumps(row), flush=True)


USAGE = (
    "usage: python -m bot.benchmarks.call_screen record SEED DEALS OUT.jsonl\n"
    "       python -m bot.benchmarks.call_screen eval SEED RECORD.jsonl VARIANT...\n"
)


def main(argv: list[str]) -> int:
    try:
        if argv[0] == "record" and len(argv) == 4:
            record(int(argv[1]), int(argv[2]), argv[3])
            return 0
        if argv[0] == "eval" and len(argv) >= 4:
            evaluate(int(argv[1]), argv[2], argv[3:])
            return 0
    except (IndexError, ValueError):
        pass
    sys.stderr.write(USAGE)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
