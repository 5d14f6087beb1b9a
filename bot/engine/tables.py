"""The state the engine's parts share: each open table, and the registry that holds them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from functools import partial
from typing import Final

from bot.engine.model import (
    FOUR_SEATS,
    EngineError,
    Event,
    ListEntry,
    SeatInfo,
    TableChanged,
    TableInfo,
    ViewChanged,
    WaitingInfo,
    YourTurn,
)
from bot.rules.game import Game
from bot.rules.round import BockState, FiveSeating
from bot.rules.ruleset import Ruleset
from bot.rules.view import player_view, public_view
from bot.tournament.pflichtsolo import TableRound
from db.database import Database
from db.errors import StoreError

log = logging.getLogger(__name__)

# The AI level of a table opened without one (the terminal client, tests): it fills empty
# seats at the start and takes over a human's seat when they time out or leave. Discord
# tables name theirs (the server's default, mittel unless changed, or /doko tisch bots:…).
STAND_IN_LEVEL: Final = "leicht"

Listener = Callable[[Event], Awaitable[None]]


def bot_name(seat: int, level: str | None) -> str:
    """An AI seat's name: its seat number tells several bots at one table apart."""
    return f"Bot {seat + 1} ({level})"


def seating_of(sitting_out: int | None) -> tuple[int, int, int, int]:
    """The table seat of each game seat: all four, or the four besides the one sitting out."""
    return FOUR_SEATS if sitting_out is None else FiveSeating(sitting_out).players


@dataclass(frozen=True, slots=True)
class Waiting:
    """The table waits for ``seat`` (a table seat) since ``since``, at ``version``;
    ``forfeit_at``: when the game is scored as lost (``verloren``), else None.
    """

    version: int
    seat: int
    since: datetime
    forfeit_at: datetime | None = None


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: Ruleset
    status: str
    stored_version: int  # the version in SQLite; a running game's actions count on top
    turn_timer_s: int | None
    games_per_session: int
    seats: list[SeatInfo | None]  # four, or five when the dealer sits out each game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    live: bool = False  # the current game is running: its stored actions are part of the version
    session_id: int | None = None
    # Dealer (a table seat), games left and Pflichtsolo flags by table seat; at a five-player
    # table it also decides who sits out and how the four others map onto game seats.
    round: TableRound | None = None
    seating: tuple[int, int, int, int] = FOUR_SEATS  # table seat of each game seat, this game
    sitting_out: int | None = None  # the table seat sitting out this game (five players)
    game: Game | None = None
    game_id: int | None = None
    game_number: int = 0
    spielliste: list[ListEntry] = field(default_factory=list)
    bock: BockState = field(default_factory=BockState)
    timer: asyncio.TimerHandle | None = None
    ai_task: asyncio.Task[None] | None = None
    ai_level: str = STAND_IN_LEVEL  # empty seats at the start and stand-ins get this AI
    disconnect_policy: str = "bot"  # bot, warten, verloren: what an expired turn timer does
    coach: bool = False  # the hands offer the AI's Tipp; the games are unranked
    turn_due: datetime | None = None  # the armed turn timer's deadline
    waiting: Waiting | None = None  # the table waits for an absent human (warten, verloren)
    tempo_s: int | None = None  # a slow table's seconds per move, in place of turn_timer_s
    turn_version: int | None = None  # the version the armed turn deadline belongs to
    reminder: asyncio.TimerHandle | None = None  # a slow turn's next reminder
    reminded: int = 0  # the reminders of the armed turn sent (as stored with its deadline)
    # A challenge table deals fixed deals from this seed and is not ranked (challenges.py).
    deal_base: int | None = None

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def waiting_now(self) -> Waiting | None:
        """The wait for an absent human, if it still holds: any change ends it."""
        waiting = self.waiting
        return waiting if waiting is not None and waiting.version == self.version else None

    @property
    def version(self) -> int:
        """Grows with every change: one step per stored action, no write to ``tables`` needed."""
        if self.live and self.game is not None:
            return self.stored_version + self.game.action_count
        return self.stored_version

    def find_seat(self, user_id: int) -> int | None:
        for info in self.seats:
            if info is not None and info.user_id == user_id:
                return info.seat
        return None

    def seat_of(self, user_id: int) -> int:
        seat = self.find_seat(user_id)
        if seat is None:
            raise EngineError("not_seated", "you do not sit at this table")
        return seat

    def game_seat(self, seat: int) -> int:
        """The running game's seat of table seat ``seat``; refused for the one sitting out."""
        if seat not in self.seating:
            raise EngineError("sitting_out", "you deal this game and sit it out")
        return self.seating.index(seat)

    def free_seat(self, seat: int | None) -> int:
        if seat is not None:
            if not 0 <= seat < self.size:
                raise EngineError("bad_seat", f"seats are numbered 0 to {self.size - 1}")
            if self.seats[seat] is not None:
                raise EngineError("seat_taken", "that seat is taken")
            return seat
        for s in range(self.size):
            if self.seats[s] is None:
                return s
        raise EngineError("table_full", "all seats are taken")

    def require_lobby(self) -> None:
        if self.status != "lobby":
            raise EngineError("game_running", "this can only be done before the game starts")

    def require_seated_or_host(
        self, user_id: int, message: str = "you do not sit at this table"
    ) -> None:
        if user_id != self.host_id and self.find_seat(user_id) is None:
            raise EngineError("not_seated", message)

    def stop_work(self) -> None:
        """Cancel the turn timer and the AI's thinking (not from within the AI's own task)."""
        if self.timer is not None:
            self.timer.cancel()
        if self.reminder is not None:
            self.reminder.cancel()
        if self.ai_task is not None and self.ai_task is not asyncio.current_task():
            self.ai_task.cancel()

    @asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        """The table's lock, for a change that stores (see :meth:`kept_if_unstored`)."""
        async with self.lock:
            with self.kept_if_unstored():
                yield

    @contextmanager
    def kept_if_unstored(self) -> Iterator[None]:
        """If the store fails within, the table in memory is put back as it was, so memory
        never runs ahead of the store (the caller holds the lock).

        A game's actions are the exception: they are applied only once stored (``Game``
        changes in place), and a stored action stays applied.
        """
        saved = replace(self, seats=list(self.seats), spielliste=list(self.spielliste))
        try:
            yield
        except StoreError:
            for kept in fields(self):
                if kept.name not in _NOT_RESTORED:
                    setattr(self, kept.name, getattr(saved, kept.name))
            raise

    def snapshot(self) -> TableInfo:
        game = self.game
        return TableInfo(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            rules=self.rules,
            status=self.status,
            version=self.version,
            turn_timer_s=self.turn_timer_s,
            games_per_session=self.games_per_session,
            seats=tuple(self.seats),
            game_number=self.game_number or None,
            game_id=self.game_id,
            games_left=self.round.games_left if self.round else None,
            pflichtsolo_done=self.round.pflichtsolo_done if self.round else None,
            public=public_view(game) if game is not None else None,
            spielliste=tuple(self.spielliste),
            game_seats=self.seating,
            sitting_out=self.sitting_out,
            ai_level=self.ai_level,
            disconnect_policy=self.disconnect_policy,
            coach=self.coach,
            waiting=_waiting_info(self.waiting_now),
            tempo_s=self.tempo_s,
            turn_due=self.slow_turn_due,
        )

    @property
    def slow_turn_due(self) -> datetime | None:
        """A slow table's deadline of the human now to act; None elsewhere and meanwhile."""
        if self.tempo_s is None or self.turn_version != self.version or self.waiting_now:
            return None
        return self.turn_due


def _waiting_info(waiting: Waiting | None) -> WaitingInfo | None:
    if waiting is None:
        return None
    return WaitingInfo(waiting.seat, waiting.since, waiting.forfeit_at)


# Not the table's state: its lock, and the work scheduled for it.
_NOT_RESTORED: Final = frozenset({"lock", "timer", "ai_task", "reminder"})


class Tables:
    """The open tables this process runs, the store and clock, and the event listeners."""

    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock
        self.closed = False  # the engine is shutting down: no new AI work
        self._by_id: dict[int, Table] = {}
        self._by_channel: dict[tuple[int, int], int] = {}
        self._listeners: list[Listener] = []

    def get(self, table_id: int) -> Table:
        table = self._by_id.get(table_id)
        if table is None:
            raise EngineError("no_table", "there is no open table with that id")
        return table

    def lookup(self, table_id: int) -> Table | None:
        return self._by_id.get(table_id)

    def in_channel(self, guild_id: int, channel_id: int) -> Table | None:
        table_id = self._by_channel.get((guild_id, channel_id))
        return None if table_id is None else self._by_id[table_id]

    def all(self) -> list[Table]:
        return list(self._by_id.values())

    def ids(self) -> list[int]:
        return list(self._by_id)

    def add(self, table: Table) -> None:
        self._by_id[table.id] = table
        self._by_channel[(table.guild_id, table.channel_id)] = table.id

    def free_channel(self, table: Table) -> None:
        """The channel may get a new table (this one closed, or another process runs it)."""
        if self._by_channel.get((table.guild_id, table.channel_id)) == table.id:
            del self._by_channel[(table.guild_id, table.channel_id)]

    def remove(self, table_id: int) -> Table | None:
        table = self._by_id.pop(table_id, None)
        if table is not None:
            self.free_channel(table)
        return table

    # -- events -------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def emit(self, event: Event) -> None:
        for listener in list(self._listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("event listener failed on %s", type(event).__name__)

    async def publish(self, table: Table) -> None:
        """The table changed: its snapshot for everyone, each seated human's own view."""
        if table.timer is not None and table.status != "playing":
            table.timer.cancel()
        if table.reminder is not None and table.status != "playing":
            table.reminder.cancel()
        await self.emit(TableChanged(table.snapshot()))
        game = table.game
        if game is None or table.status != "playing":
            return
        turn = game.to_act()
        for seat, table_seat in enumerate(table.seating):
            info = table.seats[table_seat]
            if info is None or info.user_id is None:
                continue
            view = partial(player_view, game, seat)  # built only if a listener reads it
            await self.emit(ViewChanged(table.id, table.version, info.user_id, seat, view))
            if turn == seat and not info.played_by_ai:
                await self.emit(YourTurn(table.id, table.version, info.user_id, seat, view))
