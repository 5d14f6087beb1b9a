"""Every table finishes under Discord's faults, with nothing lost and no click answered twice.

Four humans play a whole game while the fake answers with bursts of 429s (per route and
global), 5xx with and without bodies, drops the gateway connection, resumes in a storm, or
cannot resume the session at all. At the end the game's stored actions, its record and the
clicks the players made agree one to one, and every click got exactly one accepted answer.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.discord import codec
from bot.engine import EngineError
from bot.render.controls import TableButton
from bot.rules.records import action_to_dict
from db import actions
from tests.discord.conftest import World, message_text
from tests.discord.driver import default_choice, hand_for, human_to_act
from tests.fakediscord import Interaction

SEND = r"^POST /channels/\d+/messages$"
# A message edit by either route: the channel's, or an interaction's webhook (the table
# message and the hand DMs are edited through live interactions where they can).
EDIT = r"^PATCH /(channels/\d+|webhooks/\d+/[^/]+)/messages/(\d+|@original)$"
CALLBACK = r"^POST /interactions/"
WEBHOOK_EDIT = r"^PATCH /webhooks/"


@dataclass
class Clicked:
    interaction: Interaction
    action: dict[str, Any]


Faults = Callable[[World, int], Awaitable[None]]


async def seat_four(world: World, faults: Faults) -> int:
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    for user in world.users[1:]:
        await world.click(user, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: sum(s is not None for s in world.engine.table(table_id).seats) == 4,
        3,
        "four seats",
    )
    await faults(world, -1)  # before the deal: the table message and hand DMs are sent
    await world.click(anna, world.lobby(), "doko:start:")
    return table_id


async def play_with_faults(world: World, table_id: int, faults: Faults) -> list[Clicked]:
    """Every human turn until the table closes, ``faults(world, turn)`` before each; the
    clicks made, with the action each stands for.
    """
    clicks: list[Clicked] = []
    turn = 0
    while (found := await human_to_act(world, table_id)) is not None:
        await faults(world, turn)
        if world.fake.pending_faults():
            # Retries take seconds (discord.py's after a 5xx, the bot's after a 503): let the
            # messages catch up before looking for the hand, as a player would wait.
            await world.settle()
        user, _ = found
        message = await hand_for(world, user, table_id)
        info = world.engine.table(table_id)
        custom_id, values = default_choice(message, info)
        if values is None:
            ix = await world.fake.click(user, message, custom_id)
        else:
            ix = await world.fake.select(user, message, custom_id, values)
        target = codec.decode(custom_id, tuple(values or ())).target
        assert not isinstance(target, TableButton)
        clicks.append(Clicked(ix, action_to_dict(target)))

        def applied(before: int = info.version) -> bool:
            try:
                return world.engine.table(table_id).version > before
            except EngineError:
                return True  # the session is over

        await world.fake.wait_for(applied, 10, f"click {turn} ({custom_id}) to be applied")
        turn += 1
    return clicks


async def check_nothing_lost(world: World, game_id: int, clicks: list[Clicked]) -> None:
    """The stored actions are the clicks, in order, each once; every click has one answer."""
    await world.settle()
    assert world.fake.pending_faults() == []  # every fault injected was met
    stored = await actions.load_actions(world.bot.db, game_id)
    assert stored == [c.action for c in clicks]  # four humans: every action is a click
    # The game's record (doko-game/1, as /doko export gives it) has the same actions.
    ix = await world.run(world.users[0], "export")
    export = await world.fake.followup(ix)
    record = json.loads(export.attachments[0].data)
    assert record["actions"] == stored
    for click in clicks:
        statuses = [c.status for c in click.interaction.callbacks]
        assert statuses.count(200) == 1, (click.action, statuses)
        assert all(c.error_code != 40060 for c in click.interaction.callbacks), statuses
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 1 and "Danke fürs Spielen" in message_text(finals[0])
    # Every hand DM of the finished game shows how it ended: nothing stuck mid-game.
    for user in world.users:
        (dm,) = world.hand_dms(user)
        assert "Das Spiel ist vorbei" in dm.content, dm.content
        assert [c.split(":")[1] for c in dm.custom_ids] == ["analyse"]  # its one button left


async def play_and_check(world: World, faults: Faults) -> list[Clicked]:
    table_id = await seat_four(world, faults)
    game_id = await world.fake.wait_for(
        lambda: world.engine.table(table_id).game_id, 3, "the first deal"
    )
    clicks = await play_with_faults(world, table_id, faults)
    # The last card is applied before the game is booked and the session closes.
    await world.fake.wait_for(
        lambda: world.engine.find_table(world.guild.id, world.channel.id) is None, 10, "the end"
    )
    await check_nothing_lost(world, game_id, clicks)
    return clicks


async def test_bursts_of_429s_and_5xx_and_two_drops(make_world: Any) -> None:
    world: World = await make_world()
    fake = world.fake

    async def faults(world: World, turn: int) -> None:
        if turn == -1:
            fake.rate_limit_next(SEND, retry_after=0.2, times=2)
            fake.fail_next(SEND, 503)  # discord.py does not retry a 503: the bot must
            fake.fail_next(SEND, 502, body="empty")
        elif turn == 1:  # 429s as Discord sends them, per route and global
            fake.rate_limit_next(EDIT, retry_after=0.3, times=3)
            fake.rate_limit_next(EDIT, retry_after=0.2, is_global=True, times=2)
            fake.rate_limit_next(WEBHOOK_EDIT, retry_after=0.1, times=2)
            fake.rate_limit_next(CALLBACK, retry_after=0.1)
        elif turn == 8:  # 5xx, with a JSON body, none, or a proxy's page
            fake.fail_next(EDIT, 500, times=2)
            fake.fail_next(EDIT, 502, body="html")
            fake.fail_next(WEBHOOK_EDIT, 500, body="empty")
            fake.fail_next(CALLBACK, 502, body="html")
        elif turn == 16:  # discord.py does not retry a 503: the bot must
            fake.fail_next(EDIT, 503, body="empty", times=2)
        elif turn in (12, 30):
            await fake.drop()
        if turn >= 40:
            # Each late edit of the table message fails once, the game's end too: it goes
            # out all the same, a moment later.
            # (The start click's webhook edits the table message: its follow-up.)
            table_edit = r"^PATCH /webhooks/\d+/[^/]+/messages/\d+$"
            if not any(pattern == table_edit for pattern, *_ in fake.pending_faults()):
                fake.fail_next(table_edit, 503)

    clicks = await play_and_check(world, faults)
    assert len(clicks) >= 48
    assert fake.resumes == 2 and fake.identifies == 1
    assert fake.ratelimits.injected == 10
    # The bot's own requests were all valid: the only 401/403/429 are the injected 429s.
    assert fake.ratelimits.invalid_requests() == 10
    assert fake.injected_failures >= 9 + 1  # the 5xx above and the late table edits


async def test_a_resume_storm_and_a_session_that_cannot_resume(make_world: Any) -> None:
    world: World = await make_world()
    fake = world.fake

    async def faults(world: World, turn: int) -> None:
        if turn == 5:
            await fake.resume_storm(6)
        elif turn == 20:
            await fake.invalid_session(resumable=False)  # the bot identifies afresh
            await fake.wait_for(world.bot.is_ready, 10, "ready again")

    await play_and_check(world, faults)
    assert fake.resumes == 6 and fake.identifies == 2
