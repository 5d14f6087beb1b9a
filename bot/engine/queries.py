"""Read-only queries of the store for the front ends: leaderboard, exports, a player's ping
delay, a player's open tables, a server's settings (periods, pages, ratings and a player's figures:
:mod:`bot.engine.rangliste`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine.tables import Table, Tables
from db import games, guilds, players, results, sessions, standings, tables
from db.database import Database
from db.errors import NotFoundError
from db.rows import GuildSettings, StandingRow

# Seconds a human's turn waits before the bot pings them, until they choose otherwise.
NOTIFY_DEFAULT_S = 20


async def leaderboard(db: Database, guild_id: int, limit: int) -> list[StandingRow]:
    return await standings.guild_standings(db, guild_id, limit=limit)


async def finished_record(db: Database, guild_id: int, game_id: int) -> dict[str, Any] | None:
    """A finished game of this guild; a running game is never handed out (hands!)."""
    try:
        game = await games.get_game(db, game_id)
        session = await sessions.get_session(db, game.session_id)
        table = await tables.get_table(db, session.table_id)
    except NotFoundError:
        return None
    if table.guild_id != guild_id or game.status != "finished" or game.record is None:
        return None
    return game.record


async def table_closed(db: Database, table_id: int) -> bool:
    """Whether the table is closed in the store; one that does not exist counts as closed."""
    try:
        return (await tables.get_table(db, table_id)).status == "closed"
    except NotFoundError:
        return True


async def notify_delay(
    db: Database, user_id: int, default: int | None = NOTIFY_DEFAULT_S
) -> int | None:
    """Seconds into the user's turn the bot pings them (0: at once); None: never;
    ``default`` until they chose.
    """
    return await players.get_notify_delay(db, user_id, default)


async def guild_settings(db: Database, guild_id: int) -> GuildSettings:
    """The server's settings (bot-admin role, time zone …); the defaults when none are set."""
    return await guilds.get_guild_settings(db, guild_id)


@dataclass(frozen=True, slots=True)
class MyTable:
    """An open table of a player for ``/doko meine-tische``.

    ``my_turn``: the player is to act there; ``since``/``due``: since when the move waits
    and when the turn timer (a slow table's tempo) runs out, where the engine knows it.
    ``message_id``: the table's public message (None before it went out).
    """

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    game_number: int | None
    slow: bool
    my_turn: bool = False
    since: datetime | None = None
    due: datetime | None = None


async def my_tables(db: Database, open_tables: Tables, user_id: int) -> list[MyTable]:
    """Every open table where the user sits, in every guild: those where it is their move
    first (soonest due first), then the others (oldest table first).

    The store says where they sit; whose move it is comes from the tables this process
    runs (a table another process runs is listed among the others).
    """
    found = []
    for row in await tables.player_open_tables(db, user_id):
        entry = MyTable(
            row.table_id,
            row.guild_id,
            row.channel_id,
            row.message_id,
            row.status,
            row.game_number,
            row.tempo_s is not None,
        )
        table = open_tables.lookup(row.table_id)
        found.append(entry if table is None else _with_turn(entry, table, user_id))
    latest = datetime.max.replace(tzinfo=UTC)
    return sorted(found, key=lambda e: (not e.my_turn, e.due or latest, e.table_id))


def _with_turn(entry: MyTable, table: Table, user_id: int) -> MyTable:
    """The entry with what the table in memory knows: the game, whose move, since when."""
    number = table.game_number or entry.game_number
    game = table.game
    seat = game.to_act() if game is not None and table.status == "playing" else None
    info = table.seats[table.seating[seat]] if seat is not None else None
    if info is None or info.user_id != user_id or info.played_by_ai:
        return replace(entry, game_number=number)
    since = due = None
    waiting = table.waiting_now
    seconds = table.tempo_s or table.turn_timer_s
    if waiting is not None:
        since, due = waiting.since, waiting.forfeit_at
    elif table.turn_version == table.version and table.turn_due and seconds:
        since, due = table.turn_due - timedelta(seconds=seconds), table.turn_due
    return replace(entry, game_number=number, my_turn=True, since=since, due=due)


async def own_finished_game(
    db: Database, table_id: int, game_id: int, user_id: int
) -> tuple[dict[str, Any], int] | None:
    """A finished game of that table, as its record, with the game seat ``user_id`` played;
    None unless the user played in it (a Spielanalyse is only ever of one's own seat).
    """
    try:
        game = await games.get_game(db, game_id)
        session = await sessions.get_session(db, game.session_id)
    except NotFoundError:
        return None
    if session.table_id != table_id or game.status != "finished" or game.record is None:
        return None
    seat = next(
        (r.seat for r in await results.get_results(db, game_id) if r.player_id == user_id), None
    )
    return None if seat is None else (game.record, seat)
