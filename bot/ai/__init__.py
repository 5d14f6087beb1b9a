"""AI players: they see only a PlayerView and return one of its legal actions.

Levels players pick: ``leicht`` (heuristic), ``mittel`` (Monte-Carlo, small budget) and
``schwer`` (Monte-Carlo, the budget past which more buys nothing), both with the contract
searched (``bot.ai.contract``); ``random`` is the arena's baseline.
"""

from __future__ import annotations

from bot.ai.contract import ContractSearch
from bot.ai.heuristic import HeuristicStrategy
from bot.ai.montecarlo import CallMargins, MonteCarloStrategy
from bot.ai.strategy import RandomStrategy, Strategy

# Playouts per decision, split over the candidate cards. Strength stops growing near 3000
# (12000 was no stronger, docs/ai.md), so schwer plays there; mittel's 1000 is measurably
# weaker than schwer and far stronger than leicht, at a third of the time.
MITTEL_PLAYOUTS = 1000
SCHWER_PLAYOUTS = 3000

LEVELS: dict[str, str] = {
    "leicht": "heuristic",
    "mittel": "montecarlo",
    "schwer": "montecarlo-schwer",
}
STRATEGY_NAMES = ("random", "heuristic", "montecarlo", "montecarlo-schwer")


def get_strategy(name: str) -> Strategy:
    """A fresh strategy by name or level (``random``, ``heuristic``/``leicht``,
    ``montecarlo``/``mittel``, ``montecarlo-schwer``/``schwer``), or one of the arena's
    measuring names ``mc-budget:PLAYOUTS``, ``mc-calls:GAIN:WIN[:ABSAGE_GAIN]`` and
    ``mc-967a1e5:PLAYOUTS``.
    """
    key = LEVELS.get(name, name)
    if key == "random":
        return RandomStrategy()
    if key == "heuristic":
        return HeuristicStrategy()
    if key == "montecarlo":
        return _searching(MITTEL_PLAYOUTS, key)
    if key == "montecarlo-schwer":
        return _searching(SCHWER_PLAYOUTS, key)
    if key.startswith("mc-budget:"):
        return _searching(_budget(key), key)
    if key.startswith("mc-967a1e5:"):
        # Issue 21's yardstick: Monte-Carlo as at commit 967a1e5, the heuristic's Vorbehalt
        # (card play and calls have not changed since).
        return MonteCarloStrategy(_budget(key), key)
    if key.startswith("mc-calls:"):
        return _searching(MITTEL_PLAYOUTS, key, _margins(key))
    known = ", ".join((*STRATEGY_NAMES, *LEVELS))
    raise ValueError(f"unknown strategy {name!r} (known: {known})")


def _searching(playouts: int, name: str, margins: CallMargins | None = None) -> MonteCarloStrategy:
    """Monte-Carlo with the contract searched at the same budget: mittel, schwer and kin."""
    contracts = ContractSearch(budget=playouts)
    return MonteCarloStrategy(playouts, name, margins or CallMargins(), contracts=contracts)


def _budget(key: str) -> int:
    """The budget of the arena's names ``mc-budget:PLAYOUTS`` (mittel with that many playouts
    per decision, its contract search too) and ``mc-967a1e5:PLAYOUTS``.
    """
    prefix, value = key.split(":", 1)
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{key!r}: expected {prefix}:PLAYOUTS, a whole number from 1")
    return int(value)


def _margins(key: str) -> CallMargins:
    """Temporary arena names for measuring call margins: ``mc-calls:GAIN:WIN[:ABSAGE_GAIN]``
    is mittel with those margins.
    """
    try:
        parts = [float(x) for x in key.split(":")[1:]]
    except ValueError:
        parts = []
    if len(parts) not in (2, 3):
        raise ValueError(f"{key!r}: expected mc-calls:GAIN:WIN[:ABSAGE_GAIN]")
    absage = parts[2] if len(parts) == 3 else None
    return CallMargins(parts[0], parts[1], absage)


__all__ = [
    "LEVELS",
    "HeuristicStrategy",
    "MonteCarloStrategy",
    "RandomStrategy",
    "Strategy",
    "get_strategy",
]
