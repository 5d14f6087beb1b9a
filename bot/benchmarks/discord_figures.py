"""The figures ``bench discord`` computes from what the fake recorded and the bot measured."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

from tests.fakediscord import Channel, Interaction, RequestRecord
from tests.fakediscord.ratelimits import exempt_from_global


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def histogram_percentile(counts: dict[str, int], q: float) -> int:
    """The ``q`` quantile of a histogram {value: count} (values as JSON keys)."""
    total = sum(counts.values())
    seen = 0
    for value, n in sorted((int(v), n) for v, n in counts.items()):
        seen += n
        if seen >= q * total:
            return value
    return 0


def is_global(request: RequestRecord) -> bool:
    """Whether the request counts against Discord's global limit (all but interaction routes)."""
    route = request.route
    return route is not None and not exempt_from_global(route.split(" ", 1)[-1])


def budget_figures(
    requests: list[RequestRecord], dms: dict[int, Channel], elapsed: float, games: int
) -> dict[str, Any]:
    """The requests against the global limit: per second, per game, per game by route."""
    counted = Counter(route(r, dms) for r in requests if is_global(r))
    total = sum(counted.values())
    return {
        "discord_global_requests_per_s": round(total / max(elapsed, 1e-9), 1),
        "discord_global_requests_per_game": round(total / max(1, games), 2),
        "discord_global_requests_per_game_by_route": {
            route: round(n / max(1, games), 3) for route, n in counted.most_common()
        },
    }


def tail_figures(
    bench: Any, interactions: list[Interaction], wall_offset: float, bot: dict[str, Any]
) -> dict[str, Any]:
    """Where the clicks' acknowledgement time goes, from the bot's own stats file (stats.py):
    ``queue`` (the fake sending it, the gateway, the bot's loop until the handler runs),
    ``store`` (the table's lock, the rules, the group commit), ``send`` (the callback request
    until it arrived at the fake); p50/p99 of each, and their means over the slowest 1 %.
    Also the group commit (actions per commit), the bot's garbage-collection pauses and the
    global budget's waits. Nothing from a bot that writes no stats file (an older checkout).
    """
    if not bot:
        return {}
    phases: list[tuple[float, float, float, float]] = []
    for ix in interactions:
        times = bot["acks"].get(str(ix.id))
        arrived = bench.acked_wall.get(ix.id)
        if times is None or len(times) < 3 or arrived is None:
            continue
        handler, stored, _ = times
        created = ix.created_at + wall_offset
        queue, store, send = handler - created, stored - handler, arrived - stored
        phases.append((queue + store + send, queue, store, send))
    phases.sort()
    tail = phases[int(len(phases) * 0.99) :] or phases
    figures: dict[str, Any] = {}
    for i, name in enumerate(("queue", "store", "send"), start=1):
        values = [p[i] * 1000 for p in phases]
        figures[f"discord_ack_{name}_ms_p50"] = round(percentile(values, 0.5), 2)
        figures[f"discord_ack_{name}_ms_p99"] = round(percentile(values, 0.99), 2)
        figures[f"discord_ack_tail_{name}_ms_mean"] = round(
            sum(p[i] for p in tail) * 1000 / max(1, len(tail)), 2
        )
    store = bot.get("store", {})
    pauses = bot.get("gc_pauses_ms", [])
    return {
        **figures,
        "discord_store_commits": store.get("commits", 0),
        "discord_store_actions_per_commit": round(
            store.get("actions", 0) / max(1, store.get("commits", 0)), 2
        ),
        "discord_store_largest_commit": store.get("largest_commit", 0),
        "discord_store_commit_ms_p50": histogram_percentile(store.get("commit_ms", {}), 0.5),
        "discord_store_commit_ms_p99": histogram_percentile(store.get("commit_ms", {}), 0.99),
        "discord_bot_gc_pauses": len(pauses),
        "discord_bot_gc_pause_ms_max": round(max(pauses, default=0.0), 1),
        "discord_bot_gc_pause_ms_p99": round(percentile(pauses, 0.99), 1),
        "discord_bot_gc_full_collections": len(bot.get("gc_full_pauses_ms", [])),
        "discord_bot_gc_full_pause_ms_max": round(
            max(bot.get("gc_full_pauses_ms", []), default=0.0), 1
        ),
        "discord_bot_gc_young_pause_ms_max": round(bot.get("gc_young_max_ms", 0.0), 1),
        "discord_bot_gc_ms_total": round(sum(pauses) + bot.get("gc_young_ms", 0.0), 1),
        "discord_budget_turns": bot.get("budget_turns", {}),
        "discord_budget_waited_s": bot.get("budget_waited_s", {}),
        "discord_wire_held": bot.get("wire_held", 0),
        "discord_wire_held_s": bot.get("wire_held_s", 0.0),
    }


def _summed(dicts: list[dict[str, Any]]) -> dict[str, Any]:
    total: Counter[str] = Counter()
    for d in dicts:
        total.update(d)
    return dict(total)


def merge_figures(each: list[dict[str, Any]]) -> dict[str, Any]:
    """What several bot processes measured of themselves (stats.py) as one process's: their
    acks side by side (a click is handled by the process that received it), counts and
    histograms summed, pauses pooled, the largest commit the largest of any.
    """
    each = [f for f in each if f]
    if len(each) <= 1:
        return each[0] if each else {}
    stores = [f.get("store", {}) for f in each]
    acks: dict[str, list[float]] = {}
    for f in each:
        for ix, times in f.get("acks", {}).items():
            if len(times) > len(acks.get(ix, [])):
                acks[ix] = times
    return {
        "acks": acks,
        "store": {
            "commits": sum(s.get("commits", 0) for s in stores),
            "actions": sum(s.get("actions", 0) for s in stores),
            "largest_commit": max(s.get("largest_commit", 0) for s in stores),
            "commit_ms": _summed([s.get("commit_ms", {}) for s in stores]),
        },
        "gc_pauses_ms": [p for f in each for p in f.get("gc_pauses_ms", [])],
        "gc_full_pauses_ms": [p for f in each for p in f.get("gc_full_pauses_ms", [])],
        "gc_young_ms": sum(f.get("gc_young_ms", 0.0) for f in each),
        "gc_young_max_ms": max(f.get("gc_young_max_ms", 0.0) for f in each),
        "budget_turns": _summed([f.get("budget_turns", {}) for f in each]),
        "budget_waited_s": {
            k: round(v, 3) for k, v in _summed([f.get("budget_waited_s", {}) for f in each]).items()
        },
        "wire_held": sum(f.get("wire_held", 0) for f in each),
        "wire_held_s": round(sum(f.get("wire_held_s", 0.0) for f in each), 3),
        "wire_started": sum(f.get("wire_started", 0) for f in each),
    }


def process_figures(
    each: list[dict[str, Any]],
    cpu_s: list[float],
    rss_peak_kb: list[int],
    tables: list[int],
    elapsed: float,
) -> dict[str, Any]:
    """Per bot process, in shard order: its share of the work (the clicks it received: DM
    clicks all reach shard 0; the requests it let out against the global limit over its
    whole run, start included), CPU and peak memory above its start per table of its shard.
    """
    return {
        "discord_tables_by_process": tables,
        "discord_clicks_by_process": [len(f.get("acks", {})) for f in each],
        "discord_global_requests_by_process": [f.get("wire_started", 0) for f in each],
        "discord_bot_cpu_share_by_process": [round(c / max(elapsed, 1e-9), 2) for c in cpu_s],
        "discord_bot_cpu_s_by_process": [round(c, 1) for c in cpu_s],
        "discord_bot_peak_rss_kb_per_table_by_process": [
            round(r / max(1, n), 1) for r, n in zip(rss_peak_kb, tables, strict=True)
        ],
    }


def uploaded_bytes(requests: list[RequestRecord]) -> int:
    """The bytes of the files the bot uploaded, as the answers list them (an upload
    replaces a message's files: an answer's attachments are that request's uploads).
    """
    total = 0
    for r in requests:
        if r.files and isinstance(r.response, dict):
            total += sum(
                a.get("size", 0)
                for a in r.response.get("attachments", [])
                if a.get("filename") in r.files
            )
    return total


def route(request: RequestRecord, dms: dict[int, Channel]) -> str:
    """A short name for a REST call: ``PATCH channel message``, ``POST callback`` …"""
    route = request.route or request.path
    if "/callback" in route:
        return "POST interaction callback"
    if route.startswith("PATCH /webhooks/"):
        return "PATCH interaction response"
    if route.startswith("POST /webhooks/"):
        return "POST followup"
    if "/messages" in route:
        channel = dms.get(int(request.path.split("/")[2]))
        return f"{request.method} {'DM' if channel is not None else 'table'} message"
    return f"{request.method} {route.split(' ', 1)[-1]}"


def find_max_tables(
    run_one: Callable[[int], dict[str, Any]], start: int, up_to: int, runs: int = 5
) -> dict[str, Any]:
    """The largest table count with no 429 and no failed interaction, in at most ``runs``
    runs: from ``start`` doubling up to ``up_to`` until one fails, then halving the gap.
    """
    good, bad = 0, up_to + 1
    tables = min(start, up_to)
    tried: dict[int, dict[str, Any]] = {}
    for _ in range(runs):
        figures = tried[tables] = run_one(tables)
        ok = figures["discord_429s"] == 0 and figures["discord_interactions_failed"] == 0
        sys.stderr.write(f"{tables} tables: {'ok' if ok else 'limited'}\n")
        if ok:
            good = tables
        else:
            bad = tables
        following = min(up_to, tables * 2) if bad > up_to else (good + bad) // 2
        if following in tried or following <= good or following >= bad:
            break
        tables = following
    return {
        "discord_max_tables_without_429": good,
        "discord_max_tables_searched_up_to": up_to,
        "discord_max_tables_runs": {
            str(n): {
                "429s": f["discord_429s"],
                "failed": f["discord_interactions_failed"],
                "ack_ms_p99": f["discord_ack_ms_p99"],
                "global_requests_per_s": f["discord_global_requests_per_s"],
            }
            for n, f in sorted(tried.items())
        },
    }
