"""Guilds (Discord servers) and their settings: language, default rules (``guilds``)."""

from __future__ import annotations

from datetime import datetime
from typing import Final

from db._util import dump_json, load_json, to_ms
from db.database import Database, Row
from db.rows import GuildSettings, JSONDict, Language

UPSERT_GUILD: Final = """
INSERT INTO guilds (guild_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""
ENSURE_GUILD: Final = """
INSERT INTO guilds (guild_id, created_at, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO NOTHING
"""
GET_GUILD: Final = "SELECT guild_id, name, language, default_rules FROM guilds WHERE guild_id = ?"
SET_GUILD_SETTINGS: Final = """
UPDATE guilds SET language = ?, default_rules = ?, updated_at = ? WHERE guild_id = ?
"""


def _guild(row: Row) -> GuildSettings:
    return GuildSettings(
        row["guild_id"], row["name"], row["language"], load_json(row["default_rules"])
    )


async def upsert_guild(
    db: Database, guild_id: int, name: str = "", *, now: datetime | None = None
) -> GuildSettings:
    """Store a guild, or update the name of a known one; returns its settings."""
    ms = to_ms(now)
    async with db.transaction():
        await db.execute(UPSERT_GUILD, (guild_id, name, ms, ms))
        return await get_guild_settings(db, guild_id)


async def get_guild_settings(db: Database, guild_id: int) -> GuildSettings:
    """The guild's settings; an unknown guild has the defaults (German, DDV rules)."""
    row = await db.fetchone(GET_GUILD, (guild_id,))
    if row is None:
        return GuildSettings(guild_id, "", "de", {})
    return _guild(row)


async def set_guild_settings(
    db: Database,
    guild_id: int,
    *,
    language: Language | None = None,
    default_rules: JSONDict | None = None,
    now: datetime | None = None,
) -> GuildSettings:
    """Change the settings given (the others stay); creates the guild when unknown."""
    ms = to_ms(now)
    async with db.transaction():
        await db.execute(ENSURE_GUILD, (guild_id, ms, ms))
        current = await get_guild_settings(db, guild_id)
        new_language = current.language if language is None else language
        new_rules = current.default_rules if default_rules is None else default_rules
        await db.execute(SET_GUILD_SETTINGS, (new_language, dump_json(new_rules), ms, guild_id))
        return GuildSettings(guild_id, current.name, new_language, new_rules)
