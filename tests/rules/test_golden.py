"""Golden games: one stored record per contract, replayed and compared trick by trick.

The ``*.expected.json`` files were written by the engine and then checked by hand (the
Hochzeit and vorgeführt games in full); the trick winners and Augen are also recomputed here
by an independent, deliberately naive reading of the digest's card tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.rules.records import game_record_from_dict, game_summary, replay_record

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))

AUGEN = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
NORMAL_TRUMPS = ["H10", "CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "DA", "D10", "DK", "D9"]
QJ = ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ"]
TRUMPS = {
    "normal": NORMAL_TRUMPS,
    "hochzeit": NORMAL_TRUMPS,
    "hochzeit_failed": NORMAL_TRUMPS,
    "stille_hochzeit": NORMAL_TRUMPS,
    "solo_karo": NORMAL_TRUMPS,
    "solo_kreuz": ["H10", *QJ, "CA", "C10", "CK", "C9"],
    "solo_pik": ["H10", *QJ, "SA", "S10", "SK", "S9"],
    "solo_herz": ["H10", *QJ, "HA", "HK", "H9"],
    "solo_damen": ["CQ", "SQ", "HQ", "DQ"],
    "solo_buben": ["CJ", "SJ", "HJ", "DJ"],
    "solo_fleischlos": [],
}
PLAIN = ["A", "10", "K", "Q", "J", "9"]


def naive_winner(contract: str, cards: list[str]) -> int:
    trumps = TRUMPS[contract]

    def strength(card: str) -> tuple[int, int]:
        if card in trumps:
            return (2, -trumps.index(card))
        if card[0] == cards[0][0] and cards[0] not in trumps:
            return (1, -PLAIN.index(card[1:]))
        return (0, 0)

    best = 0
    for i, card in enumerate(cards):
        if strength(card) > strength(cards[best]):  # strictly: the first of equals wins
            best = i
    return best


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_game(path: Path) -> None:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    game, error = replay_record(game_record_from_dict(data))
    assert error is None
    summary = game_summary(game)
    assert summary["tricks"] == expected["tricks"]
    assert summary["result"] == expected["result"]
    assert summary == expected
    contract = summary["contract"]
    for trick in summary["tricks"]:
        idx = naive_winner(contract, trick["cards"])
        assert (trick["leader"] + idx) % 4 == trick["winner"]
        assert trick["augen"] == sum(AUGEN[c[1:]] for c in trick["cards"])


def test_every_contract_has_a_golden_game() -> None:
    contracts = {
        json.loads(p.with_suffix(".expected.json").read_text(encoding="utf-8"))["contract"]
        for p in RECORDS
    }
    assert contracts == set(TRUMPS)
