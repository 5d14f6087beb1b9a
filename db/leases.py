"""Table leases: which process may act on a table, for a while, renewed as long as it runs.

A claim succeeds when the table has no lease, when the lease ran out, or when the claimer
already holds it; it is one ``INSERT … ON CONFLICT DO UPDATE … WHERE`` statement, atomic on
both dialects, so of two processes claiming at once exactly one wins. Expiry times come
from the callers' clocks (epoch ms): hosts sharing a database need synchronised clocks
(NTP), and the lease must be much longer than any clock skew.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from db._util import from_ms, to_ms
from db.database import Database

CLAIM: Final = """
INSERT INTO table_leases (table_id, owner_id, expires_at, claimed_at) VALUES (?, ?, ?, ?)
ON CONFLICT (table_id) DO UPDATE SET
    owner_id = excluded.owner_id, expires_at = excluded.expires_at,
    claimed_at = excluded.claimed_at
WHERE table_leases.owner_id = excluded.owner_id OR table_leases.expires_at <= ?
"""
RENEW: Final = """
UPDATE table_leases SET expires_at = ? WHERE table_id = ? AND owner_id = ?
"""
# Expired rather than deleted: the row keeps naming the last process that ran the table.
RELEASE: Final = "UPDATE table_leases SET expires_at = 0 WHERE table_id = ? AND owner_id = ?"
GET: Final = "SELECT table_id, owner_id, expires_at FROM table_leases WHERE table_id = ?"


@dataclass(frozen=True, slots=True)
class LeaseRow:
    table_id: int
    owner_id: str
    expires_at: datetime


async def claim(
    db: Database, table_id: int, owner_id: str, *, ttl: timedelta, now: datetime
) -> bool:
    """Take or extend the lease on ``table_id``; False when another owner holds it."""
    at = to_ms(now)
    expires = to_ms(now + ttl)
    return await db.execute(CLAIM, (table_id, owner_id, expires, at, at)) > 0


async def renew(
    db: Database, table_ids: Iterable[int], owner_id: str, *, ttl: timedelta, now: datetime
) -> set[int]:
    """Extend the leases this owner still holds; returns the ids it holds no longer.

    A lease that ran out but was not taken by anyone is still ours and is extended; one
    another process claimed meanwhile is lost, and the caller must stop acting on it.
    """
    expires = to_ms(now + ttl)
    lost: set[int] = set()
    async with db.transaction():
        for table_id in table_ids:
            if not await db.execute(RENEW, (expires, table_id, owner_id)):
                lost.add(table_id)
    return lost


async def release(db: Database, table_id: int, owner_id: str) -> None:
    """Give the table up (closed, or the process shuts down): another may claim it at once."""
    await db.execute(RELEASE, (table_id, owner_id))


async def get(db: Database, table_id: int) -> LeaseRow | None:
    """The table's lease, expired (or released) or not; None when nobody ever claimed it."""
    row = await db.fetchone(GET, (table_id,))
    if row is None:
        return None
    return LeaseRow(int(row["table_id"]), str(row["owner_id"]), from_ms(int(row["expires_at"])))
