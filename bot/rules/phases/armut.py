"""House rule Armut: a poor hand offers its trumps, the others are asked in turn from its
left, the taker returns as many cards and is its partner; if nobody takes it, deal again.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, assert_never

from bot.rules.actions import Action, IllegalActionError, Phase, Redeal, ReturnCards, TakeArmut
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.phases import expect_turn, play, set_parties
from bot.rules.phases.finished import end_with_redeal

if TYPE_CHECKING:
    from bot.rules.game import Game

ArmutAction = TakeArmut | ReturnCards


@dataclass(frozen=True, slots=True)
class ArmutInfo:
    """The poor seat, its trumps, who declined, who took, what came back."""

    poor: int
    cards: tuple[Card, ...]
    declined: tuple[int, ...] = ()
    taker: int | None = None
    returned: tuple[Card, ...] | None = None

    def asked_next(self) -> int | None:
        """The seat to answer next, from the poor seat's left; None once taken or all declined."""
        if self.taker is not None or len(self.declined) == 3:
            return None
        return (self.poor + 1 + len(self.declined)) % 4


def armut_trumps(hand: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    """The trumps a poor hand offers, by the normal game's card order, high to low."""
    order = Contract.NORMAL.order
    return tuple(sorted((c for c in hand if order.is_trump(c)), key=order.sort_key))


def _armut(game: Game) -> ArmutInfo:
    assert game.armut is not None  # set when the Armut prevailed, before this phase
    return game.armut


def next_to_act(game: Game) -> int | None:
    """The seat asked to take the Armut, or the taker who returns cards."""
    armut = _armut(game)
    return armut.taker if armut.taker is not None else armut.asked_next()


def legal_actions(game: Game, seat: int) -> list[Action]:
    if seat != game.to_act():
        return []
    armut = _armut(game)
    if armut.taker is None:
        return [TakeArmut(seat, True), TakeArmut(seat, False)]
    # Any cards of the new hand may go back, trumps too: every distinct choice once.
    choices = set(itertools.combinations(sorted(game.hands[seat]), len(armut.cards)))
    return [ReturnCards(seat, cards) for cards in sorted(choices)]


def validate(game: Game, action: ArmutAction) -> None:
    match action:
        case TakeArmut():
            expect_turn(game, action.seat, Phase.ARMUT, "answer the Armut")
            if _armut(game).taker is not None:
                raise IllegalActionError(
                    "armut_taken", "the Armut is taken: the taker returns cards now"
                )
        case ReturnCards():
            expect_turn(game, action.seat, Phase.ARMUT, "return cards")
            armut = _armut(game)
            if armut.taker != action.seat:
                raise IllegalActionError(
                    "armut_not_taken", "only the seat that took the Armut returns cards"
                )
            if len(action.cards) != len(armut.cards):
                raise IllegalActionError(
                    "armut_return_count",
                    f"return exactly {len(armut.cards)} card(s), as many as were taken",
                )
            rest = list(game.hands[action.seat])
            for card in action.cards:
                if card not in rest:
                    raise IllegalActionError(
                        "card_not_in_hand", f"seat {action.seat} does not hold {card}"
                    )
                rest.remove(card)
        case _:
            assert_never(action)


def apply(game: Game, action: ArmutAction) -> None:
    armut = _armut(game)
    match action:
        case TakeArmut() if action.take:
            game.armut = replace(armut, taker=action.seat)
            _move(game, armut.poor, action.seat, armut.cards)
        case TakeArmut():
            game.armut = replace(armut, declined=(*armut.declined, action.seat))
            if len(game.armut.declined) == 3:
                end_with_redeal(game, Redeal.ARMUT_DECLINED)
        case ReturnCards():
            _move(game, action.seat, armut.poor, action.cards)
            game.armut = replace(armut, returned=tuple(action.cards))
            set_parties(game, {armut.poor, action.seat})
            play.start(game)
        case _:
            assert_never(action)


def _move(game: Game, giver: int, receiver: int, cards: tuple[Card, ...]) -> None:
    for card in cards:
        game.hands[giver].remove(card)
    game.hands[receiver] = sorted([*game.hands[receiver], *cards])
