"""Ratings per server and player (``guild_ratings``): OpenSkill's μ and σ and the games rated.

Ratings come from OpenSkill's Plackett-Luce model, Re against Kontra: two against two, or
the soloist alone against three. AI seats take part with a fresh default rating each game,
so beating an AI counts, but an AI's own rating is never stored. :func:`db.results.finish_game`
updates the ratings as a game is stored; this module rates, reads (one player, or the
server's rating list) and rebuilds them from the stored results. A rating list sorts by the
conservative estimate μ − 3σ and leaves out players with fewer than ``min_games`` rated
games: a newcomer's estimate says little yet.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating

from db._util import NO_LIMIT, to_ms
from db.database import Database, Row
from db.rows import RatedRow, RatingRow, SeatResult

MODEL: Final = PlackettLuce()
DEFAULT_MU: Final[float] = MODEL.mu
DEFAULT_SIGMA: Final[float] = MODEL.sigma

GET_RATING: Final = """
SELECT player_id, mu, sigma, games FROM guild_ratings WHERE guild_id = ? AND player_id = ?
"""
UPSERT_RATING: Final = """
INSERT INTO guild_ratings (guild_id, player_id, mu, sigma, games, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, player_id) DO UPDATE SET
    mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,
    updated_at = excluded.updated_at
"""
# Equal estimates share a rank, as equal points do in the standings.
RATING_LIST: Final = """
SELECT RANK() OVER (ORDER BY r.mu - 3 * r.sigma DESC) AS rank,
       r.player_id, p.display_name, r.mu, r.sigma, r.games
FROM guild_ratings r JOIN players p ON p.user_id = r.player_id
WHERE r.guild_id = ? AND r.games >= ?
ORDER BY rank, p.display_name, r.player_id
LIMIT ? OFFSET ?
"""
COUNT_RATED: Final = "SELECT COUNT(*) AS n FROM guild_ratings WHERE guild_id = ? AND games >= ?"
# Compared with the player's own row in SQL, so both sides are computed alike.
RATING_RANK: Final = """
SELECT COUNT(*) + 1 AS rank FROM guild_ratings
WHERE guild_id = ? AND games >= ? AND mu - 3 * sigma > (
    SELECT mu - 3 * sigma FROM guild_ratings WHERE guild_id = ? AND player_id = ?
)
"""
CLEAR: Final = "DELETE FROM guild_ratings"
# Every finished game's seats, oldest game first: the order the ratings were made in.
REPLAY: Final = """
SELECT t.guild_id, g.id AS game_id, g.finished_at, r.seat, r.party, r.augen, r.points,
       r.contract, r.is_solo, r.won, r.player_id, r.ai_level, r.called
FROM game_results r
JOIN games g ON g.id = r.game_id
JOIN sessions s ON s.id = g.session_id
JOIN tables t ON t.id = s.table_id
WHERE g.status = 'finished' AND t.ranked
ORDER BY g.finished_at, g.id, r.seat
"""
# Migration 0014 replays the games before a table could be unranked (0021): all count.
REPLAY_BEFORE_UNRANKED: Final = """
SELECT t.guild_id, g.id AS game_id, g.finished_at, r.seat, r.party, r.augen, r.points,
       r.contract, r.is_solo, r.won, r.player_id, r.ai_level, r.called
FROM game_results r
JOIN games g ON g.id = r.game_id
JOIN sessions s ON s.id = g.session_id
JOIN tables t ON t.id = s.table_id
WHERE g.status = 'finished'
ORDER BY g.finished_at, g.id, r.seat
"""


def rate_game(
    results: Sequence[SeatResult], ratings: Mapping[int, RatingRow]
) -> tuple[RatingRow, ...]:
    """New ratings of the human seats after a game; ``ratings`` holds their current ones.

    Players missing from ``ratings`` start at the model's default. The winning party ranks
    first; when nobody won (both parties missed their Absage) it is a draw.
    """
    teams: list[list[PlackettLuceRating]] = [[], []]
    owners: list[list[int | None]] = [[], []]
    for r in sorted(results, key=lambda r: r.seat):
        index = 0 if r.party == "re" else 1
        known = ratings.get(r.player_id) if r.player_id is not None else None
        if known is None:
            teams[index].append(MODEL.rating())
        else:
            teams[index].append(MODEL.rating(mu=known.mu, sigma=known.sigma))
        owners[index].append(r.player_id)
    re_won = any(r.won for r in results if r.party == "re")
    kontra_won = any(r.won for r in results if r.party == "kontra")
    ranks = [1.0, 2.0] if re_won else [2.0, 1.0] if kontra_won else [1.0, 1.0]
    rated = MODEL.rate(teams, ranks=ranks)
    updated: list[RatingRow] = []
    for team_owners, team in zip(owners, rated, strict=True):
        for player_id, rating in zip(team_owners, team, strict=True):
            if player_id is None:
                continue  # an AI seat: its rating is not kept
            games = ratings[player_id].games if player_id in ratings else 0
            updated.append(RatingRow(player_id, rating.mu, rating.sigma, games + 1))
    return tuple(sorted(updated, key=lambda r: r.player_id))


def _rating(row: Row) -> RatingRow:
    return RatingRow(row["player_id"], float(row["mu"]), float(row["sigma"]), int(row["games"]))


async def get_rating(db: Database, guild_id: int, player_id: int) -> RatingRow:
    """The player's rating on this server; the model's default (0 games) before their first."""
    row = await db.fetchone(GET_RATING, (guild_id, player_id))
    if row is None:
        return RatingRow(player_id, DEFAULT_MU, DEFAULT_SIGMA, 0)
    return _rating(row)


async def current_ratings(
    db: Database, guild_id: int, player_ids: Sequence[int]
) -> dict[int, RatingRow]:
    """The stored ratings of those players on this server (players not yet rated left out)."""
    found: dict[int, RatingRow] = {}
    for player_id in player_ids:
        row = await db.fetchone(GET_RATING, (guild_id, player_id))
        if row is not None:
            found[player_id] = _rating(row)
    return found


async def store_ratings(
    db: Database, guild_id: int, ratings: Sequence[RatingRow], *, now: datetime | None = None
) -> None:
    ms = to_ms(now)
    await db.executemany(
        UPSERT_RATING, [(guild_id, r.player_id, r.mu, r.sigma, r.games, ms) for r in ratings]
    )


async def rating_list(
    db: Database, guild_id: int, min_games: int, *, offset: int = 0, limit: int | None = None
) -> list[RatedRow]:
    """The server's rating list from ``offset``: players with at least ``min_games`` rated
    games, best estimate first.
    """
    row_limit = NO_LIMIT if limit is None else limit
    rows = await db.fetchall(RATING_LIST, (guild_id, min_games, row_limit, offset))
    return [RatedRow(int(r["rank"]), _rating(r), r["display_name"]) for r in rows]


async def count_rated(db: Database, guild_id: int, min_games: int) -> int:
    """How many players of the server have at least ``min_games`` rated games."""
    row = await db.fetchone(COUNT_RATED, (guild_id, min_games))
    return 0 if row is None else int(row["n"])


async def rating_rank(db: Database, guild_id: int, rating: RatingRow, min_games: int) -> int:
    """The player's place on the server's rating list (as :func:`rating_list` ranks)."""
    row = await db.fetchone(RATING_RANK, (guild_id, min_games, guild_id, rating.player_id))
    return 1 if row is None else int(row["rank"])


async def rebuild_before_unranked(db: Database) -> int:
    """:func:`rebuild` for migration 0014, before a table could be unranked."""
    return await rebuild(db, REPLAY_BEFORE_UNRANKED)


async def rebuild(db: Database, replay: str = REPLAY) -> int:
    """Recompute every server's ratings by replaying the finished games in the order they
    finished; returns the number of games replayed. Run by the migration that introduced
    per-server ratings, and a repair should they ever be doubted. An unranked table's games
    (the coach's, a challenge's) are left out.
    """
    ratings: dict[tuple[int, int], RatingRow] = {}
    stamps: dict[tuple[int, int], int] = {}
    games = 0
    async with db.transaction():
        rows = await db.fetchall(replay)
        for (guild_id, _), group in itertools.groupby(
            rows, key=lambda r: (r["guild_id"], r["game_id"])
        ):
            seats = list(group)
            results = [SeatResult.from_row(row) for row in seats]
            known = {
                r.player_id: ratings[guild_id, r.player_id]
                for r in results
                if r.player_id is not None and (guild_id, r.player_id) in ratings
            }
            for updated in rate_game(results, known):
                ratings[guild_id, updated.player_id] = updated
                stamps[guild_id, updated.player_id] = seats[0]["finished_at"]
            games += 1
        await db.execute(CLEAR)
        await db.executemany(
            UPSERT_RATING,
            [
                (guild_id, r.player_id, r.mu, r.sigma, r.games, stamps[guild_id, pid])
                for (guild_id, pid), r in ratings.items()
            ],
        )
    return games
