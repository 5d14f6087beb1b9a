"""The store: SQLite by default, PostgreSQL for several processes sharing one database.

``store = await db.connect(path_or_url)`` opens a SQLite file or a ``postgresql://``
database with its schema up to date (``db.connect_from_env()``: ``DATABASE_URL``, else
``DATABASE_PATH``). The repository modules, one per kind of record (``db.tables``,
``db.sessions``, ``db.games``, ``db.actions`` …), take that :class:`Database` first, run
SQL with ``?`` parameters and return frozen rows from :mod:`db.rows`, the same on both.
Functions that write more than one statement open a transaction, which joins the caller's::

    async with store.transaction():
        await actions.append_action(store, game_id, seq, action)
"""

from db import (
    actions,
    away,
    command_sync,
    forwards,
    games,
    guilds,
    leases,
    messages,
    players,
    ratings,
    results,
    sessions,
    standings,
    tables,
    timers,
    tournaments,
    versions,
)
from db.connect import connect, connect_from_env, is_postgres_url, open_database, target_from_env
from db.database import BatchFailed, Database
from db.errors import (
    ActionGapError,
    ConstraintError,
    CorruptDatabaseError,
    DuplicateActionError,
    ForeignDatabaseError,
    GameNotRunningError,
    MigrationError,
    NotFoundError,
    SchemaOutdatedError,
    SchemaTooNewError,
    StoreError,
    VersionConflictError,
)
from db.games import get_game
from db.ratings import get_rating
from db.rows import (
    GameRow,
    GuildSettings,
    Period,
    PlayerGameRow,
    PlayerRow,
    RatedRow,
    RatingRow,
    SeatResult,
    SeatRow,
    SessionRow,
    StandingRow,
    TableRow,
    TimerRow,
)
from db.sessions import get_session
from db.standings import guild_standings, player_standing
from db.tables import get_table

__all__ = [
    "ActionGapError",
    "BatchFailed",
    "ConstraintError",
    "CorruptDatabaseError",
    "Database",
    "DuplicateActionError",
    "ForeignDatabaseError",
    "GameNotRunningError",
    "GameRow",
    "GuildSettings",
    "MigrationError",
    "NotFoundError",
    "Period",
    "PlayerGameRow",
    "PlayerRow",
    "RatedRow",
    "RatingRow",
    "SchemaOutdatedError",
    "SchemaTooNewError",
    "SeatResult",
    "SeatRow",
    "SessionRow",
    "StandingRow",
    "StoreError",
    "TableRow",
    "TimerRow",
    "VersionConflictError",
    "actions",
    "away",
    "command_sync",
    "connect",
    "connect_from_env",
    "forwards",
    "games",
    "get_game",
    "get_rating",
    "get_session",
    "get_table",
    "guild_standings",
    "guilds",
    "is_postgres_url",
    "leases",
    "messages",
    "open_database",
    "player_standing",
    "players",
    "ratings",
    "results",
    "sessions",
    "standings",
    "tables",
    "target_from_env",
    "timers",
    "tournaments",
    "versions",
]
