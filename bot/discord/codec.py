"""Custom ids <-> what a click means: the one place either direction is written.

A component's custom id says everything about it, so a click works after a restart:
``doko:<what>:<table id>:<table version>[:<argument>…]``. A game button names the game seat
it belongs to and the rules' action (``doko:card:7:31:2:H10:1`` is seat 2 playing a
Herz-Zehn, the second copy: the two copies' buttons need distinct ids). Selects carry the
seat in the id and the choice in their values (``H10:1`` for a card, a contract's name).
Anything else that starts with ``doko:`` is refused with a machine-readable reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal, assert_never

from bot.render.controls import TABLE_KINDS, TableButton, TableKind
from bot.rules.calls import Call
from bot.rules.cards import Card, NotationError, parse_card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    Announce,
    ArmutOffer,
    Declare,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)

PREFIX: Final = "doko"
MAX_ID: Final = 100  # Discord's limit on a custom id
MAX_LEVEL: Final = 20  # an AI level's name (addai)
SelectKind = Literal["declare", "return"]
DECLARABLE: Final = frozenset(c.value for c in Contract if c.is_declared_solo) | {"hochzeit"}
CALLS: Final = {c.value: c for c in Call}
CODES: Final = {c: c.code for c in Card}  # a hand's ids are written on every render
TABLE_KIND_OF: Final[dict[str, TableKind]] = {k: k for k in TABLE_KINDS}


class CodecError(ValueError):
    """A custom id (or a select's values) that is no doko component; ``reason`` says why."""

    def __init__(self, reason: str, custom_id: str) -> None:
        super().__init__(f"{reason}: {custom_id!r}")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Click:
    """What a component interaction asks for, at the table version its message showed."""

    table_id: int
    version: int
    target: TableButton | Action


def _join(*fields: object) -> str:
    custom_id = ":".join(map(str, (PREFIX, *fields)))
    assert len(custom_id) <= MAX_ID, custom_id
    return custom_id


def _flag(value: bool) -> str:
    return "1" if value else "0"


def button_id(table_id: int, version: int, target: TableButton | Action, copy: int = 0) -> str:
    """The custom id of a button; ``copy`` tells a Play of the second copy of a card."""
    head = (table_id, version)
    match target:
        case TableButton(kind=kind, arg=arg):
            return _join(kind, *head, arg) if arg else _join(kind, *head)
        case Play(seat=seat, card=card):  # most buttons: one f-string
            return f"{PREFIX}:card:{table_id}:{version}:{seat}:{CODES[card]}:{copy}"
        case Reserve(seat=seat, reserve=reserve):
            return _join("reserve", *head, seat, _flag(reserve))
        case Announce(seat=seat, call=call):
            return _join("call", *head, seat, call.value)
        case Schmeissen(seat=seat):
            return _join("schmeissen", *head, seat)
        case ArmutOffer(seat=seat, cards=cards):
            return _join("armut", *head, seat, *(c.code for c in cards))
        case TakeArmut(seat=seat, take=take):
            return _join("takearmut", *head, seat, _flag(take))
        case Declare() | ReturnCards():
            raise ValueError("a declaration and returned cards are chosen in a select")
        case _:
            assert_never(target)


def announce(seat: int, call: Call) -> Announce:
    """``/doko ansage``: the typed command's call as the action a call button carries."""
    return Announce(seat, call)


def select_id(table_id: int, version: int, kind: SelectKind, seat: int) -> str:
    return _join(kind, table_id, version, seat)


def declare_value(action: Declare) -> str:
    return action.contract.value


def card_value(card: Card, copy: int) -> str:
    return f"{card.code}:{copy}"


def decode(custom_id: str, values: Sequence[str] = ()) -> Click:
    """The click a custom id (and a select's picked values) stands for."""
    fields = custom_id.split(":")
    if len(custom_id) > MAX_ID or fields[0] != PREFIX or len(fields) < 4:
        raise CodecError("not_doko", custom_id)
    what, args = fields[1], fields[4:]
    table_id = _number(fields[2], custom_id)
    version = _number(fields[3], custom_id)

    def arity(n: int) -> None:
        if len(args) != n:
            raise CodecError("wrong_fields", custom_id)

    target: TableButton | Action
    kind = TABLE_KIND_OF.get(what)
    if kind is not None:
        if kind == "addai":
            arity(1)
            if not (args[0].isascii() and args[0].isalpha() and len(args[0]) <= MAX_LEVEL):
                raise CodecError("bad_level", custom_id)
        elif kind == "removeai" or kind == "analyse":
            arity(1)
            _number(args[0], custom_id)
        else:
            arity(0)
        target = TableButton(kind, args[0] if args else "")
        return Click(table_id, version, target)
    if not args:
        raise CodecError("wrong_fields", custom_id)
    seat = _seat(args[0], custom_id)
    rest = args[1:]
    if what == "declare" or what == "return":
        if rest:
            raise CodecError("wrong_fields", custom_id)
        select: SelectKind = "declare" if what == "declare" else "return"
        return Click(table_id, version, _select(select, seat, values, custom_id))
    if values:
        raise CodecError("unexpected_values", custom_id)
    match what:
        case "card":
            arity(3)
            if rest[1] not in ("0", "1"):
                raise CodecError("bad_copy", custom_id)
            target = Play(seat, _card(rest[0], custom_id))
        case "reserve":
            arity(2)
            target = Reserve(seat, _bool(rest[0], custom_id))
        case "call":
            arity(2)
            if rest[0] not in CALLS:
                raise CodecError("bad_call", custom_id)
            target = Announce(seat, CALLS[rest[0]])
        case "schmeissen":
            arity(1)
            target = Schmeissen(seat)
        case "armut":
            if not rest:
                raise CodecError("wrong_fields", custom_id)
            target = ArmutOffer(seat, tuple(_card(c, custom_id) for c in rest))
        case "takearmut":
            arity(2)
            target = TakeArmut(seat, _bool(rest[0], custom_id))
        case _:
            raise CodecError("unknown_kind", custom_id)
    return Click(table_id, version, target)


def _select(kind: SelectKind, seat: int, values: Sequence[str], custom_id: str) -> Action:
    if not values:
        raise CodecError("no_values", custom_id)
    if kind == "declare":
        if len(values) != 1 or values[0] not in DECLARABLE:
            raise CodecError("bad_values", custom_id)
        return Declare(seat, Contract(values[0]))
    picked = [v.split(":") for v in values]
    if any(len(p) != 2 or p[1] not in ("0", "1") for p in picked) or len(set(values)) != len(
        values
    ):
        raise CodecError("bad_values", custom_id)
    return ReturnCards(seat, tuple(_card(code, custom_id) for code, _ in picked))


def _number(text: str, custom_id: str) -> int:
    # ASCII digits only: str.isdecimal and int also take other scripts' digits ("١").
    if not (text.isascii() and text.isdecimal()) or len(text) > 19 or text[:1] == "0" != text:
        raise CodecError("bad_number", custom_id)
    return int(text)


def _seat(text: str, custom_id: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise CodecError("bad_seat", custom_id)
    return int(text)


def _bool(text: str, custom_id: str) -> bool:
    if text not in ("0", "1"):
        raise CodecError("bad_flag", custom_id)
    return text == "1"


def _card(code: str, custom_id: str) -> Card:
    try:
        card = parse_card(code)
    except NotationError:
        raise CodecError("bad_card", custom_id) from None
    if card.code != code:  # record notation exactly, as the codec writes it
        raise CodecError("bad_card", custom_id)
    return card


# -- replay threads -------------------------------------------------------------------------

REPLAY_PREFIX: Final = "protokoll"
MAX_STEP: Final = 40  # far beyond any game's tricks (12 at most): a bound for odd ids


@dataclass(frozen=True, slots=True)
class ReplayClick:
    """A replay thread's button: show page ``step`` of game ``game_id``'s protocol (0: the
    overview, then one page per trick).
    """

    game_id: int
    step: int


def replay_id(game_id: int, step: int, slot: str) -> str:
    """``protokoll:<game id>:<step>:<slot>``; ``slot`` tells the buttons apart (two of them
    may lead to the same page, and no two on a message may share an id).
    """
    custom_id = f"{REPLAY_PREFIX}:{game_id}:{step}:{slot}"
    assert len(custom_id) <= MAX_ID, custom_id
    return custom_id


def decode_replay(custom_id: str) -> ReplayClick:
    """The page a replay button's id asks for; :class:`CodecError` for anything else."""
    fields = custom_id.split(":")
    if len(custom_id) > MAX_ID or len(fields) != 4 or fields[0] != REPLAY_PREFIX:
        raise CodecError("not_replay", custom_id)
    if not (fields[3].isascii() and fields[3].isalpha() and len(fields[3]) <= 8):
        raise CodecError("bad_slot", custom_id)
    step = _number(fields[2], custom_id)
    if step > MAX_STEP:
        raise CodecError("bad_step", custom_id)
    return ReplayClick(_number(fields[1], custom_id), step)
