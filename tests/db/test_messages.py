"""Message ids of the front end: saved as messages are sent, read back after a restart,
forgotten when a table closes; pings stored while they are out.
"""

from __future__ import annotations

import db
from db import Database, messages
from db.messages import HandMessage, PingMessage, TableMessage, TableMessages

from .conftest import ALICE, BOB, Table, new_game

DM_ALICE, DM_BOB = 800_000_000_000_000_001, 800_000_000_000_000_002  # snowflakes: 64 bits
LOBBY, GAME_1, GAME_2 = 900_000_000_000_000_001, 900_000_000_000_000_002, 900_000_000_000_000_003


async def test_a_table_without_messages_has_none(store: Database, table: Table) -> None:
    assert await messages.table_messages(store, table.table.id) == TableMessages(None, ())


async def test_the_newest_table_and_hand_messages_are_what_reads_back(
    store: Database, table: Table
) -> None:
    table_id = table.table.id
    first = await new_game(store, table.session.id, 1)
    second = await new_game(store, table.session.id, 2)
    await messages.save_table_message(store, table_id, LOBBY, None)
    await messages.save_table_message(store, table_id, GAME_1, 1)
    await messages.save_hand_message(store, table_id, ALICE, first.id, DM_ALICE, 101)
    await messages.save_hand_message(store, table_id, BOB, first.id, DM_BOB, 102)
    # The next game: a new message each, replacing the old game's.
    await messages.save_table_message(store, table_id, GAME_2, 2)
    await messages.save_hand_message(store, table_id, ALICE, second.id, DM_ALICE, 103)
    stored = await messages.table_messages(store, table_id)
    assert stored == TableMessages(
        TableMessage(GAME_2, 2),
        (
            HandMessage(ALICE, second.id, DM_ALICE, 103),
            HandMessage(BOB, first.id, DM_BOB, 102),
        ),
    )


async def test_a_closed_tables_messages_are_forgotten(store: Database, table: Table) -> None:
    table_id = table.table.id
    game = await new_game(store, table.session.id, 1)
    other = await db.tables.create_table(
        store,
        guild_id=table.table.guild_id,
        channel_id=table.table.channel_id + 1,
        host_id=ALICE,
        rules={},
        games_per_session=4,
        turn_timer_s=None,
        status="lobby",
    )
    await messages.save_table_message(store, table_id, GAME_1, 1)
    await messages.save_table_message(store, other.id, LOBBY, None)
    await messages.save_hand_message(store, table_id, ALICE, game.id, DM_ALICE, 101)
    await messages.forget_table(store, table_id)
    assert await messages.table_messages(store, table_id) == TableMessages(None, ())
    assert (await messages.table_messages(store, other.id)).table is not None

    # Left behind by a process that stopped before forgetting them: swept by table status.
    await messages.save_hand_message(store, table_id, ALICE, game.id, DM_ALICE, 101)
    await db.tables.update_table(store, table_id, table.table.version, status="closed")
    await messages.forget_closed(store)
    assert await messages.table_messages(store, table_id) == TableMessages(None, ())
    assert (await messages.table_messages(store, other.id)).table == TableMessage(LOBBY, None)


async def test_a_ping_is_stored_while_it_is_out(store: Database, table: Table) -> None:
    table_id = table.table.id
    other = await db.tables.create_table(
        store,
        guild_id=table.table.guild_id,
        channel_id=table.table.channel_id + 1,
        host_id=ALICE,
        rules={},
        games_per_session=4,
        turn_timer_s=None,
        status="lobby",
    )
    assert await messages.pings(store) == ()
    await messages.save_ping(store, table_id, ALICE, DM_ALICE, 2_000_000_000_000_000_003)
    await messages.save_ping(store, other.id, BOB, DM_BOB, 2_000_000_000_000_000_001)
    # A mention in the table's channel, for closed DMs.
    channel = table.table.channel_id
    await messages.save_ping(store, table_id, BOB, channel, 2_000_000_000_000_000_002)
    assert await messages.pings(store) == (
        PingMessage(other.id, BOB, DM_BOB, 2_000_000_000_000_000_001, False),
        PingMessage(table_id, BOB, channel, 2_000_000_000_000_000_002, False),
        PingMessage(table_id, ALICE, DM_ALICE, 2_000_000_000_000_000_003, False),
    )
    # Deleted with its message; the others stay.
    await messages.forget_ping(store, 2_000_000_000_000_000_002)
    await messages.forget_ping(store, 2_000_000_000_000_000_002)  # gone already: no error
    assert [p.message_id for p in await messages.pings(store)] == [
        2_000_000_000_000_000_001,
        2_000_000_000_000_000_003,
    ]
    # Closing a table leaves its pings to be deleted (by the start-up sweep, if the process
    # stopped first), and says so.
    await db.tables.update_table(store, table_id, table.table.version, status="closed")
    await messages.forget_table(store, table_id)
    await messages.forget_closed(store)
    assert await messages.pings(store) == (
        PingMessage(other.id, BOB, DM_BOB, 2_000_000_000_000_000_001, False),
        PingMessage(table_id, ALICE, DM_ALICE, 2_000_000_000_000_000_003, True),
    )
