"""Games forced into each contract, and hand-built views for the rules of thumb."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.strategy import Strategy
from bot.rules.calls import Call, Party
from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    ArmutOffer,
    Deal,
    Declare,
    Game,
    Phase,
    Reserve,
    Trick,
    armut_trumps,
)
from bot.rules.ruleset import DDV, Ruleset, SchmeissenReason
from bot.rules.view import PlayerView, player_view


def double_alte_seed(start: int = 0) -> tuple[int, int]:
    """The first seed from ``start`` whose deal gives one seat both Kreuz-Damen, and that seat."""
    seed = start
    while True:
        hands = Deal.shuffled(seed).hands
        for seat, hand in enumerate(hands):
            if hand.count(Card.CQ) == 2:
                return seed, seat
        seed += 1


def forced_game(contract: Contract, seed: int) -> Game:
    """A game whose Vorbehaltsabfrage is scripted to reach ``contract``."""
    if contract in (Contract.HOCHZEIT, Contract.STILLE_HOCHZEIT):
        seed, holder = double_alte_seed(seed)
    else:
        holder = None
        while any(h.count(Card.CQ) == 2 for h in Deal.shuffled(seed).hands):
            seed += 1
    dealer = seed % 4
    game = Game(Deal.shuffled(seed, dealer=dealer))
    declarer = holder if contract is Contract.HOCHZEIT else (dealer + 1) % 4
    if contract is Contract.NORMAL or contract is Contract.STILLE_HOCHZEIT:
        declarer = -1
    while game.phase is Phase.VORBEHALT:
        seat = game.to_act()
        assert seat is not None
        game.apply(Reserve(seat, seat == declarer))
    if game.phase is Phase.DECLARE:
        game.apply(Declare(declarer, contract))
    assert game.contract is contract
    return game


def play_out(game: Game, seats: Sequence[Strategy], rng_seed: int) -> list[Action]:
    """Let the strategies finish the game; every choice must be among the view's legal actions."""
    rngs = [random.Random(rng_seed * 4 + s) for s in range(4)]
    chosen: list[Action] = []
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        action = seats[seat].choose(view, rngs[seat])
        assert action in view.legal, (seats[seat].name, action, view.legal)
        chosen.append(action)
        game.apply(action)
    return chosen


def play_out_one(game: Game, seats: Sequence[Strategy], rng_seed: int) -> Action:
    """One decision of the seat to act, checked against its view's legal actions."""
    seat = game.to_act()
    assert seat is not None
    view = player_view(game, seat)
    action = seats[seat].choose(view, random.Random(rng_seed * 131 + game.action_count))
    assert action in view.legal
    game.apply(action)
    return action


def make_view(
    seat: int,
    hand: Sequence[Card],
    current: Sequence[Card] = (),
    current_leader: int = 0,
    parties: Sequence[Party | None] = (None, None, None, None),
    contract: Contract = Contract.NORMAL,
    played: Sequence[Card] | None = None,
    legal: Sequence[Action] = (),
    calls: Sequence[tuple[int, Call]] = (),
) -> PlayerView:
    """A play-phase view: ``played`` fills the finished tricks, everything else is unseen.

    The filler tricks are led by seat 0 and won by their leader; enough for rules of thumb
    that look at which cards are gone. Without ``played``, the cheapest cards (never a
    Dulle, Kreuz- or Pik-Dame) fill the tricks up to the size of ``hand``.
    """
    if played is None:
        rest = list(deck())
        for c in [*hand, *current]:
            rest.remove(c)
        keep_out = {Card.CQ, Card.SQ, Card.H10}
        filler = sorted((c for c in rest if c not in keep_out), key=lambda c: (c.augen, c))
        played = filler[: 4 * (DDV.hand_size - len(hand))]
    played = list(played)
    assert len(played) % 4 == 0
    tricks = tuple(Trick(0, tuple(played[i : i + 4]), 0) for i in range(0, len(played), 4))
    n_done = len(tricks)
    size = DDV.hand_size - n_done
    in_hand = [size] * 4
    for i in range(len(current)):
        in_hand[(current_leader + i) % 4] -= 1
    assert in_hand[seat] == len(hand)
    rest = list(deck())
    for c in [*hand, *played, *current]:
        rest.remove(c)
    assert len(rest) == sum(in_hand) - len(hand)
    order = contract.order
    return PlayerView(
        seat=seat,
        ruleset=DDV,
        dealer=3,
        round=None,
        phase=Phase.PLAY,
        hand=tuple(sorted(hand, key=order.sort_key)),
        to_act=seat,
        legal=tuple(legal),
        reservations=(False, False, False, False),
        own_declaration=None,
        contract=contract,
        soloist=None,
        solo_kind=None,
        hochzeiter=None,
        clarification_trick=None,
        vorgefuehrt=None,
        parties=tuple(parties),
        calls=tuple(calls),
        tricks=tricks,
        current_leader=current_leader,
        current_trick=tuple(current),
        cards_in_hand=tuple(in_hand),
        result=None,
        order=order,
    )


# Two trumps and five nines: an Armut, or thrown in, under HOUSE.
POOR = [Card.DJ, Card.D9, Card.C9, Card.C9, Card.CK, Card.S9]
POOR += [Card.SK, Card.S10, Card.HK, Card.H9, Card.HA, Card.CA]
HOUSE = Ruleset(armut=True, schmeissen=frozenset({SchmeissenReason.NEUNEN}))
# Both Dullen and most Damen: a hand that takes an Armut.
STRONG = [Card.H10, Card.H10, Card.CQ, Card.SQ, Card.SQ, Card.HQ, Card.HQ, Card.DQ]
STRONG += [Card.DQ, Card.CJ, Card.CJ, Card.SA]


def armut_offered_to(taker_hand: list[Card], others: int = 0) -> Game:
    """Seat 0 offers POOR's trumps; seat 1, holding ``taker_hand``, is asked first. Seats 2
    and 3 hold the rest, shuffled by ``others``.
    """
    rest = list(deck(True))
    for c in [*POOR, *taker_hand]:
        rest.remove(c)
    random.Random(others).shuffle(rest)
    hands = (tuple(POOR), tuple(taker_hand), tuple(rest[:12]), tuple(rest[12:]))
    game = Game(Deal(hands, 3, None, HOUSE))
    for seat in range(4):
        game.apply(Reserve(seat, seat == 0))
    game.apply(ArmutOffer(0, armut_trumps(POOR)))
    assert game.phase is Phase.ARMUT and game.to_act() == 1
    return game
