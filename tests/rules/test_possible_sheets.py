"""Only score sheets a real game can produce are scored: the rules core's one check, as the
``score`` command reports it and as every game the rules play passes it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.rules.calls import Party
from bot.rules.contracts import Contract
from bot.rules.records import ImpossibleSheet, score_facts_from_dict
from bot.rules.ruleset import Ruleset
from bot.rules.scoring import ImpossibleGame, augen_range, check_possible, check_scores
from tests.rules.helpers import random_game

SHEET: dict[str, Any] = {
    "format": "doko-score/1",
    "contract": "normal",
    "re_seats": [0, 2],
    "calls": {"re": None, "kontra": None},
    "re_augen": 158,
    "re_tricks": 10,
    "special": [],
}


def specials(*entries: str) -> list[dict[str, str]]:
    return [{"kind": e.split(":")[0], "party": e.split(":")[1]} for e in entries]


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"special": specials("fuchs:re", "fuchs:re", "fuchs:kontra")}, "fuechse"),
        ({"special": specials("karlchen:re", "karlchen:kontra")}, "karlchen"),
        ({"special": specials("karlchen:re", "karlchen:re")}, "karlchen"),
        (
            {"re_augen": 82, "re_tricks": 2, "special": specials(*["doppelkopf:re"] * 3)},
            "doppelkopf_tricks",
        ),
        (
            {"re_augen": 79, "re_tricks": 3, "special": specials("doppelkopf:re", "doppelkopf:re")},
            "doppelkopf_augen",
        ),
        ({"re_augen": 240, "re_tricks": 12, "special": specials("fuchs:kontra")}, "no_trick"),
        ({"re_augen": 240, "re_tricks": 12, "special": specials("karlchen:kontra")}, "no_trick"),
        ({"re_augen": 0, "re_tricks": 0, "special": specials("doppelkopf:re")}, "no_trick"),
        ({"re_augen": 10, "re_tricks": 2, "special": specials("fuchs:re")}, "fuchs_augen"),
        ({"re_augen": 45, "re_tricks": 1}, "augen_tricks"),  # one trick holds at most 44
        ({"re_augen": 150, "re_tricks": 11}, "augen_tricks"),  # one trick: Kontra has 90
        ({"re_augen": 10, "re_tricks": 0}, "augen_tricks"),
        ({"re_augen": 230, "re_tricks": 12}, "augen_tricks"),
    ],
)
def test_impossible_sheets_are_refused_naming_the_rule(change: dict[str, Any], rule: str) -> None:
    with pytest.raises(ImpossibleSheet) as refused:
        score_facts_from_dict({**SHEET, **change})
    assert refused.value.problem.rule == rule


@pytest.mark.parametrize(
    "change",
    [
        {"special": specials("fuchs:re", "fuchs:re", "karlchen:kontra", "doppelkopf:kontra")},
        {"re_augen": 84, "re_tricks": 2, "special": specials("doppelkopf:re", "doppelkopf:re")},
        {"re_augen": 0, "re_tricks": 2},  # two tricks of nines
        {"re_augen": 44, "re_tricks": 1, "special": specials("doppelkopf:re", "fuchs:re")},
        {"re_augen": 240, "re_tricks": 12, "special": specials("karlchen:re", "fuchs:re")},
        {  # in a solo the Sonderpunkte do not count, but they are still possible
            "contract": "solo_damen",
            "re_seats": [1],
            "special": specials("fuchs:kontra"),
        },
    ],
)
def test_possible_sheets_are_scored(change: dict[str, Any]) -> None:
    score_facts_from_dict({**SHEET, **change})


def test_the_augen_a_number_of_tricks_can_hold() -> None:
    assert augen_range(0) == (0, 0)
    assert augen_range(1) == (0, 44)
    assert augen_range(2) == (0, 88)
    assert augen_range(12) == (240, 240)
    assert augen_range(1, Ruleset(with_nines=False)) == (8, 44)
    assert augen_range(10, Ruleset(with_nines=False)) == (240, 240)


def test_every_game_the_rules_play_passes_the_check() -> None:
    """The check refuses only what cannot happen: the facts of real games all pass."""
    rng = random.Random(20)
    contracts = [Contract.NORMAL, Contract.HOCHZEIT, Contract.SOLO_DAMEN, Contract.SOLO_KREUZ]
    for _ in range(120):
        game = random_game(rng.choice(contracts), rng.randrange(2**32))
        check_possible(game.score_facts())


@pytest.mark.parametrize(
    "points", [[0, 0, 0, 0], [3, -3, 3, -3], [-1, 1, 1, -1], [9, -3, -3, -3], [4, -12, 4, 4]]
)
def test_points_of_real_games_pass(points: list[int]) -> None:
    check_scores(points)


@pytest.mark.parametrize(
    ("points", "rule"),
    [
        ([3, -1, -1], "score_count"),
        ([1, 1, 1, 1], "score_sum"),
        ([2, 1, -1, -2], "score_shape"),
        ([5, -1, -2, -2], "score_shape"),
        ([6, -6, 0, 0], "score_shape"),
    ],
)
def test_points_no_game_gives_are_refused(points: list[int], rule: str) -> None:
    with pytest.raises(ImpossibleGame) as refused:
        check_scores(points)
    assert refused.value.rule == rule


def test_score_command_names_the_rule_in_its_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sheet.json"
    sheet = {**SHEET, "special": specials("fuchs:re", "fuchs:re", "fuchs:kontra")}
    path.write_text(json.dumps(sheet), encoding="utf-8")
    assert main(["score", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {
        "error": {
            "action_index": None,
            "reason": "3 Füchse: the deck has only two Karo-Asse",
        }
    }
    assert err == "error: 3 Füchse: the deck has only two Karo-Asse\n"


def test_a_party_with_no_trick_is_named() -> None:
    sheet = {**SHEET, "re_augen": 240, "re_tricks": 12, "special": specials("fuchs:kontra")}
    with pytest.raises(ImpossibleSheet) as refused:
        score_facts_from_dict(sheet)
    assert refused.value.problem.values["party"] is Party.KONTRA
    assert "kontra took no trick" in str(refused.value)
