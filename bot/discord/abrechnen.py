"""``/doko abrechnen``: a game played with real cards, typed in as command options, scored as
a ``doko-score/1`` sheet by the rules core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.contracts import Contract
from bot.rules.records import SCORE_FORMAT, RecordError, score_sheet

CONTRACTS: tuple[Contract, ...] = tuple(Contract)


class SheetError(ValueError):
    """Options that make no score sheet; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Scored:
    contract: Contract
    re_seats: tuple[int, ...]  # 0-based
    result: dict[str, Any]  # the sheet's result, as ``python -m bot score`` prints it


def score_real_game(
    contract: str,
    re_seats: str,
    re_augen: int,
    re_tricks: int,
    re_call: str | None = None,
    kontra_call: str | None = None,
    specials: str | None = None,
) -> Scored:
    """``re_seats`` as players write them (``1,3``: seats from 1), ``specials`` as
    ``fuchs:re, doppelkopf:kontra``.
    """
    try:
        seats = tuple(int(s) - 1 for s in re_seats.replace(" ", "").split(",") if s)
    except ValueError:
        raise SheetError(re_seats) from None
    items = []
    for part in (specials or "").split(","):
        if part.strip():
            kind, _, party = part.strip().partition(":")
            items.append({"kind": kind.strip().lower(), "party": party.strip().lower()})
    sheet: dict[str, Any] = {
        "format": SCORE_FORMAT,
        "contract": contract,
        "re_seats": list(seats),
        "calls": {"re": re_call, "kontra": kontra_call},
        "re_augen": re_augen,
        "re_tricks": re_tricks,
        "special": items,
    }
    try:
        result = score_sheet(sheet).to_dict()
    except RecordError as error:
        raise SheetError(str(error)) from None
    return Scored(Contract(contract), seats, result)
