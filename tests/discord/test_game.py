"""Whole games through the loopback Discord with the real bot."""

from __future__ import annotations

import json
from typing import Any

from tests.discord.conftest import World, message_text
from tests.discord.driver import play_game, play_turn


async def seat_everyone(world: World, table_id: int) -> None:
    for user in world.users[1:]:
        await world.click(user, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: sum(s is not None for s in world.engine.table(table_id).seats) == 4,
        3,
        "four seats",
    )


def final_texts(world: World) -> list[str]:
    return [
        message_text(m)
        for m in world.fake.channel_messages(world.channel)
        if "Spielwert" in message_text(m)
    ]


async def test_four_humans_play_a_whole_game(make_world: Any) -> None:
    world: World = await make_world()
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    await seat_everyone(world, table_id)
    await world.click(anna, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    await play_game(world, table_id)
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
        dms = world.hand_dms(user)
        assert dms and all(len(m.custom_ids) == len(set(m.custom_ids)) <= 25 for m in dms)


async def test_one_human_three_ais_play_a_session_with_standings(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=4, regeln="ohne_pflichtsolo")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    while await play_turn(world, table_id):
        pass
    await world.settle()
    assert world.engine.find_table(world.guild.id, world.channel.id) is None  # session over
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 4 == len(final_texts(world))
    assert "Danke fürs Spielen" in message_text(finals[-1])
    ix = await world.run(anna, "rangliste")
    text = await world.answer_text(ix)
    assert "1. anna" in text and "4 Spiele" in text
    ix = await world.run(anna, "statistik")
    assert "in 4 Spielen" in await world.answer_text(ix)
    # The last game can be exported as doko-game/1, privately.
    ix = await world.run(anna, "export")
    message = await world.fake.followup(ix)
    assert message.ephemeral_to is anna and message.attachments
    record = json.loads(message.attachments[0].data)
    assert record["format"] == "doko-game/1" and len(record["actions"]) >= 48


async def test_a_burst_of_429s_and_a_gateway_reconnect_are_survived(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna, fake = world.users[0], world.fake
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    await world.click(anna, world.lobby(), "doko:start:")
    fake.rate_limit_next(r"^POST /channels/\d+/messages$", retry_after=0.05, times=3)
    # Edits by either route: the channel's or (mostly) a live interaction's webhook.
    edit = r"^PATCH /(channels/\d+|webhooks/\d+/[^/]+)/messages/(\d+|@original)$"
    fake.rate_limit_next(edit, retry_after=0.05, times=3)
    fake.rate_limit_next(r"^PATCH /webhooks/", retry_after=0.05, times=2)
    turns = 0
    while await play_turn(world, table_id):
        turns += 1
        if turns == 3:
            await fake.disconnect()  # the bot resumes; clicks keep working
        if turns == 6:
            await fake.reconnect()
    await world.settle()
    assert fake.resumes == 2
    assert sum(r.status == 429 for r in fake.requests) == 8
    assert len(final_texts(world)) == 1


async def test_commands_are_german_with_english_localizations(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    doko = next(c for c in world.fake.commands() if c["name"] == "doko")
    subs = {o["name"]: o for o in doko["options"]}
    assert set(subs) == {
        "tisch", "karten", "ansage", "stand", "rangliste", "statistik",
        "regeln", "export", "abrechnen", "stopp", "hilfe", "turnier", "benachrichtigung",
        "einstellungen", "meine-tische", "herausforderung",
    }  # fmt: skip
    assert subs["einstellungen"]["name_localizations"]["en-US"] == "settings"
    assert subs["tisch"]["name_localizations"]["en-US"] == "table"
    assert subs["meine-tische"]["name_localizations"]["en-US"] == "my-tables"
    assert subs["abrechnen"]["description_localizations"]["en-GB"].startswith("Score a game")
    ix = await world.run(
        world.users[0],
        "abrechnen",
        vertrag="normal",
        re_plaetze="1,3",
        re_augen=151,
        re_stiche=8,
        re_ansage="re",
        sonderpunkte="fuchs:re",
    )
    text = await world.answer_text(ix)
    assert "Re angesagt" in text and "Fuchs gefangen" in text and "Platz 1 +" in text
