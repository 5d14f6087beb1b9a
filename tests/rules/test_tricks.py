"""Following suit and the trick winner, checked against the rules as players state them."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.rules.calls import Party
from bot.rules.cards import CARDS, Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import Phase, legal_cards, trick_winner_index
from bot.rules.ruleset import DulleTie
from bot.rules.tricks import second_dulle_wins
from tests.rules.helpers import random_game

ORDERS = [
    (contract, schweinchen)
    for contract in Contract
    for schweinchen in (False, True)
    if not schweinchen or contract.schweinchen_possible
]


def expected_winner(contract: Contract, schweinchen: bool, cards: list[Card], second: bool) -> int:
    """The highest trump wins, else the highest card of the led suit; of two equal cards the
    first, unless ``second`` (a house rule) lets the second Dulle win.
    """
    order = contract.card_order(schweinchen)
    trumps = [i for i, c in enumerate(cards) if order.is_trump(c)]
    led = cards[0]
    candidates = trumps or [i for i, c in enumerate(cards) if c.suit is led.suit]
    top = max(order.power[cards[i]] for i in candidates)
    best = [i for i in candidates if order.power[cards[i]] == top]
    if second and cards[best[0]] is Card.H10 and order.is_trump(Card.H10):
        return best[-1]
    return best[0]


@pytest.mark.parametrize(("contract", "schweinchen"), ORDERS)
def test_trick_winner(contract: Contract, schweinchen: bool) -> None:
    order = contract.card_order(schweinchen)
    rng = random.Random(f"{contract}{schweinchen}")
    cards = deck()
    for _ in range(1500):
        trick = rng.sample(cards, 4)
        if rng.random() < 0.2:  # both Dullen in one trick
            trick[rng.randrange(4)], trick[rng.randrange(4)] = Card.H10, Card.H10
        for tie, last in itertools.product(DulleTie, (False, True)):
            want = expected_winner(contract, schweinchen, trick, second_dulle_wins(tie, last))
            assert trick_winner_index(order, trick, last, tie) == want, (trick, tie, last)


@pytest.mark.parametrize(
    ("tie", "in_last_trick", "elsewhere"),
    [
        (DulleTie.FIRST_WINS, 0, 0),
        (DulleTie.SECOND_WINS, 2, 2),
        (DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK, 0, 2),
        (DulleTie.SECOND_WINS_ONLY_LAST_TRICK, 2, 0),
    ],
)
def test_both_dullen(tie: DulleTie, in_last_trick: int, elsewhere: int) -> None:
    order = Contract.NORMAL.order
    trick = [Card.H10, Card.DJ, Card.H10, Card.D9]
    assert trick_winner_index(order, trick, True, tie) == in_last_trick
    assert trick_winner_index(order, trick, False, tie) == elsewhere


@pytest.mark.parametrize(("contract", "schweinchen"), ORDERS)
def test_following_suit(contract: Contract, schweinchen: bool) -> None:
    """Trump led: play trump if you can; a plain suit led: play that suit (its cards that
    are not trump) if you can; otherwise any card (TSR 5.2).
    """
    order = contract.card_order(schweinchen)
    rng = random.Random(f"{contract}{schweinchen}")
    for _ in range(500):
        hand = sorted(rng.sample(deck(), 12))
        led = rng.choice(CARDS)
        if order.is_trump(led):
            must = [c for c in hand if order.is_trump(c)]
        else:
            must = [c for c in hand if c.suit is led.suit and not order.is_trump(c)]
        assert legal_cards(order, hand, led) == (must or hand)
        assert legal_cards(order, hand, None) == hand


def test_every_hochzeit_outcome() -> None:
    """Partner found in trick 1, 2 or 3, or none (a failed Hochzeit, TSR 4.4)."""
    seen: set[tuple[int, bool]] = set()
    for seed in range(400):
        game = random_game(Contract.HOCHZEIT, seed, call_rate=0.0)
        h = game.hochzeit
        assert h is not None and game.phase is Phase.FINISHED
        n = h.clarification_trick
        assert n is not None
        winners = [t.winner for t in game.tricks[:n]]
        if h.partner is None:
            assert winners == [h.hochzeiter] * 3
            assert game.contract is Contract.HOCHZEIT_FAILED and game.soloist == h.hochzeiter
        else:
            assert winners[:-1] == [h.hochzeiter] * (n - 1) and winners[-1] == h.partner
            re = {s for s in range(4) if game.parties[s] is Party.RE}
            assert re == {h.hochzeiter, h.partner}
        seen.add((n, h.partner is None))
        if len(seen) == 4:
            break
    assert seen == {(1, False), (2, False), (3, False), (3, True)}
