"""The Pflichtsolo's timing: the thresholds ``PFLICHT_THRESHOLDS`` in ``bot.ai.contract``,
and how the Pflichtsoli of whole rounds turn out.

``python -m bot.benchmarks.pflichtsolo thresholds HANDS PLAYOUTS``: searches HANDS random
hands (DDV, a random seat and dealer) as the contract search does with a Pflichtsolo open
(the three solos ``solo_strength`` rates best, the soloist leading; playing normally, or a
Hochzeit) and prints JSON: ``thresholds`` and the means they come from.

``python -m bot.benchmarks.pflichtsolo rounds STRATEGY ROUNDS SEED``: plays ROUNDS rounds
with STRATEGY on all four seats and prints JSON per kind of solo (Pflicht, vorgeführt,
Lust): how many, the soloist's mean score, how often won, and the games left when played.

With ``s`` the best solo's mean and ``n`` the best other contract's (a normal game or a
Hochzeit), all for this seat: played now, the Pflichtsolo is an extra game and the slot is
dealt again (worth ``μ = E[n]`` on a random hand); not played, the hand is played normally
and the solo is still owed. Owed with no game left to choose, it is vorgeführt on a random
hand and takes a slot: worth ``E[s] - μ`` against that slot played normally. With ``k``
games still free to choose, owing is worth ``C[k] = E[max(s + μ - n, C[k-1])]``, so the solo
is played now when ``s - n >= C[k] - μ``, the threshold ``T[k]``.
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict

import numpy as np

from bot.ai import get_strategy
from bot.ai.contract import candidates, is_solo, rate_contracts
from bot.arena import play_round
from bot.rules.game import Deal, Game
from bot.rules.round import RoundContext
from bot.rules.ruleset import DDV
from bot.rules.view import player_view

GAMES = 24  # thresholds up to this many free games; the last serves for more


def means(hands: int, budget: int) -> tuple[list[float], list[float]]:
    """Per hand: the best solo's mean ``s`` and the best other contract's ``n``."""
    solos: list[float] = []
    others: list[float] = []
    open_round = RoundContext(GAMES, (False, False, False, False))
    for i in range(hands):
        deal = Deal.shuffled(10_000_000 + i, dealer=i % 4, round=open_round, ruleset=DDV)
        view = player_view(Game(deal), (i // 4) % 4)
        options = candidates(view, vorgefuehrt=False)
        rating = rate_contracts(view, options, budget, random.Random(i), soloist_leads=True)
        solos.append(max(v for c, v in rating.means.items() if is_solo(c)))
        others.append(max(v for c, v in rating.means.items() if not is_solo(c)))
    return solos, others


def thresholds(solos: list[float], others: list[float], games: int = GAMES) -> list[float]:
    """``T[0..games]`` from the hands' means (see the module's docstring)."""
    s, n = np.array(solos), np.array(others)
    mu = float(n.mean())
    d = s - n
    out = [float(s.mean()) - 2 * mu]
    for _ in range(games):
        out.append(float(np.maximum(d, out[-1]).mean()))
    return out


def solos_in_rounds(strategy: str, rounds: int, seed: int) -> dict[str, dict[str, float]]:
    """Per solo kind: count, the soloist's mean score, share won, mean games left."""
    seats = [get_strategy(strategy) for _ in range(4)]
    seen: dict[str, list[tuple[int, int]]] = defaultdict(list)  # (score, games left)
    for i in range(rounds):
        _, games = play_round(seats, seed * 1_000_003 + i, i % 4, f"{seed}/{i}", DDV)
        for g in games:
            if g.solo_kind is None or g.soloist is None or g.result is None:
                continue
            assert g.deal.round is not None
            seen[str(g.solo_kind)].append((g.result.scores[g.soloist], g.deal.round.games_left))
    return {
        kind: {
            "solos": len(xs),
            "mean_score": round(sum(x for x, _ in xs) / len(xs), 2),
            "won": round(sum(x > 0 for x, _ in xs) / len(xs), 3),
            "games_left": round(sum(left for _, left in xs) / len(xs), 1),
        }
        for kind, xs in sorted(seen.items())
    }


def main(argv: list[str]) -> None:
    if len(argv) == 3 and argv[0] == "thresholds" and all(_count(a) for a in argv[1:]):
        hands, budget = int(argv[1]), int(argv[2])
        s, n = means(hands, budget)
        out: dict[str, object] = {
            "hands": hands,
            "playouts": budget,
            "solo_mean": round(float(np.mean(s)), 3),
            "other_mean": round(float(np.mean(n)), 3),
            "thresholds": [round(t, 2) for t in thresholds(s, n)],
        }
    elif len(argv) == 4 and argv[0] == "rounds" and all(_count(a) for a in argv[2:]):
        strategy, rounds, seed = argv[1], int(argv[2]), int(argv[3])
        try:
            solos = solos_in_rounds(strategy, rounds, seed)
        except ValueError as err:  # an unknown strategy
            sys.exit(str(err))
        out = {"strategy": strategy, "rounds": rounds, "seed": seed, **solos}
    else:
        sys.exit(
            "usage: python -m bot.benchmarks.pflichtsolo thresholds HANDS PLAYOUTS\n"
            "       python -m bot.benchmarks.pflichtsolo rounds STRATEGY ROUNDS SEED"
        )
    sys.stdout.write(json.dumps(out) + "\n")


def _count(arg: str) -> bool:
    return arg.isdigit() and int(arg) > 0


if __name__ == "__main__":
    main(sys.argv[1:])
