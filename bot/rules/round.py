"""The tournament round around a game: Pflichtsolo bookkeeping, Vorführen, who deals next."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SoloKind(StrEnum):
    PFLICHT = "pflicht"
    LUST = "lust"
    VORGEFUEHRT = "vorgefuehrt"


@dataclass(frozen=True, slots=True)
class RoundContext:
    """``games_left`` counts the round's games still to play, this one included (TSR 4.2)."""

    games_left: int
    pflichtsolo_done: tuple[bool, bool, bool, bool]

    def missing(self) -> list[int]:
        return [s for s in range(4) if not self.pflichtsolo_done[s]]

    def vorgefuehrt(self, dealer: int) -> int | None:
        """The seat that must play its Pflichtsolo now, without a Vorbehaltsabfrage.

        When the open Pflichtsoli fill the remaining games, the first seat lacking one,
        counted from the dealer's left (the dealer last), is vorgeführt (TSR 4.2).
        """
        missing = self.missing()
        if not missing or len(missing) < self.games_left:
            return None
        for k in range(1, 5):
            seat = (dealer + k) % 4
            if seat in missing:
                return seat
        return None  # unreachable: missing is not empty

    def after(self, solo_kind: SoloKind | None, soloist: int | None) -> RoundContext:
        """The context of the next game.

        A Pflichtsolo is dealt again by the same dealer and takes no slot of the round; a
        vorgeführtes Pflichtsolo does, since the deal moves on (digest §4.3).
        """
        done = list(self.pflichtsolo_done)
        if solo_kind in (SoloKind.PFLICHT, SoloKind.VORGEFUEHRT) and soloist is not None:
            done[soloist] = True
        games_left = self.games_left if solo_kind is SoloKind.PFLICHT else self.games_left - 1
        return RoundContext(max(games_left, 0), (done[0], done[1], done[2], done[3]))

    @property
    def finished(self) -> bool:
        return self.games_left <= 0 and all(self.pflichtsolo_done)


def next_dealer(dealer: int, solo_kind: SoloKind | None) -> int:
    """After a Pflichtsolo the same dealer deals again; otherwise the deal moves left."""
    return dealer if solo_kind is SoloKind.PFLICHT else (dealer + 1) % 4
