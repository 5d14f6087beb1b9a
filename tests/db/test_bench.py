"""The store benchmark runs end to end (on a small load; figures come from `bench db`)."""

from __future__ import annotations

import json

import pytest

from db.bench import main


def test_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json", "--games", "500", "--appends", "30"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ("db_append_ms_p50", "db_append_ms_p99", "db_leaderboard_ms"):
        assert figures[key] > 0
    assert figures["db_append_ms_p50"] <= figures["db_append_ms_p99"]
    assert main(["--games", "200", "--appends", "10"]) == 0
    assert "db_leaderboard_ms" in capsys.readouterr().out
