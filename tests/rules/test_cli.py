"""``python -m bot replay|score`` as the records spec describes them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.rules.contracts import Contract
from bot.rules.records import game_record_to_dict
from tests.rules.helpers import random_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: Any, name: str = "f.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_replay_json_of_a_finished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = random_game(Contract.NORMAL, 5)
    code, out, _ = run(capsys, "replay", write(tmp_path, game_record_to_dict(game)), "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["finished"] is True
    assert doc["contract"] == "normal"
    assert len(doc["tricks"]) == 12
    assert sum(t["augen"] for t in doc["tricks"]) == 240
    assert doc["result"]["scores"] == list(game.result.scores)  # type: ignore[union-attr]
    assert set(doc) >= {
        "contract",
        "re_seats",
        "soloist",
        "hochzeit",
        "tricks",
        "finished",
        "result",
    }
    assert set(doc["result"]) >= {
        "re_augen",
        "kontra_augen",
        "re_tricks",
        "kontra_tricks",
        "calls",
        "winner",
        "game_points",
        "special_points",
        "game_value",
        "scores",
    }


def test_replay_text_shows_tricks_and_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = random_game(Contract.SOLO_DAMEN, 9)
    code, out, _ = run(capsys, "replay", write(tmp_path, game_record_to_dict(game)))
    assert code == 0
    assert "Stich 12" in out and "Spielwert" in out and "solo_damen" in out


def test_unfinished_record_says_who_acts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = random_game(Contract.NORMAL, 3, stop_after=10, call_rate=0.0)
    code, out, _ = run(capsys, "replay", write(tmp_path, game_record_to_dict(game)), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["finished"] is False and doc["result"] is None
    assert doc["next"]["seat"] == game.to_act()


def test_illegal_action_stops_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = random_game(Contract.NORMAL, 4, call_rate=0.0)
    data = game_record_to_dict(game)
    # trick 1's second card replaced by a card of the same seat that does not follow suit
    first_play = next(i for i, a in enumerate(data["actions"]) if "play" in a)
    second = data["actions"][first_play + 1]
    led = game.tricks[0].cards[0]
    order = Contract.NORMAL.order
    hand = game.deal.hands[second["seat"]]
    bad = next((c for c in hand if order.klass[c] != order.klass[led]), None)
    follows = any(order.klass[c] == order.klass[led] for c in hand)
    if bad is None or not follows:
        pytest.skip("deal has no renonce card for this seat")
    second["play"] = bad.code
    code, out, err = run(capsys, "replay", write(tmp_path, data), "--json")
    assert code == 2
    doc = json.loads(out)
    assert doc["error"]["action_index"] == first_play + 1
    assert "must_follow_suit" in doc["error"]["reason"]
    assert "Traceback" not in err and err.startswith("error:")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not json at all", "not valid JSON"),
        ({"format": "doko-game/2"}, "format"),
        (
            {"format": "doko-game/1", "dealer": 0, "hands": [["ZZ"]] * 4, "actions": []},
            "unknown card",
        ),
        ({"format": "doko-game/1", "dealer": 0, "hands": [["CA"] * 12] * 4, "actions": []}, "deck"),
        ({"format": "doko-game/1", "dealer": 9, "hands": [], "actions": []}, "dealer"),
        (
            {"format": "doko-game/1", "rules": {"bogus": 1}, "dealer": 0, "hands": []},
            "unknown rule",
        ),
    ],
)
def test_malformed_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, fragment: str
) -> None:
    code, out, err = run(capsys, "replay", write(tmp_path, content), "--json")
    assert code == 2
    assert fragment in json.loads(out)["error"]["reason"]
    assert fragment in err


def test_absurdly_nested_json_is_refused_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "replay", write(tmp_path, "[" * 100_000 + "]" * 100_000))
    assert code == 2 and "nested too deeply" in err


@pytest.mark.parametrize(("field", "value"), [("calls", []), ("special", {}), ("rules", [])])
def test_wrong_container_types_in_a_score_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: object
) -> None:
    code, _, err = run(capsys, "score", write(tmp_path, dict(SHEET, **{field: value})))
    assert code == 2 and field in err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "replay", "no-such-file.json")
    assert code == 2 and "cannot read" in err


SHEET = {
    "format": "doko-score/1",
    "rules": {},
    "contract": "normal",
    "re_seats": [0, 2],
    "calls": {"re": "no90", "kontra": None},
    "re_augen": 158,
    "re_tricks": 10,
    "special": [
        {"kind": "fuchs", "party": "re"},
        {"kind": "karlchen", "party": "re"},
        {"kind": "doppelkopf", "party": "kontra"},
    ],
}


def test_score_sheet_of_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", write(tmp_path, SHEET), "--json")
    assert code == 0
    doc = json.loads(out)
    # won 1 + under 90 1 + Re 2 + keine 90 1 = 5, Sonderpunkte 2:1 → 6
    assert doc["winner"] == "re"
    assert doc["game_value"] == 6
    assert doc["scores"] == [6, -6, 6, -6]
    assert doc["calls"] == {"re": ["re", "no90"], "kontra": []}


def test_score_sheet_solo_ignores_sonderpunkte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = dict(SHEET, contract="solo_buben", re_seats=[1], calls={"re": None, "kontra": None})
    code, out, _ = run(capsys, "score", write(tmp_path, sheet), "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["special_points"] == []
    assert len(doc["ignored_special_points"]) == 3
    assert any("ignored" in note for note in doc["notes"])
    assert doc["scores"][1] == 3 * doc["game_value"]


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"re_seats": [0]}, "re_seats"),
        ({"calls": {"re": "kontra", "kontra": None}}, "calls.re"),
        ({"re_augen": 300}, "re_augen"),
        ({"special": [{"kind": "gegen_die_alten", "party": "kontra"}]}, "derived"),
        ({"contract": "ramsch"}, "contract"),
        ({"re_tricks": 0}, "Augen and tricks"),
    ],
)
def test_bad_score_sheets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], fragment: str
) -> None:
    code, _, err = run(capsys, "score", write(tmp_path, dict(SHEET, **change)))
    assert code == 2
    assert fragment in err


def test_module_entry_point_runs(tmp_path: Path) -> None:
    path = write(tmp_path, SHEET)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "score", path, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["game_value"] == 6


@pytest.mark.parametrize("command", ["replay", "score"])
def test_a_number_too_long_to_read_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Python refuses to read an integer of over 4,300 digits: an error line, no traceback."""
    path = write(tmp_path, '{"format": "doko-score/1", "re_augen": ' + "9" * 5000 + "}")
    code, out, err = run(capsys, command, path, "--json")
    assert code == 2
    assert "has a number of more than 4300 digits" in json.loads(out)["error"]["reason"]
    assert err.startswith("error: ") and err.count("\n") == 1
