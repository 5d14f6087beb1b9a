"""Moving a table's stored version forward by more than one step at a time."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from db._util import to_ms
from db.database import Database
from db.errors import VersionConflictError

# The engine counts a running game's actions on top of the stored version, so when a game
# ends the stored version jumps past every version that game's buttons carried.
ADVANCE_VERSION: Final = """
UPDATE tables SET version = ?, updated_at = ? WHERE id = ? AND version = ?
"""
TABLE_VERSION: Final = "SELECT version FROM tables WHERE id = ?"


async def advance_table_version(
    db: Database,
    table_id: int,
    expected_version: int,
    new_version: int,
    *,
    now: datetime | None = None,
) -> None:
    """Set the stored version from ``expected_version`` to a larger ``new_version``."""
    if new_version <= expected_version:
        raise ValueError("a table version only grows")
    changed = await db.execute(
        ADVANCE_VERSION, (new_version, to_ms(now), table_id, expected_version)
    )
    if not changed:
        current = await db.fetchval(TABLE_VERSION, (table_id,))
        raise VersionConflictError(
            f"table {table_id} is at version {current}, not {expected_version}",
            current_version=-1 if current is None else int(current),
        )
