"""db.replays on SQLite and PostgreSQL: the table option, the server default, each game's thread."""

from __future__ import annotations

import db
from db import Database, replays

from .conftest import GUILD, Table, new_game


async def test_the_table_option_and_the_server_default(store: Database, table: Table) -> None:
    assert not await replays.table_replay(store, table.table.id)  # off unless chosen
    await replays.set_table_replay(store, table.table.id, True)
    assert await replays.table_replay(store, table.table.id)
    assert not await replays.table_replay(store, 10_000)  # no such table
    assert not (await db.guilds.get_guild_settings(store, GUILD)).replay_thread
    await db.guilds.set_guild_settings(store, GUILD, replay_thread=True)
    await db.guilds.set_guild_settings(store, GUILD, public_language="en")  # kept
    assert (await db.guilds.get_guild_settings(store, GUILD)).replay_thread


async def test_a_game_keeps_its_thread(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    assert await replays.replay_thread(store, game.id) is None
    await replays.save_replay_thread(store, game.id, 2**62, None)  # opened, no message yet
    await replays.save_replay_thread(store, game.id, 2**62, 2**62 + 1)
    assert await replays.replay_thread(store, game.id) == replays.ReplayThread(
        game.id, 2**62, 2**62 + 1
    )
    other = await new_game(store, table.session.id, 2)
    await replays.save_replay_thread(store, other.id, None, None)  # refused: not tried again
    assert await replays.replay_thread(store, other.id) == replays.ReplayThread(
        other.id, None, None
    )
