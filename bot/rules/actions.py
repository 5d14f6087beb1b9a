"""What happens in a game: its phases, the actions players take, the error for a refused one."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rules.calls import Call
from bot.rules.cards import Card
from bot.rules.contracts import Contract


class Phase(StrEnum):
    VORBEHALT = "vorbehalt"
    DECLARE = "declare"
    ARMUT = "armut"  # house rule: the others are asked to take the Armut, the taker returns cards
    PLAY = "play"
    FINISHED = "finished"


class Redeal(StrEnum):
    """Why a game ended without being played: the same dealer deals again, nobody scores."""

    SCHMEISSEN = "schmeissen"
    ARMUT_DECLINED = "armut_declined"


@dataclass(frozen=True, slots=True)
class Reserve:
    """The Vorbehaltsabfrage: ``reserve=False`` is "gesund", ``True`` is "Vorbehalt"."""

    seat: int
    reserve: bool


@dataclass(frozen=True, slots=True)
class Declare:
    """Naming ("taufen") a reservation: Hochzeit or a solo."""

    seat: int
    contract: Contract


@dataclass(frozen=True, slots=True)
class Play:
    """Playing a card to the open trick."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Announce:
    """An Ansage or Absage; any seat may announce at any time within its deadline."""

    seat: int
    call: Call


@dataclass(frozen=True, slots=True)
class Schmeissen:
    """House rule Schmeißen: on its turn in the Vorbehaltsabfrage, throw in a hand for a redeal."""

    seat: int


@dataclass(frozen=True, slots=True)
class ArmutOffer:
    """House rule Armut: naming the reservation by offering every trump of the hand."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TakeArmut:
    """Asked in turn from the poor seat's left: take the offered trumps (and be the partner)."""

    seat: int
    take: bool


@dataclass(frozen=True, slots=True)
class ReturnCards:
    """The taker gives the poor seat as many cards as it received (trumps allowed)."""

    seat: int
    cards: tuple[Card, ...]


Action = Reserve | Declare | Play | Announce | Schmeissen | ArmutOffer | TakeArmut | ReturnCards


class IllegalActionError(ValueError):
    """An action the rules forbid now. ``reason`` is a stable code for front ends."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
