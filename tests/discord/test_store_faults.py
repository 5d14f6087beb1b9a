"""Storage faults through the loopback Discord: every click is answered within Discord's
3 s, a refused one says so in the player's language, and play goes on without a restart.
"""

from __future__ import annotations

import sqlite3
from functools import partial
from typing import Any

import pytest

from tests.discord.conftest import World, message_text
from tests.discord.driver import default_choice, hand_for, human_to_act
from tests.storefaults import Faults, faulty_connections

pytestmark = pytest.mark.sqlite_only

ACTIONS = "INSERT INTO game_actions"
REFUSED = {"de": "Konnte nicht speichern", "en": "Could not save"}


async def click_hand(world: World, table_id: int) -> tuple[Any, int, str] | None:
    """The acting human clicks their default choice; (interaction, version, lang)."""
    found = await human_to_act(world, table_id)
    if found is None:
        return None
    user, _ = found
    message = await hand_for(world, user, table_id)
    info = world.engine.table(table_id)
    custom_id, values = default_choice(message, info)
    if values is None:
        ix = await world.fake.click(user, message, custom_id)
    else:
        ix = await world.fake.select(user, message, custom_id, values)
    callback = await world.fake.response(ix, timeout=3)  # the fake refuses it after 3 s
    assert callback.status == 200, callback
    return ix, info.version, user.locale[:2]


def taken_since(world: World, table_id: int, version: int) -> bool:
    """The table moved past ``version``, or the session ended with it."""
    if world.engine.find_table(world.guild.id, world.channel.id) is None:
        return True
    return world.engine.version(table_id) > version


async def test_a_full_disk_is_answered_and_the_game_goes_on(
    make_world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    faults = Faults()
    with faulty_connections(faults):  # the bot's store is opened as it starts
        world: World = await make_world(names=("anna", "ben"), locales={"ben": "en-GB"})
    anna, ben = world.users
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    await world.click(ben, world.lobby(), "doko:join:")
    for _ in range(2):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "two bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    found = await human_to_act(world, table_id)  # dealt in memory, perhaps not yet stored
    assert found is not None
    await hand_for(world, found[0], table_id)  # stored: a hand goes out only after the commit
    turn = refused = taken = 0
    while True:
        turn += 1
        if turn % 4 == 1:
            faults.fill("full" if turn % 8 == 1 else "ioerror")
        elif turn % 4 == 2:
            faults.refuse(4, skip=1, match=ACTIONS)  # the AIs' writes after this click
        clicked = await click_hand(world, table_id)
        if clicked is None:
            break
        ix, version, lang = clicked
        if turn % 4 == 1:
            text = await world.answer_text(ix)
            assert REFUSED[lang] in text, text
            assert world.engine.version(table_id) == version  # nothing changed
            refused += 1
            faults.free()
            continue  # the same button is still good: the player clicks it again
        await world.fake.wait_for(partial(taken_since, world, table_id, version), 10, "the click")
        taken += 1
        await world.engine.idle()  # the AIs, retrying until their writes were taken
        faults.free()  # what the AIs left of it (the next to act was a human)
    await world.settle()
    assert world.engine.find_table(world.guild.id, world.channel.id) is None  # session over
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 1
    assert refused >= 3 and taken >= 12 and faults.refused > refused
    assert "Ignoring exception" not in caplog.text


async def test_a_click_waiting_for_the_write_lock_is_acknowledged_in_time(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await human_to_act(world, table_id)
    await world.current_hand(anna, table_id)  # sent (and its ids stored) before the lock
    # Another process holds SQLite's write lock: the bot's write waits (busy timeout 5 s).
    other = sqlite3.connect(world.db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        clicked = await click_hand(world, table_id)  # acknowledged before the 3 s run out
        assert clicked is not None
        ix, version, _ = clicked
        assert world.engine.version(table_id) == version  # still waiting for the lock
    finally:
        other.execute("ROLLBACK")
        other.close()
    await world.fake.wait_for(
        lambda: world.engine.version(table_id) > version, 10, "the click to be taken"
    )
    assert not ix.followups  # taken: no refusal, the hand message was edited
