"""The thresholds for playing an open Pflichtsolo now: ``PFLICHT_THRESHOLDS`` in
``bot.ai.contract``.

``python -m bot.benchmarks.pflichtsolo HANDS PLAYOUTS``: searches HANDS random hands (DDV, a
random seat and dealer) as the contract search does with a Pflichtsolo open (the three solos
``solo_strength`` rates best, the soloist leading; playing normally, or a Hochzeit) and
prints JSON: ``thresholds`` and the means they come from.

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

import numpy as np

from bot.ai.contract import candidates, rate_contracts
from bot.rules.contracts import Contract
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
        solos.append(max(v for c, v in rating.means.items() if _solo(c)))
        others.append(max(v for c, v in rating.means.items() if not _solo(c)))
    return solos, others


def _solo(c: Contract | None) -> bool:
    return c is not None and c.is_declared_solo


def thresholds(solos: list[float], others: list[float], games: int = GAMES) -> list[float]:
    """``T[0..games]`` from the hands' means (see the module's docstring)."""
    s, n = np.array(solos), np.array(others)
    mu = float(n.mean())
    d = s - n
    out = [float(s.mean()) - 2 * mu]
    for _ in range(games):
        out.append(float(np.maximum(d, out[-1]).mean()))
    return out


def main(hands: int, budget: int) -> None:
    s, n = means(hands, budget)
    out = {
        "hands": hands,
        "playouts": budget,
        "solo_mean": round(float(np.mean(s)), 3),
        "other_mean": round(float(np.mean(n)), 3),
        "thresholds": [round(t, 2) for t in thresholds(s, n)],
    }
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or not all(a.isdigit() and int(a) > 0 for a in sys.argv[1:]):
        sys.exit("usage: python -m bot.benchmarks.pflichtsolo HANDS PLAYOUTS")
    main(int(sys.argv[1]), int(sys.argv[2]))
