"""The hash of the slash-command tree last synced to Discord, per application and target.

The bot compares it with the tree it would send and syncs only when they differ.
"""

from __future__ import annotations

from typing import Final

from db.database import Database

GET_HASH: Final = "SELECT tree_hash FROM command_sync WHERE scope = ?"
SAVE_HASH: Final = """
INSERT INTO command_sync (scope, tree_hash) VALUES (?, ?)
ON CONFLICT (scope) DO UPDATE SET tree_hash = excluded.tree_hash
"""


async def synced_hash(db: Database, scope: str) -> str | None:
    """The hash of the tree last synced to ``scope``; None when it never was."""
    row = await db.fetchone(GET_HASH, (scope,))
    return None if row is None else str(row["tree_hash"])


async def save_synced_hash(db: Database, scope: str, tree_hash: str) -> None:
    """The tree with ``tree_hash`` was just synced to ``scope``."""
    await db.execute(SAVE_HASH, (scope, tree_hash))
