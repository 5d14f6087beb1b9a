"""The fast playout path against the validating ``Game``: same cards, same legality, same result.

Every test drives a real ``Game`` (reserving and declaring the contract as players would),
plays random legal cards through it, and checks that the fast path, fed the same position
and the same cards, offers exactly the same legal cards at every step and finds the same
trick winners, Re Augen and Re tricks.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules.calls import Party
from bot.rules.cards import AUGEN, CARDS, Card, deck
from bot.rules.contracts import Contract
from bot.rules.fast import (
    FastTables,
    Policy,
    deal,
    fast_tables,
    legal_range,
    playout,
    random_playout,
    random_playout_from_deal,
    trick_winner,
)
from bot.rules.game import Deal, Declare, Game, Phase, Play, Reserve, trick_winner_index
from bot.rules.ruleset import DulleTie, Ruleset

RULESETS = [
    Ruleset(dulle_tie=tie, with_nines=nines)
    for tie, nines in itertools.product(DulleTie, (True, False))
]
SOLO_CONTRACTS = [c for c in Contract if c.is_declared_solo]
# Contracts reached by declaring (solos, Hochzeit) or by everyone saying gesund.
PLAYABLE = [Contract.NORMAL, Contract.STILLE_HOCHZEIT, Contract.HOCHZEIT, *SOLO_CONTRACTS]


def start_game(contract: Contract, ruleset: Ruleset, seed: int) -> Game:
    """A Game in its play phase under ``contract``, from the first fitting seed from ``seed``."""
    for s in itertools.count(seed * 1000):
        d = Deal.shuffled(s, dealer=s % 4, ruleset=ruleset)
        alten = [h.count(Card.CQ) for h in d.hands]
        game = Game(d)
        first = (d.dealer + 1) % 4
        if contract in (Contract.NORMAL, Contract.STILLE_HOCHZEIT):
            if (2 in alten) != (contract is Contract.STILLE_HOCHZEIT):
                continue
            for k in range(4):
                game.apply(Reserve((first + k) % 4, False))
        elif contract is Contract.HOCHZEIT:
            if 2 not in alten:
                continue
            holder = alten.index(2)
            for k in range(4):
                seat = (first + k) % 4
                game.apply(Reserve(seat, seat == holder))
            game.apply(Declare(holder, Contract.HOCHZEIT))
        else:
            # The first seat reserves and names the solo; the others are gesund.
            for k in range(4):
                game.apply(Reserve((first + k) % 4, k == 0))
            game.apply(Declare(first, contract))
        assert game.phase is Phase.PLAY and game.contract is contract
        return game
    raise AssertionError("unreachable")


@dataclass
class Snapshot:
    """What the fast path needs of a Game position."""

    hands: list[list[int]]
    leader: int
    current: list[int]
    tricks_done: int
    re_mask: int
    hochzeiter: int | None


def snapshot(game: Game, tables: FastTables) -> Snapshot:
    hochzeiter = None
    h = game.hochzeit
    if h is not None and h.clarification_trick is None:
        hochzeiter = h.hochzeiter
        re_mask = 1 << hochzeiter
    else:
        re_mask = sum(1 << s for s in range(4) if game.parties[s] is Party.RE)
    return Snapshot(
        hands=[tables.encode(game.hands[s]) for s in range(4)],
        leader=game.leader,
        current=[tables.code[c] for c in game.current],
        tricks_done=len(game.tricks),
        re_mask=re_mask,
        hochzeiter=hochzeiter,
    )


def legal_cards_of(game: Game, seat: int) -> set[Card]:
    return {a.card for a in game.legal_actions(seat) if isinstance(a, Play)}


def check_against_game(contract: Contract, ruleset: Ruleset, seed: int, cut: int) -> Game:
    """Play one random game through Game; replay it from card ``cut`` on through the fast path."""
    game = start_game(contract, ruleset, seed)
    tables = fast_tables(game.contract or contract, ruleset)
    rng = random.Random(seed)
    total_cards = 4 * ruleset.tricks
    cut = cut % total_cards
    snap: Snapshot | None = None
    steps: list[tuple[int, set[Card], Card]] = []  # (seat, legal cards, card played)
    for played in range(total_cards):
        if played == cut:
            snap = snapshot(game, tables)
        seat = game.to_act()
        assert seat is not None
        legal = legal_cards_of(game, seat)
        card = rng.choice(sorted(legal))
        if played >= cut:
            steps.append((seat, legal, card))
        game.apply(Play(seat, card))
    assert game.finished and snap is not None
    facts = game.score_facts()
    later = game.tricks[snap.tricks_done :]
    want_winners = [t.winner for t in later]
    want_augen = sum(t.augen for t in later if game.parties[t.winner or 0] is Party.RE)
    want_tricks = sum(1 for t in later if game.parties[t.winner or 0] is Party.RE)
    if snap.tricks_done == 0:
        assert (want_augen, want_tricks) == (facts.re_augen, facts.re_tricks)

    step = iter(steps)

    def follow_game(seat: int, hand: list[int], lo: int, hi: int, trick: list[int]) -> int:
        want_seat, want_legal, card = next(step)
        assert seat == want_seat
        assert set(tables.decode(hand[lo:hi])) == want_legal
        assert lo <= hand.index(tables.code[card], lo) < hi
        return hand.index(tables.code[card], lo)

    winners: list[int] = []
    hands_before = [list(h) for h in snap.hands]
    result = playout(
        tables,
        snap.hands,
        snap.leader,
        snap.current,
        snap.tricks_done,
        snap.re_mask,
        random.Random(0),
        follow_game,
        hochzeiter=snap.hochzeiter,
        winners=winners,
    )
    assert next(step, None) is None, "the fast path stopped early"
    assert winners == want_winners
    assert result == (want_augen, want_tricks)
    assert snap.hands == hands_before, "playout must not change the caller's hands"
    return game


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.dulle_tie}-{r.hand_size}")
@pytest.mark.parametrize("contract", PLAYABLE)
def test_same_cards_same_game(contract: Contract, ruleset: Ruleset) -> None:
    for seed in range(6):
        # From the start, from a partly played trick, and from a later whole trick.
        for cut in (0, seed * 7 + 1, 4 * (seed + 3)):
            check_against_game(contract, ruleset, seed, cut)


@settings(max_examples=120, deadline=None)
@given(
    contract=st.sampled_from(PLAYABLE),
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10**6),
    cut=st.integers(0, 47),
)
def test_same_cards_same_game_property(
    contract: Contract, ruleset: Ruleset, seed: int, cut: int
) -> None:
    check_against_game(contract, ruleset, seed, cut)


def test_every_hochzeit_outcome() -> None:
    """Partner found in trick 1, 2 or 3, or none (a failed Hochzeit, TSR 4.4), from any cut."""
    seen: dict[object, int] = {}
    for seed in range(400):
        game = check_against_game(Contract.HOCHZEIT, RULESETS[seed % len(RULESETS)], seed, 0)
        h = game.hochzeit
        assert h is not None
        outcome = (h.clarification_trick, h.partner is None)
        if seen.get(outcome, 0) < 3:
            seen[outcome] = seen.get(outcome, 0) + 1
            for cut in (1, 4, 5, 9):
                check_against_game(Contract.HOCHZEIT, RULESETS[seed % len(RULESETS)], seed, cut)
        if len(seen) == 4 and min(seen.values()) >= 3:
            break
    assert set(seen) == {(1, False), (2, False), (3, False), (3, True)}


def mimic_random(rng: random.Random, chosen: list[int]) -> Policy:
    """A policy drawing exactly as the lean random loop does, recording its cards."""

    def policy(seat: int, hand: list[int], lo: int, hi: int, trick: list[int]) -> int:
        i = lo + int(rng.random() * (hi - lo))
        chosen.append(hand[i])
        return i

    return policy


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.dulle_tie}-{r.hand_size}")
@pytest.mark.parametrize("contract", [Contract.NORMAL, *SOLO_CONTRACTS])
def test_random_loop_plays_legal_games(contract: Contract, ruleset: Ruleset) -> None:
    """The lean loop equals the checked card-by-card loop, whose cards Game accepts."""
    for seed in range(8):
        game = start_game(contract, ruleset, seed)
        tables = fast_tables(contract, ruleset)
        for cut in (0, 1 + seed % 3, 4 * (1 + seed % 5) + 2):
            g = Game(game.deal)
            for action in game.actions:
                g.apply(action)
            for _ in range(cut):
                seat = g.to_act()
                assert seat is not None
                g.apply(Play(seat, min(legal_cards_of(g, seat))))
            snap = snapshot(g, tables)
            args = (tables, snap.hands, snap.leader, snap.current, snap.tricks_done, snap.re_mask)
            lean = playout(*args, random.Random(seed))
            chosen: list[int] = []
            draw = random.Random(seed)
            checked = playout(*args, draw, mimic_random(draw, chosen))
            assert lean == checked
            for card in tables.decode(chosen):
                seat = g.to_act()
                assert seat is not None
                g.apply(Play(seat, card))
            assert g.finished
            later = g.tricks[snap.tricks_done :]
            re_tricks = [t for t in later if g.parties[t.winner or 0] is Party.RE]
            assert lean == (sum(t.augen for t in re_tricks), len(re_tricks))


def test_random_playout_from_deal_is_a_normal_game() -> None:
    """The benchmark's unit: a fresh deal, Re = the Kreuz-Damen, 48 random legal cards."""
    tables = fast_tables(Contract.NORMAL)
    for seed in range(60):
        rng = random.Random(seed)
        hands = deal(tables, rng)
        chosen: list[int] = []
        alten = tables.code[Card.CQ]
        re_mask = sum(1 << s for s in range(4) if alten in hands[s])
        checked = playout(tables, hands, 1, (), 0, re_mask, rng, mimic_random(rng, chosen))
        assert random_playout_from_deal(seed) == checked
        assert random_playout(random.Random(seed)) == checked
        game = Game(Deal(tuple(tuple(tables.decode(h)) for h in hands), dealer=0))
        for speaker in (1, 2, 3, 0):
            game.apply(Reserve(speaker, False))
        for card in tables.decode(chosen):
            seat = game.to_act()
            assert seat is not None
            game.apply(Play(seat, card))
        facts = game.score_facts()
        assert checked == (facts.re_augen, facts.re_tricks)


@pytest.mark.parametrize("with_nines", [True, False])
def test_deal_is_the_deck(with_nines: bool) -> None:
    tables = fast_tables(Contract.SOLO_DAMEN)
    rng = random.Random(7)
    seen: set[tuple[int, ...]] = set()
    for _ in range(200):
        hands = deal(tables, rng, with_nines)
        assert all(h == sorted(h) and len(h) == len(deck(with_nines)) // 4 for h in hands)
        assert sorted(tables.decode([c for h in hands for c in h])) == deck(with_nines)
        seen.add(tuple(hands[3]))
    assert len(seen) == 200  # the fourth hand is not fixed either


def test_deal_is_uniform_per_seat() -> None:
    """Each seat gets each card kind equally often (two copies among four seats: 1/2 each)."""
    tables = fast_tables(Contract.NORMAL)
    rng = random.Random(11)
    n = 4000
    counts = [[0] * 24 for _ in range(4)]
    for _ in range(n):
        for seat, hand in enumerate(deal(tables, rng)):
            for c in hand:
                counts[seat][c] += 1
    for seat in range(4):
        for c in range(24):
            # Expected n/2 copies; 6 standard deviations of a sum of n draws is about 130.
            assert abs(counts[seat][c] - n / 2) < 130, (seat, tables.card[c])


@pytest.mark.parametrize("ruleset", RULESETS[::2], ids=lambda r: str(r.dulle_tie))
@pytest.mark.parametrize("contract", [Contract.NORMAL, *SOLO_CONTRACTS])
def test_trick_winner_matches_game(contract: Contract, ruleset: Ruleset) -> None:
    tables = fast_tables(contract, ruleset)
    order = contract.order
    rng = random.Random(3)
    for _ in range(1500):
        cards = [rng.choice(CARDS) for _ in range(4)]
        if rng.random() < 0.3:  # make two Herz-Zehnen meet often
            i, j = rng.sample(range(4), 2)
            cards[i] = cards[j] = Card.H10
        for last in (False, True):
            want = trick_winner_index(order, cards, last, ruleset.dulle_tie)
            assert trick_winner(tables, [tables.code[c] for c in cards], last) == want


@pytest.mark.parametrize("contract", [Contract.NORMAL, *SOLO_CONTRACTS])
def test_tables_are_contiguous_and_consistent(contract: Contract) -> None:
    tables = fast_tables(contract)
    order = contract.order
    assert fast_tables(contract) is tables  # compiled once
    assert sorted(tables.code) == list(range(24))
    for c in CARDS:
        fid = tables.code[c]
        assert tables.card[fid] is c
        assert tables.augen[fid] == AUGEN[c]
        members = {tables.card[i] for i in range(*tables.span[fid])}
        assert members == {d for d in CARDS if order.klass[d] == order.klass[c]}
    for a, b in itertools.pairwise(range(24)):
        ca, cb = tables.card[a], tables.card[b]
        if order.klass[ca] == order.klass[cb]:
            assert order.power[ca] <= order.power[cb]  # weak → strong inside a class


def test_legal_range() -> None:
    tables = fast_tables(Contract.NORMAL)
    hand = tables.encode([Card.CA, Card.C9, Card.SA, Card.DQ, Card.H10])
    assert set(tables.decode(hand[slice(*legal_range(tables, hand, None))])) == set(
        tables.decode(hand)
    )
    # Kreuz led: the two Kreuz cards; a trump led: DQ and the Dulle; Herz led: none → all.
    ck = legal_range(tables, hand, tables.code[Card.CK])
    assert set(tables.decode(hand[ck[0] : ck[1]])) == {Card.CA, Card.C9}
    tr = legal_range(tables, hand, tables.code[Card.D9])
    assert set(tables.decode(hand[tr[0] : tr[1]])) == {Card.DQ, Card.H10}
    assert legal_range(tables, hand, tables.code[Card.HA]) == (0, len(hand))


@pytest.mark.parametrize(
    ("tie", "second_wins_last"),
    [
        (DulleTie.FIRST_WINS, False),
        (DulleTie.SECOND_WINS, True),
        (DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK, False),
        (DulleTie.SECOND_WINS_ONLY_LAST_TRICK, True),
    ],
)
def test_both_dullen_in_the_last_trick(tie: DulleTie, second_wins_last: bool) -> None:
    """Trick 11 is under way (CA led by seat 0); trick 12 brings both Herz-Zehnen."""
    tables = fast_tables(Contract.NORMAL, Ruleset(dulle_tie=tie))
    hands = [
        tables.encode(h)
        for h in (
            [Card.H10],
            [Card.C9, Card.DJ],
            [Card.CK, Card.H10],
            [Card.C10, Card.D9],
        )
    ]
    current = [tables.code[Card.CA]]
    # Seat 0 wins trick 11 (25 Augen); trick 12 (22 Augen) goes to seat 0 or seat 2.
    want = (25, 1) if second_wins_last else (47, 2)
    rng = random.Random(0)
    assert playout(tables, hands, 0, current, 10, 0b0001, rng) == want
    winners: list[int] = []
    assert playout(tables, hands, 0, current, 10, 0b0001, rng, winners=winners) == want
    assert winners == [0, 2 if second_wins_last else 0]
    # Trick 11 done: the lean loop only.
    last = [tables.encode([c]) for c in (Card.H10, Card.DJ, Card.H10, Card.D9)]
    assert playout(tables, last, 0, [], 11, 0b0001, rng) == (want[0] - 25, want[1] - 1)
