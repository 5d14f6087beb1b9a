"""Table messages are paced so that all tables together stay within Discord's request limit."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.discord.presenter import TABLE_EDIT_INTERVAL, TABLE_EDITS_PER_S, Presenter
from bot.discord.state import Coalescer


def presenter(shard_ids: tuple[int, ...] | None = None, shard_count: int | None = None) -> Any:
    settings = SimpleNamespace(shard_ids=shard_ids, shard_count=shard_count, pictures=False)
    return Presenter(SimpleNamespace(settings=settings))


def test_few_tables_edit_once_a_second() -> None:
    p = presenter()
    p.tables.update({i: object() for i in range(5)})
    assert p.table_edit_interval() == TABLE_EDIT_INTERVAL


def test_many_tables_stay_within_the_budget() -> None:
    p = presenter()
    p.tables.update({i: object() for i in range(200)})
    interval = p.table_edit_interval()
    assert 200 / interval == TABLE_EDITS_PER_S  # edits per second of all tables together


def test_a_process_of_several_shares_the_budget_by_its_shards() -> None:
    p = presenter(shard_ids=(0,), shard_count=4)
    assert p.table_edit_budget == TABLE_EDITS_PER_S / 4
    p.tables.update({i: object() for i in range(50)})
    assert p.table_edit_interval() == 50 / (TABLE_EDITS_PER_S / 4)


async def test_the_coalescer_asks_for_its_interval_on_every_run() -> None:
    asked: list[int] = []
    runs: list[int] = []

    def interval() -> float:
        asked.append(1)
        return 0.0

    async def work() -> None:
        runs.append(1)

    job = Coalescer(work, interval)
    job.mark()
    await job.wait()
    job.mark()
    await job.wait()
    await asyncio.sleep(0)
    assert len(runs) == 2 and len(asked) >= 2
