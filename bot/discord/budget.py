"""Discord's global request budget, spent in order of what players wait for.

Discord allows a bot 50 requests a second in all, every shard and process together; a bot
over it gets 429s and discord.py stalls every such request (interaction callbacks and
follow-ups are exempt: acknowledgements never wait here). The presenter's sends and edits in
channels and DMs take a turn here first, spaced evenly at this process's share of the
budget, so that the limit is never hit.

Turns go by priority, then by age:

1. ``HAND_NOW``: a hand a human needs to act on (and its DM channel);
2. ``HAND``: other private hands;
3. ``TABLE_END``: a table message that shows a game's end (or the table closing);
4. ``TABLE_WAITING``: a table message while a human is to act;
5. ``TABLE``: every other table message edit.

Among table messages the one whose last edit is oldest goes first, so each table gets a fair
share: when the budget is short, every table's message is edited less often (a debounce
that grows with the load) while private hands keep going at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from enum import IntEnum

#: Requests a second Discord allows a bot in all (its global rate limit).
GLOBAL_PER_S = 50.0
#: The share of it the presenter spends: the rest is for commands' own requests (pings,
#: tournament posts, command sync) that do not take turns here.
PRESENTER_SHARE = 0.9


class Priority(IntEnum):
    HAND_NOW = 0
    HAND = 1
    TABLE_END = 2
    TABLE_WAITING = 3
    TABLE = 4


@dataclass(order=True)
class _Waiter:
    priority: int
    since: float  # hands: when they asked; tables: when the message was last edited
    seq: int
    future: asyncio.Future[None] = field(compare=False)
    # Asked again when a turn is handed out: a table that waits may have become urgent.
    rank: Callable[[], tuple[int, float]] | None = field(default=None, compare=False)


class RequestBudget:
    """Turns for requests against the global rate limit, ``rate`` a second at most.

    Turns are spaced ``1 / rate`` apart, never in bursts, so no window of one second holds
    more than ``rate`` + 1 of them whatever its alignment.
    """

    def __init__(
        self,
        rate: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self._clock, self._sleep = clock, sleep
        self._waiting: list[_Waiter] = []
        self._seq = itertools.count()
        self._next = 0.0  # the earliest time of the next turn
        self._task: asyncio.Task[None] | None = None
        self.granted: Counter[Priority] = Counter()  # turns handed out, by priority
        self.waited_s: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds, in all

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @contextlib.asynccontextmanager
    async def turn(
        self,
        priority: Priority,
        since: float | None = None,
        rank: Callable[[], tuple[int, float]] | None = None,
    ) -> AsyncIterator[None]:
        """Wait for a turn, then make the request in the block.

        ``since`` orders waiters of one priority (older first; default: now). ``rank``, when
        given, is asked for the current ``(priority, since)`` whenever a turn is handed out.
        """
        asked = self._clock()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(int(priority), asked if since is None else since, next(self._seq), future)
        waiter.rank = rank
        self._waiting.append(waiter)
        self._kick()
        try:
            await future
        except asyncio.CancelledError:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
            raise
        granted = Priority(waiter.priority)
        self.granted[granted] += 1
        self.waited_s[granted] += self._clock() - asked
        yield

    def _kick(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._hand_out(), name="doko-request-budget")

    def _pick(self) -> _Waiter:
        for waiter in self._waiting:
            if waiter.rank is not None:
                waiter.priority, waiter.since = waiter.rank()
        best = min(self._waiting)
        self._waiting.remove(best)
        return best

    async def _hand_out(self) -> None:
        while self._waiting:
            now = self._clock()
            if now < self._next:
                await self._sleep(self._next - now)
                continue
            waiter = self._pick()
            if waiter.future.done():
                continue  # cancelled meanwhile
            waiter.future.set_result(None)
            # Evenly spaced; an idle spell does not save up a burst.
            self._next = max(self._next, now) + 1 / self.rate
            await asyncio.sleep(0)  # the waiter sends before the next one is picked

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
