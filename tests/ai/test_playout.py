"""The batch playout of the Monte-Carlo search: it plays by the rules and by its rules of thumb.

Rules: every game of a batch is replayed through ``bot.rules.game.Game``, which checks each
card (held, follows suit, right seat) and scores the end; the batch must agree on Augen,
tricks, Sonderpunkte, parties and solo. Rules of thumb: hand-built positions where the policy
leaves one choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from bot.ai.montecarlo import MonteCarloStrategy
from bot.ai.playout import Outcomes, playouts, tables_for
from bot.rules.calls import Party
from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import Deal, Game, Phase, Play, Reserve
from bot.rules.ruleset import DDV, DulleTie, Ruleset
from bot.rules.view import player_view

from .helpers import forced_game

C = Card


def re_bits(game: Game) -> int:
    return sum(1 << s for s in range(4) if game.parties[s] is Party.RE)


def batch_from(game: Game, n: int, seed: int) -> Outcomes:
    """``n`` playouts from the game's position, as the search starts them."""
    t = tables_for(game.contract or Contract.NORMAL, game.rules, game.schweinchen is not None)
    hands = [t.hand_of([int(c) for c in h]) for h in game.hands]
    hochzeiter = -1
    if game.hochzeit is not None and game.hochzeit.clarification_trick is None:
        hochzeiter = game.hochzeit.hochzeiter
    assert game.contract is not None
    return playouts(
        t,
        np.array([hands] * n, dtype=np.int64),
        game.leader,
        np.array([[int(c) for c in game.current]] * n, dtype=np.int64).reshape(n, -1),
        len(game.tricks),
        np.full(n, re_bits(game) or 1 << hochzeiter, dtype=np.int64),
        np.full(n, game.contract.scored_as_solo),
        np.random.default_rng(seed),
        hochzeiter,
    )


def check_against_rules(game: Game, out: Outcomes) -> None:
    """Replay each game of the batch through the rules core and compare the ends."""
    for i in range(out.cards.shape[1]):
        g = Game(game.deal)
        for a in game.actions:
            g.apply(a)
        start = len(g.current)
        assert list(out.cards[:start, i]) == [int(c) for c in g.current]
        for seat, card in zip(out.seats()[start:, i], out.cards[start:, i], strict=True):
            g.apply(Play(int(seat), Card(int(card))))  # raises on a card the rules forbid
        assert g.finished and g.result is not None
        assert all(not h for h in g.hands)
        assert g.result.re_augen + g.result.kontra_augen == 240
        facts = g.score_facts()
        sp = sum(1 if party is Party.RE else -1 for _, party in facts.specials)
        re_won = [
            t for t in game.tricks if t.winner is not None and g.parties[t.winner] is Party.RE
        ]
        past_a = sum(t.augen for t in re_won)
        past_t = len(re_won)
        assert int(out.re_mask[i]) == re_bits(g)
        assert bool(out.solo[i]) == g.contract.scored_as_solo  # type: ignore[union-attr]
        assert int(out.re_augen[i]) + past_a == facts.re_augen
        assert int(out.re_tricks[i]) + past_t == facts.re_tricks
        if not game.tricks:
            assert int(out.sonderpunkte[i]) == sp


def to_play(game: Game, cards: int, seed: int) -> Game:
    """Play ``cards`` random legal cards (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(cards):
        seat = game.to_act()
        if seat is None or game.finished:
            break
        game.apply(Play(seat, rng.choice(game.legal_cards(seat))))
    return game


CONTRACTS = [
    Contract.NORMAL,
    Contract.HOCHZEIT,
    Contract.STILLE_HOCHZEIT,
    Contract.SOLO_KREUZ,
    Contract.SOLO_HERZ,
    Contract.SOLO_KARO,
    Contract.SOLO_DAMEN,
    Contract.SOLO_BUBEN,
    Contract.SOLO_FLEISCHLOS,
]


@pytest.mark.parametrize("contract", CONTRACTS, ids=str)
def test_batch_follows_the_rules_in_every_contract(contract: Contract) -> None:
    for seed in range(6):
        game = forced_game(contract, seed * 13)
        # From the first card, from inside a trick and from a later trick.
        for cards in (0, 2 + seed % 3, 17 + seed):
            g = Game(game.deal)
            for a in game.actions:
                g.apply(a)
            to_play(g, cards, seed)
            if g.finished:
                continue
            check_against_rules(g, batch_from(g, 6, seed))


def house_game(ruleset: Ruleset, seed: int) -> Game:
    game = Game(Deal.shuffled(seed, dealer=seed % 4, ruleset=ruleset))
    while game.phase is Phase.VORBEHALT:
        seat = game.to_act()
        assert seat is not None
        game.apply(Reserve(seat, False))
    return game


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(with_nines=False),
        Ruleset(schweinchen=True),
        *(Ruleset(dulle_tie=tie) for tie in DulleTie),
    ],
    ids=lambda r: "-".join(f"{k}={v}" for k, v in r.to_dict().items() if v != getattr(DDV, k)),
)
def test_batch_follows_the_house_rules(ruleset: Ruleset) -> None:
    for seed in range(12):
        game = house_game(ruleset, seed)
        if game.phase is not Phase.PLAY:
            continue
        to_play(game, seed % 5, seed)
        check_against_rules(game, batch_from(game, 8, seed))


def test_a_hochzeit_is_clarified_or_fails_as_the_rules_say() -> None:
    clarified = failed = 0
    for seed in range(30):
        game = forced_game(Contract.HOCHZEIT, seed * 7)
        out = batch_from(game, 16, seed)
        check_against_rules(game, out)
        h = game.hochzeit
        assert h is not None
        for i in range(16):
            # Trick k's winner leads trick k + 1.
            winners = [int(w) for w in out.leaders[1:4, i]]
            others = [w for w in winners if w != h.hochzeiter]
            if out.solo[i]:
                failed += 1
                assert not others and int(out.re_mask[i]) == 1 << h.hochzeiter
            else:
                clarified += 1
                assert int(out.re_mask[i]) == 1 << h.hochzeiter | 1 << others[0]
    assert clarified and failed


# -- hand-built positions --------------------------------------------------------------------


def play(
    hands: Sequence[Sequence[Card]],
    leader: int,
    re: int,
    trick: Sequence[Card] = (),
    contract: Contract = Contract.NORMAL,
    ruleset: Ruleset = DDV,
    hochzeiter: int = -1,
    seed: int = 0,
) -> Outcomes:
    """One playout of the last tricks: ``hands`` are the cards left, ``re`` the Re seats."""
    t = tables_for(contract, ruleset)
    everything = [c for h in hands for c in h] + list(trick)
    assert all(everything.count(c) <= 2 for c in everything)
    left = len(everything)
    assert left % 4 == 0
    return playouts(
        t,
        np.array([[t.hand_of([int(c) for c in h]) for h in hands]], dtype=np.int64),
        leader,
        np.array([[int(c) for c in trick]], dtype=np.int64).reshape(1, -1),
        ruleset.tricks - left // 4,
        np.array([re], dtype=np.int64),
        np.array([contract.scored_as_solo]),
        np.random.default_rng(seed),
        hochzeiter,
    )


def first_card(out: Outcomes, trick: Sequence[Card] = ()) -> Card:
    return Card(int(out.cards[len(trick), 0]))


def test_onto_the_partner_the_fattest_card() -> None:
    # Seat 0 (Re) leads Kreuz-Ass; seat 1 (Kontra) follows; seat 2 (Re) schmiert the Kreuz-10.
    hands = [[C.SA], [C.S9], [C.C10, C.CK], [C.CK, C.S10]]
    out = play(hands, 0, 0b0101, trick=[C.CA, C.C9])
    assert first_card(out, [C.CA, C.C9]) == C.C10


def test_against_the_lead_the_cheapest_card_that_takes_it() -> None:
    # Kontra leads Kreuz-König; Re holds Kreuz Ass, 10 and 9: the 10 takes it cheapest.
    hands = [[C.SA, C.SK], [C.CA, C.C10, C.C9], [C.S9, C.S9, C.SK], [C.SA, C.S10, C.S10]]
    out = play(hands, 0, 0b0010, trick=[C.CK])
    assert first_card(out, [C.CK]) == C.C10


def test_no_card_takes_it_the_cheapest() -> None:
    hands = [[C.SA, C.SK], [C.C10, C.C9, C.CK], [C.S9, C.S9, C.SK], [C.SA, C.S10, C.S10]]
    out = play(hands, 0, 0b0010, trick=[C.CA])
    assert first_card(out, [C.CA]) == C.C9


def test_void_ruffs_as_cheaply_as_possible() -> None:
    # Seat 1 (Kontra) has no Kreuz, only trumps.
    hands = [[C.SA, C.SK], [C.HJ, C.SQ, C.DK], [C.S9, C.S9, C.SK], [C.SA, C.S10, C.S10]]
    out = play(hands, 0, 0b0101, trick=[C.CA])
    # Without a trump in the trick the cheapest trump wins it: the Karo-König.
    assert first_card(out, [C.CA]) == C.DK
    # Over the Karo-Bube of seat 0 (Re): the Herz-Bube.
    hands = [[C.SA, C.SK], [C.HJ, C.SQ, C.DK], [C.S9, C.S9, C.SK], [C.SA, C.S10]]
    out = play(hands, 3, 0b0101, trick=[C.CA, C.DJ])
    assert first_card(out, [C.CA, C.DJ]) == C.HJ


def test_void_discards_the_fattest_onto_the_partner_else_the_leanest() -> None:
    # Seat 0 led the Kreuz-Ass, seat 1 followed; seat 2 has neither Kreuz nor trumps.
    hands = [[C.SK, C.SK], [C.S9, C.HK], [C.SA, C.H9, C.HA], [C.SA, C.S10, C.S10]]
    out = play(hands, 0, 0b0101, trick=[C.CA, C.C9])
    # Onto the partner (Re: seats 0 and 2) an Ass.
    assert first_card(out, [C.CA, C.C9]) in (C.SA, C.HA)
    # Against the lead and without a trump: the card with the fewest Augen.
    out = play(hands, 0, 0b0001, trick=[C.CA, C.C9])
    assert first_card(out, [C.CA, C.C9]) == C.H9


def test_an_ass_of_a_suit_not_led_yet_leads_mostly() -> None:
    hands = [[C.CA, C.S9, C.H9], [C.S9, C.SK, C.HK], [C.SA, C.H9, C.HA], [C.SA, C.S10, C.S10]]
    t = tables_for(Contract.NORMAL, DDV)
    batch = np.array([[t.hand_of([int(c) for c in h]) for h in hands]] * 600, dtype=np.int64)

    def ass_leads(led_before: int) -> float:
        out = playouts(
            t,
            batch,
            0,
            np.zeros((600, 0), dtype=np.int64),
            9,
            np.full(600, 0b0011, dtype=np.int64),
            np.zeros(600, dtype=bool),
            np.random.default_rng(1),
            led_before=led_before,
        )
        return float((out.cards[0] == C.CA).mean())

    # 0.7 for the rule of thumb, and a third of the random leads.
    assert 0.75 < ass_leads(0) < 0.85
    # Kreuz was led before: the Ass is just one of three cards.
    assert 0.25 < ass_leads(1 << t.klass[C.CA]) < 0.42


def test_the_soloist_pulls_trumps_from_the_top() -> None:
    hands = [[C.CQ, C.DJ, C.H10], [C.S9, C.SK, C.HK], [C.SA, C.H9, C.HA], [C.SA, C.S10, C.S10]]
    out = play(hands, 0, 0b0001, contract=Contract.SOLO_KARO)
    assert first_card(out) == C.H10


@pytest.mark.parametrize(
    ("tie", "winner_last", "winner_other"),
    [
        (DulleTie.FIRST_WINS, 0, 0),
        (DulleTie.SECOND_WINS, 1, 1),
        (DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK, 0, 1),
        (DulleTie.SECOND_WINS_ONLY_LAST_TRICK, 1, 0),
    ],
)
def test_dulle_ties(tie: DulleTie, winner_last: int, winner_other: int) -> None:
    """Both Dullen in one trick: seat 0 (the Karo soloist) plays the first, seat 1 the second."""
    rules = Ruleset(dulle_tie=tie)
    hands = [[C.H10], [C.H10], [C.D9], [C.D9]]
    out = play(hands, 0, 0b0001, contract=Contract.SOLO_KARO, ruleset=rules)
    assert list(out.cards[:, 0]) == [C.H10, C.H10, C.D9, C.D9]
    assert int(out.re_tricks[0]) == (winner_last == 0)
    # The last but one trick: the soloist pulls its Dulle, seat 1 must follow with its own.
    hands = [[C.H10, C.DA], [C.H10, C.S9], [C.D9, C.DJ], [C.D9, C.DJ]]
    out = play(hands, 0, 0b0001, contract=Contract.SOLO_KARO, ruleset=rules)
    assert list(out.cards[:2, 0]) == [C.H10, C.H10]
    assert int(out.leaders[1, 0]) == winner_other  # the winner leads the last trick


def test_sonderpunkte() -> None:
    # Last trick of a normal game: Re (seats 0, 2) wins with the Karlchen over Kontra's Fuchs.
    hands = [[C.CJ], [C.DA], [C.D9], [C.D9]]
    out = play(hands, 1, 0b0101)
    assert int(out.sonderpunkte[0]) == 2  # Fuchs and Karlchen
    assert int(out.re_augen[0]) == 13
    # A Doppelkopf (40 Augen or more) for Re: seat 0 leads the Kreuz-Ass and nothing beats
    # it (of equal cards the first stays ahead).
    hands = [[C.CA], [C.CA], [C.C10], [C.C10]]
    out = play(hands, 0, 0b0101)
    assert int(out.re_augen[0]) == 42 and int(out.sonderpunkte[0]) == 1
    # Re's own Fuchs lost to Kontra: one for Kontra; in a solo nothing counts.
    hands = [[C.DA], [C.CQ], [C.D9], [C.D9]]
    out = play(hands, 0, 0b0101)
    assert int(out.sonderpunkte[0]) == -1
    out = play(hands, 0, 0b0001, contract=Contract.SOLO_KARO)
    assert int(out.sonderpunkte[0]) == 0


def test_a_hochzeiter_with_every_high_trump_plays_alone() -> None:
    """Seat 0 holds the twelve best trumps: it wins tricks 1-3, so the Hochzeit fails."""
    top = [C.H10, C.H10, C.CQ, C.CQ, C.SQ, C.SQ, C.HQ, C.HQ, C.DQ, C.DQ, C.CJ, C.CJ]
    rest = list(deck())
    for c in top:
        rest.remove(c)
    hands = [top, rest[0::3], rest[1::3], rest[2::3]]
    for seed in range(5):
        out = play(hands, 0, 0b0001, contract=Contract.HOCHZEIT, hochzeiter=0, seed=seed)
        assert out.solo[0] and int(out.re_mask[0]) == 0b0001
        assert int(out.re_tricks[0]) == 12 and int(out.re_augen[0]) == 240
        assert int(out.sonderpunkte[0]) == 0  # scored as a solo


def test_deterministic_per_seed() -> None:
    game = forced_game(Contract.NORMAL, 3)
    a, b = batch_from(game, 50, 9), batch_from(game, 50, 9)
    assert (a.cards == b.cards).all() and (a.re_augen == b.re_augen).all()
    c = batch_from(game, 50, 10)
    assert not (a.cards == c.cards).all()
    seat = game.to_act()
    assert seat is not None
    view = player_view(game, seat)
    plays = [x for x in view.legal if isinstance(x, Play)]
    picks = {
        MonteCarloStrategy(playouts=300).search(view, plays, None, random.Random(5))[0]
        for _ in range(3)
    }
    assert len(picks) == 1
