"""db.games on SQLite and PostgreSQL: games."""

from __future__ import annotations

import pytest

import db
from db import Database

from .conftest import DEAL, Table, at, new_game


async def test_games_store_what_replay_needs(store: Database, table: Table) -> None:
    big_seed = 2**64 + 17  # seeds wider than SQLite's integers survive
    game = await db.games.create_game(
        store,
        table.session.id,
        number=1,
        ruleset={"schweinchen": True},
        deal=DEAL,
        seed=big_seed,
        dealer=3,
        round_context={"games_left": 24, "pflichtsolo_done": [False] * 4},
        now=at(2025, 5, 1),
    )
    assert game.status == "running" and game.record is None and game.finished_at is None
    loaded = await db.games.get_game(store, game.id)
    assert loaded == game
    assert loaded.seed == big_seed and loaded.deal["hands"][0][1] == "H10"
    assert await db.games.get_running_game(store, table.session.id) == game
    with pytest.raises(db.ConstraintError):  # the number is unique in its session
        await new_game(store, table.session.id, 1)
    second = await new_game(store, table.session.id, 2)
    assert [g.number for g in await db.games.list_games(store, table.session.id)] == [1, 2]

    assert await db.games.abort_game(store, game.id)
    assert not await db.games.abort_game(store, game.id)
    assert (await db.games.get_game(store, game.id)).status == "aborted"
    assert await db.games.get_running_game(store, table.session.id) == second
    with pytest.raises(db.NotFoundError):
        await db.games.get_game(store, 999)
