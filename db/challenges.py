"""Server challenges: the challenge, each member's entry (their table), the dealt results.

A member's results are read from the games of their entry's table (finished games in
order: the n-th is deal n; a thrown-in deal was aborted and is not counted), so nothing is
stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from db._util import dump_json, from_ms, load_json, to_ms
from db.database import Database, Row
from db.errors import NotFoundError
from db.rows import JSONDict

ChallengeStatus = Literal["open", "ended"]

_COLUMNS: Final = (
    "id, guild_id, channel_id, creator_id, deals, seed, preset, rules, ai_level, status, "
    "ends_at, created_at"
)
INSERT_CHALLENGE: Final = f"""
INSERT INTO challenges (guild_id, channel_id, creator_id, deals, seed, preset, rules, ai_level,
    ends_at, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING {_COLUMNS}
"""
GET_CHALLENGE: Final = f"SELECT {_COLUMNS} FROM challenges WHERE id = ?"
LIST_GUILD: Final = f"SELECT {_COLUMNS} FROM challenges WHERE guild_id = ? ORDER BY id DESC"
LIST_OPEN: Final = f"SELECT {_COLUMNS} FROM challenges WHERE status = 'open' ORDER BY id"
SET_STATUS: Final = "UPDATE challenges SET status = ? WHERE id = ? AND status <> ?"
OF_TABLE: Final = f"""
SELECT {", ".join("c." + c.strip() for c in _COLUMNS.split(","))}
FROM challenges c JOIN challenge_entries e ON e.challenge_id = c.id WHERE e.table_id = ?
"""
INSERT_ENTRY: Final = """
INSERT INTO challenge_entries (challenge_id, user_id, table_id, started_at) VALUES (?, ?, ?, ?)
"""
GET_ENTRY: Final = """
SELECT challenge_id, user_id, table_id, started_at FROM challenge_entries
WHERE challenge_id = ? AND user_id = ?
"""
LIST_ENTRIES: Final = """
SELECT challenge_id, user_id, table_id, started_at FROM challenge_entries
WHERE challenge_id = ? ORDER BY started_at, user_id
"""
DEAL_RESULTS: Final = """
SELECT e.user_id, p.display_name, g.id AS game_id, g.number, g.dealer, r.seat, r.points
FROM challenge_entries e
JOIN players p ON p.user_id = e.user_id
JOIN sessions s ON s.table_id = e.table_id
JOIN games g ON g.session_id = s.id AND g.status = 'finished'
JOIN game_results r ON r.game_id = g.id AND r.player_id = e.user_id
WHERE e.challenge_id = ?
ORDER BY e.user_id, g.number
"""


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    deals: int
    seed: int
    preset: str
    rules: JSONDict
    ai_level: str
    status: ChallengeStatus
    ends_at: datetime
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EntryRow:
    """A member's go at a challenge: the table they play it at."""

    challenge_id: int
    user_id: int
    table_id: int
    started_at: datetime


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """One finished deal of one member: ``deal`` counts from 0, ``seat`` is the game seat
    and ``dealer`` the dealer's game seat of that deal.
    """

    user_id: int
    name: str
    deal: int
    game_id: int
    seat: int
    dealer: int
    points: int


def _challenge(row: Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        deals=row["deals"],
        seed=row["seed"],
        preset=row["preset"],
        rules=load_json(row["rules"]),
        ai_level=row["ai_level"],
        status=row["status"],
        ends_at=from_ms(row["ends_at"]),
        created_at=from_ms(row["created_at"]),
    )


def _entry(row: Row) -> EntryRow:
    return EntryRow(
        challenge_id=row["challenge_id"],
        user_id=row["user_id"],
        table_id=row["table_id"],
        started_at=from_ms(row["started_at"]),
    )


async def create_challenge(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    deals: int,
    seed: int,
    preset: str,
    rules: JSONDict,
    ai_level: str,
    ends_at: datetime,
    now: datetime | None = None,
) -> ChallengeRow:
    row = await db.fetchone(
        INSERT_CHALLENGE,
        (
            guild_id,
            channel_id,
            creator_id,
            deals,
            seed,
            preset,
            dump_json(rules),
            ai_level,
            to_ms(ends_at),
            to_ms(now),
        ),
    )
    assert row is not None
    return _challenge(row)


async def get_challenge(db: Database, challenge_id: int) -> ChallengeRow:
    row = await db.fetchone(GET_CHALLENGE, (challenge_id,))
    if row is None:
        raise NotFoundError(f"no challenge {challenge_id}")
    return _challenge(row)


async def list_guild_challenges(db: Database, guild_id: int) -> list[ChallengeRow]:
    """The guild's challenges, newest first."""
    return [_challenge(row) for row in await db.fetchall(LIST_GUILD, (guild_id,))]


async def list_open_challenges(db: Database) -> list[ChallengeRow]:
    return [_challenge(row) for row in await db.fetchall(LIST_OPEN)]


async def end_challenge(db: Database, challenge_id: int) -> bool:
    """Mark the challenge ended; False when it already was."""
    return await db.execute(SET_STATUS, ("ended", challenge_id, "ended")) > 0


async def challenge_of_table(db: Database, table_id: int) -> ChallengeRow | None:
    """The challenge played at ``table_id``, if it is a challenge table."""
    row = await db.fetchone(OF_TABLE, (table_id,))
    return None if row is None else _challenge(row)


async def add_entry(
    db: Database, challenge_id: int, user_id: int, table_id: int, *, now: datetime | None = None
) -> EntryRow:
    await db.execute(INSERT_ENTRY, (challenge_id, user_id, table_id, to_ms(now)))
    entry = await get_entry(db, challenge_id, user_id)
    assert entry is not None
    return entry


async def get_entry(db: Database, challenge_id: int, user_id: int) -> EntryRow | None:
    row = await db.fetchone(GET_ENTRY, (challenge_id, user_id))
    return None if row is None else _entry(row)


async def list_entries(db: Database, challenge_id: int) -> list[EntryRow]:
    return [_entry(row) for row in await db.fetchall(LIST_ENTRIES, (challenge_id,))]


async def played_deals(db: Database, challenge_id: int) -> list[PlayedDeal]:
    """Every member's finished deals, by member and deal."""
    out: list[PlayedDeal] = []
    counted: dict[int, int] = {}
    for row in await db.fetchall(DEAL_RESULTS, (challenge_id,)):
        user_id = row["user_id"]
        deal = counted.get(user_id, 0)
        counted[user_id] = deal + 1
        out.append(
            PlayedDeal(
                user_id=user_id,
                name=row["display_name"],
                deal=deal,
                game_id=row["game_id"],
                seat=row["seat"],
                dealer=row["dealer"],
                points=row["points"],
            )
        )
    return out
