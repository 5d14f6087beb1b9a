"""The private hand message (bot/render/hand.py) and the rule presets' names."""

from __future__ import annotations

import random

import pytest

from bot.render.controls import Select
from bot.render.hand import game_over_message, hand_content, hand_controls, sitting_out_message
from bot.render.presets import NAMES, PRESETS, preset_name, preset_of
from bot.render.table import rules_preset_name
from bot.render.terms import contract_name, party_name
from bot.render.texts import Lang, t
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Deal, Game, Phase, Reserve
from bot.rules.ruleset import DDV
from bot.rules.view import player_view

from .helpers import NAMES as PLAYER_NAMES
from .helpers import drive, five_seating, gesund_and_random, limit_errors, table_info


def test_the_vorbehalt_prompt_goes_to_the_seat_asked(lang: Lang) -> None:
    game = Game(Deal.shuffled(2, dealer=3))
    info = table_info(game)
    asked = game.to_act()
    assert asked == 0  # the seat after the dealer speaks first
    for seat in range(4):
        text = hand_content(info, player_view(game, seat), lang)
        assert text.splitlines()[0] == t(
            lang, "hand_head", table=7, number=1, game_id=4711, seat=seat + 1
        )
        assert (t(lang, "vorbehalt_prompt") in text) == (seat == asked)
        assert t(lang, "your_cards") in text


def test_in_play_the_hand_says_party_turn_and_calls(lang: Lang) -> None:
    game = Game(Deal.shuffled(4, dealer=0))
    drive(game, gesund_and_random(random.Random(4)), until=lambda g: len(g.tricks) == 2)
    info = table_info(game)
    for seat in range(4):
        view = player_view(game, seat)
        text = hand_content(info, view, lang)
        # Every seat knows its own party from its own Kreuz-Damen.
        assert view.own_party is not None
        assert t(lang, "your_party", party=party_name(view.own_party)) in text
        mine = seat == game.to_act()
        assert (t(lang, "your_turn") in text) == mine
        if not mine:
            assert PLAYER_NAMES[game.to_act() or 0] in text
        assert t(lang, "contract_line", contract=contract_name(Contract.NORMAL, lang)) in text
        assert f"{t(lang, 'calls')}: {t(lang, 'no_calls')}" in text
        assert t(lang, "last_trick") in text


def test_the_finished_hand_says_so(lang: Lang) -> None:
    game = drive(Game(Deal.shuffled(5, dealer=0)), gesund_and_random(random.Random(5)))
    assert game.phase is Phase.FINISHED
    text = hand_content(table_info(game), player_view(game, 2), lang)
    assert t(lang, "game_over_hand") in text and t(lang, "no_cards") in text


def test_at_five_the_hand_names_the_table_seat_and_who_sits_out(lang: Lang) -> None:
    seating = five_seating(3)  # table seat 2 deals and sits out
    game = Game(Deal.shuffled(6, dealer=0))
    info = table_info(game, size=5, game_seats=seating)
    text = hand_content(info, player_view(game, 2), lang)  # game seat 2 is table seat 3
    head = t(lang, "hand_head", table=7, number=1, game_id=4711, seat=4)
    assert text.splitlines()[0] == head
    assert t(lang, "sitting_out_line", name=PLAYER_NAMES[2]) in text
    content, _ = sitting_out_message(info, lang)
    assert t(lang, "you_sit_out") in content
    assert t(lang, "hand_head", table=7, number=1, game_id=4711, seat=3) in content


def test_the_game_over_message(lang: Lang) -> None:
    info = table_info(Game(Deal.shuffled(7)))
    text = game_over_message(info, 101, lang)
    assert text == "\n".join(
        [t(lang, "hand_head", table=7, number=1, game_id=4711, seat=2), t(lang, "game_over_hand")]
    )


@pytest.mark.parametrize("seed", range(6))
def test_the_hand_text_fits_a_message(seed: int, lang: Lang) -> None:
    game = Game(Deal.shuffled(seed, dealer=seed % 4))
    rng = random.Random(seed)
    info = table_info(game, size=5, game_seats=five_seating(seed + 1))
    while not game.finished:
        for seat in range(4):
            text = hand_content(info, player_view(game, seat), lang)
            assert limit_errors(content=text) == []
        drive(game, gesund_and_random(rng), until=lambda g, n=game.action_count: g.action_count > n)
        info = table_info(game, size=5, game_seats=five_seating(seed + 1))


# -- presets --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_is_found_again_and_named_in_both_languages(key: str) -> None:
    assert preset_of(PRESETS[key]) == key
    assert preset_name(key, "de").strip() and preset_name(key, "en").strip()
    assert set(NAMES) == set(PRESETS)


def test_preset_names_are_distinct(lang: Lang) -> None:
    names = [preset_name(k, lang) for k in PRESETS]
    assert len(set(names)) == len(names)


def test_custom_rules_are_called_so() -> None:
    custom = DDV.replace(with_nines=False, absagen_enabled=False)
    assert preset_of(custom) == "eigene"
    assert preset_name("eigene", "de") == "eigene Regeln"
    assert preset_name("eigene", "en") == "custom rules"


def test_five_seats_keep_the_preset_name() -> None:
    assert rules_preset_name(DDV, "de") == "DDV-Turnier"
    assert rules_preset_name(DDV.replace(players=5), "de") == (
        "DDV-Turnier · 5 Plätze (der Geber setzt aus)"
    )
    assert rules_preset_name(DDV.replace(players=5), "en") == (
        "DDV tournament · 5 seats (the dealer sits out)"
    )


@pytest.mark.parametrize("alten", [True, False])
def test_the_declaration_offers_hochzeit_only_to_the_alten(alten: bool, lang: Lang) -> None:
    """A Vorbehalt without both Kreuz-Damen can only be a solo: prompt and select say so."""
    seed = next(
        s for s in range(500) if (Deal.shuffled(s, dealer=3).hands[0].count(Card.CQ) == 2) == alten
    )
    game = Game(Deal.shuffled(seed, dealer=3))
    game.apply(Reserve(0, True))
    for seat in (1, 2, 3):
        game.apply(Reserve(seat, False))
    assert game.phase is Phase.DECLARE and game.to_act() == 0
    view = player_view(game, 0)
    text = hand_content(table_info(game), view, lang)
    [select] = [c for c in hand_controls(view, lang) if isinstance(c, Select)]
    if alten:
        assert t(lang, "declare_prompt") in text
        assert select.placeholder == t(lang, "select_declare")
    else:
        assert t(lang, "declare_solo_prompt") in text and t(lang, "declare_prompt") not in text
        assert select.placeholder == t(lang, "select_declare_solo")
