"""db.tables on SQLite and PostgreSQL: tables, their versions, and their seats."""

from __future__ import annotations

import asyncio

import pytest

import db
from db import Database

from .conftest import ALICE, BOB, CHANNEL, GUILD, Table, at


async def test_table_create_get_update_with_versions(store: Database) -> None:
    await db.players.upsert_player(store, ALICE, "Alice")
    created = await db.tables.create_table(
        store,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        rules={"mit_neunen": False},
        games_per_session=12,
        now=at(2025, 5, 1),
    )
    assert created.version == 0 and created.status == "lobby" and created.turn_timer_s is None
    assert created.created_at == at(2025, 5, 1)
    assert await db.tables.get_table(store, created.id) == created

    playing = await db.tables.update_table(store, created.id, 0, status="playing", turn_timer_s=90)
    assert (playing.version, playing.status, playing.turn_timer_s) == (1, "playing", 90)
    assert playing.rules == {"mit_neunen": False} and playing.games_per_session == 12
    bumped = await db.tables.update_table(store, created.id, 1)
    assert bumped.version == 2 and bumped.status == "playing"
    cleared = await db.tables.update_table(store, created.id, 2, turn_timer_s=None, rules={})
    assert cleared.turn_timer_s is None and cleared.rules == {} and cleared.version == 3

    with pytest.raises(db.VersionConflictError) as conflict:
        await db.tables.update_table(store, created.id, 1, status="closed")
    assert conflict.value.current_version == 3
    assert (await db.tables.get_table(store, created.id)).status == "playing"
    with pytest.raises(db.NotFoundError):
        await db.tables.get_table(store, 999)
    with pytest.raises(db.NotFoundError):
        await db.tables.update_table(store, 999, 0)
    with pytest.raises(db.ConstraintError):
        await db.tables.update_table(store, created.id, 3, status="weird")  # type: ignore[arg-type]


async def test_concurrent_updates_one_wins(store: Database) -> None:
    await db.players.upsert_player(store, ALICE, "Alice")
    table = await db.tables.create_table(
        store, guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, rules={}, games_per_session=4
    )
    outcomes = await asyncio.gather(
        *(db.tables.update_table(store, table.id, 0, turn_timer_s=s) for s in (10, 20, 30)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, db.TableRow) for o in outcomes) == 1
    assert sum(isinstance(o, db.VersionConflictError) for o in outcomes) == 2
    assert (await db.tables.get_table(store, table.id)).version == 1


async def test_host_must_be_a_player(store: Database) -> None:
    with pytest.raises(db.ConstraintError):
        await db.tables.create_table(
            store, guild_id=GUILD, channel_id=CHANNEL, host_id=404, rules={}, games_per_session=4
        )
    assert await db.tables.list_open_tables(store) == []


async def test_open_tables_and_channel_lookup(store: Database, table: Table) -> None:
    other = await db.tables.create_table(
        store, guild_id=GUILD, channel_id=CHANNEL + 1, host_id=BOB, rules={}, games_per_session=8
    )
    assert [t.id for t in await db.tables.list_open_tables(store)] == [table.table.id, other.id]
    assert await db.tables.find_open_table(store, GUILD, CHANNEL + 1) == other
    await db.tables.update_table(store, other.id, other.version, status="closed")
    assert [t.id for t in await db.tables.list_open_tables(store)] == [table.table.id]
    assert await db.tables.find_open_table(store, GUILD, CHANNEL + 1) is None


async def test_seats(store: Database, table: Table) -> None:
    table_id = table.table.id
    assert [s.user_id for s in await db.tables.get_seats(store, table_id)] == [11, 12, 13, 14]
    assert await db.tables.clear_seat(store, table_id, 3)
    assert not await db.tables.clear_seat(store, table_id, 3)
    bot = await db.tables.set_seat(store, table_id, 3, ai_level="schwer")
    assert bot.is_ai and bot == db.SeatRow(table_id, 3, None, "schwer")
    human = await db.tables.set_seat(store, table_id, 3, user_id=14)
    assert not human.is_ai
    assert (await db.tables.get_seats(store, table_id))[3] == human
    with pytest.raises(db.ConstraintError):  # Alice already sits on seat 0
        await db.tables.set_seat(store, table_id, 3, user_id=ALICE)
    with pytest.raises(ValueError, match="exactly one"):
        await db.tables.set_seat(store, table_id, 2, user_id=ALICE, ai_level="leicht")
    # A five-player table has a fifth seat (the dealer sits out each game); no sixth.
    assert await db.tables.set_seat(store, table_id, 4, ai_level="leicht") == db.SeatRow(
        table_id, 4, None, "leicht"
    )
    with pytest.raises(ValueError, match="seat must be"):
        await db.tables.set_seat(store, table_id, 5, ai_level="leicht")


async def test_a_table_keeps_its_ai_level(store: Database) -> None:
    await db.players.upsert_player(store, ALICE, "Alice")
    common = {"guild_id": GUILD, "host_id": ALICE, "rules": {}, "games_per_session": 4}
    plain = await db.tables.create_table(store, channel_id=CHANNEL, **common)  # type: ignore[arg-type]
    assert plain.ai_level == "mittel"
    hard = await db.tables.create_table(
        store,
        channel_id=CHANNEL + 1,
        ai_level="schwer",
        **common,  # type: ignore[arg-type]
    )
    bumped = await db.tables.update_table(store, hard.id, 0, status="playing")
    assert bumped.ai_level == "schwer"
    assert [t.ai_level for t in await db.tables.list_open_tables(store)] == ["mittel", "schwer"]
    with pytest.raises(db.ConstraintError):
        await db.tables.create_table(
            store,
            channel_id=CHANNEL + 2,
            ai_level="meister",
            **common,  # type: ignore[arg-type]
        )
