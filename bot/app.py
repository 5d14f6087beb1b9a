"""The Discord bot: ``DokoBot`` builds the store and the engine, loads the cogs, and runs.

``main(argv)`` runs the bot (``python -m bot`` / ``make run``); ``sync_main(argv)`` syncs the
slash commands once, globally or to one guild (``python -m bot sync [guild]``), since they
are synced on request, never on every start. Two environment variables point discord.py at
another Discord for tests: ``DOKO_DISCORD_API_BASE`` and ``DOKO_DISCORD_GATEWAY_URL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import os
import secrets
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from typing import Any, TypeVar

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

import db
from bot.config import ConfigError, Settings, load_settings
from bot.engine import Engine, Event
from bot.engine.forwarding import Forwarder
from bot.engine.tournaments import TournamentService
from bot.render.buttons import dispatch_click
from bot.render.translator import DokoTranslator
from db.errors import StoreError

log = logging.getLogger(__name__)
T = TypeVar("T")

API_BASE_ENV = "DOKO_DISCORD_API_BASE"
GATEWAY_URL_ENV = "DOKO_DISCORD_GATEWAY_URL"
EXTENSIONS = ("cogs.doko", "cogs.turnier")
EXIT_CONFIG = 2
EXIT_FAILURE = 1


def apply_discord_overrides(environ: dict[str, str] | None = None) -> None:
    """Honour the two test overrides; unset, discord.py talks to Discord."""
    env = os.environ if environ is None else environ
    api, gateway = env.get(API_BASE_ENV), env.get(GATEWAY_URL_ENV)
    if api:
        discord.http.Route.BASE = api
        log.info("REST calls go to %s", api)
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        log.info("gateway is %s", gateway)


def bot_intents() -> discord.Intents:
    """The default intents, none of them privileged (no members, presences, message content),
    and no message events: the bot reads no messages, it answers interactions and edits its
    own messages by id, so an event for each of its own sends and edits would only cost."""
    intents = discord.Intents.default()
    intents.members = False
    intents.presences = False
    intents.message_content = False
    intents.guild_messages = False
    intents.dm_messages = False
    return intents


class DokoBot(commands.Bot):
    """The bot: one Database, one Engine, the cogs; engine events become ``on_doko_event``."""

    def __init__(
        self,
        settings: Settings,
        *,
        seeds: Callable[[], int] | None = None,
        ai_in_thread: bool = True,
        start_engine: bool = True,
        tune_gc: bool = False,
        **options: Any,
    ) -> None:
        """``tune_gc``: once set up, tune the garbage collector for a long-running bot
        (:func:`tune_gc`; the bot's own process, not the tests, which start many bots)."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            owner_ids=set(settings.owner_ids) or None,
            help_command=None,
            **options,
        )
        self.settings = settings
        self._seeds = seeds
        self._ai_in_thread = ai_in_thread
        self._start_engine = start_engine
        self._tune_gc = tune_gc
        self.db: db.Database | None = None
        self.engine: Engine | None = None
        self.tournaments: TournamentService | None = None
        # Sharded: interactions for tables another process runs go through the database.
        self.forwarder: Forwarder | None = None
        self.lease_owner = lease_owner_id(settings) if settings.sharded else None
        self.component_handler: Callable[..., Awaitable[None]] | None = None
        self._unsubscribe: Callable[[], None] | None = None

    async def setup_hook(self) -> None:
        await self.tree.set_translator(DokoTranslator())
        if self._start_engine:
            self.db = await db.connect(self.settings.database_target)
            self.engine = Engine(
                self.db, seeds=self._seeds, ai_in_thread=self._ai_in_thread, **self._sharding()
            )
            self._unsubscribe = self.engine.subscribe(self._forward)
            self.tournaments = TournamentService(self.engine)
            if self.lease_owner is not None:
                # A dead process's lease runs out within one lease time and its replacement
                # claims the table soon after: only then is nobody running it.
                grace = timedelta(seconds=2 * self.settings.lease_seconds)
                self.forwarder = Forwarder(self.engine, self.lease_owner, grace=grace)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.engine is not None:
            await self.engine.start()
        if self.tournaments is not None:
            await self.tournaments.start()  # after the engine: its tables must be loaded
        if self.forwarder is not None:
            self.forwarder.start()
        if self._tune_gc:
            tune_gc()

    def _sharding(self) -> dict[str, Any]:
        """The engine's share of the work: its guilds, and a name to claim tables under."""
        settings = self.settings
        if not settings.sharded:
            return {}
        return {
            "owns_guild": settings.owns_guild,
            "lease_owner": self.lease_owner,
            "lease_seconds": settings.lease_seconds,
        }

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        # Buttons and selects: slash commands go through the command tree.
        if await dispatch_click(interaction):
            release_interaction(interaction)

    async def _forward(self, event: Event) -> None:
        # Cogs listen with ``on_doko_event``; dispatching keeps the engine's lock short.
        self.dispatch("doko_event", event)

    async def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.forwarder is not None:
            await self.forwarder.close()
        if self.tournaments is not None:
            await self.tournaments.close()
        if self.engine is not None:
            await self.engine.close()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every re-IDENTIFY; with one shard there is no one to
        # coordinate with, and a reconnect should not keep players waiting.
        return None


def release_interaction(interaction: discord.Interaction[Any]) -> None:
    """Break the one reference cycle a handled click leaves: the interaction and its
    ``response`` point at each other, so the interaction, its parsed message (an object per
    button) and users outlived the click until a garbage collection found them, and by then
    most had been moved into older generations (bench discord, 200 tables: ~11 000 such
    objects in 3 s). Without the cycle reference counting frees them when the last user
    drops them. Only edit_original_response is used on a kept interaction (an ephemeral
    hand), and it does not need the response object."""
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")  # discord.py's cache slot of ``response``


# Young objects collected at a time (CPython's default: 700). A busy bot makes thousands a
# second that live for a request or two; collected every 700 they were moved into the older
# generations and walked again and again (bench discord, 200 tables: ~1.1 s of collections
# a minute, pauses up to 60 ms); at 3000 most die first (~0.35 s a minute, pauses ≤ ~40 ms).
GC_YOUNG_THRESHOLD = 3000


def tune_gc() -> None:
    """Move everything loaded so far (modules, classes, the AIs' tables, the open tables) out
    of the cyclic garbage collector's view: it lives as long as the process, and a full
    collection that walked it stopped the event loop for tens of milliseconds each time.
    Then collect young objects less often (GC_YOUNG_THRESHOLD)."""
    importlib.import_module("bot.ai")  # else loaded at the first AI move, after the freeze
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


class ShardedDokoBot(DokoBot, commands.AutoShardedBot):
    """The same bot on discord.py's sharded client: ``SHARD_IDS`` of ``SHARD_COUNT`` shards."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Several shards share Discord's IDENTIFY rate limit: keep discord.py's pause.
        await discord.Client.before_identify_hook(self, shard_id, initial=initial)


def lease_owner_id(settings: Settings) -> str:
    """This process's name on its table leases: shards, host and pid for people reading the
    table, a random part so a restarted process with a recycled pid is still someone else."""
    shards = ",".join(str(i) for i in settings.shard_ids or ())
    return (
        f"shards {shards}/{settings.shard_count} "
        f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
    )


def make_bot(settings: Settings, **options: Any) -> DokoBot:
    """The unsharded bot, or the sharded one when ``SHARD_COUNT`` is set."""
    if settings.shard_count is None:
        return DokoBot(settings, **options)
    log.info("running shards %s of %d", settings.shard_ids, settings.shard_count)
    return ShardedDokoBot(
        settings,
        shard_ids=list(settings.shard_ids or ()),
        shard_count=settings.shard_count,
        **options,
    )


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
    per interaction), else asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


async def sync_commands(settings: Settings, guild_id: int | None) -> list[str]:
    """Log in over REST only, sync the slash commands, log out. Returns the synced names."""
    bot = DokoBot(settings, start_engine=False)
    async with bot:
        await bot.login(settings.token)
        if guild_id is not None:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
        else:
            synced = await bot.tree.sync()
    return [command.name for command in synced]


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
    except (aiohttp.ClientConnectionError, OSError) as error:
        log.error("cannot reach Discord (%s): check the network connection", error)
        return EXIT_FAILURE
    log.info("synced %s to %s", ", ".join(names), f"guild {guild_id}" if guild_id else "all guilds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
