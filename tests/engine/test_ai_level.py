"""A table's AI level: empty seats at the start, stand-ins for a player who left or timed
out, and after a restart; a level given at the start wins (a tournament's own).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import db
from bot.engine import Engine, EngineError
from bot.rules.game import Action
from bot.rules.view import PlayerView
from tests.engine.conftest import RandomAI, seed_counter

HOST, ANNA = 100, 101


class LevelAI(RandomAI):
    """Plays at random and notes the level each decision was asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.levels: list[str] = []

    def choose(self, level: str, view: PlayerView, rng: random.Random) -> Action:
        self.levels.append(level)
        return super().choose(level, view, rng)


async def test_empty_seats_and_stand_ins_play_at_the_tables_level(db_path: Path) -> None:
    store = await db.connect(db_path)
    ai = LevelAI()
    engine = Engine(store, ai=ai, seeds=seed_counter(), ai_in_thread=False)
    await engine.start()
    info = await engine.create_table(
        guild_id=1, channel_id=10, host_id=HOST, host_name="Host", ai_level="schwer"
    )
    info = await engine.join(info.id, ANNA, "Anna")
    info = await engine.start_game(info.id, HOST)
    assert [s.ai_level for s in info.seats if s is not None] == [None, None, "schwer", "schwer"]
    info = await engine.leave(info.id, ANNA)
    stand_in = info.seats[1]
    assert stand_in is not None and stand_in.away and stand_in.ai_level == "schwer"
    await engine.idle()
    assert ai.levels and set(ai.levels) == {"schwer"}
    await engine.close()

    # After a restart the table still knows its level.
    again = Engine(store, ai=ai, seeds=seed_counter(), ai_in_thread=False)
    await again.start()
    assert again.table(info.id).ai_level == "schwer"
    await again.close()
    await store.close()


async def test_a_timed_out_turn_is_played_at_the_tables_level(db_path: Path) -> None:
    store = await db.connect(db_path)
    ai = LevelAI()
    engine = Engine(store, ai=ai, seeds=seed_counter(), ai_in_thread=False)
    await engine.start()
    info = await engine.create_table(
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="Host",
        turn_timer_s=30,
        ai_level="mittel",
    )
    # A level named at the start fills the empty seats (a tournament's), the table's stays.
    info = await engine.start_game(info.id, HOST, "leicht")
    assert [s.ai_level for s in info.seats[1:] if s is not None] == ["leicht"] * 3
    await engine.idle()
    ai.levels.clear()
    info = engine.table(info.id)
    assert await engine.expire_turn(info.id, info.version)
    assert ai.levels[0] == "mittel"
    await engine.close()
    await store.close()


async def test_an_unknown_level_is_refused(engine: Engine) -> None:
    with pytest.raises(EngineError) as refused:
        await engine.create_table(
            guild_id=1, channel_id=10, host_id=HOST, host_name="Host", ai_level="meister"
        )
    assert refused.value.reason == "bad_level"
