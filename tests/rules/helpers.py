"""Random legal games of every contract, for the property tests."""

from __future__ import annotations

import random

from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import Announce, Deal, Declare, Game, Reserve
from bot.rules.round import RoundContext
from bot.rules.ruleset import DDV, Ruleset

CONTRACT_TARGETS = [
    Contract.NORMAL,
    Contract.HOCHZEIT,
    Contract.STILLE_HOCHZEIT,
    *(c for c in Contract if c.is_declared_solo),
]


def deal_for(
    target: Contract,
    seed: int,
    dealer: int = 0,
    round: RoundContext | None = None,
    ruleset: Ruleset = DDV,
) -> Deal:
    """A seeded deal fit for ``target``: both Kreuz-Damen in one hand exactly when it needs it."""
    rng = random.Random(seed)
    cards = deck(ruleset.with_nines)
    rng.shuffle(cards)
    size = ruleset.hand_size
    hands = [cards[i * size : (i + 1) * size] for i in range(4)]
    pair = target in (Contract.HOCHZEIT, Contract.STILLE_HOCHZEIT)
    holder = rng.randrange(4)
    if pair:
        for other in range(4):
            while other != holder and Card.CQ in hands[other]:
                i = hands[other].index(Card.CQ)
                j = next(k for k, c in enumerate(hands[holder]) if c != Card.CQ)
                hands[other][i], hands[holder][j] = hands[holder][j], hands[other][i]
    else:
        for seat in range(4):
            if hands[seat].count(Card.CQ) == 2:
                other = (seat + 1) % 4
                i = hands[seat].index(Card.CQ)
                j = next(k for k, c in enumerate(hands[other]) if c != Card.CQ)
                hands[seat][i], hands[other][j] = hands[other][j], hands[seat][i]
    return Deal(tuple(tuple(sorted(h)) for h in hands), dealer, round, ruleset, seed)


def play_random(
    game: Game,
    rng: random.Random,
    target: Contract,
    call_rate: float = 0.15,
    stop_after: int | None = None,
) -> Game:
    """Drive ``game`` with random legal actions steering towards ``target``."""
    declarer: int | None = None
    if target is Contract.HOCHZEIT or target is Contract.STILLE_HOCHZEIT:
        declarer = next(s for s in range(4) if game.deal.hands[s].count(Card.CQ) == 2)
    elif target.is_declared_solo:
        declarer = rng.randrange(4) if game.vorgefuehrt is None else game.vorgefuehrt
    steps = 0
    while not game.finished and (stop_after is None or steps < stop_after):
        steps += 1
        callers = [a for s in range(4) for a in game.legal_actions(s) if isinstance(a, Announce)]
        if callers and rng.random() < call_rate:
            game.apply(rng.choice(callers))
            continue
        seat = game.to_act()
        assert seat is not None
        options = [a for a in game.legal_actions(seat) if not isinstance(a, Announce)]
        choice = rng.choice(options)
        if isinstance(choice, Reserve):
            wants = seat == declarer and target not in (Contract.NORMAL, Contract.STILLE_HOCHZEIT)
            choice = Reserve(seat, wants)
        elif isinstance(choice, Declare) and seat == declarer:
            choice = Declare(seat, target)
        game.apply(choice)
    return game


def random_game(target: Contract, seed: int, **kw: object) -> Game:
    rng = random.Random(seed)
    game = Game(deal_for(target, seed, dealer=rng.randrange(4)))
    return play_random(game, rng, target, **kw)  # type: ignore[arg-type]
