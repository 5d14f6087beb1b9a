"""A transaction cancelled while BEGIN waits for another process's lock keeps no lock."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import db


async def test_a_cancelled_begin_leaves_no_transaction_behind(tmp_path: Path) -> None:
    path = tmp_path / "doko.sqlite3"
    store = await db.connect(path)
    other = sqlite3.connect(path, isolation_level=None, timeout=5)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock

        async def write() -> None:
            async with store.transaction():
                await store.execute("PRAGMA user_version")

        task = asyncio.create_task(write())
        await asyncio.sleep(0.2)  # BEGIN IMMEDIATE is waiting in the driver's thread
        task.cancel()
        await asyncio.sleep(0.05)
        other.execute("ROLLBACK")  # the lock is free: the abandoned BEGIN now gets it
        await asyncio.gather(task, return_exceptions=True)
        assert task.cancelled()
        # ...and has given it back: the other process can write again at once.
        other.execute("PRAGMA busy_timeout = 500")
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        async with store.transaction():  # and this connection is not stuck in one
            await store.execute("PRAGMA user_version")
    finally:
        other.close()
        await store.close()


async def test_a_begin_cancelled_in_flight_on_postgresql_leaves_no_transaction_open(
    postgres_target: str,
) -> None:
    # The flake of test_sharding (issue 20): a lease renewal cancelled while its BEGIN was
    # on the wire left the server in a transaction; the release written next never
    # committed and its row lock kept the other process's claim waiting.
    store = await db.connect(postgres_target)
    other = await db.connect(postgres_target)
    try:
        await store.execute("CREATE TABLE probe (n INTEGER)")
        for _ in range(20):  # the cancel must land while BEGIN's answer is on its way
            task = asyncio.create_task(_empty_transaction(store))
            await asyncio.sleep(0)  # BEGIN is sent, its answer not read yet
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await store.execute("INSERT INTO probe (n) VALUES (1)")
        # Written outside any transaction, so committed: another connection sees them all.
        assert await other.fetchval("SELECT COUNT(*) FROM probe") == 20
    finally:
        await other.close()
        await store.close()


async def _empty_transaction(store: db.Database) -> None:
    async with store.transaction():
        pass
