"""Set-up on Discord: the slash commands appear without a manual step (synced on start when
they changed, never again when not), ``python -m bot --help`` names every subcommand, the
README's invite link asks for what the bot needs, and a channel where it cannot post says so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot.cli import build_parser
from bot.config import Settings
from bot.discord.bot import DokoBot
from bot.discord.command_sync import sync_scope, tree_hash
from bot.discord.library import apply_discord_overrides
from bot.discord.permissions import (
    INVITE_PERMISSIONS,
    INVITE_SCOPES,
    TABLE_PERMISSIONS,
    TOURNAMENT_FLAGS,
    TOURNAMENT_PERMISSIONS,
)
from bot.discord.run import sync_commands
from bot.engine import EngineError
from bot.render import translator
from bot.render.texts import t
from db import command_sync, connect
from tests.discord.conftest import settings_for
from tests.fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]
GLOBAL_PUT = "PUT /applications/{application_id}/commands"
GUILD_PUT = "PUT /applications/{application_id}/guilds/{guild_id}/commands"


def subcommands(commands: list[dict[str, Any]]) -> set[str]:
    """The names under /doko (type 1: a subcommand)."""
    doko = next(c for c in commands if c["name"] == "doko")
    return {o["name"] for o in doko.get("options", []) if o.get("type") == 1}


def tisch_of(commands: list[dict[str, Any]]) -> dict[str, Any]:
    doko = next(c for c in commands if c["name"] == "doko")
    found: dict[str, Any] = next(o for o in doko["options"] if o["name"] == "tisch")
    return found


async def run_once(fake: FakeDiscord, settings: Settings) -> None:
    """Start the bot until it is ready, then stop it."""
    apply_discord_overrides(fake.env())
    bot = DokoBot(settings, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(fake.token))
    fake.watch(task)
    await fake.wait_for(bot.is_ready, 10, "the bot's on_ready")
    await bot.close()
    await asyncio.wait_for(task, 10)


async def stored_hash(settings: Settings, guild_id: int | None) -> str | None:
    store = await connect(settings.database_target)
    try:
        return await command_sync.synced_hash(store, sync_scope(APP_IDS[settings.token], guild_id))
    finally:
        await store.close()


APP_IDS: dict[str, int] = {}  # the fake's application id, per token


@pytest.fixture
def settings(fake: FakeDiscord, tmp_path: Path) -> Settings:
    user = fake.add_user("anna")
    fake.add_guild("Stammtisch", owner=user)
    APP_IDS[fake.token] = fake.app_id
    return settings_for(fake, tmp_path / "doko.sqlite3")


async def test_a_fresh_start_syncs_once_and_an_unchanged_restart_not_at_all(
    fake: FakeDiscord, settings: Settings
) -> None:
    await run_once(fake, settings)
    puts = fake.requests_to(GLOBAL_PUT)
    assert len(puts) == 1
    assert {"tisch", "karten", "hilfe"} <= subcommands(fake.commands())
    # The stored hash is the hash of exactly the body Discord received.
    assert await stored_hash(settings, None) == tree_hash(puts[0].body)
    assert tisch_of(puts[0].body)["description_localizations"]["en-US"]

    await run_once(fake, settings)
    assert len(fake.requests_to(GLOBAL_PUT)) == 1


async def test_a_changed_tree_syncs_again(
    fake: FakeDiscord, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    await run_once(fake, settings)
    # Only a translation changes: what the translator adds at sync time counts too.
    key = "Einen Tisch in diesem Kanal eröffnen"
    monkeypatch.setitem(translator.EN, key, "Open a table here")
    await run_once(fake, settings)
    puts = fake.requests_to(GLOBAL_PUT)
    assert len(puts) == 2
    assert tisch_of(fake.commands())["description_localizations"]["en-US"] == "Open a table here"
    assert await stored_hash(settings, None) == tree_hash(puts[1].body)


async def test_the_sync_command_records_the_hash_so_the_start_does_not_sync_again(
    fake: FakeDiscord, settings: Settings
) -> None:
    apply_discord_overrides(fake.env())
    await sync_commands(settings, None)
    await run_once(fake, settings)
    assert len(fake.requests_to(GLOBAL_PUT)) == 1


async def test_with_a_dev_guild_the_start_syncs_to_that_guild_only(
    fake: FakeDiscord, settings: Settings
) -> None:
    guild = fake.guilds[0]
    dev = dataclasses.replace(settings, dev_guild_id=guild.id)
    await run_once(fake, dev)
    assert len(fake.requests_to(GUILD_PUT)) == 1
    assert not fake.requests_to(GLOBAL_PUT)
    assert {"tisch", "karten"} <= subcommands(fake.commands(guild))
    await run_once(fake, dev)
    assert len(fake.requests_to(GUILD_PUT)) == 1


async def test_a_sharded_process_without_shard_0_does_not_sync(
    fake: FakeDiscord, settings: Settings
) -> None:
    bot = DokoBot(dataclasses.replace(settings, shard_ids=(1,), shard_count=2))
    other = DokoBot(dataclasses.replace(settings, shard_ids=(0,), shard_count=2))
    assert not bot.syncs_commands and other.syncs_commands
    assert DokoBot(settings).syncs_commands


def test_help_lists_every_subcommand() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = result.stdout.splitlines()
    for name in ("play", "arena", "sync", "replay", "score", "bench"):
        line = next((x for x in lines if x.split()[:1] == [name]), None)
        assert line is not None and len(line.split()) > 2, f"{name} missing from --help"
    assert "run the Discord bot" in result.stdout
    assert build_parser().prog == "python -m bot"


def test_the_readme_invite_link_asks_for_exactly_what_the_bot_needs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", readme)
    assert len(links) == 1
    query = parse_qs(urlsplit(links[0]).query)
    assert query["scope"] == [" ".join(INVITE_SCOPES)]
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted == INVITE_PERMISSIONS
    assert granted >= TABLE_PERMISSIONS and granted >= TOURNAMENT_PERMISSIONS
    # Nothing privileged or moderating: the bot touches only its own messages.
    assert not (granted.administrator or granted.manage_messages or granted.manage_channels)
    assert not granted.mention_everyone and not granted.read_message_history
    # Each permission has its line of why in the README.
    assert granted == discord.Permissions(**dict.fromkeys(TOURNAMENT_FLAGS, True))
    for name in TOURNAMENT_FLAGS:
        assert f"**{t('en', f'perm_{name}')}**" in readme, name


@pytest.mark.parametrize("lang", ["de", "en"])
async def test_a_channel_where_the_bot_cannot_post_says_what_to_grant(
    make_world: Any, lang: str
) -> None:
    world = await make_world(locales={"anna": "en-US" if lang == "en" else "de"})
    fake, anna = world.fake, world.users[0]
    channel = fake.add_channel(world.guild, "ohne-rechte")
    lacking = (
        INVITE_PERMISSIONS.value
        & ~(discord.Permissions(send_messages=True) | discord.Permissions(embed_links=True)).value
    )
    fake.app_permissions[channel.id] = lacking
    posted = len(fake.channel_messages(channel))
    ix = await fake.slash(anna, "doko tisch", in_channel=channel)
    assert (await fake.response(ix, timeout=3)).status == 200
    answer = ix.original
    assert answer is not None and answer.ephemeral
    text = answer.content
    assert t(lang, "perm_embed_links") in text and t(lang, "perm_send_messages") in text  # type: ignore[arg-type]
    # Attach Files is there; without it the table would play in text (test_channel_files).
    assert t(lang, "perm_attach_files") not in text  # type: ignore[arg-type]
    assert world.engine.find_table(world.guild.id, channel.id) is None
    assert len([m for m in fake.channel_messages(channel) if not m.ephemeral]) == posted

    # Granted: the same command opens the table.
    del fake.app_permissions[channel.id]
    ix = await fake.slash(anna, "doko tisch", in_channel=channel)
    assert (await fake.response(ix, timeout=3)).status == 200
    await fake.followup(ix)
    assert world.engine.find_table(world.guild.id, channel.id) is not None


async def test_a_tournament_in_a_channel_without_threads_says_what_to_grant(
    make_world: Any,
) -> None:
    world = await make_world()
    fake, anna = world.fake, world.users[0]
    fake.app_permissions[world.channel.id] = TABLE_PERMISSIONS.value
    ix = await world.run(anna, "turnier erstellen", name="Herbst", runden=1, spiele=2)
    text = await world.answer_text(ix)
    assert t("de", "perm_create_public_threads") in text
    assert t("de", "perm_send_messages_in_threads") in text
    with pytest.raises(EngineError):
        await world.bot.tournaments.find(world.guild.id)  # none was created
