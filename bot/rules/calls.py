"""Parties, Ansagen and Absagen, and when each is still in time (TSR 6)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum


class Party(StrEnum):
    RE = "re"
    KONTRA = "kontra"

    @property
    def other(self) -> Party:
        return Party.KONTRA if self is Party.RE else Party.RE


class Call(StrEnum):
    RE = "re"
    KONTRA = "kontra"
    NO90 = "no90"
    NO60 = "no60"
    NO30 = "no30"
    SCHWARZ = "schwarz"

    @property
    def level(self) -> int:
        """0 for the Ansage (Re/Kontra), 1..4 for keine 90 … schwarz."""
        return _LEVEL[self]


_LEVEL = {
    Call.RE: 0,
    Call.KONTRA: 0,
    Call.NO90: 1,
    Call.NO60: 2,
    Call.NO30: 3,
    Call.SCHWARZ: 4,
}
ABSAGEN = (Call.NO90, Call.NO60, Call.NO30, Call.SCHWARZ)


def basic_call(party: Party) -> Call:
    return Call.RE if party is Party.RE else Call.KONTRA


def calls_up_to(party: Party, level: int) -> list[Call]:
    """Every call a party's highest call stands for (an Absage implies the levels below)."""
    if level < 0:
        return []
    return [basic_call(party), *ABSAGEN[:level]]


def call_of_level(party: Party, level: int) -> Call:
    return basic_call(party) if level == 0 else ABSAGEN[level - 1]


class CallError(ValueError):
    """An Ansage or Absage that the rules do not allow now; ``reason`` is machine-readable."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class PartyCalls:
    """What one party has announced so far."""

    level: int = -1  # -1: nothing; 0: Re/Kontra; 1..4: keine 90 … schwarz
    late_reply: bool = False  # its Re/Kontra was only a late Erwiderung: no Absagen (TSR 6.4)


NO_CALLS = PartyCalls()


def required_cards(level: int, hand_size: int = 12, shift: int = 0) -> int:
    """Cards a player must still hold to make the call of this level.

    12 cards: Re/Kontra 11, keine 90 10, keine 60 9, keine 30 8, schwarz 7; an announced
    Hochzeit shifts every deadline by (Klärungsstich − 1).
    """
    return hand_size - 1 - level - shift


def check_call(
    party: Party,
    call: Call,
    cards_in_hand: int,
    own: PartyCalls,
    opponents: PartyCalls,
    *,
    hand_size: int = 12,
    shift: int = 0,
    absagen_enabled: bool = True,
) -> PartyCalls:
    """Validate a call by a member of ``party`` and return the party's new call state.

    Raises CallError naming the rule that forbids it.
    """
    level = call.level
    if level == 0 and call is not basic_call(party):
        raise CallError(
            "wrong_party",
            f"the {party} party says '{basic_call(party)}', not '{call}'",
        )
    if level > 0 and not absagen_enabled:
        raise CallError("absagen_disabled", "Absagen are switched off at this table")
    if level <= own.level:
        return own  # repeating a call (or one it implies) is allowed and counts once
    n = cards_in_hand
    late_reply = own.late_reply
    if own.level < 0:
        if n < required_cards(0, hand_size, shift):
            if opponents.level < 0:
                raise CallError(
                    "erstansage_too_late",
                    f"'{basic_call(party)}' needs at least "
                    f"{required_cards(0, hand_size, shift)} cards in hand, not {n}",
                )
            reply_deadline = required_cards(opponents.level, hand_size, shift) - 1
            if n < reply_deadline:
                raise CallError(
                    "erwiderung_too_late",
                    f"a reply to the opponents' call needs at least {reply_deadline} cards "
                    f"in hand, not {n}",
                )
            if level > 0:
                raise CallError(
                    "implied_ansage_too_late",
                    f"'{call}' implies '{basic_call(party)}', which is only allowed as a "
                    "reply now, and a reply may not be an Absage",
                )
            late_reply = True
    elif late_reply:
        raise CallError(
            "absage_after_late_reply",
            f"the {party} party's '{basic_call(party)}' was a late reply, so it may make "
            "no Absagen",
        )
    for lv in range(max(own.level + 1, 1), level + 1):
        need = required_cards(lv, hand_size, shift)
        if n < need:
            missed = call_of_level(party, lv)
            raise CallError(
                "absage_too_late",
                f"'{missed}' needs at least {need} cards in hand, not {n}",
            )
    return PartyCalls(level, late_reply)


@functools.cache  # a pure function, asked for every seat on every turn of play
def legal_calls(
    party: Party,
    cards_in_hand: int,
    own: PartyCalls,
    opponents: PartyCalls,
    hand_size: int = 12,
    shift: int = 0,
    absagen_enabled: bool = True,
) -> tuple[Call, ...]:
    """Every new call (not a repeat) a member of ``party`` may make in this situation."""
    if cards_in_hand < required_cards(4, hand_size, shift) - 1:
        return ()  # past the last reply deadline (to "schwarz"): no call is in time any more
    out: list[Call] = []
    for level in range(own.level + 1, 5):
        call = call_of_level(party, level)
        try:
            check_call(
                party,
                call,
                cards_in_hand,
                own,
                opponents,
                hand_size=hand_size,
                shift=shift,
                absagen_enabled=absagen_enabled,
            )
        except CallError:
            break  # a call implies the levels below it: the higher ones are too late as well
        out.append(call)
    return tuple(out)
