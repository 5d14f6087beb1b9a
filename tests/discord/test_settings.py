"""``/doko einstellungen`` through the loopback Discord: an admin sets house rules and table
defaults, a new ``/doko tisch`` starts from them (and its own options win), members without
Manage Server are refused unless they hold the server's bot-admin role.
"""

from __future__ import annotations

from typing import Any

import db
from bot.rules.ruleset import DDV, DulleTie
from tests.discord.conftest import World, message_text
from tests.fakediscord import Message, User

MANAGE_GUILD = 1 << 5
NO_ADMIN = (1 << 50) - 1 & ~MANAGE_GUILD & ~(1 << 3)  # everything but Manage Server/Admin


async def open_settings(world: World, user: User) -> Message:
    ix = await world.run(user, "einstellungen")
    assert ix.original is not None and ix.original.ephemeral_to is user
    return ix.original  # type: ignore[no-any-return]


async def pick(world: World, user: User, message: Message, key: str, values: list[str]) -> Any:
    custom_id = next(c for c in message.custom_ids if c.endswith(f":{key}"))
    ix = await world.fake.select(user, message, custom_id, values)
    callback = await world.fake.response(ix, timeout=3)
    assert callback.status == 200, callback
    return ix


async def press(world: World, user: User, message: Message, key: str) -> Any:
    """Click the button of ``key`` (a toggle: whichever value it offers; ``key:ask``)."""
    custom_id = next(
        c
        for c in message.custom_ids
        if c.endswith(f":{key}") or c.rsplit(":", 1)[0].endswith(f":{key}")
    )
    ix = await world.fake.click(user, message, custom_id)
    callback = await world.fake.response(ix, timeout=3)
    assert callback.status == 200, callback
    return ix


async def answer_modal(world: World, user: User, opened_by: Any, text: str) -> Any:
    """Type ``text`` into the one field of the modal the bot opened, and submit it."""
    modal = opened_by.callbacks[0]
    assert modal.type == 9, modal
    field = modal.data["components"][0]["component"]["custom_id"]
    ix = await world.fake.submit_modal(user, opened_by, {field: text})
    callback = await world.fake.response(ix, timeout=3)
    assert callback.status == 200, callback
    return ix


async def stop_table(world: World, user: User) -> None:
    ix = await world.run(user, "stopp")
    await world.answer_text(ix)
    assert world.engine.find_table(world.guild.id, world.channel.id) is None


async def test_house_rules_set_here_are_where_a_new_table_starts(make_world: Any) -> None:
    world: World = await make_world()
    admin = world.users[0]  # the owner: every permission
    settings = await open_settings(world, admin)
    assert "DDV-Turnier" in message_text(settings)
    await pick(world, admin, settings, "page", ["sonder"])
    ix = await press(world, admin, settings, "schweinchen")
    # Stored before the answer; the message shows the new state.
    stored = await db.guilds.get_guild_settings(world.bot.db, world.guild.id)
    assert stored.default_rules == {"schweinchen": True}
    assert ix.callbacks[0].type == 7
    assert "Gespeichert: Schweinchen: an" in message_text(settings)
    await pick(world, admin, settings, "page", ["spiel"])
    await pick(world, admin, settings, "dulle_tie", ["second_wins"])
    await pick(world, admin, settings, "page", ["tisch"])
    await pick(world, admin, settings, "ai_level", ["schwer"])

    table_id = await world.open_table(admin)
    info = world.engine.table(table_id)
    assert info.rules == DDV.replace(schweinchen=True, dulle_tie=DulleTie.SECOND_WINS)
    assert info.ai_level == "schwer"
    lobby = message_text(world.lobby())
    assert "Abweichend von DDV: zweite Dulle sticht, Schweinchen" in lobby
    rules = await world.answer_text(await world.run(admin, "regeln"))
    assert "Abweichend von DDV: zweite Dulle sticht, Schweinchen" in rules
    # The empty seats get the server's bots.
    await world.click(admin, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).status == "playing", 3, "the game to start"
    )
    seats = world.engine.table(table_id).seats
    assert [s.ai_level for s in seats if s is not None] == [None, "schwer", "schwer", "schwer"]
    await world.settle()
    await stop_table(world, admin)

    # What /doko tisch names wins over the server's defaults.
    table_id = await world.open_table(admin, regeln="ddv", bots="leicht")
    info = world.engine.table(table_id)
    assert info.rules == DDV and info.ai_level == "leicht"
    assert "Abweichend von DDV" not in message_text(world.lobby())
    await stop_table(world, admin)


async def test_numbers_and_zones_by_modal_and_the_table_uses_them(make_world: Any) -> None:
    world: World = await make_world()
    admin = world.users[0]
    settings = await open_settings(world, admin)
    await pick(world, admin, settings, "page", ["spiel"])
    asked = await press(world, admin, settings, "games_per_round:ask")
    await answer_modal(world, admin, asked, "8")
    assert "Gespeichert: Spiele je Runde: 8" in message_text(settings)
    await pick(world, admin, settings, "page", ["tisch"])
    asked = await press(world, admin, settings, "turn_timer_s:ask")
    await answer_modal(world, admin, asked, "45")
    await pick(world, admin, settings, "page", ["zeitzone"])
    asked = await press(world, admin, settings, "time_zone:ask")
    await answer_modal(world, admin, asked, "America/Chicago")
    asked = await press(world, admin, settings, "time_zone:ask")
    wrong = await answer_modal(world, admin, asked, "Mars/Olympus")
    assert "keine Zeitzone" in await world.answer_text(wrong)
    stored = await db.guilds.get_guild_settings(world.bot.db, world.guild.id)
    assert (stored.time_zone, stored.turn_timer_s) == ("America/Chicago", 45)

    table_id = await world.open_table(admin)
    info = world.engine.table(table_id)
    assert (info.games_per_session, info.turn_timer_s) == (8, 45)
    assert "8 Spiele je Runde" in message_text(world.lobby())
    await stop_table(world, admin)
    # A per-table number wins too.
    table_id = await world.open_table(admin, spiele=4, zugzeit=20)
    info = world.engine.table(table_id)
    assert (info.games_per_session, info.turn_timer_s) == (4, 20)
    await stop_table(world, admin)


async def test_only_manage_server_or_the_admin_role_may_change(make_world: Any) -> None:
    world: World = await make_world()
    admin, ben, clara = world.users[:3]  # the owner; members with @everyone's permissions

    # Ben may look (and page through), not change: the controls are off, the text says why.
    looking = await open_settings(world, ben)
    text = message_text(looking)
    assert "ansehen, aber nicht ändern" in text and "Server verwalten" in text
    await pick(world, ben, looking, "page", ["sonder"])
    toggle = next(c for c in looking.iter_components() if ":armut:" in c["custom_id"])
    assert toggle["disabled"]

    # The admin names a bot-admin role; Clara gets it and may change the defaults.
    role = world.fake.add_role(world.guild, "Doko-Admin")
    settings = await open_settings(world, admin)
    await pick(world, admin, settings, "page", ["server"])
    custom_id = next(c for c in settings.custom_ids if c.endswith(":admin_role_id"))
    ix = await world.fake.role_select(admin, settings, custom_id, [role])
    assert (await world.fake.response(ix, timeout=3)).status == 200
    stored = await db.guilds.get_guild_settings(world.bot.db, world.guild.id)
    assert stored.admin_role_id == role.id
    assert f"<@&{role.id}>" in message_text(settings)

    world.fake.give_role(world.guild, clara, role)
    hers = await open_settings(world, clara)
    await pick(world, clara, hers, "page", ["sonder"])
    await press(world, clara, hers, "armut")
    stored = await db.guilds.get_guild_settings(world.bot.db, world.guild.id)
    assert stored.default_rules == {"armut": True}
    # The role itself is chosen with Manage Server only: it does not hand itself on.
    await pick(world, clara, hers, "page", ["server"])
    roles = next(c for c in hers.iter_components() if c["custom_id"].endswith(":admin_role_id"))
    assert roles["disabled"]

    # Without the role any more, her next click on the open message is refused, naming who
    # may.
    await pick(world, clara, hers, "page", ["sonder"])
    world.fake.take_role(world.guild, clara, role)
    refused = await press(world, clara, hers, "schweinchen")
    answer = await world.answer_text(refused)
    assert "„Server verwalten“" in answer and f"<@&{role.id}>" in answer
    stored = await db.guilds.get_guild_settings(world.bot.db, world.guild.id)
    assert stored.default_rules == {"armut": True}


async def test_bad_stored_rules_open_a_ddv_table(make_world: Any) -> None:
    world: World = await make_world()
    admin = world.users[0]
    await db.guilds.set_guild_settings(
        world.bot.db, world.guild.id, default_rules={"schweinchen": "ja", "gibtsnicht": 1}
    )
    table_id = await world.open_table(admin)
    assert world.engine.table(table_id).rules == DDV
    settings = await open_settings(world, admin)
    assert "ließen sich nicht lesen" in message_text(settings)
    await stop_table(world, admin)


async def test_the_settings_speak_english_and_a_fixed_public_language(make_world: Any) -> None:
    world: World = await make_world(locales={"anna": "en-US"})
    admin = world.users[0]
    settings = await open_settings(world, admin)
    text = message_text(settings)
    assert "This server's settings" in text and "Manage Server" in text
    await pick(world, admin, settings, "page", ["server"])
    await pick(world, admin, settings, "public_language", ["en"])
    assert "Saved: Language of public messages: English" in message_text(settings)
    # The guild's Discord locale is German: the table message speaks English all the same.
    table_id = await world.open_table(admin)
    assert "Table" in message_text(world.lobby())
    assert world.engine.table(table_id).ai_level == "mittel"  # the default
    await stop_table(world, admin)


async def test_the_servers_ping_default_counts_for_who_chose_none(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    settings = await open_settings(world, anna)
    await pick(world, anna, settings, "page", ["server"])
    await pick(world, anna, settings, "notify_delay_s", ["0"])
    assert "Gespeichert: Benachrichtigung (wer nichts gewählt hat): sofort" in message_text(
        settings
    )
    # Anna chose nothing herself: at once, not after the bot's 20 s.
    table_id = await world.open_table(anna, spiele=1, bots="leicht")
    await world.click(anna, world.lobby(), "doko:start:")
    ping = await world.fake.wait_for(
        lambda: next(
            (
                m
                for m in world.fake.messages
                if m.author is world.fake.bot_user
                and m.content.startswith(f"Du bist dran an Tisch {table_id}.")
            ),
            None,
        ),
        5,
        "a ping at once",
    )
    assert ping.channel.recipient is anna
    await stop_table(world, anna)
