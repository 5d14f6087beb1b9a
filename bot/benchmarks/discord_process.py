"""The bot under ``bench discord`` and ``bench soak``: its own OS process (``python -m bot``
against the fake), several of them sharded on one token, or the benchmark's event loop; CPU
and memory of a process; the store they play on (a SQLite file or a fresh PostgreSQL schema).
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.benchmarks.discord_figures import merge_figures
from bot.config import Settings
from bot.discord.bot import DokoBot
from bot.discord.stats import STATS_FILE_ENV
from db import is_postgres_url, open_database
from db.bench import count_game_actions, count_games
from db.postgres import scratch_schema
from tests.fakediscord import FakeDiscord


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """Resident memory of a process (Linux /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def read_figures(path: Path) -> dict[str, Any]:
    """What a bot measured of itself (stats.py), once it stopped; {} from an older bot."""
    try:
        figures: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return figures


class BotProcess:
    """``python -m bot`` against the fake; its log goes to a file. ``target``: the SQLite file
    or the PostgreSQL URL; ``shard``: (this process's shard, the shard count), if sharded.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        target: str | Path,
        source: Path,
        log_path: Path,
        shard: tuple[int, int] | None = None,
    ) -> None:
        self.fake, self.target, self.source, self.log_path = fake, target, source, log_path
        self.shard = shard
        self.process: asyncio.subprocess.Process | None = None
        self.stats_path = log_path.with_name(f"{log_path.stem}-stats.json")

    async def start(self) -> None:
        env = {
            **os.environ,
            **self.fake.env(),
            "DISCORD_TOKEN": self.fake.token,
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(self.source),
            STATS_FILE_ENV: str(self.stats_path),  # an older bot ignores it
        }
        # Only what this run sets: a developer's own database or shards must not leak in.
        for name in ("DATABASE_URL", "DATABASE_PATH", "SHARD_COUNT", "SHARD_IDS"):
            env.pop(name, None)
        if is_postgres_url(self.target):
            env["DATABASE_URL"] = str(self.target)
        else:
            env["DATABASE_PATH"] = str(self.target)
        if self.shard is not None:
            env["SHARD_IDS"], env["SHARD_COUNT"] = map(str, self.shard)
        before = self.fake.identifies
        with self.log_path.open("wb") as log_file:
            self.process = process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.log_path.parent,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log_file,
                stderr=log_file,
            )

        def connected() -> bool:
            if process.returncode is not None:
                raise RuntimeError(f"the bot exited with {process.returncode}:\n{self.log()}")
            return self.fake.identifies > before

        await self.fake.wait_for(connected, 60, "the bot process to connect")
        # discord.py waits up to 2 s for guilds before it calls itself ready.
        await asyncio.sleep(2.5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:]

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid) if self.process else 0.0

    def rss_kb(self) -> int:
        return rss_kb(self.process.pid) if self.process else 0

    def figures(self) -> dict[str, Any]:
        """What the bot measured of itself (stats.py), once it stopped; {} from an older bot."""
        return read_figures(self.stats_path)

    async def stop(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 30)
        except TimeoutError:
            process.kill()
            await process.wait()


class BotProcesses:
    """One or more bot processes on one token: one, unsharded; several, one shard each
    (``SHARD_COUNT``/``SHARD_IDS``, as in production), which needs a PostgreSQL ``target``.
    CPU and memory are their sums; ``…_each`` gives them per process, in shard order.
    """

    def __init__(
        self, fake: FakeDiscord, target: str | Path, source: Path, folder: Path, count: int = 1
    ) -> None:
        if count == 1:
            self.bots = [BotProcess(fake, target, source, folder / "bot.log")]
        else:
            self.bots = [
                BotProcess(fake, target, source, folder / f"bot{i}.log", (i, count))
                for i in range(count)
            ]

    async def start(self) -> None:
        for bot in self.bots:  # one after the other: each waits for its own IDENTIFY
            await bot.start()

    def log(self) -> str:
        if len(self.bots) == 1:
            return self.bots[0].log()
        return "\n".join(f"--- shard {i}:\n{bot.log()}" for i, bot in enumerate(self.bots))

    def cpu(self) -> float:
        return sum(self.cpu_each())

    def rss_kb(self) -> int:
        return sum(self.rss_each())

    def cpu_each(self) -> list[float]:
        return [bot.cpu() for bot in self.bots]

    def rss_each(self) -> list[int]:
        return [bot.rss_kb() for bot in self.bots]

    def figures_each(self) -> list[dict[str, Any]]:
        return [bot.figures() for bot in self.bots]

    def figures(self) -> dict[str, Any]:
        """What the processes measured of themselves, together (merge_figures)."""
        return merge_figures(self.figures_each())

    async def stop(self) -> None:
        await asyncio.gather(*(bot.stop() for bot in self.bots))


@asynccontextmanager
async def bench_store(folder: Path, database_url: str | None) -> AsyncIterator[str | Path]:
    """Where the bot stores: a new SQLite file in ``folder``, or a new, empty schema of the
    PostgreSQL database at ``database_url`` (dropped afterwards, as the tests' are).
    """
    if database_url is None:
        yield folder / "bench.sqlite3"
        return
    async with scratch_schema(database_url, "doko_bench") as url:
        yield url


async def stored_counts(target: str | Path) -> tuple[int, int]:
    """(game actions, games) in the store; opened as it is, not migrated (``--bot-source``
    may have made it with older migrations).
    """
    store = await open_database(target)
    try:
        return await count_game_actions(store), await count_games(store)
    finally:
        await store.close()


class InProcessBot:
    """The bot in the benchmark's own event loop (the benchmark's first form)."""

    def __init__(self, fake: FakeDiscord, settings: Settings, stats_path: Path) -> None:
        self.fake, self.settings, self.stats_path = fake, settings, stats_path
        self.bot: DokoBot | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.bot = bot = DokoBot(self.settings, guild_ready_timeout=0.05)
        os.environ.pop(STATS_FILE_ENV, None)  # read by the bot as it was made
        self.task = asyncio.create_task(bot.start(self.fake.token))
        self.fake.watch(self.task)
        await self.fake.wait_for(bot.is_ready, 30, "the bot")

    def log(self) -> str:
        return ""

    def cpu(self) -> float:
        return 0.0  # shared with the fake: see the benchmark process's figure

    def rss_kb(self) -> int:
        return 0

    def cpu_each(self) -> list[float]:
        return [0.0]

    def rss_each(self) -> list[int]:
        return [0]

    def figures_each(self) -> list[dict[str, Any]]:
        return [self.figures()]

    def figures(self) -> dict[str, Any]:
        return read_figures(self.stats_path)

    async def stop(self) -> None:
        if self.bot is not None and self.task is not None:
            await self.bot.close()
            await self.task
