"""The Discord bot: ``DokoBot`` builds the store and the engine, loads the cogs, and routes
every button and select to the handler the cogs install.

Sharded (``SHARD_COUNT``), it runs on discord.py's sharded client, and interactions for
tables another process runs go through the database (:mod:`bot.discord.forwarding`).
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.discord import codec
from bot.discord.answers import say
from bot.discord.budget import GLOBAL_PER_S, WIRE_SHARE, WireGuard, process_share
from bot.discord.command_sync import sync_on_start
from bot.discord.library import release_interaction
from bot.discord.presenter import Presenter
from bot.discord.stats import ProcessStats
from bot.engine import Engine, EngineError
from bot.engine.challenges import ChallengeService
from bot.engine.faults import STORE_FAILED
from bot.engine.forwarding import Forwarder
from bot.engine.tournaments import TournamentService
from bot.render.errors import error_text
from bot.render.texts import lang_of, t
from bot.render.translator import DokoTranslator
from db import Database, connect
from db.process_lock import ProcessLock, lock_database

log = logging.getLogger(__name__)
T = TypeVar("T")

EXTENSIONS = (
    "cogs.table",
    "cogs.doko",
    "cogs.turnier",
    "cogs.einstellungen",
    "cogs.meine_tische",
    "cogs.herausforderung",
)
ClickHandler = Callable[[codec.Click, discord.Interaction[Any]], Awaitable[None]]
OutdatedHandler = Callable[[discord.Interaction[Any]], Awaitable[None]]


def bot_intents() -> discord.Intents:
    """The default intents, none of them privileged (no members, presences, message content),
    and no message events: the bot reads no messages, it answers interactions and edits its
    own messages by id, so an event for each of its own sends and edits would only cost.
    """
    intents = discord.Intents.default()
    intents.members = False
    intents.presences = False
    intents.message_content = False
    intents.guild_messages = False
    intents.dm_messages = False
    return intents


class DokoBot(commands.Bot):
    """The bot: one Database, one Engine, the message-sync service and the cogs."""

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
        (:func:`tune_gc`; the bot's own process, not the tests, which start many bots).
        """
        share = process_share(settings.shard_ids, settings.shard_count)
        self.wire = WireGuard(int(GLOBAL_PER_S * WIRE_SHARE * share))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            help_command=None,
            http_trace=self.wire.trace(),
            **options,
        )
        self.settings = settings
        self._seeds = seeds
        self._ai_in_thread = ai_in_thread
        self._start_engine = start_engine
        self._tune_gc = tune_gc
        self._db: Database | None = None
        self._engine: Engine | None = None
        self._tournaments: TournamentService | None = None
        self._challenges: ChallengeService | None = None
        # Sharded: interactions for tables another process runs go through the database.
        self.forwarder: Forwarder | None = None
        self.lease_owner = lease_owner_id(settings) if settings.sharded else None
        self.presenter = Presenter(self)
        self.stats = ProcessStats.from_env()  # benchmarks only
        # Installed by the Doko cog; until then a click is answered "one moment".
        self.click_handler: ClickHandler | None = None
        # Installed by the Doko cog: the answer to a component whose id does not decode.
        self.outdated_handler: OutdatedHandler | None = None
        # Components of other messages than tables' and hands', by the first field of their
        # id (the settings message's ``dokoset``): installed by their cogs.
        self.component_routes: dict[str, OutdatedHandler] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self._ready_once = False
        self._process_lock: ProcessLock | None = None

    @property
    def running(self) -> bool:
        """False for a bot that only syncs the commands: no store, no engine."""
        return self._engine is not None

    @property
    def syncs_commands(self) -> bool:
        """Sharded, only the process that runs shard 0 syncs the slash commands."""
        shards = self.settings.shard_ids
        return shards is None or 0 in shards

    @property
    def db(self) -> Database:
        return _started(self._db)

    @property
    def engine(self) -> Engine:
        return _started(self._engine)

    @property
    def tournaments(self) -> TournamentService:
        return _started(self._tournaments)

    @property
    def challenges(self) -> ChallengeService:
        return _started(self._challenges)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(DokoTranslator())
        self.tree.error(self.on_app_command_error)
        if self._start_engine:
            if self.settings.database_url is None:  # SQLite: one unsharded process per file
                self._process_lock = lock_database(
                    self.settings.database_path, shared=self.settings.sharded
                )
            self._db = await connect(self.settings.database_target)
            self._engine = Engine(
                self._db, seeds=self._seeds, ai_in_thread=self._ai_in_thread, **self._sharding()
            )
            # Straight from the engine, not through discord.py's dispatch (a task per
            # event): the presenter only marks messages as changed.
            self._unsubscribe = self._engine.subscribe(self.presenter.on_event)
            self._tournaments = TournamentService(self._engine)
            self._challenges = ChallengeService(self._engine, seeds=self._seeds)
            if self.lease_owner is not None:
                # A dead process's lease runs out within one lease time and its replacement
                # claims the table soon after: only then is nobody running it.
                grace = timedelta(seconds=2 * self.settings.lease_seconds)
                self.forwarder = Forwarder(self._engine, self.lease_owner, grace=grace)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self._db is not None and self.syncs_commands:
            await sync_on_start(self, self.tree, self._db, self.settings.dev_guild_id)
        if self._engine is not None:
            await self._engine.start()
        if self._tournaments is not None:
            await self._tournaments.start()  # after the engine: its tables must be loaded
        if self._challenges is not None:
            await self._challenges.start()
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

    async def on_ready(self) -> None:
        if not self._ready_once and self._engine is not None:
            self._ready_once = True
            await self.presenter.refresh_all()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Buttons and selects; slash commands go through the command tree.
        Routed by custom id rather than by discord.py's DynamicItems, which rebuild the
        clicked message's whole View (an object per button) on every click. Every
        component is the bot's own: one whose id does not decode is outdated or forged,
        and is answered as outdated (``outdated_handler``), never left unanswered.
        """
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        if self.stats is not None:
            self.stats.handler(interaction.id)
        data: dict[str, Any] = dict(interaction.data)
        custom_id = str(data.get("custom_id", ""))
        lang = lang_of(interaction.locale)
        try:
            route = self.component_routes.get(custom_id.partition(":")[0])
            if route is not None:
                await route(interaction)
                return
            try:
                values = tuple(str(v) for v in data.get("values") or ())
                click = codec.decode(custom_id, values)
            except codec.CodecError as error:
                log.info("refused a click: %s", error)
                if self.outdated_handler is None:
                    await say(interaction, t(lang, "err_bad_action"))
                else:
                    await self.outdated_handler(interaction)
                return
            if self.click_handler is None:  # the bot is still starting up
                await say(interaction, t(lang, "busy"))
                return
            await self.click_handler(click, interaction)
            await self.presenter.dms.after_interaction(interaction)  # closed DMs: told once
        except Exception:
            log.exception("a click failed: %r", custom_id)
            await answer_failure(interaction)
        finally:
            release_interaction(interaction)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """The command tree's last resort: a refusal by a check was answered by the check
        (bot.discord.options); a command the store could not serve is answered so; anything
        else is logged and answered "nothing changed".
        """
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return
        original = getattr(error, "original", error)
        if isinstance(original, EngineError) and original.reason == STORE_FAILED:
            await say(interaction, error_text(original, lang_of(interaction.locale)))
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("the command /%s failed", name, exc_info=error)
        await answer_failure(interaction)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        """A slash command was answered: a player with closed DMs hears it once (or, told
        before, the command has the bot try their DM again).
        """
        await self.presenter.dms.after_interaction(interaction)

    async def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.presenter.close()
        if self.forwarder is not None:
            await self.forwarder.close()
        if self._tournaments is not None:
            await self._tournaments.close()
        if self._challenges is not None:
            await self._challenges.close()
        if self._engine is not None:
            await self._engine.close()
            if self.stats is not None:
                self.stats.write(self._figures(self._engine))
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None
        if self._process_lock is not None:
            self._process_lock.release()
            self._process_lock = None

    def _figures(self, engine: Engine) -> dict[str, Any]:
        """The engine's and the presenter's figures for the benchmarks' stats file."""
        budget = self.presenter.budget
        return {
            "store": engine.store_stats(),
            "budget_turns": {p.name: n for p, n in budget.granted.items()},
            "budget_waited_s": {p.name: round(s, 3) for p, s in budget.waited_s.items()},
            "wire_held": self.wire.held,
            "wire_held_s": round(self.wire.held_s, 3),
            "wire_started": self.wire.started,
        }

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every re-IDENTIFY; with one shard there is no one to
        # coordinate with, and a reconnect should not keep players waiting.
        return None


# Young objects collected at a time (CPython's default: 700). A busy bot makes thousands a
# second that live for a request or two; collected every 700 they were moved into the older
# generations and walked again and again (bench discord, 200 tables: ~1.1 s of collections
# a minute, pauses up to 60 ms); at 3000 most die first (~0.35 s a minute, pauses ≤ ~40 ms).
GC_YOUNG_THRESHOLD = 3000


def tune_gc() -> None:
    """Move everything loaded so far (modules, classes, the AIs' tables, the open tables) out
    of the cyclic garbage collector's view: it lives as long as the process, and a full
    collection that walked it stopped the event loop for tens of milliseconds each time.
    Then collect young objects less often (GC_YOUNG_THRESHOLD).
    """
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
    table, a random part so a restarted process with a recycled pid is still someone else.
    """
    shards = ",".join(str(i) for i in settings.shard_ids or ())
    return (
        f"shards {shards}/{settings.shard_count} "
        f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
    )


def _started(service: T | None) -> T:
    if service is None:
        raise RuntimeError("the bot runs without its engine (syncing commands only)")
    return service


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


async def answer_failure(interaction: discord.Interaction[Any]) -> None:
    """The last resort when a handler failed: "something went wrong, nothing changed",
    ephemeral, whether or not the interaction was acknowledged already.
    """
    try:
        await say(interaction, t(lang_of(interaction.locale), "input_failed"))
    except discord.HTTPException:
        log.warning("could not answer a failed interaction either", exc_info=True)
