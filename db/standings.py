"""Standings: the guild leaderboard and a session's Spielliste.

The guild leaderboard reads the sums that :func:`db.results.finish_game` keeps per guild
and player: per UTC day, per seven-day block and for all time. A period adds up its whole
blocks and the few days at its edges, so the cost grows with players, not with games.
A session's standings are summed from its few game results directly. Equal points share
a rank: 1, 2, 2, 4.
"""

from __future__ import annotations

from typing import Final

from db._util import MS_PER_DAY, NO_LIMIT, day_number, from_ms
from db.database import Database, Row
from db.rows import Period, PlayerGameRow, StandingRow

# The open ends of a period: the widest days a 32-bit INTEGER holds, as PostgreSQL's
# INTEGER is 32 bits and refuses a parameter beyond (SQLite's would take any size).
_FIRST_DAY: Final = -(2**31)
_LAST_DAY: Final = 2**31 - 1

GUILD_ALL_TIME: Final = """
SELECT RANK() OVER (ORDER BY s.points DESC) AS rank,
       s.player_id, p.display_name, NULL AS ai_level, NULL AS seat,
       s.games, s.points, s.wins, s.solos, s.solos_won, s.re_games
FROM standings_total s JOIN players p ON p.user_id = s.player_id
WHERE s.guild_id = ?
ORDER BY rank, p.display_name, s.player_id
LIMIT ? OFFSET ?
"""
# Whole weeks from standings_weekly, the edge days from standings_daily; sums first and
# names after, as joining players per bucket row would double the cost.
GUILD_PERIOD: Final = """
WITH parts AS (
    SELECT player_id, games, points, wins, solos, solos_won, re_games
    FROM standings_weekly WHERE guild_id = ? AND week BETWEEN ? AND ?
    UNION ALL
    SELECT player_id, games, points, wins, solos, solos_won, re_games
    FROM standings_daily WHERE guild_id = ? AND day BETWEEN ? AND ?
    UNION ALL
    SELECT player_id, games, points, wins, solos, solos_won, re_games
    FROM standings_daily WHERE guild_id = ? AND day BETWEEN ? AND ?
), sums AS (
    SELECT player_id, SUM(games) AS games, SUM(points) AS points, SUM(wins) AS wins,
           SUM(solos) AS solos, SUM(solos_won) AS solos_won, SUM(re_games) AS re_games
    FROM parts
    GROUP BY player_id
)
SELECT RANK() OVER (ORDER BY s.points DESC) AS rank,
       s.player_id, p.display_name, NULL AS ai_level, NULL AS seat,
       s.games, s.points, s.wins, s.solos, s.solos_won, s.re_games
FROM sums s JOIN players p ON p.user_id = s.player_id
ORDER BY rank, p.display_name, s.player_id
LIMIT ? OFFSET ?
"""
COUNT_ALL_TIME: Final = "SELECT COUNT(*) AS n FROM standings_total WHERE guild_id = ?"
COUNT_PERIOD: Final = """
SELECT COUNT(DISTINCT player_id) AS n FROM (
    SELECT player_id FROM standings_weekly WHERE guild_id = ? AND week BETWEEN ? AND ?
    UNION ALL
    SELECT player_id FROM standings_daily WHERE guild_id = ? AND day BETWEEN ? AND ?
    UNION ALL
    SELECT player_id FROM standings_daily WHERE guild_id = ? AND day BETWEEN ? AND ?
) AS parts
"""
# One player's finished games on one server, oldest first: their statistics and the chart
# of their running points (found by the index on game_results.player_id).
PLAYER_GAMES: Final = """
SELECT g.id AS game_id, g.finished_at, r.party, r.points, r.is_solo, r.won, r.called
FROM game_results r
JOIN games g ON g.id = r.game_id
JOIN sessions s ON s.id = g.session_id
JOIN tables t ON t.id = s.table_id
WHERE r.player_id = ? AND t.guild_id = ? AND g.status = 'finished' AND t.ranked
  AND g.finished_at BETWEEN ? AND ?
ORDER BY g.finished_at, g.id
"""
# Humans are grouped by player, AI seats by seat (an AI has no identity beyond its seat).
SESSION: Final = """
SELECT RANK() OVER (ORDER BY SUM(r.points) DESC) AS rank,
       r.player_id, p.display_name, MAX(r.ai_level) AS ai_level,
       CASE WHEN r.player_id IS NULL THEN MIN(r.seat) END AS seat,
       COUNT(*) AS games, SUM(r.points) AS points,
       SUM(CASE WHEN r.won THEN 1 ELSE 0 END) AS wins,
       SUM(CASE WHEN r.is_solo AND r.party = 're' THEN 1 ELSE 0 END) AS solos,
       SUM(CASE WHEN r.is_solo AND r.party = 're' AND r.won THEN 1 ELSE 0 END) AS solos_won,
       SUM(CASE WHEN r.party = 're' THEN 1 ELSE 0 END) AS re_games
FROM game_results r
JOIN games g ON g.id = r.game_id
LEFT JOIN players p ON p.user_id = r.player_id
WHERE g.session_id = ? AND g.status = 'finished'
GROUP BY r.player_id, p.display_name, CASE WHEN r.player_id IS NULL THEN r.seat END
ORDER BY rank, p.display_name IS NULL, p.display_name, seat
"""

# Recomputes the sums from game_results (the same arithmetic as migration 0002): the
# benchmark's bulk load uses it, and it repairs the sums should they ever be doubted.
CLEAR_DAILY: Final = "DELETE FROM standings_daily"
CLEAR_WEEKLY: Final = "DELETE FROM standings_weekly"
CLEAR_TOTAL: Final = "DELETE FROM standings_total"
REBUILD_DAILY: Final = """
INSERT INTO standings_daily
    (guild_id, player_id, day, games, points, wins, solos, solos_won, re_games)
SELECT t.guild_id, r.player_id, g.finished_at / 86400000,
       COUNT(*), SUM(r.points),
       SUM(CASE WHEN r.won THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.is_solo AND r.party = 're' THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.is_solo AND r.party = 're' AND r.won THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.party = 're' THEN 1 ELSE 0 END)
FROM game_results r
JOIN games g ON g.id = r.game_id
JOIN sessions s ON s.id = g.session_id
JOIN tables t ON t.id = s.table_id
WHERE g.status = 'finished' AND r.player_id IS NOT NULL AND t.ranked
GROUP BY t.guild_id, r.player_id, g.finished_at / 86400000
"""
REBUILD_WEEKLY: Final = """
INSERT INTO standings_weekly
    (guild_id, week, player_id, games, points, wins, solos, solos_won, re_games)
SELECT guild_id, day / 7, player_id, SUM(games), SUM(points), SUM(wins), SUM(solos),
       SUM(solos_won), SUM(re_games)
FROM standings_daily
GROUP BY guild_id, day / 7, player_id
"""
REBUILD_TOTAL: Final = """
INSERT INTO standings_total
    (guild_id, player_id, games, points, wins, solos, solos_won, re_games)
SELECT guild_id, player_id, SUM(games), SUM(points), SUM(wins), SUM(solos), SUM(solos_won),
       SUM(re_games)
FROM standings_daily
GROUP BY guild_id, player_id
"""


def split_days(first: int, last: int) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Cover days ``first..last`` by whole weeks (day // 7) and the days before and after.

    Returns inclusive (week range, head day range, tail day range); an empty range has its
    start after its end.
    """
    first_week = -(-first // 7)  # the first week that starts on or after ``first``
    last_week = (last + 1) // 7 - 1  # the last week that ends on or before ``last``
    if first_week > last_week:
        return (1, 0), (first, last), (1, 0)
    return (first_week, last_week), (first, 7 * first_week - 1), (7 * (last_week + 1), last)


def _standing(row: Row) -> StandingRow:
    return StandingRow(
        rank=int(row["rank"]),
        player_id=row["player_id"],
        display_name=row["display_name"],
        ai_level=row["ai_level"],
        seat=row["seat"],
        games=int(row["games"]),
        points=int(row["points"]),
        wins=int(row["wins"]),
        solos=int(row["solos"]),
        solos_won=int(row["solos_won"]),
        re_games=int(row["re_games"]),
    )


def _period_days(period: Period) -> tuple[int, int, int, int, int, int]:
    """The period's weeks and edge days, as the period queries take them."""
    first = _FIRST_DAY if period.first_day is None else day_number(period.first_day)
    last = _LAST_DAY if period.last_day is None else day_number(period.last_day)
    weeks, head, tail = split_days(first, last)
    return (*weeks, *head, *tail)


async def guild_standings(
    db: Database,
    guild_id: int,
    period: Period | None = None,
    *,
    limit: int | None = None,
    offset: int = 0,
) -> list[StandingRow]:
    """The guild's leaderboard (humans only) over ``period`` (default: all time); ``offset``
    and ``limit`` cut one page out of it, the ranks stay those of the whole list.
    """
    period = period or Period.all_time()
    row_limit = NO_LIMIT if limit is None else limit
    if period.is_all_time:
        rows = await db.fetchall(GUILD_ALL_TIME, (guild_id, row_limit, offset))
    else:
        w1, w2, h1, h2, t1, t2 = _period_days(period)
        rows = await db.fetchall(
            GUILD_PERIOD,
            (guild_id, w1, w2, guild_id, h1, h2, guild_id, t1, t2, row_limit, offset),
        )
    return [_standing(row) for row in rows]


async def count_standings(db: Database, guild_id: int, period: Period | None = None) -> int:
    """How many players the guild's leaderboard over ``period`` lists."""
    period = period or Period.all_time()
    if period.is_all_time:
        row = await db.fetchone(COUNT_ALL_TIME, (guild_id,))
    else:
        w1, w2, h1, h2, t1, t2 = _period_days(period)
        row = await db.fetchone(
            COUNT_PERIOD, (guild_id, w1, w2, guild_id, h1, h2, guild_id, t1, t2)
        )
    return 0 if row is None else int(row["n"])


async def player_games(
    db: Database, guild_id: int, player_id: int, period: Period | None = None
) -> list[PlayerGameRow]:
    """The player's finished games on this guild within ``period``, oldest first."""
    period = period or Period.all_time()
    first = _FIRST_DAY if period.first_day is None else day_number(period.first_day)
    last = _LAST_DAY if period.last_day is None else day_number(period.last_day)
    # Milliseconds: the first of the first day to the last of the last (a BIGINT column).
    params = (player_id, guild_id, first * MS_PER_DAY, (last + 1) * MS_PER_DAY - 1)
    return [
        PlayerGameRow(
            game_id=row["game_id"],
            finished_at=from_ms(row["finished_at"]),
            party=row["party"],
            points=int(row["points"]),
            is_solo=bool(row["is_solo"]),
            won=bool(row["won"]),
            called=bool(row["called"]),
        )
        for row in await db.fetchall(PLAYER_GAMES, params)
    ]


async def player_standing(
    db: Database, guild_id: int, player_id: int, period: Period | None = None
) -> StandingRow | None:
    """One player's line of the guild leaderboard (with rank), or None without games."""
    for row in await guild_standings(db, guild_id, period):
        if row.player_id == player_id:
            return row
    return None


async def session_standings(db: Database, session_id: int) -> list[StandingRow]:
    """The Spielliste of one table session: every seat's sums, AI seats included."""
    return [_standing(row) for row in await db.fetchall(SESSION, (session_id,))]


async def rebuild_standings(db: Database) -> None:
    """Recompute the leaderboard sums from the stored game results."""
    async with db.transaction():
        await db.execute(CLEAR_DAILY)
        await db.execute(CLEAR_WEEKLY)
        await db.execute(CLEAR_TOTAL)
        await db.execute(REBUILD_DAILY)
        await db.execute(REBUILD_WEEKLY)
        await db.execute(REBUILD_TOTAL)
