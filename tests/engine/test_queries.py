"""The engine's read queries for the front ends: leaderboard, statistics, exports, closed."""

from __future__ import annotations

import db
from bot.engine import Engine
from bot.engine.rangliste import Zeitraum, rating_figure
from tests.engine.test_engine import HOST, new_table, play_humans


async def test_the_queries_read_what_the_store_holds(engine: Engine) -> None:
    info = await new_table(engine, games=1)
    assert await engine.leaderboard(1) == []
    assert await engine.player_figures(1, HOST, Zeitraum()) is None
    assert not await engine.table_closed(info.id)
    info = await engine.start_game(info.id, HOST)
    running = info.game_id
    assert running is not None
    assert await engine.finished_record(1, running) is None  # a running game: hands!
    await play_humans(engine, info.id, games=1)
    assert not await engine.table_closed(info.id)
    await engine.stop_table(info.id, HOST)
    assert await engine.table_closed(info.id)
    assert await engine.table_closed(99_999)  # no such table: closed
    rows = await engine.leaderboard(1, limit=5)
    assert rows == await db.standings.guild_standings(engine.db, 1, limit=5)
    assert [r.player_id for r in rows] == [HOST]
    figures = await engine.player_figures(1, HOST, Zeitraum())
    assert figures is not None and (figures.points, figures.games) == (rows[0].points, 1)
    rating = await db.ratings.get_rating(engine.db, 1, HOST)
    assert figures.rating == rating_figure(rating) and figures.rated_games == 1
    assert await engine.player_figures(2, HOST, Zeitraum()) is None  # another guild
    record = await engine.finished_record(1, running)
    assert record is not None and record == (await db.games.get_game(engine.db, running)).record
    assert await engine.finished_record(2, running) is None  # not this guild's game
    assert await engine.finished_record(1, 99_999) is None
