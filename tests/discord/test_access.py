"""Who may do what, through the loopback Discord: members without rights are refused with
who may instead, in their language; the host, the organiser, Manage Server and the server's
bot-admin role may.

The fake's guild owner (the first user of a world) has every permission, as on Discord; the
other members have what @everyone has on a new server: no Manage Server, no Administrator.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord.access import Member, Refusal, change_settings, create_tournament
from bot.render.texts import Lang, t
from db import guilds
from tests.discord.conftest import World
from tests.discord.test_turnier import serve_threads
from tests.fakediscord import Message

MANAGE_GUILD = discord.Permissions(manage_guild=True).value


def seat_of_bots(world: World, table_id: int) -> list[int]:
    return [s.seat for s in world.engine.table(table_id).seats if s is not None and s.is_ai]


def newest_lobby(world: World, table_id: int, seat: int) -> Message | None:
    """The newest lobby message with the button that takes the bot off ``seat``."""
    wanted = f":{seat}"
    for message in reversed(world.fake.channel_messages(world.channel)):
        ids = [c for c in message.custom_ids if c.startswith(f"doko:removeai:{table_id}:")]
        if any(c.endswith(wanted) for c in ids):
            return message
    return None


async def remove_bot(world: World, user: Any, table_id: int, seat: int) -> Any:
    lobby = await world.fake.wait_for(
        lambda: newest_lobby(world, table_id, seat), 3, "the remove button"
    )
    custom_id = next(
        c
        for c in lobby.custom_ids
        if c.startswith(f"doko:removeai:{table_id}:") and c.endswith(f":{seat}")
    )
    ix = await world.fake.click(user, lobby, custom_id)
    assert (await world.fake.response(ix, timeout=3)).status == 200
    return ix


@pytest.mark.parametrize("lang", ["de", "en"])
async def test_only_the_host_and_admins_stop_a_table_or_take_a_bot_off(
    make_world: Any, lang: Lang
) -> None:
    locale = "en-US" if lang == "en" else "de"
    world: World = await make_world(locales={"clara": locale})
    fake, guild = world.fake, world.guild
    _, ben, clara, dirk = world.users
    table_id = await world.open_table(ben)  # ben: no rights on the server, but the host
    for n in (1, 2):
        await world.click(ben, world.lobby(), "doko:addai:")
        await fake.wait_for(lambda: len(seat_of_bots(world, table_id)) == n, 3, f"bot {n}")  # noqa: B023
    first, second = seat_of_bots(world, table_id)

    # Clara has no rights here: both refused, naming the host and Manage Server.
    ix = await remove_bot(world, clara, table_id, first)
    text = await world.answer_text(ix)
    assert ix.original.ephemeral
    assert t(lang, "access_what_remove_bot") in text and f"<@{ben.id}>" in text
    assert t(lang, "access_who_manage") in text
    ix = await world.run(clara, "stopp")
    text = await world.answer_text(ix)
    assert t(lang, "access_what_stop_table") in text and f"<@{ben.id}>" in text
    assert "<@&" not in text  # the server named no bot-admin role
    await world.settle()
    assert seat_of_bots(world, table_id) == [first, second]
    assert world.engine.find_table(guild.id, world.channel.id) is not None

    # The host takes a bot off.
    await remove_bot(world, ben, table_id, first)
    await fake.wait_for(lambda: seat_of_bots(world, table_id) == [second], 3, "the bot to go")

    # The server names a bot-admin role: the refusal names it, and with it clara may.
    role = fake.add_role(guild, "Doko-Leitung")
    await guilds.set_guild_settings(world.bot.db, guild.id, admin_role_id=role.id)
    ix = await world.run(clara, "stopp")
    assert f"<@&{role.id}>" in await world.answer_text(ix)
    fake.give_role(guild, clara, role)
    await remove_bot(world, clara, table_id, second)
    await fake.wait_for(lambda: seat_of_bots(world, table_id) == [], 3, "the bot to go")

    # Manage Server (a role that grants it) may stop the table.
    managers = fake.add_role(guild, "Moderation", permissions=MANAGE_GUILD)
    fake.give_role(guild, dirk, managers)
    ix = await world.run(dirk, "stopp")
    assert await world.answer_text(ix) == t("de", "table_stopped", table=table_id)
    assert world.engine.find_table(guild.id, world.channel.id) is None


async def test_only_the_organiser_and_admins_run_a_tournament(make_world: Any) -> None:
    world: World = await make_world(locales={"clara": "en-US"})
    fake, guild = world.fake, world.guild
    serve_threads(world)
    anna, ben, clara, dirk = world.users
    service = world.bot.tournaments

    # Creating one takes a server admin: ben has no rights yet.
    ix = await world.run(ben, "turnier erstellen", name="Winter", runden=2, spiele=1)
    text = await world.answer_text(ix)
    assert t("de", "access_what_create_tournament") in text and "Server verwalten" in text
    role = fake.add_role(guild, "Turnierleitung")
    await guilds.set_guild_settings(world.bot.db, guild.id, admin_role_id=role.id)
    fake.give_role(guild, ben, role)
    ix = await world.run(ben, "turnier erstellen", name="Winter", runden=2, spiele=1)
    assert "Winter" in await world.answer_text(ix)
    # Without the role ben still runs his own tournament: he is its organiser.
    fake.take_role(guild, ben, role)
    for user in world.users:
        await world.answer_text(await world.run(user, "turnier anmelden"))

    async def refused(command: str, **options: Any) -> None:
        ix = await world.run(clara, command, **options)
        text = await world.answer_text(ix)
        assert ix.original is not None and ix.original.ephemeral, command
        assert f"<@{ben.id}>" in text and "Manage Server" in text, (command, text)
        assert f"<@&{role.id}>" in text, (command, text)

    await refused("turnier starten")
    assert (await service.find(guild.id)).status == "open"
    ix = await world.run(ben, "turnier starten")
    assert "Runde 1" in await world.answer_text(ix)
    await refused("turnier pause")
    ix = await world.run(anna, "turnier pause")  # the owner: every permission
    assert "pausiert" in await world.answer_text(ix)
    await refused("turnier ersetzen", spieler=dirk)
    for user in world.users:  # the organiser sends bots in: the round plays itself
        # Quiet first: no hand of the player replaced next may be on its way to their DM.
        await world.settle()
        ix = await world.run(ben, "turnier ersetzen", spieler=user)
        assert "vertreten" in await world.answer_text(ix)
    tournament = await service.find(guild.id)
    for _ in range(200):
        await world.settle()
        await service.idle()
        view = await service.overview(tournament.id)
        if view.table_games(1, 1):
            break
    game = view.table_games(1, 1)[0]
    points = ",".join(str(-p) for _, p in game.scores)
    fields = {"runde": 1, "tisch": 1, "spiel": 1, "punkte": points, "grund": "Zählfehler"}
    await refused("turnier korrigieren", **fields)
    ix = await world.run(anna, "turnier korrigieren", **fields)
    assert "berichtigt" in await world.answer_text(ix)
    await refused("turnier beenden")
    ix = await world.run(ben, "turnier beenden")
    assert "endet" in await world.answer_text(ix)


def test_a_refusal_names_who_may_in_both_languages() -> None:
    alone = Refusal("change_settings", None)  # Manage Server itself: the role does not do
    assert alone.text("de") == (
        "Die Einstellungen des Bots für diesen Server ändern ist Mitgliedern mit "
        "„Server verwalten“ vorbehalten."
    )
    assert (
        alone.text("en")
        == "Only members with Manage Server may change the bot's settings for this server."
    )
    three = Refusal("stop_table", 7, ("host", 5)).text("en")
    assert three == (
        "Only the table's host (<@5>), members with Manage Server or members with the role "
        "<@&7> may stop the table."
    )


def test_settings_take_manage_server_and_the_role_does_the_rest() -> None:
    role_only = Member(1, manages_server=False, admin_role_id=7, has_admin_role=True)
    manager = Member(2, manages_server=True, admin_role_id=7, has_admin_role=False)
    assert change_settings(role_only) is not None and change_settings(manager) is None
    assert create_tournament(role_only) is None and create_tournament(manager) is None
