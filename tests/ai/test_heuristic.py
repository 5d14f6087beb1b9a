"""The heuristic's rules of thumb on hand-built positions."""

from __future__ import annotations

import random

from bot.ai.heuristic import HeuristicStrategy
from bot.rules.calls import Call, Party
from bot.rules.cards import Card as C
from bot.rules.contracts import Contract
from bot.rules.game import Announce, Deal, Declare, Game, Phase, Play, Reserve
from bot.rules.round import RoundContext
from bot.rules.view import player_view

from .helpers import make_view

H = HeuristicStrategy()
RE, KO = Party.RE, Party.KONTRA
# Every trump above the Kreuz-Bube (Karlchen) in a normal game.
ABOVE_KARLCHEN = [C.H10, C.H10, C.CQ, C.CQ, C.SQ, C.SQ, C.HQ, C.HQ, C.DQ, C.DQ]


def plays(seat: int, *cards: C) -> list[Play]:
    return [Play(seat, c) for c in cards]


def test_keeps_karlchen_for_the_last_trick() -> None:
    # Trick 11, seat 0 leads with the Karlchen and a Karo-Neun; nothing unseen beats the
    # Karlchen any more, so the Neun goes now and the Karlchen takes the last trick.
    filler = [
        C.CA, C.CA, C.C10, C.C10, C.CK, C.CK, C.C9, C.C9,
        C.SA, C.SA, C.S10, C.S10, C.SK, C.SK, C.S9, C.S9,
        C.HA, C.HA, C.HK, C.HK, C.H9, C.H9, C.DA, C.DA,
        C.D10, C.D10, C.DK, C.DK, C.SJ, C.SJ,
    ]  # fmt: skip
    played = ABOVE_KARLCHEN + filler
    view = make_view(
        0,
        [C.CJ, C.D9],
        played=played,
        parties=(RE, None, None, None),
        legal=plays(0, C.CJ, C.D9),
    )
    assert H.choose(view, random.Random(1)) == Play(0, C.D9)


def test_schmiert_an_ace_onto_the_partners_sure_trick() -> None:
    # Seat 3 plays last; partner seat 1 wins the Kreuz trick with the Ass. Seat 3 has no
    # Kreuz and schmiert its Herz-Ass.
    view = make_view(
        3,
        [C.HA, C.S9, C.DQ, C.D9],
        current=[C.C9, C.CA, C.CK],
        current_leader=0,
        parties=(KO, RE, KO, RE),
        legal=plays(3, C.HA, C.S9, C.DQ, C.D9),
    )
    assert H.choose(view, random.Random(1)) == Play(3, C.HA)


def test_schmiert_the_ten_when_following_suit() -> None:
    view = make_view(
        3,
        [C.C10, C.CK, C.DQ, C.D9],
        current=[C.C9, C.CA, C.CK],
        current_leader=0,
        parties=(KO, RE, KO, RE),
        legal=plays(3, C.C10, C.CK),
    )
    assert H.choose(view, random.Random(1)) == Play(3, C.C10)


def test_keeps_the_fuchs_out_of_an_opponents_trick() -> None:
    # The opponent is winning with a Dulle; seat 3 must follow trump with Fuchs or Karo-Neun.
    view = make_view(
        3,
        [C.DA, C.D9, C.SA, C.S9],
        current=[C.D10, C.H10, C.DK],
        current_leader=0,
        parties=(KO, KO, RE, RE),
        legal=plays(3, C.DA, C.D9),
    )
    assert H.choose(view, random.Random(1)) == Play(3, C.D9)


def test_hunts_the_fuchs() -> None:
    # An opponent's Fuchs lies in the trick; seat 2 plays last and takes it cheaply.
    view = make_view(
        2,
        [C.DJ, C.HQ, C.CA, C.S9],
        current=[C.D9, C.DA],
        current_leader=0,
        parties=(RE, RE, KO, KO),
        legal=plays(2, C.DJ, C.HQ),
    )
    # Seat 3 (Kontra partner) still plays, so a winner that stands is wanted: the Herz-Dame
    # is only beaten by unseen higher trumps, the Karo-Bube by many more.
    choice = H.choose(view, random.Random(1))
    assert choice in (Play(2, C.DJ), Play(2, C.HQ))


def test_leads_an_ace_of_a_fresh_suit() -> None:
    hand = [C.CA, C.C9, C.D9, C.HK, C.SK, C.S9, C.H9, C.DK, C.DJ, C.HJ, C.SJ, C.DQ]
    view = make_view(
        1, hand, current_leader=1, parties=(None, KO, None, None), legal=plays(1, *hand)
    )
    assert H.choose(view, random.Random(1)) == Play(1, C.CA)


def test_hochzeit_with_both_alten() -> None:
    for seed in range(200):
        deal = Deal.shuffled(seed, dealer=3)
        holder = next((s for s in range(4) if deal.hands[s].count(C.CQ) == 2), None)
        if holder is None:
            continue
        game = Game(deal)
        view = player_view(game, 0)
        while game.to_act() != holder:
            seat = game.to_act()
            assert seat is not None
            game.apply(Reserve(seat, False))
        view = player_view(game, holder)
        if H.wanted(view) is not Contract.HOCHZEIT:
            continue  # a strong solo hand
        assert H.choose(view, random.Random(0)) == Reserve(holder, True)
        while game.phase is Phase.VORBEHALT:
            seat = game.to_act()
            assert seat is not None
            game.apply(H.choose(player_view(game, seat), random.Random(0)))
        if game.phase is Phase.DECLARE and game.to_act() == holder:
            choice = H.choose(player_view(game, holder), random.Random(0))
            assert choice == Declare(holder, Contract.HOCHZEIT)
            return
    raise AssertionError("no Hochzeit hand found")


def test_vorgefuehrt_plays_the_best_solo() -> None:
    # Seat 0 must play its Pflichtsolo now (one game left, one solo missing).
    ctx = RoundContext(games_left=1, pflichtsolo_done=(False, True, True, True))
    game = Game(Deal.shuffled(77, dealer=3, round=ctx))
    assert game.vorgefuehrt == 0 and game.phase is Phase.DECLARE
    view = player_view(game, 0)
    choice = H.choose(view, random.Random(0))
    assert isinstance(choice, Declare) and choice.contract.is_declared_solo
    from bot.ai.heuristic import solo_strength

    best = max(solo_strength(view.hand, a.contract) for a in view.legal if isinstance(a, Declare))
    assert solo_strength(view.hand, choice.contract) == best


def test_lustsolo_only_with_a_hand_that_wins_it() -> None:
    hand = [C.H10, C.H10, C.CQ, C.SQ, C.SQ, C.HQ, C.CJ, C.CJ, C.SJ, C.CA, C.CA, C.C10]
    from bot.ai.heuristic import best_solo

    contract, _ = best_solo(hand)
    assert contract is Contract.SOLO_KREUZ
    weak = [C.D9, C.D9, C.C9, C.C9, C.S9, C.SK, C.HK, C.H9, C.DK, C.DJ, C.SJ, C.HQ]
    game_view = make_view(0, weak, parties=(None, None, None, None))
    assert H.wanted(game_view) is None


def test_announces_re_with_a_strong_hand_only() -> None:
    strong = [C.H10, C.H10, C.CQ, C.SQ, C.SQ, C.HQ, C.CJ, C.DA, C.DK, C.CA, C.SA, C.HA]
    view = make_view(
        0,
        strong,
        parties=(RE, None, None, None),
        legal=[*plays(0, *strong), Announce(0, Call.RE), Announce(0, Call.NO90)],
    )
    assert H.choose(view, random.Random(0)) == Announce(0, Call.RE)
    weak = [C.CQ, C.D9, C.DK, C.DJ, C.C9, C.C9, C.CK, C.S9, C.SK, C.H9, C.H9, C.HK]
    view = make_view(
        0, weak, parties=(RE, None, None, None), legal=[*plays(0, *weak), Announce(0, Call.RE)]
    )
    assert isinstance(H.choose(view, random.Random(0)), Play)
