"""db.guilds on SQLite and PostgreSQL: guild settings."""

from __future__ import annotations

import pytest

import db
from db import Database

from .conftest import GUILD


async def test_guild_settings(store: Database) -> None:
    assert await db.guilds.get_guild_settings(store, GUILD) == db.GuildSettings(GUILD, "", {})
    await db.guilds.upsert_guild(store, GUILD, "Stammtisch")
    changed = await db.guilds.set_guild_settings(
        store, GUILD, public_language="en", default_rules={"schweinchen": True}
    )
    assert changed == db.GuildSettings(
        GUILD, "Stammtisch", {"schweinchen": True}, public_language="en"
    )
    # Only what is given changes; a rename keeps the settings.
    await db.guilds.set_guild_settings(store, GUILD, public_language="de")
    renamed = await db.guilds.upsert_guild(store, GUILD, "Doko-Runde")
    assert renamed == db.GuildSettings(
        GUILD, "Doko-Runde", {"schweinchen": True}, public_language="de"
    )
    assert await db.guilds.get_guild_settings(store, GUILD) == renamed
    with pytest.raises(db.ConstraintError):
        await db.guilds.set_guild_settings(store, GUILD, public_language="fr")  # type: ignore[arg-type]


async def test_admin_role_and_time_zone_are_kept_until_changed(store: Database) -> None:
    fresh = await db.guilds.get_guild_settings(store, GUILD)
    assert (fresh.admin_role_id, fresh.time_zone) == (None, "Europe/Berlin")
    await db.guilds.set_guild_settings(store, GUILD, admin_role_id=77, time_zone="America/Chicago")
    await db.guilds.set_guild_settings(store, GUILD, public_language="en")
    kept = await db.guilds.get_guild_settings(store, GUILD)
    assert (kept.public_language, kept.admin_role_id, kept.time_zone) == (
        "en",
        77,
        "America/Chicago",
    )
    # None clears the role: "not given" and "no role" are different.
    cleared = await db.guilds.set_guild_settings(store, GUILD, admin_role_id=None)
    assert cleared.admin_role_id is None
    assert await db.guilds.get_guild_settings(store, GUILD) == cleared


async def test_table_defaults_are_stored_and_kept_until_changed(store: Database) -> None:
    fresh = await db.guilds.get_guild_settings(store, GUILD)
    defaults = (fresh.turn_timer_s, fresh.ai_level, fresh.public_language, fresh.notify_delay_s)
    assert defaults == (None, "mittel", "server", 20)
    await db.guilds.set_guild_settings(
        store, GUILD, turn_timer_s=45, ai_level="schwer", public_language="en", notify_delay_s=None
    )
    await db.guilds.set_guild_settings(store, GUILD, default_rules={"armut": True})
    kept = await db.guilds.get_guild_settings(store, GUILD)
    assert (kept.turn_timer_s, kept.ai_level, kept.public_language) == (45, "schwer", "en")
    assert kept.notify_delay_s is None  # never ping: a value, not "not chosen"
    assert kept.default_rules == {"armut": True}
    cleared = await db.guilds.set_guild_settings(store, GUILD, turn_timer_s=None, notify_delay_s=0)
    assert (cleared.turn_timer_s, cleared.notify_delay_s) == (None, 0)
    for bad in ({"ai_level": "meister"}, {"public_language": "fr"}, {"turn_timer_s": 2}):
        with pytest.raises(db.ConstraintError):
            await db.guilds.set_guild_settings(store, GUILD, **bad)  # type: ignore[arg-type]
