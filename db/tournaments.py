"""Tournaments: the field, each round's tables and seats, corrections (the audit log).

Repository functions like the others in :mod:`db`: the :class:`~db.database.Database`
first, SQL constants with ``?`` parameters, frozen rows back. A seat's occupant is a
registered player (``user_id``) or AI substitute number ``substitute``; in the JSON score
lists of corrections a substitute is written as ``-n`` (Discord ids are positive).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Final, Literal

from db._util import dump_json, from_ms, load_json, opt_from_ms, to_ms
from db.database import Database, Row
from db.errors import NotFoundError
from db.rows import AILevel, DisconnectPolicy, JSONDict

TournamentStatus = Literal["open", "running", "paused", "ending", "finished"]
EntrantStatus = Literal["registered", "withdrawn", "replaced"]
TournamentTableStatus = Literal["seating", "playing", "finished"]
Seating = Literal["mixing", "standing"]
ScoreList = list[list[int]]
"""``[[participant, points], ...]`` with substitutes as ``-n``."""


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    preset: str
    rules: JSONDict
    rounds: int
    games_per_round: int
    seating: Seating
    seed: int
    status: TournamentStatus
    current_round: int
    starts_at: datetime | None
    created_at: datetime
    ai_level: AILevel  # empty seats and stand-ins at its tables
    disconnect_policy: DisconnectPolicy  # what an expired turn timer means at its tables


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A registered (or since withdrawn or replaced) player of a tournament."""

    tournament_id: int
    user_id: int
    display_name: str
    status: EntrantStatus
    registered_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentTableRow:
    """One table of one round; ``table_id`` is the engine table once it is opened."""

    id: int
    tournament_id: int
    round_number: int
    number: int
    table_id: int | None
    channel_id: int
    first_dealer: int
    status: TournamentTableStatus


@dataclass(frozen=True, slots=True)
class TournamentSeatRow:
    """Who plays ``seat`` of a tournament table from game ``from_game`` on."""

    tournament_table_id: int
    seat: int
    from_game: int
    user_id: int | None
    substitute: int | None


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """An organiser's correction of one game's scores: the audit log."""

    id: int
    tournament_id: int
    round_number: int
    table_number: int
    game_number: int
    before: ScoreList
    after: ScoreList
    reason: str
    by_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class FinishedGameRow:
    """A finished game of an engine table: its number and ``doko-game/1`` record.

    ``sitting_out`` is the table seat who dealt and sat out at a five-player table.
    """

    table_id: int
    number: int
    record: JSONDict
    game_id: int = 0
    sitting_out: int | None = None


# -- tournaments -----------------------------------------------------------------------

_COLUMNS: Final = """id, guild_id, channel_id, organiser_id, name, preset, rules, rounds,
    games_per_round, seating, seed, status, current_round, starts_at, created_at, ai_level,
    disconnect_policy"""
INSERT_TOURNAMENT: Final = f"""
INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, preset, rules, rounds,
    games_per_round, seating, seed, status, current_round, starts_at, created_at, updated_at,
    ai_level, disconnect_policy)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', 0, ?, ?, ?, ?, ?)
RETURNING {_COLUMNS}
"""
GET_TOURNAMENT: Final = f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?"
LIST_GUILD_TOURNAMENTS: Final = f"""
SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC
"""
LIST_ACTIVE_TOURNAMENTS: Final = f"""
SELECT {_COLUMNS} FROM tournaments WHERE status <> 'finished' ORDER BY id
"""
UPDATE_TOURNAMENT: Final = f"""
UPDATE tournaments SET status = ?, current_round = ?, starts_at = ?, updated_at = ?
WHERE id = ?
RETURNING {_COLUMNS}
"""


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        preset=row["preset"],
        rules=load_json(row["rules"]),
        rounds=row["rounds"],
        games_per_round=row["games_per_round"],
        seating=row["seating"],
        seed=int(row["seed"]),
        status=row["status"],
        current_round=row["current_round"],
        starts_at=opt_from_ms(row["starts_at"]),
        created_at=from_ms(row["created_at"]),
        ai_level=row["ai_level"],
        disconnect_policy=row["disconnect_policy"],
    )


async def create_tournament(
    db: Database,
    *,
    guild_id: int,
    channel_id: int,
    organiser_id: int,
    name: str,
    preset: str,
    rules: JSONDict,
    rounds: int,
    games_per_round: int,
    seating: Seating,
    seed: int,
    starts_at: datetime | None,
    ai_level: AILevel = "mittel",
    disconnect_policy: DisconnectPolicy = "bot",
    now: datetime | None = None,
) -> TournamentRow:
    """A new tournament, open for registration."""
    ms = to_ms(now)
    row = await db.fetchone(
        INSERT_TOURNAMENT,
        (
            guild_id,
            channel_id,
            organiser_id,
            name,
            preset,
            dump_json(rules),
            rounds,
            games_per_round,
            seating,
            str(seed),
            None if starts_at is None else to_ms(starts_at),
            ms,
            ms,
            ai_level,
            disconnect_policy,
        ),
    )
    assert row is not None
    return _tournament(row)


async def get_tournament(db: Database, tournament_id: int) -> TournamentRow:
    row = await db.fetchone(GET_TOURNAMENT, (tournament_id,))
    if row is None:
        raise NotFoundError(f"no tournament {tournament_id}")
    return _tournament(row)


async def list_guild_tournaments(db: Database, guild_id: int) -> list[TournamentRow]:
    """A guild's tournaments, newest first."""
    return [_tournament(r) for r in await db.fetchall(LIST_GUILD_TOURNAMENTS, (guild_id,))]


async def list_active_tournaments(db: Database) -> list[TournamentRow]:
    """Every tournament not finished yet (restart recovery)."""
    return [_tournament(r) for r in await db.fetchall(LIST_ACTIVE_TOURNAMENTS)]


async def update_tournament(
    db: Database,
    tournament: TournamentRow,
    *,
    status: TournamentStatus | None = None,
    current_round: int | None = None,
    now: datetime | None = None,
) -> TournamentRow:
    row = await db.fetchone(
        UPDATE_TOURNAMENT,
        (
            status or tournament.status,
            tournament.current_round if current_round is None else current_round,
            None if tournament.starts_at is None else to_ms(tournament.starts_at),
            to_ms(now),
            tournament.id,
        ),
    )
    if row is None:
        raise NotFoundError(f"no tournament {tournament.id}")
    return _tournament(row)


# -- the field -------------------------------------------------------------------------

UPSERT_ENTRANT: Final = """
INSERT INTO tournament_players (tournament_id, user_id, status, registered_at)
VALUES (?, ?, ?, ?)
ON CONFLICT (tournament_id, user_id) DO UPDATE SET status = excluded.status
"""
LIST_ENTRANTS: Final = """
SELECT e.tournament_id, e.user_id, p.display_name, e.status, e.registered_at
FROM tournament_players e JOIN players p ON p.user_id = e.user_id
WHERE e.tournament_id = ? ORDER BY e.registered_at, e.user_id
"""


async def set_entrant(
    db: Database,
    tournament_id: int,
    user_id: int,
    status: EntrantStatus,
    *,
    now: datetime | None = None,
) -> None:
    """Register a player, or change a known entrant's status (withdrawn, replaced)."""
    await db.execute(UPSERT_ENTRANT, (tournament_id, user_id, status, to_ms(now)))


async def list_entrants(db: Database, tournament_id: int) -> list[EntrantRow]:
    """Everyone who ever registered, in order of registration."""
    return [
        EntrantRow(
            r["tournament_id"],
            r["user_id"],
            r["display_name"],
            r["status"],
            from_ms(r["registered_at"]),
        )
        for r in await db.fetchall(LIST_ENTRANTS, (tournament_id,))
    ]


# -- tables and seats ------------------------------------------------------------------

_TABLE_COLUMNS: Final = (
    "id, tournament_id, round_number, number, table_id, channel_id, first_dealer, status"
)
INSERT_TABLE: Final = f"""
INSERT INTO tournament_tables (tournament_id, round_number, number, table_id, channel_id,
    first_dealer, status)
VALUES (?, ?, ?, NULL, ?, ?, 'seating')
RETURNING {_TABLE_COLUMNS}
"""
SET_TABLE: Final = f"""
UPDATE tournament_tables SET table_id = ?, status = ? WHERE id = ?
RETURNING {_TABLE_COLUMNS}
"""
LIST_TABLES: Final = f"""
SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = ?
ORDER BY round_number, number
"""
INSERT_SEAT: Final = """
INSERT INTO tournament_seats (tournament_table_id, seat, from_game, user_id, substitute)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (tournament_table_id, seat, from_game) DO UPDATE SET
    user_id = excluded.user_id, substitute = excluded.substitute
"""
LIST_SEATS: Final = """
SELECT s.tournament_table_id, s.seat, s.from_game, s.user_id, s.substitute
FROM tournament_seats s JOIN tournament_tables t ON t.id = s.tournament_table_id
WHERE t.tournament_id = ? ORDER BY s.tournament_table_id, s.seat, s.from_game
"""


def _ttable(row: Row) -> TournamentTableRow:
    return TournamentTableRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round_number=row["round_number"],
        number=row["number"],
        table_id=row["table_id"],
        channel_id=row["channel_id"],
        first_dealer=row["first_dealer"],
        status=row["status"],
    )


async def add_table(
    db: Database,
    tournament_id: int,
    round_number: int,
    number: int,
    *,
    channel_id: int,
    first_dealer: int,
) -> TournamentTableRow:
    row = await db.fetchone(
        INSERT_TABLE, (tournament_id, round_number, number, channel_id, first_dealer)
    )
    assert row is not None
    return _ttable(row)


async def set_table(
    db: Database, tournament_table_id: int, *, table_id: int | None, status: TournamentTableStatus
) -> TournamentTableRow:
    row = await db.fetchone(SET_TABLE, (table_id, status, tournament_table_id))
    if row is None:
        raise NotFoundError(f"no tournament table {tournament_table_id}")
    return _ttable(row)


async def list_tables(db: Database, tournament_id: int) -> list[TournamentTableRow]:
    """Every table of every round so far."""
    return [_ttable(r) for r in await db.fetchall(LIST_TABLES, (tournament_id,))]


async def set_seat(
    db: Database,
    tournament_table_id: int,
    seat: int,
    *,
    from_game: int = 1,
    user_id: int | None = None,
    substitute: int | None = None,
) -> None:
    """``seat`` is played by a player or a substitute from game ``from_game`` on."""
    if (user_id is None) == (substitute is None):
        raise ValueError("a seat is taken by a player or by a substitute")
    await db.execute(INSERT_SEAT, (tournament_table_id, seat, from_game, user_id, substitute))


async def list_seats(db: Database, tournament_id: int) -> list[TournamentSeatRow]:
    return [
        TournamentSeatRow(
            r["tournament_table_id"], r["seat"], r["from_game"], r["user_id"], r["substitute"]
        )
        for r in await db.fetchall(LIST_SEATS, (tournament_id,))
    ]


# -- the games played ------------------------------------------------------------------

LIST_FINISHED_GAMES: Final = """
SELECT s.table_id, g.number, g.record, g.id, g.sitting_out
FROM games g JOIN sessions s ON s.id = g.session_id
WHERE s.table_id = ? AND g.status = 'finished' AND g.record IS NOT NULL
ORDER BY g.number
"""


async def finished_games(db: Database, table_id: int) -> list[FinishedGameRow]:
    """An engine table's finished games by number, with their records."""
    return [
        FinishedGameRow(
            r["table_id"], r["number"], load_json(r["record"]), r["id"], r["sitting_out"]
        )
        for r in await db.fetchall(LIST_FINISHED_GAMES, (table_id,))
    ]


# -- corrections (the audit log) ---------------------------------------------------------

_CORRECTION_COLUMNS: Final = """id, tournament_id, round_number, table_number, game_number,
    scores_before, scores_after, reason, by_id, created_at"""
INSERT_CORRECTION: Final = f"""
INSERT INTO tournament_corrections (tournament_id, round_number, table_number, game_number,
    scores_before, scores_after, reason, by_id, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING {_CORRECTION_COLUMNS}
"""
LIST_CORRECTIONS: Final = f"""
SELECT {_CORRECTION_COLUMNS} FROM tournament_corrections WHERE tournament_id = ? ORDER BY id
"""


def _correction(row: Row) -> CorrectionRow:
    return CorrectionRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round_number=row["round_number"],
        table_number=row["table_number"],
        game_number=row["game_number"],
        before=load_json(row["scores_before"]),
        after=load_json(row["scores_after"]),
        reason=row["reason"],
        by_id=row["by_id"],
        created_at=from_ms(row["created_at"]),
    )


async def add_correction(
    db: Database,
    tournament_id: int,
    *,
    round_number: int,
    table_number: int,
    game_number: int,
    before: ScoreList,
    after: ScoreList,
    reason: str,
    by_id: int,
    now: datetime,
) -> CorrectionRow:
    row = await db.fetchone(
        INSERT_CORRECTION,
        (
            tournament_id,
            round_number,
            table_number,
            game_number,
            dump_json(before),
            dump_json(after),
            reason,
            by_id,
            to_ms(now),
        ),
    )
    assert row is not None
    return _correction(row)


async def list_corrections(db: Database, tournament_id: int) -> list[CorrectionRow]:
    """The audit log, oldest first."""
    return [_correction(r) for r in await db.fetchall(LIST_CORRECTIONS, (tournament_id,))]
