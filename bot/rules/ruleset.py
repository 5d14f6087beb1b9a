"""The rule set a game is played under: DDV tournament rules by default, house rules as flags.

A Ruleset is stored with every game, so old games replay under their own rules. In records
only the flags that differ from the DDV default are written (``"rules": {}`` is pure DDV).
docs/rules.md ("Ruleset flags") describes every flag.
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


class SchmeissenReason(StrEnum):
    """Hands on which a player may throw in the cards so that they are dealt again."""

    NEUNEN = "neunen"  # five or more nines
    KOENIGE = "koenige"  # five or more Könige
    NEUNEN_KOENIGE = "neunen_koenige"  # seven or more nines and Könige together
    WENIG_TRUMPF = "wenig_trumpf"  # at most one trump (normal-game card order)


class BockTrigger(StrEnum):
    """Game outcomes that start a Bockrunde (the next round of games counts double)."""

    TIE_120 = "tie_120"  # 120:120 Augen
    LOST_CALL = "lost_call"  # a party said Re/Kontra and did not win
    RE_AND_KONTRA = "re_and_kontra"  # both parties announced
    SOLO = "solo"  # any declared solo (Pflicht-, Lust- or vorgeführtes Solo)
    LOST_SOLO = "lost_solo"  # a declared solo the soloist did not win
    ZERO_GAME = "zero_game"  # a game worth 0 points (no winner, or floored)


class BockStacking(StrEnum):
    """What a Bockrunde triggered while Bock games are still pending does."""

    STACK = "stack"  # it starts with the next game too: overlapping rounds multiply (×4, ×8)
    QUEUE = "queue"  # it is appended after the pending ones: a game counts at most double


class NoWinnerScore(StrEnum):
    """Settlement when neither party reaches its target (both missed an Absage)."""

    DDV = "ddv"  # TSR 7.1.4: under-90/60/30, reached-against-Absage, Sonderpunkte
    ZERO = "zero"  # nobody scores


class RulesetError(ValueError):
    """A rules object with an unknown key or a value of the wrong kind."""


# Element types of the set-valued flags (JSON: a list of strings).
_SET_OF: dict[str, type[StrEnum]] = {"schmeissen": SchmeissenReason, "bock": BockTrigger}


@dataclass(frozen=True, slots=True)
class Ruleset:
    dulle_tie: DulleTie = DulleTie.FIRST_WINS
    with_nines: bool = True
    absagen_enabled: bool = True
    solos_enabled: bool = True
    pflichtsolo_enabled: bool = True
    winner_floor_zero: bool = False
    games_per_round: int = 24
    schweinchen: bool = False
    armut: bool = False
    armut_max_trumps: int = 3
    schmeissen: frozenset[SchmeissenReason] = frozenset()
    stille_hochzeit_enabled: bool = True
    no_winner_score: NoWinnerScore = NoWinnerScore.DDV
    bock: frozenset[BockTrigger] = frozenset()
    bock_stacking: BockStacking = BockStacking.STACK
    stammtisch_scoring: bool = False
    players: int = 4

    def __post_init__(self) -> None:
        if self.players not in (4, 5):
            raise RulesetError("rule 'players' must be 4 or 5")
        if not 0 <= self.armut_max_trumps <= 6:
            raise RulesetError("rule 'armut_max_trumps' must be from 0 to 6")
        if self.games_per_round < 1:
            raise RulesetError("rule 'games_per_round' must be a positive whole number")
        for name, kind in _SET_OF.items():
            value = getattr(self, name)
            if not isinstance(value, frozenset) or not all(isinstance(v, kind) for v in value):
                raise RulesetError(f"rule {name!r} must be a frozenset of {kind.__name__}")

    @property
    def hand_size(self) -> int:
        return 12 if self.with_nines else 10

    @property
    def tricks(self) -> int:
        return self.hand_size

    @property
    def bock_round_games(self) -> int:
        """A Bockrunde is one round of dealing: one game per player at the table."""
        return self.players

    def to_dict(self) -> dict[str, Any]:
        """The flags that differ from DDV, as JSON values."""
        out: dict[str, Any] = {}
        default = DDV
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value != getattr(default, field.name):
                if isinstance(value, frozenset):
                    out[field.name] = sorted(str(v) for v in value)
                else:
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
            if key in _SET_OF:
                values[key] = _parse_set(key, _SET_OF[key], value)
            elif isinstance(default, StrEnum):
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
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise RulesetError(f"rule {key!r} must be a whole number")
                values[key] = value
        return cls(**values)

    def replace(self, **changes: Any) -> Ruleset:
        """A copy with some flags changed (validated like any Ruleset)."""
        return dataclasses.replace(self, **changes)


def _parse_set(key: str, kind: type[StrEnum], value: Any) -> frozenset[Any]:
    choices = ", ".join(m.value for m in kind)
    if not isinstance(value, list):
        raise RulesetError(f"rule {key!r} must be a list of: {choices}")
    try:
        return frozenset(kind(v) for v in value)
    except ValueError:
        raise RulesetError(f"rule {key!r} may only contain: {choices}") from None


DDV = Ruleset()
