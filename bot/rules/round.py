"""The round around a game: Pflichtsolo bookkeeping, Vorführen, who deals next; and the
house rules that span games: Bockrunden and five players at one table.

Everything here is a pure value or function: the engine carries the values from game to game.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rules.calls import Party
from bot.rules.ruleset import BockStacking, BockTrigger, Ruleset
from bot.rules.scoring import ScoreFacts, ScoreResult


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


# -- Bockrunden (house rule) ----------------------------------------------------------------


def bock_triggers(facts: ScoreFacts, result: ScoreResult) -> tuple[BockTrigger, ...]:
    """The enabled Bock triggers a scored game met, each starting one Bockrunde."""
    levels = {Party.RE: facts.re_level, Party.KONTRA: facts.kontra_level}
    solo = facts.contract.is_declared_solo
    met = {
        BockTrigger.TIE_120: result.re_augen == 120,
        BockTrigger.LOST_CALL: any(levels[p] >= 0 and result.winner is not p for p in Party),
        BockTrigger.RE_AND_KONTRA: all(level >= 0 for level in levels.values()),
        BockTrigger.SOLO: solo,
        BockTrigger.LOST_SOLO: solo and result.winner is not Party.RE,
        BockTrigger.ZERO_GAME: result.game_value == 0,
    }
    return tuple(t for t in BockTrigger if t in facts.ruleset.bock and met[t])


@dataclass(frozen=True, slots=True)
class BockState:
    """Pending Bockrunden: the games each still has to run, oldest first.

    A game's multiplier comes from the state before it (``multiplier``); after it is scored
    the engine moves on with ``after``. A redeal is no game: the state stays as it is.
    """

    rounds: tuple[int, ...] = ()

    def multiplier(self, ruleset: Ruleset) -> int:
        """×2 per running Bockrunde when they stack, else ×2 while any is pending."""
        if ruleset.bock_stacking is BockStacking.STACK:
            return 1 << len(self.rounds)
        return 2 if self.rounds else 1

    def after(self, triggers: int, ruleset: Ruleset) -> BockState:
        """The state for the next game: one Bock game used up, ``triggers`` new rounds added."""
        if ruleset.bock_stacking is BockStacking.STACK:
            left = [n - 1 for n in self.rounds]  # overlapping rounds all run at once
        else:
            left = [self.rounds[0] - 1, *self.rounds[1:]] if self.rounds else []
        rounds = [n for n in left if n > 0]
        rounds.extend([ruleset.bock_round_games] * triggers)
        return BockState(tuple(rounds))

    def games_left(self, ruleset: Ruleset) -> int:
        """Games still to be played under Bock (overlapping rounds cover the same games)."""
        if ruleset.bock_stacking is BockStacking.STACK:
            return max(self.rounds, default=0)
        return sum(self.rounds)


# -- five players (house rule; TSR appendix for tournaments) ---------------------------------


@dataclass(frozen=True, slots=True)
class FiveSeating:
    """Five players, one game of four: the dealer sits out and scores 0.

    Players are 0..4 clockwise. Game seat ``k`` is player ``dealer + 1 + k``, and the game's
    dealer seat is 3 (the player right of the real dealer), so seat 0, the real dealer's left
    neighbour, speaks first and leads, and the Vorbehaltsabfrage ends at seat 3.
    """

    dealer: int  # the player dealing (and sitting out), 0..4

    GAME_DEALER = 3

    def __post_init__(self) -> None:
        if not 0 <= self.dealer <= 4:
            raise ValueError("a five-player dealer is a player 0..4")

    @property
    def players(self) -> tuple[int, int, int, int]:
        """The player at each game seat 0..3."""
        d = self.dealer
        return ((d + 1) % 5, (d + 2) % 5, (d + 3) % 5, (d + 4) % 5)

    def seat_of(self, player: int) -> int | None:
        """The game seat of a player, None for the dealer who sits out."""
        return None if player == self.dealer else (player - self.dealer - 1) % 5

    def scores(self, game_scores: tuple[int, int, int, int]) -> tuple[int, int, int, int, int]:
        """The five players' scores of one game: the dealer's is 0, the sum stays 0."""
        out = [0] * 5
        for seat, player in enumerate(self.players):
            out[player] = game_scores[seat]
        return (out[0], out[1], out[2], out[3], out[4])

    def round_context(self, games_left: int, pflichtsolo_done: tuple[bool, ...]) -> RoundContext:
        """The four playing seats' Pflichtsolo state from the five players' (for Vorführen)."""
        if len(pflichtsolo_done) != 5:
            raise ValueError("five players need five Pflichtsolo flags")
        p = self.players
        done = tuple(pflichtsolo_done[q] for q in p)
        return RoundContext(games_left, (done[0], done[1], done[2], done[3]))

    def pflichtsolo_after(
        self, pflichtsolo_done: tuple[bool, ...], solo_kind: SoloKind | None, soloist: int | None
    ) -> tuple[bool, ...]:
        """The five flags after a game, from the game's solo kind and soloist seat."""
        done = list(pflichtsolo_done)
        if solo_kind in (SoloKind.PFLICHT, SoloKind.VORGEFUEHRT) and soloist is not None:
            done[self.players[soloist]] = True
        return tuple(done)

    def next_dealer(self, solo_kind: SoloKind | None, redeal: bool = False) -> int:
        """The next dealer among five: the same after a Pflichtsolo or a redeal, else the left."""
        if redeal or solo_kind is SoloKind.PFLICHT:
            return self.dealer
        return (self.dealer + 1) % 5
