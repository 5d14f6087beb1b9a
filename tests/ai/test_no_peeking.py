"""AIs see only the PlayerView: hidden cards cannot change a decision."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bot.ai import get_strategy
from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.strategy import Strategy
from bot.arena import play_game
from bot.rules.cards import Card
from bot.rules.game import Deal, Game, Play
from bot.rules.view import PlayerView, player_view

AI_DIR = Path(__file__).resolve().parents[2] / "bot" / "ai"


def swapped_deal(deal: Deal, a: int, b: int) -> Deal:
    """The same deal with one card of seat ``a`` and one of seat ``b`` exchanged.

    Seats and cards are chosen so no Kreuz-Dame moves: parties and contract stay the same.
    """
    hands = [list(h) for h in deal.hands]
    ca = next(c for c in hands[a] if c != Card.CQ and c not in hands[b])
    cb = next(c for c in hands[b] if c != Card.CQ and c not in hands[a])
    hands[a].remove(ca)
    hands[b].remove(cb)
    hands[a].append(cb)
    hands[b].append(ca)
    return Deal(tuple(tuple(sorted(h)) for h in hands), deal.dealer, deal.round, deal.ruleset)


@pytest.mark.parametrize("name", ["random", "heuristic", "montecarlo-small"])
def test_hidden_cards_do_not_change_the_decision(name: str) -> None:
    compared = 0
    for seed in range(6):
        deal = Deal.shuffled(500 + seed, dealer=3)
        other = swapped_deal(deal, 1, 2)
        for game_deal in (deal, other):
            assert game_deal.hands[0] == deal.hands[0]
        games = [Game(deal), Game(other)]
        # Everyone gesund, then seat 0 leads: its view is the same in both worlds.
        for g in games:
            while g.to_act() is not None and g.phase.value == "vorbehalt":
                seat = g.to_act()
                assert seat is not None
                g.apply(next(a for a in g.legal_actions(seat) if not getattr(a, "reserve", 1)))
        views = [player_view(g, 0) for g in games]
        if views[0] != views[1]:
            continue  # a stille Hochzeit or a contract that looks different: skip
        strategy: Strategy = (
            MonteCarloStrategy(playouts=200) if name == "montecarlo-small" else get_strategy(name)
        )
        picks = [strategy.choose(v, random.Random(seed)) for v in views]
        assert picks[0] == picks[1]
        compared += 1
    assert compared >= 3


class Spy:
    """Records the type of everything a strategy is handed."""

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.name = inner.name
        self.seen: set[type] = set()

    def choose(self, view: PlayerView, rng: random.Random) -> Play:
        self.seen.add(type(view))
        action = self.inner.choose(view, rng)
        return action  # type: ignore[return-value]


def test_strategies_are_handed_only_views() -> None:
    spies = [Spy(get_strategy(n)) for n in ("heuristic", "random", "heuristic", "random")]
    play_game(Deal.shuffled(9), spies, "spy")
    assert set().union(*(s.seen for s in spies)) == {PlayerView}


def test_ai_package_never_touches_a_game() -> None:
    """No AI module imports Game, Deal or the hands of a deal: only views come in."""
    for path in AI_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "bot.rules.game":
                names = {a.name for a in node.names}
                assert not names & {"Game", "Deal", "replay"}, path.name
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("deal", "hands"), f"{path.name} reads .{node.attr}"
