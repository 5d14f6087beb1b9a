"""Running the bot: ``main(argv)`` runs it (``python -m bot`` / ``make run``);
``sync_main(argv)`` syncs the slash commands at once, globally or to one guild
(``python -m bot sync [guild]``); the bot itself syncs on start when its commands changed.
Two environment variables point discord.py at another Discord for tests:
``DOKO_DISCORD_API_BASE`` and ``DOKO_DISCORD_GATEWAY_URL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Coroutine
from typing import Any, TypeVar

import aiohttp
import discord

from bot.config import ConfigError, Settings, load_settings
from bot.discord.bot import DokoBot, make_bot
from bot.discord.command_sync import sync_tree
from bot.discord.library import apply_discord_overrides
from db import connect
from db.errors import StoreError

log = logging.getLogger(__name__)
T = TypeVar("T")

EXIT_CONFIG = 2
EXIT_FAILURE = 1


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(max(logging.INFO, getattr(logging, level)))


def _settings() -> Settings | None:
    try:
        return load_settings()
    except ConfigError as error:
        logging.basicConfig(level=logging.ERROR, format="%(message)s")
        log.error("doko cannot start, the configuration is incomplete:\n%s", error)
        return None


async def _run(settings: Settings) -> int:
    bot = make_bot(settings, tune_gc=True)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        # Not on every platform; where missing, Ctrl-C still ends the process.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        log.error(
            "Discord refused DISCORD_TOKEN: copy the token again from the developer portal "
            "(Bot → Reset Token) into .env or the environment"
        )
        return EXIT_FAILURE
    except discord.PrivilegedIntentsRequired:
        log.error("Discord asks for privileged intents; this bot needs none: check the token")
        return EXIT_FAILURE
    except StoreError as error:
        log.error("cannot open the database (%s): %s", settings.database_shown, error)
        return EXIT_FAILURE
    except (aiohttp.ClientConnectionError, OSError) as error:
        # No network, a firewall or a wrong DOKO_DISCORD_API_BASE: say so, no traceback.
        log.error("cannot reach Discord (%s): check the network connection", error)
        return EXIT_FAILURE
    return 0


def main(argv: list[str]) -> int:
    """Run the bot until it is stopped (SIGTERM or Ctrl-C end it gracefully)."""
    settings = _settings()
    if settings is None:
        return EXIT_CONFIG
    configure_logging(settings.log_level)
    apply_discord_overrides()
    try:
        return run_loop(_run(settings))
    except KeyboardInterrupt:
        return 0


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the bot's event loop: uvloop where installed (it serves many tables with less CPU
    per interaction), else asyncio's own.
    """
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


async def sync_commands(settings: Settings, guild_id: int | None) -> list[str]:
    """Log in over REST only, sync the slash commands, record their hash (so the next start
    does not sync them again), log out. Returns the synced names.
    """
    bot = DokoBot(settings, start_engine=False)
    store = await connect(settings.database_target)
    try:
        async with bot:
            await bot.login(settings.token)
            names = await sync_tree(bot, bot.tree, store, guild_id, force=True)
    finally:
        await store.close()
    return names or []


def sync_main(argv: list[str]) -> int:
    """``python -m bot sync [guild id]``: global without an id (takes up to an hour to show)."""
    settings = _settings()
    if settings is None:
        return EXIT_CONFIG
    configure_logging(settings.log_level)
    apply_discord_overrides()
    guild_id: int | None = None
    if argv:
        if not argv[0].isdigit():
            log.error("usage: python -m bot sync [guild id]  (%r is not a guild id)", argv[0])
            return EXIT_CONFIG
        guild_id = int(argv[0])
    try:
        names = asyncio.run(sync_commands(settings, guild_id))
    except discord.LoginFailure:
        log.error("Discord refused DISCORD_TOKEN: copy the token again into .env")
        return EXIT_FAILURE
    except discord.HTTPException as error:
        log.error("syncing failed: %s", error)
        return EXIT_FAILURE
    except StoreError as error:
        log.error("cannot open the database (%s): %s", settings.database_shown, error)
        return EXIT_FAILURE
    except (aiohttp.ClientConnectionError, OSError) as error:
        log.error("cannot reach Discord (%s): check the network connection", error)
        return EXIT_FAILURE
    log.info("synced %s to %s", ", ".join(names), f"guild {guild_id}" if guild_id else "all guilds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
