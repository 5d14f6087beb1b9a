"""Who takes part: registered players by id, and AI substitutes for no-shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

PlayerId: TypeAlias = int


@dataclass(frozen=True, slots=True, order=True)
class Substitute:
    """An AI filling a seat for a no-show; it takes no place in the standings."""

    number: int

    def __str__(self) -> str:
        return f"KI {self.number}"


Participant: TypeAlias = PlayerId | Substitute


def is_substitute(participant: Participant) -> bool:
    return isinstance(participant, Substitute)


def participant_key(participant: Participant) -> tuple[int, int]:
    """A total order over participants: players by id, then substitutes by number."""
    if isinstance(participant, Substitute):
        return (1, participant.number)
    return (0, participant)


def substitutes(count: int, first: int = 1) -> tuple[Substitute, ...]:
    """``count`` substitutes numbered from ``first``."""
    if count < 0:
        raise ValueError("count must not be negative")
    return tuple(Substitute(first + k) for k in range(count))
