"""Refusals: every reason code the rules and the engine raise has a text in both languages.

The codes are read from the source (every ``IllegalActionError``, ``CallError`` and
``EngineError`` raised with a literal code), so a new code without a text fails here.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bot.engine.model import EngineError
from bot.render.errors import error_text
from bot.render.terms import card_label
from bot.render.texts import Lang, t
from bot.render.turnier import turnier_error
from bot.rules.calls import Call, Party, required_cards
from bot.rules.game import Announce, Deal, Game, IllegalActionError, Phase, Play
from bot.rules.ruleset import DDV

from .helpers import drive, gesund_and_random

ROOT = Path(__file__).resolve().parents[2]
ERRORS = {"IllegalActionError", "CallError", "EngineError"}
TOURNAMENT_SOURCE = Path("bot/engine/tournaments")


def raised_codes(*packages: str) -> dict[str, set[Path]]:
    """Reason code -> the files that raise it, for every error built with a literal code."""
    codes: dict[str, set[Path]] = {}
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                code = node.args[0]
                if name in ERRORS and isinstance(code, ast.Constant):
                    assert isinstance(code.value, str), ast.unparse(node)
                    codes.setdefault(code.value, set()).add(path.relative_to(ROOT))
    return codes


CODES = raised_codes("bot/rules", "bot/engine")


def _tournament(path: Path) -> bool:
    return TOURNAMENT_SOURCE in path.parents


TABLE_CODES = sorted(c for c, paths in CODES.items() if not all(map(_tournament, paths)))
TOURNAMENT_CODES = sorted(c for c, paths in CODES.items() if any(map(_tournament, paths)))

# Codes found without a text of their own; they show as "Das geht gerade nicht (<code>)".
MISSING: dict[str, str] = {}
TOURNAMENT_MISSING: dict[str, str] = {}


def known_gap(code: str, gaps: dict[str, str]) -> object:
    if code in gaps:
        return pytest.param(code, marks=pytest.mark.xfail(strict=True, reason=gaps[code]))
    return code


def test_the_scan_finds_the_codes() -> None:
    # A guard for the scan itself: codes from each of the three error classes.
    assert {"must_follow_suit", "not_your_turn"} <= set(TABLE_CODES)  # IllegalActionError
    assert {"erstansage_too_late", "wrong_party"} <= set(TABLE_CODES)  # CallError
    assert {"stale_version", "table_full"} <= set(TABLE_CODES)  # EngineError
    assert {"not_organiser", "planning"} <= set(TOURNAMENT_CODES)


def fallback(code: str, lang: Lang) -> str:
    return t(lang, "err_unknown", reason=code)


@pytest.mark.parametrize("code", [known_gap(c, MISSING) for c in TABLE_CODES])
def test_every_table_code_has_its_own_text(code: str) -> None:
    # Details (the cards needed, the led card) come from the message; "refused" has none.
    error = EngineError(code, "refused")
    for lang in ("de", "en"):
        text = error_text(error, lang)  # type: ignore[arg-type]
        assert text != fallback(code, lang)  # type: ignore[arg-type]
        assert code not in text and "{" not in text


@pytest.mark.parametrize("code", [known_gap(c, TOURNAMENT_MISSING) for c in TOURNAMENT_CODES])
def test_every_tournament_code_has_its_own_text(code: str) -> None:
    error = EngineError(code, "the detail")
    for lang in ("de", "en"):
        text = turnier_error(error, lang)  # type: ignore[arg-type]
        assert text != fallback(code, lang)  # type: ignore[arg-type]
        assert f"({code})" not in text and "{" not in text


def test_an_unknown_code_is_named_not_hidden(lang: Lang) -> None:
    # What the player sees for a code no text knows: the polite fallback, never a crash.
    assert error_text(EngineError("brand_new", "x"), lang) == fallback("brand_new", lang)


def in_play() -> Game:
    game = Game(Deal.shuffled(3, dealer=0))
    return drive(game, gesund_and_random(random.Random(3)), until=lambda g: len(g.current) == 1)


def engine_error(game: Game, action: Play | Announce) -> EngineError:
    """What the engine raises for an illegal action: the rules' code and message."""
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)
    return EngineError(caught.value.reason, str(caught.value))


def test_must_follow_suit_names_the_led_card_and_what_to_play(lang: Lang) -> None:
    game = in_play()
    led = game.current[0]
    seat = game.to_act()
    assert seat is not None
    legal = set(game.legal_cards(seat))
    wrong = next((c for c in game.hands[seat] if c not in legal), None)
    if wrong is None:
        pytest.skip("this seat may play any card")  # not with seed 3, see the guard below
    error = engine_error(game, Play(seat, wrong))
    assert error.reason == "must_follow_suit"
    text = error_text(error, lang)
    assert text != t(lang, "err_must_follow_suit_plain")  # the message was understood
    assert card_label(led, lang) in text
    assert str(led) not in text  # the label players see, not the record code
    what = t(lang, "trump") if game.order.is_trump(led) else t(lang, f"suit_{int(led.suit)}")
    assert what in text


def test_seed_3_has_a_card_that_does_not_follow() -> None:
    game = in_play()
    seat = game.to_act()
    assert seat is not None
    assert set(game.hands[seat]) - set(game.legal_cards(seat))


def test_a_late_call_names_the_cards_it_needed(lang: Lang) -> None:
    game = drive(
        Game(Deal.shuffled(5, dealer=0)),
        gesund_and_random(random.Random(5)),
        until=lambda g: len(g.tricks) == 3 and not g.current,
    )
    party = game.parties[0]
    assert party is not None
    error = engine_error(game, Announce(0, Call.RE if party is Party.RE else Call.KONTRA))
    assert error.reason == "erstansage_too_late"
    need = required_cards(0, DDV.hand_size, game.deadline_shift())
    assert f" {need} " in error_text(error, lang)


def test_a_late_absage_names_the_cards_it_needed(lang: Lang) -> None:
    rng = random.Random(8)
    game = Game(Deal.shuffled(8, dealer=0))
    drive(game, gesund_and_random(rng), until=lambda g: g.phase is Phase.PLAY)
    party = game.parties[0]
    assert party is not None
    game.apply(Announce(0, Call.RE if party is Party.RE else Call.KONTRA))
    drive(game, gesund_and_random(rng), until=lambda g: len(g.tricks) == 5 and not g.current)
    error = engine_error(game, Announce(0, Call.NO90))
    assert error.reason == "absage_too_late"
    need = required_cards(1, DDV.hand_size, game.deadline_shift())
    assert f" {need} " in error_text(error, lang)


def test_the_follow_suit_message_without_details_still_reads(lang: Lang) -> None:
    assert error_text(EngineError("must_follow_suit", "?"), lang) == t(
        lang, "err_must_follow_suit_plain"
    )
