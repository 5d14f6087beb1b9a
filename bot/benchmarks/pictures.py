"""``bench pictures``: how long each picture takes to draw, and how large its PNG is.

Positions come from random games played by the rules core (everyone gesund, random legal
cards), stopped anywhere in the play. Each kind is drawn for positions it has not seen, so
the finished-PNG caches miss and the figures are those of a new state; the card tiles are
drawn once per process (a warm-up before the clock runs), as in the bot. ``*_cached_us``
is a second request of the same state, a cache hit (the table message re-rendered for
another reason).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bot.render.pictures import (
    Picture,
    final_picture,
    hand_picture,
    spielliste_chart,
    table_picture,
)
from bot.rules.game import Deal, Game, Phase, Reserve
from bot.rules.records import game_summary
from bot.rules.view import player_view, public_view

NAMES = ("Anneliese", "Bernhard", "Cäcilie Schwarzwälder", "Dietrich", "Eleonore")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _play(rng: random.Random, cards: int) -> Game:
    """A random game with ``cards`` cards played (48: finished)."""
    game = Game(Deal.shuffled(rng.randrange(2**32), dealer=rng.randrange(4)))
    while not game.finished and (
        game.phase is not Phase.PLAY
        or sum(len(t.cards) for t in game.tricks) + len(game.current) < cards
    ):
        seat = game.to_act()
        assert seat is not None
        options = game.legal_actions(seat)
        healthy = [a for a in options if isinstance(a, Reserve) and not a.reserve]
        game.apply(healthy[0] if healthy else rng.choice(options))
    return game


def _time(draws: list[Callable[[], Picture | None]]) -> tuple[list[float], list[int]]:
    micros, sizes = [], []
    for draw in draws:
        start = time.perf_counter()
        picture = draw()
        micros.append((time.perf_counter() - start) * 1e6)
        if picture is not None:
            sizes.append(len(picture.data))
    return micros, sizes


def run(positions: int, seed: int) -> dict[str, Any]:
    from bot.engine.model import ListEntry

    rng = random.Random(seed)
    games = [_play(rng, rng.randrange(1, 48)) for _ in range(positions)]
    finished = [_play(rng, 48) for _ in range(max(10, positions // 10))]
    entries: list[ListEntry] = []
    totals = [0] * 4
    for number, game in enumerate(finished, start=1):
        assert game.result is not None
        scores = tuple(game.result.scores)
        totals = [a + b for a, b in zip(totals, scores, strict=True)]
        entries.append(ListEntry(number, str(game.contract), None, None, 0, scores, tuple(totals)))
    # Warm-up: every tile in both languages, drawn once, as the bot has them after a while.
    for game in games[:20]:
        for lang in ("de", "en"):
            for seat in range(4):
                hand_picture(player_view(game, seat), lang)
            table_picture(public_view(game), NAMES[:4], lang)
    fresh = games[20:] or games
    views = [player_view(g, g.to_act() or 0) for g in fresh]
    publics = [public_view(g) for g in fresh]
    kinds: dict[str, list[Callable[[], Picture | None]]] = {
        "hand": [partial(hand_picture, v, "de") for v in views],
        "table": [partial(table_picture, p, NAMES[:4], "de") for p in publics],
        "final": [partial(final_picture, game_summary(g), NAMES[:4], "de") for g in finished],
        "chart": [
            partial(spielliste_chart, entries[:n], NAMES[:4], "de")
            for n in range(1, len(entries) + 1)
        ],
    }
    figures: dict[str, Any] = {"positions": len(fresh)}
    for kind, draws in kinds.items():
        micros, sizes = _time(draws)
        figures[f"pictures_{kind}_us_p50"] = round(statistics.median(micros))
        figures[f"pictures_{kind}_us_p99"] = round(_percentile(micros, 0.99))
        figures[f"pictures_{kind}_bytes_p50"] = round(statistics.median(sizes))
        figures[f"pictures_{kind}_bytes_max"] = max(sizes)
    again, _ = _time([partial(table_picture, p, NAMES[:4], "de") for p in publics])
    figures["pictures_table_cached_us_p50"] = round(statistics.median(again), 1)
    return figures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot bench pictures")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    figures = run(args.positions, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:<32} {value}")
    return 0
