"""The hand model: what it reads from a view, how it reweights worlds, and that it has learned."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai import get_strategy
from bot.ai.handmodel import FEATURES, KINDS, features, load, resample
from bot.ai.knowledge import Knowledge, Worlds
from bot.ai.montecarlo import MonteCarloStrategy
from bot.arena import play_game
from bot.benchmarks.handmodel import cross_entropy, examples
from bot.rules.cards import Card, Rank
from bot.rules.game import Deal, Game, Phase, Play, Reserve
from bot.rules.ruleset import DDV
from bot.rules.view import player_view


def _normal_game(seed: int) -> Game:
    game = Game(Deal.shuffled(seed, dealer=0))
    while game.phase is Phase.VORBEHALT:
        seat = game.to_act()
        assert seat is not None
        game.apply(Reserve(seat, False))
    return game


def test_features_record_each_seat_from_the_viewers_place() -> None:
    game = _normal_game(3)
    leader = game.to_act()
    assert leader is not None
    lead = game.legal_cards(leader)[0]
    game.apply(Play(leader, lead))
    viewer = (leader + 3) % 4  # the leader sits one place after the viewer
    rows = features(player_view(game, viewer))
    assert rows.shape == (3, FEATURES)
    # Every row carries the same view of the table; only the seat's own part differs.
    assert (rows[:, : 2 * KINDS] == rows[0, : 2 * KINDS]).all()
    hand = player_view(game, viewer).hand
    for c in hand:
        assert rows[0, int(c)] == hand.count(c)
    # Unseen: neither in the viewer's hand nor played.
    assert rows[0, KINDS + int(lead)] == 2 - hand.count(lead) - 1
    # The leader is the first seat after the viewer: its row shows the lead, the others none.
    seat_part = slice(2 * KINDS + 7, 2 * KINDS + 7 + KINDS)
    assert rows[0, seat_part][int(lead)] == 1
    assert rows[1, seat_part].sum() == rows[2, seat_part].sum() == 0
    assert [int(np.argmax(r[-3:])) for r in rows] == [0, 1, 2]


def test_resample_draws_worlds_by_their_odds() -> None:
    view = player_view(_normal_game(4), 0)
    know = Knowledge(view)
    worlds = know.sample(2, np.random.default_rng(1), random.Random(1).random)
    odds = np.zeros((4, KINDS), dtype=np.float32)
    # Favour the world in which seat 1 holds more of the cards of the first world's seat 1.
    for bit_kind in know.tables.cards_of(int(worlds.holdings[0, 1])):
        odds[1, bit_kind] += 1.0
    gen = np.random.default_rng(2)
    drawn = resample(worlds, odds, know.tables, 100, gen)
    first = (drawn.holdings[:, 1] == worlds.holdings[0, 1]).mean()
    assert first > 0.9
    # Temper 0 ignores the model: each world is drawn equally often.
    even = resample(worlds, odds, know.tables, 100, gen, temper=0.0)
    assert (even.holdings[:, 1] == worlds.holdings[0, 1]).sum() == 50


def test_resample_keeps_world_rows_together() -> None:
    holdings = np.array([[1, 2, 4, 8], [16, 32, 64, 128]], dtype=np.int64)
    worlds = Worlds(holdings, np.array([5, 10]), np.array([False, True]))
    t = Knowledge(player_view(_normal_game(4), 0)).tables
    drawn = resample(worlds, np.zeros((4, KINDS), dtype=np.float32), t, 6, np.random.default_rng(0))
    for h, re, solo in zip(drawn.holdings, drawn.re_mask, drawn.solo, strict=True):
        row = 0 if h[0] == 1 else 1
        assert (h == holdings[row]).all() and re == [5, 10][row] and solo == [False, True][row]


def test_shipped_model_predicts_hidden_cards_better_than_uniform() -> None:
    """On self-play games it was not trained on, the model's odds for where each unseen card
    lies beat the sampler's uniform draw (cross-entropy per unseen card).
    """
    assert load() is not None
    seats = [get_strategy("mittel") for _ in range(4)]
    games = []
    for i in range(8):
        deal = Deal.shuffled(11 * 1_000_003 + i, dealer=i % 4, ruleset=DDV)
        games.append((11 * 1_000_003 + i, i % 4, list(play_game(deal, seats, f"t/{i}").actions)))
    x, t, m, n = examples(games)
    assert len(x) > 100
    model = load()
    assert model is not None
    learned, _ = cross_entropy(model.logits(x), t, m, n)
    uniform, _ = cross_entropy(np.zeros_like(t), t, m, n)
    assert learned < uniform - 0.02


def test_arena_names_for_inference_and_the_yardstick() -> None:
    s = get_strategy("mc-infer:0.5:6000")
    assert isinstance(s, MonteCarloStrategy)
    assert (s.inference, s.playouts) == (0.5, 6000)
    assert s.contracts is not None
    old = get_strategy("mc-967a1e5:12000")
    assert isinstance(old, MonteCarloStrategy)
    assert (old.inference, old.playouts, old.contracts) == (None, 12000, None)
    for bad in ("mc-infer:", "mc-infer:x", "mc-infer:-1", "mc-infer:1:0", "mc-infer:1:2:3"):
        with pytest.raises(ValueError, match="mc-infer:TEMPER"):
            get_strategy(bad)


def test_inference_plays_legal_actions_through_whole_games() -> None:
    strategy = get_strategy("mc-infer:1.0:300")
    for seed in range(3):
        game = Game(Deal.shuffled(seed, dealer=seed % 4))
        rngs = [random.Random(seed * 4 + s) for s in range(4)]
        while not game.finished:
            seat = game.to_act()
            assert seat is not None
            view = player_view(game, seat)
            action = strategy.choose(view, rngs[seat])
            assert action in view.legal
            game.apply(action)


def test_without_nines_no_nine_counts_as_unseen() -> None:
    rules = DDV.replace(with_nines=False)
    game = Game(Deal.shuffled(5, dealer=0, ruleset=rules))
    rows = features(player_view(game, 0))
    nines = [int(c) for c in Card if c.rank is Rank.NEUN]
    assert rows[0, KINDS + np.array(nines)].sum() == 0
    assert rows[0, KINDS : 2 * KINDS].sum() == 40 - 10
