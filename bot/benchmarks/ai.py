"""``bench ai``: how fast the AI levels decide, and how many playouts the search runs.

Decision times are per card the strategy had to choose (two or more legal cards), over
seeded games the level plays against itself. ``ai_playouts_per_100ms`` counts complete
playouts, sampling of the hidden hands included, in searches from the first trick.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from bot.ai import LEVELS, get_strategy
from bot.ai.analysis import BUDGET, analyse, tip
from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.strategy import Strategy
from bot.arena import play_game
from bot.rules.game import (
    ArmutOffer,
    Deal,
    Game,
    Phase,
    Play,
    Reserve,
    armut_trumps,
    schmeissen_reasons,
)
from bot.rules.presets import PRESETS
from bot.rules.round import RoundContext
from bot.rules.view import player_view, seat_decisions


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    i = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[i]


def decision_times(
    strategy: Strategy, games: int, seed: int, contract_times: list[float] | None = None
) -> list[float]:
    """Milliseconds per card decision, with the level on all four seats; each Vorbehalt and
    declaration's into ``contract_times``, if given.
    """
    times: list[float] = []
    for g in range(games):
        game = Game(Deal.shuffled(seed + g, dealer=g % 4))
        rng = random.Random(seed + g)
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            view = player_view(game, seat)
            cards = sum(isinstance(a, Play) for a in view.legal)
            start = time.perf_counter()
            action = strategy.choose(view, rng)
            elapsed = (time.perf_counter() - start) * 1000
            if view.phase is Phase.PLAY and cards >= 2 and isinstance(action, Play):
                times.append(elapsed)
            elif contract_times is not None and view.phase in (Phase.VORBEHALT, Phase.DECLARE):
                contract_times.append(elapsed)
            game.apply(action)
    return times


def pflicht_times(strategy: Strategy, hands: int, seed: int) -> list[float]:
    """Milliseconds per Vorbehalt with a Pflichtsolo open (the search rates every hand then),
    the first seat to speak of ``hands`` deals early in a round.
    """
    times: list[float] = []
    open_round = RoundContext(24, (False, False, False, False))
    for i in range(hands):
        game = Game(Deal.shuffled(seed + i, dealer=i % 4, round=open_round))
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        start = time.perf_counter()
        strategy.choose(view, random.Random(seed + i))
        times.append((time.perf_counter() - start) * 1000)
    return times


def armut_times(
    strategy: Strategy, hands: int, seed: int
) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds per Vorbehalt of a hand that may offer an Armut (Stammtisch rules), per
    answer of the first seat asked to take it, and per choice of the cards to give back when
    it took, over the first ``hands`` such deals from ``seed``.
    """
    rules = PRESETS["stammtisch"]
    vorbehalt: list[float] = []
    take: list[float] = []
    back: list[float] = []
    i = seed
    while len(vorbehalt) < hands:
        i += 1
        game = Game(Deal.shuffled(i, dealer=i % 4, ruleset=rules))
        poor = game.to_act()
        assert poor is not None
        trumps = armut_trumps(game.hands[poor])
        if len(trumps) > rules.armut_max_trumps or schmeissen_reasons(game.hands[poor], rules):
            continue
        start = time.perf_counter()
        strategy.choose(player_view(game, poor), random.Random(i))
        vorbehalt.append((time.perf_counter() - start) * 1000)
        for seat in (poor, *[(poor + k) % 4 for k in (1, 2, 3)]):
            game.apply(Reserve(seat, seat == poor))
        game.apply(ArmutOffer(poor, trumps))
        asked = game.to_act()
        assert asked is not None
        start = time.perf_counter()
        answer = strategy.choose(player_view(game, asked), random.Random(i))
        take.append((time.perf_counter() - start) * 1000)
        game.apply(answer)
        if game.armut is not None and game.armut.taker == asked:
            start = time.perf_counter()
            strategy.choose(player_view(game, asked), random.Random(i))
            back.append((time.perf_counter() - start) * 1000)
    return vorbehalt, take, back


def playouts_per_100ms(strategy: MonteCarloStrategy, searches: int, seed: int) -> float:
    """Playouts per 100 ms in searches for the first card of a game."""
    done = 0
    spent = 0.0
    for i in range(searches):
        game = Game(Deal.shuffled(seed + i, dealer=i % 4))
        while game.phase is not Phase.PLAY:
            seat = game.to_act()
            assert seat is not None
            game.apply(get_strategy("heuristic").choose(player_view(game, seat), random.Random(i)))
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        plays = [a for a in view.legal if isinstance(a, Play)]
        before = strategy.stats.playouts
        start = time.perf_counter()
        strategy.search(view, plays, None, random.Random(seed + i))
        spent += time.perf_counter() - start
        done += strategy.stats.playouts - before
    return done / spent / 10 if spent else 0.0


def measure(level: str, games: int, seed: int) -> dict[str, Any]:
    strategy = get_strategy(level)
    contract: list[float] = []
    times = decision_times(strategy, games, seed, contract)
    out: dict[str, Any] = {
        "strategy": strategy.name,
        "ai_decision_ms_p50": round(percentile(times, 0.5), 3),
        "ai_decision_ms_p99": round(percentile(times, 0.99), 3),
        "decisions": len(times),
        # Vorbehalt and declaration: one or two a seat and game.
        "ai_contract_ms_p50": round(percentile(contract, 0.5), 3),
        "ai_contract_ms_p99": round(percentile(contract, 0.99), 3),
        "ai_all_ms_p50": round(percentile(times + contract, 0.5), 3),
        "ai_all_ms_p99": round(percentile(times + contract, 0.99), 3),
    }
    pflicht = pflicht_times(strategy, 4 * games, seed)
    out["ai_pflicht_vorbehalt_ms_p50"] = round(percentile(pflicht, 0.5), 3)
    out["ai_pflicht_vorbehalt_ms_p99"] = round(percentile(pflicht, 0.99), 3)
    armut, take, back = armut_times(strategy, 2 * games, seed)
    out["ai_armut_vorbehalt_ms_p50"] = round(percentile(armut, 0.5), 3)
    out["ai_armut_vorbehalt_ms_p99"] = round(percentile(armut, 0.99), 3)
    out["ai_armut_take_ms_p50"] = round(percentile(take, 0.5), 3)
    out["ai_armut_take_ms_p99"] = round(percentile(take, 0.99), 3)
    out["ai_armut_return_ms_p50"] = round(percentile(back, 0.5), 3)
    out["ai_armut_return_ms_p99"] = round(percentile(back, 0.99), 3)
    out["armut_returns"] = len(back)
    if isinstance(strategy, MonteCarloStrategy):
        out["playouts_per_decision"] = strategy.playouts
        out["ai_playouts_per_100ms"] = round(playouts_per_100ms(strategy, 10, seed), 1)
    return out


def analysis_times(games: int, seed: int) -> dict[str, Any]:
    """Spielanalyse and Tipp: milliseconds per analysed seat-game (every seat of ``games``
    leicht games, whose mistakes give the analysis the most to say) and per Tipp.
    """
    seat_ms: list[float] = []
    tip_ms: list[float] = []
    tip_vorbehalt_ms: list[float] = []
    playouts = 0
    for g in range(games):
        played = play_game(
            Deal.shuffled(seed + g, dealer=g % 4), [get_strategy("leicht")] * 4, f"bench{g}"
        )
        for seat in range(4):
            decisions = seat_decisions(played.deal, played.actions, seat)
            start = time.perf_counter()
            playouts += analyse(decisions, seed=g).playouts
            seat_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            tip(decisions[0][0], seed=g)  # the Vorbehalt: the contract search
            tip_vorbehalt_ms.append((time.perf_counter() - start) * 1000)
            for view, _ in decisions[-6:-2]:  # mid-game cards: a real choice
                start = time.perf_counter()
                tip(view, seed=g)
                tip_ms.append((time.perf_counter() - start) * 1000)
    return {
        "analysis_ms_per_seat_p50": round(percentile(seat_ms, 0.5), 1),
        "analysis_ms_per_seat_max": round(max(seat_ms, default=0.0), 1),
        "analysis_ms_per_game": round(sum(seat_ms) / max(1, games), 1),
        "analysis_playouts_per_seat": round(playouts / max(1, len(seat_ms))),
        "analysis_budget_playouts": BUDGET,
        "tip_ms_p50": round(percentile(tip_ms, 0.5), 1),
        "tip_ms_p99": round(percentile(tip_ms, 0.99), 1),
        "tip_vorbehalt_ms_p50": round(percentile(tip_vorbehalt_ms, 0.5), 1),
        "tip_vorbehalt_ms_p99": round(percentile(tip_vorbehalt_ms, 0.99), 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench ai", description=__doc__)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=4, help="games per level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result: dict[str, Any] = {}
    for level in LEVELS:
        figures = measure(level, args.games, args.seed)
        if level == "mittel":
            result.update(figures)
            result["level"] = level
        else:
            result[level] = figures
    result["analysis"] = analysis_times(args.games, args.seed)
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    else:
        for level in LEVELS:
            f = result if level == "mittel" else result[level]
            line = (
                f"{level:>7} ({f['strategy']}): decision p50 {f['ai_decision_ms_p50']:.1f} ms, "
                f"p99 {f['ai_decision_ms_p99']:.1f} ms over {f['decisions']} decisions; "
                f"Vorbehalt p50 {f['ai_contract_ms_p50']:.1f} ms, "
                f"p99 {f['ai_contract_ms_p99']:.1f} ms (Pflichtsolo open: p50 "
                f"{f['ai_pflicht_vorbehalt_ms_p50']:.1f} ms, p99 "
                f"{f['ai_pflicht_vorbehalt_ms_p99']:.1f} ms; an Armut to offer: p50 "
                f"{f['ai_armut_vorbehalt_ms_p50']:.1f} ms, p99 "
                f"{f['ai_armut_vorbehalt_ms_p99']:.1f} ms; asked to take one: p50 "
                f"{f['ai_armut_take_ms_p50']:.1f} ms, p99 {f['ai_armut_take_ms_p99']:.1f} ms; "
                f"cards given back: p50 {f['ai_armut_return_ms_p50']:.1f} ms, p99 "
                f"{f['ai_armut_return_ms_p99']:.1f} ms over {f['armut_returns']}); "
                f"all p50 {f['ai_all_ms_p50']:.1f} ms, "
                f"p99 {f['ai_all_ms_p99']:.1f} ms"
            )
            if "ai_playouts_per_100ms" in f:
                line += f", {f['ai_playouts_per_100ms']:.0f} playouts per 100 ms"
            sys.stdout.write(line + "\n")
        a = result["analysis"]
        sys.stdout.write(
            f"Spielanalyse: {a['analysis_ms_per_seat_p50']:.0f} ms per seat (p50, max "
            f"{a['analysis_ms_per_seat_max']:.0f}), {a['analysis_ms_per_game']:.0f} ms per game "
            f"of four, {a['analysis_playouts_per_seat']} playouts per seat (budget "
            f"{a['analysis_budget_playouts']}); Tipp p50 {a['tip_ms_p50']:.0f} ms, "
            f"p99 {a['tip_ms_p99']:.0f} ms; at the Vorbehalt p50 {a['tip_vorbehalt_ms_p50']:.0f} "
            f"ms, p99 {a['tip_vorbehalt_ms_p99']:.0f} ms\n"
        )
    return 0
