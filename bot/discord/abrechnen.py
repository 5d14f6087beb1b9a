"""``/doko abrechnen``: a game played with real cards, typed in as command options, scored as
a ``doko-score/1`` sheet by the rules core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.rules.contracts import Contract
from bot.rules.records import SCORE_FORMAT, ImpossibleSheet, RecordError, score_sheet

CONTRACTS: tuple[Contract, ...] = tuple(Contract)


SPECIAL_KINDS = ("fuchs", "doppelkopf", "karlchen")  # gegen die Alten follows from the result
PARTIES = ("re", "kontra")


class SheetError(ValueError):
    """Options that make no score sheet: ``key`` names the text that says what is wrong (in
    the reader's language, bot.render.texts), ``values`` fill it.
    """

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


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
        raise SheetError("score_bad_seats") from None
    if not all(0 <= s < 4 for s in seats):
        raise SheetError("score_bad_seats")
    # Checked here, not left to the rules core: its messages are English and 0-based.
    solo = Contract(contract).scored_as_solo if contract in set(Contract) else False
    if len(set(seats)) != len(seats) or len(seats) != (1 if solo else 2):
        raise SheetError("score_bad_seat_count_solo" if solo else "score_bad_seat_count")
    items = []
    for part in (specials or "").split(","):
        if part.strip():
            kind, _, party = part.strip().partition(":")
            kind, party = kind.strip().lower(), party.strip().lower()
            if kind not in SPECIAL_KINDS or party not in PARTIES:
                raise SheetError("score_bad_special")
            items.append({"kind": kind, "party": party})
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
    except ImpossibleSheet as error:  # the rules core's check of what a game can produce
        raise impossible(error) from None
    except RecordError:
        raise SheetError("score_bad_other") from None
    return Scored(Contract(contract), seats, result)


def impossible(error: ImpossibleSheet) -> SheetError:
    """The rules core's refusal of a game that cannot have happened, as a text key
    (``impossible_<rule>``, bot/render/texts/input.py) with its values; parties by name.
    """
    problem = error.problem
    values = {k: str(v).capitalize() if k == "party" else v for k, v in problem.values.items()}
    return SheetError(f"impossible_{problem.rule}", **values)
