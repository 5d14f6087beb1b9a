"""Discord's global request budget (budget.py): turns go to private hands before table
messages, to a game's end before play, and fairly among tables; nothing here is timed.
"""

from __future__ import annotations

import asyncio
import itertools
from types import SimpleNamespace
from typing import Any

from bot.discord.budget import (
    GLOBAL_PER_S,
    PRESENTER_SHARE,
    Priority,
    RequestBudget,
    WireGuard,
    counts_globally,
)
from bot.discord.presenter import Presenter
from tests.discord.conftest import World

FAST = 10_000.0  # turns a second: the order is what these tests look at


def presenter(shard_ids: tuple[int, ...] | None = None, shard_count: int | None = None) -> Any:
    settings = SimpleNamespace(shard_ids=shard_ids, shard_count=shard_count, pictures=False)
    return Presenter(SimpleNamespace(settings=settings))


async def order_of(
    budget: RequestBudget, asks: list[tuple[str, Priority, float | None]]
) -> list[str]:
    """The order in which requests asked for together get their turns."""
    got: list[str] = []

    async def ask(name: str, priority: Priority, since: float | None) -> None:
        async with budget.turn(priority, since):
            got.append(name)

    await asyncio.gather(*(ask(*a) for a in asks))
    return got


async def test_hands_go_before_table_messages_and_a_game_end_before_play() -> None:
    budget = RequestBudget(FAST)
    got = await order_of(
        budget,
        [
            ("table", Priority.TABLE, 0.0),
            ("waiting", Priority.TABLE_WAITING, 0.0),
            ("end", Priority.TABLE_END, 5.0),
            ("other hand", Priority.HAND, None),
            ("hand to act on", Priority.HAND_NOW, None),
        ],
    )
    assert got == ["hand to act on", "other hand", "end", "waiting", "table"]


async def test_the_table_edited_longest_ago_goes_first() -> None:
    budget = RequestBudget(FAST)
    got = await order_of(budget, [(f"t{i}", Priority.TABLE, float(10 - i)) for i in range(10)])
    assert got == [f"t{i}" for i in reversed(range(10))]


async def test_a_waiting_table_that_becomes_urgent_moves_up() -> None:
    budget = RequestBudget(FAST)
    rank = {"a": (int(Priority.TABLE), 0.0), "b": (int(Priority.TABLE), 1.0)}
    got: list[str] = []

    async def ask(name: str) -> None:
        priority, since = rank[name]
        async with budget.turn(Priority(priority), since, lambda: rank[name]):
            got.append(name)

    tasks = [asyncio.create_task(ask(n)) for n in ("a", "b")]
    await asyncio.sleep(0)  # both wait now
    rank["b"] = (int(Priority.TABLE_END), 1.0)  # b's game ended meanwhile
    budget.rerank()  # the presenter does this on GameOver
    await asyncio.gather(*tasks)
    assert got == ["b", "a"]


async def test_tables_share_the_budget_fairly() -> None:
    """Three tables asking again after each edit get turns in rotation, none twice in a row
    while another waits.
    """
    budget = RequestBudget(FAST)
    edited = {"a": 0.0, "b": 0.0, "c": 0.0}
    got: list[str] = []
    clock = iter(range(1, 1000))

    async def table(name: str) -> None:
        for _ in range(4):
            async with budget.turn(Priority.TABLE, edited[name]):
                got.append(name)
            edited[name] = float(next(clock))
            await asyncio.sleep(0)

    await asyncio.gather(*(table(n) for n in edited))
    assert len(got) == 12
    for i in range(0, 12, 3):
        assert sorted(got[i : i + 3]) == ["a", "b", "c"]


async def test_a_cancelled_wait_gives_its_turn_to_the_next() -> None:
    budget = RequestBudget(FAST)
    got: list[str] = []

    async def ask(name: str, priority: Priority) -> None:
        async with budget.turn(priority):
            got.append(name)

    gone = asyncio.create_task(ask("gone", Priority.HAND_NOW))
    stays = asyncio.create_task(ask("stays", Priority.TABLE))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(gone, stays, return_exceptions=True)
    assert got == ["stays"] and budget.waiting == 0


def test_a_process_of_several_shards_spends_its_share() -> None:
    assert presenter().budget.rate == GLOBAL_PER_S * PRESENTER_SHARE
    assert (
        presenter(shard_ids=(0,), shard_count=4).budget.rate == GLOBAL_PER_S * PRESENTER_SHARE / 4
    )


async def test_turns_are_spaced_evenly_within_the_global_limit() -> None:
    """On a clock of its own: after an idle spell no burst, every turn 1/rate after the last,
    so no second holds more than the limit.
    """
    now = [100.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    rate = presenter().budget.rate
    assert rate < GLOBAL_PER_S
    budget = RequestBudget(rate, lambda: now[0], sleep)
    times: list[float] = []

    async def ask() -> None:
        async with budget.turn(Priority.HAND):
            times.append(now[0])

    await asyncio.gather(*(ask() for _ in range(200)))
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= 1 / rate - 1e-9
    assert max(sum(1 for t in times if start <= t < start + 1) for start in times) < GLOBAL_PER_S


async def test_a_table_whose_game_ended_moves_up_alone() -> None:
    """``rerank(key)`` asks only that table's waiter; the others keep their places."""
    budget = RequestBudget(FAST)
    rank = {n: (int(Priority.TABLE), float(i)) for i, n in enumerate("abc")}
    asked: list[str] = []
    got: list[str] = []

    def ranked(name: str) -> tuple[int, float]:
        asked.append(name)
        return rank[name]

    async def ask(name: str) -> None:
        priority, since = rank[name]
        async with budget.turn(Priority(priority), since, lambda: ranked(name), name):
            got.append(name)

    tasks = [asyncio.create_task(ask(n)) for n in "abc"]
    await asyncio.sleep(0)
    rank["c"] = (int(Priority.TABLE_END), 2.0)  # c's game ended
    budget.rerank("c")
    assert asked == ["c"]
    await asyncio.gather(*tasks)
    assert got == ["c", "a", "b"]
    assert budget.granted[Priority.TABLE_END] == 1  # counted at the place it went from


async def test_the_wire_guard_lets_no_second_hold_more_than_its_limit() -> None:
    now = [100.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds
        await asyncio.sleep(0)  # the others come meanwhile

    guard = WireGuard(45, lambda: now[0], sleep)
    started: list[float] = []

    async def request() -> None:
        await guard.wait()
        started.append(now[0])

    await asyncio.gather(*(request() for _ in range(200)))
    assert len(started) == 200
    assert max(sum(1 for t in started if s <= t < s + 1) for s in started) == 45
    assert 0 < guard.held <= 200 - 45  # the first 45 went at once
    assert started == sorted(started)  # in the order they came


def test_interactions_webhooks_and_the_gateway_pass_the_wire_guard() -> None:
    assert counts_globally("http", "/api/v10/channels/1/messages")
    assert counts_globally("https", "/api/v10/users/@me/channels")
    assert not counts_globally("http", "/api/v10/interactions/1/tok/callback")
    assert not counts_globally("http", "/api/v10/webhooks/1/tok/messages/@original")
    assert not counts_globally("ws", "/")


async def test_a_burst_of_requests_without_turns_gets_no_429(make_world: Any) -> None:
    # Sixty sends into sixty channels at once (no route bucket binds): without the guard
    # they reach Discord in the same second and ten of them get the global 429.
    world: World = await make_world(names=("anna",))
    fake, bot = world.fake, world.bot
    channels = [fake.add_channel(world.guild, f"tisch-{i}") for i in range(60)]
    await asyncio.gather(*(bot.http.send_message(c.id, params=_text("Hallo")) for c in channels))
    assert fake.ratelimits.global_limited == 0
    assert all(len(fake.channel_messages(c)) == 1 for c in channels)
    assert bot.wire.held >= 60 - bot.wire.limit


def _text(content: str) -> Any:
    from discord.http import handle_message_parameters

    return handle_message_parameters(content=content)
