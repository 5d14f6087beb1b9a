"""The slash commands' English localizations (bot/render/translator.py), read off the real
command tree: every German name, description and choice an English user would see.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from discord import Locale, app_commands

import cogs.doko
import cogs.einstellungen
import cogs.turnier
from bot.render import translator
from bot.render.translator import DokoTranslator
from bot.render.turnier import COMMAND_EN

# cogs.turnier's setup() adds the tournament names to the translator's table before a sync.
ENGLISH = translator.EN | COMMAND_EN
NAME = re.compile(r"[-_\w]{1,32}")  # Discord's rule for command and option names, lower case


def strings() -> tuple[set[str], set[str]]:
    """(names, texts): command/option names, and descriptions and choice names."""
    names: set[str] = {cogs.doko.Doko.__cog_group_name__}
    texts: set[str] = {str(cogs.doko.Doko.__cog_group_description__)}
    group = cogs.turnier.Turnier(None)
    commands: list[app_commands.Command] = list(cogs.doko.Doko.__cog_app_commands__)  # type: ignore[type-arg]
    commands += list(group.walk_commands())  # type: ignore[arg-type]
    names.add(group.name)
    texts.add(group.description)
    names.add("einstellungen")
    texts.add(cogs.einstellungen.DESCRIPTION)
    for command in commands:
        names.add(command.name)
        texts.add(command.description)
        for parameter in command.parameters:
            names.add(parameter.name)
            texts.add(parameter.description)
            texts.update(choice.name for choice in parameter.choices)
    return names, texts


NAMES, TEXTS = strings()
# German strings that read the same in English: names and Doppelkopf terms.
SAME_IN_ENGLISH = {"Re", "Kontra", "Schwarz", "Hochzeit", "Stille Hochzeit", "Stammtisch", "Online"}
GAPS: dict[str, str] = {}


def translate(message: str, locale: Locale) -> str | None:
    return asyncio.run(
        DokoTranslator().translate(app_commands.locale_str(message), locale, None)  # type: ignore[arg-type]
    )


def cases(values: set[str]) -> list[object]:
    return [
        pytest.param(v, marks=pytest.mark.xfail(strict=True, reason=GAPS[v])) if v in GAPS else v
        for v in sorted(values)
    ]


def test_the_tree_is_read() -> None:
    assert {"doko", "tisch", "ansage", "turnier", "anmelden", "regeln"} <= NAMES
    assert "Einen Tisch in diesem Kanal eröffnen" in TEXTS


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_command_and_option_name_has_a_valid_english_name(name: str) -> None:
    english = ENGLISH.get(name)
    assert english is not None, name
    assert NAME.fullmatch(english) and english == english.lower(), english


@pytest.mark.parametrize("text", cases(TEXTS))
def test_every_description_and_choice_has_english(text: str) -> None:
    if text in SAME_IN_ENGLISH:
        return
    english = ENGLISH.get(text)
    assert english is not None, text
    assert 1 <= len(english) <= 100
    assert english != text


@pytest.mark.parametrize("locale", [Locale.american_english, Locale.british_english])
def test_english_locales_get_english(locale: Locale) -> None:
    assert translate("tisch", locale) == "table"
    assert translate("Deine Karten noch einmal zeigen", locale) == "Show your cards again"


@pytest.mark.parametrize("locale", [Locale.german, Locale.french, Locale.dutch])
def test_other_locales_keep_the_german_names(locale: Locale) -> None:
    assert translate("tisch", locale) is None


def test_english_command_names_are_distinct_within_doko() -> None:
    doko = [c.name for c in cogs.doko.Doko.__cog_app_commands__] + ["turnier"]
    english = [ENGLISH[n] for n in doko]
    assert len(set(english)) == len(english)
