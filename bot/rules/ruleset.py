"""The rule set a game is played under: DDV tournament rules by default, house rules as flags.

A Ruleset is stored with every game, so old games replay under their own rules. In records
only the flags that differ from the DDV default are written (``"rules": {}`` is pure DDV).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class DulleTie(StrEnum):
    """Who wins when both Herz-Zehnen fall in one trick (DDV: the first, TSR 5.3)."""

    FIRST_WINS = "first_wins"
    SECOND_WINS = "second_wins"
    SECOND_WINS_EXCEPT_LAST_TRICK = "second_wins_except_last_trick"
    SECOND_WINS_ONLY_LAST_TRICK = "second_wins_only_last_trick"


class RulesetError(ValueError):
    """A rules object with an unknown key or a value of the wrong kind."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    dulle_tie: DulleTie = DulleTie.FIRST_WINS
    with_nines: bool = True
    absagen_enabled: bool = True
    solos_enabled: bool = True
    pflichtsolo_enabled: bool = True
    winner_floor_zero: bool = False
    games_per_round: int = 24

    @property
    def hand_size(self) -> int:
        return 12 if self.with_nines else 10

    @property
    def tricks(self) -> int:
        return self.hand_size

    def to_dict(self) -> dict[str, Any]:
        """The flags that differ from DDV, as JSON values."""
        out: dict[str, Any] = {}
        default = DDV
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value != getattr(default, field.name):
                out[field.name] = str(value) if isinstance(value, StrEnum) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Ruleset:
        if data is None:
            return DDV
        if not isinstance(data, dict):
            raise RulesetError("'rules' must be an object of rule overrides")
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise RulesetError(f"unknown rule {key!r} (known: {', '.join(sorted(known))})")
            default = getattr(DDV, key)
            if isinstance(default, StrEnum):
                try:
                    values[key] = type(default)(value)
                except ValueError:
                    choices = ", ".join(m.value for m in type(default))
                    raise RulesetError(f"rule {key!r} must be one of {choices}") from None
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise RulesetError(f"rule {key!r} must be true or false")
                values[key] = value
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                    raise RulesetError(f"rule {key!r} must be a positive whole number")
                values[key] = value
        return cls(**values)


DDV = Ruleset()
