"""``python -m bot bench engine``: many AI-only tables playing at once on one SQLite file.

Measures the engine's own path per action (lock, validate, store, apply, events), the overall
throughput, and the memory a table holds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
import tracemalloc

from bot.engine import Engine, GameOver
from bot.engine.model import Event
from bot.engine.play import OnStored
from bot.engine.tables import Table
from bot.rules.game import Action
from db.bench import scratch_store
from db.database import Database


def _stopwatch(engine: Engine) -> list[float]:
    """A stopwatch around each applied action: the times (ms) fill the returned list."""
    play = engine._play  # white-box: the part every action goes through
    apply = play.apply
    times: list[float] = []

    async def timed(table: Table, action: Action, on_stored: OnStored | None = None) -> None:
        start = time.perf_counter()
        await apply(table, action, on_stored)
        times.append((time.perf_counter() - start) * 1000)

    play.apply = timed  # type: ignore[method-assign]
    return times


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(
    tables: int, games: int, level: str, database_url: str | None = None
) -> dict[str, float | int | str]:
    async with scratch_store(database_url) as store:
        return await _run(store, tables, games, level)


async def _run(
    store: Database, tables: int, games: int, level: str
) -> dict[str, float | int | str]:
    engine = Engine(store, ai_in_thread=False)
    act_ms = _stopwatch(engine)
    await engine.start()
    finished = 0
    done = asyncio.Event()

    async def count(event: Event) -> None:
        nonlocal finished
        if isinstance(event, GameOver):
            finished += 1
            if finished >= tables * games:
                done.set()

    engine.subscribe(count)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    ids = []
    for n in range(tables):
        info = await engine.create_table(
            guild_id=1, channel_id=n + 1, host_id=1, host_name="Bench", games=games
        )
        await engine.leave(info.id, 1)
        ids.append(info.id)
    start = time.perf_counter()
    for table_id in ids:
        await engine.start_game(table_id, 1, fill_level=level)
    after_deal = tracemalloc.take_snapshot()
    kb_per_table = sum(s.size_diff for s in after_deal.compare_to(before, "filename")) / 1024
    tracemalloc.stop()
    await done.wait()
    await engine.idle()
    elapsed = time.perf_counter() - start
    actions = len(act_ms)
    await engine.close()
    return {
        "database": store.dialect,
        "engine_actions_per_s": round(actions / elapsed, 1),
        "engine_act_ms_p50": round(statistics.median(act_ms), 3),
        "engine_act_ms_p99": round(_percentile(act_ms, 0.99), 3),
        "engine_kb_per_table": round(kb_per_table / tables, 1),
        "tables": tables,
        "games": tables * games,
        "actions": actions,
        "seconds": round(elapsed, 2),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot bench engine")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--games", type=int, default=1, help="games per table")
    parser.add_argument("--level", default="leicht")
    parser.add_argument(
        "--database-url", help="run on PostgreSQL (a scratch schema there) instead of SQLite"
    )
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.tables, args.games, args.level, args.database_url))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:<24} {value}")
    return 0
