"""A coached table's games and a challenge's are unranked: no standings, no ratings, no
player figures.
"""

from __future__ import annotations

import pytest

import db
from bot.engine.queries import own_finished_game
from db.database import Database
from tests.db.conftest import (
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
)


async def unranked_session(store: Database, reason: str) -> int:
    """A playing unranked table in another channel of GUILD, its session id: coached, or
    opened unranked (a challenge's table).
    """
    row = await db.tables.create_table(
        store,
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        host_id=ALICE,
        rules={},
        games_per_session=24,
        status="playing",
        coach=reason == "coach",
        ranked=reason != "challenge",
    )
    assert not (await db.tables.get_table(store, row.id)).ranked
    for seat, user_id in enumerate([ALICE, BOB, CARLA, DIETER]):
        await db.tables.set_seat(store, row.id, seat, user_id=user_id)
    return (await db.sessions.create_session(store, row.id, games_per_round=24, dealer=0)).id


@pytest.mark.parametrize("reason", ["coach", "challenge"])
async def test_an_unranked_game_counts_nowhere_but_its_own_session(
    store: Database, table: Table, reason: str
) -> None:
    assert not table.table.coach and table.table.ranked  # the defaults
    coached = await unranked_session(store, reason)
    assert await play(store, coached, 1, normal_results((0, 1), 2), at(2026, 3, 2)) == ()
    assert await db.standings.guild_standings(store, GUILD) == []
    assert (await db.ratings.get_rating(store, GUILD, ALICE)).games == 0
    assert await db.standings.player_games(store, GUILD, ALICE) == []
    # The session's own Spielliste still has it.
    session = await db.standings.session_standings(store, coached)
    assert {row.points for row in session} == {2, -2}
    # A ranked game next to it counts as usual; a rebuild leaves the coached one out again.
    ranked = await play(store, table.session.id, 1, normal_results((0, 1), 1), at(2026, 3, 2))
    assert {r.player_id for r in ranked} == {ALICE, BOB, CARLA, DIETER}
    board = await db.standings.guild_standings(store, GUILD)
    assert {row.player_id: row.points for row in board}[ALICE] == 1
    assert await db.ratings.rebuild(store) == 1
    assert (await db.ratings.get_rating(store, GUILD, ALICE)).games == 1
    await db.standings.rebuild_standings(store)
    board = await db.standings.guild_standings(store, GUILD)
    assert {row.player_id: row.games for row in board}[ALICE] == 1


async def test_a_spielanalyse_is_only_of_ones_own_seat(store: Database, table: Table) -> None:
    await play(store, table.session.id, 1, normal_results((0, 1), 1), at(2026, 3, 2))
    [game] = await db.games.list_games(store, table.session.id)
    found = await own_finished_game(store, table.table.id, game.id, CARLA)
    assert found is not None and found[1] == 2
    assert await own_finished_game(store, table.table.id, game.id, 999) is None  # not seated
    assert await own_finished_game(store, table.table.id + 1, game.id, CARLA) is None
    running = await db.games.create_game(
        store, table.session.id, number=2, ruleset={}, deal={}, seed=2, dealer=1
    )
    assert await own_finished_game(store, table.table.id, running.id, CARLA) is None
