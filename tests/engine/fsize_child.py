"""Child process for the file-size test: plays a session while the kernel refuses, every
other move, to let any file of this process grow (``RLIMIT_FSIZE``, no root needed).

Usage: python fsize_child.py DB_FILE. Prints one JSON line: clicks refused and taken,
writes the kernel refused, and the games finished.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import signal
import sys
from pathlib import Path

import db
from bot.engine import Engine, EngineError
from bot.rules.game import Announce
from db import games, sessions
from tests.engine.conftest import RandomAI

HOST = 7


def full(path: Path, on: bool) -> None:
    """``on``: no file may grow past the store's files as they are now (the disk is full)."""
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    if not on:
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        return
    sizes = [os.path.getsize(p) for p in (path, Path(f"{path}-wal")) if p.exists()]
    resource.setrlimit(resource.RLIMIT_FSIZE, (max(sizes), hard))


async def main(path: Path) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
    store = await db.connect(path)
    engine = Engine(store, ai=RandomAI(), seeds=lambda: 7, ai_in_thread=False)
    await engine.start()
    info = await engine.create_table(
        guild_id=1, channel_id=1, host_id=HOST, host_name="Seven", games=2
    )
    await engine.start_game(info.id, HOST)
    session = await sessions.get_active_session(store, info.id)
    assert session is not None
    refused = taken = step = 0
    while engine.find_table(1, 1) is not None:
        await engine.idle()
        if engine.find_table(1, 1) is None:
            break
        info = engine.table(info.id)
        view = engine.view_for(info.id, HOST)
        options = [a for a in view.legal if not isinstance(a, Announce)]
        move = random.Random(info.version).choice(options)
        step += 1
        full(path, step % 2 == 1)
        try:
            await engine.act(info.id, HOST, move, info.version)
            taken += 1
        except EngineError as error:
            assert error.reason == "store_failed", error
            assert engine.version(info.id) == info.version
            refused += 1
        # Space comes back a moment later: meanwhile the AIs meet the full disk, and retry.
        asyncio.get_running_loop().call_later(0.2, full, path, False)
        await engine.idle()
    finished = [g for g in await games.list_games(store, session.id) if g.status == "finished"]
    await engine.close()
    check = await store.integrity_check()
    await store.close()
    print(json.dumps({"refused": refused, "taken": taken, "games": len(finished), "check": check}))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
