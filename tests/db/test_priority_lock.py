"""The store's lock lets the engine's group commit go before queued bookkeeping writes."""

from __future__ import annotations

import asyncio

import pytest

from db.database import _PriorityLock


async def test_urgent_waiters_go_first_then_the_others_in_order() -> None:
    lock = _PriorityLock()
    order: list[str] = []

    async def hold(name: str, urgent: bool) -> None:
        async with lock.urgent() if urgent else lock:
            order.append(name)
            await asyncio.sleep(0)

    await lock.acquire()  # held: everybody below queues
    tasks = [
        asyncio.create_task(hold("a", False)),
        asyncio.create_task(hold("b", False)),
        asyncio.create_task(hold("u1", True)),
        asyncio.create_task(hold("u2", True)),
    ]
    await asyncio.sleep(0.01)
    lock.release()
    await asyncio.gather(*tasks)
    assert order == ["u1", "u2", "a", "b"]
    await asyncio.wait_for(lock.acquire(), 1)  # free again
    lock.release()


async def test_a_cancelled_waiter_does_not_keep_the_lock() -> None:
    lock = _PriorityLock()
    await lock.acquire()
    waiter = asyncio.create_task(lock.acquire(urgent=True))
    other = asyncio.create_task(lock.acquire())
    await asyncio.sleep(0.01)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    lock.release()
    await asyncio.wait_for(other, 1)  # the lock went on to the next waiter
    lock.release()
    await asyncio.wait_for(lock.acquire(), 1)
    lock.release()
