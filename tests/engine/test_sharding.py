"""Several engines on one database: each acts only on its guilds' tables, and only on those
it holds the lease of; a table waits for a restarting process's lease, then is taken over.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

import db
from bot.engine import Engine, EngineError, Event, TableChanged
from db import leases
from tests.engine.conftest import RandomAI, seed_counter

HOST = 100
EVEN_GUILD, ODD_GUILD = 2 << 22, 3 << 22  # shard 0 and shard 1 of two
LEASE_S = 0.3  # renewed every 0.1 s


def shard(number: int) -> Callable[[int], bool]:
    return lambda guild_id: (guild_id >> 22) % 2 == number


@asynccontextmanager
async def running(
    target: str | Path, owner: str, owns: Callable[[int], bool]
) -> AsyncIterator[Engine]:
    store = await db.connect(target)
    engine = Engine(
        store,
        ai=RandomAI(),
        seeds=seed_counter(),
        ai_in_thread=False,
        owns_guild=owns,
        lease_owner=owner,
        lease_seconds=LEASE_S,
    )
    try:
        await engine.start()
        yield engine
    finally:
        await engine.close()
        await store.close()


async def test_a_table_for_another_shards_guild_is_refused(db_path: str | Path) -> None:
    async with running(db_path, "zero", shard(0)) as engine:
        with pytest.raises(EngineError) as err:
            await engine.create_table(guild_id=ODD_GUILD, channel_id=1, host_id=HOST, host_name="H")
        assert err.value.reason == "not_owner"
        info = await engine.create_table(
            guild_id=EVEN_GUILD, channel_id=1, host_id=HOST, host_name="H"
        )
        lease = await leases.get(engine.db, info.id)
        assert lease is not None and lease.owner_id == "zero"


async def test_start_loads_only_its_guilds_tables(db_path: str | Path) -> None:
    async with running(db_path, "all", lambda _: True) as engine:
        even = await engine.create_table(
            guild_id=EVEN_GUILD, channel_id=1, host_id=HOST, host_name="H"
        )
        odd = await engine.create_table(
            guild_id=ODD_GUILD, channel_id=1, host_id=HOST, host_name="H"
        )
    # Closed gracefully: the leases were given up.
    async with running(db_path, "one", shard(1)) as engine:
        assert [t.id for t in engine.open_tables()] == [odd.id]
        assert engine.find_table(EVEN_GUILD, 1) is None
        lease = await leases.get(engine.db, even.id)  # released, and left alone since
        assert lease is not None and lease.owner_id == "all"


async def test_a_held_table_waits_for_the_lease_then_is_taken_over(db_path: str | Path) -> None:
    async with running(db_path, "old", shard(0)) as old:
        info = await old.create_table(
            guild_id=EVEN_GUILD, channel_id=1, host_id=HOST, host_name="H"
        )
        info = await old.start_game(info.id, HOST)
        # The replacement starts while the old process still runs: it must keep its hands off.
        async with running(db_path, "new", shard(0)) as new:
            published: list[Event] = []

            async def listen(event: Event) -> None:
                published.append(event)

            new.subscribe(listen)
            assert new.open_tables() == []
            await asyncio.sleep(LEASE_S * 2)  # the old one renews: still not taken over
            assert new.open_tables() == []
            await old.close()  # gives the lease up
            for _ in range(400):  # generous: CI machines are slow and shared
                if new.open_tables():
                    break
                await asyncio.sleep(0.05)
            assert [t.id for t in new.open_tables()] == [info.id]
            lease = await leases.get(new.db, info.id)
            assert lease is not None and lease.owner_id == "new"
            # The front ends hear of the table taken over (its messages, a waiting turn).
            assert any(isinstance(e, TableChanged) and e.table.id == info.id for e in published)
            # It plays on: the host's move is taken, the AIs answer.
            await new.idle()
            before = new.table(info.id).version
            view = new.view_for(info.id, HOST)
            await new.act(info.id, HOST, view.legal[0])
            assert new.table(info.id).version > before
