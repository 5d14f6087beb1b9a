"""Store benchmark: appending one action with its commit, and the guild leaderboard.

``main(["--json"])`` prints one JSON object with ``db_append_ms_p50``, ``db_append_ms_p99``
and ``db_leaderboard_ms`` (all-time leaderboard of a guild with 100,000 stored games of
four results each), plus the same leaderboard for one month and for a season. Everything
runs on a temporary file, with the same pragmas as the bot (WAL, synchronous FULL), or with
``--database-url postgresql://…`` in a new schema of that database, dropped afterwards
(the server's own durability settings apply); ``database`` says which.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Final

import db
from db._util import MS_PER_DAY, dump_json, to_ms
from db.connect import is_postgres_url
from db.database import Database
from db.postgres import scratch_schema

GUILD: Final = 1
PLAYERS: Final = 60
DAYS: Final = 730  # the games are spread over two years
FIRST_DAY: Final = date(2024, 1, 1)

BULK_GAME: Final = """
INSERT INTO games (id, session_id, number, ruleset, deal, seed, dealer, round_context,
    status, started_at, finished_at, record)
VALUES (?, ?, ?, '{}', ?, ?, ?, NULL, 'finished', ?, ?, ?)
"""
BULK_RESULT: Final = """
INSERT INTO game_results (game_id, seat, player_id, ai_level, party, augen, points, contract,
    is_solo, won)
VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
"""
SYNC_GAME_IDS: Final = "SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games"
_SUITS: Final = "CSHD"
_RANKS: Final = ("A", "10", "K", "Q", "J", "9")


def _deal(rng: random.Random) -> str:
    deck = [suit + rank for suit in _SUITS for rank in _RANKS] * 2
    rng.shuffle(deck)
    return dump_json({"hands": [deck[i * 12 : (i + 1) * 12] for i in range(4)]})


async def _timed(call: Callable[[], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    await call()
    return (time.perf_counter() - start) * 1000


async def _setup_table(store: Database) -> int:
    for player in range(1, PLAYERS + 1):
        await db.players.upsert_player(store, player, f"Spieler {player}")
    table = await db.tables.create_table(
        store, guild_id=GUILD, channel_id=1, host_id=1, rules={}, games_per_session=10**9
    )
    session = await db.sessions.create_session(store, table.id, games_per_round=10**9, dealer=0)
    return session.id


async def measure_append(store: Database, session_id: int, appends: int) -> list[float]:
    """Milliseconds per ``append_action`` call, each in its own committed transaction."""
    times: list[float] = []
    game = await db.games.create_game(
        store, session_id, number=1, ruleset={}, deal={}, seed=1, dealer=0
    )
    seq = 0
    for _ in range(appends):
        if seq == 60:  # a long game has ~60 actions; then the next one starts
            game = await db.games.create_game(
                store, session_id, number=game.number + 1, ruleset={}, deal={}, seed=1, dealer=0
            )
            seq = 0
        start = time.perf_counter()
        await db.actions.append_action(store, game.id, seq, {"seat": seq % 4, "play": "H10"})
        times.append((time.perf_counter() - start) * 1000)
        seq += 1
    return times


def _bulk_rows(
    session_id: int, first_id: int, games: int, seed: int
) -> Iterator[tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]]:
    """Plausible finished games in chunks: (game rows, result rows)."""
    rng = random.Random(seed)
    start_ms = to_ms(datetime(FIRST_DAY.year, FIRST_DAY.month, FIRST_DAY.day, tzinfo=UTC))
    chunk = 5000
    for chunk_start in range(0, games, chunk):
        game_rows: list[tuple[Any, ...]] = []
        result_rows: list[tuple[Any, ...]] = []
        for offset in range(chunk_start, min(games, chunk_start + chunk)):
            game_id = first_id + offset
            finished = start_ms + rng.randrange(DAYS * MS_PER_DAY)
            players = rng.sample(range(1, PLAYERS + 1), 4)
            solo = rng.random() < 0.08
            re_seats = {rng.randrange(4)} if solo else set(rng.sample(range(4), 2))
            re_won = rng.random() < 0.55
            value = rng.randint(1, 6)
            game_rows.append(
                (
                    game_id,
                    session_id,
                    game_id,
                    _deal(rng),
                    str(rng.getrandbits(64)),
                    offset % 4,
                    finished - 600_000,
                    finished,
                    '{"format":"doko-game/1"}',
                )
            )
            for seat, player in enumerate(players):
                re = seat in re_seats
                sign = 1 if re == re_won else -1
                points = sign * value * (3 if solo and re else 1)
                result_rows.append(
                    (
                        game_id,
                        seat,
                        player,
                        "re" if re else "kontra",
                        rng.randint(0, 240),
                        points,
                        "solo_damen" if solo else "normal",
                        solo,
                        sign > 0,
                    )
                )
        yield game_rows, result_rows


async def load_games(store: Database, session_id: int, games: int) -> None:
    """Bulk-insert finished games and fold them into the standings sums."""
    first_id = int(await store.fetchval("SELECT COALESCE(MAX(id), 0) + 1 FROM games"))
    async with store.transaction():
        for game_rows, result_rows in _bulk_rows(session_id, first_id, games, seed=42):
            await store.executemany(BULK_GAME, game_rows)
            await store.executemany(BULK_RESULT, result_rows)
    if store.dialect == "postgresql":
        # Rows with explicit ids leave the identity sequence behind: move it past them so
        # create_game goes on working. And plan with statistics, as a live server's
        # autovacuum would have gathered them by the time anyone asks for a leaderboard.
        await store.execute(SYNC_GAME_IDS)
        await db.standings.rebuild_standings(store)
        await store.execute("ANALYZE")
        return
    await db.standings.rebuild_standings(store)


async def count_games(store: Database) -> int:
    """Games the store holds (``bench discord`` and ``bench soak``: one per table played)."""
    return int(await store.fetchval("SELECT COUNT(*) FROM games"))


async def count_game_actions(store: Database) -> int:
    """Game actions the store holds (``bench discord``: AI actions included)."""
    return int(await store.fetchval("SELECT COUNT(*) FROM game_actions"))


async def measure_query(call: Callable[[], Awaitable[Any]], repeat: int = 15) -> float:
    """Median milliseconds over ``repeat`` runs, after one warm-up."""
    await call()
    return statistics.median([await _timed(call) for _ in range(repeat)])


async def _month_page(store: Database, month: db.Period) -> None:
    await db.standings.count_standings(store, GUILD, month)
    await db.standings.guild_standings(store, GUILD, month, offset=20, limit=20)


@asynccontextmanager
async def scratch_store(database_url: str | None) -> AsyncIterator[Database]:
    """A new, empty store: a temporary SQLite file, or a new schema at ``database_url``."""
    if database_url is None:
        with tempfile.TemporaryDirectory(prefix="doko-bench-") as folder:
            store = await db.connect(Path(folder) / "bench.sqlite3")
            try:
                yield store
            finally:
                await store.close()
        return
    async with scratch_schema(database_url, "doko_bench") as url:
        store = await db.connect(url)
        try:
            yield store
        finally:
            await store.close()


async def run(
    games: int, appends: int, database_url: str | None = None
) -> dict[str, float | int | str]:
    async with scratch_store(database_url) as store:
        session_id = await _setup_table(store)
        append_ms = await measure_append(store, session_id, appends)
        load_start = time.perf_counter()
        await load_games(store, session_id, games)
        load_s = time.perf_counter() - load_start
        standings = await db.standings.guild_standings(store, GUILD)
        assert sum(row.games for row in standings) == 4 * games
        all_time = await measure_query(lambda: db.standings.guild_standings(store, GUILD))
        month = db.Period.month_of(date(2025, 6, 15))
        month_ms = await measure_query(lambda: db.standings.guild_standings(store, GUILD, month))
        season = db.Period.season(date(2024, 3, 1), date(2025, 2, 28))
        season_ms = await measure_query(lambda: db.standings.guild_standings(store, GUILD, season))
        # /doko rangliste and /doko statistik: a month's second page with its count, the
        # per-server ratings replayed over every game (what migration 0014 does once), the
        # rating list, and one player's games of all time (the statistics and their chart).
        page_ms = await measure_query(lambda: _month_page(store, month))
        rebuild_start = time.perf_counter()
        await db.ratings.rebuild(store)
        rebuild_s = time.perf_counter() - rebuild_start
        rating_ms = await measure_query(lambda: db.ratings.rating_list(store, GUILD, 10, limit=20))
        player_ms = await measure_query(lambda: db.standings.player_games(store, GUILD, 1))
    quantiles = statistics.quantiles(append_ms, n=100, method="inclusive")
    return {
        "db_append_ms_p50": round(statistics.median(append_ms), 3),
        "db_append_ms_p99": round(quantiles[98], 3),
        "db_leaderboard_ms": round(all_time, 3),
        "db_leaderboard_month_ms": round(month_ms, 3),
        "db_leaderboard_season_ms": round(season_ms, 3),
        "db_leaderboard_month_page_ms": round(page_ms, 3),
        "db_rating_list_ms": round(rating_ms, 3),
        "db_player_games_ms": round(player_ms, 3),
        "db_ratings_rebuild_s": round(rebuild_s, 2),
        "db_bulk_load_s": round(load_s, 2),
        "database": store.dialect,
        "games": games,
        "appends": appends,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench db", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", type=int, default=100_000, help="games stored (100000)")
    parser.add_argument("--appends", type=int, default=2000, help="actions appended (2000)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="a PostgreSQL database (postgresql://…) to measure instead of a SQLite file; "
        "the benchmark works in a new schema there and drops it afterwards",
    )
    args = parser.parse_args(argv)
    if args.database_url is not None and not is_postgres_url(args.database_url):
        parser.error("--database-url must start with postgresql://")
    figures = asyncio.run(run(args.games, args.appends, args.database_url))
    if args.json:
        sys.stdout.write(json.dumps(figures) + "\n")
    else:
        for key, value in figures.items():
            sys.stdout.write(f"{key:<28} {value}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
