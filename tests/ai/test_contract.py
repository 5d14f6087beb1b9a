"""The contract search: Vorbehalt, Hochzeit and the solo chosen by playouts from the deal."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.ai.contract import (
    PFLICHT_THRESHOLDS,
    ContractRating,
    ContractSearch,
    HouseOption,
    Option,
    candidates,
    pflicht_threshold,
    rate_armut_return,
    rate_armut_take,
    rate_contracts,
    return_options,
)
from bot.ai.heuristic import armut_return
from bot.ai.montecarlo import MonteCarloStrategy
from bot.benchmarks.pflichtsolo import solos_in_rounds, thresholds
from bot.rules.cards import Card as C
from bot.rules.cards import deck
from bot.rules.contracts import Contract
from bot.rules.game import (
    ArmutOffer,
    Deal,
    Declare,
    Game,
    Phase,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)
from bot.rules.round import RoundContext
from bot.rules.ruleset import DDV, Ruleset, SchmeissenReason
from bot.rules.view import PlayerView, player_view
from tests.rules.helpers import house_rulesets

from .helpers import HOUSE, POOR, STRONG, armut_offered_to, play_out

DAMEN = [C.CQ, C.SQ, C.SQ, C.HQ, C.HQ, C.DQ, C.DQ, C.CA, C.CA, C.SA, C.SA, C.HA]
WEAK = [C.D9, C.D9, C.C9, C.C9, C.S9, C.SK, C.HK, C.H9, C.DK, C.DJ, C.SJ, C.HQ]


def game_with(
    hand: Sequence[C],
    ruleset: Ruleset = DDV,
    round: RoundContext | None = None,
    seat: int = 0,
) -> Game:
    """A game whose ``seat`` holds ``hand`` (the rest dealt at random), up to its first turn."""
    rest = list(deck(ruleset.with_nines))
    for c in hand:
        rest.remove(c)
    random.Random(5).shuffle(rest)
    size = ruleset.hand_size
    others = [rest[i * size : (i + 1) * size] for i in range(3)]
    hands = [others.pop() if s != seat else list(hand) for s in range(4)]
    game = Game(Deal(tuple(tuple(h) for h in hands), 3, round, ruleset))
    while game.phase is Phase.VORBEHALT and game.to_act() != seat:
        to_act = game.to_act()
        assert to_act is not None
        game.apply(Reserve(to_act, False))
    return game


def decide(game: Game, search: ContractSearch, seat: int = 0) -> list[object]:
    """The seat's answers until its contract is named (others stay gesund)."""
    out: list[object] = []
    while game.phase in (Phase.VORBEHALT, Phase.DECLARE):
        to_act = game.to_act()
        assert to_act is not None
        view = player_view(game, to_act)
        if to_act != seat:
            game.apply(Reserve(to_act, False))
            continue
        action = search.choose(view, random.Random(len(out)))
        assert action in view.legal
        out.append(action)
        game.apply(action)
    return out


def test_an_obvious_damensolo_is_chosen() -> None:
    game = game_with(DAMEN)
    assert decide(game, ContractSearch(budget=600)) == [
        Reserve(0, True),
        Declare(0, Contract.SOLO_DAMEN),
    ]
    assert game.contract is Contract.SOLO_DAMEN


def test_a_weak_hand_stays_gesund() -> None:
    game = game_with(WEAK)
    assert decide(game, ContractSearch(budget=600)) == [Reserve(0, False)]


def test_the_solo_is_rated_above_playing_normally() -> None:
    view = player_view(game_with(DAMEN), 0)
    options = candidates(view, vorgefuehrt=False)
    assert None in options and Contract.SOLO_DAMEN in options
    rating = rate_contracts(view, options, 900, random.Random(1), soloist_leads=False)
    assert rating.means[Contract.SOLO_DAMEN] > rating.means[None] + 3
    assert rating.best() is Contract.SOLO_DAMEN


def test_a_weak_hand_is_not_searched() -> None:
    assert candidates(player_view(game_with(WEAK), 0), vorgefuehrt=False) == [None]


def test_both_alten_in_a_weak_hand_make_a_hochzeit() -> None:
    hand = [C.CQ, C.CQ, C.D9, C.C9, C.C9, C.S9, C.SK, C.HK, C.H9, C.DK, C.DJ, C.SJ]
    game = game_with(hand)
    assert decide(game, ContractSearch(budget=600)) == [
        Reserve(0, True),
        Declare(0, Contract.HOCHZEIT),
    ]


def test_no_solo_when_solos_are_switched_off() -> None:
    view = player_view(game_with(DAMEN, Ruleset(solos_enabled=False)), 0)
    assert candidates(view, vorgefuehrt=False) == [None]
    game = game_with(DAMEN, Ruleset(solos_enabled=False))
    assert decide(game, ContractSearch(budget=600)) == [Reserve(0, False)]


def test_vorgefuehrt_names_a_solo() -> None:
    ctx = RoundContext(games_left=1, pflichtsolo_done=(False, True, True, True))
    game = game_with(WEAK, round=ctx)
    assert game.vorgefuehrt == 0 and game.phase is Phase.DECLARE
    (action,) = decide(game, ContractSearch(budget=600))
    assert isinstance(action, Declare) and action.contract.is_declared_solo


# A hand whose best solo searches about 4 points below playing it normally (3,000 playouts).
MIDDLING = [C.CA, C.S10, C.SK, C.SQ, C.SJ, C.SJ, C.S9, C.HA, C.HQ, C.HQ, C.H9, C.DQ]


def pflicht(games_left: int, others_done: bool = True) -> RoundContext:
    """A round in which seat 0 still owes its Pflichtsolo."""
    return RoundContext(games_left, (False, others_done, others_done, others_done))


def test_an_open_pflichtsolo_waits_early_for_a_better_hand_and_is_played_late() -> None:
    early = game_with(MIDDLING, round=pflicht(24))
    assert decide(early, ContractSearch()) == [Reserve(0, False)]
    # One game left after this one, and it would be vorgeführt: this hand is better.
    late = game_with(MIDDLING, round=pflicht(2))
    actions = decide(late, ContractSearch())
    assert actions[0] == Reserve(0, True)
    assert late.contract is not None and late.contract.is_declared_solo
    assert late.soloist == 0


def test_a_pflichtsolo_hand_is_searched_however_weak() -> None:
    view = player_view(game_with(WEAK, round=pflicht(24)), 0)
    options = candidates(view, vorgefuehrt=False)
    assert options[0] is None and sum(c is not None for c in options) == 3


def test_the_threshold_counts_the_games_still_free_to_choose() -> None:
    def threshold(ctx: RoundContext) -> float:
        return pflicht_threshold(player_view(game_with(WEAK, round=ctx), 0))

    assert threshold(pflicht(2)) == PFLICHT_THRESHOLDS[0]  # the next game is vorgeführt
    assert threshold(pflicht(12)) == PFLICHT_THRESHOLDS[10]
    # Two owe it: Vorführen starts with two games left.
    assert threshold(pflicht(12, others_done=False)) == PFLICHT_THRESHOLDS[7]
    assert threshold(pflicht(500)) == PFLICHT_THRESHOLDS[-1]


def test_waiting_is_worth_more_the_more_games_are_left() -> None:
    assert list(PFLICHT_THRESHOLDS) == sorted(PFLICHT_THRESHOLDS)
    # Solo means 0 and -10, others 0: vorgeführt is worth -5; one more chance max(d, -5).
    assert thresholds([0.0, -10.0], [0.0, 0.0], games=2) == [-5.0, -2.5, -1.25]
    # The other contract's mean counts twice at the start: the slot dealt again, and the
    # slot a vorgeführtes solo takes.
    assert thresholds([0.0], [1.0], games=0) == [-2.0]


def test_the_pflichtsolo_rule_compares_the_best_solo_with_the_best_other() -> None:
    rating = ContractRating(
        {None: 1.0, Contract.HOCHZEIT: 2.0, Contract.SOLO_DAMEN: -1.0, Contract.SOLO_BUBEN: -5.0},
        600,
    )
    assert rating.pflicht_now(-3.0) is Contract.SOLO_DAMEN  # a tie plays the solo
    assert rating.pflicht_now(-2.5) is Contract.HOCHZEIT
    assert rating.worth(-3.0)[None] == -2.0 and rating.worth(-3.0)[Contract.SOLO_DAMEN] == -1.0


def test_a_poor_hand_still_offers_its_armut() -> None:
    ruleset = Ruleset(armut=True)
    poor = [C.DJ, C.D9, C.C9, C.C9, C.CK, C.S9, C.SK, C.S10, C.HK, C.H9, C.HA, C.CA]
    game = game_with(poor, ruleset)
    actions = decide(game, ContractSearch(budget=600))
    assert actions[0] == Reserve(0, True)
    assert isinstance(actions[1], ArmutOffer)


def test_a_hand_that_may_be_thrown_in_is_thrown_in() -> None:
    ruleset = Ruleset(schmeissen=frozenset({SchmeissenReason.NEUNEN}))
    nines = [C.C9, C.C9, C.S9, C.S9, C.H9, C.DK, C.HK, C.SK, C.DJ, C.HA, C.CK, C.SA]
    game = game_with(nines, ruleset)
    assert decide(game, ContractSearch(budget=600)) == [Schmeissen(0)]


def test_the_reservation_named_is_the_one_searched_at_the_vorbehalt() -> None:
    search = ContractSearch(budget=300)
    game = game_with(DAMEN)
    view = player_view(game, 0)
    assert search.choose(view, random.Random(0)) == Reserve(0, True)
    wanted = search.chosen[0][2]
    game.apply(Reserve(0, True))
    decide(game, search)
    assert game.contract is wanted


@pytest.mark.parametrize(
    ("name", "ruleset"), house_rulesets(), ids=[n for n, _ in house_rulesets()]
)
def test_only_legal_actions_under_every_rule_variant(name: str, ruleset: Ruleset) -> None:
    def small() -> MonteCarloStrategy:
        return MonteCarloStrategy(playouts=40, contracts=ContractSearch(budget=120))

    for seed in range(3):
        rng = random.Random(seed)
        done = tuple(rng.random() < 0.5 for _ in range(4))
        ctx = RoundContext(rng.randrange(1, 5), done) if seed % 2 else None  # type: ignore[arg-type]
        game = Game(Deal.shuffled(seed + len(name), dealer=seed % 4, round=ctx, ruleset=ruleset))
        play_out(game, [small() for _ in range(4)], seed)
        assert game.finished


def test_views_are_what_the_search_reads() -> None:
    # The search looks at no hidden card: two deals with the same own hand rate alike.
    def rate(view: PlayerView) -> dict[Option, float]:
        options = candidates(view, vorgefuehrt=False)
        return rate_contracts(view, options, 300, random.Random(3), False).means

    a = player_view(game_with(DAMEN), 0)
    rest = list(deck())
    for c in DAMEN:
        rest.remove(c)
    random.Random(9).shuffle(rest)
    hands = (tuple(DAMEN), tuple(rest[:12]), tuple(rest[12:24]), tuple(rest[24:]))
    b = player_view(Game(Deal(hands, 3)), 0)
    assert rate(a) == rate(b)


def test_the_shipped_levels_search_the_contract() -> None:
    from bot.ai import get_strategy

    for level in ("mittel", "schwer"):
        strategy = get_strategy(level)
        assert isinstance(strategy, MonteCarloStrategy) and strategy.contracts is not None
        game = game_with(DAMEN)
        action = strategy.choose(player_view(game, 0), random.Random(0))
        assert action == Reserve(0, True)


def test_every_player_owes_one_pflichtsolo_a_round() -> None:
    solos = solos_in_rounds("leicht", 2, 1)
    owed = solos["pflicht"]["solos"] + solos.get("vorgefuehrt", {"solos": 0})["solos"]
    assert owed == 2 * 4
    assert 0 <= solos["pflicht"]["won"] <= 1 and 1 <= solos["pflicht"]["games_left"] <= 24


def test_a_strong_hand_that_may_be_thrown_in_is_played() -> None:
    # Five nines, but the Dullen and five Damen: worth far more than a redeal's 0.
    nines = [C.C9, C.C9, C.S9, C.S9, C.H9, C.H10, C.H10, C.CQ, C.SQ, C.SQ, C.HQ, C.HQ]
    view = player_view(game_with(nines, HOUSE), 0)
    rating = rate_contracts(view, candidates(view, False), 600, random.Random(1), False)
    assert rating.means[HouseOption.SCHMEISSEN] == 0.0
    assert rating.means[None] > 1.0
    assert Schmeissen(0) not in decide(game_with(nines, HOUSE), ContractSearch(budget=600))


def test_house_options_are_searched_only_where_the_rules_allow_them() -> None:
    # POOR has two trumps and five nines.
    house = candidates(player_view(game_with(POOR, HOUSE), 0), False)
    assert HouseOption.ARMUT in house and HouseOption.SCHMEISSEN in house
    armut_only = candidates(player_view(game_with(POOR, Ruleset(armut=True)), 0), False)
    assert HouseOption.ARMUT in armut_only and HouseOption.SCHMEISSEN not in armut_only
    assert candidates(player_view(game_with(POOR, DDV), 0), False) == [None]
    # Vorgeführt: only solos.
    assert candidates(player_view(game_with(POOR, HOUSE), 0), True) == candidates(
        player_view(game_with(POOR, DDV), 0), True
    )


def test_a_strong_hand_takes_the_armut_and_a_weak_one_declines() -> None:
    weak = [C.C10, C.C10, C.CK, C.SA, C.SK, C.S10, C.HK, C.H9, C.HA, C.SJ, C.DK, C.D10]
    search = ContractSearch(budget=600)
    for hand, take in ((STRONG, True), (weak, False)):
        view = player_view(armut_offered_to(hand), 1)
        took, declined = rate_armut_take(view, 600, random.Random(2))
        assert (took > declined) is take
        assert search.choose(view, random.Random(2)) == TakeArmut(1, take)


def test_the_returns_weighed_are_distinct_and_include_the_rule_of_thumb() -> None:
    hand = [*STRONG, C.DJ, C.D9, C.HK, C.H9]  # STRONG with two trumps taken, one plain swapped
    hand.remove(C.CJ)
    hand.remove(C.CJ)
    options = return_options(hand, 2)
    assert tuple(sorted(armut_return(hand, 2, Contract.NORMAL.order))) in options
    assert len(set(options)) == len(options) and all(len(o) == 2 for o in options)
    assert (C.H9, C.HK) in options or (C.HK, C.H9) in options  # Herz given back whole: a void
    assert tuple(sorted([C.D9, C.DJ])) in options  # the weakest trumps


def test_an_armut_is_taken_returned_and_played_to_the_end_by_the_search() -> None:
    game = armut_offered_to(STRONG)
    search = ContractSearch(budget=300)
    view = player_view(game, 1)
    game.apply(search.choose(view, random.Random(1)))
    assert game.armut is not None and game.armut.taker == 1
    view = player_view(game, 1)
    rated = rate_armut_return(view, 300, random.Random(2))
    assert set(rated) == set(return_options(view.hand, 2))
    action = search.choose(view, random.Random(2))
    assert isinstance(action, ReturnCards) and action.cards in rated
    game.apply(action)
    assert game.phase is Phase.PLAY and game.armut.returned == action.cards
    play_out(game, [MonteCarloStrategy(40, contracts=ContractSearch(budget=120))] * 4, 3)
    assert game.finished and game.result is not None


def test_an_armut_is_answered_and_returned_from_the_seat_s_own_view() -> None:
    # Other hands dealt otherwise, the same view: the same ratings.
    views = [player_view(armut_offered_to(STRONG, others), 1) for others in (1, 2)]
    assert views[0] == views[1]
    assert rate_armut_take(views[0], 200, random.Random(5)) == rate_armut_take(
        views[1], 200, random.Random(5)
    )
    taken = [armut_offered_to(STRONG, others) for others in (1, 2)]
    for game in taken:
        game.apply(TakeArmut(1, True))
    views = [player_view(game, 1) for game in taken]
    assert views[0] == views[1]
    assert rate_armut_return(views[0], 200, random.Random(5)) == rate_armut_return(
        views[1], 200, random.Random(5)
    )
