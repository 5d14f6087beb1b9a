"""Seats kept warm by an AI for a human who left mid-game and may come back."""

from __future__ import annotations

from typing import Final

from db.database import Database
from db.rows import AILevel

SET_AWAY: Final = """
INSERT INTO seats (table_id, seat, user_id, ai_level, owner_id) VALUES (?, ?, NULL, ?, ?)
ON CONFLICT (table_id, seat) DO UPDATE SET
    user_id = NULL, ai_level = excluded.ai_level, owner_id = excluded.owner_id
"""
SET_BACK: Final = """
UPDATE seats SET user_id = owner_id, ai_level = NULL, owner_id = NULL
WHERE table_id = ? AND seat = ? AND owner_id = ?
"""
LIST_AWAY: Final = """
SELECT seat, owner_id FROM seats WHERE table_id = ? AND owner_id IS NOT NULL ORDER BY seat
"""


async def set_away(
    db: Database, table_id: int, seat: int, owner_id: int, ai_level: AILevel
) -> None:
    """An AI of ``ai_level`` plays ``seat`` until ``owner_id`` comes back."""
    await db.execute(SET_AWAY, (table_id, seat, ai_level, owner_id))


async def set_back(db: Database, table_id: int, seat: int, owner_id: int) -> bool:
    """The owner takes the seat back; returns whether they were away on it."""
    return await db.execute(SET_BACK, (table_id, seat, owner_id)) > 0


async def away_owners(db: Database, table_id: int) -> dict[int, int]:
    """Seat → the human who owns it, for every seat an AI keeps warm."""
    rows = await db.fetchall(LIST_AWAY, (table_id,))
    return {int(row["seat"]): int(row["owner_id"]) for row in rows}
