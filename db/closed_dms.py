"""Players whose DMs are closed (Discord answered 403, code 50007): their hands are served in
the table's channel instead, and a restart must not try the DM again (each try is one more
invalid request towards Discord's ban). Whether the player was told is kept with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final

from db._util import from_ms, opt_from_ms, to_ms
from db.database import Database

MARK: Final = """
INSERT INTO closed_dms (user_id, closed_at, told_at) VALUES (?, ?, NULL)
ON CONFLICT (user_id) DO NOTHING
"""
TOLD: Final = "UPDATE closed_dms SET told_at = ? WHERE user_id = ? AND told_at IS NULL"
CLEAR: Final = "DELETE FROM closed_dms WHERE user_id = ?"
ALL: Final = "SELECT user_id, closed_at, told_at FROM closed_dms ORDER BY user_id"


@dataclass(frozen=True, slots=True)
class ClosedDm:
    """A player the bot cannot DM, since ``closed_at``; ``told_at`` None: not told yet."""

    user_id: int
    closed_at: datetime
    told_at: datetime | None


async def mark_closed(db: Database, user_id: int, at: datetime | None = None) -> bool:
    """Remember the player's DMs as closed; False when they were already (nothing changes)."""
    return await db.execute(MARK, (user_id, to_ms(at))) > 0


async def mark_told(db: Database, user_id: int, at: datetime | None = None) -> bool:
    """The player was told; False when they were told before or their DMs are not closed."""
    return await db.execute(TOLD, (to_ms(at), user_id)) > 0


async def clear(db: Database, user_id: int) -> bool:
    """The player's DMs may work again; False when they were not marked closed."""
    return await db.execute(CLEAR, (user_id,)) > 0


async def closed_dms(db: Database) -> list[ClosedDm]:
    """Every player whose DMs are marked closed."""
    rows = await db.fetchall(ALL)
    return [
        ClosedDm(int(r["user_id"]), from_ms(int(r["closed_at"])), opt_from_ms(r["told_at"]))
        for r in rows
    ]
