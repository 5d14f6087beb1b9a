"""Whole games through the loopback Discord with the real bot."""

from __future__ import annotations

from typing import Any

from bot.rules.game import Phase
from tests.discord.conftest import World, message_text


async def seat_everyone(world: World, table_id: int) -> None:
    for user in world.users[1:]:
        await world.click(user, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: sum(s is not None for s in world.engine.table(table_id).seats) == 4,
        3,
        "four seats",
    )


async def play_turn(world: World, table_id: int, choose: Any = None) -> None:
    """Whoever is to act clicks: gesund in the Vorbehaltsabfrage, else the first legal card."""
    info = await world.fake.wait_for(
        lambda: (
            (i := world.engine.table(table_id)).public is not None
            and i.public.to_act is not None
            and i
        ),
        3,
        "somebody to act",
    )
    pv = info.public
    assert pv is not None and pv.to_act is not None
    seat = info.seats[pv.to_act]
    assert seat is not None and seat.user_id is not None
    user = next(u for u in world.users if u.id == seat.user_id)
    message = await world.current_hand(user, table_id)
    if choose is not None and await choose(world, user, message, info):
        pass
    elif pv.phase is Phase.VORBEHALT:
        await world.click(user, message, f"doko:reserve:{table_id}:{info.version}:0")
    elif pv.phase is Phase.DECLARE:  # a vorgeführtes Pflichtsolo: the first solo offered
        select = f"doko:declare:{table_id}:{info.version}"
        options = message.component(select)
        assert options is not None
        ix = await world.fake.select(user, message, select, [options["options"][-1]["value"]])
        assert (await world.fake.response(ix, timeout=3)).status == 200
    else:
        enabled = [
            c["custom_id"]
            for c in message.iter_components()
            if c["custom_id"].startswith("doko:card:") and not c.get("disabled")
        ]
        assert enabled, message_text(message)
        ix = await world.fake.click(user, message, enabled[0])
        assert (await world.fake.response(ix, timeout=3)).status == 200
    await world.fake.wait_for(
        lambda: (
            world.engine.table(table_id).version > info.version
            and world.engine.table(table_id).public is not None
        ),
        3,
        "the action to be applied",
    )


async def test_four_humans_play_a_whole_game(make_world: Any) -> None:
    world: World = await make_world()
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    await seat_everyone(world, table_id)
    await world.click(anna, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    while not world.engine.table(table_id).spielliste:
        await play_turn(world, table_id)
    await world.settle()
    info = world.engine.table(table_id)
    assert len(info.spielliste) == 1 and sum(info.spielliste[0].scores) == 0
    # The finished game's table message shows the Augen and the Spielwert item by item.
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 1
    text = message_text(finals[0])
    assert "Augen" in text and "gewonnen" in text and "Spielliste" in text
    # Every human got the hand by DM, with at most 25 buttons and ids unique per message.
    for user in world.users:
        dms = world.fake.visible_messages(user, world.fake.dm_channel(user))
        assert dms and all(len(m.custom_ids) == len(set(m.custom_ids)) <= 25 for m in dms)
