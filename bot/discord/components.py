"""A message's controls as Discord components, with their custom ids from the codec.

``Components`` is a ``discord.ui.View`` that holds the component JSON itself instead of one
item object per button: a hand is rendered on nearly every action, and clicks are routed
by custom id (:func:`bot.discord.codec.decode`), never through item callbacks, so the items
would only cost. discord.py sends it like any View; it asks for ``to_components`` and
whether it is finished (True: the bot's view store never keeps it).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord import codec
from bot.engine.model import TableInfo
from bot.render.controls import Button, CardOption, Controls, DeclareOption, Select

ROWS = 5
ROW_WIDTH = 5  # a button fills one place of a row, a select all five
STYLES = {
    "primary": discord.ButtonStyle.primary.value,
    "secondary": discord.ButtonStyle.secondary.value,
    "success": discord.ButtonStyle.success.value,
    "danger": discord.ButtonStyle.danger.value,
}


class Components(discord.ui.View):
    """Buttons and selects laid out as discord.ui lays out a View: an item without a row
    goes to the first row with room.
    """

    def __init__(self, table_id: int = 0, version: int = 0, controls: Controls = ()) -> None:
        super().__init__(timeout=None)
        self._rows: list[list[dict[str, Any]]] = [[] for _ in range(ROWS)]
        self._widths = [0] * ROWS
        for control in controls:
            if isinstance(control, Button):
                self._place(_button(table_id, version, control), 1, control.row)
            else:
                self._place(_select(table_id, version, control), ROW_WIDTH, control.row)

    def _place(self, component: dict[str, Any], width: int, row: int | None) -> None:
        if row is None:
            row = next((r for r in range(ROWS) if self._widths[r] + width <= ROW_WIDTH), None)
            if row is None:
                raise ValueError("no row has room for another component")
        elif self._widths[row] + width > ROW_WIDTH:
            raise ValueError(f"row {row} has no room for another component")
        self._widths[row] += width
        self._rows[row].append(component)

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": row} for row in self._rows if row]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self._rows for c in row]

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<Components {self.custom_ids()}>"


def _button(table_id: int, version: int, button: Button) -> dict[str, Any]:
    return {
        "type": 2,
        "style": STYLES[button.style],
        "disabled": button.disabled,
        "label": button.label,
        "custom_id": codec.button_id(table_id, version, button.target, button.copy),
    }


def _select(table_id: int, version: int, select: Select) -> dict[str, Any]:
    """``count`` of the options must be picked (the cards an Armut taker returns)."""
    return {
        "type": 3,
        "custom_id": codec.select_id(table_id, version, select.kind, select.seat),
        "min_values": select.count,
        "max_values": select.count,
        "disabled": False,
        "required": True,
        "placeholder": select.placeholder,
        "options": [
            {"label": option.label, "value": _value(option), "default": False}
            for option in select.options
        ],
    }


def _value(option: DeclareOption | CardOption) -> str:
    if isinstance(option, DeclareOption):
        return codec.declare_value(option.action)
    return codec.card_value(option.card, option.copy)


def table_components(info: TableInfo, controls: Controls) -> Components:
    """A render's controls as components for this table version."""
    return Components(info.id, info.version, controls)
