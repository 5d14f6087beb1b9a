"""Read-only queries of the store for the front ends: leaderboard, exports, a player's ping
delay, a server's settings (periods, pages, ratings and a player's figures:
:mod:`bot.engine.rangliste`).
"""

from __future__ import annotations

from typing import Any

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
