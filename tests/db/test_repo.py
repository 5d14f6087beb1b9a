"""Repository functions on SQLite and PostgreSQL: every one, including its refusals."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

import db
from db import Database

from .conftest import ALICE, BOB, CHANNEL, DEAL, GUILD, Table, at, new_game


async def test_players_upsert_and_rename(store: Database) -> None:
    assert await db.players.get_player(store, ALICE) is None
    await db.players.upsert_player(store, ALICE, "Alice")
    assert await db.players.upsert_player(store, ALICE, "Ali") == db.PlayerRow(ALICE, "Ali")
    assert await db.players.get_player(store, ALICE) == db.PlayerRow(ALICE, "Ali")


async def test_guild_settings(store: Database) -> None:
    assert await db.guilds.get_guild_settings(store, GUILD) == db.GuildSettings(GUILD, "", "de", {})
    await db.guilds.upsert_guild(store, GUILD, "Stammtisch")
    changed = await db.guilds.set_guild_settings(
        store, GUILD, language="en", default_rules={"schweinchen": True}
    )
    assert changed == db.GuildSettings(GUILD, "Stammtisch", "en", {"schweinchen": True})
    # Only what is given changes; a rename keeps the settings.
    await db.guilds.set_guild_settings(store, GUILD, language="de")
    renamed = await db.guilds.upsert_guild(store, GUILD, "Doko-Runde")
    assert renamed == db.GuildSettings(GUILD, "Doko-Runde", "de", {"schweinchen": True})
    assert await db.guilds.get_guild_settings(store, GUILD) == renamed
    with pytest.raises(db.ConstraintError):
        await db.guilds.set_guild_settings(store, GUILD, language="fr")  # type: ignore[arg-type]


async def test_table_create_get_update_with_versions(store: Database) -> None:
    await db.players.upsert_player(store, ALICE, "Alice")
    created = await db.tables.create_table(
        store,
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        rules={"mit_neunen": False},
        games_per_session=12,
        now=at(2025, 5, 1),
    )
    assert created.version == 0 and created.status == "lobby" and created.turn_timer_s is None
    assert created.created_at == at(2025, 5, 1)
    assert await db.tables.get_table(store, created.id) == created

    playing = await db.tables.update_table(store, created.id, 0, status="playing", turn_timer_s=90)
    assert (playing.version, playing.status, playing.turn_timer_s) == (1, "playing", 90)
    assert playing.rules == {"mit_neunen": False} and playing.games_per_session == 12
    bumped = await db.tables.update_table(store, created.id, 1)
    assert bumped.version == 2 and bumped.status == "playing"
    cleared = await db.tables.update_table(store, created.id, 2, turn_timer_s=None, rules={})
    assert cleared.turn_timer_s is None and cleared.rules == {} and cleared.version == 3

    with pytest.raises(db.VersionConflictError) as conflict:
        await db.tables.update_table(store, created.id, 1, status="closed")
    assert conflict.value.current_version == 3
    assert (await db.tables.get_table(store, created.id)).status == "playing"
    with pytest.raises(db.NotFoundError):
        await db.tables.get_table(store, 999)
    with pytest.raises(db.NotFoundError):
        await db.tables.update_table(store, 999, 0)
    with pytest.raises(db.ConstraintError):
        await db.tables.update_table(store, created.id, 3, status="weird")  # type: ignore[arg-type]


async def test_concurrent_updates_one_wins(store: Database) -> None:
    await db.players.upsert_player(store, ALICE, "Alice")
    table = await db.tables.create_table(
        store, guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, rules={}, games_per_session=4
    )
    outcomes = await asyncio.gather(
        *(db.tables.update_table(store, table.id, 0, turn_timer_s=s) for s in (10, 20, 30)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, db.TableRow) for o in outcomes) == 1
    assert sum(isinstance(o, db.VersionConflictError) for o in outcomes) == 2
    assert (await db.tables.get_table(store, table.id)).version == 1


async def test_host_must_be_a_player(store: Database) -> None:
    with pytest.raises(db.ConstraintError):
        await db.tables.create_table(
            store, guild_id=GUILD, channel_id=CHANNEL, host_id=404, rules={}, games_per_session=4
        )
    assert await db.tables.list_open_tables(store) == []


async def test_open_tables_and_channel_lookup(store: Database, table: Table) -> None:
    other = await db.tables.create_table(
        store, guild_id=GUILD, channel_id=CHANNEL + 1, host_id=BOB, rules={}, games_per_session=8
    )
    assert [t.id for t in await db.tables.list_open_tables(store)] == [table.table.id, other.id]
    assert await db.tables.find_open_table(store, GUILD, CHANNEL + 1) == other
    await db.tables.update_table(store, other.id, other.version, status="closed")
    assert [t.id for t in await db.tables.list_open_tables(store)] == [table.table.id]
    assert await db.tables.find_open_table(store, GUILD, CHANNEL + 1) is None


async def test_seats(store: Database, table: Table) -> None:
    table_id = table.table.id
    assert [s.user_id for s in await db.tables.get_seats(store, table_id)] == [11, 12, 13, 14]
    assert await db.tables.clear_seat(store, table_id, 3)
    assert not await db.tables.clear_seat(store, table_id, 3)
    bot = await db.tables.set_seat(store, table_id, 3, ai_level="schwer")
    assert bot.is_ai and bot == db.SeatRow(table_id, 3, None, "schwer")
    human = await db.tables.set_seat(store, table_id, 3, user_id=14)
    assert not human.is_ai
    assert (await db.tables.get_seats(store, table_id))[3] == human
    with pytest.raises(db.ConstraintError):  # Alice already sits on seat 0
        await db.tables.set_seat(store, table_id, 3, user_id=ALICE)
    with pytest.raises(ValueError, match="exactly one"):
        await db.tables.set_seat(store, table_id, 2, user_id=ALICE, ai_level="leicht")
    # A five-player table has a fifth seat (the dealer sits out each game); no sixth.
    assert await db.tables.set_seat(store, table_id, 4, ai_level="leicht") == db.SeatRow(
        table_id, 4, None, "leicht"
    )
    with pytest.raises(ValueError, match="seat must be"):
        await db.tables.set_seat(store, table_id, 5, ai_level="leicht")


async def test_sessions_and_round_context(store: Database, table: Table) -> None:
    session = table.session
    assert session.games_left == 24 and session.pflichtsolo_done == (False,) * 4
    assert session.status == "active" and session.finished_at is None
    assert await db.sessions.get_active_session(store, table.table.id) == session
    updated = await db.sessions.update_round_context(
        store, session.id, games_left=23, pflichtsolo_done=[False, True, False, False], dealer=1
    )
    assert (updated.games_left, updated.pflichtsolo_done, updated.dealer) == (
        23,
        (False, True, False, False),
        1,
    )
    assert await db.sessions.get_session(store, session.id) == updated
    finished = await db.sessions.finish_session(store, session.id, now=at(2025, 6, 1))
    assert finished.status == "finished" and finished.finished_at == at(2025, 6, 1)
    assert await db.sessions.get_active_session(store, table.table.id) is None
    with pytest.raises(ValueError, match="one flag per seat"):
        await db.sessions.update_round_context(
            store, session.id, games_left=1, pflichtsolo_done=[True], dealer=0
        )
    with pytest.raises(db.NotFoundError):
        await db.sessions.get_session(store, 999)


async def test_games_store_what_replay_needs(store: Database, table: Table) -> None:
    big_seed = 2**64 + 17  # seeds wider than SQLite's integers survive
    game = await db.games.create_game(
        store,
        table.session.id,
        number=1,
        ruleset={"schweinchen": True},
        deal=DEAL,
        seed=big_seed,
        dealer=3,
        round_context={"games_left": 24, "pflichtsolo_done": [False] * 4},
        now=at(2025, 5, 1),
    )
    assert game.status == "running" and game.record is None and game.finished_at is None
    loaded = await db.games.get_game(store, game.id)
    assert loaded == game
    assert loaded.seed == big_seed and loaded.deal["hands"][0][1] == "H10"
    assert await db.games.get_running_game(store, table.session.id) == game
    with pytest.raises(db.ConstraintError):  # the number is unique in its session
        await new_game(store, table.session.id, 1)
    second = await new_game(store, table.session.id, 2)
    assert [g.number for g in await db.games.list_games(store, table.session.id)] == [1, 2]

    assert await db.games.abort_game(store, game.id)
    assert not await db.games.abort_game(store, game.id)
    assert (await db.games.get_game(store, game.id)).status == "aborted"
    assert await db.games.get_running_game(store, table.session.id) == second
    with pytest.raises(db.NotFoundError):
        await db.games.get_game(store, 999)


async def test_actions_append_in_order_never_twice(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    actions = [
        {"seat": 1, "reserve": False},
        {"seat": 2, "reserve": True},
        {"seat": 1, "play": "CA"},
    ]
    for seq, action in enumerate(actions):
        await db.actions.append_action(store, game.id, seq, action)
    assert await db.actions.load_actions(store, game.id) == actions

    with pytest.raises(db.DuplicateActionError):
        await db.actions.append_action(store, game.id, 1, {"seat": 2, "reserve": True})
    with pytest.raises(db.ActionGapError, match="next is 3"):
        await db.actions.append_action(store, game.id, 5, {"seat": 0, "play": "H10"})
    with pytest.raises(db.NotFoundError):
        await db.actions.append_action(store, 999, 0, {"seat": 0, "play": "H10"})
    assert await db.actions.load_actions(store, game.id) == actions

    await db.games.abort_game(store, game.id)
    with pytest.raises(db.GameNotRunningError):
        await db.actions.append_action(store, game.id, 3, {"seat": 0, "play": "H10"})


async def test_a_batch_of_actions_is_stored_whole_or_not_at_all(
    store: Database, table: Table
) -> None:
    game = await new_game(store, table.session.id, 1)
    now = at(2026, 1, 1)
    batch = [
        (game.id, 0, {"seat": 1, "reserve": False}, now),
        (game.id, 1, {"seat": 2, "reserve": False}, now),
    ]
    assert await db.actions.append_actions(store, batch)
    assert await db.actions.load_actions(store, game.id) == [a for _, _, a, _ in batch]
    # Seq 1 again: refused, and the good action before it in the batch is not kept either.
    bad = [
        (game.id, 2, {"seat": 3, "reserve": False}, now),
        (game.id, 1, {"seat": 0, "reserve": False}, now),
    ]
    assert not await db.actions.append_actions(store, bad)
    assert len(await db.actions.load_actions(store, game.id)) == 2
    assert await db.actions.append_actions(store, bad[:1])
    assert len(await db.actions.load_actions(store, game.id)) == 3


@pytest.mark.parametrize("generic", [False, True], ids=["dialect", "generic"])
async def test_action_batches_are_taken_until_none_are_left(
    store: Database, table: Table, generic: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if generic:  # the base class's loop over execute_batch, which a dialect may override
        monkeypatch.setattr(type(store), "commit_batches", Database.commit_batches)
    game = await new_game(store, table.session.id, 1)
    now = at(2026, 1, 1)
    queue = [
        [(game.id, 0, {"seat": 1, "reserve": False}, now, "a")],
        [(game.id, 1, {"seat": 2, "reserve": False}, now, "b")],
    ]
    stored: list[list[str]] = []
    await db.actions.append_action_batches(
        store,
        lambda: queue.pop(0) if queue else [],
        lambda batch: stored.append([tag for *_, tag in batch]),
    )
    await asyncio.sleep(0)  # the batches are reported on the event loop
    assert stored == [["a"], ["b"]]
    assert len(await db.actions.load_actions(store, game.id)) == 2
    # A refused action sinks its batch, whole, and nothing after it is taken.
    queue = [
        [(game.id, 2, {"seat": 3, "reserve": False}, now, "c")],
        [(game.id, 3, {"seat": 0, "reserve": False}, now, "d"), (game.id, 1, {}, now, "e")],
        [(game.id, 3, {"seat": 0, "reserve": False}, now, "f")],
    ]
    with pytest.raises(db.BatchFailed) as failed:
        await db.actions.append_action_batches(
            store,
            lambda: queue.pop(0) if queue else [],
            lambda batch: stored.append([tag for *_, tag in batch]),
        )
    await asyncio.sleep(0)
    assert [tag for *_, tag in failed.value.items] == ["d", "e"]
    assert stored[2:] == [["c"]] and len(queue) == 1
    assert len(await db.actions.load_actions(store, game.id)) == 3


async def test_concurrent_double_click_stores_one_action(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    outcomes = await asyncio.gather(
        *(
            db.actions.append_action(store, game.id, 0, {"seat": 1, "reserve": False})
            for _ in range(5)
        ),
        return_exceptions=True,
    )
    assert outcomes.count(None) == 1
    assert sum(isinstance(o, db.DuplicateActionError) for o in outcomes) == 4
    assert len(await db.actions.load_actions(store, game.id)) == 1


async def test_action_joins_the_callers_transaction(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    with pytest.raises(RuntimeError):
        async with store.transaction():
            await db.actions.append_action(store, game.id, 0, {"seat": 1, "reserve": False})
            await db.tables.update_table(store, table.table.id, table.table.version)
            raise RuntimeError("the engine failed after storing")
    # Both writes rolled back together.
    assert await db.actions.load_actions(store, game.id) == []
    assert (await db.tables.get_table(store, table.table.id)).version == table.table.version

    async with store.transaction():
        await db.actions.append_action(store, game.id, 0, {"seat": 1, "reserve": False})
        await db.tables.update_table(store, table.table.id, table.table.version)
    assert len(await db.actions.load_actions(store, game.id)) == 1


async def test_other_tasks_wait_for_an_open_transaction(store: Database, table: Table) -> None:
    game = await new_game(store, table.session.id, 1)
    seen: list[int] = []

    async def reader() -> None:
        seen.append(len(await db.actions.load_actions(store, game.id)))

    async with store.transaction():
        await db.actions.append_action(store, game.id, 0, {"seat": 1, "reserve": False})
        task = asyncio.create_task(reader())
        await asyncio.sleep(0.01)
        assert not task.done()  # it must not read half a transaction
        await db.actions.append_action(store, game.id, 1, {"seat": 2, "reserve": False})
    await task
    assert seen == [2]


async def test_timers(store: Database, table: Table) -> None:
    start = at(2025, 5, 1)
    turn = await db.timers.add_timer(
        store, "turn", start + timedelta(seconds=60), table_id=table.table.id, payload={"seat": 2}
    )
    nudge = await db.timers.add_timer(
        store, "nudge", start + timedelta(seconds=30), table_id=table.table.id
    )
    tournament = await db.timers.add_timer(
        store, "tournament_start", start + timedelta(hours=1), tournament_id=7
    )
    assert turn.payload == {"seat": 2} and turn.fires_at == start + timedelta(seconds=60)
    assert [t.id for t in await db.timers.list_timers(store)] == [nudge.id, turn.id, tournament.id]
    due = await db.timers.list_timers(store, due_by=start + timedelta(seconds=60))
    assert [t.kind for t in due] == ["nudge", "turn"]

    assert await db.timers.cancel_timer(store, nudge.id)
    assert not await db.timers.cancel_timer(store, nudge.id)
    await db.timers.add_timer(store, "turn", start, table_id=table.table.id)
    assert await db.timers.cancel_table_timers(store, table.table.id, "turn") == 2
    assert [t.id for t in await db.timers.list_timers(store)] == [tournament.id]
    assert await db.timers.cancel_table_timers(store, table.table.id) == 0


async def test_timers_survive_a_restart(database_target: str | Path) -> None:
    path = database_target
    store = await db.connect(path)
    timer = await db.timers.add_timer(store, "tournament_start", at(2030, 1, 1), tournament_id=1)
    await store.close()
    store = await db.connect(path)
    try:
        assert await db.timers.list_timers(store) == [timer]
    finally:
        await store.close()


async def test_naive_datetimes_are_refused(store: Database) -> None:
    with pytest.raises(ValueError, match="naive"):
        await db.timers.add_timer(store, "turn", at(2025, 1, 1).replace(tzinfo=None))
