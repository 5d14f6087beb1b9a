"""The store writer: group commit of accepted actions, each acknowledged once it is durable."""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from db import actions
from db.database import BatchFailed, Database


class _Stored(asyncio.Future[None]):
    """The outcome of storing one action; it cannot be cancelled.

    A cancelled waiter still learns whether its action is in the database (the task is
    cancelled once the future is done), like ``asyncio.shield`` but without the shield's
    extra pass through the event loop before the player is acknowledged.
    """

    def cancel(self, msg: Any | None = None) -> bool:
        return False


_Pending = tuple[int, int, dict[str, Any], datetime, asyncio.Future[None]]


class ActionWriter:
    """Group commit: actions of many tables that arrive together share one transaction.

    Each action is acknowledged only after the transaction that holds it committed. If a
    batch fails, its actions are stored one by one, so one bad action sinks no other.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        # Appended here, popped by ``_take`` in the database's thread (deque ops are atomic).
        self._pending: deque[_Pending] = deque()
        self._task: asyncio.Task[None] | None = None
        # For the benchmarks: how many actions each commit took along.
        self.commits = 0
        self.actions_committed = 0
        self.largest_commit = 0
        # Commit times in whole milliseconds (a histogram: a long-running bot keeps no list),
        # from taking a batch to its waiters being woken.
        self.commit_ms: Counter[int] = Counter()
        self._taken: dict[int, float] = {}

    def append(
        self, game_id: int, seq: int, action: dict[str, Any], now: datetime
    ) -> asyncio.Future[None]:
        future: asyncio.Future[None] = _Stored(loop=asyncio.get_running_loop())
        self._pending.append((game_id, seq, action, now, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._flush(), name="doko-action-writer")
        return future

    async def store(self, game_id: int, seq: int, action: dict[str, Any], now: datetime) -> bool:
        """Append and wait until the action is durable; a storage error propagates.

        Cancelling the waiter does not stop the write: the outcome must still be known, or
        memory and the store would disagree. Returns whether the waiter was cancelled, so
        the caller can apply the action first and then re-raise the cancellation.
        """
        stored = self.append(game_id, seq, action, now)
        cancelled = False
        while not stored.done():
            try:
                await stored  # a _Stored: cancelling the waiter leaves it running
            except asyncio.CancelledError:
                cancelled = True
        stored.result()
        return cancelled

    def _take(self) -> list[_Pending]:
        batch = []
        pending = self._pending
        while pending:
            batch.append(pending.popleft())
        if batch:
            self._taken[id(batch)] = time.perf_counter()
        return batch

    def _stored(self, batch: Sequence[_Pending]) -> None:
        taken = self._taken.pop(id(batch), None)
        if taken is not None:
            self.commit_ms[round((time.perf_counter() - taken) * 1000)] += 1
        self.commits += 1
        self.actions_committed += len(batch)
        self.largest_commit = max(self.largest_commit, len(batch))
        for *_, future in batch:
            future.set_result(None)

    def stats(self) -> dict[str, Any]:
        """Group commits so far, the actions they stored, the most in one, their times."""
        return {
            "commits": self.commits,
            "actions": self.actions_committed,
            "largest_commit": self.largest_commit,
            "commit_ms": dict(self.commit_ms),
        }

    async def _flush(self) -> None:
        while self._pending:
            try:
                await actions.append_action_batches(self.db, self._take, self._stored)
            except BatchFailed as failed:
                self._taken.pop(id(failed.items), None)
                await self._one_by_one(failed.items)
            except Exception:
                # Nothing was taken (the store is closing, say): each action gets the error.
                await self._one_by_one(self._take())

    async def _one_by_one(self, batch: Sequence[_Pending]) -> None:
        for game_id, seq, action, now, future in batch:
            try:
                await actions.append_action(self.db, game_id, seq, action, now=now)
            except Exception as err:
                future.set_exception(err)
            else:
                self.commits += 1
                self.actions_committed += 1
                future.set_result(None)
