"""Contracts, closed DMs, refused clicks and calls, through the loopback Discord."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.discord import codec
from bot.render.texts import t
from bot.rules.cards import Card, deal_hands
from bot.rules.game import Phase, Reserve
from tests.discord.conftest import World, message_text, seed_list
from tests.discord.driver import enabled_cards, hand_for, human_to_act, play_game, play_turn
from tests.fakediscord import Message, User


async def open_full_table(world: World, **options: Any) -> int:
    anna = world.users[0]
    table_id = await world.open_table(anna, **options)
    for user in world.users[1:4]:
        await world.click(user, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "four seats"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    return table_id


def hochzeit_seed() -> int:
    import random

    return next(
        s for s in range(1000) if any(h.count(Card.CQ) == 2 for h in deal_hands(random.Random(s)))
    )


def final_texts(world: World) -> list[str]:
    """The table's final messages (an ephemeral hand shows its game's result too)."""
    return [
        message_text(m)
        for m in world.fake.channel_messages(world.channel)
        if "Spielwert" in message_text(m) and not m.ephemeral
    ]


async def test_a_hochzeit_and_a_damensolo(make_world: Any) -> None:
    world: World = await make_world(seeds=seed_list(1, hochzeit_seed()))
    table_id = await open_full_table(world, spiele=2, regeln="ohne_pflichtsolo")
    soloist: list[User] = []

    async def policy(world: World, user: User, message: Message, info: Any) -> Any:
        pv = info.public
        view = world.engine.view_for(table_id, user.id)
        if pv.phase is Phase.VORBEHALT:
            if info.game_number == 1 and view.hand.count(Card.CQ) == 2:
                return codec.button_id(table_id, info.version, Reserve(view.seat, True)), None
            if info.game_number == 2 and not soloist:
                soloist.append(user)
                return codec.button_id(table_id, info.version, Reserve(view.seat, True)), None
        if pv.phase is Phase.DECLARE:
            choice = "hochzeit" if info.game_number == 1 else "solo_damen"
            return codec.select_id(table_id, info.version, "declare", view.seat), [choice]
        return None

    await play_game(world, table_id, policy)
    await world.settle()
    assert "Hochzeit von" in final_texts(world)[0]
    await play_game(world, table_id, policy)
    await world.settle()
    assert f"Damensolo von {soloist[0].name}" in final_texts(world)[1]
    assert "×3" in final_texts(world)[1]


async def test_closed_dms_play_through_ephemeral_hands(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    world.fake.close_dms(anna)
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    await world.click(anna, world.lobby(), "doko:start:")

    def table_names_her() -> bool:
        sent = [json.dumps(r.body, ensure_ascii=False) for r in world.fake.requests if r.body]
        return any("DMs geschlossen: anna" in body for body in sent)

    # The table message names her while the game runs (a final message later need not).
    await world.fake.wait_for(table_names_her, 5, "the table message to name anna")
    while await play_turn(world, table_id):
        pass
    await world.settle()
    refused = [r for r in world.fake.requests if r.status == 403]
    assert len(refused) == 1 and refused[0].response["code"] == 50007  # tried once, remembered
    assert len(final_texts(world)) == 1
    # Every hand anna saw was ephemeral, in the table channel.
    hands = [m for m in world.fake.messages if any("doko:card:" in c for c in m.custom_ids)]
    assert hands and all(m.ephemeral_to is anna for m in hands)


async def test_stale_foreign_and_doubled_clicks_are_answered_and_never_applied(
    make_world: Any,
) -> None:
    world: World = await make_world(
        names=("anna", "ben", "clara", "dirk", "eve"), locales={"eve": "en-US"}
    )
    eve = world.users[4]
    table_id = await open_full_table(world, spiele=1, regeln="ohne_pflichtsolo")
    fake = world.fake
    table_message = await fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(fake.channel_messages(world.channel))
                if any(c.startswith(f"doko:hand:{table_id}:") for c in m.custom_ids)
            ),
            None,
        ),
        3,
        "the table message",
    )
    # Foreign: eve is not seated; in English.
    ix = await world.click(eve, table_message, "doko:hand:")
    assert "You do not sit at this table" in await world.answer_text(ix)

    # Doubled: two clicks on the same Gesund button before the first is answered.
    found = await human_to_act(world, table_id)
    assert found is not None
    user, _ = found
    message = await world.current_hand(user, table_id)
    info = world.engine.table(table_id)
    ephemeral_ix = await world.click(user, table_message, "doko:hand:")  # also open it here
    ephemeral = ephemeral_ix.original
    seat = world.engine.view_for(table_id, user.id).seat
    gesund = codec.button_id(table_id, info.version, Reserve(seat, False))
    first = await fake.click(user, message, gesund)
    second = await fake.click(user, message, gesund)
    for ix in (first, second):
        assert (await fake.response(ix, timeout=3)).status == 200
    await world.settle()
    record = world.engine.record(table_id)
    seat = info.seat_of(user.id)
    assert [a for a in record["actions"] if a["seat"] == seat] == [{"seat": seat, "reserve": False}]
    # The click that came second found the table moved on: it alone is refused, as its
    # (ephemeral) answer; the other was acknowledged once stored.
    answers = [m for ix in (first, second) for m in (ix.original, *ix.followups) if m is not None]
    refusals = [m for m in answers if "veraltet" in message_text(m)]
    assert len(refusals) == 1 and refusals[0].ephemeral_to is user

    # Stale: the ephemeral hand opened before the click still offers Gesund.
    version = world.engine.table(table_id).version
    ix = await fake.click(user, ephemeral, gesund)
    assert (await fake.response(ix, timeout=3)).status == 200
    assert "veraltet" in await world.answer_text(ix)
    await asyncio.sleep(0.05)
    assert world.engine.table(table_id).version == version


async def test_an_illegal_card_and_a_late_call_are_answered_with_the_rule(
    make_world: Any,
) -> None:
    world: World = await make_world()
    table_id = await open_full_table(world, spiele=1, regeln="ohne_pflichtsolo")
    fake = world.fake
    # Play until someone must follow suit and holds a card that does not.
    while True:
        found = await human_to_act(world, table_id)
        assert found is not None
        user, info = found
        pv = info.public
        assert pv is not None
        message = await hand_for(world, user, table_id)
        info = world.engine.table(table_id)
        cards = [c for c in message.iter_components() if c["custom_id"].startswith("doko:card:")]
        disabled = [c for c in cards if c.get("disabled")]
        if pv.phase is Phase.PLAY and pv.current_trick and disabled:
            break
        await play_turn(world, table_id)
    # A tampered client sends the disabled card anyway: refused with the rule.
    disabled[0]["disabled"] = False
    ix = await fake.click(user, message, disabled[0]["custom_id"])
    assert (await fake.response(ix, timeout=3)).status == 200
    refusal = ix.original  # refused before anything is stored: the answer itself
    text = message_text(refusal)
    assert refusal.ephemeral_to is user and "Du musst bedienen" in text, text
    await asyncio.sleep(0.05)
    assert world.engine.table(table_id).version == info.version
    assert enabled_cards(message)

    # Play on until two tricks are done; then Re/Kontra is too late (11 cards needed).
    while len(world.engine.table(table_id).public.tricks) < 2:  # type: ignore[union-attr]
        await play_turn(world, table_id)
    anna = world.users[0]
    party = world.engine.view_for(table_id, anna.id).own_party
    assert party is not None
    ix = await world.run(anna, "ansage", ansage=str(party))
    text = await world.answer_text(ix)
    assert "Zu spät für Re/Kontra" in text and "11 Karten" in text, text
    # A call's record name is not one of the command's options: said so, not "no table".
    ix = await world.run(anna, "ansage", ansage="no90")
    text = await world.answer_text(ix)
    assert text == t("de", "err_bad_action"), text
