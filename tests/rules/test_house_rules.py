"""House rules: golden games (Schweinchen, Armut, Bock, five players) and the single flags.

The golden records under ``golden/house/`` were written by the engine and then checked by
hand; the key figures are restated below as literals and the trick winners recomputed by a
naive reading of the card tables, Schweinchen included.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.rules.calls import Party
from bot.rules.cards import Card, deck
from bot.rules.contracts import Contract
from bot.rules.game import (
    ArmutOffer,
    Deal,
    Game,
    IllegalActionError,
    Phase,
    Play,
    Redeal,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
    armut_trumps,
    trick_winner_index,
)
from bot.rules.presets import PRESET_NAMES, PRESETS, preset_of, rules_summary
from bot.rules.records import game_record_from_dict, game_summary, replay_record
from bot.rules.round import BockState, FiveSeating, SoloKind, bock_triggers
from bot.rules.ruleset import (
    DDV,
    BockStacking,
    BockTrigger,
    NoWinnerScore,
    Ruleset,
    RulesetError,
    SchmeissenReason,
)
from bot.rules.scoring import ScoreFacts, Sonderpunkt, score
from bot.rules.view import player_view, public_view

HOUSE = Path(__file__).parent / "golden" / "house"
AUGEN = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
TRUMPS = ["H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10", "DK", "D9"]
PLAIN = ["A", "10", "K", "Q", "J", "9"]


def naive_winner(cards: list[str], schweinchen: bool) -> int:
    """Normal-game trick winner from the digest's table; Schweinchen put DA on top."""
    trumps = ["DA", *(c for c in TRUMPS if c != "DA")] if schweinchen else TRUMPS

    def strength(card: str) -> tuple[int, int]:
        if card in trumps:
            return (2, -trumps.index(card))
        if card[0] == cards[0][0] and cards[0] not in trumps:
            return (1, -PLAIN.index(card[1:]))
        return (0, 0)

    best = 0
    for i, card in enumerate(cards):
        if strength(card) > strength(cards[best]):
            best = i
    return best


def golden(name: str) -> tuple[Game, dict[str, Any], dict[str, Any]]:
    data = json.loads((HOUSE / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((HOUSE / f"{name}.expected.json").read_text(encoding="utf-8"))
    game, error = replay_record(game_record_from_dict(data))
    assert error is None
    summary = game_summary(game)
    assert summary == expected
    for trick in summary["tricks"]:
        idx = naive_winner(trick["cards"], game.schweinchen is not None)
        assert (trick["leader"] + idx) % 4 == trick["winner"]
        assert trick["augen"] == sum(AUGEN[c[1:]] for c in trick["cards"])
    return game, data, summary


def re_augen(summary: dict[str, Any]) -> int:
    re = set(summary["re_seats"])
    return sum(t["augen"] for t in summary["tricks"] if t["winner"] in re)


# -- golden games -----------------------------------------------------------------------------


def test_golden_schweinchen() -> None:
    game, data, summary = golden("schweinchen")
    assert data["rules"] == {"schweinchen": True}
    assert game.schweinchen == 3 and game.deal.hands[3].count(Card.DA) == 2
    # Trick 4: the first Karo-Ass beats two Karo-Damen; trick 7: the second beats a Dulle.
    assert summary["tricks"][3]["cards"] == ["DQ", "DA", "DQ", "D10"]
    assert summary["tricks"][6]["cards"] == ["DA", "S9", "D10", "H10"]
    assert summary["tricks"][3]["winner"] == summary["tricks"][6]["winner"] == 3
    assert re_augen(summary) == 222 == summary["result"]["re_augen"]
    # Re wins against Kontra's keine 60: 1 + under 90/60/30 + Re 2 + Kontra 2 + two Kontra
    # Absagen + 120 against keine 90 + 90 against keine 60 = 12; no Sonderpunkt.
    assert summary["result"]["game_value"] == 12
    assert summary["result"]["scores"] == [-12, 12, -12, 12]


def test_schweinchen_shown_with_the_first_karo_ass() -> None:
    game, _data, _ = golden("schweinchen")
    again = Game(game.deal)
    for action in game.actions:
        shown = Card.DA in again.current or any(Card.DA in t.cards for t in again.tricks)
        if again.phase is Phase.PLAY:
            assert player_view(again, 3).schweinchen == 3  # the holder knows at once
            assert player_view(again, 3).order.trumps_high_to_low[0] is Card.DA
            for seat in (0, 1, 2):
                view = player_view(again, seat)
                assert view.schweinchen == (3 if shown else None)
                assert (view.order.trumps_high_to_low[0] is Card.DA) == shown
            assert public_view(again).schweinchen == (3 if shown else None)
        again.apply(action)


def test_golden_armut() -> None:
    _game, data, summary = golden("armut")
    assert data["actions"][3:9] == [
        {"seat": 0, "reserve": True},
        {"seat": 0, "armut": ["CQ", "DA", "D10"]},
        {"seat": 1, "take_armut": False},
        {"seat": 2, "take_armut": False},
        {"seat": 3, "take_armut": True},
        {"seat": 3, "return": ["SQ", "H10", "D10"]},
    ]
    assert summary["re_seats"] == [0, 3]
    assert summary["tricks"][0]["leader"] == 1  # left of the dealer leads, as usual
    # Seat 0 plays a Dulle it got back in the exchange (trick 4).
    assert summary["tricks"][3]["cards"][1] == "H10" and summary["tricks"][3]["winner"] == 0
    assert re_augen(summary) == 131
    # Both parties said schwarz: no winner. Re reached 120/90/60/30 against Kontra's four
    # levels (4), Kontra 90/60/30 against Re's (3); Fuchs for Re (trick 10): 4 - 3 + 1 = 2.
    assert summary["result"]["winner"] == "none"
    assert summary["result"]["game_value"] == 2
    assert summary["result"]["scores"] == [2, -2, -2, 2]


def test_armut_step_by_step() -> None:
    game, _data, _ = golden("armut")
    g = Game(game.deal)
    for action in game.actions[:5]:
        g.apply(action)
    assert g.phase is Phase.ARMUT and g.to_act() == 1
    assert g.legal_actions(1) == [TakeArmut(1, True), TakeArmut(1, False)]
    assert player_view(g, 2).armut is not None and player_view(g, 2).armut.offered == 3  # type: ignore[union-attr]
    for action in game.actions[5:8]:
        g.apply(action)
    assert g.to_act() == 3 and len(g.hands[3]) == 15 and len(g.hands[0]) == 9
    with pytest.raises(IllegalActionError) as err:
        g.apply(ReturnCards(3, (Card.SQ, Card.H10)))
    assert err.value.reason == "armut_return_count"
    with pytest.raises(IllegalActionError) as err:
        g.apply(TakeArmut(3, True))
    assert err.value.reason == "armut_taken"
    assert player_view(g, 3).received == (Card.CQ, Card.DA, Card.D10)
    assert player_view(g, 1).received == ()
    g.apply(game.actions[8])
    assert g.phase is Phase.PLAY
    kept = [Card.CA, Card.C10, Card.CK, Card.C9, Card.C9, Card.SA, Card.S9, Card.HA, Card.H9]
    assert sorted(g.hands[0]) == sorted([*kept, Card.SQ, Card.H10, Card.D10])
    view = player_view(g, 2)
    assert view.armut is not None and view.armut.taker == 3 and view.armut.trumps_returned == 3
    assert view.parties == (Party.RE, Party.KONTRA, Party.KONTRA, Party.RE)


def test_golden_armut_declined_is_a_redeal() -> None:
    game, data, summary = golden("armut_declined")
    assert summary["redeal"] == "armut_declined"
    assert [a for a in data["actions"] if "take_armut" in a] == [
        {"seat": (data["actions"][-4]["seat"] + k) % 4, "take_armut": False} for k in (1, 2, 3)
    ]
    assert game.result is None and game.finished and not game.tricks
    assert game.next_dealer() == game.dealer
    assert public_view(game).redeal is Redeal.ARMUT_DECLINED


def test_golden_bock() -> None:
    game, data, summary = golden("bock")
    assert data["bock"] == 2
    assert data["rules"] == {"bock": ["lost_call", "tie_120"], "stammtisch_scoring": True}
    assert re_augen(summary) == 187
    result = summary["result"]
    # Re said schwarz and lost. Kontra: won 1 + four Re Absagen + 30 against schwarz = 6;
    # gegen die Alten (Kontra) and Karlchen (Re) cancel. Re ×2, Kontra ×2, Bock ×2: 6 × 8.
    assert result["winner"] == "kontra"
    assert sum(i["points"] for i in result["game_points"]) == 6
    assert result["multiplier"] == 8 and result["game_value"] == -48
    assert result["scores"] == [48, 48, -48, -48]
    assert not any(i["item"].endswith("_announced") for i in result["game_points"])
    assert summary["bock_triggers"] == ["lost_call"]
    # The same game without Bock is worth half.
    plain = Game(Deal(game.deal.hands, game.deal.dealer, None, game.rules))
    for action in game.actions:
        plain.apply(action)
    assert plain.result is not None and plain.result.scores == (24, 24, -24, -24)


def test_golden_five_players() -> None:
    game, data, summary = golden("five_players")
    seating = FiveSeating(dealer=data["meta"]["five_players_dealer"])
    assert seating.players == (3, 4, 0, 1) and game.dealer == FiveSeating.GAME_DEALER
    assert summary["tricks"][0]["leader"] == 0 == seating.seat_of(3)  # the dealer's left leads
    assert seating.seat_of(2) is None
    # Kontra 151 against its own keine 90: won, under 90, Re 2, Kontra 2, 4 + 1 Absagen,
    # 4 reached-against; gegen die Alten and a Fuchs: 17.
    assert re_augen(summary) == 89
    assert summary["result"]["scores"] == [17, 17, -17, -17]
    assert seating.scores((17, 17, -17, -17)) == (-17, -17, 0, 17, 17)
    assert seating.next_dealer(None) == 3
    # Pflichtsolo flags of five players map onto the four seats and back.
    done5 = (True, False, True, False, False)
    ctx = seating.round_context(10, done5)
    assert ctx.pflichtsolo_done == (False, False, True, False)

    assert seating.pflichtsolo_after(done5, SoloKind.PFLICHT, 1) == (
        True,
        False,
        True,
        False,
        True,
    )
    assert seating.next_dealer(SoloKind.PFLICHT) == 2


# -- Bock bookkeeping -------------------------------------------------------------------------


def test_bock_rounds_stack_and_queue() -> None:
    stack = Ruleset(bock=frozenset({BockTrigger.TIE_120}))
    queue = stack.replace(bock_stacking=BockStacking.QUEUE)
    s = BockState()
    assert s.multiplier(stack) == 1
    s = s.after(1, stack)  # a 120:120: the next four games count double
    assert s.rounds == (4,) and s.multiplier(stack) == 2
    s = s.after(0, stack).after(1, stack)  # two Bock games later another one
    assert s.rounds == (2, 4) and s.multiplier(stack) == 4 and s.games_left(stack) == 4
    s = s.after(0, stack).after(0, stack)
    assert s.rounds == (2,) and s.multiplier(stack) == 2
    q = BockState().after(1, queue).after(0, queue).after(1, queue)
    assert q.rounds == (2, 4) and q.multiplier(queue) == 2 and q.games_left(queue) == 6
    q = q.after(0, queue).after(0, queue)
    assert q.rounds == (4,) and q.multiplier(queue) == 2
    five = Ruleset(players=5, bock=frozenset({BockTrigger.SOLO}))
    assert BockState().after(2, five).rounds == (5, 5)


def _facts(**kw: Any) -> ScoreFacts:
    base: dict[str, Any] = dict(
        contract=Contract.NORMAL, re_seats=(0, 1), re_level=-1, kontra_level=-1
    )
    base.update(re_augen=130, re_tricks=7)
    base.update(kw)
    return ScoreFacts(**base)


def test_bock_triggers() -> None:
    every = Ruleset(bock=frozenset(BockTrigger))
    tie = _facts(re_augen=120, ruleset=every)
    assert bock_triggers(tie, score(tie)) == (BockTrigger.TIE_120,)
    called = _facts(re_level=0, kontra_level=0, re_augen=100, ruleset=every)
    assert bock_triggers(called, score(called)) == (
        BockTrigger.LOST_CALL,
        BockTrigger.RE_AND_KONTRA,
    )
    solo = _facts(contract=Contract.SOLO_DAMEN, re_seats=(2,), re_augen=100, ruleset=every)
    assert bock_triggers(solo, score(solo)) == (BockTrigger.SOLO, BockTrigger.LOST_SOLO)
    only_tie = Ruleset(bock=frozenset({BockTrigger.TIE_120}))
    quiet = _facts(re_level=0, kontra_level=0, re_augen=100, ruleset=only_tie)
    assert bock_triggers(quiet, score(quiet)) == ()


# -- scoring variants -------------------------------------------------------------------------


def test_stammtisch_scoring_on_the_digest_example() -> None:
    """Seed 000's worked example (DDV: +6): won, Re, Kontra; Fuchs + Karlchen vs Doppelkopf."""
    specials = (
        (Sonderpunkt.FUCHS, Party.RE),
        (Sonderpunkt.KARLCHEN, Party.RE),
        (Sonderpunkt.DOPPELKOPF, Party.KONTRA),
    )
    facts = _facts(re_level=0, kontra_level=0, specials=specials)
    assert score(facts).scores == (6, 6, -6, -6)
    stammtisch = Ruleset(stammtisch_scoring=True)
    result = score(_facts(re_level=0, kontra_level=0, specials=specials, ruleset=stammtisch))
    assert (result.game_value, result.multiplier) == (8, 4)  # (1 + 1) × 2 × 2
    bock = score(_facts(re_level=0, kontra_level=0, specials=specials, ruleset=stammtisch, bock=2))
    assert bock.scores == (16, 16, -16, -16)
    assert score(_facts(bock=2)).scores == (2, 2, -2, -2)


def test_no_winner_zero_and_floor() -> None:
    facts = _facts(re_level=1, kontra_level=1, re_augen=140)  # both keine 90: nobody wins
    assert score(facts).winner is None and score(facts).game_value == 1
    zero = score(
        _facts(
            re_level=1,
            kontra_level=1,
            re_augen=140,
            ruleset=Ruleset(no_winner_score=NoWinnerScore.ZERO),
        )
    )
    assert zero.scores == (0, 0, 0, 0) and "no_winner_zero" in zero.notes
    # Re wins 121 but Kontra has 2 Sonderpunkte: DDV -1, floored to 0.
    specials = ((Sonderpunkt.DOPPELKOPF, Party.KONTRA), (Sonderpunkt.FUCHS, Party.KONTRA))
    assert score(_facts(re_augen=121, specials=specials)).game_value == -1
    floored = Ruleset(winner_floor_zero=True)
    assert score(_facts(re_augen=121, specials=specials, ruleset=floored)).game_value == 0


# -- Vorbehalt-phase house rules --------------------------------------------------------------


def _deal_where(cond: Any, ruleset: Ruleset, dealer: int = 0) -> Deal:
    for seed in range(20000):
        deal = Deal.shuffled(seed, dealer=dealer, ruleset=ruleset)
        if cond(deal):
            return deal
    raise AssertionError("no such deal")


def test_schmeissen_on_five_nines() -> None:
    rules = Ruleset(schmeissen=frozenset({SchmeissenReason.NEUNEN}))
    deal = _deal_where(lambda d: sum(c.rank.code == "9" for c in d.hands[1]) >= 5, rules)
    game = Game(deal)
    assert Schmeissen(1) in game.legal_actions(1)
    game.apply(Schmeissen(1))
    assert game.finished and game.redeal is Redeal.SCHMEISSEN and game.result is None
    assert game.next_dealer() == 0
    ddv = Game(Deal(deal.hands, 0))
    with pytest.raises(IllegalActionError) as err:
        ddv.apply(Schmeissen(1))
    assert err.value.reason == "schmeissen_not_allowed"


def test_no_stille_hochzeit() -> None:
    rules = Ruleset(stille_hochzeit_enabled=False)
    deal = _deal_where(lambda d: any(h.count(Card.CQ) == 2 for h in d.hands), rules)
    game = Game(deal)
    for seat in (1, 2, 3, 0):
        game.apply(Reserve(seat, False))
    holder = next(s for s in range(4) if deal.hands[s].count(Card.CQ) == 2)
    assert game.contract is Contract.HOCHZEIT and game.hochzeit is not None
    assert game.hochzeit.hochzeiter == holder and game.leader == 1


def test_armut_outranks_hochzeit_and_needs_few_trumps() -> None:
    rules = Ruleset(armut=True, solos_enabled=False)

    deal = _deal_where(
        lambda d: len(armut_trumps(d.hands[2])) <= 3 and d.hands[3].count(Card.CQ) == 2,
        rules,
    )
    game = Game(deal)
    assert game.can_offer_armut(2) and not game.can_offer_armut(3)
    for seat in (1, 2, 3, 0):
        game.apply(Reserve(seat, seat in (2, 3)))
    with pytest.raises(IllegalActionError) as err:
        game.apply(ArmutOffer(2, ()))
    assert err.value.reason == "armut_must_offer_trumps"
    game.apply(ArmutOffer(2, armut_trumps(deal.hands[2])))
    game.apply(game.legal_actions(3)[0])  # the Hochzeit
    assert game.phase is Phase.ARMUT and game.armut is not None and game.armut.poor == 2
    assert game.to_act() == 3


# -- card orders, rulesets, presets -----------------------------------------------------------


@pytest.mark.parametrize("contract", [Contract.NORMAL, Contract.SOLO_KARO, Contract.SOLO_PIK])
def test_trick_winner_under_schweinchen(contract: Contract) -> None:
    """A Schweinchen (Karo-Ass above the Dullen) wins every trick it falls in where Karo is
    trump; in a Pik solo it stays a plain Karo card and the order is the solo's own.
    """
    order = contract.card_order(True)
    karo_trump = contract is not Contract.SOLO_PIK
    assert (order.trumps_high_to_low[0] is Card.DA) == karo_trump
    if not karo_trump:
        assert order == contract.card_order(False)
    rng = random.Random(5)
    cards = [c for c in deck() if c is not Card.DA]
    for _ in range(2000):
        trick = rng.sample(cards, 3)
        trick.insert(rng.randrange(4), Card.DA)
        for last in (False, True):
            winner = trick_winner_index(order, trick, last, DDV.dulle_tie)
            if karo_trump:
                assert winner == trick.index(Card.DA)
            else:
                plain = contract.card_order(False)
                assert winner == trick_winner_index(plain, trick, last, DDV.dulle_tie)


def test_every_flag_round_trips() -> None:
    full = Ruleset(
        schweinchen=True,
        armut=True,
        armut_max_trumps=2,
        schmeissen=frozenset(SchmeissenReason),
        stille_hochzeit_enabled=False,
        no_winner_score=NoWinnerScore.ZERO,
        bock=frozenset(BockTrigger),
        bock_stacking=BockStacking.QUEUE,
        stammtisch_scoring=True,
        players=5,
    )
    data = json.loads(json.dumps(full.to_dict()))
    assert Ruleset.from_dict(data) == full
    assert data["schmeissen"] == sorted(r.value for r in SchmeissenReason)
    for bad in ({"players": 6}, {"bock": ["sometimes"]}, {"schmeissen": "neunen"}):
        with pytest.raises(RulesetError):
            Ruleset.from_dict(bad)
    with pytest.raises(RulesetError):
        Ruleset(armut_max_trumps=7)


def test_presets() -> None:
    assert set(PRESETS) == set(PRESET_NAMES) == {"ddv", "stammtisch", "online"}
    assert PRESETS["ddv"] == DDV and preset_of(DDV) == "ddv"
    assert preset_of(DDV.replace(schweinchen=True)) is None
    online = PRESETS["online"]
    assert online.games_per_round == 4 and not online.absagen_enabled
    assert not online.solos_enabled and not online.stille_hochzeit_enabled
    assert online.winner_floor_zero
    for key, preset in PRESETS.items():
        assert Ruleset.from_dict(json.loads(json.dumps(preset.to_dict()))) == preset
        for lang in ("de", "en"):
            lines = rules_summary(preset, lang)
            assert lines[0].endswith(PRESET_NAMES[key][lang])
    de = " ".join(rules_summary(PRESETS["stammtisch"], "de"))
    for word in ("Schweinchen", "Armut", "Schmeißen", "Bockrunde", "verdoppeln"):
        assert word in de
    assert "custom rules" in rules_summary(DDV.replace(players=5), "en")[0]
    one = DDV.replace(games_per_round=1)
    assert "; 1 Spiel je Runde." in " ".join(rules_summary(one, "de"))
    assert "; 1 game a round." in " ".join(rules_summary(one, "en"))
    assert "; 8 Spiele je Runde." in " ".join(rules_summary(DDV.replace(games_per_round=8), "de"))


def test_play_before_armut_exchange_is_refused() -> None:
    game, _, _ = golden("armut")
    g = Game(game.deal)
    for action in game.actions[:5]:
        g.apply(action)
    with pytest.raises(IllegalActionError) as err:
        g.apply(Play(1, g.hands[1][0]))
    assert err.value.reason == "wrong_phase"
