"""A human who lets the turn timer run out, by the table's disconnect policy (simulated clock).

``bot``: an AI plays the move. ``warten``: the table waits for the player or the host.
``verloren``: after a grace period the game is scored as lost for the absent party.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import db
from bot.engine import Engine, EngineError, GameOver, TableInfo
from bot.engine.absence import FORFEIT_GRACE
from bot.rules.game import Announce, Phase, Reserve
from tests.engine.conftest import RandomAI, Recorder, seed_counter

HOST, ANNA = 100, 101
START = datetime(2026, 1, 1, 19, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def _engine(db_path: str | Path, clock: Clock) -> tuple[Engine, db.Database]:
    store = await db.connect(db_path)
    engine = Engine(store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False, clock=clock)
    await engine.start()
    return engine, store


@pytest.fixture
async def engine(db_path: str | Path, clock: Clock) -> AsyncIterator[Engine]:
    engine, store = await _engine(db_path, clock)
    yield engine
    await engine.close()
    await store.close()


async def host_in_play(engine: Engine, policy: str, humans: int = 1) -> TableInfo:
    """A table with the policy, its game in the play phase, the host to play a card."""
    info = await engine.create_table(
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="Host",
        turn_timer_s=30,
        disconnect_policy=policy,
    )
    if humans > 1:
        await engine.join(info.id, ANNA, "Anna")
    await engine.start_game(info.id, HOST)
    while True:
        await engine.idle()
        info = engine.table(info.id)
        pv = info.public
        assert pv is not None and pv.to_act is not None
        user = info.seats[info.game_seats[pv.to_act]]
        assert user is not None and user.user_id is not None
        if pv.phase is Phase.PLAY and user.user_id == HOST:
            return info
        legal = engine.view_for(info.id, user.user_id).legal
        healthy = [a for a in legal if isinstance(a, Reserve) and not a.reserve]
        action = healthy[0] if healthy else next(a for a in legal if not isinstance(a, Announce))
        await engine.act(info.id, user.user_id, action, info.version)


async def test_bot_policy_lets_an_ai_play_the_move(engine: Engine) -> None:
    info = await host_in_play(engine, "bot")
    n = len(engine.record(info.id)["actions"])
    assert await engine.expire_turn(info.id, info.version)
    assert engine.record(info.id)["actions"][n]["seat"] == info.game_seats.index(0)
    assert engine.table(info.id).waiting is None


async def test_warten_waits_for_the_player_and_shows_since_when(
    engine: Engine, clock: Clock
) -> None:
    info = await host_in_play(engine, "warten")
    n = len(engine.record(info.id)["actions"])
    clock.now += timedelta(seconds=30)
    assert await engine.expire_turn(info.id, info.version)  # the table changed: it waits
    waiting = engine.table(info.id).waiting
    assert waiting is not None and waiting.seat == 0 and waiting.forfeit_at is None
    assert waiting.since == START + timedelta(seconds=30)  # the deadline that passed
    clock.now += timedelta(hours=1)
    assert not await engine.expire_turn(info.id, info.version)  # still waiting, no AI move
    await engine.idle()
    assert len(engine.record(info.id)["actions"]) == n
    # The player comes back and plays: the wait is over.
    seat = info.game_seats.index(0)
    card = next(a for a in engine.view_for(info.id, HOST).legal if not isinstance(a, Announce))
    assert card.seat == seat
    info = await engine.act(info.id, HOST, card, engine.version(info.id))
    assert info.waiting is None


async def test_warten_host_lets_a_bot_take_over(engine: Engine) -> None:
    info = await host_in_play(engine, "warten", humans=2)
    host_seat = info.game_seats.index(0)
    # Anna is not the host: she may not decide for the table.
    await engine.expire_turn(info.id, info.version)
    with pytest.raises(EngineError) as refused:
        await engine.take_over_absent(info.id, ANNA)
    assert refused.value.reason == "not_host"
    info = await engine.take_over_absent(info.id, ANNA, admin=True)
    assert info.waiting is None
    seat = info.seats[0]
    assert seat is not None and seat.away and seat.played_by_ai
    await engine.idle()
    actions = engine.record(info.id)["actions"]
    assert any(a["seat"] == host_seat and "play" in a for a in actions[-8:])
    with pytest.raises(EngineError) as nothing:
        await engine.take_over_absent(info.id, HOST)
    assert nothing.value.reason == "not_waiting"
    info = await engine.join(info.id, HOST, "Host")  # "Zurück an den Tisch"
    back = info.seats[0]
    assert back is not None and not back.away


async def test_warten_host_scores_the_game_lost(engine: Engine) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await host_in_play(engine, "warten")
    with pytest.raises(EngineError) as nothing:
        await engine.score_absent_lost(info.id, HOST)  # nobody is waited for yet
    assert nothing.value.reason == "not_waiting"
    await engine.expire_turn(info.id, info.version)
    info = await engine.score_absent_lost(info.id, HOST)
    over = rec.of(GameOver)
    assert len(over) == 1
    entry = over[0].entry  # type: ignore[attr-defined]
    assert entry.scores[0] < 0  # the absent host's party lost
    assert sum(entry.scores) == 0
    assert info.game_number == 2 and info.waiting is None  # the next game is dealt


async def test_verloren_scores_the_game_lost_after_the_grace_period(
    engine: Engine, clock: Clock
) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await host_in_play(engine, "verloren")
    assert await engine.expire_turn(info.id, info.version)
    waiting = engine.table(info.id).waiting
    assert waiting is not None and waiting.forfeit_at == clock.now + FORFEIT_GRACE
    clock.now += FORFEIT_GRACE / 2
    assert not await engine.expire_turn(info.id, info.version)  # too early: still waiting
    assert rec.of(GameOver) == []
    clock.now += FORFEIT_GRACE
    assert await engine.expire_turn(info.id, info.version)
    over = rec.of(GameOver)
    assert len(over) == 1
    entry = over[0].entry  # type: ignore[attr-defined]
    assert entry.scores[0] < 0
    summary = over[0].summary  # type: ignore[attr-defined]
    assert summary is not None
    # The record says who gave up; a restart rebuilds the same Spielliste from it.
    stored = await db.games.get_game(engine.db, entry_game_id(over[0]))
    assert stored.record is not None and stored.record["meta"]["conceded"] == {
        "seat": info.game_seats.index(0)
    }


def entry_game_id(event: object) -> int:
    assert isinstance(event, GameOver)
    return event.game_id


async def test_verloren_grace_period_outlives_a_restart(db_path: Path, clock: Clock) -> None:
    first, store = await _engine(db_path, clock)
    info = await host_in_play(first, "verloren")
    await first.expire_turn(info.id, info.version)
    since = first.table(info.id).waiting
    assert since is not None
    await first.close()
    await store.close()

    clock.now += FORFEIT_GRACE + timedelta(seconds=5)  # the grace ran out while down
    second, store = await _engine(db_path, clock)
    for _ in range(200):
        await asyncio.sleep(0.01)
        if second.table(info.id).game_number == 2:
            break
    after = second.table(info.id)
    assert after.game_number == 2 and len(after.spielliste) == 1
    assert after.spielliste[0].scores[0] < 0
    await second.close()
    await store.close()

    third, store = await _engine(db_path, clock)  # the conceded game replays to its score
    assert third.table(info.id).spielliste == after.spielliste
    await third.close()
    await store.close()


async def test_an_unknown_policy_is_refused(engine: Engine) -> None:
    with pytest.raises(EngineError) as refused:
        await engine.create_table(
            guild_id=1, channel_id=11, host_id=HOST, host_name="Host", disconnect_policy="weg"
        )
    assert refused.value.reason == "bad_policy"
