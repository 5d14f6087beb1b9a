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
import heapq
import itertools
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from types import SimpleNamespace

import aiohttp

from bot.discord.state import TableState, UserState
from bot.engine.model import TableInfo

#: Requests a second Discord allows a bot in all (its global rate limit).
GLOBAL_PER_S = 50.0
#: The share of it the presenter spends: the rest is for commands' own requests (pings,
#: tournament posts, command sync) that do not take turns here, and a margin: requests
#: granted evenly may still reach Discord bunched (a busy loop, the network).
PRESENTER_SHARE = 0.8
#: Requests waiting for a turn from which the budget counts as short (``busy``).
BUSY_WAITERS = 10
#: The share of the global limit that :class:`WireGuard` lets through in any one second.
WIRE_SHARE = 0.9


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
    future: asyncio.Future[int] = field(compare=False)  # its result: the priority granted
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
        self._keyed: dict[object, _Waiter] = {}  # ranked waiters by key, for rerank(key)
        self._seq = itertools.count()
        self._next = 0.0  # the earliest time of the next turn
        self._task: asyncio.Task[None] | None = None
        self.granted: Counter[Priority] = Counter()  # turns handed out, by priority
        self.waited_s: dict[Priority, float] = dict.fromkeys(Priority, 0.0)  # seconds, in all

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def busy(self) -> bool:
        """Whether requests queue for turns: a DM edit saved is worth a short wait then."""
        return len(self._waiting) >= BUSY_WAITERS

    @contextlib.asynccontextmanager
    async def turn(
        self,
        priority: Priority,
        since: float | None = None,
        rank: Callable[[], tuple[int, float]] | None = None,
        key: object = None,
    ) -> AsyncIterator[None]:
        """Wait for a turn, then make the request in the block.

        ``since`` orders waiters of one priority (older first; default: now). ``rank``, when
        given, is asked for the current ``(priority, since)`` whenever a turn is handed out;
        with a ``key`` (its table), ``rerank(key)`` asks it alone.
        """
        asked = self._clock()
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(int(priority), asked if since is None else since, next(self._seq), future)
        waiter.rank = rank
        heapq.heappush(self._waiting, waiter)
        if key is not None and rank is not None:
            self._keyed[key] = waiter
        self._kick()
        try:
            granted = Priority(await future)
        except asyncio.CancelledError:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
                heapq.heapify(self._waiting)
            raise
        finally:
            if key is not None and (keyed := self._keyed.get(key)) and keyed.future is future:
                del self._keyed[key]
        self.granted[granted] += 1
        self.waited_s[granted] += self._clock() - asked
        yield

    def _kick(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._hand_out(), name="doko-request-budget")

    def rerank(self, key: object = None) -> None:
        """Ask every ranked waiter for its place again, or only the one waiting with ``key``
        (a game ended: its table goes up; asking all cost O(waiters) per game at 1,000
        tables).
        """
        if key is not None:
            waiter = self._keyed.get(key)
            if waiter is None or waiter.rank is None or waiter.future.done():
                return
            place = waiter.rank()
            if place < (waiter.priority, waiter.since):
                # Moved up: a copy with the same future goes in line at its new place; the
                # one left behind finds its future done when it comes up, and is dropped.
                ahead = _Waiter(place[0], place[1], next(self._seq), waiter.future, waiter.rank)
                heapq.heappush(self._waiting, ahead)
                self._keyed[key] = ahead
            return
        for waiter in self._waiting:
            if waiter.rank is not None:
                waiter.priority, waiter.since = waiter.rank()
        heapq.heapify(self._waiting)

    def _pick(self) -> _Waiter:
        # The first in line is asked again before it goes (its table may have moved on);
        # one that fell behind goes back in line. Moves up are made known by ``rerank``.
        while True:
            best = heapq.heappop(self._waiting)
            if best.rank is None:
                return best
            place = best.rank()
            if place <= (best.priority, best.since) or not self._waiting:
                best.priority, best.since = place
                return best
            best.priority, best.since = place
            heapq.heappush(self._waiting, best)

    async def _hand_out(self) -> None:
        while self._waiting:
            now = self._clock()
            if now < self._next:
                await self._sleep(self._next - now)
                continue
            waiter = self._pick()
            if waiter.future.done():
                continue  # cancelled meanwhile
            waiter.future.set_result(waiter.priority)
            # Evenly spaced; an idle spell does not save up a burst.
            self._next = max(self._next, now) + 1 / self.rate
            await asyncio.sleep(0)  # the waiter sends before the next one is picked

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


def process_share(shard_ids: Sequence[int] | None, shard_count: int | None) -> float:
    """This process's share of the token's global budget: sharded, by the shards it runs."""
    return len(shard_ids) / shard_count if shard_ids and shard_count else 1.0


class WireGuard:
    """The last check before a request goes out: at most ``limit`` requests that count
    against the global limit start in any one second (a sliding window, so no window of
    Discord's, however aligned, sees more).

    Turns space the presenter's requests, but a request can reach the wire later than its
    turn: a hand job takes its turn before it draws the hand (measured at 400 tables: turns
    held through a slow start went out together, 45 a second for six seconds), discord.py
    waits for the route's bucket inside the call and repeats a request after a 429, and
    commands make requests of their own. Under load those bunch; this holds each at the
    moment aiohttp starts it (a hook of aiohttp's public tracing, which discord.py takes as
    ``http_trace``).
    """

    def __init__(
        self,
        limit: int,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.limit = max(1, limit)
        self._clock, self._sleep = clock, sleep
        self._started: deque[float] = deque()
        self._lock = asyncio.Lock()  # those held go out in the order they came
        self.held = 0  # requests that had to wait
        self.held_s = 0.0
        self.started = 0  # every request it let out (the benchmark: each process's part)

    async def wait(self) -> None:
        asked = self._clock()
        held = self._lock.locked()  # others are held: this one goes after them
        async with self._lock:
            now = self._clock()
            while True:
                while self._started and self._started[0] <= now - 1.0:
                    self._started.popleft()
                if len(self._started) < self.limit:
                    break
                held = True
                await self._sleep(self._started[0] + 1.0 - now)
                now = self._clock()
            self._started.append(now)
        self.started += 1
        if held:
            self.held += 1
            self.held_s += now - asked

    def trace(self) -> aiohttp.TraceConfig:
        """The hook for discord.py's ``http_trace``: REST requests wait for the guard;
        interaction callbacks and webhooks (exempt from the global limit) and the gateway
        do not.
        """

        async def on_request_start(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestStartParams,
        ) -> None:
            if counts_globally(params.url.scheme, params.url.path):
                await self.wait()

        config = aiohttp.TraceConfig()
        config.on_request_start.append(on_request_start)
        return config


def counts_globally(scheme: str, path: str) -> bool:
    """Whether a request to ``path`` counts against Discord's global limit."""
    if scheme not in ("http", "https"):
        return False  # the gateway's websocket
    return "/interactions/" not in path and "/webhooks/" not in path


def _human_to_act(info: TableInfo) -> int | None:
    pv = info.public
    if info.status != "playing" or pv is None or pv.to_act is None:
        return None
    player = info.player(pv.to_act)
    if player is None or player.played_by_ai:
        return None
    return player.user_id


def table_rank(state: TableState) -> tuple[int, float]:
    """Where the table's next message request stands in the queue: a game's end first, then
    a table where a human is to act; among equals the one edited longest ago.
    """
    info = state.info
    if state.finals or state.session_over or (info is not None and info.status == "closed"):
        return Priority.TABLE_END, state.edited_at
    if info is not None and _human_to_act(info) is not None:
        return Priority.TABLE_WAITING, state.edited_at
    return Priority.TABLE, state.edited_at


@contextlib.asynccontextmanager
async def table_turn(
    budget: RequestBudget, state: TableState, *, first: bool = False, hold: bool = True
) -> AsyncIterator[None]:
    """A turn for the table message: ``first`` for a sync (ranked anew while it waits); a
    request within the sync uses the sync's turn, a second one waits for its own. A sync
    whose turn is not one of the global budget (edits through an interaction) does not
    ``hold`` it for its requests.
    """
    if first:
        priority, since = table_rank(state)
        async with budget.turn(
            Priority(priority), since, lambda: table_rank(state), state.table_id
        ):
            state.has_turn = hold
            try:
                yield
            finally:
                state.has_turn = False
        return
    if state.has_turn:
        state.has_turn = False
        yield
    else:
        async with budget.turn(Priority.TABLE_END, state.edited_at):
            yield
    state.edited_at = time.monotonic()


@contextlib.asynccontextmanager
async def hand_turn(
    budget: RequestBudget, user: UserState, priority: Priority
) -> AsyncIterator[None]:
    """A turn for a request of the user's hand job: the job's own turn (taken before it
    waited for the hand's lock, so a click's answer is never held up by the budget) for its
    first request, a new one for each after it.
    """
    if user.has_turn:
        user.has_turn = False
        yield
    else:
        async with budget.turn(priority):
            yield


async def bank_turn(budget: RequestBudget, user: UserState, priority: Priority) -> None:
    """Make sure the hand job holds a turn before it renders: a wait after the render
    would send a hand that may be out of date (its owner may have left the seat).
    """
    if not user.has_turn:
        async with budget.turn(priority):
            user.has_turn = True


def hand_priority(info: TableInfo, user_id: int) -> Priority:
    """A hand its owner is to act on goes before other hands."""
    return Priority.HAND_NOW if _human_to_act(info) == user_id else Priority.HAND
