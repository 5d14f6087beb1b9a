"""The bot under ``bench discord`` and ``bench soak``: its own OS process (``python -m bot``
against the fake), or the benchmark's event loop; CPU and memory of a process.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import sys
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.discord.bot import DokoBot
from bot.discord.stats import STATS_FILE_ENV
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
    """``python -m bot`` against the fake; its log goes to a file."""

    def __init__(self, fake: FakeDiscord, db_path: Path, source: Path, log_path: Path) -> None:
        self.fake, self.db_path, self.source, self.log_path = fake, db_path, source, log_path
        self.process: asyncio.subprocess.Process | None = None
        self.stats_path = log_path.with_name("bot-stats.json")

    async def start(self) -> None:
        env = {
            **os.environ,
            **self.fake.env(),
            "DISCORD_TOKEN": self.fake.token,
            "DATABASE_PATH": str(self.db_path),
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(self.source),
            STATS_FILE_ENV: str(self.stats_path),  # an older bot ignores it
        }
        env.pop("DATABASE_URL", None)
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
            return self.fake.identifies > 0

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

    def figures(self) -> dict[str, Any]:
        return read_figures(self.stats_path)

    async def stop(self) -> None:
        if self.bot is not None and self.task is not None:
            await self.bot.close()
            await self.task
