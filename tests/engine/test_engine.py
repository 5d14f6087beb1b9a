"""The engine: seats, turns, versions, persistence before acknowledgement, recovery."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import db
from bot.engine import (
    Engine,
    EngineError,
    GameOver,
    SessionOver,
    TableChanged,
    TableInfo,
    ViewChanged,
    YourTurn,
)
from bot.rules.calls import Call
from bot.rules.cards import deck
from bot.rules.game import Action, Announce, Play, Reserve
from bot.rules.records import action_to_dict
from bot.rules.ruleset import BockTrigger, Ruleset, SchmeissenReason
from tests.engine.conftest import RandomAI, Recorder, seed_counter

HOST, ANNA, BEN = 100, 101, 102


async def new_table(engine: Engine, humans: int = 1, **kw: object) -> TableInfo:
    info = await engine.create_table(
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="Host",
        **kw,  # type: ignore[arg-type]
    )
    for user in (ANNA, BEN)[: humans - 1]:
        info = await engine.join(info.id, user, f"user{user}")
    return info


def move_for(engine: Engine, table_id: int, user: int, rng: random.Random) -> Action:
    view = engine.view_for(table_id, user)
    return rng.choice([a for a in view.legal if not isinstance(a, Announce)])


def whose_turn(engine: Engine, table_id: int) -> int | None:
    info = engine.table(table_id)
    if info.public is None or info.public.to_act is None:
        return None
    seat = info.seats[info.public.to_act]
    assert seat is not None
    return None if seat.played_by_ai else seat.user_id


async def play_humans(engine: Engine, table_id: int, games: int, seed: int = 0) -> None:
    """Let the humans play random legal moves until ``games`` games are over."""
    rng = random.Random(seed)
    while True:
        await engine.idle()
        try:
            info = engine.table(table_id)
        except EngineError:
            return  # the session ended and the table left memory
        if info.status != "playing" or len(info.spielliste) >= games:
            return
        user = whose_turn(engine, table_id)
        assert user is not None, "the AI stopped although no human is on turn"
        await engine.act(table_id, user, move_for(engine, table_id, user, rng), info.version)


async def test_lobby_join_leave_and_ai_seats(engine: Engine) -> None:
    info = await new_table(engine)
    assert [s.user_id if s else None for s in info.seats] == [HOST, None, None, None]
    info = await engine.join(info.id, ANNA, "Anna")
    with pytest.raises(EngineError) as err:
        await engine.join(info.id, ANNA, "Anna")
    assert err.value.reason == "already_seated"
    info = await engine.add_ai(info.id, HOST, "mittel", seat=3)
    assert info.seats[3] is not None and info.seats[3].ai_level == "mittel"
    with pytest.raises(EngineError) as err:
        await engine.add_ai(info.id, HOST, "mittel", seat=3)
    assert err.value.reason == "seat_taken"
    with pytest.raises(EngineError) as err:
        await engine.add_ai(info.id, 999, "leicht")
    assert err.value.reason == "not_seated"
    info = await engine.leave(info.id, ANNA)
    assert info.seats[1] is None
    info = await engine.remove_ai(info.id, HOST, 3)
    assert info.seats[3] is None
    with pytest.raises(EngineError) as err:
        await engine.create_table(guild_id=1, channel_id=10, host_id=BEN, host_name="Ben")
    assert err.value.reason == "table_exists"


async def test_a_full_game_against_ais_is_stored_action_by_action(engine: Engine) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await new_table(engine, games=4)
    info = await engine.start_game(info.id, HOST)
    assert info.status == "playing"
    assert all(s is not None for s in info.seats)
    await play_humans(engine, info.id, games=1)
    over = rec.of(GameOver)
    assert over, "no game finished"
    first = over[0]
    assert isinstance(first, GameOver)
    assert sum(first.entry.scores) == 0
    assert first.summary["finished"] is True
    game = await db.games.get_game(engine.db, first.game_id)
    assert game.status == "finished"
    stored = await db.actions.load_actions(engine.db, first.game_id)
    assert game.record is not None and stored == game.record["actions"]
    results = await db.results.get_results(engine.db, first.game_id)
    assert sorted(r.points for r in results) == sorted(first.entry.scores)


async def test_on_stored_runs_once_the_action_is_in_the_database(engine: Engine) -> None:
    info = await new_table(engine)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    rng = random.Random(3)
    seen: list[int] = []

    async def on_stored() -> None:
        # Awaited inside act once the group commit holds the action, before the table moves
        # on (its version is still the old one).
        seen.append(engine.table(info.id).version)

    assert whose_turn(engine, info.id) == HOST
    game_id = engine.table(info.id).game_id
    assert game_id is not None
    before = len(await db.actions.load_actions(engine.db, game_id))
    version = engine.table(info.id).version
    move = move_for(engine, info.id, HOST, rng)
    await engine.act(info.id, HOST, move, on_stored=on_stored)
    assert seen == [version]
    assert len(await db.actions.load_actions(engine.db, game_id)) > before
    # A refused action is never stored, so nobody is told it was.
    with pytest.raises(EngineError):
        await engine.act(info.id, HOST, move, version=-1, on_stored=on_stored)
    assert len(seen) == 1


async def test_a_click_cancelled_while_storing_is_still_applied(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = await new_table(engine)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    assert whose_turn(engine, info.id) == HOST
    game_id = engine.table(info.id).game_id
    assert game_id is not None
    from bot.engine import writer

    original = writer.actions.append_action_batches

    async def slow(*args: object, **kwargs: object) -> None:
        await asyncio.sleep(0.05)
        await original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(writer.actions, "append_action_batches", slow)
    before = len(await db.actions.load_actions(engine.db, game_id))
    version = engine.table(info.id).version
    click = asyncio.create_task(
        engine.act(info.id, HOST, move_for(engine, info.id, HOST, random.Random(5)))
    )
    await asyncio.sleep(0.01)  # the action waits for its group commit
    click.cancel()
    with pytest.raises(asyncio.CancelledError):
        await click
    # Stored and applied all the same: memory and SQLite agree.
    assert len(await db.actions.load_actions(engine.db, game_id)) == before + 1
    assert engine.table(info.id).version > version


async def test_versions_only_grow_and_stale_clicks_are_refused(engine: Engine) -> None:
    info = await new_table(engine)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    info = engine.table(info.id)
    rng = random.Random(1)
    seen = [info.version]
    for _ in range(12):
        await engine.idle()
        info = engine.table(info.id)
        user = whose_turn(engine, info.id)
        if user is None:
            break
        move = move_for(engine, info.id, user, rng)
        old = info.version
        info = await engine.act(info.id, user, move, old)
        seen.append(info.version)
        with pytest.raises(EngineError) as err:  # the same click again: a double click
            await engine.act(info.id, user, move, old)
        assert err.value.reason == "stale_version"
        assert err.value.details["current_version"] >= info.version
    assert seen == sorted(seen) and len(set(seen)) == len(seen)


async def test_wrong_user_and_illegal_moves_get_reasons(engine: Engine) -> None:
    info = await new_table(engine)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    info = engine.table(info.id)
    with pytest.raises(EngineError) as err:
        await engine.act(info.id, 999, Reserve(0, False), info.version)
    assert err.value.reason == "not_seated"
    with pytest.raises(EngineError) as err:  # a card the host does not hold
        held = set(engine.view_for(info.id, HOST).hand)
        card = next(c for c in deck() if c not in held)
        await engine.act(info.id, HOST, Play(0, card), info.version)
    assert err.value.reason in ("card_not_in_hand", "wrong_phase")
    with pytest.raises(EngineError) as err:
        await engine.act(info.id, HOST, Announce(0, Call.RE), info.version)
    assert err.value.reason in ("vorbehalt_open", "erstansage_too_late", "party_unknown")
    before = engine.record(info.id)["actions"]
    assert engine.record(info.id)["actions"] == before  # nothing was applied


async def test_simultaneous_clicks_apply_once(engine: Engine) -> None:
    info = await new_table(engine)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    info = engine.table(info.id)
    user = whose_turn(engine, info.id)
    assert user == HOST
    move = move_for(engine, info.id, HOST, random.Random(3))
    n = len(engine.record(info.id)["actions"])
    outcomes = await asyncio.gather(
        *(engine.act(info.id, HOST, move, info.version) for _ in range(20)),
        return_exceptions=True,
    )
    ok = [o for o in outcomes if isinstance(o, TableInfo)]
    refused = [o for o in outcomes if isinstance(o, EngineError)]
    assert len(ok) == 1 and len(refused) == 19
    assert all(e.reason == "stale_version" for e in refused)
    await engine.idle()
    game_id = engine.table(info.id).game_id
    assert game_id is not None
    stored = await db.actions.load_actions(engine.db, game_id)
    assert stored[n] == action_to_dict(move)


async def test_restart_rebuilds_tables_from_sqlite(db_path: Path) -> None:
    store = await db.connect(db_path)
    first = Engine(store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False)
    await first.start()
    info = await new_table(first, humans=2, games=8)
    info = await first.start_game(info.id, HOST)
    rng = random.Random(5)
    for _ in range(30):
        await first.idle()
        user = whose_turn(first, info.id)
        if user is None:
            break
        current = first.table(info.id)
        await first.act(info.id, user, move_for(first, info.id, user, rng), current.version)
    await first.idle()
    before = first.table(info.id)
    record = first.record(info.id)
    views = {u: first.view_for(info.id, u) for u in (HOST, ANNA)}
    await first.close()
    await store.close()

    store = await db.connect(db_path)
    second = Engine(store, ai=RandomAI(), seeds=seed_counter(1000), ai_in_thread=False)
    await second.start()
    after = second.table(info.id)
    assert after.version == before.version
    assert after.seats == before.seats
    assert after.spielliste == before.spielliste
    assert second.record(info.id) == record
    for user, view in views.items():
        assert second.view_for(info.id, user) == view
    await play_humans(second, info.id, games=len(before.spielliste) + 1)
    assert len(second.table(info.id).spielliste) > len(before.spielliste)
    await second.close()
    await store.close()


async def test_leaving_mid_game_hands_the_seat_to_an_ai_and_back(engine: Engine) -> None:
    info = await new_table(engine, humans=2)
    info = await engine.start_game(info.id, HOST)
    info = await engine.leave(info.id, ANNA)
    seat = info.seat_of(ANNA)
    assert seat is not None
    stand_in = info.seats[seat]
    assert stand_in is not None and stand_in.away and stand_in.played_by_ai
    await engine.idle()
    info = await engine.join(info.id, ANNA, "Anna")
    back = info.seats[seat]
    assert back is not None and not back.away and not back.played_by_ai


async def test_turn_timer_lets_an_ai_play_for_the_absent(db_path: Path) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    store = await db.connect(db_path)
    engine = Engine(
        store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False, clock=lambda: now[0]
    )
    await engine.start()
    info = await new_table(engine, turn_timer_s=30)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    info = engine.table(info.id)
    assert whose_turn(engine, info.id) == HOST
    timers = await db.timers.list_timers(store, due_by=now[0] + timedelta(seconds=31))
    assert [t.payload["version"] for t in timers if t.table_id == info.id] == [info.version]
    assert not await engine.expire_turn(info.id, info.version - 1)  # an old timer: ignored
    n = len(engine.record(info.id)["actions"])
    assert await engine.expire_turn(info.id, info.version)
    assert len(engine.record(info.id)["actions"]) == n + 1
    assert engine.record(info.id)["actions"][n]["seat"] == 0
    await engine.close()
    await store.close()


async def test_events_never_carry_another_seats_hand(engine: Engine) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await new_table(engine, humans=2)
    info = await engine.start_game(info.id, HOST)
    await play_humans(engine, info.id, games=1, seed=9)
    for event in rec.events:
        if isinstance(event, ViewChanged | YourTurn):
            seat = engine_seat = event.view.seat  # the view is built lazily, for event.seat
            assert engine_seat == event.seat == (0 if event.user_id == HOST else 1)
            assert all(a.seat == seat for a in event.view.legal)
        if isinstance(event, TableChanged):
            assert not hasattr(event.table.public, "hand")


async def test_ai_only_session_runs_to_the_end_with_pflichtsoli(engine: Engine) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await new_table(engine, games=4, rules=Ruleset())
    info = await engine.leave(info.id, HOST)
    with pytest.raises(EngineError):
        await engine.start_game(info.id, ANNA)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    over = rec.of(SessionOver)
    assert len(over) == 1
    entries = over[0].spielliste  # type: ignore[attr-defined]
    # 4 games, and with four open Pflichtsoli in four games every one is vorgeführt
    assert len(entries) == 4
    assert [e.solo_kind for e in entries] == ["vorgefuehrt"] * 4
    assert sorted(e.soloist for e in entries) == [0, 1, 2, 3]
    assert sum(entries[-1].totals) == 0
    assert engine.find_table(1, 10) is None


async def test_stop_table_only_by_host_or_admin(engine: Engine) -> None:
    info = await new_table(engine, humans=2)
    info = await engine.start_game(info.id, HOST)
    with pytest.raises(EngineError) as err:
        await engine.stop_table(info.id, ANNA)
    assert err.value.reason == "not_host"
    info = await engine.stop_table(info.id, ANNA, admin=True)
    assert info.status == "closed"
    with pytest.raises(EngineError):
        engine.table(info.id)


async def test_turn_timers_are_rearmed_after_a_restart(db_path: Path) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    store = await db.connect(db_path)
    first = Engine(
        store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False, clock=lambda: now[0]
    )
    await first.start()
    info = await new_table(first, turn_timer_s=30)
    info = await first.start_game(info.id, HOST)
    await first.idle()
    n = len(first.record(info.id)["actions"])
    await first.close()
    await store.close()

    now[0] += timedelta(seconds=31)  # the deadline passed while the bot was down
    store = await db.connect(db_path)
    second = Engine(
        store, ai=RandomAI(), seeds=seed_counter(50), ai_in_thread=False, clock=lambda: now[0]
    )
    await second.start()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if len(second.record(info.id)["actions"]) > n:
            break
    actions = second.record(info.id)["actions"]
    assert len(actions) > n and actions[n]["seat"] == 0
    await second.close()
    await store.close()


async def test_house_rules_session_with_redeals_and_bock(engine: Engine) -> None:
    from bot.rules.presets import PRESETS
    from bot.rules.records import game_record_from_dict, replay_record

    rules = replace(
        PRESETS["stammtisch"], bock=frozenset(BockTrigger), schmeissen=frozenset(SchmeissenReason)
    )
    rec = Recorder()
    engine.subscribe(rec)
    info = await new_table(engine, games=12, rules=rules)
    info = await engine.leave(info.id, HOST)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    over = rec.of(SessionOver)
    assert len(over) == 1
    entries = over[0].spielliste  # type: ignore[attr-defined]
    assert len(entries) == 12
    assert sum(entries[-1].totals) == 0
    session = await db.sessions.get_active_session(engine.db, info.id)
    assert session is None  # finished
    first_game = rec.of(GameOver)[0]
    assert isinstance(first_game, GameOver)
    session_id = (await db.games.get_game(engine.db, first_game.game_id)).session_id
    games = await db.games.list_games(engine.db, session_id)
    finished = [g for g in games if g.status == "finished"]
    assert len(finished) == 12
    multipliers = []
    for g in finished:
        assert g.record is not None
        game, error = replay_record(game_record_from_dict(g.record))
        assert error is None and game.result is not None
        multipliers.append(g.record.get("bock", 1))
    # with every Bock trigger on, twelve random games start Bockrunden
    assert max(multipliers) >= 2
    redeals = [g for g in games if g.status == "aborted"]
    assert all(g.record is None for g in redeals)


async def test_end_early_plays_only_the_owed_pflichtsoli(db_path: Path) -> None:
    store = await db.connect(db_path)
    engine = Engine(store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False)
    await engine.start()
    rec = Recorder()
    engine.subscribe(rec)
    info = await new_table(engine, humans=1, games=24)
    info = await engine.start_game(info.id, HOST, dealer=2)
    assert info.public is not None and info.public.dealer == 2
    with pytest.raises(EngineError) as err:
        await engine.end_early(info.id, ANNA)
    assert err.value.reason == "not_host"
    info = await engine.end_early(info.id, HOST)
    # a restart in between keeps the decision
    await engine.close()
    await store.close()
    store = await db.connect(db_path)
    engine = Engine(store, ai=RandomAI(), seeds=seed_counter(99), ai_in_thread=False)
    engine.subscribe(rec)
    await engine.start()
    await play_humans(engine, info.id, games=24)
    over = rec.of(SessionOver)
    assert len(over) == 1
    entries = over[0].spielliste  # type: ignore[attr-defined]
    # the running game, then one vorgeführt Pflichtsolo per seat that still owed one
    owed = [e for e in entries[1:]]
    assert all(e.solo_kind == "vorgefuehrt" for e in owed)
    played = {e.soloist for e in entries if e.solo_kind in ("pflicht", "vorgefuehrt")}
    assert played == {0, 1, 2, 3}
    await engine.close()
    await store.close()


async def test_replace_seat_hands_it_to_an_ai_for_good(engine: Engine) -> None:
    info = await new_table(engine, humans=2)
    info = await engine.start_game(info.id, HOST)
    with pytest.raises(EngineError):
        await engine.replace_seat(info.id, ANNA, "leicht", by=ANNA)
    info = await engine.replace_seat(info.id, ANNA, "leicht", by=HOST)
    seat = info.seats[1]
    assert seat is not None and seat.user_id is None and seat.ai_level == "leicht"
    assert info.seat_of(ANNA) is None
    with pytest.raises(EngineError) as err:
        await engine.join(info.id, ANNA, "Anna")
    assert err.value.reason == "game_running"


async def test_a_move_cannot_name_another_seat(engine: Engine) -> None:
    info = await new_table(engine, humans=2)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    info = engine.table(info.id)
    assert info.public is not None
    turn = info.public.to_act
    other = ANNA if turn == 0 else HOST
    assert engine.game_seat(info.id, other) != turn
    n = len(engine.record(info.id)["actions"])
    with pytest.raises(EngineError) as err:
        await engine.act(info.id, other, Reserve(turn, False), info.version)
    assert err.value.reason == "not_your_seat"
    assert len(engine.record(info.id)["actions"]) == n


async def test_the_seat_check_refuses_before_anything_is_stored(engine: Engine) -> None:
    """The player on turn sending another seat's action: refused, nothing stored, nobody
    told it was (on_stored), no version spent.
    """
    info = await new_table(engine, humans=2)
    info = await engine.start_game(info.id, HOST)
    await engine.idle()
    info = engine.table(info.id)
    assert info.public is not None and info.public.to_act is not None
    on_turn = info.player(info.public.to_act)
    assert on_turn is not None and on_turn.user_id is not None
    user = on_turn.user_id
    seat = engine.game_seat(info.id, user)
    assert seat == info.public.to_act
    action = move_for(engine, info.id, user, random.Random(2))
    game_id = info.game_id
    assert game_id is not None
    stored = await db.actions.load_actions(engine.db, game_id)
    told: list[int] = []

    async def on_stored() -> None:
        told.append(1)

    for wrong in {0, 1, 2, 3} - {seat}:
        with pytest.raises(EngineError) as err:
            await engine.act(info.id, user, replace(action, seat=wrong), info.version, on_stored)
        assert err.value.reason == "not_your_seat"
    assert await db.actions.load_actions(engine.db, game_id) == stored
    assert told == [] and engine.table(info.id).version == info.version
    # The same action with the right seat is taken.
    await engine.act(info.id, user, action, info.version, on_stored)
    assert told == [1]
    assert (await db.actions.load_actions(engine.db, game_id))[len(stored)] == action_to_dict(
        action
    )


async def test_game_seat_names_the_seat_of_the_running_game(engine: Engine) -> None:
    info = await new_table(engine, humans=2)
    assert engine.game_seat(info.id, HOST) is None  # no game yet
    info = await engine.start_game(info.id, HOST)
    assert engine.game_seat(info.id, HOST) == info.game_seat_of(HOST) == 0
    assert engine.game_seat(info.id, ANNA) == info.game_seat_of(ANNA) == 1
    assert engine.game_seat(info.id, 999) is None
    with pytest.raises(EngineError) as err:
        engine.game_seat(12345, HOST)
    assert err.value.reason == "no_table"


async def test_settle_waits_until_the_ais_have_answered(engine: Engine) -> None:
    info = await new_table(engine)
    info = await engine.start_game(info.id, HOST)
    await engine.settle(info.id, timeout=60)
    assert whose_turn(engine, info.id) == HOST
    assert engine.version(info.id) == engine.table(info.id).version
    rng = random.Random(3)
    for _ in range(8):  # a few of the host's moves, each answered by the three AIs
        info = engine.table(info.id)
        if info.status != "playing":
            break
        await engine.act(info.id, HOST, move_for(engine, info.id, HOST, rng), info.version)
        await engine.settle(info.id, timeout=60)
        assert whose_turn(engine, info.id) == HOST
    await engine.settle(999, timeout=60)  # no such table: nothing to wait for
