"""Forwarded interactions: stored by the process that received them, applied by the one that
runs their table.

Discord delivers interactions in DMs to shard 0 only. For a table another process runs, the
receiving process stores the interaction here and only then acknowledges it; the process
holding the table's lease (``table_leases``) picks it up, applies it, answers through the
interaction's webhook and marks it handled. A pending row whose table nobody runs, or which
closed, is answered by whichever process sweeps first (``finish`` lets exactly one win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, Literal

from db._util import dump_json, from_ms, load_json, to_ms
from db.database import Database, Row
from db.errors import NotFoundError

Kind = Literal["click", "karten", "ansage", "stand", "regeln"]
State = Literal["pending", "done", "failed", "orphaned"]

_COLUMNS: Final = (
    "f.id, f.table_id, f.kind, f.custom_id, f.args, f.user_id, f.locale, f.application_id, "
    "f.token, f.channel_id, f.message_id, f.created_at, f.state"
)
ADD: Final = """
INSERT INTO forwarded_interactions (table_id, kind, custom_id, args, user_id, locale,
    application_id, token, channel_id, message_id, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id
"""
GET: Final = f"SELECT {_COLUMNS} FROM forwarded_interactions f WHERE f.id = ?"
# The owner's poll: pending rows of the tables whose live lease it holds, oldest first.
PENDING_FOR: Final = f"""
SELECT {_COLUMNS} FROM forwarded_interactions f
JOIN table_leases l ON l.table_id = f.table_id
WHERE f.state = 'pending' AND l.owner_id = ? AND l.expires_at > ?
ORDER BY f.id LIMIT ?
"""
# Old enough that a running owner would have handled it, and its table closed or run by
# nobody (no lease, or one that ran out).
UNOWNED: Final = f"""
SELECT {_COLUMNS} FROM forwarded_interactions f
JOIN tables t ON t.id = f.table_id
LEFT JOIN table_leases l ON l.table_id = f.table_id
WHERE f.state = 'pending' AND f.created_at <= ?
    AND (t.status = 'closed' OR l.table_id IS NULL OR l.expires_at <= ?)
ORDER BY f.id LIMIT ?
"""
# The token is a credential for 15 minutes: not kept once the interaction is answered.
FINISH: Final = """
UPDATE forwarded_interactions SET state = ?, handled_at = ?, token = ''
WHERE id = ? AND state = 'pending'
"""
PRUNE: Final = "DELETE FROM forwarded_interactions WHERE state <> 'pending' AND handled_at < ?"
PLAYING_TABLES_OF: Final = """
SELECT DISTINCT t.id FROM tables t JOIN seats s ON s.table_id = t.id
WHERE t.status = 'playing' AND (s.user_id = ? OR s.owner_id = ?)
ORDER BY t.id
"""


@dataclass(frozen=True, slots=True)
class ForwardRow:
    """One stored interaction; ``token`` is empty once it was handled."""

    id: int
    table_id: int
    kind: Kind
    custom_id: str
    args: tuple[str, ...]
    user_id: int
    locale: str
    application_id: int
    token: str
    channel_id: int | None
    message_id: int | None
    created_at: datetime
    state: State


def _row(row: Row) -> ForwardRow:
    return ForwardRow(
        id=int(row["id"]),
        table_id=int(row["table_id"]),
        kind=row["kind"],
        custom_id=str(row["custom_id"]),
        args=tuple(str(a) for a in load_json(row["args"])),
        user_id=int(row["user_id"]),
        locale=str(row["locale"]),
        application_id=int(row["application_id"]),
        token=str(row["token"]),
        channel_id=None if row["channel_id"] is None else int(row["channel_id"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        created_at=from_ms(int(row["created_at"])),
        state=row["state"],
    )


async def add(
    db: Database,
    *,
    table_id: int,
    kind: Kind,
    custom_id: str,
    args: Sequence[str] = (),
    user_id: int,
    locale: str,
    application_id: int,
    token: str,
    channel_id: int | None = None,
    message_id: int | None = None,
    now: datetime,
) -> ForwardRow:
    """Store an interaction for the table's process; committed when this returns."""
    forward_id = await db.fetchval(
        ADD,
        (
            table_id,
            kind,
            custom_id,
            dump_json(list(args)),
            user_id,
            locale,
            application_id,
            token,
            channel_id,
            message_id,
            to_ms(now),
        ),
    )
    return await get(db, int(forward_id))


async def get(db: Database, forward_id: int) -> ForwardRow:
    row = await db.fetchone(GET, (forward_id,))
    if row is None:
        raise NotFoundError(f"no forwarded interaction {forward_id}")
    return _row(row)


async def pending_for(
    db: Database, owner_id: str, *, now: datetime, limit: int = 100
) -> list[ForwardRow]:
    """Pending interactions of the tables ``owner_id`` holds a live lease on, oldest first."""
    rows = await db.fetchall(PENDING_FOR, (owner_id, to_ms(now), limit))
    return [_row(r) for r in rows]


async def unowned(
    db: Database, *, now: datetime, grace: timedelta, limit: int = 100
) -> list[ForwardRow]:
    """Pending interactions older than ``grace`` whose table closed or nobody runs."""
    rows = await db.fetchall(UNOWNED, (to_ms(now - grace), to_ms(now), limit))
    return [_row(r) for r in rows]


async def finish(db: Database, forward_id: int, state: State, *, now: datetime) -> bool:
    """Mark a pending interaction handled; False when it was handled already (by another)."""
    return await db.execute(FINISH, (state, to_ms(now), forward_id)) > 0


async def prune(db: Database, *, before: datetime) -> int:
    """Delete interactions handled before ``before``; returns how many."""
    return await db.execute(PRUNE, (to_ms(before),))


async def playing_tables_of(db: Database, user_id: int) -> list[int]:
    """The tables in play where ``user_id`` has a seat (also one an AI keeps for them)."""
    rows = await db.fetchall(PLAYING_TABLES_OF, (user_id, user_id))
    return [int(r["id"]) for r in rows]
