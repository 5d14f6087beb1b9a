"""The rule presets a table can be opened with (``/doko tisch regeln:…``).

The rules core's presets (``bot.rules.presets``: DDV-Turnier, Stammtisch, Online) come first;
the front end keeps its older single-flag variants of DDV, which earlier tables and commands
still name.
"""

from __future__ import annotations

from bot.rules.presets import PRESET_NAMES, Language
from bot.rules.presets import PRESETS as CORE_PRESETS
from bot.rules.ruleset import DDV, Ruleset

PRESETS: dict[str, Ruleset] = {
    **CORE_PRESETS,
    "ohne_pflichtsolo": DDV.replace(pflichtsolo_enabled=False),
    "ohne_neunen": DDV.replace(with_nines=False),
    "ohne_soli": DDV.replace(solos_enabled=False, pflichtsolo_enabled=False),
}

NAMES: dict[str, dict[Language, str]] = {
    **{key: dict(names) for key, names in PRESET_NAMES.items()},
    "ohne_pflichtsolo": {"de": "DDV ohne Pflichtsolo", "en": "DDV without Pflichtsolo"},
    "ohne_neunen": {"de": "DDV ohne Neunen", "en": "DDV without nines"},
    "ohne_soli": {"de": "DDV ohne Soli", "en": "DDV without solos"},
}


def preset_of(rules: Ruleset) -> str:
    """The preset's key, or ``eigene`` for rules no preset matches."""
    for name, preset in PRESETS.items():
        if rules == preset:
            return name
    return "eigene"


def preset_name(key: str, lang: Language) -> str:
    names = NAMES.get(key)
    if names is None:
        return "eigene Regeln" if lang == "de" else "custom rules"
    return names[lang]
