"""Spielanalyse and Tipp: weaker play shows more and larger mistakes; hidden cards never matter."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.ai import get_strategy
from bot.ai.analysis import THRESHOLD, Analysis, Mistake, Tip, analyse, tip
from bot.ai.contract import HouseOption
from bot.arena import play_game
from bot.render.analyse import analysis_text, tip_text
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    Deal,
    Declare,
    Game,
    Phase,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)
from bot.rules.records import GameRecord
from bot.rules.ruleset import DDV, Ruleset, SchmeissenReason
from bot.rules.view import PlayerView, player_view, seat_decisions

from .helpers import STRONG, armut_offered_to

GAMES = 6


def analysed(level: str) -> list[Analysis]:
    """Every seat of ``GAMES`` fixed deals played by four AIs of ``level``."""
    out: list[Analysis] = []
    for seed in range(GAMES):
        seats = [get_strategy(level) for _ in range(4)]
        game = play_game(Deal.shuffled(7100 + seed, dealer=seed % 4), seats, f"analyse{seed}")
        record = GameRecord(game.deal, tuple(game.actions))
        out.extend(
            analyse(seat_decisions(record.deal, record.actions, seat), seed) for seat in range(4)
        )
    return out


def test_a_weaker_level_shows_more_and_larger_mistakes() -> None:
    leicht, mittel = analysed("leicht"), analysed("mittel")
    given = {k: sum(a.given_away for a in v) / len(v) for k, v in (("l", leicht), ("m", mittel))}
    mistakes = {k: sum(len(a.mistakes) for a in v) for k, v in (("l", leicht), ("m", mittel))}
    worst = {
        k: max((m.loss for a in v for m in a.mistakes), default=0.0)
        for k, v in (("l", leicht), ("m", mittel))
    }
    assert given["l"] > 3 * given["m"] and given["l"] > 1.0, given
    assert mistakes["l"] > 3 * max(1, mistakes["m"]), mistakes
    assert worst["l"] > worst["m"], worst
    for a in leicht + mittel:
        assert a.complete and 0 < a.decisions <= 12 and 0 <= a.agreed <= a.decisions
        assert all(m.loss >= THRESHOLD for m in a.mistakes)
        assert all(m.suggested != m.played for m in a.mistakes)


def test_random_play_is_rated_worse_than_mittel() -> None:
    seeds = range(3)
    random_loss = mittel_loss = 0.0
    for seed in seeds:
        deal = Deal.shuffled(7200 + seed)
        for level in ("random", "mittel"):
            game = play_game(deal, [get_strategy(level) for _ in range(4)], f"r{seed}")
            record = GameRecord(game.deal, tuple(game.actions))
            loss = sum(
                analyse(seat_decisions(record.deal, record.actions, s), seed).given_away
                for s in range(4)
            )
            if level == "random":
                random_loss += loss
            else:
                mittel_loss += loss
    assert random_loss > 3 * mittel_loss, (random_loss, mittel_loss)


def other_hands_shuffled(deal: Deal, keep: int, seed: int) -> Deal:
    """The same hand for seat ``keep``; the other 30 cards dealt anew."""
    rest = [c for s, h in enumerate(deal.hands) if s != keep for c in h]
    random.Random(seed).shuffle(rest)
    size = len(deal.hands[keep])
    hands: list[tuple[Card, ...]] = []
    i = 0
    for s in range(4):
        if s == keep:
            hands.append(deal.hands[keep])
        else:
            hands.append(tuple(rest[i : i + size]))
            i += size
    return Deal(tuple(hands), deal.dealer)


def first_lead(deal: Deal, card: Card, seat: int) -> list[tuple[PlayerView, Action]]:
    game = Game(deal)
    while game.phase is Phase.VORBEHALT:
        who = game.to_act()
        assert who is not None
        game.apply(Reserve(who, False))
    leader = game.to_act()
    assert leader is not None
    game.apply(Play(leader, card))
    assert leader == seat
    return seat_decisions(deal, game.actions, seat)


def test_the_other_hands_do_not_change_the_analysis() -> None:
    deal = Deal.shuffled(7300, dealer=3)
    leader = 0
    if deal.hands[leader].count(Card.CQ) == 2:
        deal = Deal.shuffled(7301, dealer=3)
    # Every lead of the hand: the rating of each must come from the seat's own view alone.
    for card in deal.hands[leader]:
        ours = analyse(first_lead(deal, card, leader), seed=5)
        theirs = analyse(first_lead(other_hands_shuffled(deal, leader, 9), card, leader), seed=5)
        assert ours == theirs


def test_a_tip_is_a_legal_action_with_its_reason() -> None:
    game = Game(Deal.shuffled(7400))
    rng = random.Random(1)
    reasons = set()
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        suggestion = tip(view, seed=game.action_count)
        assert suggestion.action in view.legal
        reasons.add(suggestion.reason)
        if suggestion.reason == "best_card":
            assert suggestion.expected is not None and suggestion.runner_up is not None
            assert suggestion.runner_up_expected is not None
            assert suggestion.expected >= suggestion.runner_up_expected
        game.apply(get_strategy("leicht").choose(view, rng))
    assert {"rule_of_thumb", "best_card", "only_card"} <= reasons


DAMEN = [Card.CQ, Card.SQ, Card.SQ, Card.HQ, Card.HQ, Card.DQ, Card.DQ]
DAMEN += [Card.CA, Card.CA, Card.SA, Card.SA, Card.HA]
WEAK = [Card.D9, Card.D9, Card.C9, Card.C9, Card.S9, Card.SK]
WEAK += [Card.HK, Card.H9, Card.DK, Card.DJ, Card.SJ, Card.HQ]


def holding(hand: list[Card], rules: Ruleset = DDV) -> Game:
    """A game in which seat 0, first to speak, holds ``hand`` (the rest dealt in order)."""
    rest = [c for h in Deal.shuffled(1).hands for c in h]
    for c in hand:
        rest.remove(c)
    others = [tuple(rest[k : k + 12]) for k in (0, 12, 24)]
    return Game(Deal((tuple(hand), *others), dealer=3, ruleset=rules))


def test_the_tip_at_the_vorbehalt_is_the_contract_search_with_its_expectation() -> None:
    game = holding(DAMEN)
    suggestion = tip(player_view(game, 0), seed=1)
    assert suggestion.action == Reserve(0, True)
    assert suggestion.reason == "contract" and suggestion.contract is Contract.SOLO_DAMEN
    assert suggestion.other is not None
    assert suggestion.expected is not None and suggestion.runner_up_expected is not None
    assert suggestion.expected > suggestion.runner_up_expected
    for seat in range(4):
        game.apply(Reserve(seat, seat == 0))
    named = tip(player_view(game, 0), seed=1)
    assert named.action == Declare(0, Contract.SOLO_DAMEN) and named.reason == "contract"


def test_a_contract_tip_in_words() -> None:
    reserve = Tip(Reserve(0, True), "contract", 14.5, None, 1.5, None)
    reserve = replace(reserve, contract=Contract.SOLO_DAMEN, other=Contract.NORMAL)
    assert tip_text(reserve, "de") == (
        "Tipp: **Vorbehalt** (Damensolo) – erwartet 14,5 Punkte für dich; Normalspiel erwartet 1,5."
    )
    assert tip_text(reserve, "en") == (
        "Tip: **Vorbehalt**: Damen solo (queens) – 14.5 points expected for you; Normal game, 1.5."
    )
    # Naming the contract itself: no need to say it twice.
    declare = replace(reserve, action=Declare(0, Contract.SOLO_DAMEN))
    assert tip_text(declare, "de").startswith("Tipp: **Damensolo** – erwartet 14,5")


def test_a_hand_not_worth_searching_gets_the_rule_of_thumb() -> None:
    suggestion = tip(player_view(holding(WEAK), 0))
    assert suggestion.action == Reserve(0, False) and suggestion.reason == "rule_of_thumb"


def vorbehalt_then_leicht(game: Game, own: list[Action]) -> list[tuple[PlayerView, Action]]:
    """Seat 0 answers the Vorbehalt with ``own``, the others stay gesund, leicht plays on."""
    rng = random.Random(3)
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        if game.phase in (Phase.VORBEHALT, Phase.DECLARE):
            action = own.pop(0) if seat == 0 else Reserve(seat, False)
        else:
            action = get_strategy("leicht").choose(view, rng)
        game.apply(action)
    return seat_decisions(game.deal, game.actions, 0)


def test_a_solo_left_unplayed_is_a_contract_mistake() -> None:
    gesund = analyse(vorbehalt_then_leicht(holding(DAMEN), [Reserve(0, False)]), seed=2)
    (mistake,) = [m for m in gesund.mistakes if m.kind == "contract"]
    assert (mistake.played, mistake.suggested) == (Contract.NORMAL, Contract.SOLO_DAMEN)
    assert mistake.loss >= 5
    assert gesund.given_away >= mistake.loss
    solo = [Reserve(0, True), Declare(0, Contract.SOLO_DAMEN)]
    played = analyse(vorbehalt_then_leicht(holding(DAMEN), solo), seed=2)
    assert not [m for m in played.mistakes if m.kind == "contract"]
    # The contract is one more rated decision: the same cards, one more choice.
    assert played.decisions >= 1 and played.agreed >= 1


def test_a_weak_hand_gesund_is_not_rated() -> None:
    gesund = analyse(vorbehalt_then_leicht(holding(WEAK), [Reserve(0, False)]), seed=2)
    assert not [m for m in gesund.mistakes if m.kind == "contract"]


def test_a_contract_mistake_in_words() -> None:
    mistake = Mistake("contract", 0, 0, Contract.NORMAL, Contract.SOLO_DAMEN, 6.3)
    analysis = Analysis(0, 12, 9, 7.5, (mistake,), (), 20_000, complete=True)
    assert (
        "• Vorbehalt: du wähltest Normalspiel, die KI Damensolo (erwartet 6,3 Punkte besser)"
        in (analysis_text(analysis, "de"))
    )
    assert (
        "• Vorbehalt: you chose Normal game, the AI Damen solo (queens) (6.3 points better in "
        "expectation)" in analysis_text(analysis, "en")
    )


def test_a_strong_hand_thrown_in_is_a_contract_mistake() -> None:
    nines = [Card.C9, Card.C9, Card.S9, Card.S9, Card.H9, Card.H10, Card.H10]
    nines += [Card.CQ, Card.SQ, Card.SQ, Card.HQ, Card.HQ]
    rules = Ruleset(schmeissen=frozenset({SchmeissenReason.NEUNEN}))
    game = holding(nines, rules)
    game.apply(Schmeissen(0))
    assert game.finished and game.result is None  # dealt again
    analysis = analyse(seat_decisions(game.deal, game.actions, 0), seed=2)
    (mistake,) = analysis.mistakes
    assert mistake.kind == "contract" and mistake.played is HouseOption.SCHMEISSEN
    assert mistake.suggested is not HouseOption.SCHMEISSEN and mistake.loss >= 1
    assert analysis.decisions == 1 and analysis.agreed == 0


def test_house_rule_choices_in_words() -> None:
    mistake = Mistake("contract", 0, 0, HouseOption.SCHMEISSEN, Contract.NORMAL, 3.2)
    analysis = Analysis(0, 1, 0, 3.2, (mistake,), (), 2_400, complete=True)
    assert (
        "• Vorbehalt: du wähltest Schmeißen, die KI Normalspiel (erwartet 3,2 Punkte besser)"
        in (analysis_text(analysis, "de"))
    )
    offer = Tip(Reserve(0, True), "contract", 0.3, None, -1.8, None, HouseOption.ARMUT)
    offer = replace(offer, other=Contract.NORMAL)
    assert tip_text(offer, "de") == (
        "Tipp: **Vorbehalt** (Armut) – erwartet 0,3 Punkte für dich; Normalspiel erwartet -1,8."
    )
    assert tip_text(offer, "en") == (
        "Tip: **Vorbehalt**: Armut (a poor hand) – 0.3 points expected for you; Normal game, -1.8."
    )
    take = Tip(TakeArmut(1, True), "contract", 2.1, None, -0.4, other=TakeArmut(1, False))
    assert tip_text(take, "de") == (
        "Tipp: **Armut nehmen** – erwartet 2,1 Punkte für dich; Nicht nehmen erwartet -0,4."
    )
    assert tip_text(take, "en") == (
        "Tip: **Take the Armut** – 2.1 points expected for you; Decline, -0.4."
    )


def test_the_tip_on_an_armut_offered_is_the_search_s() -> None:
    game = armut_offered_to(STRONG)
    suggestion = tip(player_view(game, 1), seed=1)
    assert suggestion.action == TakeArmut(1, True) and suggestion.reason == "contract"
    assert suggestion.other == TakeArmut(1, False)
    assert suggestion.expected is not None and suggestion.runner_up_expected is not None
    assert suggestion.expected > suggestion.runner_up_expected


def test_an_expectation_just_below_zero_reads_as_zero() -> None:
    tiny = Tip(Reserve(0, False), "contract", -0.04, None, -6.7, None, Contract.NORMAL)
    tiny = replace(tiny, other=Contract.SOLO_KREUZ)
    assert "erwartet 0,0 Punkte für dich" in tip_text(tiny, "de")
    assert "– 0.0 points expected for you" in tip_text(tiny, "en")


def test_declining_an_armut_with_a_strong_hand_is_an_armut_mistake() -> None:
    game = armut_offered_to(STRONG)
    game.apply(TakeArmut(1, False))
    rng = random.Random(4)
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        game.apply(get_strategy("leicht").choose(player_view(game, seat), rng))
    analysis = analyse(seat_decisions(game.deal, game.actions, 1), seed=2)
    (mistake,) = [m for m in analysis.mistakes if m.kind == "armut"]
    assert (mistake.played, mistake.suggested) == (TakeArmut(1, False), TakeArmut(1, True))
    assert mistake.loss >= 1 and analysis.given_away >= mistake.loss


def test_armut_mistakes_and_the_return_tip_in_words() -> None:
    declined = Mistake("armut", 0, 0, TakeArmut(1, False), TakeArmut(1, True), 2.5)
    returned = ReturnCards(1, (Card.SA, Card.D9))
    better = Mistake("armut", 0, 0, returned, ReturnCards(1, (Card.D9, Card.DJ)), 0.7)
    analysis = Analysis(1, 3, 1, 3.2, (declined, better), (), 4_800, complete=True)
    de, en = analysis_text(analysis, "de"), analysis_text(analysis, "en")
    assert "• Armut: du nahmst sie nicht, die KI hätte sie genommen (erwartet 2,5 Punkte" in de
    assert "• Armut: du gabst ♠A ♦9 zurück, die KI ♦9 ♦B (erwartet 0,7 Punkte besser)" in de
    assert "• Armut: you declined it, the AI would have taken it (2.5 points better" in en
    assert "• Armut: you gave back ♠A ♦9, the AI ♦9 ♦J (0.7 points better in expectation)" in en
    tip_ = Tip(returned, "contract", 6.04, None, 5.78, other=ReturnCards(1, (Card.D9, Card.DJ)))
    assert tip_text(tip_, "de") == (
        "Tipp: **♠A ♦9** zurückgeben – erwartet 6,0 Punkte für dich; ♦9 ♦B zurückzugeben "
        "erwartet 5,8."
    )
    assert tip_text(tip_, "en") == (
        "Tip: give back **♠A ♦9** – 6.0 points expected for you; giving back ♦9 ♦J, 5.8."
    )


def test_the_tip_for_the_cards_to_return_is_the_search_s() -> None:
    game = armut_offered_to(STRONG)
    game.apply(TakeArmut(1, True))
    suggestion = tip(player_view(game, 1), seed=1)
    assert isinstance(suggestion.action, ReturnCards) and suggestion.reason == "contract"
    assert isinstance(suggestion.other, ReturnCards) and suggestion.other != suggestion.action
    assert suggestion.action in player_view(game, 1).legal


def test_a_taker_with_only_trumps_has_nothing_to_weigh() -> None:
    trumps = [Card.H10, Card.H10, Card.CQ, Card.CQ, Card.SQ, Card.SQ, Card.HQ, Card.HQ]
    trumps += [Card.DQ, Card.DQ, Card.CJ, Card.CJ]
    game = armut_offered_to(trumps)
    game.apply(TakeArmut(1, True))
    suggestion = tip(player_view(game, 1), seed=1)
    assert suggestion.reason == "rule_of_thumb" and isinstance(suggestion.action, ReturnCards)
    assert suggestion.action in player_view(game, 1).legal
