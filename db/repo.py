"""Repository functions: players, guilds, tables, seats, sessions, games, actions, timers.

Each takes the :class:`~db.database.Database` first, runs SQL constants with ``?``
parameters and returns frozen rows from :mod:`db.rows`. Functions that write more than one
statement open a transaction, which joins the caller's when there is one.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from db._util import NO_LIMIT, dump_json, from_ms, load_json, opt_from_ms, to_ms
from db.database import Database, Row
from db.errors import (
    ActionGapError,
    DuplicateActionError,
    GameNotRunningError,
    NotFoundError,
    VersionConflictError,
)
from db.rows import (
    AILevel,
    GameRow,
    GuildSettings,
    JSONDict,
    Language,
    PlayerRow,
    SeatRow,
    SessionRow,
    TableRow,
    TableStatus,
    TimerRow,
)

log = logging.getLogger(__name__)


class _Unset(enum.Enum):
    UNSET = enum.auto()


UNSET: Final = _Unset.UNSET
"""Default of optional update arguments: leave the column as it is."""

# -- players ---------------------------------------------------------------------------

UPSERT_PLAYER: Final = """
INSERT INTO players (user_id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET
    display_name = excluded.display_name, updated_at = excluded.updated_at
"""
GET_PLAYER: Final = "SELECT user_id, display_name FROM players WHERE user_id = ?"


async def upsert_player(
    db: Database, user_id: int, display_name: str, *, now: datetime | None = None
) -> PlayerRow:
    """Store a player, or update the display name of a known one."""
    ms = to_ms(now)
    await db.execute(UPSERT_PLAYER, (user_id, display_name, ms, ms))
    return PlayerRow(user_id, display_name)


async def get_player(db: Database, user_id: int) -> PlayerRow | None:
    row = await db.fetchone(GET_PLAYER, (user_id,))
    return None if row is None else PlayerRow(row["user_id"], row["display_name"])


# -- guilds ----------------------------------------------------------------------------

UPSERT_GUILD: Final = """
INSERT INTO guilds (guild_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""
ENSURE_GUILD: Final = """
INSERT INTO guilds (guild_id, created_at, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO NOTHING
"""
GET_GUILD: Final = "SELECT guild_id, name, language, default_rules FROM guilds WHERE guild_id = ?"
SET_GUILD_SETTINGS: Final = """
UPDATE guilds SET language = ?, default_rules = ?, updated_at = ? WHERE guild_id = ?
"""


def _guild(row: Row) -> GuildSettings:
    return GuildSettings(
        row["guild_id"], row["name"], row["language"], load_json(row["default_rules"])
    )


async def upsert_guild(
    db: Database, guild_id: int, name: str = "", *, now: datetime | None = None
) -> GuildSettings:
    """Store a guild, or update the name of a known one; returns its settings."""
    ms = to_ms(now)
    async with db.transaction():
        await db.execute(UPSERT_GUILD, (guild_id, name, ms, ms))
        return await get_guild_settings(db, guild_id)


async def get_guild_settings(db: Database, guild_id: int) -> GuildSettings:
    """The guild's settings; an unknown guild has the defaults (German, DDV rules)."""
    row = await db.fetchone(GET_GUILD, (guild_id,))
    if row is None:
        return GuildSettings(guild_id, "", "de", {})
    return _guild(row)


async def set_guild_settings(
    db: Database,
    guild_id: int,
    *,
    language: Language | None = None,
    default_rules: JSONDict | None = None,
    now: datetime | None = None,
) -> GuildSettings:
    """Change the settings given (the others stay); creates the guild when unknown."""
    ms = to_ms(now)
    async with db.transaction():
        await db.execute(ENSURE_GUILD, (guild_id, ms, ms))
        current = await get_guild_settings(db, guild_id)
        new_language = current.language if language is None else language
        new_rules = current.default_rules if default_rules is None else default_rules
        await db.execute(SET_GUILD_SETTINGS, (new_language, dump_json(new_rules), ms, guild_id))
        return GuildSettings(guild_id, current.name, new_language, new_rules)


# -- tables ----------------------------------------------------------------------------

_TABLE_COLUMNS: Final = """id, guild_id, channel_id, host_id, rules, status, turn_timer_s,
    games_per_session, version, created_at, updated_at"""
INSERT_TABLE: Final = f"""
INSERT INTO tables (guild_id, channel_id, host_id, rules, status, turn_timer_s,
    games_per_session, version, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
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
    now: datetime | None = None,
) -> TableRow:
    """Open a table (version 0). The host must be a stored player; the guild is added."""
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


def _check_seat(seat: int, seats: int = 5) -> None:
    """A table seat (0..4: a table seats four or five), or a game seat (``seats=4``)."""
    if seat not in range(seats):
        raise ValueError(f"seat must be 0..{seats - 1}, not {seat}")


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
    _check_seat(seat)
    if (user_id is None) == (ai_level is None):
        raise ValueError("give exactly one of user_id and ai_level")
    await db.execute(UPSERT_SEAT, (table_id, seat, user_id, ai_level))
    return SeatRow(table_id, seat, user_id, ai_level)


async def clear_seat(db: Database, table_id: int, seat: int) -> bool:
    """Empty a seat; returns whether somebody sat there."""
    _check_seat(seat)
    return await db.execute(DELETE_SEAT, (table_id, seat)) > 0


async def get_seats(db: Database, table_id: int) -> list[SeatRow]:
    """The occupied seats, by seat number."""
    return [
        SeatRow(row["table_id"], row["seat"], row["user_id"], row["ai_level"])
        for row in await db.fetchall(GET_SEATS, (table_id,))
    ]


# -- sessions --------------------------------------------------------------------------

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
    _check_seat(dealer, 4)
    if sitting_out is not None:
        _check_seat(sitting_out)
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
    at a five-player table the next dealer's table seat as ``sitting_out``)."""
    _check_seat(dealer, 4)
    if sitting_out is not None:
        _check_seat(sitting_out)
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


# -- games -----------------------------------------------------------------------------

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
    who dealt and sits out."""
    _check_seat(dealer, 4)
    if sitting_out is not None:
        _check_seat(sitting_out)
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


# -- actions ---------------------------------------------------------------------------

# Inserts only when the game runs and seq is the next number, so one statement both
# refuses a replayed action and keeps the log without holes; the PRIMARY KEY backs it up.
APPEND_ACTION: Final = """
INSERT INTO game_actions (game_id, seq, action, created_at)
SELECT ?, ?, ?, ?
WHERE EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running')
  AND ? = (SELECT COALESCE(MAX(seq) + 1, 0) FROM game_actions WHERE game_id = ?)
"""
NEXT_SEQ: Final = "SELECT COALESCE(MAX(seq) + 1, 0) FROM game_actions WHERE game_id = ?"
GAME_STATUS: Final = "SELECT status FROM games WHERE id = ?"
LOAD_ACTIONS: Final = "SELECT seq, action FROM game_actions WHERE game_id = ? ORDER BY seq"


async def append_action(
    db: Database, game_id: int, seq: int, action: JSONDict, *, now: datetime | None = None
) -> None:
    """Store action number ``seq`` (0, 1, 2 …) of a running game.

    Raises :class:`DuplicateActionError` when ``seq`` is already stored,
    :class:`ActionGapError` when it skips ahead, :class:`GameNotRunningError` when the game
    is over and :class:`NotFoundError` when there is no such game. Runs in the caller's
    transaction when there is one, else in its own; either way it is durable on commit.
    """
    async with db.transaction():
        inserted = await db.execute(APPEND_ACTION, _action_row(game_id, seq, action, now))
        if inserted:
            return
        status = await db.fetchval(GAME_STATUS, (game_id,))
        if status is None:
            raise NotFoundError(f"no game {game_id}")
        if status != "running":
            raise GameNotRunningError(f"game {game_id} is {status}; action {seq} refused")
        expected = int(await db.fetchval(NEXT_SEQ, (game_id,)))
    if seq < expected:
        raise DuplicateActionError(f"game {game_id} already has action {seq}")
    raise ActionGapError(f"game {game_id}: action {seq} given, next is {expected}")


async def append_actions(
    db: Database, actions: Sequence[tuple[int, int, JSONDict, datetime]]
) -> bool:
    """Store several ``(game_id, seq, action, now)`` as ``append_action`` would, all or none.

    The engine's group commit: one transaction (on SQLite one call into the database
    thread). False when any action was refused; nothing is stored then, and ``append_action``
    one by one names the reason.
    """
    return await db.execute_batch(APPEND_ACTION, [_action_row(*a) for a in actions])


#: One action of the group commit: ``(game_id, seq, action, now, the caller's tag)``.
PendingAction = tuple[int, int, JSONDict, datetime, Any]


async def append_action_batches(
    db: Database,
    take: Callable[[], Sequence[PendingAction]],
    stored: Callable[[Sequence[PendingAction]], None],
) -> None:
    """The engine's group commit: store what ``take`` hands out as ``append_actions`` would,
    batch after batch until it has nothing, telling ``stored`` of each committed batch.

    ``take`` may be called in the database's thread. A batch with an action refused or not
    stored raises :class:`~db.database.BatchFailed` (nothing of it is stored, nothing after it
    taken); ``append_action`` one by one then names the reason.
    """
    await db.commit_batches(APPEND_ACTION, take, _append_params, stored)


def _append_params(pending: PendingAction) -> tuple[Any, ...]:
    return _action_row(*pending[:4])


def _action_row(game_id: int, seq: int, action: JSONDict, now: datetime | None) -> tuple[Any, ...]:
    """APPEND_ACTION's parameters."""
    return (game_id, seq, dump_json(action), to_ms(now), game_id, seq, game_id)


async def load_actions(db: Database, game_id: int) -> list[JSONDict]:
    """The game's actions in order (index = seq)."""
    rows = await db.fetchall(LOAD_ACTIONS, (game_id,))
    return [load_json(row["action"]) for row in rows]


# -- timers ----------------------------------------------------------------------------

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
