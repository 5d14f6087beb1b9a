"""Mangled records and score sheets end in a clear RecordError or an illegal-action stop,
never in another exception (which the CLI would show as a traceback).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from bot.rules.contracts import Contract
from bot.rules.game import Game
from bot.rules.presets import PRESETS
from bot.rules.records import (
    RecordError,
    game_record_from_dict,
    game_record_to_dict,
    game_summary,
    replay_record,
    score_sheet,
)
from tests.rules.helpers import deal_for, play_random, random_game

VALUES: list[Any] = [
    "CA", "H10", "zz", 5, None, True, [], {}, ["CA"], ["CA", "SA", "HA"], "re", "no90",
    "solo_damen", "hochzeit", -1, 4, 99, 1.5, {"games_left": 1, "pflichtsolo_done": [False] * 4},
]  # fmt: skip
ACTION_KEYS = ["seat", "play", "call", "reserve", "declare", "schmeissen", "armut", "take_armut",
               "return", "bogus"]  # fmt: skip


def records() -> list[dict[str, Any]]:
    out = [game_record_to_dict(random_game(c, i)) for i, c in enumerate(list(Contract)[:5])]
    for rules in PRESETS.values():
        for i in range(3):
            game = Game(deal_for(Contract.NORMAL, i, ruleset=rules))
            out.append(game_record_to_dict(play_random(game, random.Random(i), Contract.NORMAL)))
    return out


def mangle(rec: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    rec = copy.deepcopy(rec)
    acts = rec["actions"]
    for _ in range(rng.randint(1, 3)):
        m = rng.randrange(6)
        if m == 0 and acts:
            del acts[rng.randrange(len(acts))]
        elif m == 1 and acts:
            i = rng.randrange(len(acts))
            acts.insert(i, copy.deepcopy(acts[i]))
        elif m == 2 and len(acts) > 1:
            i, j = rng.randrange(len(acts)), rng.randrange(len(acts))
            acts[i], acts[j] = acts[j], acts[i]
        elif m == 3 and acts:
            acts[rng.randrange(len(acts))][rng.choice(ACTION_KEYS)] = rng.choice(VALUES)
        elif m == 4:
            key = rng.choice(["dealer", "round", "rules", "hands", "bock", "seed"])
            rec[key] = rng.choice(VALUES)
        else:
            acts.append({"seat": rng.randrange(4), rng.choice(ACTION_KEYS[1:]): rng.choice(VALUES)})
    return rec


def test_mangled_records_never_crash() -> None:
    rng = random.Random(5)
    base = records()
    for _ in range(800):
        rec = json.loads(json.dumps(mangle(rng.choice(base), rng)))
        try:
            game, _error = replay_record(game_record_from_dict(rec))
        except RecordError:
            continue
        json.dumps(game_summary(game))


def test_mangled_score_sheets_never_crash() -> None:
    rng = random.Random(3)
    sheet = {
        "format": "doko-score/1", "rules": {}, "contract": "normal", "re_seats": [0, 2],
        "calls": {"re": "no90", "kontra": None}, "re_augen": 158, "re_tricks": 10,
        "special": [{"kind": "fuchs", "party": "re"}],
    }  # fmt: skip
    keys = [*sheet, "bock", "kontra_augen", "kontra_tricks", "x"]
    extra: list[Any] = [[0], [0, 1, 2], 240, 241, 12, {"re": []}, [{"kind": []}], "kontra"]
    for _ in range(1500):
        mangled = dict(sheet)
        for _ in range(rng.randint(1, 3)):
            mangled[rng.choice(keys)] = rng.choice(VALUES + extra)
        try:
            score_sheet(mangled)
        except RecordError:
            continue
