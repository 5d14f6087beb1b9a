"""``bench discord`` runs end to end on two tables (figures come from the benchmark itself;
nothing here is timed).
"""

from __future__ import annotations

from bot.benchmarks.discord import run


async def test_two_tables_play_through_against_the_bot_process() -> None:
    figures = await run(2, think_ms=0)
    assert figures["discord_interactions"] >= 2 * 15  # /doko tisch, start, 13 decisions
    assert figures["discord_interactions_failed"] == 0
    assert figures["discord_actions"] >= 2 * 52  # 4 Vorbehalt answers, 48 cards
    assert 0 < figures["discord_ack_ms_p50"] <= figures["discord_ack_ms_p99"]
    assert figures["discord_rest_calls_per_action"] > 0
    assert "own process" in figures["discord_mode"]
