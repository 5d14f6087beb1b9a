"""``bench discord``: the real bot against the loopback Discord, many tables playing at once.

Setup. The bot runs as its own OS process (``python -m bot``, pointed at the fake with the
same environment overrides as in production tests); the loopback Discord and the players
run in the benchmark's process, so the two do not share an event loop. Each table has one
human and three AIs (leicht; ``--bots`` picks another level: a server's default, which the
benchmark's command would get without it, is mittel) and plays one game of the
``ohne_pflichtsolo`` preset. A human decides only from what a player sees: the table message
in the channel and the hand DM with its buttons. When the hand shows an enabled card (or
Gesund) for a newer table version than they last clicked, they think, then click: Gesund,
else the first playable card. Every action of a human, the ``/doko tisch`` and the start
included, comes after a think time drawn per action, uniformly from ``think-ms`` ± a third (seeded).

Headline (the defaults): 200 tables, ``--think-ms 1500`` (1–2 s per decision, as a quick
online player). ``--think-ms 0`` is the flat-out run: every human clicks as soon as the
hand allows it, a load no real table produces. ``--in-process`` runs the bot in the
benchmark's event loop instead (the benchmark's first form; it measures the fake's work
along with the bot's). Both processes run on uvloop when it is installed, as the bot does
in production; the fake skips its OpenAPI check of request bodies (the tests make it).

Store and processes. The bot stores in a new SQLite file, or with ``--database-url`` in a
new, empty schema of that PostgreSQL database (migrated by the run, dropped after it).
``--processes N`` (PostgreSQL only) runs N bot processes, one shard each (``SHARD_COUNT``,
``SHARD_IDS``), on one token: they share the fake's one global bucket, each spending its
share of it. The tables are dealt round one guild per shard; DM clicks reach shard 0, which
forwards those of the other shards' tables. CPU and memory are the processes' sums, and
``…_by_process`` gives each one's (``discord_store``, ``discord_processes`` say the setup).

Measured: the time from the fake creating an interaction (a slash command or a click) to
the bot's acknowledgement (the callback request) arriving at the fake,
``discord_ack_ms_p50``/``p99`` over all interactions (Discord allows 3 s), and the p99 of
each kind (``tisch``, ``start``, ``play``); REST calls per game action, AI actions included
(``discord_rest_calls_per_action``, and by route); the bot process's CPU per action and
share of a core. The ack times include the fake's own delays: ``discord_bench_loop_lag_ms_p99``
says how late the benchmark's loop ran (with the bot in its own process, what the fake
stores is frozen out of this process's garbage collections every second, so they do not
stall it). Figures depend on what else the machine runs: ``load_average_1m`` is printed
with them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
from aiohttp import web

from bot.benchmarks.discord_figures import (
    budget_figures,
    find_max_tables,
    percentile,
    process_figures,
    route,
    tail_figures,
    uploaded_bytes,
)
from bot.benchmarks.discord_process import (
    BotProcesses,
    InProcessBot,
    bench_store,
    own_cpu_seconds,
    stored_counts,
)
from bot.config import Settings
from bot.discord.library import apply_discord_overrides
from bot.discord.run import run_loop, sync_commands
from bot.discord.stats import STATS_FILE_ENV
from bot.render.texts import t
from db import connect, dm_channels, is_postgres_url
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, User

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[2]
THINK_MS = 1500
BOTS = "leicht"  # the AI level of the three AI seats
STALL_S = 120.0  # a table that makes no progress for this long fails the benchmark
PLAY_PREFIXES = ("doko:card:", "doko:reserve:", "doko:takearmut:")
RESULT_FIELD = t("de", "spielwert")  # the final message of a game has this field


def _version(custom_id: str) -> int:
    return int(custom_id.split(":")[3])


@dataclass(eq=False)
class Player:
    """The human of one table, and what they have seen."""

    user: User
    channel: Channel
    rng: random.Random
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    dms: list[Message] = field(default_factory=list)
    clicked: int = -1  # the table version of the last click
    clicks: int = 0
    over: bool = False
    last_click: Interaction | None = None

    def state(self) -> str:
        """What the player saw last (for a stall's error message)."""
        hand = next((m for m in reversed(self.dms) if _is_hand(m)), None)
        ix = self.last_click
        return (
            f"clicked version {self.clicked}; last click: "
            f"{ix and [(c.type, c.status, c.error_code) for c in ix.callbacks]} "
            f"{ix and [m.content for m in ix.followups]}; hand: "
            f"{hand and [c for c in hand.iter_components() if not c.get('disabled')]}"
        )

    def next_click(self) -> tuple[Message, str] | None:
        """The button to click on the newest hand, if it is a newer state than the last click.

        Gesund in the Vorbehaltsabfrage, no to an Armut offered, else the first playable card.
        """
        hand = next((m for m in reversed(self.dms) if _is_hand(m)), None)
        if hand is None:
            return None
        ids = [
            c["custom_id"]
            for c in hand.iter_components()
            if c.get("custom_id", "").startswith(PLAY_PREFIXES) and not c.get("disabled")
        ]
        if not ids or _version(ids[0]) <= self.clicked:
            return None
        for cid in ids:
            if cid.startswith(("doko:reserve:", "doko:takearmut:")) and cid.endswith(":0"):
                return hand, cid
        return hand, next((c for c in ids if c.startswith("doko:card:")), ids[0])


def _kind(ix: Interaction) -> str:
    """``tisch`` (the slash command), ``start``, ``play`` (a card or a Vorbehalt answer)."""
    custom_id = str(ix.data.get("custom_id", ""))
    if not custom_id:
        return "tisch"
    return "start" if custom_id.startswith("doko:start:") else "play"


def _is_hand(message: Message) -> bool:
    return any(cid.startswith("doko:card:") for cid in message.custom_ids)


class _Unvalidated:
    """The fake's OpenAPI description, without validating request bodies: the tests check
    that the bot's requests conform; here the check would be Discord-side work on the
    benchmark's core that no real bot waits for.
    """

    def __init__(self, spec: Any) -> None:
        self._spec = spec

    def match(self, method: str, path: str) -> Any:
        return self._spec.match(method, path)

    def validate(self, *args: Any) -> list[Any]:
        return []


class Bench:
    def __init__(self, fake: FakeDiscord, think_ms: int, seed: int, bots: str = BOTS) -> None:
        self.fake = fake
        self.think_ms = think_ms
        self.seed = seed
        self.bots = bots
        self.acks: list[float] = []
        self._acked: set[int] = set()
        self.ack_kinds: list[str] = []
        self.lags: list[float] = []  # the benchmark loop's own delays (ms)
        self.by_user: dict[int, Player] = {}
        self.by_channel: dict[int, Player] = {}
        # Wall-clock times (comparable with the bot process's): interaction id -> when the
        # fake created it, when its acknowledgement arrived.
        self.acked_wall: dict[int, float] = {}
        # Table staleness: clicks whose table message has not been edited since.
        self.unseen: dict[int, list[float]] = {}  # table channel id -> fake times of clicks
        self.staleness: list[float] = []
        self._hook()

    def _hook(self) -> None:
        """Watch the fake: which messages players see change, when acknowledgements arrive."""
        fake = self.fake
        create, edit, rest = fake._create, fake._edit, fake._rest
        self._originals = (create, edit, rest, fake._spec)

        def created(channel: Channel, *args: Any, **kwargs: Any) -> Message:
            message = create(channel, *args, **kwargs)
            self._seen(message, new=True)
            return message

        def edited(message: Message, *args: Any, **kwargs: Any) -> None:
            edit(message, *args, **kwargs)
            self._seen(message, new=False)

        async def arrived(request: web.Request) -> web.StreamResponse:
            # Timed on arrival, before the fake parses and validates the body.
            parts = request.path.split("/")
            if request.method == "POST" and parts[-1] == "callback" and len(parts) >= 3:
                ix = fake.interactions.get(int(parts[-3]))
                if ix is not None and ix.id not in self._acked:
                    self._acked.add(ix.id)
                    self.acks.append((fake.now() - ix.created_at) * 1000)
                    self.ack_kinds.append(_kind(ix))
                    self.acked_wall[ix.id] = time.time()
            return await rest(request)

        fake._create = created  # type: ignore[method-assign]
        fake._edit = edited  # type: ignore[method-assign]
        fake._rest = arrived  # type: ignore[method-assign]
        fake._spec = _Unvalidated(fake._spec)  # type: ignore[assignment]

    def unhook(self) -> None:
        """Stop watching the fake (a longer run watches it with a new Bench per round)."""
        fake = self.fake
        fake._create, fake._edit, fake._rest, fake._spec = self._originals  # type: ignore[method-assign]

    def _seen(self, message: Message, *, new: bool) -> None:
        channel = message.channel
        if channel.recipient is not None:
            player = self.by_user.get(channel.recipient.id)
            if player is not None and new:
                player.dms.append(message)
        else:
            player = self.by_channel.get(channel.id)
            clicks = self.unseen.pop(channel.id, None)
            if clicks:  # the public table shows these clicks now (or a later state)
                now = self.fake.now()
                self.staleness += [now - at for at in clicks]
            if player is not None and any(
                f.get("name") == RESULT_FIELD for e in message.embeds for f in e.get("fields") or []
            ):
                player.over = True  # the table's one game is over
        if player is not None:
            player.wake.set()

    def add(self, user: User, channel: Channel, index: int) -> Player:
        player = Player(user, channel, random.Random(f"{self.seed}:{index}"))
        self.by_user[user.id] = player
        self.by_channel[channel.id] = player
        return player

    async def think(self, player: Player) -> None:
        if self.think_ms > 0:
            await asyncio.sleep(player.rng.uniform(2 / 3, 4 / 3) * self.think_ms / 1000)

    async def until(self, player: Player, check: Callable[[], Any], what: str) -> Any:
        """Until ``check()`` holds, woken by what the player sees; fails after a stall."""
        while not (result := check()):
            player.wake.clear()
            try:
                await asyncio.wait_for(player.wake.wait(), STALL_S)
            except TimeoutError:
                raise TimeoutError(
                    f"{player.user.name}: no {what} within {STALL_S} s; {player.state()}"
                ) from None
        return result

    async def play(self, player: Player) -> None:
        fake = self.fake
        await self.think(player)
        ix = await fake.slash(
            player.user,
            "doko tisch",
            in_channel=player.channel,
            spiele=1,
            regeln="ohne_pflichtsolo",
            bots=self.bots,  # the server's default would be mittel
        )
        lobby: Message = await self.until(
            player, lambda: ix.followups[0] if ix.followups else None, "lobby"
        )
        start = next(c for c in lobby.custom_ids if c.startswith("doko:start:"))
        await self.think(player)
        await fake.click(player.user, lobby, start)
        while not player.over:
            target = await self.until(
                player, lambda: player.over or player.next_click(), "hand to play"
            )
            if target is True:
                break
            await self.think(player)
            # The hand may have changed while thinking (it never does on one's own turn, but
            # a late edit of the same state may come): look again.
            target = player.next_click()
            if target is None:
                continue
            message, custom_id = target
            player.clicked = _version(custom_id)
            player.clicks += 1
            self.unseen.setdefault(player.channel.id, []).append(fake.now())
            player.last_click = await fake.click(player.user, message, custom_id)


async def _freeze_fake(every: float = 1.0) -> None:
    """Keep what the fake has stored so far (every request, message and interaction, kept to
    the end) out of this process's garbage collections: walking it again in each full
    collection stalled the fake for up to ~0.2 s at 200 tables, which the acknowledgements
    timed here then counted as the bot's.
    """
    while True:
        await asyncio.sleep(every)
        gc.freeze()


async def _loop_lag(lags: list[float], every: float = 0.01) -> None:
    """How late the benchmark's own loop wakes up: its share of the measured ack times."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(every)
        lags.append((loop.time() - before - every) * 1000)


async def _peak_rss(
    bot: BotProcesses | InProcessBot, peak: list[int], each: list[int], every: float = 0.5
) -> None:
    """The bots' largest resident memory so far: together in ``peak[0]``, each in ``each``."""
    while True:
        now = bot.rss_each()
        peak[0] = max(peak[0], sum(now))
        each[:] = [max(a, b) for a, b in zip(each, now, strict=True)]
        await asyncio.sleep(every)


async def returning(settings: Settings, channels: list[tuple[int, int]]) -> None:
    """The players have played here before: the store knows their DM channels (dm_channels;
    Discord allows few DM channel creations a second, a guess in the fake: 10 per 10 s).
    """
    store = await connect(settings.database_target)
    try:
        for user_id, channel_id in channels:
            await dm_channels.save_dm_channel(store, user_id, channel_id)
    finally:
        await store.close()


async def count_games(target: str | Path) -> int:
    return (await stored_counts(target))[1]


def tables_in_guilds(
    fake: FakeDiscord, tables: int, shards: int
) -> tuple[list[User], list[Channel], list[int]]:
    """One user and one channel per table, the tables dealt round the guilds, one guild per
    shard (an id that Discord's formula, (guild_id >> 22) % shards, sends to it: the fake's
    ids count up by one, so consecutive guilds would all land on one shard). Returns the
    users, the channels and how many tables each shard has.
    """
    users = [fake.add_user(f"spieler{i}") for i in range(tables)]
    guilds = [
        fake.guild_on_shard("Benchmark" if shards == 1 else f"Benchmark {s}", s, owner=users[s])
        for s in range(min(shards, tables))
    ]
    channels: list[Channel] = []
    for i, user in enumerate(users):
        guild = guilds[i % len(guilds)]
        fake.add_member(guild, user)
        channels.append(
            guild.channels[0] if i < len(guilds) else fake.add_channel(guild, f"tisch{i}")
        )
    return users, channels, [len(range(s, tables, shards)) for s in range(shards)]


async def run(
    tables: int,
    *,
    think_ms: int = THINK_MS,
    seed: int = 1,
    in_process: bool = False,
    source: Path = REPO,
    rate_limits: bool = True,
    fresh_players: bool = False,
    bots: str = BOTS,
    database_url: str | None = None,
    processes: int = 1,
) -> dict[str, Any]:
    if processes > 1 and (database_url is None or in_process):
        raise ValueError("several bot processes share a PostgreSQL store, each its own process")
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        # The store outlives the bots: a schema is dropped once they are stopped below.
        target = await stack.enter_async_context(bench_store(Path(tmp), database_url))
        fake = FakeDiscord(rate_limits=rate_limits, shard_count=processes)
        bench = Bench(fake, think_ms, seed, bots)
        bot: BotProcesses | InProcessBot | None = None
        try:
            await fake.start()
            users, channels, shard_tables = tables_in_guilds(fake, tables, processes)
            players = [
                bench.add(u, c, i) for i, (u, c) in enumerate(zip(users, channels, strict=True))
            ]
            db_path = Path(tmp) / "bench.sqlite3"
            settings = Settings(
                fake.token,
                db_path,
                dev_guild_id=None,
                log_level="WARNING",
                database_url=None if isinstance(target, Path) else target,
            )
            apply_discord_overrides(fake.env())
            if source == REPO:
                await sync_commands(settings, None)
                if not fresh_players:
                    await returning(settings, [(u.id, fake.dm_channel(u).id) for u in users])
            else:
                # Another checkout makes its own store (its migrations may be older): the
                # commands are synced through a throwaway one, and its players are fresh.
                other = replace(
                    settings, database_path=Path(tmp) / "sync.sqlite3", database_url=None
                )
                await sync_commands(other, None)
                fresh_players = True
            if in_process:
                os.environ[STATS_FILE_ENV] = str(Path(tmp) / "bot-stats.json")
                bot = InProcessBot(fake, settings, Path(tmp) / "bot-stats.json")
            else:
                bot = BotProcesses(fake, target, source, Path(tmp), processes)
            await bot.start()
            requests_before = len(fake.requests)
            interactions_before = len(fake.interactions)
            limited_before = fake.ratelimits.total_limited()
            by_route_before = dict(fake.ratelimits.limited)
            global_limited_before = fake.ratelimits.global_limited
            wall_offset = time.time() - fake.now()
            rss_start = bot.rss_each()
            cpu_start, cpu_own = bot.cpu_each(), own_cpu_seconds()
            started = time.perf_counter()
            lag = asyncio.create_task(_loop_lag(bench.lags))
            peak, peak_each = [sum(rss_start)], list(rss_start)
            sampler = asyncio.create_task(_peak_rss(bot, peak, peak_each))
            # Not with the bot in this process: that would freeze the bot's objects too.
            freezer = asyncio.create_task(_freeze_fake() if not in_process else asyncio.sleep(0))
            try:
                await asyncio.gather(*(bench.play(p) for p in players))
            except Exception as error:
                raise RuntimeError(f"{error}\nbot log:\n{bot.log()}") from error
            finally:
                lag.cancel()
                sampler.cancel()
                freezer.cancel()
                if not in_process:
                    gc.unfreeze()  # run() may be called in a longer-lived process (a test)
            # The last table messages are edited at most once a second: let them through.
            await asyncio.sleep(1.5)
            elapsed = time.perf_counter() - started
            cpu_each = [b - a for a, b in zip(cpu_start, bot.cpu_each(), strict=True)]
            cpu_bot, cpu_own = sum(cpu_each), own_cpu_seconds() - cpu_own
            new = list(fake.interactions.values())[interactions_before:]
            requests = fake.requests[requests_before:]
            dms = {c.id: c for c in fake.channels.values() if c.recipient is not None}
            rest = len(requests)
            limits = fake.ratelimits
            limited = limits.total_limited() - limited_before
            global_limited = limits.global_limited - global_limited_before
            limited_by_route = {
                r: n - by_route_before.get(r, 0)
                for r, n in limits.limited.items()
                if n > by_route_before.get(r, 0)
            }
            invalid = limits.invalid_requests()
            rss_kb = bot.rss_kb() - sum(rss_start)
            await bot.stop()
            actions, games = await stored_counts(target)
            bot_figures = bot.figures()
            by_process = process_figures(
                bot.figures_each(),
                cpu_each,
                [b - a for a, b in zip(rss_start, peak_each, strict=True)],
                shard_tables,
                elapsed,
            )
        finally:
            if bot is not None:
                await bot.stop()
            await fake.stop()
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    failed = sum(1 for ix in new if _failed(ix))
    clicks = sum(p.clicks for p in players)
    return {
        "discord_mode": _mode(think_ms, in_process, database_url is not None, processes),
        "discord_store": "sqlite" if database_url is None else "postgresql",
        "discord_processes": processes,
        "discord_tables": tables,
        "discord_think_ms": think_ms,
        "discord_ack_ms_p50": round(percentile(bench.acks, 0.5), 2),
        "discord_ack_ms_p99": round(percentile(bench.acks, 0.99), 2),
        "discord_ack_ms_max": round(max(bench.acks, default=0.0), 2),
        **{
            f"discord_ack_ms_p99_{kind}": round(
                percentile(
                    [a for a, k in zip(bench.acks, bench.ack_kinds, strict=True) if k == kind], 0.99
                ),
                2,
            )
            for kind in ("tisch", "start", "play")
        },
        "discord_bench_loop_lag_ms_p99": round(percentile(bench.lags, 0.99), 2),
        "discord_rest_calls_per_action": round(rest / max(1, actions), 2),
        "discord_rest_calls_per_click": round(rest / max(1, clicks), 2),
        "discord_rest_calls_per_action_by_route": {
            route: round(n / max(1, actions), 3)
            for route, n in Counter(route(r, dms) for r in requests).most_common()
        },
        # Pictures (PICTURES=on, the default): files uploaded and their bytes.
        "discord_uploads_per_action": round(
            sum(len(r.files) for r in requests) / max(1, actions), 2
        ),
        "discord_image_bytes_per_action": round(uploaded_bytes(requests) / max(1, actions)),
        "discord_pictures": os.environ.get("PICTURES", "on"),
        "discord_actions": actions,
        "discord_interactions": len(new),
        "discord_interactions_failed": failed,
        **budget_figures(requests, dms, elapsed, games),
        "discord_rate_limits": "on" if rate_limits else "off (counted only)",
        "discord_players": "fresh (no DM channel known)" if fresh_players else "returning",
        "discord_429s": limited,
        "discord_429s_global": global_limited,
        "discord_429s_by_route": limited_by_route,
        "discord_invalid_requests": invalid,
        "discord_table_staleness_s_p50": round(percentile(bench.staleness, 0.5), 2),
        "discord_table_staleness_s_p99": round(percentile(bench.staleness, 0.99), 2),
        "discord_table_staleness_s_max": round(max(bench.staleness, default=0.0), 2),
        **tail_figures(bench, new, wall_offset, bot_figures),
        "discord_games": games,
        "discord_bot_rss_kb_per_table": round(rss_kb / max(1, tables), 1),
        # The peak while the tables played, sampled each 0.5 s (the figure above is taken once
        # they are over; the process's own maxrss carries the benchmark's from the fork).
        "discord_bot_peak_rss_kb_per_table": round((peak[0] - sum(rss_start)) / max(1, tables), 1),
        "discord_bots": bots,
        "discord_bot_cpu_ms_per_action": round(cpu_bot * 1000 / max(1, actions), 2),
        "discord_bot_cpu_share": round(cpu_bot / elapsed, 2),
        **({} if in_process else by_process),
        "discord_bench_cpu_share": round(cpu_own / elapsed, 2),
        "discord_seconds": round(elapsed, 1),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


def _failed(ix: Interaction) -> bool:
    """Not acknowledged, or the acknowledgement was refused (e.g. after the 3 s)."""
    return not ix.callbacks or ix.callbacks[0].status >= 400


def _mode(think_ms: int, in_process: bool, postgres: bool, processes: int) -> str:
    where = "bot in the benchmark's process" if in_process else "bot in its own process"
    if processes > 1:
        where = f"{processes} bot processes (one shard each) sharing one token"
    where += "; PostgreSQL" if postgres else "; SQLite"
    if think_ms <= 0:
        return f"flat-out (humans click at once); {where}"
    return f"realistic (humans think {think_ms} ms ± 1/3 per action); {where}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot bench discord",
        description="The bot against the loopback Discord; defaults are the headline setup.",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument(
        "--think-ms",
        type=int,
        default=THINK_MS,
        help="a human's mean time before each action, drawn within ± a third; 0: flat out",
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the think times")
    parser.add_argument(
        "--bots",
        default=BOTS,
        choices=("leicht", "mittel", "schwer"),
        help="the AI level of the three AI seats of each table",
    )
    parser.add_argument(
        "--in-process", action="store_true", help="run the bot in the benchmark's event loop"
    )
    parser.add_argument(
        "--bot-source",
        type=Path,
        default=REPO,
        help="run the bot process from this checkout (to compare two versions)",
    )
    parser.add_argument(
        "--no-rate-limits",
        action="store_true",
        help="the fake counts requests but sends no 429 (the benchmark's earlier form)",
    )
    parser.add_argument(
        "--fresh-players",
        action="store_true",
        help="players the bot never wrote to (their DM channels are created first)",
    )
    parser.add_argument(
        "--database-url",
        help="the bot stores in PostgreSQL (postgresql://…), in a new schema there, dropped "
        "afterwards; without it a new SQLite file",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, on one token (so one global budget); more "
        "than one needs --database-url",
    )
    parser.add_argument(
        "--find-max-tables",
        type=int,
        metavar="UP_TO",
        help="the most tables (up to UP_TO, in a few runs) that get no 429; prints each run",
    )
    args = parser.parse_args(argv)
    if args.database_url is not None and not is_postgres_url(args.database_url):
        parser.error("--database-url must start with postgresql://")
    if args.processes < 1 or (args.processes > 1 and args.database_url is None):
        parser.error("--processes: 1, or more with --database-url (they share one database)")
    if args.processes > 1 and args.in_process:
        parser.error("--processes and --in-process exclude each other")
    logging.basicConfig(level=logging.WARNING)

    def one(tables: int) -> dict[str, Any]:
        return run_loop(
            run(
                tables,
                think_ms=args.think_ms,
                seed=args.seed,
                in_process=args.in_process,
                source=args.bot_source.resolve(),
                rate_limits=not args.no_rate_limits,
                fresh_players=args.fresh_players,
                bots=args.bots,
                database_url=args.database_url,
                processes=args.processes,
            )
        )

    if args.find_max_tables:
        result = find_max_tables(one, args.tables, args.find_max_tables)
    else:
        result = one(args.tables)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        for key, value in result.items():
            sys.stdout.write(f"{key:<34} {value}\n")
    return 0
