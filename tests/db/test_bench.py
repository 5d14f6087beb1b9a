"""The store benchmark runs end to end on both databases (on a small load; figures come
from `bench db`).
"""

from __future__ import annotations

import json

import pytest

import db
from db import Database
from db.bench import _setup_table, load_games, main

from ..conftest import DIALECTS, postgres_url


@pytest.mark.parametrize("dialect", DIALECTS)
def test_bench_prints_its_figures(dialect: str, capsys: pytest.CaptureFixture[str]) -> None:
    where = [] if dialect == "sqlite" else ["--database-url", postgres_url()]
    assert main(["--json", "--games", "500", "--appends", "30", *where]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ("db_append_ms_p50", "db_append_ms_p99", "db_leaderboard_ms"):
        assert figures[key] > 0
    assert figures["db_append_ms_p50"] <= figures["db_append_ms_p99"]
    assert figures["database"] == dialect
    assert main(["--games", "200", "--appends", "10", *where]) == 0
    assert "db_leaderboard_ms" in capsys.readouterr().out


async def test_games_can_be_created_after_the_bulk_load(store: Database) -> None:
    session_id = await _setup_table(store)
    first = await db.games.create_game(
        store, session_id, number=1, ruleset={}, deal={}, seed=1, dealer=0
    )
    await load_games(store, session_id, 50)
    # The bulk load wrote ids first.id + 1 … first.id + 50 itself (numbers likewise); new ids
    # come after them.
    later = await db.games.create_game(
        store, session_id, number=10**6, ruleset={}, deal={}, seed=1, dealer=0
    )
    assert later.id == first.id + 51


def test_bench_refuses_a_url_of_another_kind(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--database-url", "mysql://nobody@127.0.0.1/doko"])
    assert "postgresql://" in capsys.readouterr().err
