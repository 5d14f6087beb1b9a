"""Guilds (Discord servers) and their settings (``guilds``): public language, the bot-admin
role, time zone, and the defaults of new tables (rules, turn timer, AI level, ping delay).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Final, TypedDict, Unpack

from db._util import dump_json, load_json, to_ms
from db.database import Database, Row
from db.rows import AILevel, DisconnectPolicy, GuildSettings, JSONDict, PublicLanguage

UPSERT_GUILD: Final = """
INSERT INTO guilds (guild_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""
ENSURE_GUILD: Final = """
INSERT INTO guilds (guild_id, created_at, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO NOTHING
"""
GET_GUILD: Final = """
SELECT guild_id, name, default_rules, admin_role_id, time_zone, turn_timer_s,
    ai_level, public_language, notify_delay_s, disconnect_policy, replay_thread, tempo_s
FROM guilds WHERE guild_id = ?
"""
LIST_GUILDS: Final = """
SELECT guild_id, name, default_rules, admin_role_id, time_zone, turn_timer_s,
    ai_level, public_language, notify_delay_s, disconnect_policy, replay_thread, tempo_s
FROM guilds ORDER BY guild_id
"""
SET_GUILD_SETTINGS: Final = """
UPDATE guilds SET default_rules = ?, admin_role_id = ?, time_zone = ?,
    turn_timer_s = ?, ai_level = ?, public_language = ?, notify_delay_s = ?,
    disconnect_policy = ?, replay_thread = ?, tempo_s = ?, updated_at = ?
WHERE guild_id = ?
"""


def _guild(row: Row) -> GuildSettings:
    return GuildSettings(
        row["guild_id"],
        row["name"],
        load_json(row["default_rules"]),
        row["admin_role_id"],
        row["time_zone"],
        row["turn_timer_s"],
        row["ai_level"],
        row["public_language"],
        row["notify_delay_s"],
        row["disconnect_policy"],
        bool(row["replay_thread"]),
        row["tempo_s"],
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
        return GuildSettings(guild_id, "", {})
    return _guild(row)


async def list_guild_settings(db: Database) -> list[GuildSettings]:
    """Every known guild's settings (what a starting bot keeps at hand)."""
    return [_guild(row) for row in await db.fetchall(LIST_GUILDS)]


class GuildChanges(TypedDict, total=False):
    """The settings ``set_guild_settings`` may change; what is not named stays."""

    default_rules: JSONDict
    admin_role_id: int | None
    time_zone: str
    turn_timer_s: int | None
    ai_level: AILevel
    public_language: PublicLanguage
    notify_delay_s: int | None
    disconnect_policy: DisconnectPolicy
    replay_thread: bool
    tempo_s: int | None


async def set_guild_settings(
    db: Database, guild_id: int, *, now: datetime | None = None, **changes: Unpack[GuildChanges]
) -> GuildSettings:
    """Change the settings given (the others stay); creates the guild when unknown.

    None is a value of its own where it is allowed: no admin role, no turn timer, never ping.
    """
    ms = to_ms(now)
    async with db.transaction():
        await db.execute(ENSURE_GUILD, (guild_id, ms, ms))
        new = replace(await get_guild_settings(db, guild_id), **changes)
        await db.execute(
            SET_GUILD_SETTINGS,
            (
                dump_json(new.default_rules),
                new.admin_role_id,
                new.time_zone,
                new.turn_timer_s,
                new.ai_level,
                new.public_language,
                new.notify_delay_s,
                new.disconnect_policy,
                new.replay_thread,
                new.tempo_s,
                ms,
                guild_id,
            ),
        )
        return new
