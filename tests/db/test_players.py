"""db.players on SQLite and PostgreSQL: players."""

from __future__ import annotations

import db
from db import Database

from .conftest import ALICE


async def test_players_upsert_and_rename(store: Database) -> None:
    assert await db.players.get_player(store, ALICE) is None
    await db.players.upsert_player(store, ALICE, "Alice")
    assert await db.players.upsert_player(store, ALICE, "Ali") == db.PlayerRow(ALICE, "Ali")
    assert await db.players.get_player(store, ALICE) == db.PlayerRow(ALICE, "Ali")
