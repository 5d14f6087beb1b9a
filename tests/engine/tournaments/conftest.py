"""Tournament services on real SQLite files; humans are driven by scripted policies."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import db
from bot.engine import Engine
from bot.engine.tournaments import TournamentService
from bot.rules.game import Action, Announce, Declare, Reserve
from bot.rules.view import PlayerView
from db.tournaments import TournamentRow
from tests.engine.conftest import RandomAI, seed_counter

GUILD, CHANNEL, ORGANISER = 500, 600, 1


class Threads:
    """Stands in for the front end: each table gets a fresh channel id."""

    def __init__(self) -> None:
        self._ids = itertools.count(90_000)
        self.opened: list[tuple[int, int, int]] = []

    async def open_table_channel(
        self, tournament: TournamentRow, round_number: int, table_number: int
    ) -> int:
        self.opened.append((tournament.id, round_number, table_number))
        return next(self._ids)


def choose(view: PlayerView, rng: random.Random, solo_happy: bool) -> Action:
    """A scripted player: the solo-happy announce their Pflichtsolo as soon as they may;
    the others never reserve and play a solo only when vorgeführt.
    """
    legal = [a for a in view.legal if not isinstance(a, Announce)]
    owes = view.round is not None and not view.round.pflichtsolo_done[view.seat]
    reserve = [a for a in legal if isinstance(a, Reserve)]
    if reserve:
        want = solo_happy and owes
        return next((a for a in reserve if a.reserve is want), reserve[0])
    solos = [a for a in legal if isinstance(a, Declare) and a.contract.is_declared_solo]
    if solos:
        return solos[0]
    return rng.choice(legal)


@dataclass
class Site:
    path: Path
    threads: Threads = field(default_factory=Threads)
    store: db.Database | None = None
    engine: Engine | None = None
    service: TournamentService | None = None
    shy: set[int] = field(default_factory=set)
    rng: random.Random = field(default_factory=lambda: random.Random(5))

    async def open(self, seeds: Callable[[], int] | None = None) -> TournamentService:
        self.store = await db.connect(self.path)
        self.engine = Engine(
            self.store, ai=RandomAI(), seeds=seeds or seed_counter(), ai_in_thread=False
        )
        await self.engine.start()
        self.service = TournamentService(self.engine, channels=self.threads, seeds=lambda: 42)
        await self.service.start()
        return self.service

    async def close(self) -> None:
        assert self.service and self.engine and self.store
        await self.service.close()
        await self.engine.close()
        await self.store.close()
        self.service = self.engine = self.store = None

    async def settle(self) -> None:
        assert self.engine and self.service
        for _ in range(5):
            await self.engine.idle()
            await self.service.idle()

    async def step(self) -> bool:
        """One human action at some table; False when no human has to act."""
        await self.settle()
        assert self.engine is not None
        for info in self.engine.open_tables():
            if info.status != "playing" or info.public is None or info.public.to_act is None:
                continue
            seat = info.player(info.public.to_act)  # five-tables: not the table seat
            if seat is None or seat.user_id is None or seat.played_by_ai:
                continue
            view = self.engine.view_for(info.id, seat.user_id)
            action = choose(view, self.rng, seat.user_id not in self.shy)
            await self.engine.act(info.id, seat.user_id, action)
            return True
        return False

    async def play(self, limit: int = 100_000) -> int:
        done = 0
        while done < limit and await self.step():
            done += 1
        await self.settle()
        return done


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    s = Site(tmp_path / "doko.sqlite3")
    yield s
    if s.service is not None:
        await s.close()
