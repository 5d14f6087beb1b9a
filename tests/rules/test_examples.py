"""Every worked example of the rules digest (tests/rules/data/examples.json), one test each."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.rules.calls import NO_CALLS, Call, CallError, Party, PartyCalls, check_call
from bot.rules.cards import Card, deck, parse_card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Deal,
    Declare,
    Game,
    Phase,
    Reserve,
    clarify_hochzeit,
    legal_cards,
    trick_winner_index,
)
from bot.rules.round import RoundContext, SoloKind
from bot.rules.ruleset import DDV, DulleTie, Ruleset
from bot.rules.scoring import (
    ScoreFacts,
    Sonderpunkt,
    fuchs_caught,
    is_doppelkopf,
    is_karlchen,
    score,
)

EXAMPLES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "examples.json").read_text(encoding="utf-8")
)


def of_kind(kind: str) -> list[Any]:
    return [pytest.param(x, id=x["id"]) for x in EXAMPLES if x["kind"] == kind]


# German item names of the digest → the engine's item ids.
ITEM_IDS = {
    "gewonnen (Grundwert)": "won",
    "unter 90 gespielt": "under_90",
    "unter 60 gespielt": "under_60",
    "unter 30 gespielt": "under_30",
    "schwarz gespielt": "schwarz",
    "Re angesagt": "re_announced",
    "Kontra angesagt": "kontra_announced",
    "Re-Absage keine 90": "re_no90",
    "Re-Absage keine 60": "re_no60",
    "Re-Absage keine 30": "re_no30",
    "Re-Absage schwarz": "re_schwarz",
    "Kontra-Absage keine 90": "kontra_no90",
    "Kontra-Absage keine 60": "kontra_no60",
    "Kontra-Absage keine 30": "kontra_no30",
    "Kontra-Absage schwarz": "kontra_schwarz",
    "120 Augen gegen keine 90 erreicht": "reached_120_against_no90",
    "90 Augen gegen keine 60 erreicht": "reached_90_against_no60",
    "60 Augen gegen keine 30 erreicht": "reached_60_against_no30",
    "30 Augen gegen schwarz erreicht": "reached_30_against_schwarz",
}


def special_id(name: str) -> str:
    for prefix, ident in (
        ("Fuchs", "fuchs"),
        ("Karlchen", "karlchen"),
        ("Doppelkopf", "doppelkopf"),
        ("gegen die Alten", "gegen_die_alten"),
    ):
        if name.startswith(prefix):
            return ident
    raise AssertionError(f"unknown special item {name!r}")


def specials_from_events(events: list[dict[str, Any]]) -> tuple[tuple[Sonderpunkt, Party], ...]:
    out: list[tuple[Sonderpunkt, Party]] = []
    for e in events:
        won_by = Party(e["trick_won_by"])
        if e["type"] == "doppelkopf" and is_doppelkopf(e["trick_augen"]):
            out.append((Sonderpunkt.DOPPELKOPF, won_by))
        elif e["type"] == "fuchs" and fuchs_caught(Party(e["diamond_ace_played_by"]), won_by):
            out.append((Sonderpunkt.FUCHS, won_by))
        elif e["type"] == "last_trick" and is_karlchen(parse_card(e["winning_card"])):
            out.append((Sonderpunkt.KARLCHEN, won_by))
    return tuple(out)


@pytest.mark.parametrize("ex", of_kind("score"))
def test_score(ex: dict[str, Any]) -> None:
    calls = ex["effective_calls"]
    facts = ScoreFacts(
        contract=Contract(ex["game_type"]),
        re_seats=tuple(ex["re_seats"]),
        re_level=len(calls["re"]) - 1,
        kontra_level=len(calls["kontra"]) - 1,
        re_augen=ex["re_augen"],
        re_tricks=ex["re_tricks"],
        specials=specials_from_events(ex["events"]),
    )
    result = score(facts)
    exp = ex["expected"]
    assert (str(result.winner) if result.winner else "none") == exp["winner"]
    assert result.re_needed == exp["re_needed"]
    assert result.kontra_needed == exp["kontra_needed"]
    assert sorted((i.item, str(i.party), i.points) for i in result.game_points) == sorted(
        (ITEM_IDS[i["item"]], i["credited_to"], i["points"]) for i in exp["game_point_items"]
    )
    expected_specials = exp.get("special_point_items") or []
    assert sorted((i.item, str(i.party)) for i in result.special_points) == sorted(
        (special_id(i["item"]), i["credited_to"]) for i in expected_specials
    )
    assert result.game_value == exp["re_net"]
    assert list(result.scores) == exp["scores"]
    assert sum(result.scores) == 0
    assert {s % 2 for s in result.scores} in ({0}, {1})
    assert result.calls == {Party.RE: calls["re"], Party.KONTRA: calls["kontra"]}


def _order_for(game_type: str) -> Any:
    return Contract(game_type).order


@pytest.mark.parametrize("ex", of_kind("trick_winner"))
def test_trick_winner(ex: dict[str, Any]) -> None:
    seats = [s for s, _ in ex["cards"]]
    cards = [parse_card(c) for _, c in ex["cards"]]
    assert seats[0] == ex["lead_seat"]
    last = ex["trick_number"] == 12
    order = _order_for(ex["game_type"])
    winner = seats[trick_winner_index(order, cards, last, DDV.dulle_tie)]
    assert winner == ex["expected"]["winner_seat"]
    for key, expected in ex["expected"].get("house_rule_variants", {}).items():
        option = DulleTie(key.split("=", 1)[1])
        assert seats[trick_winner_index(order, cards, last, option)] == expected, key
        # the same trick as the last one, for the variants that depend on it
        in_last = seats[trick_winner_index(order, cards, True, option)]
        first_wins_last = option in (DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK, DulleTie.FIRST_WINS)
        dulle_first = seats[cards.index(Card.H10)] if Card.H10 in cards else None
        if cards.count(Card.H10) == 2 and first_wins_last:
            assert in_last == dulle_first


@pytest.mark.parametrize("ex", of_kind("card_play"))
def test_card_play(ex: dict[str, Any]) -> None:
    order = _order_for(ex["game_type"])
    hand = [parse_card(c) for c in ex["hand"]]
    card = parse_card(ex["card_to_play"])
    legal = card in legal_cards(order, hand, parse_card(ex["led_card"]))
    assert legal == ex["expected"]["legal"]


@pytest.mark.parametrize("ex", of_kind("announcement"))
def test_announcement(ex: dict[str, Any]) -> None:
    shift = ex.get("context", {}).get("deadline_shift", 0)
    state = {Party.RE: NO_CALLS, Party.KONTRA: NO_CALLS}
    for prior in ex["prior_announcements"]:
        party = Party(prior["party"])
        state[party] = check_call(
            party,
            Call(prior["call"]),
            prior["cards_in_hand"],
            state[party],
            state[party.other],
            shift=shift,
        )
    party = Party(ex["announcer_party"])
    context = ex.get("context", {})
    if ex["game_type"] == "hochzeit" and "clarification_trick" not in context:
        # The Klärungsstich is still open: the call window has not begun.
        assert ex["expected"]["legal"] is False
        assert _hochzeit_window_closed(Party(ex["announcer_party"]))
        return
    try:
        new: PartyCalls | None = check_call(
            party,
            Call(ex["call"]),
            ex["cards_in_hand"],
            state[party],
            state[party.other],
            shift=shift,
        )
    except CallError:
        new = None
    assert (new is not None) == ex["expected"]["legal"], ex["expected"]["reason"]


def _hochzeit_window_closed(party: Party) -> bool:
    """A live Hochzeit after a first trick won by the Hochzeiter refuses every call."""
    game = Game(_deal_with_both_alten(seat=0, seed=7, dealer=0))
    for seat in (1, 2, 3, 0):
        game.apply(Reserve(seat, seat == 0))
    game.apply(Declare(0, Contract.HOCHZEIT))
    assert game.phase is Phase.PLAY and game.hochzeit is not None
    return all(not game.legal_calls(s) for s in range(4)) and not game.call_window_open()


def _deal_with_both_alten(seat: int, seed: int, dealer: int = 3, **kw: Any) -> Deal:
    """A random deal in which ``seat`` holds both Kreuz-Damen and nobody else does."""
    cards = deck()
    random.Random(seed).shuffle(cards)
    hands = [cards[i * 12 : (i + 1) * 12] for i in range(4)]
    for other in range(4):
        if other == seat:
            continue
        while Card.CQ in hands[other]:
            i = hands[other].index(Card.CQ)
            j = next(k for k, c in enumerate(hands[seat]) if c != Card.CQ)
            hands[other][i], hands[seat][j] = hands[seat][j], hands[other][i]
    return Deal(tuple(tuple(sorted(h)) for h in hands), dealer, **kw)


def _deal_without_pair(seed: int, dealer: int, **kw: Any) -> Deal:
    """A random deal in which no seat holds both Kreuz-Damen."""
    while True:
        deal = Deal.shuffled(seed, dealer, **kw)
        if all(h.count(Card.CQ) < 2 for h in deal.hands):
            return deal
        seed += 1000


@pytest.mark.parametrize("ex", of_kind("procedure"))
def test_procedure(ex: dict[str, Any]) -> None:
    facts = ex["facts"]
    exp = ex["expected"]
    if "trick_winners_first_three" in facts:
        winners = [w for w in facts["trick_winners_first_three"] if w is not None]
        info = clarify_hochzeit(facts["hochzeiter"], winners)
        assert info.partner == exp["partner"]
        assert info.clarification_trick == exp["clarification_trick"]
        assert info.clarification_trick - 1 == exp["deadline_shift"]
        return
    dealer = facts["dealer"]
    if "games_remaining_including_this" in facts:
        done = tuple(s not in facts["pflichtsolo_missing"] for s in range(4))
        ctx = RoundContext(facts["games_remaining_including_this"], done)  # type: ignore[arg-type]
        game = Game(_deal_without_pair(11, dealer, round=ctx))
        assert game.vorgefuehrt == exp["vorgefuehrt"]
        if exp["vorgefuehrt"] is None:
            assert game.phase is Phase.VORBEHALT
            return
        assert game.phase is Phase.DECLARE
        seat = exp["vorgefuehrt"]
        game.apply(Declare(seat, Contract.SOLO_DAMEN))
        assert game.solo_kind is SoloKind.VORGEFUEHRT
        assert game.leader == exp["first_lead"]
        assert game.dealer == exp["dealer_remains"]
        return
    wants = {v["seat"]: v for v in facts["vorbehalte"]}
    holder = facts.get("both_CQ_held_by")
    hochzeit_seat = next((s for s, v in wants.items() if v["wants"] == "hochzeit"), holder)
    ctx = None
    if any("pflichtsolo_done" in v for v in wants.values()):
        done = tuple(
            wants[s].get("pflichtsolo_done", True) if s in wants else True for s in range(4)
        )
        ctx = RoundContext(24, done)  # type: ignore[arg-type]
    if hochzeit_seat is not None:
        deal = _deal_with_both_alten(hochzeit_seat, seed=5, dealer=dealer, round=ctx)
    else:
        deal = _deal_without_pair(5, dealer, round=ctx)
    game = Game(deal)
    for k in range(1, 5):
        seat = (dealer + k) % 4
        game.apply(Reserve(seat, seat in wants))
    for k in range(1, 5):
        seat = (dealer + k) % 4
        if seat in wants:
            kind = wants[seat]["wants"]
            game.apply(
                Declare(seat, Contract.HOCHZEIT if kind == "hochzeit" else Contract.SOLO_PIK)
            )
    assert game.phase is Phase.PLAY
    kind = exp["game"]
    if kind in ("pflichtsolo", "lustsolo"):
        assert game.solo_kind is (SoloKind.PFLICHT if kind == "pflichtsolo" else SoloKind.LUST)
        assert game.contract is Contract.SOLO_PIK
        assert game.soloist == exp["declarer"]
    elif kind == "hochzeit":
        assert game.contract is Contract.HOCHZEIT
        assert game.hochzeit is not None and game.hochzeit.hochzeiter == exp["declarer"]
    else:
        assert game.contract is Contract(kind)
        assert game.soloist == exp["declarer"]
        assert game.solo_kind is None
        if "counts_as_pflichtsolo" in exp:
            assert exp["counts_as_pflichtsolo"] is False
    assert game.leader == exp["first_lead"]
    assert game.next_dealer() == exp["next_dealer"]


def test_every_example_kind_is_covered() -> None:
    kinds = {x["kind"] for x in EXAMPLES}
    assert kinds == {"score", "trick_winner", "card_play", "announcement", "procedure"}


def test_ruleset_round_trip_and_errors() -> None:
    rules = Ruleset(dulle_tie=DulleTie.SECOND_WINS, with_nines=False)
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert DDV.to_dict() == {}
    with pytest.raises(ValueError, match="unknown rule"):
        Ruleset.from_dict({"schweinchen_everywhere": True})
    with pytest.raises(ValueError, match="one of"):
        Ruleset.from_dict({"dulle_tie": "third_wins"})
