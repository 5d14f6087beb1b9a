"""Which Discord messages show a table: its public message and each player's hand message;
and the turn pings that are out.

The front end edits these in place; their ids are kept here so that a restarted process (or
one that takes a table over) edits the same messages instead of posting new ones. A table's
rows are deleted when it closes. A ping's row lives as long as its message: a restarted
process deletes the pings the last one left behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from db.database import Database

SAVE_TABLE: Final = """
INSERT INTO table_messages (table_id, message_id, game_number) VALUES (?, ?, ?)
ON CONFLICT (table_id) DO UPDATE SET
    message_id = excluded.message_id, game_number = excluded.game_number
"""
SAVE_HAND: Final = """
INSERT INTO hand_messages (table_id, user_id, game_id, channel_id, message_id)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (table_id, user_id) DO UPDATE SET
    game_id = excluded.game_id, channel_id = excluded.channel_id,
    message_id = excluded.message_id
"""
GET_TABLE: Final = "SELECT message_id, game_number FROM table_messages WHERE table_id = ?"
GET_HANDS: Final = """
SELECT user_id, game_id, channel_id, message_id FROM hand_messages WHERE table_id = ?
ORDER BY user_id
"""
FORGET_TABLE: Final = "DELETE FROM table_messages WHERE table_id = ?"
FORGET_HANDS: Final = "DELETE FROM hand_messages WHERE table_id = ?"
# Left behind when a process stopped between closing a table and forgetting its messages.
FORGET_CLOSED_TABLES: Final = """
DELETE FROM table_messages
WHERE table_id IN (SELECT id FROM tables WHERE status = 'closed')
"""
FORGET_CLOSED_HANDS: Final = """
DELETE FROM hand_messages
WHERE table_id IN (SELECT id FROM tables WHERE status = 'closed')
"""
SAVE_PING: Final = """
INSERT INTO ping_messages (message_id, table_id, user_id, channel_id) VALUES (?, ?, ?, ?)
ON CONFLICT (message_id) DO NOTHING
"""
FORGET_PING: Final = "DELETE FROM ping_messages WHERE message_id = ?"
GET_PINGS: Final = """
SELECT p.table_id, p.user_id, p.channel_id, p.message_id, t.status = 'closed' AS table_closed
FROM ping_messages AS p JOIN tables AS t ON t.id = p.table_id
ORDER BY p.message_id
"""


@dataclass(frozen=True, slots=True)
class TableMessage:
    """The public message of a table: the lobby (``game_number`` None) or a game's."""

    message_id: int
    game_number: int | None


@dataclass(frozen=True, slots=True)
class HandMessage:
    """A player's hand message (a DM) of one game."""

    user_id: int
    game_id: int
    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class PingMessage:
    """A turn ping that is out: a DM, or a mention in the table's channel."""

    table_id: int
    user_id: int
    channel_id: int
    message_id: int
    table_closed: bool  # its table closed since: nobody else deletes it


@dataclass(frozen=True, slots=True)
class TableMessages:
    table: TableMessage | None
    hands: tuple[HandMessage, ...]


async def save_table_message(
    db: Database, table_id: int, message_id: int, game_number: int | None
) -> None:
    """The table's public message is now ``message_id``, showing ``game_number``."""
    await db.execute(SAVE_TABLE, (table_id, message_id, game_number))


async def save_hand_message(
    db: Database, table_id: int, user_id: int, game_id: int, channel_id: int, message_id: int
) -> None:
    """``user_id``'s hand message at the table is now ``message_id``, for game ``game_id``."""
    await db.execute(SAVE_HAND, (table_id, user_id, game_id, channel_id, message_id))


async def table_messages(db: Database, table_id: int) -> TableMessages:
    """The messages stored for a table (none for one that never showed any)."""
    row = await db.fetchone(GET_TABLE, (table_id,))
    table = None
    if row is not None:
        number = row["game_number"]
        table = TableMessage(int(row["message_id"]), None if number is None else int(number))
    hands = tuple(
        HandMessage(
            int(r["user_id"]), int(r["game_id"]), int(r["channel_id"]), int(r["message_id"])
        )
        for r in await db.fetchall(GET_HANDS, (table_id,))
    )
    return TableMessages(table, hands)


async def forget_table(db: Database, table_id: int) -> None:
    """The table closed: its messages are never edited again."""
    async with db.transaction():
        await db.execute(FORGET_TABLE, (table_id,))
        await db.execute(FORGET_HANDS, (table_id,))


async def forget_closed(db: Database) -> None:
    """Forget the messages of every closed table."""
    async with db.transaction():
        await db.execute(FORGET_CLOSED_TABLES)
        await db.execute(FORGET_CLOSED_HANDS)


async def save_ping(
    db: Database, table_id: int, user_id: int, channel_id: int, message_id: int
) -> None:
    """A ping for ``user_id``'s turn at the table went out as ``message_id``."""
    await db.execute(SAVE_PING, (message_id, table_id, user_id, channel_id))


async def forget_ping(db: Database, message_id: int) -> None:
    """The ping is deleted (or gone already)."""
    await db.execute(FORGET_PING, (message_id,))


async def pings(db: Database) -> tuple[PingMessage, ...]:
    """Every ping stored as out, oldest first."""
    return tuple(
        PingMessage(
            int(r["table_id"]),
            int(r["user_id"]),
            int(r["channel_id"]),
            int(r["message_id"]),
            bool(r["table_closed"]),
        )
        for r in await db.fetchall(GET_PINGS)
    )
