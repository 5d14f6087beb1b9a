"""Players: Discord users who have played or hosted (``players``), and how each wants to be
told that it is their turn (``player_notify``).
"""

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
SET_NOTIFY: Final = """
INSERT INTO player_notify (user_id, delay_s, updated_at) VALUES (?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET delay_s = excluded.delay_s, updated_at = excluded.updated_at
"""
GET_NOTIFY: Final = "SELECT delay_s FROM player_notify WHERE user_id = ?"


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


async def set_notify_delay(
    db: Database, user_id: int, delay_s: int | None, *, now: datetime | None = None
) -> None:
    """Ping the user ``delay_s`` seconds into their turn (0: at once; None: never)."""
    if delay_s is not None and delay_s < 0:
        raise ValueError(f"a ping delay is 0 seconds or more, not {delay_s}")
    await db.execute(SET_NOTIFY, (user_id, delay_s, to_ms(now)))


async def get_notify_delay(db: Database, user_id: int, default: int | None) -> int | None:
    """The user's ping delay in seconds (None: never); ``default`` until they chose one."""
    row = await db.fetchone(GET_NOTIFY, (user_id,))
    return default if row is None else row["delay_s"]
