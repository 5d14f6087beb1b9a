"""Ratings per server, the rating list, leaderboard pages and a player's games by period."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

import db
from db import Database, migrate
from db.__main__ import main as db_main
from db.connect import open_database

from .conftest import (
    ALICE,
    BOB,
    CARLA,
    CHANNEL,
    DIETER,
    GUILD,
    Table,
    at,
    normal_results,
    play,
    solo_results,
)
from .test_migrations import _make_version_1

OTHER_GUILD = 1001


async def other_guild_session(store: Database) -> int:
    """A table with the same four players on another server; its session's id."""
    row = await db.tables.create_table(
        store,
        guild_id=OTHER_GUILD,
        channel_id=CHANNEL + 1,
        host_id=ALICE,
        rules={},
        games_per_session=24,
        turn_timer_s=None,
        status="playing",
    )
    for seat, user_id in enumerate([ALICE, BOB, CARLA, DIETER]):
        await db.tables.set_seat(store, row.id, seat, user_id=user_id)
    return (await db.sessions.create_session(store, row.id, games_per_round=24, dealer=0)).id


async def test_a_rating_moves_only_on_its_own_server(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 2), 2))
    here = await db.ratings.get_rating(store, GUILD, ALICE)
    assert here.games == 1 and here.mu > db.results.DEFAULT_MU
    assert (await db.ratings.get_rating(store, OTHER_GUILD, ALICE)).games == 0
    # Alice loses on the other server: her rating there falls, the one here stays.
    other = await other_guild_session(store)
    await play(store, other, 1, normal_results((1, 3), 2))
    there = await db.ratings.get_rating(store, OTHER_GUILD, ALICE)
    assert there.games == 1 and there.mu < db.results.DEFAULT_MU
    assert await db.ratings.get_rating(store, GUILD, ALICE) == here


async def test_the_rating_list_ranks_by_the_conservative_estimate(
    store: Database, table: Table
) -> None:
    # Alice and Carla win every game, Bob and Dieter lose; Dieter sits out the last one.
    for number in range(1, 5):
        await play(store, table.session.id, number, normal_results((0, 2), 1))
    ai_fourth = (ALICE, BOB, CARLA, None)
    await play(store, table.session.id, 5, normal_results((0, 2), 1, ai_fourth))
    rated = await db.ratings.rating_list(store, GUILD, 5)
    assert [r.rating.player_id for r in rated] == [ALICE, CARLA, BOB]
    assert [r.rank for r in rated] == [1, 1, 3]  # equal estimates share a rank
    assert [r.display_name for r in rated] == ["Alice", "Carla", "Bob"]
    assert all(r.rating.games == 5 for r in rated)
    assert await db.ratings.count_rated(store, GUILD, 5) == 3
    assert await db.ratings.count_rated(store, GUILD, 4) == 4
    assert await db.ratings.count_rated(store, OTHER_GUILD, 1) == 0
    page = await db.ratings.rating_list(store, GUILD, 4, offset=2, limit=1)
    # Dieter lost one game fewer than Bob: ahead of him once four games suffice.
    assert [(r.rank, r.rating.player_id) for r in page] == [(3, DIETER)]
    bob = await db.ratings.get_rating(store, GUILD, BOB)
    assert await db.ratings.rating_rank(store, GUILD, bob, 5) == 3
    assert await db.ratings.rating_rank(store, GUILD, bob, 4) == 4


async def test_rebuild_replays_the_games_per_server(store: Database, table: Table) -> None:
    other = await other_guild_session(store)
    await play(store, table.session.id, 1, normal_results((0, 2), 2), at(2025, 1, 1))
    await play(store, other, 1, normal_results((1, 2), 3), at(2025, 1, 2))
    await play(store, table.session.id, 2, solo_results(1, 2), at(2025, 1, 3))
    await play(store, other, 2, normal_results((0, 3), 1), at(2025, 1, 4))
    players = (ALICE, BOB, CARLA, DIETER)
    kept = [await db.ratings.get_rating(store, g, p) for g in (GUILD, OTHER_GUILD) for p in players]
    assert await db.ratings.rebuild(store) == 4
    again = [
        await db.ratings.get_rating(store, g, p) for g in (GUILD, OTHER_GUILD) for p in players
    ]
    assert again == kept


async def test_an_upgraded_store_has_its_ratings_replayed(
    database_target: str | Path,
) -> None:
    await _make_version_1(database_target)
    old = await open_database(database_target)
    try:
        await migrate.upgrade(old, target=13)
    finally:
        await old.close()
    store = await db.connect(database_target)
    try:
        ratings = {p: await db.ratings.get_rating(store, GUILD, p) for p in (ALICE, BOB)}
        # Two games: Alice won both, Bob lost both (a lost solo the second time).
        assert ratings[ALICE].games == ratings[BOB].games == 2
        assert ratings[ALICE].mu > db.results.DEFAULT_MU > ratings[BOB].mu
        # Results stored before 0014 count as without an Ansage.
        games = await db.standings.player_games(store, GUILD, ALICE)
        assert [g.called for g in games] == [False, False]
    finally:
        await store.close()


async def test_leaderboard_pages_and_counts(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 2), 3), at(2025, 1, 31))
    await play(store, table.session.id, 2, normal_results((0, 1), 1), at(2025, 2, 1))
    await play(store, table.session.id, 3, normal_results((1, 2), 2), at(2025, 2, 10))
    # All time: Alice 2, Carla 4, Bob 0, Dieter -6. February: Bob 3, Alice -1, Carla 1 …
    everyone = await db.standings.guild_standings(store, GUILD)
    assert await db.standings.count_standings(store, GUILD) == 4
    page = await db.standings.guild_standings(store, GUILD, offset=1, limit=2)
    assert page == everyone[1:3]
    assert [r.rank for r in page] == [2, 3]  # the ranks of the whole list
    february = db.Period.month_of(date(2025, 2, 14))
    assert await db.standings.count_standings(store, GUILD, february) == 4
    in_february = await db.standings.guild_standings(store, GUILD, february, offset=3)
    assert [(r.player_id, r.points) for r in in_february] == [(DIETER, -3)]
    january = db.Period.month_of(date(2025, 1, 1))
    assert await db.standings.count_standings(store, GUILD, january) == 4
    march = db.Period.month_of(date(2025, 3, 1))
    assert await db.standings.count_standings(store, GUILD, march) == 0
    assert await db.standings.count_standings(store, OTHER_GUILD) == 0


async def test_a_players_games_by_period(store: Database, table: Table) -> None:
    called = [replace(r, called=r.seat == 0) for r in normal_results((0, 2), 2)]
    await play(store, table.session.id, 1, called, at(2025, 1, 31, 23))
    await play(store, table.session.id, 2, solo_results(0, -1), at(2025, 2, 1, 0))
    await play(store, table.session.id, 3, normal_results((1, 3), 1), at(2025, 2, 28, 23))
    games = await db.standings.player_games(store, GUILD, ALICE)
    assert [(g.points, g.party, g.is_solo, g.won, g.called) for g in games] == [
        (2, "re", False, True, True),
        (-3, "re", True, False, False),
        (-1, "kontra", False, False, False),
    ]
    assert [g.finished_at for g in games] == [
        at(2025, 1, 31, 23),
        at(2025, 2, 1, 0),
        at(2025, 2, 28, 23),
    ]
    february = db.Period.month_of(date(2025, 2, 1))
    assert [g.points for g in await db.standings.player_games(store, GUILD, ALICE, february)] == [
        -3,
        -1,
    ]
    # Another server's games are not this one's; the stored results say who called.
    assert await db.standings.player_games(store, OTHER_GUILD, ALICE) == []
    first = (await db.games.list_games(store, table.session.id))[0].id
    assert [r.called for r in await db.results.get_results(store, first)] == [
        True,
        False,
        False,
        False,
    ]


@pytest.mark.sqlite_only
def test_the_command_line_replays_the_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cli.sqlite3"
    asyncio.run(_make_version_1(path))
    assert db_main(["upgrade", "--path", str(path)]) == 0
    assert db_main(["rebuild-ratings", "--path", str(path)]) == 0
    assert "ratings replayed from 2 games" in capsys.readouterr().out
