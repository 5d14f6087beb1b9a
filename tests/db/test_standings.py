"""Standings: guild leaderboard over periods, session Spielliste, shared ranks."""

from __future__ import annotations

import random
from datetime import date, timedelta

import db
from db import Database
from db.standings import split_days

from .conftest import (
    ALICE,
    BOB,
    CARLA,
    DIETER,
    GUILD,
    Table,
    at,
    normal_results,
    play,
    solo_results,
)


def points(rows: list[db.StandingRow]) -> dict[int | None, int]:
    return {r.player_id: r.points for r in rows}


async def test_ties_share_a_rank(store: Database, table: Table) -> None:
    # Running totals (Alice, Bob, Carla, Dieter): 3 -3 3 -3, 4 -2 2 -4, 2 0 4 -6, 3 -1 3 -5.
    await play(store, table.session.id, 1, normal_results((0, 2), 3))
    await play(store, table.session.id, 2, normal_results((0, 1), 1))
    await play(store, table.session.id, 3, normal_results((1, 2), 2))
    await play(store, table.session.id, 4, normal_results((0, 3), 1))
    standings = await db.standings.guild_standings(store, GUILD)
    assert [(r.display_name, r.points, r.rank) for r in standings] == [
        ("Alice", 3, 1),
        ("Carla", 3, 1),
        ("Bob", -1, 3),
        ("Dieter", -5, 4),
    ]
    await play(store, table.session.id, 5, normal_results((0, 1), 2))  # 5 1 1 -7
    standings = await db.standings.guild_standings(store, GUILD)
    assert [(r.display_name, r.rank) for r in standings] == [
        ("Alice", 1),
        ("Bob", 2),
        ("Carla", 2),
        ("Dieter", 4),
    ]
    assert [r.display_name for r in await db.standings.guild_standings(store, GUILD, limit=2)] == [
        "Alice",
        "Bob",
    ]


async def test_figures_per_player(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 2), 2))
    await play(store, table.session.id, 2, solo_results(0, 4))
    await play(store, table.session.id, 3, solo_results(0, -1))
    await play(store, table.session.id, 4, normal_results((1, 3), 0, draw=True))
    alice = await db.standings.player_standing(store, GUILD, ALICE)
    assert alice is not None
    assert (alice.games, alice.points, alice.wins) == (4, 2 + 12 - 3, 2)
    assert (alice.solos, alice.solos_won) == (2, 1)
    assert alice.re_games == 3 and alice.re_share == 0.75 and alice.kontra_share == 0.25
    assert alice.points_per_game == 11 / 4
    bob = await db.standings.player_standing(store, GUILD, BOB)
    assert bob is not None and (bob.solos, bob.wins, bob.re_games) == (0, 1, 1)
    assert await db.standings.player_standing(store, GUILD + 1, ALICE) is None


async def test_time_filters(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 2), 1), at(2025, 1, 31, 23))
    await play(store, table.session.id, 2, normal_results((1, 3), 2), at(2025, 2, 1, 0))
    await play(store, table.session.id, 3, normal_results((0, 1), 4), at(2025, 2, 28, 23))
    await play(store, table.session.id, 4, normal_results((2, 3), 8), at(2025, 3, 1, 0))

    everything = await db.standings.guild_standings(store, GUILD, db.Period.all_time())
    assert points(everything) == {ALICE: -5, BOB: -3, CARLA: 3, DIETER: 5}
    february = await db.standings.guild_standings(
        store, GUILD, db.Period.month_of(date(2025, 2, 14))
    )
    assert points(february) == {ALICE: 2, BOB: 6, CARLA: -6, DIETER: -2}
    assert sum(r.games for r in february) == 8
    season = db.Period.season(date(2025, 1, 31), date(2025, 2, 1))
    assert points(await db.standings.guild_standings(store, GUILD, season)) == {
        ALICE: -1,
        BOB: 1,
        CARLA: -1,
        DIETER: 1,
    }
    since_march = db.Period(first_day=date(2025, 3, 1))
    assert points(await db.standings.guild_standings(store, GUILD, since_march)) == {
        ALICE: -8,
        BOB: -8,
        CARLA: 8,
        DIETER: 8,
    }
    assert (
        await db.standings.guild_standings(store, GUILD, db.Period.month_of(date(2025, 4, 1))) == []
    )


async def test_guilds_are_separate(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 2), 1))
    other = await db.tables.create_table(
        store, guild_id=GUILD + 1, channel_id=1, host_id=BOB, rules={}, games_per_session=4
    )
    session = await db.sessions.create_session(store, other.id, games_per_round=4, dealer=0)
    await play(store, session.id, 1, normal_results((1, 3), 5))
    assert points(await db.standings.guild_standings(store, GUILD)) == {
        ALICE: 1,
        BOB: -1,
        CARLA: 1,
        DIETER: -1,
    }
    assert points(await db.standings.guild_standings(store, GUILD + 1)) == {
        ALICE: -5,
        BOB: 5,
        CARLA: -5,
        DIETER: 5,
    }
    assert points(await db.standings.session_standings(store, session.id)) == points(
        await db.standings.guild_standings(store, GUILD + 1)
    )


async def test_session_standings_include_ai_seats(store: Database, table: Table) -> None:
    await db.players.upsert_player(store, ALICE, "Alice A.")
    players = (ALICE, None, CARLA, None)
    await play(store, table.session.id, 1, normal_results((0, 1), 2, players))
    await play(store, table.session.id, 2, normal_results((1, 3), 1, players))
    aborted = await db.games.create_game(
        store, table.session.id, number=3, ruleset={}, deal={}, seed=None, dealer=2
    )
    await db.games.abort_game(store, aborted.id)
    rows = await db.standings.session_standings(store, table.session.id)
    assert [(r.rank, r.display_name, r.ai_level, r.seat, r.points) for r in rows] == [
        (1, None, "mittel", 1, 3),
        (2, "Alice A.", None, None, 1),
        (3, None, "mittel", 3, -1),
        (4, "Carla", None, None, -3),
    ]
    assert [r.games for r in rows] == [2, 2, 2, 2]
    # AI seats never reach the guild leaderboard.
    assert {r.player_id for r in await db.standings.guild_standings(store, GUILD)} == {ALICE, CARLA}


async def test_kept_sums_match_a_recount(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 2), 2), at(2025, 1, 1))
    await play(store, table.session.id, 2, solo_results(3, 3), at(2025, 1, 2))
    await play(
        store,
        table.session.id,
        3,
        normal_results((1, 2), 1, (ALICE, None, CARLA, DIETER)),
        at(2025, 2, 1),
    )
    before_total = await db.standings.guild_standings(store, GUILD)
    season = db.Period.season(date(2025, 1, 2), date(2025, 2, 1))
    before_season = await db.standings.guild_standings(store, GUILD, season)
    await db.standings.rebuild_standings(store)
    assert await db.standings.guild_standings(store, GUILD) == before_total
    assert await db.standings.guild_standings(store, GUILD, season) == before_season
    humans = [
        r for r in await db.standings.session_standings(store, table.session.id) if r.player_id
    ]
    assert points(humans) == points(before_total)


def test_split_days_covers_each_day_once() -> None:
    for first in range(-10, 30):
        for last in range(first - 1, 45):
            weeks, head, tail = split_days(first, last)
            days = [d for w in range(weeks[0], weeks[1] + 1) for d in range(7 * w, 7 * w + 7)]
            days += list(range(head[0], head[1] + 1)) + list(range(tail[0], tail[1] + 1))
            assert sorted(days) == list(range(first, last + 1)), (first, last)


async def test_periods_match_a_recount(store: Database, table: Table) -> None:
    """Week blocks plus edge days give the same sums as counting every game."""
    rng = random.Random(7)
    played: list[tuple[date, list[db.SeatResult]]] = []
    for number in range(1, 61):
        when = at(2025, 1, 1) + timedelta(days=rng.randrange(120), hours=rng.randrange(24))
        re_seats = tuple(rng.sample(range(4), 2))
        results = normal_results((re_seats[0], re_seats[1]), rng.randint(-4, 4) or 1)
        await play(store, table.session.id, number, results, when)
        played.append((when.date(), results))
    for _ in range(25):
        first = date(2025, 1, 1) + timedelta(days=rng.randrange(130))
        last = first + timedelta(days=rng.randrange(60))
        expected: dict[int | None, int] = {}
        for day, results in played:
            if first <= day <= last:
                for r in results:
                    expected[r.player_id] = expected.get(r.player_id, 0) + r.points
        period = db.Period.season(first, last)
        assert points(await db.standings.guild_standings(store, GUILD, period)) == expected
