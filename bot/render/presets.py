"""The rule presets a table can be opened with (``/doko tisch regeln:…``)."""

from __future__ import annotations

from bot.rules.ruleset import DDV, Ruleset

PRESETS: dict[str, Ruleset] = {
    "ddv": DDV,
    "ohne_pflichtsolo": Ruleset(pflichtsolo_enabled=False),
    "ohne_neunen": Ruleset(with_nines=False),
    "ohne_soli": Ruleset(solos_enabled=False, pflichtsolo_enabled=False),
}


def preset_of(rules: Ruleset) -> str:
    """The preset's name, or ``eigene`` for rules no preset matches."""
    for name, preset in PRESETS.items():
        if rules == preset:
            return name
    return "eigene"
