"""Slash commands appear without a manual step: the bot syncs its command tree on start
when it differs from the tree synced last.

What is hashed is the payload ``CommandTree.sync`` sends: the same commands
(``tree.get_commands(guild=…)``, which ``sync`` reads too) turned into JSON by the same
call (``get_translated_payload`` with the tree's translator, so the German and English
localizations count), dumped with sorted keys. The hash is kept per application and target
(``db.command_sync``); a restart with an unchanged tree sends nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from db import Database, command_sync

log = logging.getLogger(__name__)


async def tree_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The JSON ``tree.sync(guild=guild)`` would PUT, translations included."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def tree_hash(payload: list[dict[str, Any]]) -> str:
    """A stable hash of a command payload: key order and whitespace do not matter."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def sync_scope(application_id: int, guild_id: int | None) -> str:
    """The store's key: another application (a new token) starts with no commands."""
    return f"{application_id}:{'global' if guild_id is None else guild_id}"


async def sync_tree(
    client: discord.Client,
    tree: app_commands.CommandTree[Any],
    db: Database,
    guild_id: int | None,
    *,
    force: bool = False,
) -> list[str] | None:
    """Sync the tree globally or to one guild (the global commands copied there), unless
    it equals the one synced last (``force``: always). Returns the synced names, or None
    when nothing had to be sent.
    """
    if client.application_id is None:
        raise discord.app_commands.MissingApplicationID
    guild = None if guild_id is None else discord.Object(guild_id)
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = tree_hash(await tree_payload(tree, guild))
    scope = sync_scope(client.application_id, guild_id)
    if not force and await command_sync.synced_hash(db, scope) == digest:
        return None
    synced = await tree.sync(guild=guild)
    await command_sync.save_synced_hash(db, scope, digest)
    return [command.name for command in synced]


async def sync_on_start(
    client: discord.Client, tree: app_commands.CommandTree[Any], db: Database, guild_id: int | None
) -> None:
    """The start-up sync: a failure is logged with what to do, the bot runs on."""
    target = (
        "all guilds (can take up to an hour to show)" if guild_id is None else f"guild {guild_id}"
    )
    try:
        names = await sync_tree(client, tree, db, guild_id)
    except discord.Forbidden:
        log.warning(
            "cannot sync the slash commands to %s: invite the bot with the scopes bot and "
            "applications.commands (see README, Set up on Discord)",
            target,
        )
        return
    except discord.HTTPException as error:
        log.warning("syncing the slash commands to %s failed: %s", target, error)
        return
    if names is None:
        log.info("slash commands unchanged since the last sync to %s", target)
    else:
        log.info("synced the slash commands %s to %s", ", ".join(names), target)
