"""Finishing a game: its results, the guild's standings sums and the players' ratings.

The ratings (per server, :mod:`db.ratings`) are updated in the same transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final

from db import ratings
from db._util import MS_PER_DAY, dump_json, to_ms
from db.database import Database
from db.errors import GameNotRunningError, NotFoundError
from db.ratings import DEFAULT_MU as DEFAULT_MU  # re-exported: where the model once lived
from db.ratings import rate_game
from db.rows import JSONDict, RatingRow, SeatResult

log = logging.getLogger(__name__)

GAME_FOR_FINISH: Final = """
SELECT g.status, t.guild_id, t.ranked
FROM games g JOIN sessions s ON s.id = g.session_id JOIN tables t ON t.id = s.table_id
WHERE g.id = ?
"""
INSERT_RESULT: Final = """
INSERT INTO game_results (game_id, seat, player_id, ai_level, party, augen, points, contract,
    is_solo, won, called)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
MARK_FINISHED: Final = """
UPDATE games SET status = 'finished', finished_at = ?, record = ?
WHERE id = ? AND status = 'running'
"""
ADD_TO_DAILY: Final = """
INSERT INTO standings_daily (guild_id, player_id, day, games, points, wins, solos, solos_won,
    re_games)
VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, day, player_id) DO UPDATE SET
    games = standings_daily.games + 1,
    points = standings_daily.points + excluded.points,
    wins = standings_daily.wins + excluded.wins,
    solos = standings_daily.solos + excluded.solos,
    solos_won = standings_daily.solos_won + excluded.solos_won,
    re_games = standings_daily.re_games + excluded.re_games
"""
ADD_TO_WEEKLY: Final = """
INSERT INTO standings_weekly (guild_id, week, player_id, games, points, wins, solos,
    solos_won, re_games)
VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, week, player_id) DO UPDATE SET
    games = standings_weekly.games + 1,
    points = standings_weekly.points + excluded.points,
    wins = standings_weekly.wins + excluded.wins,
    solos = standings_weekly.solos + excluded.solos,
    solos_won = standings_weekly.solos_won + excluded.solos_won,
    re_games = standings_weekly.re_games + excluded.re_games
"""
ADD_TO_TOTAL: Final = """
INSERT INTO standings_total (guild_id, player_id, games, points, wins, solos, solos_won,
    re_games)
VALUES (?, ?, 1, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, player_id) DO UPDATE SET
    games = standings_total.games + 1,
    points = standings_total.points + excluded.points,
    wins = standings_total.wins + excluded.wins,
    solos = standings_total.solos + excluded.solos,
    solos_won = standings_total.solos_won + excluded.solos_won,
    re_games = standings_total.re_games + excluded.re_games
"""
GET_RESULTS: Final = """
SELECT seat, party, augen, points, contract, is_solo, won, player_id, ai_level, called
FROM game_results WHERE game_id = ? ORDER BY seat
"""
GAME_FOR_CORRECTION: Final = """
SELECT g.status, g.finished_at, t.guild_id, t.ranked
FROM games g JOIN sessions s ON s.id = g.session_id JOIN tables t ON t.id = s.table_id
WHERE g.id = ?
"""
SET_POINTS: Final = "UPDATE game_results SET points = ? WHERE game_id = ? AND seat = ?"
# A correction moves points only: the game still counts once, as won or lost as it was played.
SHIFT_DAILY: Final = """
UPDATE standings_daily SET points = points + ? WHERE guild_id = ? AND day = ? AND player_id = ?
"""
SHIFT_WEEKLY: Final = """
UPDATE standings_weekly SET points = points + ? WHERE guild_id = ? AND week = ? AND player_id = ?
"""
SHIFT_TOTAL: Final = """
UPDATE standings_total SET points = points + ? WHERE guild_id = ? AND player_id = ?
"""


def validate_results(results: Sequence[SeatResult]) -> None:
    """Refuse results that cannot belong to one Doppelkopf game (``ValueError``)."""
    if sorted(r.seat for r in results) != [0, 1, 2, 3]:
        raise ValueError(f"need one result per seat 0..3, got seats {[r.seat for r in results]}")
    if sum(r.points for r in results) != 0:
        raise ValueError(f"points must sum to zero, got {[r.points for r in results]}")
    for r in results:
        if (r.player_id is None) == (r.ai_level is None):
            raise ValueError(f"seat {r.seat}: give exactly one of player_id and ai_level")
    humans = [r.player_id for r in results if r.player_id is not None]
    if len(set(humans)) != len(humans):
        raise ValueError(f"a player holds two seats: {humans}")
    re = [r for r in results if r.party == "re"]
    kontra = [r for r in results if r.party == "kontra"]
    if not re or not kontra:
        raise ValueError("both parties need at least one seat")
    for party in (re, kontra):
        if len({r.won for r in party}) != 1:
            raise ValueError(f"the {party[0].party} seats disagree on whether they won")
    if re[0].won and kontra[0].won:
        raise ValueError("Re and Kontra cannot both have won")
    if len({r.is_solo for r in results}) != 1:
        raise ValueError("is_solo must be the same for every seat")
    if results[0].is_solo and len(re) != 1:
        raise ValueError(f"a solo has one Re seat (the soloist), got {len(re)}")


async def finish_game(
    db: Database,
    game_id: int,
    results: Sequence[SeatResult],
    record: JSONDict,
    *,
    now: datetime | None = None,
) -> tuple[RatingRow, ...]:
    """Store a running game's outcome in one transaction; returns the humans' new ratings.

    Writes the four seat results and the final ``doko-game/1`` record, marks the game
    finished, adds to the guild's standings sums and updates the players' OpenSkill ratings
    on this guild.
    """
    validate_results(results)
    finished_ms = to_ms(now)
    async with db.transaction():
        game = await db.fetchone(GAME_FOR_FINISH, (game_id,))
        if game is None:
            raise NotFoundError(f"no game {game_id}")
        if game["status"] != "running":
            raise GameNotRunningError(f"game {game_id} is already {game['status']}")
        guild_id = game["guild_id"]
        await db.executemany(
            INSERT_RESULT,
            [
                (
                    game_id,
                    r.seat,
                    r.player_id,
                    r.ai_level,
                    r.party,
                    r.augen,
                    r.points,
                    r.contract,
                    r.is_solo,
                    r.won,
                    r.called,
                )
                for r in results
            ],
        )
        await db.execute(MARK_FINISHED, (finished_ms, dump_json(record), game_id))
        day = finished_ms // MS_PER_DAY
        if not game["ranked"]:
            return ()  # with the coach's help or a challenge's: no standings, no ratings
        humans = [r for r in results if r.player_id is not None]
        sums = [
            (
                r.points,
                int(r.won),
                int(r.is_solo and r.party == "re"),
                int(r.is_solo and r.party == "re" and r.won),
                int(r.party == "re"),
            )
            for r in humans
        ]
        await db.executemany(
            ADD_TO_DAILY,
            [(guild_id, r.player_id, day, *s) for r, s in zip(humans, sums, strict=True)],
        )
        await db.executemany(
            ADD_TO_WEEKLY,
            [(guild_id, day // 7, r.player_id, *s) for r, s in zip(humans, sums, strict=True)],
        )
        await db.executemany(
            ADD_TO_TOTAL,
            [(guild_id, r.player_id, *s) for r, s in zip(humans, sums, strict=True)],
        )
        if not humans:
            return ()
        ids = [r.player_id for r in humans if r.player_id is not None]
        updated = rate_game(results, await ratings.current_ratings(db, guild_id, ids))
        await ratings.store_ratings(db, guild_id, updated, now=now)
    log.debug("game %s finished; ratings %s", game_id, updated)
    return updated


async def correct_points(db: Database, game_id: int, points: Mapping[int, int]) -> None:
    """Rescore a finished game (an organiser's correction): new points by game seat.

    The seats' results and the guild's standings sums move by the difference, in one
    transaction, so the leaderboard shows the corrected scores and a rebuild of the sums
    from ``game_results`` agrees. Games, wins and ratings stay as the game was played.
    """
    async with db.transaction():
        game = await db.fetchone(GAME_FOR_CORRECTION, (game_id,))
        if game is None:
            raise NotFoundError(f"no game {game_id}")
        if game["status"] != "finished":
            raise GameNotRunningError(f"game {game_id} is {game['status']}, not finished")
        current = {r.seat: r for r in await get_results(db, game_id)}
        if not set(points) <= set(current):
            raise ValueError(f"game {game_id} has no seat {sorted(set(points) - set(current))}")
        new = {seat: points.get(seat, r.points) for seat, r in current.items()}
        if sum(new.values()) != 0:
            raise ValueError(f"points must sum to zero, got {new}")
        day = game["finished_at"] // MS_PER_DAY
        guild_id = game["guild_id"]
        for seat, result in current.items():
            delta = new[seat] - result.points
            if delta == 0:
                continue
            await db.execute(SET_POINTS, (new[seat], game_id, seat))
            if result.player_id is None or not game["ranked"]:
                continue  # an AI seat, an unranked table's game: no standings
            await db.execute(SHIFT_DAILY, (delta, guild_id, day, result.player_id))
            await db.execute(SHIFT_WEEKLY, (delta, guild_id, day // 7, result.player_id))
            await db.execute(SHIFT_TOTAL, (delta, guild_id, result.player_id))
    log.info("game %s corrected: %s", game_id, new)


async def get_results(db: Database, game_id: int) -> list[SeatResult]:
    """A finished game's results by seat (empty for a game not finished)."""
    return [SeatResult.from_row(row) for row in await db.fetchall(GET_RESULTS, (game_id,))]
