"""The AIs under the house rules: legal under every preset and flag, Armut and Schmeißen decided.

Games are driven the way the arena drives them (all four seats AI, each seat its own seeded
generator), and every choice must be one of the view's legal actions.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from bot.ai import get_strategy
from bot.ai.heuristic import HeuristicStrategy, armut_return, wants_armut
from bot.ai.knowledge import Knowledge
from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.strategy import Strategy
from bot.arena import main, play_game
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Deal,
    Game,
    Phase,
    Redeal,
    ReturnCards,
    Schmeissen,
    armut_trumps,
    schmeissen_reasons,
)
from bot.rules.presets import PRESETS
from bot.rules.round import RoundContext
from bot.rules.ruleset import Ruleset, SchmeissenReason
from bot.rules.view import player_view
from tests.rules.helpers import house_rulesets

from .helpers import play_out

RULESETS = house_rulesets()
ARMUT = Ruleset(armut=True)


def small_mc() -> MonteCarloStrategy:
    return MonteCarloStrategy(playouts=40)


def lineups() -> list[list[Strategy]]:
    return [
        [get_strategy("random") for _ in range(4)],
        [get_strategy("heuristic") for _ in range(4)],
        [small_mc(), get_strategy("heuristic"), small_mc(), get_strategy("random")],
    ]


def new_game(ruleset: Ruleset, seed: int) -> Game:
    rng = random.Random(seed)
    ctx = None
    if rng.random() < 0.5:
        done = tuple(rng.random() < 0.5 for _ in range(4))
        ctx = RoundContext(games_left=rng.randrange(1, 5), pflichtsolo_done=done)  # type: ignore[arg-type]
    bock = rng.choice((1, 1, 2)) if ruleset.bock else 1
    return Game(Deal.shuffled(seed, dealer=seed % 4, round=ctx, ruleset=ruleset, bock=bock))


def poor_seed(ruleset: Ruleset, start: int, strong_other: bool = False) -> tuple[int, int]:
    """A seed from ``start`` whose deal gives some seat an Armut (and, if asked, another seat
    a hand the heuristic takes it with); returns the seed and the poor seat.
    """
    seed = start
    while True:
        hands = Deal.shuffled(seed, ruleset=ruleset).hands
        for seat, hand in enumerate(hands):
            if len(armut_trumps(hand)) > ruleset.armut_max_trumps:
                continue
            if not strong_other or any(
                len(armut_trumps(h)) >= 8 for s, h in enumerate(hands) if s != seat
            ):
                return seed, seat
        seed += 1


@pytest.mark.parametrize(("name", "ruleset"), RULESETS, ids=[n for n, _ in RULESETS])
def test_only_legal_actions_under_every_preset_and_flag(name: str, ruleset: Ruleset) -> None:
    for seed in range(4):
        for i, seats in enumerate(lineups()):
            game = new_game(ruleset, 1000 * seed + 17 * i + len(name))
            play_out(game, seats, seed)
            assert game.finished
            if game.redeal is None:
                assert game.result is not None and sum(game.result.scores) == 0
                assert len(game.tricks) == ruleset.tricks


@pytest.mark.parametrize("max_trumps", [3, 6])
def test_an_armut_is_offered_taken_and_returned_legally(max_trumps: int) -> None:
    """Every strategy in every role of an Armut: offer, answer, return; then play on."""
    ruleset = Ruleset(armut=True, armut_max_trumps=max_trumps, schweinchen=True)
    kinds: Counter[str] = Counter()
    start = 0
    for round_ in range(6):
        seed, poor = poor_seed(ruleset, start, strong_other=round_ % 2 == 0)
        start = seed + 1
        for i, seats in enumerate(lineups()):
            game = Game(Deal.shuffled(seed, dealer=(poor + 3) % 4, ruleset=ruleset))
            chosen = play_out(game, seats, seed + i)
            kinds.update(type(a).__name__ for a in chosen)
            returned = [a for a in chosen if isinstance(a, ReturnCards)]
            if returned:
                assert game.armut is not None and game.armut.returned is not None
                assert len(returned[0].cards) == len(game.armut.cards)
                assert game.result is not None
            elif game.armut is not None and game.armut.taker is None:
                assert game.redeal is Redeal.ARMUT_DECLINED
    assert kinds["ArmutOffer"] and kinds["TakeArmut"] and kinds["ReturnCards"], kinds


def test_the_heuristic_offers_a_poor_hand_and_a_strong_hand_takes_it() -> None:
    seed, poor = poor_seed(ARMUT, 0, strong_other=True)
    game = Game(Deal.shuffled(seed, dealer=(poor + 3) % 4, ruleset=ARMUT))
    h = HeuristicStrategy()
    while game.phase is not Phase.PLAY and not game.finished:
        seat = game.to_act()
        assert seat is not None
        game.apply(h.choose(player_view(game, seat), random.Random(seat)))
    if wants_armut(player_view(game, poor)) or game.armut is not None:
        assert game.armut is not None and game.armut.poor == poor
        assert game.armut.taker is not None
        assert len(armut_trumps(game.deal.hands[game.armut.taker])) >= 7


def test_the_return_is_the_cheapest_plain_cards() -> None:
    hand = [Card.CQ, Card.H10, Card.DJ, Card.D9, Card.CA, Card.C9, Card.SK, Card.S9, Card.HA]
    order = Contract.NORMAL.order
    assert sorted(armut_return(hand, 3, order)) == sorted([Card.C9, Card.S9, Card.SK])
    # No plain card left: the weakest trumps go.
    trumps = [Card.CQ, Card.H10, Card.DJ, Card.D9, Card.DK]
    assert sorted(armut_return(trumps, 2, order)) == sorted([Card.D9, Card.DK])


def test_a_hand_that_may_be_thrown_in_is_thrown_in() -> None:
    ruleset = Ruleset(schmeissen=frozenset(SchmeissenReason))
    seen = 0
    for seed in range(300):
        game = Game(Deal.shuffled(seed, dealer=0, ruleset=ruleset))
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        if not schmeissen_reasons(view.hand, ruleset):
            continue
        action = HeuristicStrategy().choose(view, random.Random(seed))
        assert action == Schmeissen(seat) or view.own_declaration is None
        seen += action == Schmeissen(seat)
        game.apply(action)
        assert action in view.legal
    assert seen >= 3


def test_the_view_order_is_used_for_schweinchen() -> None:
    ruleset = Ruleset(schweinchen=True)
    for seed in range(200):
        game = Game(Deal.shuffled(seed, dealer=3, ruleset=ruleset))
        holder = next((s for s in range(4) if game.hands[s].count(Card.DA) == 2), None)
        if holder is None:
            continue
        while game.phase is not Phase.PLAY and not game.finished:
            seat = game.to_act()
            assert seat is not None
            game.apply(player_view(game, seat).legal[0])
        if game.schweinchen is None:
            continue
        view = player_view(game, holder)
        assert view.order.trumps_high_to_low[0] == Card.DA
        assert view.hand[0] == Card.DA
        # The Monte-Carlo tables rank the Karo-Ass above the Dulle, as the view does (trump
        # bits go from the weakest up).
        tables = Knowledge(view).tables
        assert tables.low_bit[int(Card.DA)] > tables.low_bit[int(Card.H10)]
        # Another seat does not know it yet: its tables keep the normal order.
        other = player_view(game, (holder + 1) % 4)
        if other.schweinchen is None:
            t2 = Knowledge(other).tables
            assert t2.low_bit[int(Card.DA)] < t2.low_bit[int(Card.H10)]
        return
    raise AssertionError("no Schweinchen dealt")


def test_same_seed_same_game_with_house_rules() -> None:
    for ruleset in (PRESETS["stammtisch"], PRESETS["online"]):
        seed, poor = poor_seed(ruleset.replace(armut=True), 5)
        deal = Deal.shuffled(seed, dealer=(poor + 3) % 4, ruleset=ruleset)
        logs = []
        for _ in range(2):
            seats: list[Strategy] = [small_mc(), get_strategy("heuristic"), small_mc(), small_mc()]
            logs.append(play_game(deal, seats, "fixed").actions)
        assert logs[0] == logs[1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_arena_smoke_run_under_each_preset(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = json.dumps(PRESETS[preset].to_dict())
    argv = ["--strategies", "heuristic,random", "--deals", "20", "--rules", rules, "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 20 and out["rules"] == PRESETS[preset].to_dict()
    h, r = out["strategies"]["heuristic"], out["strategies"]["random"]
    assert h["points_per_game"] == pytest.approx(-r["points_per_game"])
