"""Which tables this process runs: its guilds (sharding) and its leases on their tables."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from db import leases
from db.database import Database


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Ownership:
    """Which guilds' tables this process runs, and its leases on them.

    ``owner`` None: one process, no leases. Lease times are wall-clock, not the engine's
    clock: they are compared across processes.
    """

    db: Database
    guilds: Callable[[int], bool] | None
    owner: str | None
    ttl: timedelta

    def owns_guild(self, guild_id: int) -> bool:
        return self.guilds is None or self.guilds(guild_id)

    async def claim(self, table_id: int) -> bool:
        if self.owner is None:
            return True
        return await leases.claim(self.db, table_id, self.owner, ttl=self.ttl, now=_utcnow())

    async def release(self, table_id: int) -> None:
        if self.owner is not None:
            await leases.release(self.db, table_id, self.owner)

    async def renew(self, table_ids: list[int]) -> set[int]:
        """Renew our leases; returns the tables whose lease another process took."""
        assert self.owner is not None
        return await leases.renew(self.db, table_ids, self.owner, ttl=self.ttl, now=_utcnow())
