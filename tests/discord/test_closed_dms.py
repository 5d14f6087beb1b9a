"""A player's DMs close in the middle of a session: told once, served in the channel, not
tried again after a restart, and DMs again once they open them and use a command.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import EngineError
from db import closed_dms
from tests.discord.conftest import World, message_text, seed_list, start_bot, stop_bot
from tests.discord.driver import play_turn
from tests.fakediscord import Message

NOTICE = {"de": "Ich kann dir keine Direktnachrichten schicken", "en": "I cannot send you direct"}
HAND_BUTTON = {"de": "»Meine Karten«", "en": "“My cards”"}


def notices(world: World) -> list[Message]:
    """Every closed-DM notice the bot sent, anywhere, in either language."""
    return [m for m in world.fake.messages if any(n in m.content for n in NOTICE.values())]


def dm_sends(world: World) -> list[int]:
    """Statuses of the bot's sends to anna's DM channel."""
    dm = world.fake.dm_channel(world.users[0])
    return [r.status for r in world.fake.requests_to(rf"^POST /channels/{dm.id}/messages$")]


def game_number(world: World, table_id: int) -> int:
    try:
        return world.engine.table(table_id).game_number or 0
    except EngineError:
        return 99  # the session is over


async def play_until(world: World, table_id: int, game: int, turns: int = 0) -> None:
    """Anna's turns until game ``game`` runs (and then ``turns`` more of hers)."""
    while game_number(world, table_id) < game:
        assert await play_turn(world, table_id)
    for _ in range(turns):
        assert await play_turn(world, table_id)


@pytest.mark.parametrize("lang", ["de", "en"])
async def test_closed_dms_are_told_once_stored_and_opened_again(make_world: Any, lang: str) -> None:
    locale = {"de": "de", "en": "en-US"}[lang]
    world: World = await make_world(
        names=("anna",), seeds=seed_list(1, 2, 3, 4), locales={"anna": locale}
    )
    anna, fake = world.users[0], world.fake
    world.bot.presenter.next_hand_on_click = False  # every new hand by DM: the route told of
    table_id = await world.open_table(anna, spiele=3, regeln="ohne_pflichtsolo")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await play_until(world, table_id, 1, turns=3)
    assert dm_sends(world) == [200]  # game 1's hand
    fake.close_dms(anna)  # mid-game: the next new DM (game 2's hand) is refused

    await play_until(world, table_id, 2, turns=2)
    assert dm_sends(world) == [200, 403]
    await world.settle()
    # She was told once, with the answer to her next click ("Meine Karten"), privately.
    (notice,) = notices(world)
    assert notice.ephemeral_to is anna and notice.channel is world.channel
    assert NOTICE[lang] in notice.content and HAND_BUTTON[lang] in notice.content
    table_message = world.fake.channel_messages(world.channel)
    assert any("DMs geschlossen: anna" in message_text(m) for m in table_message)
    (row,) = await closed_dms.closed_dms(world.bot.db)
    assert row.user_id == anna.id and row.told_at is not None

    # A restart reads the mark: no DM is tried, she is not told again.
    await stop_bot(world.bot, world.task)
    world.bot, world.task = await start_bot(fake, world.db_path)
    world.bot.presenter.next_hand_on_click = False
    await play_until(world, table_id, 2, turns=2)
    await world.settle()
    assert dm_sends(world) == [200, 403]
    assert len(notices(world)) == 1
    assert fake.ratelimits.invalid_requests() == 1  # the one 403

    # A command makes the bot try her DM again: still closed, the mark stays, no new notice.
    await world.run(anna, "karten")
    await fake.wait_for(lambda: dm_sends(world) == [200, 403, 403], 5, "a second try")
    await world.settle()
    assert len(notices(world)) == 1
    assert [r.told_at is not None for r in await closed_dms.closed_dms(world.bot.db)] == [True]

    # She opens her DMs and uses a command: game 2's hand comes by DM, the mark goes.
    fake.open_dms(anna)
    await world.run(anna, "karten")
    await fake.wait_for(lambda: dm_sends(world)[3:] == [200], 5, "game 2's hand by DM")
    await fake.wait_for(lambda: not world.bot.presenter.dms.retrying, 3, "the mark to go")
    assert await closed_dms.closed_dms(world.bot.db) == []
    await play_until(world, table_id, 3)
    await world.settle()
    assert dm_sends(world) == [200, 403, 403, 200, 200]  # and game 3's
    assert len(notices(world)) == 1
    assert fake.ratelimits.invalid_requests() == 2  # the two 403s
