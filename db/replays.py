"""Replay threads: whether a table opens one per finished game and each game's thread once
it is open (``tables.replay_thread``, ``replay_threads``; migration 0018). The server's
default for new tables is one of its settings (``db.guilds``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from db.database import Database

SET_TABLE: Final = "UPDATE tables SET replay_thread = ? WHERE id = ?"
GET_TABLE: Final = "SELECT replay_thread FROM tables WHERE id = ?"
GET_THREAD: Final = "SELECT thread_id, message_id FROM replay_threads WHERE game_id = ?"
SAVE_THREAD: Final = """
INSERT INTO replay_threads (game_id, thread_id, message_id) VALUES (?, ?, ?)
ON CONFLICT (game_id) DO UPDATE SET thread_id = excluded.thread_id,
    message_id = excluded.message_id
"""


@dataclass(frozen=True, slots=True)
class ReplayThread:
    """A game's replay thread; ``thread_id`` None: it could not be opened (not tried again)."""

    game_id: int
    thread_id: int | None
    message_id: int | None


async def set_table_replay(db: Database, table_id: int, on: bool) -> None:
    """Whether the table opens a replay thread for each finished game."""
    await db.execute(SET_TABLE, (on, table_id))


async def table_replay(db: Database, table_id: int) -> bool:
    """Whether the table opens replay threads (False for a table that does not exist)."""
    row = await db.fetchone(GET_TABLE, (table_id,))
    return row is not None and bool(row["replay_thread"])


async def replay_thread(db: Database, game_id: int) -> ReplayThread | None:
    """The game's replay thread, if one was opened (or refused) before."""
    row = await db.fetchone(GET_THREAD, (game_id,))
    if row is None:
        return None
    thread, message = row["thread_id"], row["message_id"]
    return ReplayThread(
        game_id, None if thread is None else int(thread), None if message is None else int(message)
    )


async def save_replay_thread(
    db: Database, game_id: int, thread_id: int | None, message_id: int | None
) -> None:
    """The game's thread was opened (``thread_id``), its message posted (``message_id``), or
    the thread refused (both None).
    """
    await db.execute(SAVE_THREAD, (game_id, thread_id, message_id))
