"""Durable timers: turn deadlines, tournament starts (``timers``)."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from db._util import NO_LIMIT, dump_json, from_ms, load_json, to_ms
from db.database import Database, Row
from db.rows import JSONDict, TimerRow

_TIMER_COLUMNS: Final = "id, kind, table_id, tournament_id, fires_at, payload, created_at"
INSERT_TIMER: Final = f"""
INSERT INTO timers (kind, table_id, tournament_id, fires_at, payload, created_at)
VALUES (?, ?, ?, ?, ?, ?)
RETURNING {_TIMER_COLUMNS}
"""
DELETE_TIMER: Final = "DELETE FROM timers WHERE id = ?"
DELETE_TABLE_TIMERS: Final = "DELETE FROM timers WHERE table_id = ?"
DELETE_TABLE_TIMERS_OF_KIND: Final = "DELETE FROM timers WHERE table_id = ? AND kind = ?"
LIST_TIMERS: Final = f"""
SELECT {_TIMER_COLUMNS} FROM timers WHERE fires_at <= ? ORDER BY fires_at, id
"""


def _timer(row: Row) -> TimerRow:
    return TimerRow(
        id=row["id"],
        kind=row["kind"],
        table_id=row["table_id"],
        tournament_id=row["tournament_id"],
        fires_at=from_ms(row["fires_at"]),
        payload=load_json(row["payload"]),
        created_at=from_ms(row["created_at"]),
    )


async def add_timer(
    db: Database,
    kind: str,
    fires_at: datetime,
    *,
    table_id: int | None = None,
    tournament_id: int | None = None,
    payload: JSONDict | None = None,
    now: datetime | None = None,
) -> TimerRow:
    """Remember that ``kind`` fires at ``fires_at`` (kept across restarts until cancelled)."""
    row = await db.fetchone(
        INSERT_TIMER,
        (kind, table_id, tournament_id, to_ms(fires_at), dump_json(payload or {}), to_ms(now)),
    )
    assert row is not None
    return _timer(row)


async def cancel_timer(db: Database, timer_id: int) -> bool:
    """Forget a timer (it fired or is no longer wanted); returns whether it existed."""
    return await db.execute(DELETE_TIMER, (timer_id,)) > 0


async def cancel_table_timers(db: Database, table_id: int, kind: str | None = None) -> int:
    """Forget a table's timers (of one kind, or all); returns how many there were."""
    if kind is None:
        return await db.execute(DELETE_TABLE_TIMERS, (table_id,))
    return await db.execute(DELETE_TABLE_TIMERS_OF_KIND, (table_id, kind))


async def list_timers(db: Database, *, due_by: datetime | None = None) -> list[TimerRow]:
    """Pending timers by firing time; with ``due_by`` only those firing by then."""
    limit = NO_LIMIT if due_by is None else to_ms(due_by)
    return [_timer(row) for row in await db.fetchall(LIST_TIMERS, (limit,))]


SET_TABLE_TIMER_PAYLOAD: Final = "UPDATE timers SET payload = ? WHERE table_id = ? AND kind = ?"


async def set_table_timer_payload(db: Database, table_id: int, kind: str, payload: JSONDict) -> int:
    """Replace the payload of a table's timer of ``kind`` (a slow turn's reminders sent)."""
    return await db.execute(SET_TABLE_TIMER_PAYLOAD, (dump_json(payload), table_id, kind))
