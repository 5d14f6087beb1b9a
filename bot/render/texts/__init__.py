"""The texts players read, in German (the default) and English.

``t(lang, key, **values)`` formats one text; a key missing in English falls back to German.
Doppelkopf terms (Re, Kontra, Hochzeit, Vorbehalt, Augen, Spielliste …) stay German in both.
Each module of this package holds the texts of one part of the product as two dicts, ``DE``
and ``EN``; a new feature adds its own module and names it in ``PARTS``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Literal

from bot.render.texts import (
    access,
    analyse,
    answers,
    challenge,
    channel,
    dms,
    input,
    pictures,
    pings,
    policy,
    rangliste,
    replay,
    results,
    settings,
    slow,
    store,
    table,
)

Lang = Literal["de", "en"]

PARTS: tuple[ModuleType, ...] = (
    table,
    answers,
    results,
    pings,
    pictures,
    channel,
    access,
    input,
    settings,
    rangliste,
    dms,
    store,
    policy,
    replay,
    slow,
    analyse,
    challenge,
)


def lang_of(locale: object) -> Lang:
    """English for any ``en-*`` locale, German for everything else."""
    return "en" if str(locale or "").lower().startswith("en") else "de"


def _merge(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for part in PARTS:
        texts: dict[str, str] = getattr(part, lang)
        # One place for each text: a key defined twice would make one of them dead.
        if twice := merged.keys() & texts.keys():
            raise RuntimeError(f"texts defined twice ({part.__name__}): {sorted(twice)}")
        merged.update(texts)
    return merged


DE: dict[str, str] = _merge("DE")
EN: dict[str, str] = _merge("EN")
TEXTS: dict[Lang, dict[str, str]] = {"de": DE, "en": EN}


def t(lang: Lang, key: str, **values: object) -> str:
    """The text ``key`` in ``lang`` (German when English lacks it), formatted with ``values``."""
    template = TEXTS[lang].get(key) or DE[key]
    return template.format(**values) if values else template
