"""Engines on real databases (SQLite and PostgreSQL), with a deterministic stand-in AI."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

import db
from bot.engine import Engine, Event
from bot.rules.game import Action, Announce
from bot.rules.view import PlayerView


class RandomAI:
    """Plays a random legal non-call action; the engine's tests need no strong play."""

    def __init__(self) -> None:
        self.seen: list[PlayerView] = []

    def choose(self, level: str, view: PlayerView, rng: random.Random) -> Action:
        self.seen.append(view)
        options = [a for a in view.legal if not isinstance(a, Announce)]
        return rng.choice(options)


class Recorder:
    def __init__(self) -> None:
        self.events: list[Event] = []

    async def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of(self, kind: type) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]


def seed_counter(start: int = 1) -> Callable[[], int]:
    counter = itertools.count(start)
    return lambda: next(counter)


@pytest.fixture
def db_path(database_target: str | Path) -> str | Path:
    """A new SQLite file, or a URL into a new PostgreSQL schema (tests/conftest.py)."""
    return database_target


@pytest.fixture
async def engine(db_path: str | Path) -> AsyncIterator[Engine]:
    store = await db.connect(db_path)
    eng = Engine(store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False)
    await eng.start()
    yield eng
    await eng.close()
    await store.close()
