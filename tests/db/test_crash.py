"""Crash safety: SIGKILL a process while it writes; every reported commit must be there."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import db

from .crash_child import ACTIONS_PER_GAME

REPO = Path(__file__).resolve().parents[2]


def run_child_until_killed(path: Path, lines_before_kill: int) -> list[str]:
    """Start the child, read its commit reports, SIGKILL it after ``lines_before_kill``."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.db.crash_child", str(path)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    reported: list[str] = []
    try:
        while len(reported) < lines_before_kill:
            line = child.stdout.readline()
            if not line:
                _, err = child.communicate(timeout=10)
                pytest.fail(f"the child stopped on its own: {err}")
            reported.append(line.strip())
        # Killed while it keeps writing: mid-statement, mid-commit or between the two.
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        child.wait(timeout=10)
        child.stdout.close()
        assert child.stderr is not None
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL
    return reported


@pytest.mark.sqlite_only  # durability of a file; PostgreSQL's is the server's own business
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
async def test_sigkill_loses_no_committed_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    committed: dict[int, int] = {}  # game -> highest seq reported
    finished: set[int] = set()
    # A game reports 13 lines (12 actions, then "finished"): killing right after line
    # 13k + 12 lands while finish_game writes, after 13k + 5 while actions are appended.
    for lines in (38, 96, 155):
        for line in run_child_until_killed(path, lines):
            kind, game, *rest = line.split()
            if kind == "action":
                committed[int(game)] = max(committed.get(int(game), -1), int(rest[0]))
            else:
                finished.add(int(game))

    assert os.path.exists(path)
    store = await db.connect(path)
    try:
        assert await store.integrity_check() == ["ok"]
        games = await store.fetchall("SELECT id, status, record FROM games ORDER BY id")
        for game in games:
            actions = await db.actions.load_actions(store, game["id"])
            seqs = [
                r["seq"]
                for r in await store.fetchall(
                    "SELECT seq FROM game_actions WHERE game_id = ? ORDER BY seq", (game["id"],)
                )
            ]
            assert seqs == list(range(len(seqs))), f"gap in game {game['id']}"
            assert len(actions) >= committed.get(game["id"], -1) + 1
            results = await db.results.get_results(store, game["id"])
            # No torn game: finished means all four results and the record, else none.
            if game["status"] == "finished":
                assert len(results) == 4 and game["record"] is not None
                assert len(actions) == ACTIONS_PER_GAME
            else:
                assert game["status"] == "running" and results == [] and game["record"] is None
        by_id = {g["id"]: g["status"] for g in games}
        assert all(by_id[g] == "finished" for g in finished)
        assert set(committed) <= set(by_id)
        # The kept standings sums agree with the results that made it to disk.
        kept = await db.standings.guild_standings(store, 1)
        await db.standings.rebuild_standings(store)
        assert await db.standings.guild_standings(store, 1) == kept
        assert sum(r.games for r in kept) == 4 * sum(s == "finished" for s in by_id.values())
        ratings = [await db.ratings.get_rating(store, 1, p) for p in (101, 102, 103, 104)]
        assert all(r.games == kept[0].games for r in ratings)
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
