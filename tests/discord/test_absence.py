"""The disconnect policy through the loopback Discord: each policy once.

The turn timer's firing is the engine's own (``expire_turn``, what its deadline calls); the
rest is what players see and click.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

import db
from bot.engine import TableInfo
from bot.rules.game import Announce, Phase, Reserve
from tests.discord.conftest import World, message_text, seed_list


def with_button(world: World, prefix: str) -> Any:
    """The newest channel message that has a button starting with ``prefix``, or None."""
    for message in reversed(world.fake.channel_messages(world.channel)):
        if any(c.startswith(prefix) for c in message.custom_ids):
            return message
    return None


async def turn_in_play(world: World, table_id: int, user_id: int) -> TableInfo:
    """Play the humans' moves (healthy, first legal card) until ``user_id`` is to play a card."""
    engine = world.engine
    while True:
        await world.settle()
        info = engine.table(table_id)
        pv = info.public
        assert pv is not None and pv.to_act is not None
        seat = info.seats[info.game_seats[pv.to_act]]
        assert seat is not None and seat.user_id is not None
        if pv.phase is Phase.PLAY and seat.user_id == user_id:
            return info
        legal = engine.view_for(table_id, seat.user_id).legal
        healthy = [a for a in legal if isinstance(a, Reserve) and not a.reserve]
        action = healthy[0] if healthy else next(a for a in legal if not isinstance(a, Announce))
        await engine.act(table_id, seat.user_id, action, info.version)


async def open_for_two(world: World, policy: str) -> int:
    anna, ben = world.users[:2]
    table_id = await world.open_table(
        anna, spiele=2, regeln="ohne_pflichtsolo", zugzeit=600, bei_abwesenheit=policy
    )
    await world.click(ben, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).seats[1] is not None, 3, "ben seated"
    )
    assert "Bei Abwesenheit" in message_text(world.lobby())
    await world.click(anna, world.lobby(), "doko:start:")
    return table_id


async def test_bot_policy_an_ai_plays_the_move(make_world: Any) -> None:
    world: World = await make_world(names=("anna", "ben"), seeds=seed_list(1, 2, 3, 4))
    table_id = await open_for_two(world, "bot")
    ben = world.users[1]
    info = await turn_in_play(world, table_id, ben.id)
    n = len(world.engine.record(table_id)["actions"])
    assert await world.engine.expire_turn(table_id, info.version)
    await world.settle()
    assert world.engine.record(table_id)["actions"][n]["seat"] == info.game_seats.index(1)
    assert with_button(world, f"doko:takeover:{table_id}:") is None


async def test_warten_shows_whom_the_table_waits_for_and_the_host_decides(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna", "ben"), seeds=seed_list(1, 2, 3, 4))
    table_id = await open_for_two(world, "warten")
    anna, ben = world.users[:2]
    info = await turn_in_play(world, table_id, ben.id)
    n = len(world.engine.record(table_id)["actions"])
    assert await world.engine.expire_turn(table_id, info.version)
    await world.settle()
    message = await world.fake.wait_for(
        lambda: with_button(world, f"doko:takeover:{table_id}:"), 5, "the waiting table"
    )
    text = message_text(message)
    assert "Wartet auf **ben** (seit <t:" in text
    assert "Bot übernimmt" in text and "Spiel werten" in text
    assert len(world.engine.record(table_id)["actions"]) == n  # nobody played for ben
    # Ben is not the host: his click is refused, and the table still waits.
    ix = await world.click(ben, message, f"doko:takeover:{table_id}:")
    refusal = (await world.fake.response(ix)).data.get("content", "")
    assert f"<@{anna.id}>" in refusal  # who may: the host (or a server admin)
    assert world.engine.table(table_id).waiting is not None
    ix = await world.click(anna, message, f"doko:takeover:{table_id}:")
    await world.fake.wait_for(lambda: ix.followups, 3, "the answer")
    assert "Ein Bot spielt jetzt für ben" in message_text(ix.followups[0])
    await world.settle()
    seat = world.engine.table(table_id).seats[1]
    assert seat is not None and seat.away
    actions = world.engine.record(table_id)["actions"]
    assert len(actions) > n and actions[n]["seat"] == info.game_seats.index(1)
    latest = world.fake.channel_messages(world.channel)[-1]
    assert "Wartet auf" not in message_text(latest)


async def test_verloren_the_game_is_lost_after_the_grace_period(
    make_world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.engine.timers.FORFEIT_GRACE", timedelta(seconds=3))
    world: World = await make_world(names=("anna", "ben"), seeds=seed_list(1, 2, 3, 4))
    table_id = await open_for_two(world, "verloren")
    ben = world.users[1]
    info = await turn_in_play(world, table_id, ben.id)
    assert await world.engine.expire_turn(table_id, info.version)
    message = await world.fake.wait_for(
        lambda: with_button(world, f"doko:scorelost:{table_id}:"), 5, "the waiting table"
    )
    assert "nicht zurück, ist das Spiel für die Partei von ben verloren" in message_text(message)
    # The grace period runs out by the engine's own deadline: the game is booked.
    await world.fake.wait_for(
        lambda: len(world.engine.table(table_id).spielliste) == 1, 10, "the game scored"
    )
    entry = world.engine.table(table_id).spielliste[0]
    assert entry.scores[1] < 0 and sum(entry.scores) == 0
    await world.settle()


async def test_the_servers_default_policy_and_the_tables_own(make_world: Any) -> None:
    from tests.discord.test_settings import open_settings, pick, stop_table

    world: World = await make_world(names=("anna", "ben"), locales={"ben": "en-US"})
    admin, ben = world.users[:2]
    settings = await open_settings(world, admin)
    await pick(world, admin, settings, "page", ["tisch"])
    await pick(world, admin, settings, "disconnect_policy", ["warten"])
    stored = await db.guilds.get_guild_settings(world.bot.db, world.guild.id)
    assert stored.disconnect_policy == "warten"
    assert "Gespeichert: Bei Abwesenheit: Tisch wartet" in message_text(settings)
    # An English reader sees the same setting in English.
    english = await open_settings(world, ben)
    await pick(world, ben, english, "page", ["tisch"])
    assert "When a player is away: the table waits" in message_text(english)

    table_id = await world.open_table(admin)
    assert world.engine.table(table_id).disconnect_policy == "warten"
    assert "Bei Abwesenheit: Tisch wartet" in message_text(world.lobby())
    await stop_table(world, admin)
    table_id = await world.open_table(admin, bei_abwesenheit="verloren")  # the table's own
    assert world.engine.table(table_id).disconnect_policy == "verloren"
    assert "Bei Abwesenheit: Spiel verloren" in message_text(world.lobby())
    await stop_table(world, admin)
