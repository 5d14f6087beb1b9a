"""Tricks: following suit and who wins a trick (TSR 5.2, 5.3), for every card order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, assert_never

from bot.rules.cards import Card
from bot.rules.contracts import CardOrder
from bot.rules.ruleset import DulleTie


class Trick(NamedTuple):
    """A trick as played: who led, the cards in playing order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None  # seat; None while the trick is open

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % 4 for i in range(len(self.cards)))

    @property
    def augen(self) -> int:
        return sum(card.augen for card in self.cards)


def legal_cards(order: CardOrder, hand: Sequence[Card], led: Card | None) -> list[Card]:
    """Cards that may be played: whoever holds the led suit (or trump, if trump was led)
    must follow it; otherwise any card (TSR 5.2).
    """
    if led is None:
        return list(hand)
    following = [card for card in hand if order.follows(card, led)]
    return following or list(hand)


def trick_winner_index(
    order: CardOrder, cards: Sequence[Card], last_trick: bool, dulle_tie: DulleTie
) -> int:
    """Position of the winning card: the highest trump, else the highest card of the led
    suit; of two equal cards the first played wins (TSR 5.3), except the house rules that
    let the second Dulle beat the first.
    """
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card == top == Card.H10 and order.is_trump(card):
            if second_dulle_wins(dulle_tie, last_trick):
                best = i
        elif order.beats(card, top):
            best = i
    return best


def second_dulle_wins(tie: DulleTie, last_trick: bool) -> bool:
    """Whether the second Herz-Zehn of a trick beats the first under this table's rule."""
    match tie:
        case DulleTie.FIRST_WINS:
            return False
        case DulleTie.SECOND_WINS:
            return True
        case DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK:
            return not last_trick
        case DulleTie.SECOND_WINS_ONLY_LAST_TRICK:
            return last_trick
        case _:
            assert_never(tie)
