"""Five-player tables: the dealer sits out each game and scores 0 (house rule, TSR appendix)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import db
from bot.engine import Engine, EngineError, GameOver, SessionOver, TableInfo
from bot.engine.model import ListEntry
from bot.rules.contracts import Contract
from bot.rules.game import Announce, Reserve
from bot.rules.round import SoloKind
from bot.rules.ruleset import Ruleset
from bot.tournament import ListedGame, check_round
from tests.engine.conftest import RandomAI, Recorder, seed_counter

HOST, ANNA, BEN, CARL, DORA, EVE = 100, 101, 102, 103, 104, 105
FIVE = Ruleset(players=5)


async def five_table(engine: Engine, humans: tuple[int, ...] = (), **kw: object) -> TableInfo:
    info = await engine.create_table(
        guild_id=1,
        channel_id=10,
        host_id=HOST,
        host_name="Host",
        rules=FIVE,
        **kw,  # type: ignore[arg-type]
    )
    for user in humans:
        info = await engine.join(info.id, user, f"user{user}")
    return info


def whose_turn(info: TableInfo) -> int | None:
    """The human on turn, if a human is."""
    if info.public is None or info.public.to_act is None:
        return None
    seat = info.player(info.public.to_act)
    assert seat is not None
    return None if seat.played_by_ai else seat.user_id


async def play_humans(engine: Engine, table_id: int, games: int, seed: int = 0) -> None:
    """Random legal moves for the humans until ``games`` games are over or the table closed."""
    rng = random.Random(seed)
    while True:
        await engine.idle()
        try:
            info = engine.table(table_id)
        except EngineError:
            return
        if info.status != "playing" or len(info.spielliste) >= games:
            return
        user = whose_turn(info)
        assert user is not None, "the AI stopped although no human is on turn"
        view = engine.view_for(table_id, user)
        move = rng.choice([a for a in view.legal if not isinstance(a, Announce)])
        await engine.act(table_id, user, move, info.version)


def check_sheet(entries: tuple[ListEntry, ...], first_dealer: int) -> None:
    """Five columns summing to zero, the dealer sitting out at 0, the deal moving on."""
    totals = [0] * 5
    dealer = first_dealer
    for entry in entries:
        assert len(entry.scores) == len(entry.totals) == 5
        assert sum(entry.scores) == 0
        assert entry.sitting_out == dealer
        assert entry.scores[dealer] == 0
        assert dealer not in entry.seats and sorted(entry.seats) == sorted(
            {0, 1, 2, 3, 4} - {dealer}
        )
        assert entry.seats[0] == (dealer + 1) % 5  # the dealer's left neighbour leads
        assert entry.soloist != dealer
        totals = [a + b for a, b in zip(totals, entry.scores, strict=True)]
        assert list(entry.totals) == totals
        # The same dealer deals again after a Pflichtsolo (TSR 3.3), else the deal moves left.
        dealer = dealer if entry.solo_kind == "pflicht" else (dealer + 1) % 5


async def test_lobby_has_five_seats(engine: Engine) -> None:
    info = await five_table(engine, (ANNA, BEN, CARL))
    assert info.size == 5 and info.seats[4] is None
    info = await engine.add_ai(info.id, HOST, "leicht")
    assert info.seats[4] is not None and info.seats[4].is_ai
    with pytest.raises(EngineError) as err:
        await engine.join(info.id, DORA, "Dora")
    assert err.value.reason == "table_full"
    with pytest.raises(EngineError) as err:
        await engine.add_ai(info.id, HOST, "leicht", seat=5)
    assert err.value.reason == "bad_seat"
    info = await engine.remove_ai(info.id, HOST, 4)
    info = await engine.join(info.id, DORA, "Dora", seat=4)
    assert [s.user_id for s in info.seats if s] == [HOST, ANNA, BEN, CARL, DORA]


async def test_ai_session_at_five_sums_to_zero_with_the_dealer_at_zero(engine: Engine) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await five_table(engine, games=10)
    info = await engine.leave(info.id, HOST)
    info = await engine.start_game(info.id, HOST, dealer=3)
    assert info.sitting_out == 3 and info.game_seats == (4, 0, 1, 2)
    assert info.pflichtsolo_done == (False,) * 5
    await engine.idle()
    over = rec.of(SessionOver)
    assert len(over) == 1
    entries = over[0].spielliste  # type: ignore[attr-defined]
    check_sheet(entries, first_dealer=3)
    # Every one of the five played his Pflichtsolo (10 games: some are vorgeführt).
    pflicht = [e.soloist for e in entries if e.solo_kind in ("pflicht", "vorgefuehrt")]
    assert sorted(pflicht) == [0, 1, 2, 3, 4]
    # The tournament's Pflichtsolo check of a five-table agrees with how the engine played.
    listed = [
        ListedGame(Contract(e.contract), SoloKind(e.solo_kind) if e.solo_kind else None, e.soloist)
        for e in entries
    ]
    check = check_round(listed, 5, 3, 10)
    assert check.ok, check.problems
    # Stored results and records stay four-seat per game; the record names the four.
    for event in rec.of(GameOver):
        assert isinstance(event, GameOver)
        results = await db.results.get_results(engine.db, event.game_id)
        assert [r.seat for r in results] == [0, 1, 2, 3]
        assert sorted(r.points for r in results) == sorted(
            p for s, p in enumerate(event.entry.scores) if s != event.entry.sitting_out
        )
        game = await db.games.get_game(engine.db, event.game_id)
        assert game.sitting_out == event.entry.sitting_out and game.dealer == 3
        assert game.record is not None and game.record["dealer"] == 3
        meta = game.record["meta"]
        assert [p["table_seat"] for p in meta["players"]] == list(event.entry.seats)
        assert meta["sitting_out"]["table_seat"] == event.entry.sitting_out


async def test_the_dealer_sits_out_and_the_leaderboard_counts_played_games(
    engine: Engine,
) -> None:
    info = await five_table(engine, (ANNA,), games=5)
    info = await engine.start_game(info.id, HOST, dealer=0)
    assert info.sitting_out == 0 and info.game_seat_of(HOST) is None
    assert info.game_seat_of(ANNA) == 0  # the dealer's left neighbour
    with pytest.raises(EngineError) as err:
        engine.view_for(info.id, HOST)
    assert err.value.reason == "sitting_out"
    with pytest.raises(EngineError) as err:
        await engine.act(info.id, HOST, Reserve(0, False), info.version)
    assert err.value.reason == "sitting_out"
    await play_humans(engine, info.id, games=5, seed=4)
    rows = {r.player_id: r for r in await db.standings.guild_standings(engine.db, 1)}
    game_ids = [g.id for g in await _finished_games(engine, info.id)]
    played = {HOST: 0, ANNA: 0}
    points = {HOST: 0, ANNA: 0}
    for game_id in game_ids:
        for r in await db.results.get_results(engine.db, game_id):
            if r.player_id in played:
                played[r.player_id] += 1
                points[r.player_id] += r.points
    # Sitting out is no game played: neither a game nor points in the leaderboard.
    assert played[HOST] < len(game_ids)
    for user in (HOST, ANNA):
        assert rows[user].games == played[user]
        assert rows[user].points == points[user]


async def _finished_games(engine: Engine, table_id: int) -> list[db.GameRow]:
    rows = await engine.db.fetchall("SELECT id FROM sessions WHERE table_id = ?", (table_id,))
    games = await db.games.list_games(engine.db, rows[0]["id"])
    return [g for g in games if g.status == "finished"]


async def test_restart_mid_game_at_a_five_player_table(db_path: Path) -> None:
    store = await db.connect(db_path)
    first = Engine(store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False)
    await first.start()
    info = await five_table(first, (ANNA, BEN), games=6)
    info = await first.start_game(info.id, HOST, dealer=4)
    rng = random.Random(7)
    # Into the second game, so the Spielliste and a moved dealer are part of the state.
    while True:
        await first.idle()
        current = first.table(info.id)
        if current.spielliste and current.public is not None and len(current.public.tricks) >= 2:
            break
        user = whose_turn(current)
        assert user is not None
        view = first.view_for(info.id, user)
        move = rng.choice([a for a in view.legal if not isinstance(a, Announce)])
        await first.act(info.id, user, move, current.version)
    before = first.table(info.id)
    assert before.sitting_out is not None
    record = first.record(info.id)
    players = [u for u in (HOST, ANNA, BEN) if before.game_seat_of(u) is not None]
    views = {u: first.view_for(info.id, u) for u in players}
    await first.close()
    await store.close()

    store = await db.connect(db_path)
    second = Engine(store, ai=RandomAI(), seeds=seed_counter(1000), ai_in_thread=False)
    await second.start()
    after = second.table(info.id)
    assert after.version == before.version
    assert after.seats == before.seats
    assert after.game_seats == before.game_seats and after.sitting_out == before.sitting_out
    assert after.spielliste == before.spielliste
    assert after.pflichtsolo_done == before.pflichtsolo_done
    assert after.games_left == before.games_left
    assert second.record(info.id) == record
    for user, view in views.items():
        assert second.view_for(info.id, user) == view
    rec = Recorder()
    second.subscribe(rec)
    await play_humans(second, info.id, games=99, seed=8)
    over = rec.of(SessionOver)
    assert len(over) == 1
    check_sheet(over[0].spielliste, first_dealer=4)  # type: ignore[attr-defined]
    await second.close()
    await store.close()


async def test_end_early_at_five_plays_the_owed_pflichtsoli(engine: Engine) -> None:
    rec = Recorder()
    engine.subscribe(rec)
    info = await five_table(engine, games=24)
    info = await engine.start_game(info.id, HOST, dealer=1)
    info = await engine.end_early(info.id, HOST)
    assert info.games_left == 0
    await play_humans(engine, info.id, games=99, seed=3)
    over = rec.of(SessionOver)
    assert len(over) == 1
    entries = over[0].spielliste  # type: ignore[attr-defined]
    check_sheet(entries, first_dealer=1)
    assert all(e.solo_kind == "vorgefuehrt" for e in entries[1:])
    played = {e.soloist for e in entries if e.solo_kind in ("pflicht", "vorgefuehrt")}
    assert played == {0, 1, 2, 3, 4}
