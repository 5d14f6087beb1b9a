"""Call margins: a priced call is made exactly when its gain and win chance clear them, in play
and in the coach's Tipp alike.
"""

from __future__ import annotations

import random

import pytest

from bot.ai import get_strategy
from bot.ai.analysis import tip
from bot.ai.montecarlo import CallMargins, MonteCarloStrategy, Rating
from bot.ai.strategy import Strategy
from bot.rules.calls import Call, Party
from bot.rules.cards import Card as C
from bot.rules.game import Action, Announce, Play
from bot.rules.view import PlayerView

from .helpers import make_view

HAND = [C.H10, C.CQ, C.SQ, C.HQ, C.CJ, C.DA, C.DK, C.CA, C.SA, C.HA, C.C10, C.S10]


def view_with(call: Call) -> PlayerView:
    legal: list[Action] = [*(Play(0, c) for c in HAND), Announce(0, call)]
    return make_view(0, HAND, parties=(Party.RE, None, None, None), legal=legal)


def fixed(gain: float, win: float) -> Rating:
    return Rating(means=(1.0,) * 12, best=3, call_gain=gain, call_win=win, worlds=100)


@pytest.fixture
def rating(monkeypatch: pytest.MonkeyPatch) -> list[Rating]:
    """Every search returns the Rating put in the list (all strategies, Tipp included)."""
    box: list[Rating] = []
    monkeypatch.setattr(MonteCarloStrategy, "rate", lambda self, v, p, c, r: box[0])
    return box


def choice(strategy: Strategy, call: Call = Call.RE) -> Action:
    return strategy.choose(view_with(call), random.Random(0))


def test_a_call_is_made_only_above_the_margin(rating: list[Rating]) -> None:
    mittel = MonteCarloStrategy()
    rating[:] = [fixed(0.5, 0.9)]
    assert choice(mittel) == Play(0, HAND[3])
    rating[:] = [fixed(0.7, 0.9)]
    assert choice(mittel) == Announce(0, Call.RE)
    low = MonteCarloStrategy(margins=CallMargins(gain=0.2, win=0.7))
    rating[:] = [fixed(0.5, 0.9)]
    assert choice(low) == Announce(0, Call.RE)


def test_a_call_needs_the_win_chance(rating: list[Rating]) -> None:
    rating[:] = [fixed(2.0, 0.65)]
    assert choice(MonteCarloStrategy()) == Play(0, HAND[3])
    assert choice(MonteCarloStrategy(margins=CallMargins(win=0.6))) == Announce(0, Call.RE)


def test_an_absage_has_its_own_margin_when_set(rating: list[Rating]) -> None:
    strict = MonteCarloStrategy(margins=CallMargins(gain=0.6, absage_gain=1.0))
    rating[:] = [fixed(0.8, 0.9)]
    assert choice(strict, Call.RE) == Announce(0, Call.RE)
    assert choice(strict, Call.NO90) == Play(0, HAND[3])
    rating[:] = [fixed(1.2, 0.9)]
    assert choice(strict, Call.NO90) == Announce(0, Call.NO90)


def test_the_tipp_prices_calls_as_mittel_does(rating: list[Rating]) -> None:
    rating[:] = [fixed(0.5, 0.9)]
    assert tip(view_with(Call.RE)).reason == "best_card"
    assert choice(get_strategy("mittel")) == Play(0, HAND[3])
    rating[:] = [fixed(0.7, 0.9)]
    advice = tip(view_with(Call.RE))
    assert advice.reason == "call_pays" and advice.action == Announce(0, Call.RE)
    assert choice(get_strategy("mittel")) == Announce(0, Call.RE)


def test_arena_names_for_margins() -> None:
    s = get_strategy("mc-calls:0.2:0.8:1.0")
    assert isinstance(s, MonteCarloStrategy)
    assert s.margins == CallMargins(0.2, 0.8, 1.0)
    with pytest.raises(ValueError):
        get_strategy("mc-calls:0.2")
