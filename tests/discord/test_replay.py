"""A replay thread for every game: opened on the final table message, stepped through by
buttons, its figures those of ``python -m bot replay`` on the exported record.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.discord import settings as server
from bot.render.replay import protocol
from bot.render.terms import item_name
from bot.render.texts import t
from db import replays
from tests.discord.conftest import World, message_text, seed_list, start_bot, stop_bot
from tests.discord.driver import play_turn
from tests.fakediscord import Message
from tests.fakediscord.models import ALL_PERMISSIONS, ATTACH_FILES, CREATE_PUBLIC_THREADS

THREADS = r"^POST /channels/\d+/messages/\d+/threads$"


async def play_one_game(world: World, **options: Any) -> int:
    """A one-game table of anna and three AIs, played to its end; the table's id."""
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo", **options)
    await world.click(anna, world.lobby(), "doko:start:")
    while await play_turn(world, table_id):
        pass
    await world.settle()
    return table_id


async def exported(world: World, tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record ``/doko export`` gives for the last game, and ``python -m bot replay
    --json`` on it.
    """
    ix = await world.run(world.users[0], "export")
    message = await world.fake.followup(ix)
    record = json.loads(message.attachments[0].data)
    path = tmp_path / "spiel.json"
    path.write_bytes(message.attachments[0].data)
    out = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path), "--json"],
        capture_output=True,
        check=True,
        text=True,
    )
    return record, json.loads(out.stdout)


def suit_count(text: str) -> int:
    return sum(text.count(s) for s in "♣♠♥♦")


def global_requests(world: World) -> list[Any]:
    """The bot's requests that count against Discord's global limit (not interactions')."""
    return [r for r in world.fake.requests if not r.path.startswith("/interactions/")]


def replay_message(world: World) -> Message:
    threads = world.fake.threads_of(world.channel)
    assert len(threads) == 1, threads
    messages = world.fake.channel_messages(threads[0])
    assert len(messages) == 1, messages
    return messages[0]


async def step(world: World, message: Message, slot: str) -> str:
    """Click the page button ``slot``; the message's text afterwards."""
    custom_id = next(c for c in message.custom_ids if c.endswith(":" + slot))
    ix = await world.fake.click(world.users[1], message, custom_id)
    callback = await world.fake.response(ix, timeout=3)
    assert callback.status == 200 and callback.type == 7, callback  # an update of the message
    return message_text(message)


async def test_a_finished_game_opens_its_replay_thread_with_the_replay_figures(
    make_world: Any, tmp_path: Path
) -> None:
    world: World = await make_world(names=("anna", "ben"), seeds=seed_list(3, 4))
    fake = world.fake
    await play_one_game(world, protokoll=True)
    record, summary = await exported(world, tmp_path)
    names = [p["name"] for p in record["meta"]["players"]]
    result = summary["result"]

    # One thread on the final table message (the thread's id is that message's), one message.
    message = replay_message(world)
    thread = message.channel
    assert thread.type == 11 and thread.parent is world.channel
    final = next(m for m in fake.channel_messages(world.channel) if m.id == thread.id)
    assert t("de", "spielwert") in message_text(final)
    assert len(fake.requests_to(THREADS)) == 1
    assert len(fake.requests_to(r"^POST /channels/\d+/messages$")) >= 1

    # The overview: Augen per party, the Spielwert item by item, each player's points.
    overview = message_text(message)
    augen = t(
        "de",
        "result_augen",
        re=result["re_augen"],
        kontra=result["kontra_augen"],
        re_tricks=result["re_tricks"],
        kontra_tricks=result["kontra_tricks"],
    )
    assert augen in overview
    for item in (*result["game_points"], *result["special_points"]):
        party = item["party"].capitalize()
        line = f"+{item['points']} {party}: {item_name(item['item'], 'de')}"
        assert line in overview, line
    assert t("de", "spielwert_sum", value=result["game_value"]) in overview
    for name, points in zip(names, result["scores"], strict=True):
        assert f"{name} {points:+d}" in overview
    for call in summary["calls"]:
        assert f"mit {call['cards_in_hand']} Karten" in overview

    # Stepping: each trick's page names who led and who won it, with its Augen.
    tricks = summary["tricks"]
    budgeted = len(global_requests(world))
    text = await step(world, message, "first")
    for n, trick in enumerate(tricks, start=1):
        assert t("de", "rp_trick_of", n=n, total=len(tricks)) in text
        assert t("de", "rp_led", name=names[trick["leader"]]) in text
        assert t("de", "trick_to", name=names[trick["winner"]], augen=trick["augen"]) in text
        assert [a.filename for a in message.attachments] == ["stich.png"]
        if n < len(tricks):
            text = await step(world, message, "next")
    assert t("de", "rp_augen", re=result["re_augen"], kontra=result["kontra_augen"]) in text
    assert message.component(next(c for c in message.custom_ids if c.endswith(":next")))["disabled"]
    text = await step(world, message, "back")
    assert t("de", "rp_trick_of", n=len(tricks) - 1, total=len(tricks)) in text
    await step(world, message, "first")
    text = await step(world, message, "back")  # the overview again: no picture on it
    assert augen in text and message.attachments == []
    text = await step(world, message, "last")
    assert t("de", "rp_trick_of", n=len(tricks), total=len(tricks)) in text
    # Every step was an interaction update: none took a request of the global budget.
    assert len(global_requests(world)) == budgeted

    # A restart: the buttons still work from the stored record, and no second thread opens
    # even when the game's end is handled again.
    await stop_bot(world.bot, world.task)
    world.bot, world.task = await start_bot(fake, world.db_path)
    text = await step(world, message, "first")
    assert t("de", "rp_trick_of", n=1, total=len(tricks)) in text
    game_id = int(next(c for c in message.custom_ids).split(":")[1])
    stored = await replays.replay_thread(world.bot.db, game_id)
    assert stored is not None and stored.thread_id == thread.id == final.id
    assert stored.message_id == message.id
    proto = protocol(record, game_id)
    assert proto is not None
    await world.bot.presenter.replays.open_thread(  # as after the final message
        proto.info.id, _info_for(world, proto.info), game_id, final.id, False
    )
    assert len(fake.requests_to(THREADS)) == 1
    assert len(fake.threads_of(world.channel)) == 1


async def test_one_tables_threads_open_in_order_so_a_refusal_spares_the_next(
    make_world: Any,
) -> None:
    # Two games' ends handled at once (the thread of the first still being asked for when
    # the second ends): the second waits for the first's refusal and asks nothing.
    world: World = await make_world(names=("anna",), seeds=seed_list(3, 4, 5))
    anna, fake = world.users[0], world.fake
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    await world.click(anna, world.lobby(), "doko:start:")
    presenter = world.bot.presenter
    info = _info_for(world, world.bot.engine.table(table_id))
    state = presenter.table_state(info)
    while await play_turn(world, table_id):
        pass
    await world.settle()
    assert fake.requests_to(THREADS) == []  # the option was off while they played
    rows = await world.bot.db.fetchall(
        "SELECT g.id FROM games g JOIN sessions s ON s.id = g.session_id"
        " WHERE s.table_id = ? ORDER BY g.id",
        (table_id,),
    )
    game_ids = [r["id"] for r in rows]
    assert len(game_ids) == 2
    await world.bot.db.execute("UPDATE tables SET replay_thread = 1 WHERE id = ?", (table_id,))
    fake.app_permissions[world.channel.id] = int(ALL_PERMISSIONS) & ~CREATE_PUBLIC_THREADS
    assert state.message_id is not None
    for game_id in game_ids:
        presenter.replays.game_ended(state, info, game_id)
    await presenter.replays.idle()
    assert len(fake.requests_to(THREADS)) == 1
    assert fake.threads_of(world.channel) == []


def _info_for(world: World, info: Any) -> Any:
    from dataclasses import replace

    return replace(info, guild_id=world.guild.id, channel_id=world.channel.id)


async def test_the_option_off_opens_no_thread(make_world: Any) -> None:
    world: World = await make_world(names=("anna",), seeds=seed_list(3, 4))
    await play_one_game(world)  # off: the server's default, which is off
    assert world.fake.threads_of(world.channel) == []
    assert world.fake.requests_to(THREADS) == []


async def test_the_server_default_and_english(make_world: Any) -> None:
    world: World = await make_world(names=("anna",), seeds=seed_list(3, 4))
    world.guild.locale = "en-US"
    # The Tisch page of /doko einstellungen switches it on for new tables.
    defaults = await server.load(world.bot.db, world.guild.id)
    changes = server.change(defaults, "replay_thread", ["1"])
    await server.save(world.bot.db, world.guild.id, changes)
    ix = await world.run(world.users[0], "einstellungen")
    assert f"{t('de', 'set_replay')}: {t('de', 'set_on')}" in await world.answer_text(ix)
    await play_one_game(world)
    message = replay_message(world)
    text = message_text(message)
    assert t("en", "rp_first") in text and t("en", "rp_vorbehalte") in text


async def test_without_thread_permissions_the_table_plays_on_and_the_host_is_told(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",), seeds=seed_list(3, 4))
    world.fake.app_permissions[world.channel.id] = int(ALL_PERMISSIONS) & ~CREATE_PUBLIC_THREADS
    anna = world.users[0]
    ix = await world.run(anna, "tisch", spiele=1, regeln="ohne_pflichtsolo", protokoll=True)
    told = await world.fake.followup(ix, n=2)
    assert told.ephemeral_to is anna
    assert t("de", "perm_create_public_threads") in told.content
    table_id = world.engine.find_table(world.guild.id, world.channel.id)
    assert table_id is not None
    await world.click(anna, world.lobby(), "doko:start:")
    while await play_turn(world, table_id.id):
        pass
    await world.settle()
    assert world.fake.requests_to(THREADS) == []
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 1


async def test_a_permission_taken_away_later_tells_the_host_once(make_world: Any) -> None:
    world: World = await make_world(names=("anna",), seeds=seed_list(3, 4, 5))
    anna, fake = world.users[0], world.fake
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo", protokoll=True)
    fake.app_permissions[world.channel.id] = int(ALL_PERMISSIONS) & ~CREATE_PUBLIC_THREADS
    await world.click(anna, world.lobby(), "doko:start:")
    while await play_turn(world, table_id):
        pass
    await world.settle()
    # Two games: the first one's thread was refused; the second is not tried.
    assert len(fake.requests_to(THREADS)) == 1
    assert fake.threads_of(world.channel) == []
    told = [m for m in world.hand_dms(anna) if t("de", "perm_create_public_threads") in m.content]
    assert len(told) == 1
    finals = [m for m in fake.channel_messages(world.channel) if "Spielwert" in message_text(m)]
    assert len(finals) == 2


async def test_without_attach_files_the_protocol_is_text(make_world: Any) -> None:
    world: World = await make_world(names=("anna", "ben"), seeds=seed_list(3, 4))
    world.fake.app_permissions[world.channel.id] = int(ALL_PERMISSIONS) & ~ATTACH_FILES
    await play_one_game(world, protokoll=True)
    message = replay_message(world)
    assert message.attachments == []
    text = await step(world, message, "first")
    assert t("de", "rp_trick_of", n=1, total=12) in text and message.attachments == []
    assert suit_count(text) >= 4  # the cards in text, with their players
