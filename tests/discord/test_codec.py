"""The custom-id codec: every action a game offers survives the round trip through a custom
id, and anything else that claims to be a doko id is refused with a reason.
"""

from __future__ import annotations

import random

import pytest

from bot.discord import codec
from bot.discord.components import Components
from bot.render.controls import TABLE_KINDS, TableButton
from bot.render.hand import hand_controls
from bot.rules.calls import Call
from bot.rules.cards import Card
from bot.rules.game import (
    Action,
    Announce,
    ArmutOffer,
    Deal,
    Declare,
    Game,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)
from bot.rules.presets import PRESETS
from bot.rules.view import player_view


def _encoded(table_id: int, version: int, action: Action, copy: int = 0) -> tuple[str, list[str]]:
    """An action as the id (and select values) the bot sends for it."""
    match action:
        case Declare(seat=seat):
            return codec.select_id(table_id, version, "declare", seat), [
                codec.declare_value(action)
            ]
        case ReturnCards(seat=seat, cards=cards):
            values, copies = [], dict.fromkeys(cards, 0)
            for card in cards:
                values.append(codec.card_value(card, copies[card]))
                copies[card] += 1
            return codec.select_id(table_id, version, "return", seat), values
        case _:
            return codec.button_id(table_id, version, action, copy), []


def _random_games(preset: str, games: int) -> list[tuple[int, Action]]:
    """(version, action) for every legal action at every step of random games: what the
    menus offer, not only what was picked.
    """
    rng = random.Random(preset)
    offered: list[tuple[int, Action]] = []
    for n in range(games):
        game = Game(Deal.shuffled(rng.randrange(2**32), dealer=n % 4, ruleset=PRESETS[preset]))
        while not game.finished:
            seat = game.to_act()
            seats = range(4) if seat is None else [seat, *range(4)]
            legal = [a for s in seats for a in game.legal_actions(s)]
            offered += [(game.action_count, a) for a in legal]
            game.apply(rng.choice(legal))
    return offered


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_offered_action_round_trips(preset: str) -> None:
    offered = _random_games(preset, 12)
    kinds = {type(a) for _, a in offered}
    assert {Play, Announce, Reserve, Declare} <= kinds
    for version, action in offered:
        for copy in (0, 1) if isinstance(action, Play) else (0,):
            custom_id, values = _encoded(123456789012345678, version, action, copy)
            assert len(custom_id) <= codec.MAX_ID
            assert codec.decode(custom_id, values) == codec.Click(
                123456789012345678, version, action
            )


def test_house_rule_actions_round_trip() -> None:
    actions: list[Action] = [
        Schmeissen(2),
        ArmutOffer(1, (Card.DQ, Card.D10, Card.HJ)),
        TakeArmut(3, True),
        TakeArmut(0, False),
        ReturnCards(2, (Card.SA, Card.SA, Card.H9)),
        *(Announce(1, call) for call in Call),
    ]
    for action in actions:
        custom_id, values = _encoded(7, 31, action)
        assert codec.decode(custom_id, values) == codec.Click(7, 31, action)


def test_table_buttons_round_trip() -> None:
    buttons = [TableButton(k) for k in TABLE_KINDS if k not in ("addai", "removeai", "analyse")]
    buttons += [TableButton("addai", "stark"), TableButton("removeai", "3")]
    buttons += [TableButton("analyse", "12")]
    for button in buttons:
        assert codec.decode(codec.button_id(7, 0, button)) == codec.Click(7, 0, button)


def test_a_card_button_reads_as_the_design_says() -> None:
    custom_id = codec.button_id(7, 31, Play(2, Card.H10), copy=1)
    assert custom_id == "doko:card:7:31:2:H10:1"


@pytest.mark.parametrize(
    ("custom_id", "values", "reason"),
    [
        ("doko:card:7", (), "not_doko"),
        ("other:card:7:31:2:H10:1", (), "not_doko"),
        ("doko:card:7:31:2:H10:1:" + "x" * 90, (), "not_doko"),
        ("doko:card:-7:31:2:H10:1", (), "bad_number"),
        ("doko:card:7:031:2:H10:1", (), "bad_number"),
        ("doko:card:7:x:2:H10:1", (), "bad_number"),
        ("doko:card:7:31:4:H10:1", (), "bad_seat"),
        ("doko:card:7:31:2:h10:1", (), "bad_card"),
        ("doko:card:7:31:2:X10:1", (), "bad_card"),
        ("doko:card:7:31:2:H10:2", (), "bad_copy"),
        ("doko:card:7:31:2:H10", (), "wrong_fields"),
        ("doko:card:7:31", (), "wrong_fields"),
        ("doko:card:7:31:2:H10:1", ("H10:1",), "unexpected_values"),
        ("doko:reserve:7:31:2:yes", (), "bad_flag"),
        ("doko:call:7:31:2:keine90", (), "bad_call"),
        ("doko:schmeissen:7:31:2:now", (), "wrong_fields"),
        ("doko:armut:7:31:2", (), "wrong_fields"),
        ("doko:takearmut:7:31:2", (), "wrong_fields"),
        ("doko:join:7:31:1", (), "wrong_fields"),
        ("doko:addai:7:31", (), "wrong_fields"),
        ("doko:removeai:7:31:one", (), "bad_number"),
        ("doko:shuffle:7:31:2", (), "unknown_kind"),
        ("doko:declare:7:31:2", (), "no_values"),
        ("doko:declare:7:31:2", ("normal",), "bad_values"),
        ("doko:declare:7:31:2", ("hochzeit", "solo_damen"), "bad_values"),
        ("doko:declare:7:31:2:x", ("hochzeit",), "wrong_fields"),
        ("doko:return:7:31:2", ("H10",), "bad_values"),
        ("doko:return:7:31:2", ("H10:0", "H10:0"), "bad_values"),
        ("doko:return:7:31:2", ("H10:0", "Q:1"), "bad_card"),
    ],
)
def test_malformed_ids_are_refused_with_a_reason(
    custom_id: str, values: tuple[str, ...], reason: str
) -> None:
    with pytest.raises(codec.CodecError) as refused:
        codec.decode(custom_id, values)
    assert refused.value.reason == reason


def test_the_rendered_hand_has_unique_decodable_ids() -> None:
    """Two copies of a card in one hand: distinct ids that decode to the same play."""
    game = Game(Deal.shuffled(11))
    for seat in range(4):
        view = player_view(game, seat)
        ui = Components(5, 9, hand_controls(view, "de"))
        ids = ui.custom_ids()
        assert len(ids) == len(set(ids))
        plays = [codec.decode(i).target for i in ids if i.startswith("doko:card:")]
        assert sorted(p.card for p in plays if isinstance(p, Play)) == sorted(view.hand)
