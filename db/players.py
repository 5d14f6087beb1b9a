"""Players: Discord users who have played or hosted (``players``)."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from db._util import to_ms
from db.database import Database
from db.rows import PlayerRow

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
