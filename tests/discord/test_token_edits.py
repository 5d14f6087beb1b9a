"""Edits through live interactions: the table message and a hand DM are edited through the
interaction of the click that showed them (Discord's interaction webhooks, which do not count
against the global rate limit) while its token lives, and through the channel's own route
once it ran out.
"""

from __future__ import annotations

from typing import Any

from bot.engine.model import EngineError
from tests.discord.conftest import World
from tests.discord.driver import play_game, play_turn
from tests.discord.test_pictures import one_human_table, table_message
from tests.fakediscord import RequestRecord

CHANNEL_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
TOKEN_EDITS = (
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
)


def edits(world: World, routes: tuple[str, ...], message_id: int) -> list[RequestRecord]:
    """The successful edits of one message by these routes."""
    return [
        r
        for r in world.fake.requests
        if r.route in routes
        and r.status == 200
        and isinstance(r.response, dict)
        and r.response.get("id") == str(message_id)
    ]


async def test_a_game_edits_its_table_and_hand_through_the_clicks(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await one_human_table(world, games=1)
    assert await play_turn(world, table_id)  # her first click on the hand DM
    hand = await world.current_hand(anna, table_id)
    table = table_message(world, table_id)
    await play_game(world, table_id)
    await world.settle()
    # The start click posted the game's table message as its follow-up; every edit of it,
    # the final result too, went through that click's webhook.
    assert edits(world, TOKEN_EDITS, table.id)
    assert edits(world, (CHANNEL_EDIT,), table.id) == []
    # After her first click the hand DM is edited through her clicks only, also where the
    # AIs moved after the click's answer, and when the game ended.
    assert edits(world, (CHANNEL_EDIT,), hand.id) == []
    assert len(edits(world, TOKEN_EDITS, hand.id)) >= 5


async def test_a_token_that_ran_out_hands_the_edits_to_the_channel_route(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await one_human_table(world, games=1)
    assert await play_turn(world, table_id)
    hand = await world.current_hand(anna, table_id)
    table = table_message(world, table_id)
    before = len(edits(world, (CHANNEL_EDIT,), table.id))
    # Sixteen minutes later every token the bot holds is refused (401, 50027).
    world.fake.advance_clock(16 * 60)
    version = world.engine.table(table_id).version
    assert await play_turn(world, table_id)
    await world.fake.wait_for(
        lambda: len(edits(world, (CHANNEL_EDIT,), table.id)) > before, 5, "the channel edit"
    )
    refused = [r for r in world.fake.requests if r.route in TOKEN_EDITS and r.status == 401]
    assert refused  # tried once through the token, then through the channel
    # Nothing is lost: the game goes on, the hand DM shows the table as it is now.
    await world.settle()
    try:
        now = world.engine.table(table_id)
    except EngineError:
        return  # the game (and the session) ended with this card
    assert now.version > version
    await world.fake.wait_for(
        lambda: world.bot.presenter.shows(table_id, anna.id, hand.id, "de"), 5, "her hand"
    )
