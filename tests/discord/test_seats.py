"""Seats from the buttons: a bot taken off again in the lobby, a pause mid-game and back."""

from __future__ import annotations

from typing import Any

from tests.discord.conftest import World, message_text


def with_button(world: World, prefix: str) -> Any:
    """The newest channel message that has a button starting with ``prefix``, or None."""
    for message in reversed(world.fake.channel_messages(world.channel)):
        if any(c.startswith(prefix) for c in message.custom_ids):
            return message
    return None


async def test_remove_a_bot_then_pause_and_come_back(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=24, regeln="ohne_pflichtsolo")
    await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: any(s is not None and s.is_ai for s in world.engine.table(table_id).seats),
        3,
        "a bot",
    )
    seat = next(s.seat for s in world.engine.table(table_id).seats if s is not None and s.is_ai)
    lobby = await world.fake.wait_for(
        lambda: with_button(world, f"doko:removeai:{table_id}:"), 3, "the remove button"
    )
    await world.click(anna, lobby, f"doko:removeai:{table_id}:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).seats[seat] is None, 3, "the bot to leave"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await world.settle()
    message = await world.fake.wait_for(
        lambda: with_button(world, f"doko:pause:{table_id}:"), 5, "the table message"
    )
    ix = await world.click(anna, message, f"doko:pause:{table_id}:")
    await world.fake.wait_for(lambda: ix.followups, 3, "the answer")
    assert "Bot spielt für dich" in message_text(ix.followups[0])
    own = world.engine.table(table_id).seats[0]
    assert own is not None and own.user_id == anna.id and own.away
    paused_at = len(world.engine.record(table_id)["actions"])
    await world.fake.wait_for(  # a bot plays on for anna
        lambda: any(a["seat"] == 0 for a in world.engine.record(table_id)["actions"][paused_at:]),
        5,
        "a move for the paused seat",
    )
    message = await world.fake.wait_for(
        lambda: with_button(world, f"doko:back:{table_id}:"), 5, "the table message"
    )
    ix = await world.click(anna, message, f"doko:back:{table_id}:")
    await world.fake.wait_for(lambda: ix.followups, 3, "the answer")
    assert "Willkommen zurück" in message_text(ix.followups[0])
    info = world.engine.table(table_id)
    back = info.seats[0]
    assert back is not None and not back.away and not back.played_by_ai
