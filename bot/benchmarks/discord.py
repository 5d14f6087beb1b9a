"""``bench discord``: the real bot against the loopback Discord, many tables playing at once.

Each table has one human (driven by the benchmark through the fake, as a player clicks) and
three AIs (leicht), playing one game. Measured: the time from an interaction being sent to
the bot's acknowledgement arriving (``discord_ack_ms_p50``/``p99``; Discord allows 3 s), and
REST calls per game action, AI actions included (``discord_rest_calls_per_action``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http

from bot.app import DokoBot, apply_discord_overrides, sync_commands
from bot.config import Settings
from bot.engine import EngineError
from tests.fakediscord import FakeDiscord, Message, User
from tests.fakediscord.server import _Req

log = logging.getLogger(__name__)
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class Bench:
    def __init__(self, fake: FakeDiscord, bot: DokoBot) -> None:
        self.fake = fake
        self.bot = bot
        self.acks: list[float] = []
        self.by_id: dict[int, Message] = {}
        self.clicks = 0
        create = fake._create

        def indexed(*args: Any, **kwargs: Any) -> Message:
            message = create(*args, **kwargs)
            self.by_id[message.id] = message
            return message

        fake._create = indexed  # type: ignore[method-assign]
        callback = fake._handlers[CALLBACK_ROUTE]

        async def timed(req: _Req) -> Any:
            ix = fake.interactions.get(int(req.params["interaction_id"]))
            if ix is not None and not ix.callbacks:
                self.acks.append((fake.now() - ix.created_at) * 1000)
            return await callback(req)

        fake._handlers[CALLBACK_ROUTE] = timed

    def hand(self, table_id: int, user: User) -> Message | None:
        cog: Any = self.bot.get_cog("Doko")
        state = cog.presenter.tables.get(table_id)
        hand = state.hands.get(user.id) if state else None
        return self.by_id.get(hand.message_id) if hand else None

    async def applied(self, table_id: int, version: int, click: Any) -> None:
        """Until the click changed the table, or was refused (an AI's call made it stale)."""
        engine = self.bot.engine
        assert engine is not None
        await self.fake.wait_for(
            lambda: engine.table(table_id).version > version or click.followups, 30, "the click"
        )

    async def play_table(self, user: User, channel: Any) -> int:
        fake, engine = self.fake, self.bot.engine
        assert engine is not None
        ix = await fake.slash(
            user, "doko tisch", in_channel=channel, spiele=1, regeln="ohne_pflichtsolo"
        )
        lobby = await fake.followup(ix, timeout=30)
        start = next(c for c in lobby.custom_ids if c.startswith("doko:start:"))
        await fake.response(await fake.click(user, lobby, start), timeout=30)
        info = engine.find_table(channel.guild.id, channel.id)
        assert info is not None
        table_id = info.id
        actions = 0
        while True:
            try:
                info = engine.table(table_id)
            except EngineError:
                break
            if info.status == "closed" or info.spielliste:
                break
            message = self.hand(table_id, user)
            pv = info.public
            prefix = f"doko:card:{table_id}:{info.version}:"
            reserve = f"doko:reserve:{table_id}:{info.version}:0"
            target = None
            if message is not None and pv is not None and pv.to_act == info.seat_of(user.id):
                ids = {
                    c["custom_id"]
                    for c in message.iter_components()
                    if not c.get("disabled") and "custom_id" in c
                }
                target = (
                    reserve
                    if reserve in ids
                    else next((c for c in sorted(ids) if c.startswith(prefix)), None)
                )
            if target is None:
                await asyncio.sleep(0.01)
                continue
            assert message is not None
            self.clicks += 1
            click = await fake.click(user, message, target)
            await fake.response(click, timeout=30)
            await self.applied(table_id, info.version, click)
        record = engine.record(table_id)
        actions += len(record["actions"])
        return actions


async def run(tables: int) -> dict[str, Any]:
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            users = [fake.add_user(f"spieler{i}") for i in range(tables)]
            guild = fake.add_guild("Benchmark", owner=users[0])
            channels = [guild.channels[0]] + [
                fake.add_channel(guild, f"tisch{i}") for i in range(1, tables)
            ]
            for user in users[1:]:
                fake.add_member(guild, user)
            settings = Settings(
                fake.token, Path(tmp) / "bench.sqlite3", frozenset(), None, "WARNING"
            )
            apply_discord_overrides(fake.env())
            try:
                await sync_commands(settings, None)
                bot = DokoBot(settings, guild_ready_timeout=0.05)
                task = asyncio.create_task(bot.start(fake.token))
                fake.watch(task)
                await fake.wait_for(bot.is_ready, 30, "the bot")
                bench = Bench(fake, bot)
                requests_before = len(fake.requests)
                started = time.perf_counter()
                actions = await asyncio.gather(
                    *(bench.play_table(u, c) for u, c in zip(users, channels, strict=True))
                )
                cog: Any = bot.get_cog("Doko")
                await cog.presenter.idle()
                elapsed = time.perf_counter() - started
                rest = len(fake.requests) - requests_before
                await bot.close()
                await task
            finally:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    return {
        "discord_tables": tables,
        "discord_ack_ms_p50": round(percentile(bench.acks, 0.5), 2),
        "discord_ack_ms_p99": round(percentile(bench.acks, 0.99), 2),
        "discord_rest_calls_per_action": round(rest / max(1, sum(actions)), 2),
        "discord_rest_calls_per_click": round(rest / max(1, bench.clicks), 2),
        "discord_interactions": len(bench.acks),
        "discord_seconds": round(elapsed, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot bench discord")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    result = asyncio.run(run(args.tables))
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        for key, value in result.items():
            sys.stdout.write(f"{key:<34} {value}\n")
    return 0
