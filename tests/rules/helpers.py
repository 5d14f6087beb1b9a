"""Random legal games of every contract, for the property tests."""

from __future__ import annotations

import random

from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import Announce, Deal, Declare, Game, Reserve, Schmeissen
from bot.rules.presets import PRESETS
from bot.rules.round import RoundContext
from bot.rules.ruleset import (
    DDV,
    BockTrigger,
    DulleTie,
    NoWinnerScore,
    Ruleset,
    SchmeissenReason,
)

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


def play_any(
    game: Game,
    rng: random.Random,
    call_rate: float = 0.1,
    reserve_rate: float = 0.3,
    stop_after: int | None = None,
) -> Game:
    """Drive ``game`` with random legal actions of every kind, house-rule actions included.

    Vorbehalt, Schmeißen and taking an Armut are chosen with ``reserve_rate``/even odds, so
    that random games reach solos, Hochzeiten, Armut and redeals often enough to test them.
    """
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
        throw = [a for a in options if isinstance(a, Schmeissen)]
        if throw and rng.random() < 0.5:
            game.apply(throw[0])
            continue
        options = [a for a in options if not isinstance(a, Schmeissen)]
        if isinstance(options[0], Reserve):
            wants = len(options) > 1 and rng.random() < reserve_rate
            game.apply(Reserve(seat, wants))
            continue
        game.apply(rng.choice(options))
    return game


def house_rulesets() -> list[tuple[str, Ruleset]]:
    """Every preset, and every house-rule flag switched on alone (with a typical value)."""
    out: list[tuple[str, Ruleset]] = [(f"preset-{k}", v) for k, v in PRESETS.items()]
    flags: dict[str, dict[str, object]] = {
        **{f"dulle_tie={t}": {"dulle_tie": t} for t in DulleTie if t is not DulleTie.FIRST_WINS},
        "with_nines=false": {"with_nines": False},
        "absagen_enabled=false": {"absagen_enabled": False},
        "solos_enabled=false": {"solos_enabled": False},
        "pflichtsolo_enabled=false": {"pflichtsolo_enabled": False},
        "winner_floor_zero": {"winner_floor_zero": True},
        "games_per_round=4": {"games_per_round": 4},
        "schweinchen": {"schweinchen": True},
        "armut": {"armut": True},
        "armut_max_trumps=5": {"armut": True, "armut_max_trumps": 5},
        "schmeissen": {"schmeissen": frozenset(SchmeissenReason)},
        "stille_hochzeit_enabled=false": {"stille_hochzeit_enabled": False},
        "no_winner_score=zero": {"no_winner_score": NoWinnerScore.ZERO},
        "bock": {"bock": frozenset(BockTrigger)},
        "bock_stacking=queue": {"bock": frozenset(BockTrigger), "bock_stacking": "queue"},
        "stammtisch_scoring": {"stammtisch_scoring": True},
        "players=5": {"players": 5},
    }
    for name, values in flags.items():
        data = {k: sorted(v) if isinstance(v, frozenset) else v for k, v in values.items()}
        out.append((name, Ruleset.from_dict(data)))
    return out
