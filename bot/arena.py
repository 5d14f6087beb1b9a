"""Duplicate matches between AI strategies: ``arena --strategies A,B --deals N --seed S``.

Every seeded deal is played once per rotation of the strategies through the seats (for A,B:
A on seats 0 and 2, B on 1 and 3, then swapped), so the luck of the cards cancels. Points
per game are a seat's mean score per game; the 95 % interval is over deals.

With ``--rounds`` each deal index is a whole Pflichtsolo round instead (``games_per_round``
slots, the Pflichtsoli dealt again, Vorführen at its end), the N-th game of the round dealt
alike in every rotation; points per game are then the round's score over its slots.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bot.ai import get_strategy
from bot.ai.strategy import Strategy
from bot.rules.game import Announce, Deal, Game
from bot.rules.round import RoundContext
from bot.rules.ruleset import DDV, Ruleset, RulesetError
from bot.rules.view import player_view

log = logging.getLogger(__name__)

# More calls than levels exist in one turn means a strategy is stuck announcing.
_MAX_CALLS_PER_TURN = 6


def seat_plan(names: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """One seating per rotation: strategies cycle over the four seats."""
    k = len(names)
    return [
        (names[r % k], names[(1 + r) % k], names[(2 + r) % k], names[(3 + r) % k]) for r in range(k)
    ]


def play_game(deal: Deal, seats: Sequence[Strategy], rng_seed: str) -> Game:
    """Play one game with four AI seats; each seat gets its own seeded generator."""
    game = Game(deal)
    rngs = [random.Random(f"{rng_seed}/{seat}") for seat in range(4)]
    calls_in_turn = 0
    last_turn: tuple[int, int] | None = None
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        action = seats[seat].choose(view, rngs[seat])
        turn = (seat, game.action_count)
        if isinstance(action, Announce):
            calls_in_turn = calls_in_turn + 1 if last_turn and last_turn[0] == seat else 1
            if calls_in_turn > _MAX_CALLS_PER_TURN:
                raise RuntimeError(f"{seats[seat].name} keeps announcing at seat {seat}")
        else:
            calls_in_turn = 0
        last_turn = turn
        game.apply(action)
    return game


@dataclass(frozen=True, slots=True)
class DealResult:
    points: dict[str, float]  # mean score per seat and game, over the deal's rotations


def play_deal(names: tuple[str, ...], index: int, seed: int, rules: Ruleset) -> DealResult:
    deal = Deal.shuffled(seed * 1_000_003 + index, dealer=index % 4, ruleset=rules)
    return score_deal(deal, {n: get_strategy(n) for n in names}, f"{seed}/{index}")


def play_round(
    seats: Sequence[Strategy], deal_seed: int, dealer: int, rng_seed: str, rules: Ruleset
) -> tuple[list[int], list[Game]]:
    """One round from its first deal to its last game: each seat's total and the games."""
    done = not (rules.pflichtsolo_enabled and rules.solos_enabled)
    ctx: RoundContext | None = RoundContext(rules.games_per_round, (done,) * 4)
    totals = [0, 0, 0, 0]
    games: list[Game] = []
    # Redeals and Pflichtsoli add games; far more than the slots means a stuck round.
    while ctx is not None and not ctx.finished and len(games) < 4 * rules.games_per_round + 8:
        n = len(games)
        deal = Deal.shuffled(deal_seed * 1000 + n, dealer, ctx, rules)
        game = play_game(deal, seats, f"{rng_seed}/{n}")
        if game.result is not None:
            totals = [t + s for t, s in zip(totals, game.result.scores, strict=True)]
        games.append(game)
        ctx, dealer = game.next_round(), game.next_dealer()
    if ctx is None or not ctx.finished:
        raise RuntimeError(f"round {rng_seed} did not finish in {len(games)} games")
    return totals, games


def play_round_pair(names: tuple[str, ...], index: int, seed: int, rules: Ruleset) -> DealResult:
    """A round per rotation, every rotation dealt the same N-th game (``--rounds``)."""

    def per_slot(seats: list[Strategy], r: int) -> list[float]:
        deal_seed, rng_seed = seed * 1_000_003 + index, f"{seed}/{index}/{r}"
        totals, _ = play_round(seats, deal_seed, index % 4, rng_seed, rules)
        return [t / rules.games_per_round for t in totals]

    return _rotations({n: get_strategy(n) for n in names}, per_slot)


def score_deal(deal: Deal, strategies: dict[str, Strategy], rng_seed: str) -> DealResult:
    """Play ``deal`` once per rotation of the strategies through the seats."""

    def scores(seats: list[Strategy], r: int) -> Sequence[float]:
        game = play_game(deal, seats, f"{rng_seed}/{r}")
        # A redeal (house rules: Schmeißen, an Armut nobody took) scores nothing.
        return game.result.scores if game.result is not None else (0, 0, 0, 0)

    return _rotations(strategies, scores)


def _rotations(
    strategies: dict[str, Strategy], play: Callable[[list[Strategy], int], Sequence[float]]
) -> DealResult:
    """Each strategy's mean seat score over the rotations; ``play(seats, r)`` plays one."""
    names = tuple(strategies)
    total = dict.fromkeys(names, 0.0)
    seats_of = dict.fromkeys(names, 0)
    for r, plan in enumerate(seat_plan(names)):
        scores = play([strategies[n] for n in plan], r)
        for seat, n in enumerate(plan):
            total[n] += scores[seat]
            seats_of[n] += 1
    return DealResult({n: total[n] / seats_of[n] for n in names})


def _play_chunk(
    args: tuple[tuple[str, ...], list[int], int, Ruleset, bool],
) -> list[DealResult]:
    names, indices, seed, rules, rounds = args
    play = play_round_pair if rounds else play_deal
    return [play(names, i, seed, rules) for i in indices]


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and normal-approximation 95 % interval."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return m, m - half, m + half


def run(
    names: tuple[str, ...],
    deals: int,
    seed: int,
    rules: Ruleset = DDV,
    jobs: int = 1,
    rounds: bool = False,
) -> dict[str, object]:
    """Play the match and summarize it as the ``--json`` object (``deals`` rounds with
    ``rounds``).
    """
    indices = list(range(deals))
    chunks = [indices[i::jobs] for i in range(jobs)] if jobs > 1 else [indices]
    results: list[DealResult] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_play_chunk, [(names, c, seed, rules, rounds) for c in chunks]):
                results.extend(part)
    else:
        results = _play_chunk((names, indices, seed, rules, rounds))
    out: dict[str, object] = {}
    strat: dict[str, dict[str, object]] = {}
    for n in names:
        m, lo, hi = mean_ci([r.points[n] for r in results])
        strat[n] = {"points_per_game": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    out["strategies"] = strat
    out["deals"] = deals
    games = deals * len(seat_plan(names))
    if rounds:
        out["rounds"] = deals
        games *= rules.games_per_round  # the slots; Pflichtsoli come on top
    out["games"] = games
    out["seed"] = seed
    out["rules"] = rules.to_dict()
    if len(names) == 2:
        a, b = names
        m, lo, hi = mean_ci([r.points[a] - r.points[b] for r in results])
        out["difference"] = {
            "of": f"{a}-{b}",
            "points_per_game": round(m, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
        }
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="arena", description=__doc__)
    parser.add_argument(
        "--strategies", required=True, help="comma-separated, e.g. heuristic,random"
    )
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--rules", default=None, help="rule overrides as JSON, e.g. '{\"with_nines\": false}'"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--rounds", action="store_true", help="play each deal index as a Pflichtsolo round"
    )
    args = parser.parse_args(argv)
    names = tuple(s.strip() for s in args.strategies.split(",") if s.strip())
    if len(names) < 2 or len(set(names)) != len(names):
        parser.error("--strategies needs two or more different names")
    try:
        for n in names:
            get_strategy(n)
        rules = Ruleset.from_dict(json.loads(args.rules)) if args.rules else DDV
    except (ValueError, RulesetError) as err:
        parser.error(str(err))
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")
    out = run(names, args.deals, args.seed, rules, args.jobs, args.rounds)
    if args.json:
        sys.stdout.write(json.dumps(out) + "\n")
    else:
        strat = out["strategies"]
        assert isinstance(strat, dict)
        unit = "rounds" if args.rounds else "deals"
        lines = [f"{args.deals} {unit}, {out['games']} games, seed {args.seed}"]
        for n, s in strat.items():
            lo, hi = s["ci95"]
            lines.append(
                f"{n:>20}: {s['points_per_game']:+.3f} points/game  95% CI [{lo:+.3f}, {hi:+.3f}]"
            )
        sys.stdout.write("\n".join(lines) + "\n")
    return 0
