"""Playing the tricks: follow suit, the trick goes to its winner, the Hochzeit finds its
partner in tricks 1–3 (TSR 4.4, 5); after the last trick the game is scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.rules.actions import Action, IllegalActionError, Phase, Play
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.phases import expect_turn, set_parties
from bot.rules.phases.finished import finish
from bot.rules.tricks import Trick, legal_cards, trick_winner_index

if TYPE_CHECKING:
    from bot.rules.game import Game


@dataclass(frozen=True, slots=True)
class HochzeitInfo:
    hochzeiter: int
    clarification_trick: int | None  # 1..3 once decided
    partner: int | None  # None while open, and in a failed Hochzeit


def clarify_hochzeit(hochzeiter: int, trick_winners: list[int]) -> HochzeitInfo:
    """The first of tricks 1–3 not won by the Hochzeiter finds the partner (TSR 4.4).

    If the Hochzeiter wins all three, trick 3 is the Klärungsstich and he plays alone.
    """
    for number, winner in enumerate(trick_winners[:3], start=1):
        if winner != hochzeiter:
            return HochzeitInfo(hochzeiter, number, winner)
    if len(trick_winners) >= 3:
        return HochzeitInfo(hochzeiter, 3, None)
    return HochzeitInfo(hochzeiter, None, None)


def schweinchen_holder(hands: list[list[Card]] | tuple[tuple[Card, ...], ...]) -> int | None:
    """The seat holding both Karo-Asse, if any."""
    return next((s for s in range(4) if list(hands[s]).count(Card.DA) == 2), None)


def start(game: Game) -> None:
    """The contract is settled: fix the card order and lead the first trick."""
    contract = game.contract
    assert contract is not None
    if game.rules.schweinchen and contract.schweinchen_possible:
        game.schweinchen = schweinchen_holder(game.hands)
    game.order = contract.card_order(game.schweinchen is not None)
    game.phase = Phase.PLAY


def playable_cards(game: Game, seat: int) -> list[Card]:
    """The cards of this seat's hand it may play now; none unless it is its turn."""
    if game.phase is not Phase.PLAY or seat != game.to_act():
        return []
    led = game.open_trick[0] if game.open_trick else None
    return legal_cards(game.order, game.hands[seat], led)


def legal_actions(game: Game, seat: int) -> list[Action]:
    # Hands are kept sorted; the two copies of a card are one choice.
    return [Play(seat, card) for card in dict.fromkeys(playable_cards(game, seat))]


def validate(game: Game, action: Play) -> None:
    expect_turn(game, action.seat, Phase.PLAY, "play")
    hand = game.hands[action.seat]
    if action.card not in hand:
        raise IllegalActionError(
            "card_not_in_hand", f"seat {action.seat} does not hold {action.card}"
        )
    if game.open_trick:
        led = game.open_trick[0]
        if action.card not in legal_cards(game.order, hand, led):
            what = "trump" if game.order.is_trump(led) else led.suit.name.lower()
            raise IllegalActionError(
                "must_follow_suit",
                f"{action.card} does not follow {led}: seat {action.seat} must play {what}",
            )


def apply(game: Game, action: Play) -> None:
    game.hands[action.seat].remove(action.card)
    game.open_trick.append(action.card)
    if len(game.open_trick) < 4:
        return
    cards = tuple(game.open_trick)
    last_trick = len(game.tricks) + 1 == game.rules.tricks
    index = trick_winner_index(game.order, cards, last_trick, game.rules.dulle_tie)
    winner = (game.leader + index) % 4
    game.tricks.append(Trick(game.leader, cards, winner))
    game.open_trick.clear()
    game.leader = winner
    if game.hochzeit is not None and game.hochzeit.clarification_trick is None:
        _clarify_hochzeit(game)
    if last_trick:
        finish(game)


def _clarify_hochzeit(game: Game) -> None:
    assert game.hochzeit is not None
    hochzeiter = game.hochzeit.hochzeiter
    info = clarify_hochzeit(hochzeiter, [t.winner for t in game.tricks if t.winner is not None])
    if info.clarification_trick is None:
        return
    game.hochzeit = info
    if info.partner is not None:
        set_parties(game, {hochzeiter, info.partner})
    else:
        # Failed: a Karo solo (same card order as a normal game), scored as a solo.
        game.contract = Contract.HOCHZEIT_FAILED
        game.soloist = hochzeiter
        set_parties(game, {hochzeiter})
