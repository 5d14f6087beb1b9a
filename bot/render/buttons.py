"""Restart-proof components: every button and select has a custom_id that says it all.

Custom ids follow ``doko:<what>:<table id>:<table version>[:<argument>…]``; a card button
carries the card's record code and its copy index (``doko:card:7:31:H10:1``), so the two
copies of a card stay unique on one message. A click is parsed from its id alone (so it
works after a restart); what it does is up to the handler the bot installs as
``component_handler``.

Messages are sent with :class:`Components`: the buttons and selects written straight as
Discord's JSON. A hand is rendered on nearly every action, and discord.ui's View and item
objects (a future, reference cycles, a syscall each) cost the event loop more than the rest
of the rendering; clicks are dispatched by their custom id, so no item objects are needed.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

BUTTON_KINDS = (
    "join",
    "leave",
    "addai",
    "removeai",  # the lobby: take an AI off a seat again
    "pause",  # mid-game: an AI plays for me until I come back
    "back",  # mid-game: take my seat back from the AI
    "start",
    "rules",
    "hand",
    "reserve",
    "card",
    "call",
    "schmeissen",  # house rule: throw the hand in (Vorbehaltsabfrage)
    "armut",  # house rule: offer the hand's trumps as an Armut
    "takearmut",  # house rule: take (1) or decline (0) the Armut asked about
)
SELECT_KINDS = ("declare", "return")  # a solo or Hochzeit; the cards an Armut taker returns


@dataclass(frozen=True, slots=True)
class Click:
    """One parsed component interaction."""

    what: str
    table_id: int
    version: int
    args: tuple[str, ...] = ()
    values: tuple[str, ...] = ()


ClickHandler = Callable[[Click, discord.Interaction[Any]], Awaitable[None]]


def custom_id(what: str, table_id: int, version: int, *args: str) -> str:
    return ":".join(("doko", what, str(table_id), str(version), *args))


ROWS = 5
ROW_WIDTH = 5  # a button fills one place of a row, a select all five


class Components(discord.ui.View):
    """Buttons and selects as Discord's component JSON, laid out as discord.ui lays out a
    View (an item without a row goes to the first row with room), built without item objects.

    discord.py sends it like any View: it asks only for ``to_components`` and whether it is
    finished (True: the ViewStore never keeps it; :func:`dispatch_click` routes the clicks).
    ``View.__init__`` is skipped on purpose: it makes a future and reads os.urandom, and the
    latter hands the GIL to whatever thread wants it (the AIs), for up to 5 ms of the loop.
    """

    def __init__(self) -> None:
        self._rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
        self._widths = [0] * ROWS
        self._children = []

    def _place(self, component: dict[str, Any], width: int, row: int | None) -> None:
        if row is None:
            row = next((r for r in range(ROWS) if self._widths[r] + width <= ROW_WIDTH), None)
            if row is None:
                raise ValueError("no row has room for another component")
        elif self._widths[row] + width > ROW_WIDTH:
            raise ValueError(f"row {row} has no room for another component")
        self._widths[row] += width
        self._rows[row].append(component)

    def button(
        self,
        what: str,
        table_id: int,
        version: int,
        *args: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        component = {
            "type": 2,
            "style": style.value,
            "disabled": disabled,
            "label": label,
            "custom_id": custom_id(what, table_id, version, *args),
        }
        self._place(component, 1, row)

    def select(
        self,
        table_id: int,
        version: int,
        options: list[tuple[str, str]],
        placeholder: str,
        row: int | None = None,
        what: str = "declare",
        count: int = 1,
    ) -> None:
        """``options`` are (label, value); ``count`` of them must be picked (the cards an
        Armut taker returns)."""
        component = {
            "type": 3,
            "custom_id": custom_id(what, table_id, version),
            "min_values": count,
            "max_values": count,
            "disabled": False,
            "required": True,
            "placeholder": placeholder,
            "options": [{"label": lbl, "value": val, "default": False} for lbl, val in options],
        }
        self._place(component, ROW_WIDTH, row)

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self._rows if row]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self._rows for c in row]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        return None

    def __repr__(self) -> str:
        return f"<Components {self.custom_ids()}>"


BUTTON_ID = re.compile(
    r"doko:(?P<what>" + "|".join(BUTTON_KINDS) + r"):(?P<table>\d{1,19}):"
    r"(?P<version>\d{1,19})(?::(?P<args>[A-Za-z0-9_:]{1,40}))?"
)
SELECT_ID = re.compile(
    r"doko:(?P<what>" + "|".join(SELECT_KINDS) + r"):(?P<table>\d{1,19}):(?P<version>\d{1,19})"
)


def parse_click(custom_id: str, values: tuple[str, ...] = ()) -> Click | None:
    """The click that a component id (and a select's picks) stands for; None for another id."""
    for template in (BUTTON_ID, SELECT_ID):
        match = template.fullmatch(custom_id)
        if match is not None:
            args = match.groupdict().get("args")
            return Click(
                match["what"],
                int(match["table"]),
                int(match["version"]),
                tuple(args.split(":")) if args else (),
                values,
            )
    return None


async def dispatch_click(interaction: discord.Interaction[Any]) -> bool:
    """Hand a component interaction with a doko id to the bot's ``component_handler``;
    False for another interaction. Parsed here rather than by discord.py's DynamicItems,
    which rebuild the clicked message's whole View (an object per button) on every click."""
    if interaction.type is not discord.InteractionType.component or interaction.data is None:
        return False
    data: dict[str, Any] = dict(interaction.data)
    values = tuple(str(v) for v in data.get("values") or ())
    click = parse_click(str(data.get("custom_id", "")), values)
    if click is None:
        return False
    handler: ClickHandler | None = getattr(interaction.client, "component_handler", None)
    if handler is None:  # the bot is still starting up
        from bot.render.texts import lang_of, t

        await interaction.response.send_message(
            t(lang_of(interaction.locale), "busy"), ephemeral=True
        )
        return True
    await handler(click, interaction)
    return True
