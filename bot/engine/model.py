"""What the engine hands to front ends: snapshots, errors and events. No hand is public."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any, Protocol, cast

from bot.rules.game import Action
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView, PublicView
from db.rows import AILevel

AI_LEVELS = ("leicht", "mittel", "schwer")
DISCONNECT_POLICIES = ("bot", "warten", "verloren")


class AIPlayer(Protocol):
    """Decides for an AI seat at ``level``, from that seat's view only."""

    def choose(self, level: str, view: PlayerView, rng: random.Random) -> Action: ...


class EngineError(Exception):
    """A request the engine refuses; ``reason`` is a stable code the front ends translate."""

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details


def check_level(level: str) -> AILevel:
    """``level`` as the store's type; an AI level the engine does not know is refused."""
    if level not in AI_LEVELS:
        raise EngineError("bad_level", f"AI levels are {', '.join(AI_LEVELS)}")
    return cast(AILevel, level)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int | None  # the human who owns the seat (also while an AI stands in)
    name: str
    ai_level: str | None  # the AI playing this seat now, if any
    away: bool = False  # a human who left mid-game: the AI plays until they come back

    @property
    def is_ai(self) -> bool:
        return self.user_id is None

    @property
    def played_by_ai(self) -> bool:
        return self.ai_level is not None


FOUR_SEATS: tuple[int, int, int, int] = (0, 1, 2, 3)


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One line of the Spielliste: a column per table seat (four or five).

    ``seats[g]`` is the table seat that played game seat ``g``; at a five-player table the
    dealer sits out (``sitting_out``) and scores 0. ``soloist`` is a table seat.
    """

    number: int
    contract: str
    solo_kind: str | None  # "pflicht" and "vorgefuehrt" go into the Pflichtsolo column
    soloist: int | None
    game_value: int
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    seats: tuple[int, int, int, int] = FOUR_SEATS
    sitting_out: int | None = None


@dataclass(frozen=True, slots=True)
class WaitingInfo:
    """The table waits for the human on table seat ``seat``, absent since ``since``.

    ``forfeit_at``: when their party's game is scored as lost (``verloren``); None while the
    table waits for them or the host (``warten``).
    """

    seat: int
    since: datetime
    forfeit_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A public snapshot of a table.

    ``seats`` are the table's four or five seats. The running game has four game seats
    (the rules core's, which ``public`` speaks of): ``game_seats[g]`` is the table seat
    playing game seat ``g``; at a five-player table the dealer, ``sitting_out``, plays no
    part in it. ``pflichtsolo_done`` is by table seat.
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: Ruleset
    status: str  # lobby, playing, closed
    version: int
    turn_timer_s: int | None
    games_per_session: int
    seats: tuple[SeatInfo | None, ...]
    game_number: int | None
    game_id: int | None
    games_left: int | None
    pflichtsolo_done: tuple[bool, ...] | None
    public: PublicView | None
    spielliste: tuple[ListEntry, ...] = field(default=())
    game_seats: tuple[int, int, int, int] = FOUR_SEATS
    sitting_out: int | None = None
    ai_level: str = "leicht"  # the AI of empty seats at the start and of stand-ins
    disconnect_policy: str = "bot"  # what an expired turn timer does: bot, warten, verloren
    waiting: WaitingInfo | None = None  # the table waits for an absent human
    tempo_s: int | None = None  # a slow table's seconds per move (in place of turn_timer_s)
    turn_due: datetime | None = None  # a slow table: when the move of the human to act is due

    @property
    def turn_since(self) -> datetime | None:
        """A slow table: since when the human to act is to act."""
        if self.turn_due is None or self.tempo_s is None:
            return None
        return self.turn_due - timedelta(seconds=self.tempo_s)

    coach: bool = False  # the hands offer the AI's Tipp; the games are unranked

    @property
    def size(self) -> int:
        """Seats at the table: four, or five when the dealer sits out each game."""
        return len(self.seats)

    def seat_of(self, user_id: int) -> int | None:
        """The user's table seat."""
        for info in self.seats:
            if info is not None and info.user_id == user_id:
                return info.seat
        return None

    def game_seat_of(self, user_id: int) -> int | None:
        """The user's seat in the running game; None when not seated or sitting out."""
        seat = self.seat_of(user_id)
        if seat is None or seat not in self.game_seats:
            return None
        return self.game_seats.index(seat)

    def player(self, game_seat: int) -> SeatInfo | None:
        """Who plays game seat ``game_seat`` of the running game."""
        return self.seats[self.game_seats[game_seat]]

    @property
    def totals(self) -> tuple[int, ...]:
        return self.spielliste[-1].totals if self.spielliste else (0,) * len(self.seats)


# -- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableChanged:
    table: TableInfo


@dataclass(frozen=True)
class _UserView:
    """An event for one user with their own view of the game.

    ``view`` (the game seat ``seat``'s view) is built when first read: the Discord front end
    renders the hand later, from the engine, and an eager view for every human on every
    action was a good part of the bot's work. Read later, it shows the game as it is then.
    """

    table_id: int
    version: int
    user_id: int
    seat: int  # the user's game seat
    make_view: Callable[[], PlayerView] = field(repr=False, compare=False)

    @cached_property
    def view(self) -> PlayerView:
        return self.make_view()


@dataclass(frozen=True)
class ViewChanged(_UserView):
    """Sent for each seated human after every change: their own view only."""


@dataclass(frozen=True)
class YourTurn(_UserView):
    """The user is to act (sent after their ViewChanged)."""


@dataclass(frozen=True, slots=True)
class TrickTaken:
    table_id: int
    trick_number: int
    winner: int
    augen: int


@dataclass(frozen=True, slots=True)
class GameOver:
    table_id: int
    game_id: int
    entry: ListEntry
    summary: dict[str, Any]  # the replay summary with the full Spielwert breakdown


@dataclass(frozen=True, slots=True)
class SessionOver:
    table_id: int
    spielliste: tuple[ListEntry, ...]


@dataclass(frozen=True, slots=True)
class TurnReminder:
    """A slow table reminds ``user_id`` of their move, due at ``due`` (once each, stored).

    ``last``: the last reminder of this move; the disconnect policy follows at ``due``.
    """

    table_id: int
    user_id: int
    game_number: int
    due: datetime
    last: bool


Event = TableChanged | ViewChanged | YourTurn | TrickTaken | GameOver | SessionOver | TurnReminder
