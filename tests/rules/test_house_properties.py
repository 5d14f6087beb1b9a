"""The random-game properties under every preset and every house-rule flag on its own."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.calls import Party
from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    Announce,
    Deal,
    Declare,
    Game,
    IllegalActionError,
    Phase,
    Play,
    Reserve,
    legal_cards,
    replay,
    trick_winner_index,
)
from bot.rules.records import (
    game_record_from_dict,
    game_record_to_dict,
    game_summary,
    replay_record,
)
from bot.rules.round import FiveSeating, RoundContext
from bot.rules.ruleset import Ruleset
from bot.rules.view import player_view, public_view
from tests.rules.helpers import house_rulesets, play_any

RULESETS = house_rulesets()


def start(ruleset: Ruleset, seed: int) -> tuple[Game, random.Random]:
    rng = random.Random(seed)
    bock = rng.choice((1, 1, 2, 4)) if ruleset.bock else 1
    deal = Deal.shuffled(seed, dealer=rng.randrange(4), ruleset=ruleset, bock=bock)
    return Game(deal), rng


def check_views(game: Game) -> None:
    public = [c for t in game.tricks for c in t.cards] + list(game.current)
    pv = public_view(game)
    assert sorted(c for t in pv.tricks for c in t.cards) + sorted(pv.current_trick) == sorted(
        c for t in game.tricks for c in t.cards
    ) + sorted(game.current)
    for seat in range(4):
        view = player_view(game, seat)
        assert sorted(view.hand) == sorted(game.hands[seat])
        assert sorted(view.played_cards()) == sorted(public)
        assert all(a.seat == seat for a in view.legal)
        for s, p in enumerate(view.parties):
            assert p is None or p is game.parties[s]
        # Schweinchen: known to the holder, to everyone once a Karo-Ass is out, else hidden.
        if view.schweinchen is not None:
            assert view.schweinchen == game.schweinchen
            assert seat == game.schweinchen or Card.DA in public or game.finished
        elif game.schweinchen is not None:
            assert seat != game.schweinchen and Card.DA not in public
        # Armut cards: only the two players of the exchange see them.
        a = game.armut
        if view.received:
            assert a is not None and seat in (a.poor, a.taker)


def check_tricks(game: Game) -> None:
    """Every trick goes to the seat of its winning card under the contract's card order
    (Schweinchen and the Dulle rule included), and scoring counts Re's tricks and Augen.
    """
    if game.redeal is not None or game.contract is None:
        return
    order = game.contract.card_order(game.schweinchen is not None)
    for number, trick in enumerate(game.tricks, start=1):
        last = number == game.rules.tricks
        index = trick_winner_index(order, trick.cards, last, game.rules.dulle_tie)
        assert trick.winner == trick.seats[index]
    re_tricks = [
        t for t in game.tricks if t.winner is not None and game.parties[t.winner] is Party.RE
    ]
    facts = game.score_facts()
    assert (facts.re_augen, facts.re_tricks) == (sum(t.augen for t in re_tricks), len(re_tricks))


@pytest.mark.parametrize(("name", "ruleset"), RULESETS, ids=[n for n, _ in RULESETS])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_game_under_house_rules(name: str, ruleset: Ruleset, seed: int) -> None:
    game, rng = start(ruleset, seed)
    views_at = rng.randrange(4 * ruleset.tricks + 10)
    steps = 0
    while not game.finished:
        play_any(game, rng, stop_after=1)
        steps += 1
        if steps == views_at:
            check_views(game)
    check_views(game)
    # replay equals the live state, and the record round-trips
    again = replay(game.deal, list(game.actions))
    assert game_summary(again) == game_summary(game)
    data = game_record_to_dict(game)
    back, error = replay_record(game_record_from_dict(data))
    assert error is None and game_record_to_dict(back) == data
    assert game_summary(back) == game_summary(game)
    if game.redeal is not None:
        assert game.result is None and not game.tricks
        assert game.next_dealer() == game.dealer
        assert game.next_round() == game.deal.round
        assert game.phase is Phase.FINISHED and game.legal_actions(game.dealer) == []
        return
    result = game.result
    assert result is not None
    assert len(game.tricks) == ruleset.tricks
    assert Counter(c for t in game.tricks for c in t.cards) == Counter(deck(ruleset.with_nines))
    assert sum(t.augen for t in game.tricks) == 240
    assert sum(result.scores) == 0
    assert len({s % 2 for s in result.scores}) == 1
    assert result.multiplier % game.deal.bock == 0
    re_count = sum(p is Party.RE for p in game.parties)
    assert re_count == (1 if game.contract and game.contract.scored_as_solo else 2)
    if game.armut is not None:
        a = game.armut
        assert a.taker is not None and a.returned is not None
        assert {s for s in range(4) if game.parties[s] is Party.RE} == {a.poor, a.taker}
        assert game.contract is Contract.NORMAL
    if not ruleset.stille_hochzeit_enabled:
        assert game.contract is not Contract.STILLE_HOCHZEIT
    if not ruleset.schweinchen:
        assert game.schweinchen is None
    check_tricks(game)
    if ruleset.players == 5:
        seating = FiveSeating(dealer=seed % 5)
        five = seating.scores(result.scores)
        assert five[seating.dealer] == 0 and sum(five) == 0
        assert sorted(five) == sorted((0, *result.scores))


def test_every_house_rule_path_is_reached() -> None:
    """The random driver reaches Armut taken and declined, Schmeißen and Schweinchen."""
    seen: set[str] = set()
    rules = dict(RULESETS)
    rules["armut"] = Ruleset(armut=True, armut_max_trumps=5, solos_enabled=False)
    for seed in range(400):
        for name in ("armut", "schmeissen", "schweinchen"):
            game, rng = start(rules[name], seed)
            play_any(game, rng, reserve_rate=0.8)
            if game.redeal is not None:
                seen.add(str(game.redeal))
            if game.armut is not None and game.armut.taker is not None:
                seen.add("armut_taken")
            if game.schweinchen is not None:
                seen.add("schweinchen")
        if len(seen) == 4:
            break
    assert seen == {"armut_declined", "armut_taken", "schmeissen", "schweinchen"}


def test_play_is_refused_outside_the_play_phase_under_armut() -> None:
    rules = Ruleset(armut=True, armut_max_trumps=5, solos_enabled=False)
    for seed in range(200):
        game, rng = start(rules, seed)
        play_any(game, rng, reserve_rate=1.0, stop_after=8)
        if game.phase is Phase.ARMUT:
            seat = game.to_act()
            assert seat is not None
            assert not game.is_legal(Play(seat, game.hands[seat][0]))
            return
    raise AssertionError("no Armut phase reached")


@settings(max_examples=80, deadline=None)
@given(index=st.integers(0, len(RULESETS) - 1), seed=st.integers(0, 2**32))
def test_play_refuses_exactly_what_the_card_rules_forbid(index: int, seed: int) -> None:
    """``play`` and ``legal_cards`` against the card-by-card rules of following suit.

    At every turn of random games, every card kind for every seat: ``play`` accepts it
    exactly when the seat is on turn, holds it and follows the led class if it can
    (``legal_cards`` of the card order); a refused card changes nothing.
    """
    _, ruleset = RULESETS[index]
    game, rng = start(ruleset, seed)
    play_any(game, rng, stop_after=12)  # through the Vorbehaltsabfrage (and any Armut)
    while game.phase is Phase.PLAY:
        turn = game.to_act()
        current = game.current
        led = current[0] if current else None
        for seat in range(4):
            hand = list(game.hands[seat])
            allowed = set(legal_cards(game.order, hand, led)) if seat == turn else set()
            assert sorted(game.legal_cards(seat)) == sorted(c for c in hand if c in allowed), (
                seat,
                turn,
            )
            for card in set(Card):
                assert game.is_legal(Play(seat, card)) == (card in allowed)
                if card in allowed:
                    continue
                before = ([list(h) for h in game.hands], list(game.current), len(game.actions))
                with pytest.raises(IllegalActionError):
                    game.play(seat, card)
                assert ([list(h) for h in game.hands], list(game.current), len(game.actions)) == (
                    before
                )
        assert turn is not None
        options = game.legal_cards(turn)
        game.play(turn, options[rng.randrange(len(options))])
    assert game.finished


@settings(max_examples=80, deadline=None)
@given(index=st.integers(0, len(RULESETS) - 1), seed=st.integers(0, 2**32))
def test_vorbehalt_turns_accept_exactly_the_legal_actions(index: int, seed: int) -> None:
    """``apply`` accepts exactly what ``legal_actions`` offers; ``validate`` gives the reasons.

    At every step of random Vorbehaltsabfragen (a Pflichtsolo round now and then, so that a
    seat is vorgeführt), every Reserve and Declare of every seat: ``apply`` accepts exactly
    what ``legal_actions`` offers, a refused one raises ``validate``'s reason and changes
    nothing.
    """
    _, ruleset = RULESETS[index]
    rng = random.Random(seed)
    done = tuple(rng.random() < 0.5 for _ in range(4))
    round = RoundContext(rng.randrange(1, 5), done) if rng.random() < 0.5 else None  # type: ignore[arg-type]
    game = Game(Deal.shuffled(seed, dealer=rng.randrange(4), round=round, ruleset=ruleset))
    candidates: list[Reserve | Declare] = [Reserve(s, r) for s in range(4) for r in (False, True)]
    candidates += [Declare(s, c) for s in range(4) for c in Contract]
    while game.phase in (Phase.VORBEHALT, Phase.DECLARE):
        offered = {a for s in range(4) for a in game.legal_actions(s)}
        for action in candidates:
            if action in offered:
                continue
            with pytest.raises(IllegalActionError) as refused:
                game.validate(action)
            state = (list(game.reservations), dict(game.declarations), game.phase)
            count, turn = len(game.actions), game.to_act()
            with pytest.raises(IllegalActionError) as applied:
                game.apply(action)
            assert applied.value.reason == refused.value.reason, action
            assert (list(game.reservations), dict(game.declarations), game.phase) == state
            assert (len(game.actions), game.to_act()) == (count, turn)
        mine: list[Reserve | Declare] = [a for a in offered if isinstance(a, Reserve | Declare)]
        if not mine:
            break  # Schmeißen or an Armut offer is all that is left: not these branches
        action = mine[rng.randrange(len(mine))]
        game.apply(action)
        assert game.actions[-1] is action


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, len(RULESETS) - 1), seed=st.integers(0, 2**32))
def test_actions_are_the_applied_actions_in_order(index: int, seed: int) -> None:
    """``actions`` merges the logged actions with the plays kept in the tricks: after every
    step it is exactly what was applied, Ansagen out of turn included, in order.
    """
    _, ruleset = RULESETS[index]
    game, rng = start(ruleset, seed)
    applied: list[Action] = []
    while not game.finished:
        options = [a for s in range(4) for a in game.legal_actions(s)]
        calls: list[Action] = [a for a in options if isinstance(a, Announce)]
        if not calls or rng.random() < 0.7:
            options = [a for a in options if not isinstance(a, Announce)]
        else:
            options = calls
        action = options[rng.randrange(len(options))]
        game.apply(action)
        applied.append(action)
        assert game.action_count == len(applied)
        assert game.actions == applied
