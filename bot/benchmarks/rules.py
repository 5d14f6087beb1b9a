"""``bench rules``: how fast the rules core plays, on one core (a benchmark, not a test).

* ``playouts_per_s``: the unchecked fast path a Monte-Carlo AI uses: a fresh deal, a normal
  game of 48 random legal cards, trick winners, Augen per party (``fast.random_playout`` on
  one running generator, as a search uses it; ``playouts_per_s_seeded`` also seeds a new
  generator per playout, ``fast.random_playout_from_deal``).
* ``random_games_per_s``: complete random games through the validating ``Game`` API: a
  seeded deal, the Vorbehaltsabfrage with random choices among ``legal_actions``, a random
  legal Ansage or Absage now and then (``legal_calls``), 48 random ``legal_cards`` each
  checked by ``play``, scoring.
* ``replays_per_s``: ``doko-game/1`` records (as parsed JSON) read and replayed, every action
  checked (``records.game_record_from_dict`` + ``records.replay_record``).

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
from math import floor
from typing import Any

from bot.rules.fast import random_playout, random_playout_from_deal
from bot.rules.game import Announce, Deal, Game, Phase
from bot.rules.records import game_record_from_dict, game_record_to_dict, replay_record

TARGETS = {"playouts_per_s": 24_000, "random_games_per_s": 5_000}
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
    """One complete game of random legal choices through the validating API.

    The Vorbehaltsabfrage picks among ``legal_actions``; in play, a seat on turn makes a
    random legal Ansage or Absage (``legal_calls``) with ``ANNOUNCE_CHANCE``, else plays a
    random card of ``legal_cards``; ``play`` checks every card again and names the next
    seat. The harness stays lean so that the figure measures ``Game``.
    """
    rand = rng.random
    game = Game(Deal.shuffled(seed, dealer=seed % 4))
    to_act = game.to_act
    seat = to_act()
    in_play = Phase.PLAY  # an enum member costs a Python-level call per load (3.11)
    while seat is not None and game.phase is not in_play:
        actions = game.legal_actions(seat)
        game.apply(actions[floor(rand() * len(actions))])
        seat = to_act()
    legal_cards = game.legal_cards
    play = game.play
    while seat is not None:
        if rand() < ANNOUNCE_CHANCE:
            calls = game.legal_calls(seat)
            if calls:
                game.apply(Announce(seat, calls[floor(rand() * len(calls))]))
                continue
        cards = legal_cards(seat)
        seat = play(seat, cards[floor(rand() * len(cards))])
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
    playouts, cpu1 = rate(lambda i: random_playout(rng), seconds, 200)
    seeded, cpu2 = rate(random_playout_from_deal, seconds, 200)
    games, cpu3 = rate(lambda i: random_game(i, rng), seconds, 5)
    records = sample_records(200, 10_000)

    def replay_one(i: int) -> None:
        game, error = replay_record(game_record_from_dict(records[i % len(records)]))
        assert error is None and game.finished

    replays, cpu4 = rate(replay_one, seconds, 5)
    return {
        "playouts_per_s": round(playouts),
        "random_games_per_s": round(games),
        "replays_per_s": round(replays),
        "playouts_per_s_seeded": round(seeded),
        "targets": TARGETS,
        "seconds_per_figure": seconds,
        "per_cpu_s": {
            "playouts_per_s": round(cpu1),
            "playouts_per_s_seeded": round(cpu2),
            "random_games_per_s": round(cpu3),
            "replays_per_s": round(cpu4),
        },
        "cpu_share": round(min(playouts / cpu1, seeded / cpu2, games / cpu3, replays / cpu4), 2),
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
        ("playouts_per_s", "fast path: deal + 48 random cards"),
        ("playouts_per_s_seeded", "the same, a new generator per playout"),
        ("random_games_per_s", "validating Game: deal to score"),
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
