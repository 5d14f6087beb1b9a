"""``bench ai``: how fast the AI levels decide, and how many playouts the search runs.

Decision times are per card the strategy had to choose (two or more legal cards), over
seeded games the level plays against itself. ``ai_playouts_per_100ms`` counts complete
playouts, sampling of the hidden hands included, in searches from the first trick.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from bot.ai import LEVELS, get_strategy
from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.strategy import Strategy
from bot.rules.game import Deal, Game, Phase, Play
from bot.rules.view import player_view


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    i = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[i]


def decision_times(strategy: Strategy, games: int, seed: int) -> list[float]:
    """Milliseconds per card decision, with the level on all four seats."""
    times: list[float] = []
    for g in range(games):
        game = Game(Deal.shuffled(seed + g, dealer=g % 4))
        rng = random.Random(seed + g)
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            view = player_view(game, seat)
            cards = sum(isinstance(a, Play) for a in view.legal)
            start = time.perf_counter()
            action = strategy.choose(view, rng)
            elapsed = (time.perf_counter() - start) * 1000
            if view.phase is Phase.PLAY and cards >= 2 and isinstance(action, Play):
                times.append(elapsed)
            game.apply(action)
    return times


def playouts_per_100ms(strategy: MonteCarloStrategy, searches: int, seed: int) -> float:
    """Playouts per 100 ms in searches for the first card of a game."""
    done = 0
    spent = 0.0
    for i in range(searches):
        game = Game(Deal.shuffled(seed + i, dealer=i % 4))
        while game.phase is not Phase.PLAY:
            seat = game.to_act()
            assert seat is not None
            game.apply(get_strategy("heuristic").choose(player_view(game, seat), random.Random(i)))
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        plays = [a for a in view.legal if isinstance(a, Play)]
        before = strategy.stats.playouts
        start = time.perf_counter()
        strategy.search(view, plays, None, random.Random(seed + i))
        spent += time.perf_counter() - start
        done += strategy.stats.playouts - before
    return done / spent / 10 if spent else 0.0


def measure(level: str, games: int, seed: int) -> dict[str, Any]:
    strategy = get_strategy(level)
    times = decision_times(strategy, games, seed)
    out: dict[str, Any] = {
        "strategy": strategy.name,
        "ai_decision_ms_p50": round(percentile(times, 0.5), 3),
        "ai_decision_ms_p99": round(percentile(times, 0.99), 3),
        "decisions": len(times),
    }
    if isinstance(strategy, MonteCarloStrategy):
        out["playouts_per_decision"] = strategy.playouts
        out["ai_playouts_per_100ms"] = round(playouts_per_100ms(strategy, 10, seed), 1)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench ai", description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=4, help="games per level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result: dict[str, Any] = {}
    for level in LEVELS:
        figures = measure(level, args.games, args.seed)
        if level == "mittel":
            result.update(figures)
            result["level"] = level
        else:
            result[level] = figures
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        for level in LEVELS:
            f = result if level == "mittel" else result[level]
            line = (
                f"{level:>7} ({f['strategy']}): decision p50 {f['ai_decision_ms_p50']:.1f} ms, "
                f"p99 {f['ai_decision_ms_p99']:.1f} ms over {f['decisions']} decisions"
            )
            if "ai_playouts_per_100ms" in f:
                line += f", {f['ai_playouts_per_100ms']:.0f} playouts per 100 ms"
            sys.stdout.write(line + "\n")
    return 0
