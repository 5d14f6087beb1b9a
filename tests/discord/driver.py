"""Drive games through the fake the way players do: find your current hand, click a button."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.discord import codec
from bot.engine import EngineError, TableInfo
from bot.rules.game import Phase, Reserve
from tests.discord.conftest import World, message_text
from tests.fakediscord import Message, User

# A policy picks what to click: (custom_id, select values or None), or None for the default.
Policy = Callable[[World, User, Message, TableInfo], Awaitable[tuple[str, list[str] | None] | None]]


def enabled_cards(message: Message) -> list[str]:
    return [
        c["custom_id"]
        for c in message.iter_components()
        if c.get("custom_id", "").startswith("doko:card:") and not c.get("disabled")
    ]


def default_choice(message: Message, info: TableInfo) -> tuple[str, list[str] | None]:
    pv = info.public
    assert pv is not None
    if pv.phase is Phase.VORBEHALT:
        return codec.button_id(info.id, info.version, Reserve(pv.to_act, False)), None
    if pv.phase is Phase.DECLARE:  # a vorgeführtes Pflichtsolo: the last solo offered
        select = codec.select_id(info.id, info.version, "declare", pv.to_act)
        component = message.component(select)
        assert component is not None, message_text(message)
        return select, [component["options"][-1]["value"]]
    cards = enabled_cards(message)
    assert cards, message_text(message)
    return cards[0], None


async def human_to_act(world: World, table_id: int) -> tuple[User, TableInfo] | None:
    """The human whose turn it is once the AIs are done; None when the table has closed."""

    def probe() -> tuple[User, TableInfo] | bool | None:
        try:
            info = world.engine.table(table_id)
        except EngineError:
            return True  # stopped
        if info.status == "closed":
            return True  # the session is over
        pv = info.public
        if pv is None or pv.to_act is None:
            return None
        seat = info.player(pv.to_act)  # the game seat's player (five: not the table seat)
        if seat is None or seat.user_id is None or seat.played_by_ai:
            return None
        user = next(u for u in world.users if u.id == seat.user_id)
        return user, info

    found = await world.fake.wait_for(probe, 10, "a human to act")
    return None if found is True else found  # type: ignore[return-value]


async def hand_for(world: World, user: User, table_id: int) -> Message:
    if user.dms_open:
        return await world.current_hand(user, table_id)
    # DMs closed: "Meine Karten" on the table message opens the hand ephemerally.
    table_message = await world.fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(world.fake.channel_messages(world.channel))
                if any(c.startswith(f"doko:hand:{table_id}:") for c in m.custom_ids)
            ),
            None,
        ),
        3,
        "the table message",
    )
    ix = await world.click(user, table_message, f"doko:hand:{table_id}:")
    assert ix.original is not None and ix.original.ephemeral_to is user
    return await world.current_hand(user, table_id)


async def play_turn(world: World, table_id: int, policy: Policy | None = None) -> bool:
    """One human action; False once the table has closed."""
    found = await human_to_act(world, table_id)
    if found is None:
        return False
    user, _ = found
    message = await hand_for(world, user, table_id)
    info = world.engine.table(table_id)  # the version the message was made for
    choice = await policy(world, user, message, info) if policy else None
    custom_id, values = choice or default_choice(message, info)
    if values is None:
        ix = await world.fake.click(user, message, custom_id)
    else:
        ix = await world.fake.select(user, message, custom_id, values)
    callback = await world.fake.response(ix, timeout=3)
    assert callback.status == 200, callback

    def applied() -> bool:
        try:
            now = world.engine.table(table_id)
        except EngineError:
            return True
        # A refusal is possible too: an AI's call can make the button stale meanwhile.
        return now.version > info.version or bool(ix.followups)

    await world.fake.wait_for(applied, 3, f"{custom_id} to be applied")
    return True


async def play_game(world: World, table_id: int, policy: Policy | None = None) -> None:
    """Until the game running now is over (or the table closes)."""
    number = world.engine.table(table_id).game_number
    while await play_turn(world, table_id, policy):
        try:
            info = world.engine.table(table_id)
        except EngineError:
            return
        if len(info.spielliste) >= (number or 0):
            return
