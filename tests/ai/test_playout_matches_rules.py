"""The AI's numpy playouts against the rules core, under every rules preset.

Random games are driven through the public rules API (Vorbehalt, solos, Hochzeit, Armut,
Schmeißen, Ansagen, all as the preset allows); from random points of their play a batch of
playouts runs to the end. Each playout is replayed card by card through ``Game``: every card
must be one of ``legal_cards``, the numpy follow-suit mask must give exactly the rules core's
legal cards, every trick must go to the seat the rules core names, and Augen, tricks and
Sonderpunkte must agree.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.playout import Outcomes, Tables, playouts, tables_for
from bot.rules.calls import Party
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Announce, Deal, Game, Phase, Play, Reserve, replay
from bot.rules.presets import PRESETS
from bot.rules.round import RoundContext


def random_position(preset: str, seed: int) -> Game | None:
    """A game of the preset, driven at random into its play phase and some cards into it."""
    rng = random.Random(seed)
    done = (rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5)
    round = RoundContext(rng.randrange(1, 6), done) if rng.random() < 0.5 else None
    game = Game(Deal.shuffled(seed, dealer=rng.randrange(4), round=round, ruleset=PRESETS[preset]))
    stop = rng.randrange(4 * game.rules.tricks - 1)
    while not game.finished and (game.phase is not Phase.PLAY or len(played(game)) < stop):
        seat = game.to_act()
        assert seat is not None
        actions = game.legal_actions(seat)
        if game.phase is Phase.PLAY:
            calls = [a for s in range(4) for a in game.legal_actions(s) if isinstance(a, Announce)]
            if calls and rng.random() < 0.1:
                game.apply(rng.choice(calls))
                continue
            actions = [a for a in actions if not isinstance(a, Announce)]
        reserve = [a for a in actions if isinstance(a, Reserve) and a.reserve]
        if reserve and rng.random() > 0.4:
            actions = [a for a in actions if not (isinstance(a, Reserve) and a.reserve)]
        game.apply(rng.choice(actions))
    return None if game.finished else game


def played(game: Game) -> list[Card]:
    return [c for t in game.tricks for c in t.cards] + game.current


def batch_from(game: Game, t: Tables, n: int, seed: int) -> Outcomes:
    assert game.contract is not None
    hochzeiter = -1
    if game.hochzeit is not None and game.hochzeit.clarification_trick is None:
        hochzeiter = game.hochzeit.hochzeiter
    re_mask = sum(1 << s for s in range(4) if game.parties[s] is Party.RE)
    hands = [t.hand_of([int(c) for c in h]) for h in game.hands]
    led = 0
    for trick in game.tricks:
        led |= 1 << t.klass[trick.cards[0]]
    return playouts(
        t,
        np.array([hands] * n, dtype=np.int64),
        game.leader,
        np.array([[int(c) for c in game.current]] * n, dtype=np.int64).reshape(n, -1),
        len(game.tricks),
        np.full(n, re_mask, dtype=np.int64),
        np.full(n, game.contract.scored_as_solo),
        np.random.default_rng(seed),
        hochzeiter,
        led,
    )


def numpy_legal(t: Tables, hand: list[Card], led: Card | None) -> list[int]:
    """The playouts' follow-suit rule: the hand's cards of the led class, else the hand."""
    bits = t.hand_of([int(c) for c in hand])
    if led is not None and bits & int(t.class_mask[t.klass[led]]):
        bits &= int(t.class_mask[t.klass[led]])
    return sorted(t.cards_of(bits))


def check_batch(start: Game, t: Tables, out: Outcomes) -> None:
    before = len(start.tricks)
    for i in range(out.cards.shape[1]):
        game = replay(start.deal, start.actions)
        opened = len(game.current)
        for seat, card in zip(out.seats()[opened:, i], out.cards[opened:, i], strict=True):
            seat, card = int(seat), Card(int(card))
            assert game.to_act() == seat
            legal = game.legal_cards(seat)
            assert card in legal
            led = game.current[0] if game.current else None
            assert numpy_legal(t, game.hands[seat], led) == sorted(int(c) for c in legal)
            game.apply(Play(seat, card))
        assert game.finished and game.result is not None
        winners = [trick.winner for trick in game.tricks[before:]]
        assert [int(s) for s in out.leaders[1:, i]] == winners[:-1]
        re = {s for s in range(4) if game.parties[s] is Party.RE}
        assert int(out.re_mask[i]) == sum(1 << s for s in re)
        assert game.contract is not None
        assert bool(out.solo[i]) == game.contract.scored_as_solo
        new = [trick for trick in game.tricks[before:] if trick.winner in re]
        assert int(out.re_augen[i]) == sum(trick.augen for trick in new)
        assert int(out.re_tricks[i]) == len(new)
        if before == 0:
            facts = game.score_facts()
            net = sum(1 if party is Party.RE else -1 for _, party in facts.specials)
            assert int(out.sonderpunkte[i]) == net


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_playouts_agree_with_the_rules_core(preset: str) -> None:
    contracts: set[Contract] = set()
    for seed in range(60):
        game = random_position(preset, seed)
        if game is None:
            continue  # thrown in, or an Armut nobody took
        assert game.contract is not None
        contracts.add(game.contract)
        t = tables_for(game.contract, game.rules, game.schweinchen is not None)
        check_batch(game, t, batch_from(game, t, 4, seed))
    assert len(contracts) >= 2
