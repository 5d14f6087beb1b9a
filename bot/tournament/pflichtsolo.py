"""Pflichtsolo bookkeeping for one table's round: each game's context, and the round's check.

A table plays ``games_per_round`` games (24 by the TSR); every player owes one Pflichtsolo,
re-dealt by the same dealer and so on top of those games, and whoever still owes it when
the open Pflichtsoli fill the games left is vorgeführt (TSR 4.2, digest §2.6 and §4.3).
The rules core's ``RoundContext`` decides all of it for a four-table.

A five-table is not covered by the core (which knows four seats) nor spelled out by the
TSR; here it follows the same rules, with these assumptions:

* the dealer sits out and so plays no solo in the game he deals;
* Vorführen falls due when the open Pflichtsoli of all five (the sitting-out dealer's
  included) reach the games left, and takes the first seat lacking one from the dealer's
  left, the dealer excluded. The context handed to the core counts the games left minus
  the sitting-out dealer's own open Pflichtsolo, so the core's test sees the whole table;
* if only the sitting-out dealer still owes his Pflichtsolo when it falls due, the game is
  played as usual and he is vorgeführt in the next one, after the round's games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.contracts import Contract
from bot.rules.round import RoundContext, SoloKind
from bot.tournament.seating import next_table_dealer

GAMES_PER_ROUND = 24


@dataclass(frozen=True, slots=True)
class ListedGame:
    """One line of a table's Spielliste, as far as the Pflichtsolo is concerned.

    ``soloist`` is a table seat (0..size-1); ``solo_kind`` is set for declared solos only.
    """

    contract: Contract
    solo_kind: SoloKind | None = None
    soloist: int | None = None


@dataclass(frozen=True, slots=True)
class GameSlot:
    """How the next game of a table is played: who deals, who plays where, the round context.

    ``table_seats[g]`` is the table seat sitting in game seat ``g``; ``game_dealer`` and
    ``context`` are what the rules core's ``Deal`` takes. ``vorgefuehrt`` is a table seat.
    """

    number: int
    dealer: int
    sitting_out: int | None
    table_seats: tuple[int, int, int, int]
    game_dealer: int
    context: RoundContext
    vorgefuehrt: int | None


@dataclass(frozen=True, slots=True)
class TableRound:
    """The Pflichtsolo state of one table between two games of a round."""

    size: int
    dealer: int
    games_left: int
    pflichtsolo_done: tuple[bool, ...]
    games_played: int = 0

    def __post_init__(self) -> None:
        if self.size not in (4, 5):
            raise ValueError("a table seats four or five players")
        if len(self.pflichtsolo_done) != self.size or not 0 <= self.dealer < self.size:
            raise ValueError("seats do not match the table size")

    @classmethod
    def start(
        cls, size: int, first_dealer: int, games_per_round: int = GAMES_PER_ROUND
    ) -> TableRound:
        return cls(size, first_dealer, games_per_round, (False,) * size)

    @property
    def finished(self) -> bool:
        return self.games_left <= 0 and all(self.pflichtsolo_done)

    def missing(self) -> tuple[int, ...]:
        """Table seats still owing their Pflichtsolo."""
        return tuple(s for s in range(self.size) if not self.pflichtsolo_done[s])

    def slot(self) -> GameSlot:
        """The next game: its seating, its round context and who is vorgeführt in it."""
        if self.size == 4:
            seats = (0, 1, 2, 3)
            game_dealer, sitting_out, games_left = self.dealer, None, self.games_left
        else:
            t = [(self.dealer + k) % 5 for k in range(1, 5)]
            seats = (t[0], t[1], t[2], t[3])
            game_dealer, sitting_out = 3, self.dealer
            owes = not self.pflichtsolo_done[self.dealer]
            games_left = max(self.games_left - owes, 0)
        done = tuple(self.pflichtsolo_done[s] for s in seats)
        context = RoundContext(games_left, (done[0], done[1], done[2], done[3]))
        forced = context.vorgefuehrt(game_dealer)
        return GameSlot(
            number=self.games_played + 1,
            dealer=self.dealer,
            sitting_out=sitting_out,
            table_seats=seats,
            game_dealer=game_dealer,
            context=context,
            vorgefuehrt=None if forced is None else seats[forced],
        )

    def after(self, game: ListedGame) -> TableRound:
        """The state after ``game``, taken as listed (``check_round`` judges the listing)."""
        seats = self.slot().table_seats
        soloist = seats.index(game.soloist) if game.soloist in seats else None
        done = [self.pflichtsolo_done[s] for s in seats]
        # The core's bookkeeping on the unadjusted count: a Pflichtsolo takes no slot.
        later = RoundContext(self.games_left, (done[0], done[1], done[2], done[3])).after(
            game.solo_kind, soloist
        )
        all_done = list(self.pflichtsolo_done)
        for g, table_seat in enumerate(seats):
            all_done[table_seat] = later.pflichtsolo_done[g]
        return TableRound(
            size=self.size,
            dealer=next_table_dealer(self.size, self.dealer, game.solo_kind),
            games_left=later.games_left,
            pflichtsolo_done=tuple(all_done),
            games_played=self.games_played + 1,
        )


@dataclass(frozen=True, slots=True)
class RoundProblem:
    """A breach of the Pflichtsolo rules; ``game`` is 1-based, None for the round as a whole."""

    game: int | None
    reason: str
    message: str


@dataclass(frozen=True, slots=True)
class RoundCheck:
    slots: tuple[GameSlot, ...]
    problems: tuple[RoundProblem, ...]
    final: TableRound

    @property
    def ok(self) -> bool:
        return not self.problems


def check_round(
    spielliste: Sequence[ListedGame],
    size: int = 4,
    first_dealer: int = 0,
    games_per_round: int = GAMES_PER_ROUND,
) -> RoundCheck:
    """Replay a table's Spielliste and check its Pflichtsoli.

    The round is in order when every player played exactly one Pflichtsolo, no Lustsolo
    came before the player's own Pflichtsolo, whoever was due was vorgeführt in the game
    the round context demands, and the list ends exactly when the round is over.
    """
    state = TableRound.start(size, first_dealer, games_per_round)
    slots: list[GameSlot] = []
    problems: list[RoundProblem] = []
    for game in spielliste:
        slot = state.slot()
        slots.append(slot)
        problems.extend(_game_problems(state, slot, game))
        state = state.after(game)
    if not state.finished:
        owing = ", ".join(str(s) for s in state.missing()) or "none"
        problems.append(
            RoundProblem(
                None,
                "round_incomplete",
                f"the round is not over: {state.games_left} games left, "
                f"Pflichtsolo still owed by seats: {owing}",
            )
        )
    return RoundCheck(tuple(slots), tuple(problems), state)


def _game_problems(state: TableRound, slot: GameSlot, game: ListedGame) -> list[RoundProblem]:
    n = slot.number
    found: list[RoundProblem] = []

    def problem(reason: str, message: str) -> None:
        found.append(RoundProblem(n, reason, f"game {n}: {message}"))

    kind, soloist = game.solo_kind, game.soloist
    if state.finished:
        problem("after_round_end", "the round was already over")
    if kind is not None and not game.contract.is_declared_solo:
        problem("not_a_solo", f"{game.contract} cannot be a {kind} solo")
    if kind is None and game.contract.is_declared_solo:
        problem("solo_kind_missing", "a declared solo needs its kind: pflicht, lust or vorgefuehrt")
    if soloist is not None and not 0 <= soloist < state.size:
        problem("no_such_seat", f"there is no seat {soloist}")
        soloist = None
    if kind is not None and soloist is None:
        problem("soloist_missing", "a solo needs its soloist")
    if soloist is not None and soloist == slot.sitting_out:
        problem("sitting_out_played", f"seat {soloist} deals and sits out this game")
    if slot.vorgefuehrt is not None:
        if kind is not SoloKind.VORGEFUEHRT or soloist != slot.vorgefuehrt:
            problem("vorfuehren_missed", f"seat {slot.vorgefuehrt} had to be vorgeführt")
    elif kind is SoloKind.VORGEFUEHRT:
        problem("not_due", "nobody was to be vorgeführt in this game")
    if soloist is not None:
        done = state.pflichtsolo_done[soloist]
        if kind is SoloKind.PFLICHT and done:
            problem("second_pflichtsolo", f"seat {soloist} already played its Pflichtsolo")
        if kind is SoloKind.LUST and not done:
            # Before his own Pflichtsolo any solo a player plays is that Pflichtsolo (TSR 4.3).
            problem("lustsolo_before_pflichtsolo", f"seat {soloist} still owes its Pflichtsolo")
    return found
