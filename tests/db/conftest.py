"""Fixtures for the store tests: a fresh database per test, and a table ready to play.

``store`` runs each test on SQLite and on PostgreSQL (``database_target`` in tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

import db
from db import Database

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CARLA, DIETER = 11, 12, 13, 14

DEAL = {
    "hands": [
        ["CQ", "H10", "DA", "S9"],
        ["CJ", "HA", "C10", "SK"],
        ["DQ", "DJ", "CA", "H9"],
        ["SQ", "HJ", "SA", "D10"],
    ]
}


def at(year: int, month: int, day: int, hour: int = 12) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


@pytest.fixture
async def store(database_target: str | Path) -> AsyncIterator[Database]:
    database = await db.connect(database_target)
    try:
        yield database
    finally:
        await database.close()


@dataclass(frozen=True)
class Table:
    table: db.TableRow
    session: db.SessionRow


@pytest.fixture
async def table(store: Database) -> Table:
    """A playing table in GUILD with Alice, Bob, Carla and Dieter, and its session."""
    for user_id, name in [(ALICE, "Alice"), (BOB, "Bob"), (CARLA, "Carla"), (DIETER, "Dieter")]:
        await db.players.upsert_player(store, user_id, name)
    row = await db.tables.create_table(
        store,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        rules={},
        games_per_session=24,
        turn_timer_s=60,
        status="playing",
    )
    for seat, user_id in enumerate([ALICE, BOB, CARLA, DIETER]):
        await db.tables.set_seat(store, row.id, seat, user_id=user_id)
    session = await db.sessions.create_session(store, row.id, games_per_round=24, dealer=0)
    return Table(row, session)


async def new_game(store: Database, session_id: int, number: int) -> db.GameRow:
    return await db.games.create_game(
        store,
        session_id,
        number=number,
        ruleset={},
        deal=DEAL,
        seed=number,
        dealer=(number - 1) % 4,
    )


def normal_results(
    re_seats: tuple[int, int],
    value: int,
    players: tuple[int | None, int | None, int | None, int | None] = (ALICE, BOB, CARLA, DIETER),
    *,
    draw: bool = False,
) -> list[db.SeatResult]:
    """A normal game: Re won ``value`` points each (lost when negative)."""
    results = []
    for seat, player in enumerate(players):
        re = seat in re_seats
        points = value if re else -value
        results.append(
            db.SeatResult(
                seat=seat,
                party="re" if re else "kontra",
                augen=130 if re else 110,
                points=0 if draw else points,
                contract="normal",
                is_solo=False,
                won=not draw and points > 0,
                player_id=player,
                ai_level=None if player is not None else "mittel",
            )
        )
    return results


def solo_results(soloist: int, value: int, contract: str = "solo_damen") -> list[db.SeatResult]:
    """A solo: the soloist gets three times ``value`` (negative: the solo was lost)."""
    players = (ALICE, BOB, CARLA, DIETER)
    return [
        db.SeatResult(
            seat=seat,
            party="re" if seat == soloist else "kontra",
            augen=150 if seat == soloist else 30,
            points=3 * value if seat == soloist else -value,
            contract=contract,
            is_solo=True,
            won=(seat == soloist) == (value > 0),
            player_id=players[seat],
        )
        for seat in range(4)
    ]


async def play(
    store: Database,
    session_id: int,
    number: int,
    results: list[db.SeatResult],
    when: datetime | None = None,
) -> tuple[db.RatingRow, ...]:
    game = await new_game(store, session_id, number)
    return await db.results.finish_game(
        store, game.id, results, {"format": "doko-game/1"}, now=when
    )
