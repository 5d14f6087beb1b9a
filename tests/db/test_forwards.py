"""The forward queue: stored before the acknowledgement, picked up only by the table's lease
holder, handled exactly once, and answered by someone when nobody runs the table.
"""

from __future__ import annotations

from datetime import timedelta

import db
from db import Database, away, forwards, leases
from tests.db.conftest import ALICE, BOB, CHANNEL, GUILD, Table, at

TTL = timedelta(seconds=30)
NOW = at(2026, 3, 1)
APP = 900_000_000_000_000_001  # snowflakes need 64 bits


async def click(store: Database, table_id: int, **fields: object) -> forwards.ForwardRow:
    values: dict[str, object] = {
        "table_id": table_id,
        "kind": "click",
        "custom_id": f"doko:card:{table_id}:7:H10:1",
        "user_id": ALICE,
        "locale": "en-GB",
        "application_id": APP,
        "token": "aW50ZXJhY3Rpb24secret",
        "channel_id": 800_000_000_000_000_002,
        "message_id": 800_000_000_000_000_003,
        "now": NOW,
    }
    values.update(fields)
    return await forwards.add(store, **values)  # type: ignore[arg-type]


async def test_a_stored_interaction_reads_back_as_it_was_given(
    store: Database, table: Table
) -> None:
    row = await click(store, table.table.id, kind="click", args=("SQ", "HK"))
    assert row == await forwards.get(store, row.id)
    assert (row.table_id, row.kind, row.args, row.user_id, row.locale) == (
        table.table.id,
        "click",
        ("SQ", "HK"),
        ALICE,
        "en-GB",
    )
    assert (row.application_id, row.token, row.created_at, row.state) == (
        APP,
        "aW50ZXJhY3Rpb24secret",
        NOW,
        "pending",
    )
    assert (row.channel_id, row.message_id) == (800_000_000_000_000_002, 800_000_000_000_000_003)


async def test_only_the_live_lease_holder_sees_a_tables_pending_interactions(
    store: Database, table: Table
) -> None:
    table_id = table.table.id
    first = await click(store, table_id)
    second = await click(store, table_id, user_id=BOB)
    assert await forwards.pending_for(store, "a", now=NOW) == []  # nobody holds it yet
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=NOW)
    assert [r.id for r in await forwards.pending_for(store, "a", now=NOW)] == [
        first.id,
        second.id,
    ]
    assert await forwards.pending_for(store, "b", now=NOW) == []
    # A lease that ran out is nobody's: its holder must not act on the table any more.
    assert await forwards.pending_for(store, "a", now=NOW + TTL) == []


async def test_an_interaction_is_handled_once_and_its_token_is_not_kept(
    store: Database, table: Table
) -> None:
    row = await click(store, table.table.id)
    later = NOW + timedelta(seconds=1)
    assert await forwards.finish(store, row.id, "done", now=later)
    assert not await forwards.finish(store, row.id, "orphaned", now=later)
    handled = await forwards.get(store, row.id)
    assert handled.state == "done" and handled.token == ""
    assert await leases.claim(store, table.table.id, "a", ttl=TTL, now=NOW)
    assert await forwards.pending_for(store, "a", now=NOW) == []


async def test_unowned_are_old_ones_of_closed_or_unheld_tables_never_a_live_holders(
    store: Database, table: Table
) -> None:
    grace = timedelta(seconds=30)
    table_id = table.table.id
    row = await click(store, table_id)
    # No lease at all: nobody runs the table, but only after the grace period.
    assert await forwards.unowned(store, now=NOW + grace / 2, grace=grace) == []
    assert [r.id for r in await forwards.unowned(store, now=NOW + grace, grace=grace)] == [row.id]
    # A live lease: its holder will handle it, however old it is.
    late = NOW + 2 * grace
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=late)
    assert await forwards.unowned(store, now=late, grace=grace) == []
    # The holder died: its lease ran out.
    assert [r.id for r in await forwards.unowned(store, now=late + TTL, grace=grace)] == [row.id]
    # The table closed (its holder released it): nobody will apply it.
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=late)
    await db.tables.update_table(store, table_id, table.table.version, status="closed")
    assert [r.id for r in await forwards.unowned(store, now=late, grace=grace)] == [row.id]
    assert await forwards.finish(store, row.id, "orphaned", now=late)
    assert await forwards.unowned(store, now=late, grace=grace) == []


async def test_prune_deletes_handled_interactions_only(store: Database, table: Table) -> None:
    handled = await click(store, table.table.id)
    pending = await click(store, table.table.id)
    assert await forwards.finish(store, handled.id, "done", now=NOW)
    assert await forwards.prune(store, before=NOW + timedelta(hours=1)) == 1
    assert (await forwards.get(store, pending.id)).state == "pending"


async def test_the_tables_in_play_of_a_player_include_a_seat_an_ai_keeps_for_them(
    store: Database, table: Table
) -> None:
    assert await forwards.playing_tables_of(store, ALICE) == [table.table.id]
    lobby = await db.tables.create_table(
        store,
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        host_id=BOB,
        rules={},
        games_per_session=1,
        turn_timer_s=None,
    )
    await db.tables.set_seat(store, lobby.id, 0, user_id=ALICE)
    assert await forwards.playing_tables_of(store, ALICE) == [table.table.id]  # not a lobby
    await db.tables.update_table(store, lobby.id, lobby.version, status="playing")
    assert await forwards.playing_tables_of(store, ALICE) == [table.table.id, lobby.id]
    assert await forwards.playing_tables_of(store, 999) == []
    await away.set_away(store, table.table.id, 0, ALICE, "leicht")
    assert await forwards.playing_tables_of(store, ALICE) == [table.table.id, lobby.id]
