"""A kill -9 in the middle of a game loses nothing that was acknowledged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import db
from bot.engine import Engine
from tests.engine.conftest import RandomAI, seed_counter

ROOT = Path(__file__).resolve().parents[2]


async def test_kill_mid_game_then_restart(tmp_path: Path) -> None:
    path = tmp_path / "kill.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "engine" / "kill_child.py"), str(path)],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert child.stdout is not None
    acks: list[tuple[int, int, int]] = []
    for line in child.stdout:
        _, table, game, seq = line.split()
        acks.append((int(table), int(game), int(seq)))
        if len(acks) >= 40:  # a few games in, somewhere inside a trick
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert len(acks) >= 40

    store = await db.connect(path)
    assert await store.integrity_check() == ["ok"]
    engine = Engine(store, ai=RandomAI(), seeds=seed_counter(500), ai_in_thread=False)
    await engine.start()
    table_id, game_id, seq = acks[-1]
    stored = await db.actions.load_actions(store, game_id)
    # every acknowledged action is there (the AI may have stored more after it)
    assert len(stored) >= seq
    info = engine.table(table_id)
    assert info.status == "playing"
    if info.game_id == game_id:
        assert engine.record(table_id)["actions"] == stored
    # and the game goes on from there
    await engine.idle()
    view = engine.view_for(table_id, 7)
    assert view.to_act == view.seat or view.phase == "finished"
    await engine.close()
    await store.close()
