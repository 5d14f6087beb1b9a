"""The action log of a running game and the engine's group commit (``game_actions``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final

from db._util import dump_json, load_json, to_ms
from db.database import Database
from db.errors import ActionGapError, DuplicateActionError, GameNotRunningError, NotFoundError
from db.rows import JSONDict

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
