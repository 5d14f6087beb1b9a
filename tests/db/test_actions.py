"""db.actions on SQLite and PostgreSQL: the action log, the group commit, transactions."""

from __future__ import annotations

import asyncio

import pytest

import db
from db import Database

from .conftest import Table, at, new_game


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
