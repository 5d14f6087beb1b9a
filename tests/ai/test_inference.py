"""Inference: worlds weighted by the other seats' plays explain those plays better."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai import get_strategy
from bot.ai.inference import likely_worlds, log_likelihood
from bot.ai.knowledge import Knowledge, Worlds
from bot.ai.montecarlo import MonteCarloStrategy
from bot.rules.calls import Call
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Action, Announce, Deal, Game, Phase, Play, Reserve
from bot.rules.view import PlayerView, player_view
from tests.ai.helpers import forced_game


def opening(lead_card: Card, follow_card: Card, viewer_lacks: Card) -> tuple[Game, int]:
    """A normal game whose leader holds ``lead_card`` and the next seat ``follow_card``; the
    seat after them (the viewer) holds no ``viewer_lacks``. Returns the game and the leader.
    """
    for seed in range(500):
        game = forced_game(Contract.NORMAL, seed)
        lead = game.to_act()
        assert lead is not None
        hands = game.hands
        if (
            lead_card in hands[lead]
            and follow_card in hands[(lead + 1) % 4]
            and viewer_lacks not in hands[(lead + 2) % 4]
        ):
            game.apply(Play(lead, lead_card))
            game.apply(Play((lead + 1) % 4, follow_card))
            return game, lead
    raise AssertionError("no such deal")


def both(view: PlayerView, count: int = 3000) -> tuple[Worlds, Worlds]:
    """Uniform and weighted worlds of the same view, seeded alike."""
    know = Knowledge(view)
    uniform = know.sample(count, np.random.default_rng(1), random.Random(1).random)
    weighted = likely_worlds(know, count, np.random.default_rng(1), random.Random(1).random)
    return uniform, weighted


def test_a_cheap_card_kept_back_is_placed_elsewhere() -> None:
    """Following a Herz-Ass with a König, a seat that held the Neun would have played it
    (an opponent's trick takes the cheapest card): the Neunen sit elsewhere more often.
    """
    game, lead = opening(Card.HA, Card.HK, Card.H9)
    view = player_view(game, (lead + 2) % 4)
    nine = int(Knowledge(view).tables.kind_mask[int(Card.H9)])
    uniform, weighted = both(view)
    with_follower = [float((w.holdings[:, (lead + 1) % 4] & nine != 0).mean()) for w in both(view)]
    assert with_follower[1] < with_follower[0] - 0.1, with_follower
    assert len(weighted.holdings) == len(uniform.holdings)


def test_a_zehn_smeared_onto_an_ass_makes_them_partners() -> None:
    """A Kreuz-Zehn onto the Kreuz-Ass (nothing in Kreuz beats it) is a smear for a partner:
    the worlds put leader and follower in one party more often.
    """
    game, lead = opening(Card.CA, Card.C10, Card.C10)
    view = player_view(game, (lead + 2) % 4)
    same = [
        float((((w.re_mask >> lead) ^ (w.re_mask >> (lead + 1) % 4)) & 1 == 0).mean())
        for w in both(view)
    ]
    assert same[1] > same[0] + 0.05, same


def views_of(game: Game, strategy_name: str, seed: int) -> list[PlayerView]:
    """Every view of a card decision in the game, the strategy playing all four seats."""
    strategy = get_strategy(strategy_name)
    rng = random.Random(seed)
    out = []
    while not game.finished:
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        if view.phase is Phase.PLAY:
            out.append(view)
        game.apply(strategy.choose(view, rng))
    return out


@pytest.mark.parametrize(
    "contract", [Contract.NORMAL, Contract.HOCHZEIT, Contract.SOLO_DAMEN, Contract.SOLO_HERZ]
)
def test_weights_are_finite_and_worlds_whole(contract: Contract) -> None:
    """Random play contradicts the policy at every turn: still no world weighs zero or NaN,
    and the resampled worlds deal every hidden card exactly once.
    """
    for seed in range(3):
        for view in views_of(forced_game(contract, seed), "random", seed)[::5]:
            know = Knowledge(view)
            pool = know.sample(200, np.random.default_rng(seed), random.Random(seed).random)
            ll = log_likelihood(know, pool)
            assert np.isfinite(ll).all()
            assert (np.exp(ll - ll.max()) > 0).all()
            worlds = likely_worlds(know, 50, np.random.default_rng(seed), random.Random(0).random)
            counts = np.bitwise_count(worlds.holdings)
            assert (counts == np.array(view.cards_in_hand)).all()
            h = worlds.holdings
            assert (h[:, 0] & h[:, 1] | (h[:, 0] | h[:, 1]) & (h[:, 2] | h[:, 3])).max() == 0
            assert (h[:, 2] & h[:, 3]).max() == 0


def replay(deal: Deal, actions: list[Action]) -> Game:
    game = Game(deal)
    for a in actions:
        game.apply(a)
    return game


def test_hidden_cards_do_not_change_the_weighting() -> None:
    """Two deals that differ only in cards still hidden from seat 0, with the same play so
    far: seat 0's weighted worlds and its search's choice are the same.
    """
    compared = 0
    for seed in range(4):
        deal = Deal.shuffled(800 + seed, dealer=3)
        game = Game(deal)
        while game.phase is Phase.VORBEHALT:
            seat = game.to_act()
            assert seat is not None
            game.apply(Reserve(seat, False))
        heuristic = get_strategy("heuristic")
        # Play on until seat 0 is to play after four tricks.
        while not (game.to_act() == 0 and len(game.tricks) >= 4) and not game.finished:
            seat = game.to_act()
            assert seat is not None
            game.apply(heuristic.choose(player_view(game, seat), random.Random(seed)))
        if game.finished or game.contract is not Contract.NORMAL:
            continue
        # Swap two unplayed cards of one class between seats 1 and 2: every play stays legal.
        order = game.order
        swap = next(
            (a, b)
            for a in game.hands[1]
            for b in game.hands[2]
            if a != b and Card.CQ not in (a, b) and order.klass[a] == order.klass[b]
        )
        hands = [list(h) for h in deal.hands]
        hands[1].remove(swap[0])
        hands[2].remove(swap[1])
        hands[1].append(swap[1])
        hands[2].append(swap[0])
        other = Deal(tuple(tuple(sorted(h)) for h in hands), deal.dealer, deal.round, deal.ruleset)
        views = [player_view(g, 0) for g in (game, replay(other, list(game.actions)))]
        assert views[0] == views[1]
        worlds = [
            likely_worlds(Knowledge(v), 300, np.random.default_rng(seed), random.Random(0).random)
            for v in views
        ]
        assert (worlds[0].holdings == worlds[1].holdings).all()
        picks = [MonteCarloStrategy(playouts=300).choose(v, random.Random(seed)) for v in views]
        assert picks[0] == picks[1]
        compared += 1
    assert compared >= 2


def test_an_ansage_puts_more_trumps_in_the_callers_hand() -> None:
    """A Re or Kontra in the first trick comes from a strong hand: the weighted worlds give
    the caller more trumps than the uniform ones.
    """
    game = forced_game(Contract.NORMAL, 3)
    lead = game.to_act()
    assert lead is not None
    caller = (lead + 1) % 4
    game.apply(Announce(caller, Call.RE if Card.CQ in game.hands[caller] else Call.KONTRA))
    game.apply(Play(lead, game.legal_cards(lead)[0]))
    view = player_view(game, (lead + 2) % 4)
    trumps = Knowledge(view).tables.trumps
    held = [float(np.bitwise_count(w.holdings[:, caller] & trumps).mean()) for w in both(view)]
    assert held[1] > held[0] + 0.3, held
