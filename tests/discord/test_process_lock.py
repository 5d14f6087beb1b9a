"""Two bot processes on one SQLite file: the second refuses to start and names the first;
a first one killed with kill -9 leaves no stale lock behind.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

from bot.discord.library import apply_discord_overrides
from bot.discord.run import sync_commands
from tests.discord.conftest import settings_for
from tests.discord.test_process import REPO, start_process
from tests.fakediscord import FakeDiscord


async def test_a_second_process_on_the_same_file_refuses_to_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "doko.sqlite3"
    apply_discord_overrides(fake.env())
    await sync_commands(settings_for(fake, db_path), None)
    first = await start_process(fake, db_path)
    third = None
    try:
        env = {
            **os.environ,
            **fake.env(),
            "DISCORD_TOKEN": fake.token,
            "DATABASE_PATH": str(db_path),
            "LOG_LEVEL": "INFO",
        }
        second = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=REPO, env=env, stderr=asyncio.subprocess.PIPE
        )
        _, stderr = await asyncio.wait_for(second.communicate(), 30)
        text = stderr.decode()
        assert second.returncode == 1, text[-3000:]
        assert f"in use by another bot process (pid {first.pid} on {socket.gethostname()}" in text
        assert "since 20" in text and "Traceback" not in text
        assert first.returncode is None  # the first one runs on, untouched

        first.kill()  # kill -9: no chance to clean up
        await first.wait()
        third = await start_process(fake, db_path)  # the kernel dropped the lock with it
    finally:
        for process in (first, third):
            if process is not None and process.returncode is None:
                process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.communicate(), 20)
    assert third.returncode == 0
