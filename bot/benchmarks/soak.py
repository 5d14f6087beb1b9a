"""``bench soak``: one bot process plays game after game for minutes; does its memory grow?

The bot runs as its own OS process against the loopback Discord (Discord's rate limits on),
as in ``bench discord``: ``--tables`` tables at once, each with one simulated human and
three AIs (leicht), one game per table, the human clicking without thinking
(``--think-ms``, default 0). When a table's game is over its human opens the next table in
the same channel, until ``--minutes`` have passed. The bot's resident memory (RSS, from
/proc) is sampled after each round of tables; printed: games played, RSS at the start,
once warm (after the first round: caches, pictures and the AIs' tables are filled by then)
and at the end, and the growth per 1,000 games after warm-up (the slope of a least-squares
line through the samples, so one late collection does not decide it).
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

from bot.benchmarks.discord import Bench, count_games, returning
from bot.benchmarks.discord_process import BotProcess
from bot.config import Settings
from bot.discord.library import apply_discord_overrides
from bot.discord.run import run_loop, sync_commands
from tests.fakediscord import FakeDiscord

REPO = Path(__file__).resolve().parents[2]


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of ``y`` over ``x`` (0 for fewer than two points)."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if var == 0 else sum((x - mx) * (y - my) for x, y in points) / var


async def soak(
    minutes: float, tables: int = 50, think_ms: int = 0, seed: int = 1
) -> dict[str, Any]:
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(rate_limits=True)
        await fake.start()
        bot: BotProcess | None = None
        try:
            users = [fake.add_user(f"spieler{i}") for i in range(tables)]
            guild = fake.add_guild("Soak", owner=users[0])
            channels = [guild.channels[0]] + [
                fake.add_channel(guild, f"tisch{i}") for i in range(1, tables)
            ]
            for user in users[1:]:
                fake.add_member(guild, user)
            db_path = Path(tmp) / "soak.sqlite3"
            settings = Settings(fake.token, db_path, dev_guild_id=None, log_level="WARNING")
            apply_discord_overrides(fake.env())
            await sync_commands(settings, None)
            await returning(settings, [(u.id, fake.dm_channel(u).id) for u in users])
            bot = BotProcess(fake, db_path, REPO, Path(tmp) / "bot.log")
            await bot.start()
            samples: list[tuple[int, int]] = [(0, bot.rss_kb())]  # (games, RSS KB)
            started = time.perf_counter()
            deadline = started + minutes * 60
            rounds = 0
            while time.perf_counter() < deadline or rounds == 0:
                bench = Bench(fake, think_ms, seed + rounds)
                players = [
                    bench.add(u, c, i) for i, (u, c) in enumerate(zip(users, channels, strict=True))
                ]
                try:
                    await asyncio.gather(*(bench.play(p) for p in players))
                except Exception as error:
                    raise RuntimeError(f"{error}\nbot log:\n{bot.log()}") from error
                bench.unhook()
                rounds += 1
                await asyncio.sleep(1.0)  # the tables close, their last messages go out
                samples.append((await count_games(db_path), bot.rss_kb()))
                fake.requests.clear()  # the fake's record: this process grew, not the bot
            elapsed = time.perf_counter() - started
        finally:
            if bot is not None:
                await bot.stop()
            await fake.stop()
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    games, rss_end = samples[-1]
    warm = samples[1:]  # from the end of the first round
    growth = slope([(g, r) for g, r in warm]) * 1000
    return {
        "soak_minutes": round(elapsed / 60, 1),
        "soak_tables_at_once": tables,
        "soak_rounds": rounds,
        "soak_games": games,
        "soak_games_per_minute": round(games / max(elapsed / 60, 1e-9)),
        "soak_rss_kb_start": samples[0][1],
        "soak_rss_kb_warm": warm[0][1],
        "soak_rss_kb_end": rss_end,
        "soak_rss_kb_growth_per_1000_games": round(growth),
        "soak_samples": samples,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot bench soak",
        description="The bot process plays games for minutes; its memory per 1,000 games.",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--tables", type=int, default=50, help="tables playing at once")
    parser.add_argument("--think-ms", type=int, default=0, help="a human's mean think time")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    result = run_loop(soak(args.minutes, args.tables, args.think_ms))
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        for key, value in result.items():
            sys.stdout.write(f"{key:<36} {value}\n")
    return 0
