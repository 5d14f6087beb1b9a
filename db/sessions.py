"""Sessions: a run of games at one table and its round context (``sessions``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from db._util import check_seat, dump_json, from_ms, load_json, opt_from_ms, to_ms
from db.database import Database, Row
from db.errors import NotFoundError
from db.rows import SessionRow

_SESSION_COLUMNS: Final = """id, table_id, games_per_round, games_left, pflichtsolo_done,
    dealer, sitting_out, status, started_at, finished_at"""
INSERT_SESSION: Final = f"""
INSERT INTO sessions (table_id, games_per_round, games_left, pflichtsolo_done, dealer,
    sitting_out, status, started_at)
VALUES (?, ?, ?, ?, ?, ?, 'active', ?)
RETURNING {_SESSION_COLUMNS}
"""
GET_SESSION: Final = f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?"
GET_ACTIVE_SESSION: Final = f"""
SELECT {_SESSION_COLUMNS} FROM sessions WHERE table_id = ? AND status = 'active'
ORDER BY id DESC LIMIT 1
"""
UPDATE_ROUND_CONTEXT: Final = f"""
UPDATE sessions SET games_left = ?, pflichtsolo_done = ?, dealer = ?, sitting_out = ?
WHERE id = ?
RETURNING {_SESSION_COLUMNS}
"""
FINISH_SESSION: Final = f"""
UPDATE sessions SET status = 'finished', finished_at = ? WHERE id = ?
RETURNING {_SESSION_COLUMNS}
"""


def _session(row: Row) -> SessionRow:
    done = tuple(bool(flag) for flag in load_json(row["pflichtsolo_done"]))
    assert len(done) in (4, 5)
    return SessionRow(
        id=row["id"],
        table_id=row["table_id"],
        games_per_round=row["games_per_round"],
        games_left=row["games_left"],
        pflichtsolo_done=done,
        dealer=row["dealer"],
        status=row["status"],
        started_at=from_ms(row["started_at"]),
        finished_at=opt_from_ms(row["finished_at"]),
        sitting_out=row["sitting_out"],
    )


def _pflichtsolo_json(done: Sequence[bool], sitting_out: int | None) -> str:
    seats = 4 if sitting_out is None else 5
    if len(done) != seats:
        raise ValueError(f"pflichtsolo_done needs one flag per seat of the table, got {len(done)}")
    return dump_json([bool(flag) for flag in done])


async def create_session(
    db: Database,
    table_id: int,
    *,
    games_per_round: int,
    dealer: int,
    sitting_out: int | None = None,
    games_left: int | None = None,
    pflichtsolo_done: Sequence[bool] | None = None,
    now: datetime | None = None,
) -> SessionRow:
    """Start a session at a table; ``games_left`` defaults to the whole round.

    A five-player table gives the first dealer as ``sitting_out`` (a table seat) and the
    game's dealer seat as ``dealer``; ``pflichtsolo_done`` defaults to none done.
    """
    check_seat(dealer, 4)
    if sitting_out is not None:
        check_seat(sitting_out)
    if pflichtsolo_done is None:
        pflichtsolo_done = (False,) * (4 if sitting_out is None else 5)
    row = await db.fetchone(
        INSERT_SESSION,
        (
            table_id,
            games_per_round,
            games_per_round if games_left is None else games_left,
            _pflichtsolo_json(pflichtsolo_done, sitting_out),
            dealer,
            sitting_out,
            to_ms(now),
        ),
    )
    assert row is not None
    return _session(row)


async def get_session(db: Database, session_id: int) -> SessionRow:
    row = await db.fetchone(GET_SESSION, (session_id,))
    if row is None:
        raise NotFoundError(f"no session {session_id}")
    return _session(row)


async def get_active_session(db: Database, table_id: int) -> SessionRow | None:
    """The table's session in progress, if any."""
    row = await db.fetchone(GET_ACTIVE_SESSION, (table_id,))
    return None if row is None else _session(row)


async def update_round_context(
    db: Database,
    session_id: int,
    *,
    games_left: int,
    pflichtsolo_done: Sequence[bool],
    dealer: int,
    sitting_out: int | None = None,
) -> SessionRow:
    """Record the round context after a game (games left, Pflichtsolo flags, next dealer;
    at a five-player table the next dealer's table seat as ``sitting_out``).
    """
    check_seat(dealer, 4)
    if sitting_out is not None:
        check_seat(sitting_out)
    row = await db.fetchone(
        UPDATE_ROUND_CONTEXT,
        (
            games_left,
            _pflichtsolo_json(pflichtsolo_done, sitting_out),
            dealer,
            sitting_out,
            session_id,
        ),
    )
    if row is None:
        raise NotFoundError(f"no session {session_id}")
    return _session(row)


async def finish_session(
    db: Database, session_id: int, *, now: datetime | None = None
) -> SessionRow:
    row = await db.fetchone(FINISH_SESSION, (to_ms(now), session_id))
    if row is None:
        raise NotFoundError(f"no session {session_id}")
    return _session(row)
