"""The arena's duplicate match and its JSON, and the sampler behind Monte-Carlo."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from bot.ai import get_strategy
from bot.ai.knowledge import Knowledge, voids_of
from bot.ai.montecarlo import MonteCarloStrategy
from bot.arena import main, play_round, seat_plan
from bot.rules.cards import Card
from bot.rules.game import Deal, Game, Phase, Play, Reserve
from bot.rules.round import SoloKind
from bot.rules.ruleset import DDV, Ruleset
from bot.rules.view import player_view


def test_arena_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["--strategies", "heuristic,random", "--deals", "3", "--seed", "5", "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 3
    assert set(out["strategies"]) == {"heuristic", "random"}
    for figures in out["strategies"].values():
        lo, hi = figures["ci95"]
        assert lo <= figures["points_per_game"] <= hi
    # Scores sum to zero in every game, so the two sides mirror each other.
    h, r = out["strategies"]["heuristic"], out["strategies"]["random"]
    assert h["points_per_game"] == pytest.approx(-r["points_per_game"])


def test_arena_rules_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        ["--strategies", "random,heuristic", "--deals", "2", "--rules", '{"with_nines": false}']
    )
    assert rc == 0
    assert "points/game" in capsys.readouterr().out


def test_a_round_runs_to_its_end_with_every_pflichtsolo_played() -> None:
    seats = [get_strategy("leicht") for _ in range(4)]
    totals, games = play_round(seats, 11, 2, "t", DDV)
    kinds = [g.solo_kind for g in games]
    owed = [SoloKind.PFLICHT, SoloKind.VORGEFUEHRT]
    assert sorted(g.soloist for g in games if g.solo_kind in owed) == [0, 1, 2, 3]
    # A Pflichtsolo is dealt again and takes no slot; every other game takes one.
    assert len(games) == DDV.games_per_round + kinds.count(SoloKind.PFLICHT)
    assert games[0].dealer == 2
    assert sum(totals) == 0
    assert totals == [sum(g.result.scores[s] for g in games if g.result) for s in range(4)]


def test_a_round_without_pflichtsoli_is_its_slots() -> None:
    rules = Ruleset(pflichtsolo_enabled=False, games_per_round=3)
    _, games = play_round([get_strategy("leicht")] * 4, 11, 0, "t", rules)
    assert len(games) == 3
    assert [g.dealer for g in games] == [0, 1, 2]


def test_arena_plays_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--strategies", "heuristic,random", "--deals", "1", "--rounds", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 1 and out["games"] == 2 * DDV.games_per_round
    assert out["strategies"]["heuristic"]["points_per_game"] > 0


def test_seats_rotate() -> None:
    assert seat_plan(("A", "B")) == [("A", "B", "A", "B"), ("B", "A", "B", "A")]


def test_samples_respect_what_the_view_shows() -> None:
    """Card counts, shown voids and the Kreuz-Damen's owners hold in every sampled deal."""
    rng = random.Random(0)
    gen = np.random.default_rng(0)
    for seed in range(20):
        game = Game(Deal.shuffled(seed, dealer=seed % 4))
        while game.phase is Phase.VORBEHALT:
            seat = game.to_act()
            assert seat is not None
            game.apply(Reserve(seat, False))
        for _ in range(rng.randrange(0, 30)):
            seat = game.to_act()
            assert seat is not None
            game.apply(rng.choice([a for a in game.legal_actions(seat) if isinstance(a, Play)]))
        seat = game.to_act()
        assert seat is not None
        view = player_view(game, seat)
        know = Knowledge(view)
        voids = voids_of(view)
        klass = know.tables.klass
        worlds = know.sample(30, gen, rng.random)
        for w in range(30):
            hands = [know.tables.cards_of(int(h)) for h in worlds.holdings[w]]
            for s in range(4):
                held = hands[s]
                assert len(held) == view.cards_in_hand[s]
                assert not any(voids[s] >> klass[c] & 1 for c in held)
                if s == seat:
                    assert sorted(held) == sorted(int(c) for c in view.hand)
                if view.parties[s] is not None and game.contract is not None:
                    is_re = bool(worlds.re_mask[w] >> s & 1)
                    assert is_re == (view.parties[s].value == "re")
            all_cards = sorted(
                [c for s in range(4) for c in hands[s]]
                + [int(c) for t in view.tricks for c in t.cards]
                + [int(c) for c in view.current_trick]
            )
            assert all_cards == sorted(int(c) for d in Deal.shuffled(seed).hands for c in d)


def test_arena_names_for_budgets() -> None:
    s = get_strategy("mc-budget:500")
    assert isinstance(s, MonteCarloStrategy)
    assert s.playouts == 500
    assert s.contracts is not None and s.contracts.budget == 500
    for bad in ("mc-budget:", "mc-budget:0", "mc-budget:1.5", "mc-budget:x"):
        with pytest.raises(ValueError, match="mc-budget:PLAYOUTS"):
            get_strategy(bad)


def _playing(seed: int) -> Game:
    """A deal played as a normal game, at its first card."""
    game = Game(Deal.shuffled(seed, dealer=0))
    while game.phase is Phase.VORBEHALT:
        seat = game.to_act()
        assert seat is not None
        game.apply(Reserve(seat, False))
    return game


def test_the_peeking_yardstick_searches_the_true_world() -> None:
    from bot.benchmarks.oracle import Peeking

    game = _playing(8)
    view = player_view(game, 1)
    know = Knowledge(view)
    gen = np.random.default_rng(0)
    for cards in (True, False):
        peek = Peeking(300, "peek", deal=game.deal, cards=cards)
        worlds = peek.sample_worlds(know, 5, gen, random.Random(0))
        re = sum(1 << s for s in range(4) if game.hands[s].count(Card.CQ))
        assert (worlds.re_mask == re).all()
        if cards:
            for s in range(4):
                assert sorted(know.tables.cards_of(int(worlds.holdings[0, s]))) == sorted(
                    int(c) for c in game.hands[s]
                )


def test_arena_name_for_the_yardstick_of_967a1e5() -> None:
    old = get_strategy("mc-967a1e5:12000")
    assert isinstance(old, MonteCarloStrategy)
    assert (old.playouts, old.contracts) == (12000, None)
    with pytest.raises(ValueError, match="mc-967a1e5:PLAYOUTS"):
        get_strategy("mc-967a1e5:0")


def test_the_peeking_yardstick_peeks_only_in_its_tricks() -> None:
    from bot.benchmarks.oracle import Peeking

    game = _playing(8)
    know = Knowledge(player_view(game, 1))
    late = Peeking(300, "peek", deal=game.deal, tricks=range(5, 13))
    worlds = late.sample_worlds(know, 50, np.random.default_rng(0), random.Random(0))
    # In trick 1 it samples as usual: the worlds differ from each other.
    assert len({tuple(h) for h in worlds.holdings.tolist()}) > 1
