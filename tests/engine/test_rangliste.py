"""The engine's leaderboard pages and a player's figures, read from the store."""

from __future__ import annotations

from datetime import UTC, date, datetime

import db
from bot.engine import Engine
from bot.engine.rangliste import MIN_RATED_GAMES, PAGE_SIZE, Zeitraum

GUILD = 5


async def seed(
    engine: Engine, players: int, games: list[tuple[tuple[int, ...], datetime, bool]]
) -> None:
    """``players`` named players (ids 1…) and finished games: Re (the first two) wins 1 or
    loses 1; the first seat made an Ansage when the flag says so.
    """
    store = engine.db
    for n in range(1, players + 1):
        await db.players.upsert_player(store, n, f"P{n:02d}")
    table = await db.tables.create_table(
        store,
        guild_id=GUILD,
        channel_id=1,
        host_id=1,
        rules={},
        games_per_session=999,
        turn_timer_s=None,
        status="closed",
    )
    session = await db.sessions.create_session(store, table.id, games_per_round=999, dealer=0)
    for number, (four, when, called) in enumerate(games, start=1):
        game = await db.games.create_game(
            store, session.id, number=number, ruleset={}, deal={}, seed=number, dealer=0
        )
        re_won = number % 3 != 0
        results = [
            db.SeatResult(
                seat=seat,
                party="re" if seat < 2 else "kontra",
                augen=120,
                points=(1 if re_won else -1) * (1 if seat < 2 else -1),
                contract="normal",
                is_solo=False,
                won=(seat < 2) == re_won,
                player_id=p,
                called=called and seat == 0,
            )
            for seat, p in enumerate(four)
        ]
        await db.results.finish_game(store, game.id, results, {}, now=when)


def at(month: int, day: int) -> datetime:
    return datetime(2026, month, day, 12, tzinfo=UTC)


async def test_pages_count_and_clamp(engine: Engine) -> None:
    fours = [tuple(range(i, i + 4)) for i in range(1, 45, 4)]  # 44 players, three pages
    await seed(engine, 44, [(f, at(10, 5), False) for f in fours])
    page = await engine.leaderboard_page(GUILD, Zeitraum(), "points", 1)
    assert (page.page, page.pages, page.total, page.moved) == (1, 3, 44, False)
    assert len(page.lines) == PAGE_SIZE
    last = await engine.leaderboard_page(GUILD, Zeitraum(), "points", 2)
    assert len(last.lines) == 44 - 2 * PAGE_SIZE
    # A page beyond the end (an old button): the last one, marked as moved.
    beyond = await engine.leaderboard_page(GUILD, Zeitraum(), "points", 9)
    assert (beyond.page, beyond.asked, beyond.moved, beyond.lines) == (2, 9, True, last.lines)
    # Another month and another server have nobody: one empty page.
    empty = await engine.leaderboard_page(GUILD, Zeitraum("month", 2026, 11), "points", 0)
    assert (empty.pages, empty.total, empty.lines) == (1, 0, ())
    assert (await engine.leaderboard_page(GUILD + 1, Zeitraum(), "points", 0)).total == 0
    # Nobody has MIN_RATED_GAMES games yet: an empty rating list, whatever the period asked.
    rated = await engine.leaderboard_page(GUILD, Zeitraum("month", 2026, 10), "rating", 0)
    assert (rated.zeitraum, rated.total, rated.lines) == (Zeitraum(), 0, ())


async def test_figures_by_period_and_the_rating_rank(engine: Engine) -> None:
    four = (1, 2, 3, 4)
    games = [(four, at(10, d), True) for d in range(1, MIN_RATED_GAMES + 1)]
    games += [((3, 4, 1, 2), at(11, 2), False)]
    await seed(engine, 4, games)
    everything = await engine.player_figures(GUILD, 1, Zeitraum())
    assert everything is not None
    assert everything.games == MIN_RATED_GAMES + 1 == everything.rated_games
    assert everything.called == MIN_RATED_GAMES and everything.re_games == MIN_RATED_GAMES
    assert (
        everything.points
        == everything.running[-1]
        == sum((1 if n % 3 else -1) for n in range(1, MIN_RATED_GAMES + 1))
        - (1 if (MIN_RATED_GAMES + 1) % 3 else -1)
    )
    assert everything.rating_rank == 1  # P01 and P02 played alike: they share the rank
    assert everything.rating_rank == (await engine.player_figures(GUILD, 2, Zeitraum())).rating_rank  # type: ignore[union-attr]
    november = await engine.player_figures(GUILD, 1, Zeitraum("month", 2026, 11))
    assert november is not None and november.games == 1 and november.called == 0
    assert november.re_games == 0 and november.running == (november.points,)
    assert november.rating == everything.rating  # the rating counts every game
    assert await engine.player_figures(GUILD, 1, Zeitraum("month", 2026, 12)) is None
    assert await engine.player_figures(GUILD + 1, 1, Zeitraum()) is None
    assert engine.today() == engine.clock().date()
    assert isinstance(engine.today(), date)
