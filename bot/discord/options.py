"""Slash-command options checked against the command's own definition before it runs.

Discord checks ranges, lengths and choices only against the definition it has synced; a
client with an outdated definition (or a hand-made request) sends anything. discord.py
reads the values but does not check them, so each cog calls :func:`accept` from its
``interaction_check``: a value outside what the command declares (``Range``, ``choices``)
is refused with what is allowed, before the command does anything.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.answers import say
from bot.engine.model import AI_LEVELS, DISCONNECT_POLICIES
from bot.render.texts import Lang, lang_of, t
from bot.render.translator import command_word

MAX_STRING = 6000  # Discord's limit on a string option

# The choices several commands share: the AI level of empty seats and stand-ins, and what an
# expired turn timer means (bot/engine/absence.py).
BOT_CHOICES = [app_commands.Choice(name=level, value=level) for level in AI_LEVELS]
POLICY_CHOICES = [
    app_commands.Choice(name=t("de", f"policy_{policy}"), value=policy)
    for policy in DISCONNECT_POLICIES
]


def problem(
    command: app_commands.Command[Any, ..., Any], values: dict[str, Any], lang: Lang
) -> str | None:
    """What is wrong with the given option values of ``command`` (by option name), or None."""
    for param in command.parameters:
        value = values.get(param.display_name)
        if value is None:
            continue
        name = command_word(param.display_name, lang)
        if param.choices and value not in [c.value for c in param.choices]:
            names = ", ".join(command_word(c.name, lang) for c in param.choices)
            return t(lang, "input_choice", option=name, value=_shown(value), names=names)
        low, high = param.min_value, param.max_value
        if isinstance(value, str):
            low, high = int(low or 0), int(high or MAX_STRING)
            if not low <= len(value) <= high:
                return t(lang, "input_length", option=name, low=low, high=high, value=len(value))
        elif _number(value) and _outside(value, low, high):
            return t(
                lang,
                "input_range",
                option=name,
                low="…" if low is None else low,
                high="…" if high is None else high,
                value=_shown(value),
            )
    return None


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _outside(value: float, low: float | None, high: float | None) -> bool:
    return (low is not None and value < low) or (high is not None and value > high)


def _shown(value: object) -> str:
    """A refused value as it is repeated to the user: short, on one line."""
    text = " ".join(str(value).split())
    return text if len(text) <= 40 else text[:39] + "…"


async def accept(interaction: discord.Interaction[Any]) -> bool:
    """True when every option of the invoked command is within its definition; else the
    user has been told (ephemerally) what is allowed.
    """
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    values = dict(vars(interaction.namespace))
    text = problem(command, values, lang_of(interaction.locale))
    if text is None:
        return True
    await say(interaction, text)
    return False
