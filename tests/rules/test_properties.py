"""Properties of random legal games of every contract (Hypothesis)."""

from __future__ import annotations

import ast
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.calls import Party
from bot.rules.cards import CARDS, Card, deal_hands, deck, parse_card
from bot.rules.contracts import Contract
from bot.rules.game import Deal, Game, IllegalActionError, Phase, Play, Trick, replay
from bot.rules.records import (
    game_record_from_dict,
    game_record_to_dict,
    game_summary,
    replay_record,
)
from bot.rules.ruleset import Ruleset
from bot.rules.view import player_view
from tests.rules.helpers import CONTRACT_TARGETS, deal_for, play_random, random_game

seeds = st.integers(min_value=0, max_value=2**32)
targets = st.sampled_from(CONTRACT_TARGETS)


@settings(max_examples=150, deadline=None)
@given(target=targets, seed=seeds)
def test_random_game_invariants(target: Contract, seed: int) -> None:
    game = random_game(target, seed)
    assert game.finished and game.result is not None
    assert len(game.tricks) == 12
    played = Counter(c for t in game.tricks for c in t.cards)
    assert played == Counter(deck())
    assert sum(t.augen for t in game.tricks) == 240
    result = game.result
    assert result.re_augen + result.kontra_augen == 240
    assert sum(result.scores) == 0
    assert len({s % 2 for s in result.scores}) == 1
    assert all(not h for h in game.hands)
    # the contract came out as steered (a Hochzeit may fail)
    if target is Contract.HOCHZEIT:
        assert game.contract in (Contract.HOCHZEIT, Contract.HOCHZEIT_FAILED)
    else:
        assert game.contract is target
    re_count = sum(p is Party.RE for p in game.parties)
    assert re_count == (1 if game.contract.scored_as_solo else 2)


@settings(max_examples=40, deadline=None)
@given(target=targets, seed=seeds, cut=st.integers(0, 48))
def test_played_by_matches_the_tricks(target: Contract, seed: int, cut: int) -> None:
    full = random_game(target, seed)
    game = replay(full.deal, full.actions[: len(full.actions) - 48 + cut])
    tricks = [*game.tricks, Trick(game.leader, tuple(game.current))]
    for card in CARDS:
        want = [t.seats[i] for t in tricks for i, c in enumerate(t.cards) if c == card]
        assert game.played_by(card) == want


@settings(max_examples=60, deadline=None)
@given(target=targets, seed=seeds)
def test_replay_equals_live_state(target: Contract, seed: int) -> None:
    game = random_game(target, seed, stop_after=random.Random(seed).randrange(80))
    again = replay(game.deal, list(game.actions))
    assert game_summary(again) == game_summary(game)
    assert again.hands == game.hands
    assert again.to_act() == game.to_act()
    for seat in range(4):
        assert again.legal_actions(seat) == game.legal_actions(seat)


@settings(max_examples=60, deadline=None)
@given(target=targets, seed=seeds)
def test_record_round_trip(target: Contract, seed: int) -> None:
    game = random_game(target, seed)
    data = game_record_to_dict(game)
    record = game_record_from_dict(data)
    again, error = replay_record(record)
    assert error is None
    assert game_summary(again) == game_summary(game)
    assert game_record_to_dict(again) == data


@settings(max_examples=40, deadline=None)
@given(target=targets, seed=seeds)
def test_views_never_show_another_hand(target: Contract, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(deal_for(target, seed, dealer=rng.randrange(4)))
    while not game.finished:
        public = [c for t in game.tricks for c in t.cards] + list(game.current)
        for seat in range(4):
            view = player_view(game, seat)
            assert sorted(view.hand) == sorted(game.hands[seat])
            assert sorted(view.played_cards()) == sorted(public)
            assert all(a.seat == seat for a in view.legal)
            if game.contract is Contract.STILLE_HOCHZEIT and seat != game.soloist:
                assert view.contract is Contract.NORMAL
                assert view.soloist is None
            if view.contract is not None and not game.finished:
                # whatever a view claims about parties must be true
                for s, p in enumerate(view.parties):
                    assert p is None or p is game.parties[s]
        play_random(game, rng, target, stop_after=1)


def test_stille_hochzeit_parties_stay_hidden_until_shown() -> None:
    for seed in range(30):
        game = random_game(Contract.STILLE_HOCHZEIT, seed, call_rate=0.0, stop_after=6)
        holder = game.soloist
        assert holder is not None
        for seat in range(4):
            if seat == holder:
                continue
            view = player_view(game, seat)
            shown = [s for s in range(4) if view.parties[s] is Party.RE]
            # only seats that played a Kreuz-Dame are known Re to outsiders
            for s in shown:
                assert any(
                    c == Card.CQ and ps == s
                    for t in (*game.tricks,)
                    for ps, c in zip(t.seats, t.cards, strict=True)
                ) or (s == holder and Card.CQ in game.current)


@given(seed=seeds, dealer=st.integers(0, 3))
def test_same_seed_same_deal(seed: int, dealer: int) -> None:
    a = Deal.shuffled(seed, dealer)
    b = Deal.shuffled(seed, dealer)
    assert a == b
    assert sorted(c for h in a.hands for c in h) == deck()
    # shuffled skips the card check of the constructor, but builds the same deal.
    assert a == Deal(a.hands, a.dealer, a.round, a.ruleset, a.seed, a.bock)


@given(seed=st.integers(-(2**70), 2**70))
def test_the_deal_is_random_shuffle(seed: int) -> None:
    """The deal is ``random.Random(seed).shuffle`` of the sorted deck, dealt in four parts."""
    cards = deck()
    random.Random(seed).shuffle(cards)
    assert deal_hands(random.Random(seed)) == tuple(
        tuple(sorted(cards[i * 12 : (i + 1) * 12])) for i in range(4)
    )


def test_a_seed_keeps_its_hands() -> None:
    """Stored games name only their seed's deal: its hands must never change."""
    first = Deal.shuffled(2026).hands[0]
    assert " ".join(c.code for c in first) == "CA CK CK SA SK S9 HA HA H10 HK D9 D9"
    without_nines = Deal.shuffled(2026, ruleset=Ruleset(with_nines=False))
    assert " ".join(c.code for c in without_nines.hands[3]) == "CQ CQ SK HA HQ HJ DA D10 DQ DJ"


@pytest.mark.parametrize(("dealer", "bock"), [(4, 1), (-1, 1), (0, 0)])
def test_shuffled_checks_dealer_and_bock(dealer: int, bock: int) -> None:
    with pytest.raises(ValueError):
        Deal.shuffled(1, dealer, bock=bock)


def test_card_notation_round_trips() -> None:
    for card in CARDS:
        assert parse_card(card.code) is card
        assert parse_card(card.code.lower()) is card
        assert str(card) == card.code
    assert len({c.code for c in CARDS}) == 24


def test_rules_core_imports_only_stdlib_and_itself() -> None:
    root = Path(__file__).resolve().parents[2] / "bot" / "rules"
    allowed = set(sys.stdlib_module_names) | {"bot"}
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in allowed, f"{path.name} imports {name}"
                if top == "bot":
                    assert name.startswith("bot.rules"), f"{path.name} imports {name}"


@pytest.mark.parametrize("bad", ["CQ", None, [1], 99, -1, 2.5])
def test_play_refuses_what_is_not_a_card(bad: object) -> None:
    """Values that are no card kind get ``validate``'s reason, and nothing changes."""
    game = random_game(Contract.NORMAL, 7, stop_after=4, call_rate=0.0)
    assert game.phase is Phase.PLAY
    seat = game.to_act()
    assert seat is not None
    before = ([list(h) for h in game.hands], game.action_count)
    with pytest.raises(IllegalActionError) as refused:
        game.play(seat, bad)  # type: ignore[arg-type]
    assert refused.value.reason == "card_not_in_hand"
    assert ([list(h) for h in game.hands], game.action_count) == before


def test_play_takes_a_card_number() -> None:
    """A card's int value plays that card, and the log holds the Card."""
    game = random_game(Contract.NORMAL, 7, stop_after=4, call_rate=0.0)
    seat = game.to_act()
    assert seat is not None
    card = game.legal_cards(seat)[0]
    game.play(seat, int(card))  # type: ignore[arg-type]
    assert game.actions[-1] == Play(seat, card)
    assert type(game.actions[-1].card) is Card
    assert game.current == [card]


@given(seed=seeds)
def test_a_deal_keeps_its_hands_sorted(seed: int) -> None:
    """A hand is a set of cards: a Deal sorts what it is given, and a game starts from it."""
    shuffled = Deal.shuffled(seed)
    rng = random.Random(seed)
    mixed = tuple(tuple(rng.sample(h, len(h))) for h in shuffled.hands)
    deal = Deal(mixed, shuffled.dealer, seed=seed)
    assert deal == shuffled
    assert all(list(h) == sorted(h) for h in deal.hands)
    assert Game(deal).hands == [sorted(h) for h in mixed]
