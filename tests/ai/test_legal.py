"""Every strategy returns only legal actions, in games of every contract, deterministically."""

from __future__ import annotations

import random

import pytest

from bot.ai import get_strategy
from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.strategy import Strategy
from bot.arena import play_game
from bot.rules.contracts import Contract
from bot.rules.game import Deal
from bot.rules.round import RoundContext

from .helpers import forced_game, play_out, play_out_one

FORCED = [
    Contract.NORMAL,
    Contract.HOCHZEIT,
    Contract.STILLE_HOCHZEIT,
    Contract.SOLO_KREUZ,
    Contract.SOLO_PIK,
    Contract.SOLO_HERZ,
    Contract.SOLO_KARO,
    Contract.SOLO_DAMEN,
    Contract.SOLO_BUBEN,
    Contract.SOLO_FLEISCHLOS,
]


def small_mc() -> MonteCarloStrategy:
    return MonteCarloStrategy(playouts=40)


def lineups() -> list[list[Strategy]]:
    return [
        [get_strategy("random") for _ in range(4)],
        [get_strategy("heuristic") for _ in range(4)],
        [small_mc(), get_strategy("heuristic"), small_mc(), get_strategy("random")],
    ]


@pytest.mark.parametrize("contract", FORCED, ids=str)
def test_only_legal_actions_in_every_contract(contract: Contract) -> None:
    for seed in range(4):
        for i, seats in enumerate(lineups()):
            game = forced_game(contract, seed * 37 + i)
            play_out(game, seats, seed)
            assert game.result is not None
            assert sum(game.result.scores) == 0


def test_failed_hochzeit_is_played_legally() -> None:
    """A Hochzeiter that wins the first three tricks plays a Karo solo; the AIs go on legally."""
    seen_failed = False
    for seed in range(200):
        game = forced_game(Contract.HOCHZEIT, seed * 11)
        seats: list[Strategy] = [get_strategy("random") for _ in range(4)]
        # The Hochzeiter's seat plays the searching AI once the contract has failed.
        while not game.finished and game.contract is Contract.HOCHZEIT:
            play_out_one(game, seats, seed)
        if game.contract is Contract.HOCHZEIT_FAILED:
            seen_failed = True
            play_out(game, [small_mc(), get_strategy("heuristic"), small_mc(), small_mc()], seed)
            break
    assert seen_failed


def test_strategies_choose_their_own_contracts_legally() -> None:
    """Vorbehalt, Hochzeit, Lust- and Pflichtsoli (vorgeführt too) as the strategies pick them."""
    contracts = set()
    for i in range(60):
        done = (i % 2 == 0, i % 3 == 0, False, i % 5 == 0)
        ctx = RoundContext(games_left=1 + i % 4, pflichtsolo_done=done) if i % 3 else None
        deal = Deal.shuffled(1000 + i, dealer=i % 4, round=ctx)
        names = ["heuristic", "random", "heuristic", "random"]
        seats = [small_mc() if n == "heuristic" and i % 4 == 0 else get_strategy(n) for n in names]
        game = play_game(deal, seats, f"t{i}")
        assert game.finished
        contracts.add(game.contract)
    assert Contract.NORMAL in contracts
    assert any(c is not None and c.is_declared_solo for c in contracts)


def test_same_seed_same_game() -> None:
    deal = Deal.shuffled(42, dealer=1)
    logs = []
    for _ in range(2):
        seats: list[Strategy] = [
            small_mc(),
            get_strategy("heuristic"),
            small_mc(),
            get_strategy("random"),
        ]
        logs.append(play_game(deal, seats, "fixed").actions)
    assert logs[0] == logs[1]


def test_different_seeds_can_differ() -> None:
    deal = Deal.shuffled(42, dealer=1)
    logs = {
        tuple(play_game(deal, [get_strategy("random") for _ in range(4)], f"s{k}").actions)
        for k in range(3)
    }
    assert len(logs) > 1


def test_random_never_calls() -> None:
    rng = random.Random(3)
    game = forced_game(Contract.NORMAL, 5)
    play_out(game, [get_strategy("random") for _ in range(4)], rng.randrange(100))
    assert game.calls == []
