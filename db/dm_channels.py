"""The DM channel of each user the bot has written to (``dm_channels``).

Discord's DM channel with a user never changes; creating it is a request against the
global rate limit, so the front end creates it once and reads it from here afterwards.
"""

from __future__ import annotations

from typing import Final

from db.database import Database

GET_CHANNEL: Final = "SELECT channel_id FROM dm_channels WHERE user_id = ?"
SAVE_CHANNEL: Final = """
INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)
ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id
"""


async def dm_channel(db: Database, user_id: int) -> int | None:
    """The id of the user's DM channel, if it was stored."""
    row = await db.fetchone(GET_CHANNEL, (user_id,))
    return None if row is None else int(row["channel_id"])


async def save_dm_channel(db: Database, user_id: int, channel_id: int) -> None:
    """The user's DM channel was created (or found) with this id."""
    await db.execute(SAVE_CHANNEL, (user_id, channel_id))
