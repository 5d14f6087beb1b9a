"""A channel where the bot may not attach files: the table plays in text there, the host is
told which permission would bring the pictures, and a permission taken away mid-game costs
one refused request, not the table.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord.permissions import INVITE_PERMISSIONS
from bot.render.texts import Lang, t
from tests.discord.conftest import World
from tests.discord.driver import play_turn
from tests.discord.test_pictures import one_human_table, play_until_cards_lie, table_message
from tests.fakediscord import Message

NO_FILES = INVITE_PERMISSIONS.value & ~discord.Permissions(attach_files=True).value
SEND = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


# The table message is edited through a live interaction's webhook where one can.
WEBHOOK = (
    "/webhooks/{webhook_id}/{webhook_token}",
    "/webhooks/{webhook_id}/{webhook_token}/messages/",
)


def refused(world: World) -> list[Any]:
    def table_route(route: str) -> bool:
        return route in (SEND, EDIT) or route.split(" ", 1)[1].startswith(WEBHOOK)

    return [r for r in world.fake.requests if table_route(r.route) and r.status == 403]


def public_files(world: World) -> list[Message]:
    return [m for m in world.fake.channel_messages(world.channel) if m.attachments]


@pytest.mark.parametrize("lang", ["de", "en"])
async def test_without_attach_files_the_table_plays_in_text_and_says_why(
    make_world: Any, lang: Lang
) -> None:
    world: World = await make_world(
        names=("anna",), locales={"anna": "en-US" if lang == "en" else "de"}
    )
    anna = world.users[0]
    world.fake.app_permissions[world.channel.id] = NO_FILES
    table_id = await one_human_table(world, games=1)
    ix = next(i for i in world.fake.interactions.values() if i.data.get("name") == "doko")
    note = await world.fake.followup(ix, 2)
    assert note.ephemeral_to is anna
    assert t(lang, "perm_attach_files") in note.content
    await play_until_cards_lie(world, table_id)
    await world.settle()
    table = table_message(world, table_id)
    assert table.embeds and not table.attachments and table.embed_image(0) is None
    assert not public_files(world) and not refused(world)  # not even one refused upload
    # Her hand comes by DM, where channel permissions do not reach: with its picture.
    assert (await world.current_hand(anna, table_id)).attachment("hand.png") is not None


async def test_attach_files_taken_away_mid_game_turns_the_pictures_off(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    table_id = await one_human_table(world, games=1)
    await play_until_cards_lie(world, table_id)
    await world.settle()
    assert table_message(world, table_id).attachment("tisch.png") is not None
    world.fake.app_permissions[world.channel.id] = NO_FILES
    before = len(world.fake.channel_messages(world.channel))
    for _ in range(4):  # a few more cards: the trick picture would change each time
        if not await play_turn(world, table_id):
            break
    await world.settle()
    assert len(refused(world)) == 1  # once refused, no upload is tried again
    table = table_message(world, table_id)
    assert table.embeds and not table.attachments and table.embed_image(0) is None
    assert len(world.fake.channel_messages(world.channel)) >= before
