"""Tournaments with five-tables (real five-player tables) and corrections in the leaderboard."""

from __future__ import annotations

import db
from bot.tournament import GameRef, Substitute
from tests.engine.tournaments.conftest import GUILD, ORGANISER, Site
from tests.engine.tournaments.test_service import create


async def leaderboard(site: Site) -> dict[int, tuple[int, int]]:
    """(points, games) by player, as ``/doko rangliste`` reads them."""
    assert site.store is not None
    rows = await db.standings.guild_standings(site.store, GUILD)
    return {r.player_id: (r.points, r.games) for r in rows if r.player_id is not None}


async def test_a_field_of_nine_plays_at_a_four_and_a_five_table(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 9, rounds=2, games_per_round=5)
    await service.begin(tid, ORGANISER)
    view = await service.overview(tid)
    assert sorted(len(t.seats) for t in view.tables) == [4, 5]
    seated = [p for t in view.tables for p in t.seats]
    assert sorted(seated) == list(range(101, 110))  # type: ignore[type-var]
    assert not any(isinstance(p, Substitute) for p in seated)  # no AI fills the fifth seat
    five = next(t for t in view.tables if len(t.seats) == 5)
    assert site.engine is not None and five.table_id is not None
    info = site.engine.table(five.table_id)
    assert info.size == 5 and info.sitting_out is not None
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "finished" and view.tournament.current_round == 2
    for t in view.tables:
        check = await service.table_check(tid, t.round_number, t.number)
        assert check.ok, check.problems
    fives = [t for t in view.tables if len(t.seats) == 5]
    assert len(fives) == 2  # one per round
    for t in fives:
        games = view.table_games(t.round_number, t.number)
        # Five Pflichtsoli on top of five games; each game one of the five sat out at 0.
        assert len(games) >= 5
        for game in games:
            assert game.sitting_out is not None and game.points_of(game.sitting_out) == 0
            assert len(game.scores) == 5 and len(game.players) == 4
        outs = [g.sitting_out for g in games]
        assert set(outs) == set(t.seats)  # the deal went round the table
    rows = {r.participant: r for r in view.standings()}
    assert set(rows) == set(range(101, 110)) and sum(r.points for r in rows.values()) == 0
    # Sitting out is no game played, in the tournament and in the server leaderboard alike.
    board = await leaderboard(site)
    for player, row in rows.items():
        assert isinstance(player, int)
        played = sum(1 for g in view.results.games if player in g.players)  # sat out: no
        assert row.games == played == board[player][1]
        assert row.points == board[player][0]


async def test_corrections_feed_the_server_leaderboard(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 5, rounds=1, games_per_round=2)
    await service.begin(tid, ORGANISER)
    await site.play()
    view = await service.overview(tid)
    before = await leaderboard(site)
    game = view.table_games(1, 1)[0]
    assert game.sitting_out is not None
    a, b = game.players[:2]
    new = {p: 0 for p, _ in game.scores}
    new[a], new[b] = 6, -6
    await service.correct(tid, ORGANISER, game.ref, new, "Fuchs übersehen")
    after = await leaderboard(site)
    for participant, old in game.scores:
        assert isinstance(participant, int)
        points, games = before[participant]
        assert after[participant] == (points - old + new[participant], games)
    # The tournament standings and the leaderboard agree, also after a rebuild of the sums.
    view = await service.overview(tid)
    assert {r.participant: r.points for r in view.standings()} == {
        p: points for p, (points, _) in after.items()
    }
    assert site.store is not None
    await db.standings.rebuild_standings(site.store)
    assert await leaderboard(site) == after
    # A second correction of the same game moves the leaderboard from the corrected scores.
    again = dict(new)
    again[a], again[b] = 0, 0
    await service.correct(tid, ORGANISER, GameRef(1, 1, game.ref.game), again, "doch nicht")
    final = await leaderboard(site)
    assert final[a][0] == after[a][0] - 6 and final[b][0] == after[b][0] + 6
