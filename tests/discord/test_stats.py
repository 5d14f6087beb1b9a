"""What a bot process measures of itself for the benchmarks (bot/discord/stats.py)."""

from __future__ import annotations

import json
from pathlib import Path

from bot.discord.stats import ProcessStats


def test_each_click_keeps_its_three_ack_times_in_order(tmp_path: Path) -> None:
    stats = ProcessStats(tmp_path / "stats.json")
    try:
        stats.handler(1)
        stats.handler(2)
        stats.mark(1)
        stats.mark(1)  # acked
        stats.mark(1)  # nothing after the acknowledgement
        stats.mark(2)  # stored, not acked yet
        stats.mark(3)  # never handled here
        acks = stats.acks
        assert set(acks) == {1, 2}
        assert len(acks[1]) == 3 and acks[1] == sorted(acks[1])
        assert len(acks[2]) == 2
    finally:
        stats.write({})
    written = json.loads((tmp_path / "stats.json").read_text())
    assert written["acks"]["1"] == acks[1] and written["acks"]["2"] == acks[2]
