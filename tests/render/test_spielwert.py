"""The Spielwert as the final message lists it: its lines explain the value shown.

Results come from the scorer itself (``bot.rules.scoring.score``) for chosen facts, so each
case is one the rules produce; under house rules the breakdown must still add up.
"""

from __future__ import annotations

import re

import pytest

from bot.render.table import result_lines
from bot.render.texts import Lang, t
from bot.rules.calls import Party
from bot.rules.contracts import Contract
from bot.rules.presets import PRESETS
from bot.rules.ruleset import DDV, NoWinnerScore, Ruleset
from bot.rules.scoring import ScoreFacts, ScoreResult, Sonderpunkt, score

FUCHS_RE = ((Sonderpunkt.FUCHS, Party.RE),)
KONTRA_SPECIALS = tuple(
    (kind, Party.KONTRA)
    for kind in (Sonderpunkt.FUCHS, Sonderpunkt.DOPPELKOPF, Sonderpunkt.KARLCHEN)
)


def scored(
    re_level: int,
    kontra_level: int,
    re_augen: int,
    specials: tuple[tuple[Sonderpunkt, Party], ...] = (),
    rules: Ruleset = DDV,
    contract: Contract = Contract.NORMAL,
    bock: int = 1,
) -> ScoreResult:
    re_seats = (0,) if contract.scored_as_solo else (0, 1)
    tricks = 0 if re_augen == 0 else 12 if re_augen == 240 else 6
    return score(
        ScoreFacts(
            contract, re_seats, re_level, kontra_level, re_augen, tricks, specials, rules, bock
        )
    )


def listed_value(lines: list[str]) -> int:
    """The value as the listed lines net out: Re's lines count up, Kontra's down."""
    total = 0
    for line in lines:
        match = re.match(r"\+(\d+) (Re|Kontra): ", line)
        if match:
            total += int(match[1]) if match[2] == "Re" else -int(match[1])
    return total


@pytest.mark.parametrize(
    "result",
    [
        scored(-1, -1, 150),  # Re wins, no calls
        scored(0, 0, 100),  # Kontra wins against Re and Kontra
        scored(1, -1, 200, FUCHS_RE),  # Re keine 90, won under 60, Fuchs
        scored(0, 2, 100),  # Re wins against Kontra keine 60 (reached 90)
        scored(-1, -1, 121, KONTRA_SPECIALS),  # Sonderpunkte outweigh the win
        scored(0, -1, 200, FUCHS_RE, contract=Contract.SOLO_DAMEN),  # a solo: no Sonderpunkte
        scored(1, 1, 120, FUCHS_RE),  # DDV: no winner, the lines still count
    ],
)
def test_the_lines_net_out_to_the_value(result: ScoreResult, lang: Lang) -> None:
    lines = result_lines(result.to_dict(), lang, solo=result.solo)
    key = "solo_sum" if result.solo else "spielwert_sum"
    assert lines[-1] == t(lang, key, value=result.game_value)
    assert listed_value(lines[:-1]) == result.game_value


def test_a_solo_lists_the_sonderpunkte_that_do_not_count(lang: Lang) -> None:
    result = scored(0, -1, 200, FUCHS_RE, contract=Contract.SOLO_DAMEN)
    lines = result_lines(result.to_dict(), lang, solo=True)
    assert (
        t(lang, "ignored_special", item="Fuchs gefangen" if lang == "de" else "Fuchs caught")
        in lines
    )


def test_with_bock_the_value_is_the_lines_times_bock() -> None:
    # The final message states the Bock (bock_line) next to these lines: ×2 is explained.
    result = scored(-1, -1, 150, bock=2)
    lines = result_lines(result.to_dict(), "de", solo=False)
    assert listed_value(lines[:-1]) * 2 == result.game_value


def test_stammtisch_doubling_is_explained() -> None:
    result = scored(0, -1, 150, rules=PRESETS["stammtisch"])
    assert result.game_value == 2  # the rules double: a Re was said
    lines = result_lines(result.to_dict(), "de", solo=False)
    assert listed_value(lines[:-1]) == result.game_value or any("×" in line for line in lines)


def test_the_winner_floor_is_explained() -> None:
    result = scored(-1, -1, 121, KONTRA_SPECIALS, rules=PRESETS["online"])
    assert result.game_value == 0 and "winner_floor_zero" in result.notes
    lines = result_lines(result.to_dict(), "de", solo=False)
    items = len(result.game_points) + len(result.special_points)
    # Either the lines net to the value, or a line beyond the items and the sum says why.
    assert listed_value(lines[:-1]) == result.game_value or len(lines) > items + 1


def test_a_normal_game_does_not_speak_of_a_solo(lang: Lang) -> None:
    result = scored(1, 1, 120, FUCHS_RE, rules=DDV.replace(no_winner_score=NoWinnerScore.ZERO))
    assert result.winner is None and not result.solo and result.ignored_specials
    lines = result_lines(result.to_dict(), lang, solo=False)
    assert not any("solo" in line.lower() for line in lines)
