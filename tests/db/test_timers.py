"""db.timers on SQLite and PostgreSQL: durable timers."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

import db
from db import Database

from .conftest import Table, at


async def test_timers(store: Database, table: Table) -> None:
    start = at(2025, 5, 1)
    turn = await db.timers.add_timer(
        store, "turn", start + timedelta(seconds=60), table_id=table.table.id, payload={"seat": 2}
    )
    nudge = await db.timers.add_timer(
        store, "nudge", start + timedelta(seconds=30), table_id=table.table.id
    )
    tournament = await db.timers.add_timer(
        store, "tournament_start", start + timedelta(hours=1), tournament_id=7
    )
    assert turn.payload == {"seat": 2} and turn.fires_at == start + timedelta(seconds=60)
    assert [t.id for t in await db.timers.list_timers(store)] == [nudge.id, turn.id, tournament.id]
    due = await db.timers.list_timers(store, due_by=start + timedelta(seconds=60))
    assert [t.kind for t in due] == ["nudge", "turn"]

    assert await db.timers.cancel_timer(store, nudge.id)
    assert not await db.timers.cancel_timer(store, nudge.id)
    await db.timers.add_timer(store, "turn", start, table_id=table.table.id)
    assert await db.timers.cancel_table_timers(store, table.table.id, "turn") == 2
    assert [t.id for t in await db.timers.list_timers(store)] == [tournament.id]
    assert await db.timers.cancel_table_timers(store, table.table.id) == 0


async def test_timers_survive_a_restart(database_target: str | Path) -> None:
    path = database_target
    store = await db.connect(path)
    timer = await db.timers.add_timer(store, "tournament_start", at(2030, 1, 1), tournament_id=1)
    await store.close()
    store = await db.connect(path)
    try:
        assert await db.timers.list_timers(store) == [timer]
    finally:
        await store.close()


async def test_naive_datetimes_are_refused(store: Database) -> None:
    with pytest.raises(ValueError, match="naive"):
        await db.timers.add_timer(store, "turn", at(2025, 1, 1).replace(tzinfo=None))
