"""Games: one deal each, what replays it and its final record (``games``)."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from db._util import check_seat, dump_json, from_ms, load_json, opt_from_ms, to_ms
from db.database import Database, Row
from db.errors import NotFoundError
from db.rows import GameRow, JSONDict

_GAME_COLUMNS: Final = """id, session_id, number, ruleset, deal, seed, dealer, round_context,
    status, started_at, finished_at, record, sitting_out"""
INSERT_GAME: Final = f"""
INSERT INTO games (session_id, number, ruleset, deal, seed, dealer, sitting_out, round_context,
    status, started_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)
RETURNING {_GAME_COLUMNS}
"""
GET_GAME: Final = f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?"
GET_RUNNING_GAME: Final = f"""
SELECT {_GAME_COLUMNS} FROM games WHERE session_id = ? AND status = 'running'
ORDER BY number DESC LIMIT 1
"""
LIST_GAMES: Final = f"SELECT {_GAME_COLUMNS} FROM games WHERE session_id = ? ORDER BY number"
ABORT_GAME: Final = """
UPDATE games SET status = 'aborted', finished_at = ? WHERE id = ? AND status = 'running'
"""


def _game(row: Row) -> GameRow:
    seed = row["seed"]
    round_context = row["round_context"]
    record = row["record"]
    return GameRow(
        id=row["id"],
        session_id=row["session_id"],
        number=row["number"],
        ruleset=load_json(row["ruleset"]),
        deal=load_json(row["deal"]),
        seed=None if seed is None else int(seed),
        dealer=row["dealer"],
        round_context=None if round_context is None else load_json(round_context),
        status=row["status"],
        started_at=from_ms(row["started_at"]),
        finished_at=opt_from_ms(row["finished_at"]),
        record=None if record is None else load_json(record),
        sitting_out=row["sitting_out"],
    )


async def create_game(
    db: Database,
    session_id: int,
    *,
    number: int,
    ruleset: JSONDict,
    deal: JSONDict,
    seed: int | None,
    dealer: int,
    sitting_out: int | None = None,
    round_context: JSONDict | None = None,
    now: datetime | None = None,
) -> GameRow:
    """Store a new running game: everything needed to replay it from its actions.

    ``dealer`` is a game seat; at a five-player table ``sitting_out`` names the table seat
    who dealt and sits out.
    """
    check_seat(dealer, 4)
    if sitting_out is not None:
        check_seat(sitting_out)
    row = await db.fetchone(
        INSERT_GAME,
        (
            session_id,
            number,
            dump_json(ruleset),
            dump_json(deal),
            None if seed is None else str(seed),
            dealer,
            sitting_out,
            None if round_context is None else dump_json(round_context),
            to_ms(now),
        ),
    )
    assert row is not None
    return _game(row)


async def get_game(db: Database, game_id: int) -> GameRow:
    row = await db.fetchone(GET_GAME, (game_id,))
    if row is None:
        raise NotFoundError(f"no game {game_id}")
    return _game(row)


async def get_running_game(db: Database, session_id: int) -> GameRow | None:
    """The session's game in progress, if any (restart recovery replays it)."""
    row = await db.fetchone(GET_RUNNING_GAME, (session_id,))
    return None if row is None else _game(row)


async def list_games(db: Database, session_id: int) -> list[GameRow]:
    """The session's games by number."""
    return [_game(row) for row in await db.fetchall(LIST_GAMES, (session_id,))]


async def abort_game(db: Database, game_id: int, *, now: datetime | None = None) -> bool:
    """Mark a running game aborted (table stopped); it counts for no standings."""
    return await db.execute(ABORT_GAME, (to_ms(now), game_id)) > 0
