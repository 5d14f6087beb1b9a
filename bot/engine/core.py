"""The shared async engine: tables, seats, turns, AI seats, timers, restart recovery.

Every change goes through one table's lock: check who asks and the table version, validate
with the rules core, store the action in SQLite, and only then apply and acknowledge. The
in-memory state is a cache that ``start()`` rebuilds by replaying the stored logs.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Final, Protocol

from bot.engine.model import (
    AI_LEVELS,
    FOUR_SEATS,
    EngineError,
    Event,
    GameOver,
    ListEntry,
    SeatInfo,
    SessionOver,
    TableChanged,
    TableInfo,
    TrickTaken,
    ViewChanged,
    YourTurn,
)
from bot.rules.calls import Party
from bot.rules.game import Action, Deal, Game, IllegalActionError
from bot.rules.records import (
    action_from_dict,
    action_to_dict,
    deal_from_dict,
    deal_to_dict,
    game_record_to_dict,
    game_summary,
    round_to_dict,
)
from bot.rules.round import BockState, FiveSeating
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView, player_view, public_view
from bot.tournament.pflichtsolo import ListedGame, TableRound
from db import actions, away, games, leases, players, results, sessions, tables, timers, versions
from db import standings as db_standings
from db.database import BatchFailed, Database
from db.errors import NotFoundError
from db.rows import RatingRow, SeatResult, StandingRow

log = logging.getLogger(__name__)

TURN_TIMER_KIND = "turn"
# A human's seat is taken over by this AI level when they time out or leave.
STAND_IN_LEVEL: Final = "leicht"
# Levels that decide on the event loop even with ``ai_in_thread``, as the stand-in always
# did: leicht takes ~0.1 ms, less than the thread hop costs the loop (submit, wake-up, GIL
# hand-over, result callback; bench discord: CPU per action -10 %).
QUICK_LEVELS: Final = frozenset({"leicht"})


class AIPlayer(Protocol):
    def choose(self, level: str, view: PlayerView, rng: random.Random) -> Action: ...


class _DefaultAI:
    """Resolves the levels through ``bot.ai`` (imported lazily: it is heavy)."""

    def choose(self, level: str, view: PlayerView, rng: random.Random) -> Action:
        from bot.ai import get_strategy

        return get_strategy(level).choose(view, rng)


Listener = Callable[[Event], Awaitable[None]]


def bot_name(seat: int, level: str | None) -> str:
    """An AI seat's name: its seat number tells several bots at one table apart."""
    return f"Bot {seat + 1} ({level})"


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class _Table:
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

    @property
    def size(self) -> int:
        return len(self.seats)

    @property
    def version(self) -> int:
        """Grows with every change: one step per stored action, no write to ``tables`` needed."""
        if self.live and self.game is not None:
            return self.stored_version + self.game.action_count
        return self.stored_version


class _Stored(asyncio.Future[None]):
    """The outcome of storing one action; it cannot be cancelled.

    A cancelled waiter still learns whether its action is in the database (the task is
    cancelled once the future is done), like ``asyncio.shield`` but without the shield's
    extra pass through the event loop before the player is acknowledged.
    """

    def cancel(self, msg: Any | None = None) -> bool:
        return False


_Pending = tuple[int, int, dict[str, Any], datetime, asyncio.Future[None]]


class _ActionWriter:
    """Group commit: actions of many tables that arrive together share one transaction.

    Each action is acknowledged only after the transaction that holds it committed. If a
    batch fails, its actions are stored one by one, so one bad action sinks no other.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        # Appended here, popped by ``_take`` in the database's thread (deque ops are atomic).
        self._pending: deque[_Pending] = deque()
        self._task: asyncio.Task[None] | None = None

    def append(
        self, game_id: int, seq: int, action: dict[str, Any], now: datetime
    ) -> asyncio.Future[None]:
        future: asyncio.Future[None] = _Stored(loop=asyncio.get_running_loop())
        self._pending.append((game_id, seq, action, now, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._flush(), name="doko-action-writer")
        return future

    def _take(self) -> list[_Pending]:
        batch = []
        pending = self._pending
        while pending:
            batch.append(pending.popleft())
        return batch

    @staticmethod
    def _stored(batch: Sequence[_Pending]) -> None:
        for *_, future in batch:
            future.set_result(None)

    async def _flush(self) -> None:
        while self._pending:
            try:
                await actions.append_action_batches(self.db, self._take, self._stored)
            except BatchFailed as failed:
                await self._one_by_one(failed.items)
            except Exception:
                # Nothing was taken (the store is closing, say): each action gets the error.
                await self._one_by_one(self._take())

    async def _one_by_one(self, batch: Sequence[_Pending]) -> None:
        for game_id, seq, action, now, future in batch:
            try:
                await actions.append_action(self.db, game_id, seq, action, now=now)
            except Exception as err:
                future.set_exception(err)
            else:
                future.set_result(None)


class Engine:
    def __init__(
        self,
        db: Database,
        *,
        ai: AIPlayer | None = None,
        clock: Callable[[], datetime] = _utcnow,
        seeds: Callable[[], int] | None = None,
        ai_in_thread: bool = True,
        owns_guild: Callable[[int], bool] | None = None,
        lease_owner: str | None = None,
        lease_seconds: float = 30.0,
    ) -> None:
        """``owns_guild``: which guilds' tables this process runs (sharding; None: all).
        ``lease_owner``: this process's name in ``table_leases``; None: no leases (one process).
        """
        self.db = db
        self.ai = ai or _DefaultAI()
        self.clock = clock
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._ai_in_thread = ai_in_thread
        self._tables: dict[int, _Table] = {}
        self._by_channel: dict[tuple[int, int], int] = {}
        self._listeners: list[Listener] = []
        self._closed = False
        self._writer = _ActionWriter(db)
        self._owns_guild = owns_guild
        self._lease_owner = lease_owner
        self._lease_ttl = timedelta(seconds=lease_seconds)
        # Open tables of our guilds that another process still holds (it may be restarting):
        # claimed and taken over once its lease runs out.
        self._waiting: set[int] = set()
        self._lease_task: asyncio.Task[None] | None = None

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every open table from SQLite and re-arm its timers (restart recovery).

        Sharded, only the tables of this process's guilds, and of those only the ones it can
        claim; the others are retried while the leases are renewed.
        """
        for row in await tables.list_open_tables(self.db):
            if not self.owns_guild(row.guild_id):
                continue
            if not await self._claim(row.id):
                log.info("table %s is held by another process; waiting for its lease", row.id)
                self._waiting.add(row.id)
                continue
            table = await self._load_table(row.id)
            self._tables[table.id] = table
            self._by_channel[(table.guild_id, table.channel_id)] = table.id
        pending = await timers.list_timers(self.db, due_by=self.clock() + timedelta(days=3650))
        for timer in pending:
            if timer.kind == TURN_TIMER_KIND and timer.table_id in self._tables:
                self._arm_timer(self._tables[timer.table_id], timer.fires_at, timer.payload)
        for table in self._tables.values():
            if table.status == "playing":
                self._kick_ai(table)
        if self._lease_owner is not None:
            self._lease_task = asyncio.create_task(self._keep_leases(), name="doko-leases")
        log.info("engine started with %d open table(s)", len(self._tables))

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the guild's tables (always, unsharded)."""
        return self._owns_guild is None or self._owns_guild(guild_id)

    async def close(self) -> None:
        self._closed = True
        if self._lease_task is not None:
            self._lease_task.cancel()
            await asyncio.gather(self._lease_task, return_exceptions=True)
        tasks = []
        for table in self._tables.values():
            if table.timer is not None:
                table.timer.cancel()
            if table.ai_task is not None and not table.ai_task.done():
                table.ai_task.cancel()
                tasks.append(table.ai_task)
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._lease_owner is not None:
            # Stopped gracefully: the next process need not wait for the leases to run out.
            for table_id in list(self._tables):
                try:
                    await leases.release(self.db, table_id, self._lease_owner)
                except Exception:
                    log.exception("could not release the lease on table %s", table_id)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def idle(self) -> None:
        """Wait until no AI is thinking at any table (for tests and the terminal client)."""
        while True:
            tasks = [t.ai_task for t in self._tables.values() if t.ai_task and not t.ai_task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def settle(self, table_id: int, timeout: float) -> None:
        """Until the table's AIs have answered (a human is to act, or the game is over), at
        most ``timeout`` seconds; their thinking goes on either way."""
        table = self._tables.get(table_id)
        task = table.ai_task if table is not None else None
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    # -- queries ------------------------------------------------------------------------

    def table(self, table_id: int) -> TableInfo:
        return self._snapshot(self._get(table_id))

    def version(self, table_id: int) -> int:
        """The table's version, without a snapshot (raises EngineError when it is closed)."""
        return self._get(table_id).version

    def find_table(self, guild_id: int, channel_id: int) -> TableInfo | None:
        table_id = self._by_channel.get((guild_id, channel_id))
        return None if table_id is None else self.table(table_id)

    def open_tables(self) -> list[TableInfo]:
        return [self._snapshot(t) for t in self._tables.values()]

    def view_for(self, table_id: int, user_id: int) -> PlayerView:
        """The user's own view of the running game."""
        table = self._get(table_id)
        seat = self._seat_of(table, user_id)
        if table.game is None:
            raise EngineError("no_game", "no game is running at this table")
        return player_view(table.game, self._game_seat(table, seat))

    def record(self, table_id: int) -> dict[str, Any]:
        """The running (or last) game as a ``doko-game/1`` record."""
        table = self._get(table_id)
        if table.game is None:
            raise EngineError("no_game", "no game has been played at this table yet")
        return game_record_to_dict(table.game)

    # -- table management ---------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: Ruleset | None = None,
        games: int = 24,
        turn_timer_s: int | None = None,
    ) -> TableInfo:
        if not self.owns_guild(guild_id):
            raise EngineError("not_owner", "another bot process runs this server's tables")
        if (guild_id, channel_id) in self._by_channel:
            raise EngineError("table_exists", "this channel already has a table")
        if games < 1:
            raise EngineError("bad_games", "a session has at least one game")
        if turn_timer_s is not None and turn_timer_s < 5:
            raise EngineError("bad_timer", "the turn timer must be at least 5 seconds")
        rules = rules or Ruleset()
        await players.upsert_player(self.db, host_id, host_name)
        row = await tables.create_table(
            self.db,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules.to_dict(),
            games_per_session=games,
            turn_timer_s=turn_timer_s,
            now=self.clock(),
        )
        if not await self._claim(row.id):  # a new table: only a broken clock makes this fail
            raise EngineError("not_owner", "another bot process holds this new table")
        await tables.set_seat(self.db, row.id, 0, user_id=host_id)
        table = _Table(
            id=row.id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            status="lobby",
            stored_version=row.version,
            turn_timer_s=turn_timer_s,
            games_per_session=games,
            seats=[SeatInfo(0, host_id, host_name, None)] + [None] * (rules.players - 1),
        )
        self._tables[table.id] = table
        self._by_channel[(guild_id, channel_id)] = table.id
        await self._emit_table(table)
        return self._snapshot(table)

    async def join(
        self, table_id: int, user_id: int, name: str, seat: int | None = None
    ) -> TableInfo:
        """Take a free seat in the lobby, or come back to one's own seat during a game."""
        table = self._get(table_id)
        async with table.lock:
            own = self._find_seat(table, user_id)
            if own is not None:
                info = table.seats[own]
                assert info is not None
                if not info.away:
                    raise EngineError("already_seated", "you already sit at this table")
                await away.set_back(self.db, table.id, own, user_id)
                table.seats[own] = replace(info, ai_level=None, away=False, name=name)
                await self._bump(table)
            else:
                if table.status != "lobby":
                    raise EngineError(
                        "game_running", "the game has started; wait for the next table"
                    )
                seat = self._free_seat(table, seat)
                await players.upsert_player(self.db, user_id, name)
                await tables.set_seat(self.db, table.id, seat, user_id=user_id)
                table.seats[seat] = SeatInfo(seat, user_id, name, None)
                await self._bump(table)
        await self._after_change(table)
        return self._snapshot(table)

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Leave the lobby, or hand one's seat to an AI mid-game (it can be taken back)."""
        table = self._get(table_id)
        async with table.lock:
            seat = self._seat_of(table, user_id)
            info = table.seats[seat]
            assert info is not None
            if table.status == "lobby":
                await tables.clear_seat(self.db, table.id, seat)
                table.seats[seat] = None
            else:
                if info.away:
                    raise EngineError("already_away", "an AI already plays for you")
                await away.set_away(self.db, table.id, seat, user_id, STAND_IN_LEVEL)
                table.seats[seat] = replace(info, ai_level=STAND_IN_LEVEL, away=True)
            await self._bump(table)
        await self._after_change(table)
        return self._snapshot(table)

    async def add_ai(
        self, table_id: int, user_id: int, level: str, seat: int | None = None
    ) -> TableInfo:
        table = self._get(table_id)
        if level not in AI_LEVELS:
            raise EngineError("bad_level", f"AI levels are {', '.join(AI_LEVELS)}")
        async with table.lock:
            self._require_lobby(table)
            self._require_seated_or_host(table, user_id)
            seat = self._free_seat(table, seat)
            await tables.set_seat(self.db, table.id, seat, ai_level=level)  # type: ignore[arg-type]
            table.seats[seat] = SeatInfo(seat, None, bot_name(seat, level), level)
            await self._bump(table)
        await self._after_change(table)
        return self._snapshot(table)

    async def remove_ai(self, table_id: int, user_id: int, seat: int) -> TableInfo:
        table = self._get(table_id)
        async with table.lock:
            self._require_lobby(table)
            self._require_seated_or_host(table, user_id)
            info = table.seats[seat] if 0 <= seat < table.size else None
            if info is None or not info.is_ai:
                raise EngineError("not_ai_seat", "there is no AI on that seat")
            await tables.clear_seat(self.db, table.id, seat)
            table.seats[seat] = None
            await self._bump(table)
        await self._after_change(table)
        return self._snapshot(table)

    async def start_game(
        self, table_id: int, user_id: int, fill_level: str = "leicht", *, dealer: int | None = None
    ) -> TableInfo:
        """Start the session: empty seats get AIs, the first game is dealt.

        The first dealer is drawn at random unless given (a tournament plan fixes it).
        """
        table = self._get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.host_id and self._find_seat(table, user_id) is None:
                raise EngineError("not_seated", "only players at this table can start it")
            for seat in range(table.size):
                if table.seats[seat] is None:
                    await tables.set_seat(self.db, table.id, seat, ai_level=fill_level)  # type: ignore[arg-type]
                    table.seats[seat] = SeatInfo(seat, None, bot_name(seat, fill_level), fill_level)
            if dealer is None:
                dealer = random.Random(self._seeds()).randrange(table.size)
            elif not 0 <= dealer < table.size:
                raise EngineError("bad_seat", f"seats are numbered 0 to {table.size - 1}")
            table.round = TableRound.start(table.size, dealer, table.games_per_session)
            game_dealer, sitting_out = _dealer_columns(table.round)
            session = await sessions.create_session(
                self.db,
                table.id,
                games_per_round=table.games_per_session,
                dealer=game_dealer,
                sitting_out=sitting_out,
                pflichtsolo_done=table.round.pflichtsolo_done,
                now=self.clock(),
            )
            table.session_id = session.id
            row = await tables.update_table(
                self.db, table.id, table.stored_version, status="playing"
            )
            table.stored_version = row.version
            table.status = "playing"
            await self._deal(table)
        await self._after_change(table)
        return self._snapshot(table)

    async def stop_table(self, table_id: int, user_id: int, *, admin: bool = False) -> TableInfo:
        table = self._get(table_id)
        if user_id != table.host_id and not admin:
            raise EngineError("not_host", "only the host or a server admin can stop the table")
        async with table.lock:
            if table.live and table.game_id is not None:
                async with self.db.transaction():
                    await games.abort_game(self.db, table.game_id, now=self.clock())
                    await self._end_live_game(table)
            if table.session_id is not None:
                await sessions.finish_session(self.db, table.session_id, now=self.clock())
            await timers.cancel_table_timers(self.db, table.id)
            row = await tables.update_table(
                self.db, table.id, table.stored_version, status="closed"
            )
            table.stored_version = row.version
            table.status = "closed"
            if table.timer is not None:
                table.timer.cancel()
            self._by_channel.pop((table.guild_id, table.channel_id), None)
            await self._release(table.id)
        if table.ai_task is not None and table.ai_task is not asyncio.current_task():
            table.ai_task.cancel()
        snapshot = self._snapshot(table)
        del self._tables[table.id]
        await self._emit(TableChanged(snapshot))
        return snapshot

    async def end_early(self, table_id: int, user_id: int, *, admin: bool = False) -> TableInfo:
        """No new games after the running one, except the Pflichtsoli still owed (vorgeführt)."""
        table = self._get(table_id)
        if user_id != table.host_id and not admin:
            raise EngineError("not_host", "only the host or a server admin can end the session")
        async with table.lock:
            if table.status != "playing" or table.round is None or table.session_id is None:
                raise EngineError("no_game", "no game is running at this table")
            # No games left: after the running game only the open Pflichtsoli are played,
            # each vorgeführt (the running game keeps the context it was dealt with).
            table.round = replace(table.round, games_left=0)
            await self._store_round(table)
            await self._bump(table)
        await self._after_change(table)
        return self._snapshot(table)

    async def replace_seat(
        self, table_id: int, user_id: int, level: str, *, by: int, admin: bool = False
    ) -> TableInfo:
        """Hand a player's seat to an AI for good (a no-show at a tournament table)."""
        table = self._get(table_id)
        if by != table.host_id and not admin:
            raise EngineError("not_host", "only the host or a server admin can replace a player")
        if level not in AI_LEVELS:
            raise EngineError("bad_level", f"AI levels are {', '.join(AI_LEVELS)}")
        async with table.lock:
            seat = self._seat_of(table, user_id)
            async with self.db.transaction():
                await tables.clear_seat(self.db, table.id, seat)
                await tables.set_seat(self.db, table.id, seat, ai_level=level)  # type: ignore[arg-type]
            table.seats[seat] = SeatInfo(seat, None, bot_name(seat, level), level)
            await self._bump(table)
        await self._after_change(table)
        return self._snapshot(table)

    # -- playing ------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: Action,
        version: int | None = None,
        on_stored: Callable[[], Awaitable[None]] | None = None,
    ) -> TableInfo:
        """One player's action; its seat must be the user's seat in the running game.

        ``version`` is the table version the user's button was made for; a stale one is
        refused (a double click or an old message), ``None`` skips the check (typed commands).
        ``on_stored`` is awaited as soon as the action is durable, before the end of a game
        is booked: a front end acknowledges the player there (the table waits for it).
        """
        table = self._get(table_id)
        async with table.lock:
            if table.status != "playing" or table.game is None:
                raise EngineError("no_game", "no game is running at this table")
            seat = self._game_seat(table, self._seat_of(table, user_id))
            if version is not None and version != table.version:
                raise EngineError(
                    "stale_version",
                    "this button belongs to an earlier state of the table",
                    current_version=table.version,
                )
            if action.seat != seat:
                raise EngineError("not_your_seat", "this action is for another seat")
            await self._apply(table, action, on_stored)
        await self._after_change(table)
        return self._snapshot(table)

    def game_seat(self, table_id: int, user_id: int) -> int | None:
        """The user's seat in the running game; None when they do not play in it."""
        table = self._get(table_id)
        seat = self._find_seat(table, user_id)
        if table.game is None or seat is None:
            return None
        try:
            return self._game_seat(table, seat)
        except EngineError:
            return None

    async def leaderboard(self, guild_id: int, limit: int = 20) -> list[StandingRow]:
        return await db_standings.guild_standings(self.db, guild_id, limit=limit)

    async def player_stats(
        self, guild_id: int, user_id: int
    ) -> tuple[StandingRow, RatingRow] | None:
        row = await db_standings.player_standing(self.db, guild_id, user_id)
        if row is None:
            return None
        return row, await results.get_rating(self.db, user_id)

    async def finished_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None:
        """A finished game of this guild; running games are never exported (hands!)."""
        try:
            game = await games.get_game(self.db, game_id)
            session = await sessions.get_session(self.db, game.session_id)
            table = await tables.get_table(self.db, session.table_id)
        except NotFoundError:
            return None
        if table.guild_id != guild_id or game.status != "finished" or game.record is None:
            return None
        return game.record

    async def table_closed(self, table_id: int) -> bool:
        try:
            return (await tables.get_table(self.db, table_id)).status == "closed"
        except NotFoundError:
            return True

    # -- internals: applying and storing ------------------------------------------------

    async def _apply(
        self,
        table: _Table,
        action: Action,
        on_stored: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Validate, store, then apply (the caller holds the lock)."""
        game = table.game
        assert game is not None and table.game_id is not None
        try:
            game.validate(action)
        except IllegalActionError as err:
            raise EngineError(err.reason, str(err)) from None
        tricks_before = len(game.tricks)
        stored = self._writer.append(
            table.game_id, game.action_count, action_to_dict(action), self.clock()
        )
        cancelled = False
        while not stored.done():
            try:
                await stored  # a _Stored: cancelling the waiter leaves it running
            except asyncio.CancelledError:
                # Whoever waited went away; the outcome must still be known and applied,
                # or memory and SQLite would disagree.
                cancelled = True
        stored.result()  # a storage error propagates; nothing was applied then
        if on_stored is not None:
            await on_stored()
        game.apply(action)
        if len(game.tricks) > tricks_before:
            trick = game.tricks[-1]
            assert trick.winner is not None
            await self._emit(TrickTaken(table.id, len(game.tricks), trick.winner, trick.augen))
        if game.finished:
            await self._finish_game(table)
        if cancelled:
            raise asyncio.CancelledError

    async def _bump(self, table: _Table) -> None:
        row = await tables.update_table(self.db, table.id, table.stored_version)
        table.stored_version = row.version

    async def _end_live_game(self, table: _Table) -> None:
        """The running game is over: store a version past all of its actions (in the caller's
        transaction, together with the game's new status)."""
        version = table.version
        await versions.advance_table_version(
            self.db, table.id, table.stored_version, version + 1, now=self.clock()
        )
        table.stored_version = version + 1
        table.live = False

    async def _deal(self, table: _Table) -> None:
        assert table.session_id is not None and table.round is not None
        seed = self._seeds()
        # Five players: the dealer sits out, the four others take game seats 0..3 from his
        # left, and the game's dealer seat is his right neighbour (FiveSeating).
        slot = table.round.slot()
        deal = Deal.shuffled(
            seed,
            slot.game_dealer,
            slot.context,
            table.rules,
            bock=table.bock.multiplier(table.rules),
        )
        table.game_number += 1
        data = deal_to_dict(deal)
        row = await games.create_game(
            self.db,
            table.session_id,
            number=table.game_number,
            ruleset=table.rules.to_dict(),
            deal=data,
            seed=seed,
            dealer=slot.game_dealer,
            sitting_out=slot.sitting_out,
            round_context=round_to_dict(slot.context),
            now=self.clock(),
        )
        table.seating, table.sitting_out = slot.table_seats, slot.sitting_out
        table.game = Game(deal)
        table.game_id = row.id
        table.live = True
        await self._bump(table)

    async def _finish_game(self, table: _Table) -> None:
        game = table.game
        assert game is not None and table.game_id is not None
        if game.redeal is not None:
            # Thrown in or an Armut nobody took: no score, same dealer, same round, same Bock.
            async with self.db.transaction():
                await games.abort_game(self.db, table.game_id, now=self.clock())
                await self._end_live_game(table)
            await self._deal(table)
            return
        result = game.result
        assert result is not None
        seat_results = []
        for seat in range(4):  # game seats: the one sitting out has no result
            info = table.seats[table.seating[seat]]
            assert info is not None
            party = game.parties[seat]
            assert party is not None
            seat_results.append(
                SeatResult(
                    seat=seat,
                    party=str(party),  # type: ignore[arg-type]
                    augen=result.re_augen if party is Party.RE else result.kontra_augen,
                    points=result.scores[seat],
                    contract=str(game.contract),
                    is_solo=result.solo,
                    won=result.winner is party,
                    player_id=info.user_id,
                    ai_level=info.ai_level if info.user_id is None else None,  # type: ignore[arg-type]
                )
            )
        async with self.db.transaction():
            await results.finish_game(
                self.db, table.game_id, seat_results, self._record(table, game), now=self.clock()
            )
            await self._end_live_game(table)
        entry = self._entry(table, game, table.seating, table.sitting_out)
        table.spielliste.append(entry)
        await self._emit(GameOver(table.id, table.game_id, entry, game_summary(game)))
        assert table.round is not None and table.session_id is not None
        table.round = table.round.after(_listed(game, table.seating))
        table.bock = table.bock.after(len(game.bock_triggers()), table.rules)
        await self._store_round(table)
        if self._session_done(table):
            await sessions.finish_session(self.db, table.session_id, now=self.clock())
            row = await tables.update_table(
                self.db, table.id, table.stored_version, status="closed"
            )
            table.stored_version = row.version
            table.status = "closed"
            self._by_channel.pop((table.guild_id, table.channel_id), None)
            await self._release(table.id)
            await self._emit(SessionOver(table.id, tuple(table.spielliste)))
            # The closed table leaves memory once this change is through (it stays in SQLite).
            asyncio.get_running_loop().call_soon(self._tables.pop, table.id, None)
        else:
            await self._deal(table)

    def _session_done(self, table: _Table) -> bool:
        ctx = table.round
        assert ctx is not None
        if not (table.rules.pflichtsolo_enabled and table.rules.solos_enabled):
            return ctx.games_left <= 0
        return ctx.finished

    async def _store_round(self, table: _Table) -> None:
        """Write the round state (games left, Pflichtsolo flags, next dealer) to the session."""
        assert table.round is not None and table.session_id is not None
        game_dealer, sitting_out = _dealer_columns(table.round)
        await sessions.update_round_context(
            self.db,
            table.session_id,
            games_left=table.round.games_left,
            pflichtsolo_done=table.round.pflichtsolo_done,
            dealer=game_dealer,
            sitting_out=sitting_out,
        )

    def _record(self, table: _Table, game: Game) -> dict[str, Any]:
        """The ``doko-game/1`` record, its ``meta`` naming the four who played (by game seat)
        and, at a five-player table, the dealer who sat out."""
        record = game_record_to_dict(game)
        players = []
        for seat in table.seating:
            info = table.seats[seat]
            players.append({"table_seat": seat, "name": info.name if info else "?"})
        meta: dict[str, Any] = {"table": table.id, "game": table.game_number, "players": players}
        if table.sitting_out is not None:
            out = table.seats[table.sitting_out]
            meta["sitting_out"] = {
                "table_seat": table.sitting_out,
                "name": out.name if out else "?",
            }
        record["meta"] = meta
        return record

    def _entry(
        self,
        table: _Table,
        game: Game,
        seating: tuple[int, int, int, int],
        sitting_out: int | None,
    ) -> ListEntry:
        result = game.result
        assert result is not None
        scores = [0] * table.size  # the one sitting out scores 0
        for seat, table_seat in enumerate(seating):
            scores[table_seat] = result.scores[seat]
        before = table.spielliste[-1].totals if table.spielliste else (0,) * table.size
        totals = tuple(a + b for a, b in zip(before, scores, strict=True))
        if sum(scores) != 0 or sum(totals) != 0:
            # The Spielliste's sum-zero check (TSR 7.3): a broken sheet must never be stored.
            raise RuntimeError(f"scores {result.scores} of table {table.id} do not sum to zero")
        return ListEntry(
            number=len(table.spielliste) + 1,
            contract=str(game.contract),
            solo_kind=str(game.solo_kind) if game.solo_kind else None,
            soloist=None if game.soloist is None else seating[game.soloist],
            game_value=result.game_value,
            scores=tuple(scores),
            totals=totals,
            seats=seating,
            sitting_out=sitting_out,
        )

    # -- internals: AI turns and timers -------------------------------------------------

    def _kick_ai(self, table: _Table) -> None:
        if self._closed or table.status != "playing":
            return
        if table.ai_task is None or table.ai_task.done():
            table.ai_task = asyncio.create_task(self._drive_ai(table), name=f"ai-table-{table.id}")

    async def _drive_ai(self, table: _Table) -> None:
        """Let AI seats act until a human must act (or the table closes)."""
        try:
            while not self._closed and table.status == "playing":
                async with table.lock:
                    game = table.game
                    if game is None or game.finished:
                        return
                    seat = game.to_act()
                    assert seat is not None
                    info = table.seats[table.seating[seat]]
                    assert info is not None
                    if not info.played_by_ai:
                        await self._arm_turn_timer(table)
                        return
                    version = table.version
                    view = player_view(game, seat)
                    rng = random.Random(f"{game.deal.seed}:{game.action_count}:{seat}")
                    level = info.ai_level or STAND_IN_LEVEL
                action = await self._decide(level, view, rng)
                async with table.lock:
                    if table.version != version:
                        continue  # somebody acted meanwhile (a call): think again
                    await self._apply(table, action)
                await self._after_change(table, kick=False)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI driver failed at table %s", table.id)

    async def _decide(self, level: str, view: PlayerView, rng: random.Random) -> Action:
        if self._ai_in_thread and level not in QUICK_LEVELS:
            return await asyncio.to_thread(self.ai.choose, level, view, rng)
        return self.ai.choose(level, view, rng)

    async def _arm_turn_timer(self, table: _Table) -> None:
        """Store and schedule the deadline of the human now to act (the caller holds the lock)."""
        if table.turn_timer_s is None or table.game is None or table.game.finished:
            return
        fires_at = self.clock() + timedelta(seconds=table.turn_timer_s)
        payload = {"version": table.version}
        await timers.cancel_table_timers(self.db, table.id, TURN_TIMER_KIND)
        await timers.add_timer(
            self.db,
            kind=TURN_TIMER_KIND,
            table_id=table.id,
            fires_at=fires_at,
            payload=payload,
            now=self.clock(),
        )
        self._arm_timer(table, fires_at, payload)

    def _arm_timer(self, table: _Table, fires_at: datetime, payload: dict[str, Any]) -> None:
        if table.timer is not None:
            table.timer.cancel()
        delay = max(0.0, (fires_at - self.clock()).total_seconds())
        loop = asyncio.get_running_loop()
        table.timer = loop.call_later(
            delay, lambda: asyncio.ensure_future(self.expire_turn(table.id, payload["version"]))
        )

    async def expire_turn(self, table_id: int, version: int) -> bool:
        """The turn timer ran out: an AI plays for the absent player. Returns whether it did."""
        table = self._tables.get(table_id)
        if table is None:
            return False
        async with table.lock:
            game = table.game
            if table.version != version or game is None or game.finished:
                return False
            seat = game.to_act()
            assert seat is not None
            view = player_view(game, seat)
            rng = random.Random(f"{game.deal.seed}:{game.action_count}:{seat}:timeout")
            action = self.ai.choose(STAND_IN_LEVEL, view, rng)
            await self._apply(table, action)
        await self._after_change(table)
        return True

    # -- internals: leases (several processes on one database) -------------------------

    async def _claim(self, table_id: int) -> bool:
        if self._lease_owner is None:
            return True
        return await leases.claim(
            self.db, table_id, self._lease_owner, ttl=self._lease_ttl, now=_utcnow()
        )

    async def _release(self, table_id: int) -> None:
        if self._lease_owner is not None:
            await leases.release(self.db, table_id, self._lease_owner)

    async def _keep_leases(self) -> None:
        """Renew our leases well before they run out; take over tables whose lease ran out.

        Lease times are wall-clock (``_utcnow``), not the engine's clock: they are compared
        across processes.
        """
        assert self._lease_owner is not None
        interval = self._lease_ttl.total_seconds() / 3
        while not self._closed:
            await asyncio.sleep(interval)
            try:
                lost = await leases.renew(
                    self.db,
                    list(self._tables),
                    self._lease_owner,
                    ttl=self._lease_ttl,
                    now=_utcnow(),
                )
                for table_id in lost:
                    self._drop(table_id)
                for table_id in sorted(self._waiting):
                    if not await self._claim(table_id):
                        continue
                    try:
                        await self._adopt(table_id)
                    except Exception:
                        # Stays waiting: the claim is ours, so the next round tries again.
                        log.exception("could not take over table %s; retrying", table_id)
                        continue
                    self._waiting.discard(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("renewing the table leases failed; retrying")

    def _drop(self, table_id: int) -> None:
        """Another process claimed the table (ours had run out): stop acting on it at once."""
        table = self._tables.pop(table_id, None)
        if table is None:
            return
        log.warning("lost the lease on table %s; another process runs it now", table_id)
        self._by_channel.pop((table.guild_id, table.channel_id), None)
        if table.timer is not None:
            table.timer.cancel()
        if table.ai_task is not None:
            table.ai_task.cancel()
        self._waiting.add(table_id)

    async def _adopt(self, table_id: int) -> None:
        """Take over a table claimed after start-up: rebuild it, re-arm its timer, let AIs act."""
        table = await self._load_table(table_id)
        if table.status == "closed":
            await self._release(table_id)
            return
        self._tables[table.id] = table
        self._by_channel[(table.guild_id, table.channel_id)] = table.id
        for timer in await timers.list_timers(self.db):
            if timer.kind == TURN_TIMER_KIND and timer.table_id == table.id:
                self._arm_timer(table, timer.fires_at, timer.payload)
        self._kick_ai(table)
        log.info("took over table %s", table_id)

    # -- internals: events --------------------------------------------------------------

    async def _after_change(self, table: _Table, kick: bool = True) -> None:
        if table.timer is not None and table.status != "playing":
            table.timer.cancel()
        await self._emit_table(table)
        if kick:
            self._kick_ai(table)

    async def _emit_table(self, table: _Table) -> None:
        snapshot = self._snapshot(table)
        await self._emit(TableChanged(snapshot))
        game = table.game
        if game is None or table.status != "playing":
            return
        turn = game.to_act()
        for seat, table_seat in enumerate(table.seating):
            info = table.seats[table_seat]
            if info is None or info.user_id is None:
                continue
            view = partial(player_view, game, seat)  # built only if a listener reads it
            await self._emit(ViewChanged(table.id, table.version, info.user_id, seat, view))
            if turn == seat and not info.played_by_ai:
                await self._emit(YourTurn(table.id, table.version, info.user_id, seat, view))

    async def _emit(self, event: Event) -> None:
        for listener in list(self._listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("event listener failed on %s", type(event).__name__)

    # -- internals: helpers -------------------------------------------------------------

    def _get(self, table_id: int) -> _Table:
        table = self._tables.get(table_id)
        if table is None:
            raise EngineError("no_table", "there is no open table with that id")
        return table

    def _find_seat(self, table: _Table, user_id: int) -> int | None:
        for info in table.seats:
            if info is not None and info.user_id == user_id:
                return info.seat
        return None

    def _seat_of(self, table: _Table, user_id: int) -> int:
        seat = self._find_seat(table, user_id)
        if seat is None:
            raise EngineError("not_seated", "you do not sit at this table")
        return seat

    def _game_seat(self, table: _Table, seat: int) -> int:
        """The running game's seat of table seat ``seat``; refused for the one sitting out."""
        if seat not in table.seating:
            raise EngineError("sitting_out", "you deal this game and sit it out")
        return table.seating.index(seat)

    def _free_seat(self, table: _Table, seat: int | None) -> int:
        if seat is not None:
            if not 0 <= seat < table.size:
                raise EngineError("bad_seat", f"seats are numbered 0 to {table.size - 1}")
            if table.seats[seat] is not None:
                raise EngineError("seat_taken", "that seat is taken")
            return seat
        for s in range(table.size):
            if table.seats[s] is None:
                return s
        raise EngineError("table_full", "all seats are taken")

    def _require_lobby(self, table: _Table) -> None:
        if table.status != "lobby":
            raise EngineError("game_running", "this can only be done before the game starts")

    def _require_seated_or_host(self, table: _Table, user_id: int) -> None:
        if user_id != table.host_id and self._find_seat(table, user_id) is None:
            raise EngineError("not_seated", "you do not sit at this table")

    def _snapshot(self, table: _Table) -> TableInfo:
        game = table.game
        return TableInfo(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            rules=table.rules,
            status=table.status,
            version=table.version,
            turn_timer_s=table.turn_timer_s,
            games_per_session=table.games_per_session,
            seats=tuple(table.seats),
            game_number=table.game_number or None,
            game_id=table.game_id,
            games_left=table.round.games_left if table.round else None,
            pflichtsolo_done=table.round.pflichtsolo_done if table.round else None,
            public=public_view(game) if game is not None else None,
            spielliste=tuple(table.spielliste),
            game_seats=table.seating,
            sitting_out=table.sitting_out,
        )

    async def _load_table(self, table_id: int) -> _Table:
        """Rebuild one table from SQLite: seats, session, Spielliste, the running game."""
        row = await tables.get_table(self.db, table_id)
        rules = Ruleset.from_dict(row.rules)
        seats: list[SeatInfo | None] = [None] * rules.players
        owners = await away.away_owners(self.db, table_id)
        for seat_row in await tables.get_seats(self.db, table_id):
            owner = seat_row.user_id or owners.get(seat_row.seat)
            name = bot_name(seat_row.seat, seat_row.ai_level)
            if owner is not None:
                player = await players.get_player(self.db, owner)
                name = player.display_name if player else str(owner)
            seats[seat_row.seat] = SeatInfo(
                seat_row.seat, owner, name, seat_row.ai_level, away=seat_row.seat in owners
            )
        table = _Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            rules=rules,
            status=row.status,
            stored_version=row.version,
            turn_timer_s=row.turn_timer_s,
            games_per_session=row.games_per_session,
            seats=seats,
        )
        session = await sessions.get_active_session(self.db, table_id)
        if session is None:
            return table
        table.session_id = session.id
        dealer = session.dealer if session.sitting_out is None else session.sitting_out
        table.round = TableRound(table.size, dealer, session.games_left, session.pflichtsolo_done)
        for game_row in await games.list_games(self.db, session.id):
            table.game_number = max(table.game_number, game_row.number)
            seating = _seating(game_row.sitting_out)
            if game_row.status == "finished" and game_row.record is not None:
                deal = deal_from_dict(game_row.record)
                finished = Game(deal)
                for i, a in enumerate(game_row.record.get("actions", [])):
                    finished.apply(action_from_dict(a, i))
                entry = self._entry(table, finished, seating, game_row.sitting_out)
                table.spielliste.append(entry)
                table.bock = table.bock.after(len(finished.bock_triggers()), table.rules)
            elif game_row.status == "running":
                game = Game(deal_from_dict(game_row.deal))
                for i, a in enumerate(await actions.load_actions(self.db, game_row.id)):
                    game.apply(action_from_dict(a, i))
                table.game = game
                table.game_id = game_row.id
                table.live = True
                table.seating, table.sitting_out = seating, game_row.sitting_out
        return table


def _seating(sitting_out: int | None) -> tuple[int, int, int, int]:
    """The table seat of each game seat: all four, or the four besides the one sitting out."""
    return FOUR_SEATS if sitting_out is None else FiveSeating(sitting_out).players


def _dealer_columns(round: TableRound) -> tuple[int, int | None]:
    """The stored dealer: the game's dealer seat, plus the table seat sitting out (five)."""
    if round.size == 5:
        return FiveSeating.GAME_DEALER, round.dealer
    return round.dealer, None


def _listed(game: Game, seating: tuple[int, int, int, int]) -> ListedGame:
    """A finished game as the round's bookkeeping takes it (the soloist as a table seat)."""
    assert game.contract is not None
    soloist = None if game.soloist is None else seating[game.soloist]
    return ListedGame(game.contract, game.solo_kind, soloist)
