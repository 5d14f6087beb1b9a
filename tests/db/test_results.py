"""finish_game: results, record and ratings in one transaction; rating directions."""

from __future__ import annotations

import pytest

import db
from db import Database
from db.results import DEFAULT_MU, rate_game

from .conftest import (
    ALICE,
    BOB,
    CARLA,
    DIETER,
    GUILD,
    Table,
    new_game,
    normal_results,
    play,
    solo_results,
)


async def test_finish_game_stores_everything(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    results = normal_results((0, 2), 2)
    record = {"format": "doko-game/1", "rules": {}, "dealer": 0, "hands": [], "actions": []}
    ratings = await db.results.finish_game(store, game.id, results, record)

    finished = await db.games.get_game(store, game.id)
    assert finished.status == "finished" and finished.record == record
    assert finished.finished_at is not None
    assert await db.results.get_results(store, game.id) == results
    assert [r.player_id for r in ratings] == [ALICE, BOB, CARLA, DIETER]
    assert all(r.games == 1 for r in ratings)
    assert await db.games.get_running_game(store, table.session.id) is None

    with pytest.raises(db.GameNotRunningError):
        await db.results.finish_game(store, game.id, results, record)
    with pytest.raises(db.NotFoundError):
        await db.results.finish_game(store, 999, results, record)


async def test_finish_game_is_all_or_nothing(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    results = normal_results((0, 2), 2)
    # A player id nobody stored breaks the foreign key on the fourth row.
    broken = [*results[:3], db.SeatResult(**{**_fields(results[3]), "player_id": 404})]
    with pytest.raises(db.ConstraintError):
        await db.results.finish_game(store, game.id, broken, {})
    assert (await db.games.get_game(store, game.id)).status == "running"
    assert await db.results.get_results(store, game.id) == []
    assert (await db.ratings.get_rating(store, GUILD, ALICE)).games == 0
    assert await db.standings.guild_standings(store, table.table.guild_id) == []


def _fields(result: db.SeatResult) -> dict[str, object]:
    return {name: getattr(result, name) for name in db.SeatResult.__dataclass_fields__}


@pytest.mark.parametrize(
    ("results", "message"),
    [
        (normal_results((0, 2), 2)[:3], "one result per seat"),
        ([*normal_results((0, 2), 2)[:3], normal_results((0, 2), 3)[3]], "sum to zero"),
        (normal_results((0, 1), 1, (ALICE, ALICE, CARLA, DIETER)), "two seats"),
        ([*solo_results(1, 2)[:3], normal_results((0, 2), 2)[3]], "is_solo"),
    ],
)
async def test_impossible_results_are_refused(
    store: Database, table: Table, results: list[db.SeatResult], message: str
) -> None:
    game = await new_game(store, table.session.id, 1)
    with pytest.raises(ValueError, match=message):
        await db.results.finish_game(store, game.id, results, {})


async def test_winners_rise_and_losers_fall(store: Database, table: Table) -> None:
    ratings = {
        r.player_id: r for r in await play(store, table.session.id, 1, normal_results((0, 2), 2))
    }
    assert ratings[ALICE].mu > DEFAULT_MU and ratings[CARLA].mu > DEFAULT_MU
    assert ratings[BOB].mu < DEFAULT_MU and ratings[DIETER].mu < DEFAULT_MU
    # Uncertainty shrinks with every game.
    assert all(r.sigma < db.RatingRow(0, DEFAULT_MU, 8.34, 0).sigma for r in ratings.values())
    assert await db.ratings.get_rating(store, GUILD, ALICE) == ratings[ALICE]

    again = {
        r.player_id: r for r in await play(store, table.session.id, 2, normal_results((0, 2), 1))
    }
    assert again[ALICE].mu > ratings[ALICE].mu and again[ALICE].games == 2
    assert again[BOB].mu < ratings[BOB].mu


async def test_solo_is_one_against_three(store: Database, table: Table) -> None:
    won = {r.player_id: r for r in await play(store, table.session.id, 1, solo_results(1, 2))}
    assert won[BOB].mu > DEFAULT_MU
    # The three share one team: each of them falls by the same amount.
    assert len({round(won[p].mu, 9) for p in (ALICE, CARLA, DIETER)}) == 1
    assert won[ALICE].mu < DEFAULT_MU

    lost = {r.player_id: r for r in await play(store, table.session.id, 2, solo_results(1, -1))}
    assert lost[BOB].mu < won[BOB].mu
    assert all(lost[p].mu > won[p].mu for p in (ALICE, CARLA, DIETER))


async def test_draw_moves_nobody_much(store: Database, table: Table) -> None:
    drawn = await play(store, table.session.id, 1, normal_results((0, 2), 0, draw=True))
    assert all(abs(r.mu - DEFAULT_MU) < 1e-9 for r in drawn)
    assert all(r.sigma < 25 / 3 for r in drawn)


async def test_ai_seats_are_opponents_without_a_rating(store: Database, table: Table) -> None:
    players = (ALICE, None, CARLA, None)
    ratings = await play(store, table.session.id, 1, normal_results((0, 2), 2, players))
    assert [r.player_id for r in ratings] == [ALICE, CARLA]
    assert all(r.mu > DEFAULT_MU for r in ratings)
    assert (await db.ratings.get_rating(store, GUILD, BOB)).games == 0
    stored = await db.results.get_results(
        store, (await db.games.list_games(store, table.session.id))[0].id
    )
    assert [r.ai_level for r in stored] == [None, "mittel", None, "mittel"]

    all_ai = await play(store, table.session.id, 2, normal_results((0, 2), 1, (None,) * 4))
    assert all_ai == ()


def test_stronger_loser_loses_more() -> None:
    """A favourite who loses drops further than an even player who loses."""
    strong = db.RatingRow(ALICE, 35.0, 3.0, 50)
    even = {ALICE: db.RatingRow(ALICE, 25.0, 3.0, 50)}
    upset = {r.player_id: r for r in rate_game(normal_results((1, 3), 1), {ALICE: strong})}
    normal = {r.player_id: r for r in rate_game(normal_results((1, 3), 1), even)}
    assert strong.mu - upset[ALICE].mu > even[ALICE].mu - normal[ALICE].mu
