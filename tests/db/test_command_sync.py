"""db.command_sync on SQLite and PostgreSQL: the hash of the command tree synced last."""

from __future__ import annotations

import db
from db import Database


async def test_the_hash_is_kept_per_scope_and_replaced(store: Database) -> None:
    assert await db.command_sync.synced_hash(store, "7:global") is None
    await db.command_sync.save_synced_hash(store, "7:global", "a" * 64)
    await db.command_sync.save_synced_hash(store, "7:42", "b" * 64)
    assert await db.command_sync.synced_hash(store, "7:global") == "a" * 64
    await db.command_sync.save_synced_hash(store, "7:global", "c" * 64)
    assert await db.command_sync.synced_hash(store, "7:global") == "c" * 64
    assert await db.command_sync.synced_hash(store, "7:42") == "b" * 64
    assert await db.command_sync.synced_hash(store, "8:global") is None
