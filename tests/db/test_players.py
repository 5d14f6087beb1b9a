"""db.players on SQLite and PostgreSQL: players."""

from __future__ import annotations

import pytest

import db
from db import Database

from .conftest import ALICE, BOB


async def test_players_upsert_and_rename(store: Database) -> None:
    assert await db.players.get_player(store, ALICE) is None
    await db.players.upsert_player(store, ALICE, "Alice")
    assert await db.players.upsert_player(store, ALICE, "Ali") == db.PlayerRow(ALICE, "Ali")
    assert await db.players.get_player(store, ALICE) == db.PlayerRow(ALICE, "Ali")


async def test_notify_delay_is_the_default_until_chosen_then_the_choice(store: Database) -> None:
    # No players row needed: the setting may come before the first game.
    assert await db.players.get_notify_delay(store, ALICE, 20) == 20
    assert await db.players.get_notify_delay(store, ALICE, None) is None
    for choice in (0, 60, None, 20):
        await db.players.set_notify_delay(store, ALICE, choice)
        # The stored choice wins over any default, "never" (None) included.
        assert await db.players.get_notify_delay(store, ALICE, 45) == choice
    assert await db.players.get_notify_delay(store, BOB, 45) == 45  # per player


async def test_notify_delay_refuses_a_negative_wait(store: Database) -> None:
    with pytest.raises(ValueError):
        await db.players.set_notify_delay(store, ALICE, -1)
    with pytest.raises(db.ConstraintError):  # and so does the schema
        await store.execute(
            "INSERT INTO player_notify (user_id, delay_s, updated_at) VALUES (?, ?, ?)",
            (ALICE, -5, 0),
        )
    assert await db.players.get_notify_delay(store, ALICE, 20) == 20
