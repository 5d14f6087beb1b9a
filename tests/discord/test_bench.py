"""``bench discord`` runs end to end on a few tables (figures come from the benchmark itself;
nothing here is timed), on SQLite and, with ``DOKO_TEST_POSTGRES_URL``, on PostgreSQL with
one bot process and with two sharing one token.
"""

from __future__ import annotations

from bot.benchmarks.discord import run
from bot.benchmarks.soak import soak
from tests.conftest import postgres_url


async def test_two_tables_play_through_against_the_bot_process() -> None:
    figures = await run(2, think_ms=0)
    assert figures["discord_interactions"] >= 2 * 15  # /doko tisch, start, 13 decisions
    assert figures["discord_interactions_failed"] == 0
    assert figures["discord_actions"] >= 2 * 52  # 4 Vorbehalt answers, 48 cards
    assert 0 < figures["discord_ack_ms_p50"] <= figures["discord_ack_ms_p99"]
    assert figures["discord_rest_calls_per_action"] > 0
    assert "own process" in figures["discord_mode"]
    assert figures["discord_store"] == "sqlite" and figures["discord_processes"] == 1
    assert figures["discord_games"] == 2


async def test_the_budget_figures_are_reported() -> None:
    figures = await run(2, think_ms=0)
    assert figures["discord_rate_limits"] == "on" and figures["discord_429s"] == 0
    assert figures["discord_global_requests_per_game"] > 0
    assert "POST DM message" in figures["discord_global_requests_per_game_by_route"]
    assert "POST /users/@me/channels" not in figures["discord_global_requests_per_game_by_route"]
    assert figures["discord_store_commits"] > 0 and figures["discord_store_actions_per_commit"] >= 1
    assert 0 <= figures["discord_table_staleness_s_p50"] <= figures["discord_table_staleness_s_p99"]


async def test_a_soak_round_reports_memory_per_game() -> None:
    figures = await soak(0.0, tables=2)
    assert figures["soak_rounds"] == 1 and figures["soak_games"] == 2
    assert figures["soak_rss_kb_end"] > 0


async def test_the_bot_process_plays_on_postgresql() -> None:
    figures = await run(2, think_ms=0, database_url=postgres_url())
    assert figures["discord_store"] == "postgresql" and "PostgreSQL" in figures["discord_mode"]
    assert figures["discord_interactions_failed"] == 0
    assert figures["discord_games"] == 2  # counted in the run's schema, one game a table
    assert figures["discord_actions"] >= 2 * 52
    assert figures["discord_429s"] == 0


async def test_two_bot_processes_share_one_token_and_split_the_tables() -> None:
    figures = await run(4, think_ms=0, database_url=postgres_url(), processes=2)
    assert figures["discord_processes"] == 2 and "2 bot processes" in figures["discord_mode"]
    assert figures["discord_interactions_failed"] == 0
    assert figures["discord_games"] == 4
    assert figures["discord_tables_by_process"] == [2, 2]
    # Both did work: shard 1 its guild's Starten clicks (DM clicks reach shard 0 and are
    # forwarded), both their tables' messages against the one global bucket.
    assert all(n > 0 for n in figures["discord_clicks_by_process"])
    assert all(n > 0 for n in figures["discord_global_requests_by_process"])
    assert all(c > 0 for c in figures["discord_bot_cpu_s_by_process"])
    assert figures["discord_429s_global"] == 0 and figures["discord_429s"] == 0
