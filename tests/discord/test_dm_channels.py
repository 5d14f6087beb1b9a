"""A player's DM channel is created once and remembered in the store: a restarted process
sends the next table's hand without creating it again (a request against Discord's global
limit). The hand messages' rows, which name the channel too, are gone with their table.
"""

from __future__ import annotations

from typing import Any

from db import dm_channels
from tests.discord.conftest import World, seed_list, start_bot, stop_bot
from tests.discord.driver import play_turn
from tests.fakediscord.ratelimits import RouteLimit

CREATE_DM = r"^POST /users/@me/channels$"


async def start_table(world: World) -> int:
    anna, fake = world.users[0], world.fake
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await world.current_hand(anna, table_id)
    return table_id


async def test_a_dm_channel_is_created_once_and_remembered_across_a_restart(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",), seeds=seed_list(1, 2))
    anna, fake = world.users[0], world.fake
    table_id = await start_table(world)
    assert len(fake.requests_to(CREATE_DM)) == 1
    assert await dm_channels.dm_channel(world.bot.db, anna.id) == fake.dm_channel(anna).id
    while await play_turn(world, table_id):
        pass
    await world.settle()
    assert world.engine.find_table(world.guild.id, world.channel.id) is None  # closed

    # A new process knows the channel from the store: the next table's hand needs none.
    await stop_bot(world.bot, world.task)
    world.bot, world.task = await start_bot(fake, world.db_path)
    hands_before = len(world.hand_dms(anna))
    await start_table(world)
    assert len(world.hand_dms(anna)) == hands_before + 1
    assert len(fake.requests_to(CREATE_DM)) == 1


async def test_new_players_dm_channels_are_opened_one_at_a_time(make_world: Any) -> None:
    # Create DM has one bucket for the whole bot, which discord.py learns from an answer:
    # four new players' DMs opened together would overrun it before the first answer came.
    world: World = await make_world()
    fake = world.fake
    fake.ratelimits.routes = {
        **fake.ratelimits.routes,
        "POST /users/@me/channels": RouteLimit(2, 1.0),
    }
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    for user in world.users[1:]:
        await world.click(user, world.lobby(), "doko:join:")
    await fake.wait_for(
        lambda: sum(s is not None for s in world.engine.table(table_id).seats) == 4, 3, "seats"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    for user in world.users:
        await world.current_hand(user, table_id)
    created = fake.requests_to(CREATE_DM)
    assert [r.status for r in created] == [200] * 4  # no 429, each once
