"""``bench rules``: how fast the rules core plays, on one core (a benchmark, not a test).

* ``random_games_per_s``: complete random games through the public API: a seeded deal, the
  Vorbehaltsabfrage with random choices among ``legal_actions``, then on every turn in play
  a random one of the seat's ``legal_actions`` (its cards, and now and then a legal Ansage
  or Absage), each applied (and so validated) by ``apply``; scoring at the end.
* ``replays_per_s``: ``doko-game/1`` records (as parsed JSON) read and replayed, every action
  checked (``records.game_record_from_dict`` + ``records.replay_record``).

The Monte-Carlo playouts have their own benchmark (``bench ai``): they run in ``bot.ai``.
Each figure: a short warm-up, then a fixed wall-clock budget timed with ``perf_counter``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.rules.game import Action, Announce, Deal, Game
from bot.rules.records import game_record_from_dict, game_record_to_dict, replay_record

TARGETS = {"random_games_per_s": 2_000}
ANNOUNCE_CHANCE = 0.05  # per turn in play, if a call is legal: about one call per game


def rate(step: Callable[[int], object], seconds: float, batch: int) -> tuple[float, float]:
    """Calls of ``step(i)`` per second: warm up, then run for ``seconds`` of wall clock.

    Also returns the rate per second of this process's CPU time: when other processes
    compete for the core the wall-clock figure drops and this one mostly does not.
    """
    clock = time.perf_counter
    i = 0
    end = clock() + min(0.5, seconds / 4)
    while clock() < end:
        for _ in range(batch):
            step(i)
            i += 1
    done = 0
    cpu = time.process_time()
    start = clock()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(batch):
            step(i)
            i += 1
        done += batch
        elapsed = clock() - start
    return done / elapsed, done / (time.process_time() - cpu)


def random_game(seed: int, rng: random.Random) -> Game:
    """One complete game of random legal choices through the public API.

    On each turn the seat to act picks among its ``legal_actions``; in play a seat's calls
    are chosen with ``ANNOUNCE_CHANCE`` (about one call a game), else one of its cards.
    """
    game = Game(Deal.shuffled(seed, dealer=seed % 4))
    while (seat := game.to_act()) is not None:
        actions = game.legal_actions(seat)
        calls: list[Action] = [a for a in actions if isinstance(a, Announce)]
        if calls and rng.random() < ANNOUNCE_CHANCE:
            actions = calls
        elif calls:
            actions = [a for a in actions if not isinstance(a, Announce)]
        game.apply(rng.choice(actions))
    assert game.result is not None or game.redeal is not None
    return game


def sample_records(count: int, seed: int) -> list[dict[str, Any]]:
    """Records of random games, as a record file would parse: plain JSON values."""
    rng = random.Random(seed)
    records = []
    for i in range(count):
        game = random_game(seed + i, rng)
        records.append(json.loads(json.dumps(game_record_to_dict(game))))
    return records


def measure(seconds: float) -> dict[str, Any]:
    rng = random.Random(1)
    games, cpu1 = rate(lambda i: random_game(i, rng), seconds, 5)
    records = sample_records(200, 10_000)

    def replay_one(i: int) -> None:
        game, error = replay_record(game_record_from_dict(records[i % len(records)]))
        assert error is None and game.finished

    replays, cpu2 = rate(replay_one, seconds, 5)
    return {
        "random_games_per_s": round(games),
        "replays_per_s": round(replays),
        "targets": TARGETS,
        "seconds_per_figure": seconds,
        "per_cpu_s": {"random_games_per_s": round(cpu1), "replays_per_s": round(cpu2)},
        "cpu_share": round(min(games / cpu1, replays / cpu2), 2),
        "python": platform.python_version(),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench rules", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="wall-clock budget per figure (default 3)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    result = measure(args.seconds)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
        return 0
    rows = [
        ("random_games_per_s", "legal_actions + apply: deal to score"),
        ("replays_per_s", "doko-game/1 records checked"),
    ]
    out = [f"{'figure':<24}{'per second':>12}{'per CPU s':>12}  {'target':>10}  what"]
    for key, what in rows:
        target = TARGETS.get(key)
        mark = "" if target is None else f"≥ {target:,}" + ("" if result[key] >= target else " !")
        cpu = result["per_cpu_s"][key]
        out.append(f"{key:<24}{result[key]:>12,}{cpu:>12,}  {mark:>10}  {what}")
    out.append(
        f"one core, Python {result['python']}, {args.seconds:g} s per figure, "
        f"on a CPU at least {result['cpu_share']:.0%} of the time"
    )
    sys.stdout.write("\n".join(out) + "\n")
    return 0
