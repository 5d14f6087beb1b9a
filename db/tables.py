"""Tables in channels, with optimistic versions, and who sits on their seats
(``tables``, ``seats``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from db._util import check_seat, dump_json, from_ms, load_json, to_ms
from db.database import Database, Row
from db.errors import NotFoundError, VersionConflictError
from db.guilds import ENSURE_GUILD
from db.rows import AILevel, DisconnectPolicy, JSONDict, SeatRow, TableRow, TableStatus


class _Unset(enum.Enum):
    UNSET = enum.auto()


UNSET: Final = _Unset.UNSET
"""Default of optional update arguments: leave the column as it is."""

_TABLE_COLUMNS: Final = """id, guild_id, channel_id, host_id, rules, status, turn_timer_s,
    games_per_session, version, created_at, updated_at, ai_level, disconnect_policy, tempo_s,
    coach, ranked"""
INSERT_TABLE: Final = f"""
INSERT INTO tables (guild_id, channel_id, host_id, rules, status, turn_timer_s,
    games_per_session, version, created_at, updated_at, ai_level, disconnect_policy, tempo_s,
    coach, ranked)
VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)
RETURNING {_TABLE_COLUMNS}
"""
GET_TABLE: Final = f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?"
UPDATE_TABLE: Final = f"""
UPDATE tables SET rules = ?, status = ?, turn_timer_s = ?, games_per_session = ?,
    version = version + 1, updated_at = ?
WHERE id = ? AND version = ?
RETURNING {_TABLE_COLUMNS}
"""
LIST_OPEN_TABLES: Final = f"""
SELECT {_TABLE_COLUMNS} FROM tables WHERE status <> 'closed' ORDER BY id
"""
FIND_OPEN_TABLE: Final = f"""
SELECT {_TABLE_COLUMNS} FROM tables
WHERE guild_id = ? AND channel_id = ? AND status <> 'closed'
ORDER BY id DESC LIMIT 1
"""


def _table(row: Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_id=row["host_id"],
        rules=load_json(row["rules"]),
        status=row["status"],
        turn_timer_s=row["turn_timer_s"],
        games_per_session=row["games_per_session"],
        version=row["version"],
        created_at=from_ms(row["created_at"]),
        updated_at=from_ms(row["updated_at"]),
        ai_level=row["ai_level"],
        disconnect_policy=row["disconnect_policy"],
        tempo_s=row["tempo_s"],
        coach=bool(row["coach"]),
        ranked=bool(row["ranked"]),
    )


async def create_table(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    rules: JSONDict,
    games_per_session: int,
    turn_timer_s: int | None = None,
    status: TableStatus = "lobby",
    ai_level: AILevel = "mittel",
    now: datetime | None = None,
    disconnect_policy: DisconnectPolicy = "bot",
    tempo_s: int | None = None,
    coach: bool = False,
    ranked: bool = True,
) -> TableRow:
    """Open a table (version 0). The host must be a stored player; the guild is added.

    ``ai_level``: the AIs that fill its empty seats at the start and stand in for players.
    ``tempo_s``: a slow table's time per move (in place of ``turn_timer_s``).
    ``coach``: its hands offer the AI's Tipp. ``ranked``: its games count on the
    leaderboard, the ratings and a player's figures (not with the coach, not a challenge's).
    """
    ms = to_ms(now)
    async with db.transaction():
        await db.execute(ENSURE_GUILD, (guild_id, ms, ms))
        row = await db.fetchone(
            INSERT_TABLE,
            (
                guild_id,
                channel_id,
                host_id,
                dump_json(rules),
                status,
                turn_timer_s,
                games_per_session,
                ms,
                ms,
                ai_level,
                disconnect_policy,
                tempo_s,
                coach,
                ranked and not coach,
            ),
        )
    assert row is not None  # RETURNING always yields the inserted row
    return _table(row)


async def get_table(db: Database, table_id: int) -> TableRow:
    """The table; :class:`NotFoundError` when there is none."""
    row = await db.fetchone(GET_TABLE, (table_id,))
    if row is None:
        raise NotFoundError(f"no table {table_id}")
    return _table(row)


async def update_table(
    db: Database,
    table_id: int,
    expected_version: int,
    *,
    status: TableStatus | _Unset = UNSET,
    rules: JSONDict | _Unset = UNSET,
    turn_timer_s: int | _Unset | None = UNSET,
    games_per_session: int | _Unset = UNSET,
    now: datetime | None = None,
) -> TableRow:
    """Change a table if it is still at ``expected_version``; the version goes up by one.

    With no changes given it only bumps the version (which invalidates old buttons).
    Raises :class:`VersionConflictError` when someone else changed the table first.
    """
    async with db.transaction():
        current = await get_table(db, table_id)
        if current.version != expected_version:
            raise VersionConflictError(
                f"table {table_id} is at version {current.version}, not {expected_version}",
                current_version=current.version,
            )
        row = await db.fetchone(
            UPDATE_TABLE,
            (
                dump_json(current.rules if isinstance(rules, _Unset) else rules),
                current.status if isinstance(status, _Unset) else status,
                current.turn_timer_s if isinstance(turn_timer_s, _Unset) else turn_timer_s,
                current.games_per_session
                if isinstance(games_per_session, _Unset)
                else games_per_session,
                to_ms(now),
                table_id,
                expected_version,
            ),
        )
        if row is None:
            # SQLite's write lock makes this impossible; under PostgreSQL's READ COMMITTED
            # another process may have changed the row between the read and the UPDATE.
            current = await get_table(db, table_id)
            raise VersionConflictError(
                f"table {table_id} is at version {current.version}, not {expected_version}",
                current_version=current.version,
            )
    return _table(row)


async def list_open_tables(db: Database) -> list[TableRow]:
    """Every table not closed, oldest first: what restart recovery picks up."""
    return [_table(row) for row in await db.fetchall(LIST_OPEN_TABLES)]


async def find_open_table(db: Database, guild_id: int, channel_id: int) -> TableRow | None:
    """The newest table in the channel that is not closed."""
    row = await db.fetchone(FIND_OPEN_TABLE, (guild_id, channel_id))
    return None if row is None else _table(row)


# -- seats -----------------------------------------------------------------------------

UPSERT_SEAT: Final = """
INSERT INTO seats (table_id, seat, user_id, ai_level) VALUES (?, ?, ?, ?)
ON CONFLICT (table_id, seat) DO UPDATE SET
    user_id = excluded.user_id, ai_level = excluded.ai_level
"""
DELETE_SEAT: Final = "DELETE FROM seats WHERE table_id = ? AND seat = ?"
GET_SEATS: Final = """
SELECT table_id, seat, user_id, ai_level FROM seats WHERE table_id = ? ORDER BY seat
"""


async def set_seat(
    db: Database,
    table_id: int,
    seat: int,
    *,
    user_id: int | None = None,
    ai_level: AILevel | None = None,
) -> SeatRow:
    """Put a human (``user_id``) or an AI (``ai_level``) on a seat, replacing whoever sat there.

    A human already seated elsewhere at the table raises :class:`~db.errors.ConstraintError`.
    """
    check_seat(seat)
    if (user_id is None) == (ai_level is None):
        raise ValueError("give exactly one of user_id and ai_level")
    await db.execute(UPSERT_SEAT, (table_id, seat, user_id, ai_level))
    return SeatRow(table_id, seat, user_id, ai_level)


async def clear_seat(db: Database, table_id: int, seat: int) -> bool:
    """Empty a seat; returns whether somebody sat there."""
    check_seat(seat)
    return await db.execute(DELETE_SEAT, (table_id, seat)) > 0


async def get_seats(db: Database, table_id: int) -> list[SeatRow]:
    """The occupied seats, by seat number."""
    return [
        SeatRow(row["table_id"], row["seat"], row["user_id"], row["ai_level"])
        for row in await db.fetchall(GET_SEATS, (table_id,))
    ]


# A paused player keeps their seat (owner_id) while an AI plays it: the table is still theirs.
PLAYER_OPEN_TABLES: Final = """
SELECT t.id, t.guild_id, t.channel_id, t.status, t.tempo_s, m.message_id, m.game_number
FROM tables AS t
JOIN seats AS s ON s.table_id = t.id AND (s.user_id = ? OR s.owner_id = ?)
LEFT JOIN table_messages AS m ON m.table_id = t.id
WHERE t.status <> 'closed'
ORDER BY t.id
"""


@dataclass(frozen=True, slots=True)
class PlayerTable:
    """An open table a player sits at, and its public message (None before it is sent)."""

    table_id: int
    guild_id: int
    channel_id: int
    status: TableStatus
    tempo_s: int | None
    message_id: int | None
    game_number: int | None


async def player_open_tables(db: Database, user_id: int) -> list[PlayerTable]:
    """Every open table where ``user_id`` sits (also paused), in every guild, oldest first."""
    rows = await db.fetchall(PLAYER_OPEN_TABLES, (user_id, user_id))
    return [
        PlayerTable(
            r["id"],
            r["guild_id"],
            r["channel_id"],
            r["status"],
            r["tempo_s"],
            r["message_id"],
            r["game_number"],
        )
        for r in rows
    ]
