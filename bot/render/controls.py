"""The buttons and selects of a message, as plain values: what each says and what it does.

Renders return these; the Discord package turns them into components (custom ids through
its codec) when it sends the message, so nothing here knows Discord's component JSON.
A game button's target is the rules' own ``Action``; every other button is a
``TableButton``. Discord lays them out five to a row, a select filling a row of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from bot.rules.cards import Card
from bot.rules.game import Action, Declare

Style = Literal["primary", "secondary", "success", "danger"]
TableKind = Literal[
    "join",
    "leave",
    "addai",  # arg: the AI level
    "removeai",  # the lobby: take the AI off seat ``arg`` again
    "pause",  # mid-game: an AI plays for me until I come back
    "back",  # mid-game: take my seat back from the AI
    "start",
    "rules",
    "hand",  # "Meine Karten": the hand as an ephemeral message
    "takeover",  # the host, while the table waits for an absent player: a bot plays
    "scorelost",  # the host, while the table waits: the game is lost for the absent party
    "analyse",  # a finished game's result: the player's own Spielanalyse (arg: the game id)
    "tipp",  # a coached table's hand: the AI's suggestion for this decision
]
TABLE_KINDS: tuple[TableKind, ...] = (
    "join",
    "leave",
    "addai",
    "removeai",
    "pause",
    "back",
    "start",
    "rules",
    "hand",
    "takeover",
    "scorelost",
    "analyse",
    "tipp",
)


@dataclass(frozen=True, slots=True)
class TableButton:
    """A button that is no game action: the lobby, the table's menu."""

    kind: TableKind
    arg: str = ""


class Button(NamedTuple):
    """A button; a tuple, not a dataclass, as a hand makes a dozen on every render."""

    target: TableButton | Action
    label: str
    style: Style = "secondary"
    disabled: bool = False
    row: int | None = None
    # Which copy of the card a Play is (0 or 1): the two copies' buttons need distinct ids.
    copy: int = 0


@dataclass(frozen=True, slots=True)
class CardOption:
    """One card of the hand in the select of the cards an Armut taker returns."""

    label: str
    card: Card
    copy: int


@dataclass(frozen=True, slots=True)
class DeclareOption:
    label: str
    action: Declare


@dataclass(frozen=True, slots=True)
class Select:
    """A select: a solo or Hochzeit to declare, or ``count`` cards to return."""

    kind: Literal["declare", "return"]
    seat: int
    placeholder: str
    options: tuple[DeclareOption | CardOption, ...]
    count: int = 1
    row: int | None = None


Control = Button | Select
Controls = tuple[Control, ...]
