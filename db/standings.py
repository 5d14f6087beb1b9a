"""Standings: the guild leaderboard and a session's Spielliste.

The guild leaderboard reads the sums that :func:`db.results.finish_game` keeps per player,
guild and UTC day (``standings_daily``) and for all time (``standings_total``), so its cost
grows with players and days, not with games. A session's standings are summed from its few
game results directly. Equal points share a rank: 1, 2, 2, 4.
"""

from __future__ import annotations

from typing import Final

from db._util import NO_LIMIT, day_number
from db.database import Database, Row
from db.rows import Period, StandingRow

_FIRST_DAY: Final = -(2**31)
_LAST_DAY: Final = 2**31

GUILD_ALL_TIME: Final = """
SELECT RANK() OVER (ORDER BY s.points DESC) AS rank,
       s.player_id, p.display_name, NULL AS ai_level, NULL AS seat,
       s.games, s.points, s.wins, s.solos, s.solos_won, s.re_games
FROM standings_total s JOIN players p ON p.user_id = s.player_id
WHERE s.guild_id = ?
ORDER BY rank, p.display_name, s.player_id
LIMIT ?
"""
GUILD_PERIOD: Final = """
SELECT RANK() OVER (ORDER BY SUM(d.points) DESC) AS rank,
       d.player_id, p.display_name, NULL AS ai_level, NULL AS seat,
       SUM(d.games) AS games, SUM(d.points) AS points, SUM(d.wins) AS wins,
       SUM(d.solos) AS solos, SUM(d.solos_won) AS solos_won, SUM(d.re_games) AS re_games
FROM standings_daily d JOIN players p ON p.user_id = d.player_id
WHERE d.guild_id = ? AND d.day BETWEEN ? AND ?
GROUP BY d.player_id, p.display_name
ORDER BY rank, p.display_name, d.player_id
LIMIT ?
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
WHERE g.status = 'finished' AND r.player_id IS NOT NULL
GROUP BY t.guild_id, r.player_id, g.finished_at / 86400000
"""
REBUILD_TOTAL: Final = """
INSERT INTO standings_total
    (guild_id, player_id, games, points, wins, solos, solos_won, re_games)
SELECT guild_id, player_id, SUM(games), SUM(points), SUM(wins), SUM(solos), SUM(solos_won),
       SUM(re_games)
FROM standings_daily
GROUP BY guild_id, player_id
"""


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


async def guild_standings(
    db: Database, guild_id: int, period: Period | None = None, *, limit: int | None = None
) -> list[StandingRow]:
    """The guild's leaderboard (humans only) over ``period`` (default: all time)."""
    period = period or Period.all_time()
    row_limit = NO_LIMIT if limit is None else limit
    if period.is_all_time:
        rows = await db.fetchall(GUILD_ALL_TIME, (guild_id, row_limit))
    else:
        first = _FIRST_DAY if period.first_day is None else day_number(period.first_day)
        last = _LAST_DAY if period.last_day is None else day_number(period.last_day)
        rows = await db.fetchall(GUILD_PERIOD, (guild_id, first, last, row_limit))
    return [_standing(row) for row in rows]


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
        await db.execute(CLEAR_TOTAL)
        await db.execute(REBUILD_DAILY)
        await db.execute(REBUILD_TOTAL)
