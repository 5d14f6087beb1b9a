"""Many kill -9 of the bot process during play (issue 20): every restart plays on.

A human plays against three AIs with random choices among the enabled buttons (cards,
Vorbehalt, calls, solo declarations), so the games meet all kinds of contracts and calls;
after a few moves the bot process is killed at a random moment and started again. After
each restart the human must be offered a move within ``TURN_WAIT_S``, else the test stops
and says whether the bot or this harness stalled: the harness measures its own event
loop's lag, and the store says whose turn it is. ``DOKO_KILLS`` sets the number of kills
(6 by default; issue 20 saw its stall after 40).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from functools import partial
from pathlib import Path

import pytest

import db
from bot.discord.library import apply_discord_overrides
from bot.discord.run import sync_commands
from bot.engine import Engine
from tests.discord.conftest import settings_for
from tests.discord.test_process import start_process
from tests.engine.conftest import RandomAI
from tests.fakediscord import Channel, FakeDiscord, Message, User

KILLS = int(os.environ.get("DOKO_KILLS", "6"))
TURN_WAIT_S = 30.0
MOVES = ("doko:card:", "doko:reserve:", "doko:call:", "doko:declare:")


def moves(message: Message) -> list[dict[str, object]]:
    return [
        c
        for c in message.iter_components()
        if str(c.get("custom_id", "")).startswith(MOVES) and not c.get("disabled")
    ]


def version_of(custom_id: str) -> int:
    return int(custom_id.split(":")[3])


def offered(fake: FakeDiscord, user: User, channel: Channel, after: int) -> Message | None:
    """The newest message showing ``user`` moves for a version past ``after``."""
    for where in (fake.dm_channel(user), channel):
        for message in reversed(fake.visible_messages(user, where)):
            found = moves(message)
            if found and version_of(str(found[0]["custom_id"])) > after:
                return message
    return None


async def loop_lag(lags: list[float]) -> None:
    """This harness's own stalls: how late a 50 ms sleep wakes up, the worst so far."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(0.05)
        lags[0] = max(lags[0], time.monotonic() - start - 0.05)


async def whose_turn(db_path: Path) -> str:
    """The stored state, rebuilt as a restarted engine would: who is to act, and in what."""
    store = await db.connect(db_path)
    engine = Engine(store, ai=RandomAI(), ai_in_thread=False)  # not started: nothing acts
    try:
        shown = []
        for row in await db.tables.list_open_tables(store):
            info = (await engine._recovery.load(row.id)).snapshot()
            if info.public is not None:
                shown.append(
                    f"table {info.id} v{info.version} {info.public.phase} {info.public.contract}"
                    f" to act {info.public.to_act} cards {info.public.cards_in_hand}"
                )
        return "; ".join(shown)
    finally:
        await store.close()


def lobby_of(fake: FakeDiscord, channel: Channel) -> Message | None:
    for message in reversed(fake.channel_messages(channel)):
        if any(c.startswith("doko:join:") for c in message.custom_ids):
            return message
    return None


async def click_lobby(fake: FakeDiscord, user: User, channel: Channel, prefix: str) -> None:
    lobby = lobby_of(fake, channel)
    assert lobby is not None
    custom_id = next(c for c in lobby.custom_ids if c.startswith(prefix))
    assert (await fake.response(await fake.click(user, lobby, custom_id), timeout=3)).status == 200


async def next_move(
    fake: FakeDiscord, user: User, channel: Channel, after: int, db_path: Path
) -> Message | None:
    """The message offering ``user`` a move, or None once the session has ended (its last
    game scored, no table open). Waits at most ``TURN_WAIT_S`` for a table still open.
    """
    deadline = time.monotonic() + TURN_WAIT_S
    while True:
        try:
            return await fake.wait_for(partial(offered, fake, user, channel, after), 1, "a move")
        except TimeoutError:
            # Checked every second, not only after TURN_WAIT_S: sessions end often here.
            if not await _table_open(db_path):
                return None
            if time.monotonic() > deadline:
                raise


# A kill costs a restart and a few moves (about 2 s), not the 300 s of the other tests.
@pytest.mark.timeout(max(300, 30 * KILLS))
@pytest.mark.allow_429s(KILLS)
async def test_kill_9_again_and_again_every_restart_plays_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    rng = random.Random(20)
    anna = fake.add_user("anna")
    guild = fake.add_guild("Stammtisch", owner=anna)
    channel = guild.channels[0]
    db_path = tmp_path / "doko.sqlite3"
    apply_discord_overrides(fake.env())
    await sync_commands(settings_for(fake, db_path), None)
    lags = [0.0]
    lag_task = asyncio.create_task(loop_lag(lags))
    process = await start_process(fake, db_path)
    kills = games_started = clicks = 0
    last = -1
    try:
        while kills < KILLS:
            if offered(fake, anna, channel, last) is None and not await _table_open(db_path):
                ix = await fake.slash(anna, "doko tisch", in_channel=channel, spiele=2)
                await fake.followup(ix, timeout=10)
                for seats in (2, 3, 4):
                    await click_lobby(fake, anna, channel, "doko:addai:")
                    await fake.wait_for(
                        lambda seats=seats: (
                            (lobby := lobby_of(fake, channel)) is not None
                            and sum(c.startswith("doko:removeai:") for c in lobby.custom_ids)
                            >= seats - 1
                        ),
                        5,
                        "the AI seated",
                    )
                await click_lobby(fake, anna, channel, "doko:start:")
                games_started += 1
                last = -1
            for _ in range(rng.randint(1, 8)):
                lags[0] = 0.0
                try:
                    message = await next_move(fake, anna, channel, last, db_path)
                except TimeoutError:
                    raise AssertionError(
                        f"stalled after {kills} kills: no move offered for {TURN_WAIT_S} s; "
                        f"harness loop lag {lags[0]:.1f} s; stored: {await whose_turn(db_path)}"
                    ) from None
                if message is None:
                    break  # the session ended: open the next table
                choice = rng.choice(moves(message))
                custom_id = str(choice["custom_id"])
                if custom_id.startswith("doko:declare:"):
                    options = choice.get("options") or []
                    value = rng.choice(options)["value"]  # type: ignore[index]
                    ix = await fake.select(anna, message, custom_id, [value])
                else:
                    ix = await fake.click(anna, message, custom_id)
                clicks += 1
                last = version_of(custom_id)
                callback = await fake.response(ix, timeout=3)
                assert callback.status == 200, callback
            await asyncio.sleep(rng.uniform(0, 0.3))  # sometimes mid-AI, mid-edit
            process.kill()
            await process.wait()
            kills += 1
            process = await start_process(fake, db_path)
            last = -1  # the restarted process shows the hand afresh
    finally:
        lag_task.cancel()
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.communicate(), 20)
    assert kills == KILLS and clicks > KILLS and games_started >= 1


async def _table_open(db_path: Path) -> bool:
    """Whether the store has an open table (the session not over yet)."""
    store = await db.connect(db_path)
    try:
        return bool(await db.tables.list_open_tables(store))
    finally:
        await store.close()
