"""The engine's facade: the one object front ends drive (the terminal client, Discord).

The work is done by parts that share the open tables through :class:`Tables`: the lobby
(:mod:`.lobby`), play (:mod:`.play`), the store writer (:mod:`.writer`), AI turns
(:mod:`.ai_turns`), turn timers (:mod:`.timers`), restart recovery and leases
(:mod:`.recovery`, :mod:`.ownership`) and the store's read queries (:mod:`.queries`).
Every change goes through one table's lock: check who asks and the table version, validate
with the rules core, store the action, and only then apply and acknowledge.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.engine import queries, rangliste
from bot.engine.absence import Absence
from bot.engine.ai_turns import AITurns
from bot.engine.analyse import Analyses
from bot.engine.faults import refuse_store_faults
from bot.engine.lobby import Lobby
from bot.engine.model import AIPlayer, EngineError, TableChanged, TableInfo
from bot.engine.ownership import Ownership
from bot.engine.play import OnStored, Playing
from bot.engine.rangliste import BoardPage, Order, PlayerFigures, Zeitraum
from bot.engine.recovery import Recovery
from bot.engine.tables import STAND_IN_LEVEL, Listener, Table, Tables
from bot.engine.timers import Timers
from bot.engine.writer import ActionWriter
from bot.rules.game import Action
from bot.rules.records import game_record_to_dict
from bot.rules.ruleset import Ruleset
from bot.rules.view import PlayerView, player_view
from db import players
from db.database import Database
from db.rows import GuildSettings, StandingRow


class _DefaultAI:
    """Resolves the levels through ``bot.ai`` (imported lazily: it is heavy)."""

    def choose(self, level: str, view: PlayerView, rng: random.Random) -> Action:
        from bot.ai import get_strategy

        return get_strategy(level).choose(view, rng)


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Engine:
    """Tables, seats, turns, AI seats and timers of the guilds this process runs."""

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
        self.analyses = Analyses(db)
        self.ai = ai or _DefaultAI()
        self.clock = clock
        seeds = seeds or (lambda: secrets.randbits(62))
        self._tables = Tables(db, clock)
        ownership = Ownership(db, owns_guild, lease_owner, timedelta(seconds=lease_seconds))
        self._ownership = ownership
        self._play = Playing(self._tables, ActionWriter(db), ownership, seeds)
        self._lobby = Lobby(self._tables, self._play, ownership, seeds)
        self._absence = Absence(self._tables, self._play)
        self._timers = Timers(self._tables, self._play, self.ai, self.expire_turn, self._absence)
        self._ai = AITurns(self._tables, self._play, self._timers, self.ai, in_thread=ai_in_thread)
        self._recovery = Recovery(self._tables, ownership, self._timers, self._ai)

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Rebuild every open table from the store and re-arm its timers (restart recovery)."""
        await self._recovery.start()

    async def close(self) -> None:
        self._tables.closed = True
        await self._ai.stop()
        await self._recovery.close()

    def store_stats(self) -> dict[str, Any]:
        """The group commit's figures so far (benchmarks): commits, actions, most in one."""
        return self._play.writer.stats()

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process runs the guild's tables (always, unsharded)."""
        return self._ownership.owns_guild(guild_id)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._tables.subscribe(listener)

    async def idle(self) -> None:
        """Wait until no AI is thinking at any table (for tests and the terminal client)."""
        await self._ai.idle()

    async def settle(self, table_id: int, timeout: float) -> None:
        """Until the table's AIs have answered (a human is to act, or the game is over), at
        most ``timeout`` seconds; their thinking goes on either way.
        """
        await self._ai.settle(table_id, timeout)

    # -- queries ------------------------------------------------------------------------

    def table(self, table_id: int) -> TableInfo:
        return self._tables.get(table_id).snapshot()

    def version(self, table_id: int) -> int:
        """The table's version, without a snapshot (raises EngineError when it is closed)."""
        return self._tables.get(table_id).version

    def find_table(self, guild_id: int, channel_id: int) -> TableInfo | None:
        table = self._tables.in_channel(guild_id, channel_id)
        return None if table is None else table.snapshot()

    def open_tables(self) -> list[TableInfo]:
        return [t.snapshot() for t in self._tables.all()]

    def game_seat(self, table_id: int, user_id: int) -> int | None:
        """The user's seat in the running game (what an Action's ``seat`` names); None when
        no game runs or the user does not play it (not seated, or sitting it out).
        """
        table = self._tables.get(table_id)
        seat = table.find_seat(user_id)
        if table.game is None or seat is None or seat not in table.seating:
            return None
        return table.seating.index(seat)

    def view_for(self, table_id: int, user_id: int) -> PlayerView:
        """The user's own view of the running game."""
        table = self._tables.get(table_id)
        seat = table.seat_of(user_id)
        if table.game is None:
            raise EngineError("no_game", "no game is running at this table")
        return player_view(table.game, table.game_seat(seat))

    def record(self, table_id: int) -> dict[str, Any]:
        """The running (or last) game as a ``doko-game/1`` record."""
        table = self._tables.get(table_id)
        if table.game is None:
            raise EngineError("no_game", "no game has been played at this table yet")
        return game_record_to_dict(table.game)

    async def leaderboard(self, guild_id: int, limit: int = 20) -> list[StandingRow]:
        """The guild's leaderboard (humans only, all time), best first."""
        return await queries.leaderboard(self.db, guild_id, limit)

    async def leaderboard_page(
        self, guild_id: int, zeitraum: Zeitraum, order: Order = "points", page: int = 0
    ) -> BoardPage:
        """Page ``page`` (from 0) of the guild's leaderboard by points over ``zeitraum``, or
        by rating (all time, players with enough games only).
        """
        return await rangliste.board_page(self.db, guild_id, zeitraum, order, page)

    async def player_figures(
        self, guild_id: int, user_id: int, zeitraum: Zeitraum
    ) -> PlayerFigures | None:
        """The user's figures and running points over ``zeitraum``; None without a game."""
        return await rangliste.player_figures(self.db, guild_id, user_id, zeitraum)

    def today(self) -> date:
        """Today's date (UTC) by the engine's clock: what "this month" means."""
        return self.clock().astimezone(UTC).date()

    async def finished_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None:
        """A finished game of this guild as its ``doko-game/1`` record; never a running one."""
        return await queries.finished_record(self.db, guild_id, game_id)

    async def table_closed(self, table_id: int) -> bool:
        """Whether the table is closed in the store (whichever process ran it)."""
        return await queries.table_closed(self.db, table_id)

    async def notify_delay(
        self, user_id: int, default: int | None = queries.NOTIFY_DEFAULT_S
    ) -> int | None:
        """Seconds into the user's turn the front end pings them (0: at once); None: never.
        ``default`` (the bot's, ``queries.NOTIFY_DEFAULT_S``) until they chose.
        """
        return await queries.notify_delay(self.db, user_id, default)

    async def my_tables(self, user_id: int) -> list[queries.MyTable]:
        """The user's open tables in every guild, where it is their move first
        (``/doko meine-tische``).
        """
        return await queries.my_tables(self.db, self._tables, user_id)

    @refuse_store_faults
    async def set_notify_delay(self, user_id: int, seconds: int | None) -> None:
        """The user's choice of ping: ``seconds`` into their turn, 0 at once, None never."""
        await players.set_notify_delay(self.db, user_id, seconds, now=self.clock())

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings: its bot-admin role and time zone (defaults when unset)."""
        return await queries.guild_settings(self.db, guild_id)

    # -- table management ---------------------------------------------------------------

    @refuse_store_faults
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
        ai_level: str = STAND_IN_LEVEL,
        disconnect_policy: str = "bot",
        protokoll: bool = False,
        tempo_s: int | None = None,
        coach: bool = False,
        deal_base: int | None = None,
    ) -> TableInfo:
        """Open a table in a channel, the host on seat 0. ``ai_level``: the AI that fills
        its empty seats at the start and stands in for a player who left or timed out.
        ``disconnect_policy``: what an expired turn timer means (:mod:`.absence`).
        ``protokoll``: a replay thread for each finished game (``bot.discord.replay``).
        ``tempo_s``: a slow table's seconds per move, in place of ``turn_timer_s``
        (:mod:`.slow`).
        ``coach``: the hands offer the AI's Tipp; the games are unranked.
        ``deal_base``: a challenge's seed; the games are dealt from it, deal n alike for
        everyone (``bot.engine.challenges``), and they are unranked.
        """
        table = await self._lobby.create_table(
            guild_id,
            channel_id,
            host_id,
            host_name,
            rules,
            games,
            turn_timer_s,
            ai_level,
            disconnect_policy,
            protokoll,
            tempo_s,
            coach,
            deal_base,
        )
        return await self._changed(table)

    @refuse_store_faults
    async def join(
        self, table_id: int, user_id: int, name: str, seat: int | None = None
    ) -> TableInfo:
        """Take a free seat in the lobby, or come back to one's own seat during a game."""
        return await self._changed(await self._lobby.join(table_id, user_id, name, seat))

    @refuse_store_faults
    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        """Leave the lobby, or hand one's seat to an AI mid-game (it can be taken back)."""
        return await self._changed(await self._lobby.leave(table_id, user_id))

    @refuse_store_faults
    async def add_ai(
        self, table_id: int, user_id: int, level: str, seat: int | None = None
    ) -> TableInfo:
        return await self._changed(await self._lobby.add_ai(table_id, user_id, level, seat))

    @refuse_store_faults
    async def remove_ai(
        self, table_id: int, user_id: int, seat: int, *, admin: bool = False
    ) -> TableInfo:
        """Take the bot off ``seat`` in the lobby: the host's, or a server admin's (``admin``)."""
        return await self._changed(await self._lobby.remove_ai(table_id, user_id, seat, admin))

    @refuse_store_faults
    async def start_game(
        self,
        table_id: int,
        user_id: int,
        fill_level: str | None = None,
        *,
        dealer: int | None = None,
    ) -> TableInfo:
        """Start the session: empty seats get AIs (``fill_level``, else the table's level),
        the first game is dealt.

        The first dealer is drawn at random unless given (a tournament plan fixes it).
        """
        table = await self._lobby.start_game(table_id, user_id, fill_level, dealer)
        return await self._changed(table)

    @refuse_store_faults
    async def stop_table(self, table_id: int, user_id: int, *, admin: bool = False) -> TableInfo:
        snapshot = (await self._lobby.stop_table(table_id, user_id, admin)).snapshot()
        await self._tables.emit(TableChanged(snapshot))
        return snapshot

    @refuse_store_faults
    async def end_early(self, table_id: int, user_id: int, *, admin: bool = False) -> TableInfo:
        """No new games after the running one, except the Pflichtsoli still owed (vorgeführt)."""
        return await self._changed(await self._lobby.end_early(table_id, user_id, admin))

    @refuse_store_faults
    async def replace_seat(
        self, table_id: int, user_id: int, level: str, *, by: int, admin: bool = False
    ) -> TableInfo:
        """Hand a player's seat to an AI for good (a no-show at a tournament table)."""
        table = await self._lobby.replace_seat(table_id, user_id, level, by, admin)
        return await self._changed(table)

    # -- playing ------------------------------------------------------------------------

    @refuse_store_faults
    async def act(
        self,
        table_id: int,
        user_id: int,
        action: Action,
        version: int | None = None,
        on_stored: OnStored | None = None,
    ) -> TableInfo:
        """One player's action; ``action.seat`` must be the user's game seat (``game_seat``).

        ``version`` is the table version the user's button was made for; a stale one is
        refused (a double click or an old message), ``None`` skips the check (typed commands).
        ``on_stored`` is awaited as soon as the action is durable, before the end of a game
        is booked: a front end acknowledges the player there (the table waits for it).
        """
        try:
            table = await self._play.act(table_id, user_id, action, version, on_stored)
        except EngineError as error:
            if error.details.get("caught_up"):  # memory took the store's actions: tell
                await self._changed(self._tables.get(table_id))
            raise
        return await self._changed(table)

    async def expire_turn(self, table_id: int, version: int) -> bool:
        """The turn timer ran out: an AI plays for the absent player. Returns whether it did."""
        table = await self._timers.expire(table_id, version)
        if table is None:
            return False
        await self._changed(table)
        return True

    async def remind_turn(self, table_id: int) -> None:
        """A slow turn's reminder, if one is due by the engine's clock and not yet sent
        (its own timer does this; tests with a clock of their own call it).
        """
        await self._timers.reminders.remind_now(table_id)

    async def _changed(self, table: Table) -> TableInfo:
        """After a change (the lock released): publish it, let the AIs answer."""
        await self._tables.publish(table)
        self._ai.kick(table)
        return table.snapshot()

    # -- a player's absence (the table's disconnect policy) ----------------------------

    @refuse_store_faults
    async def take_over_absent(
        self, table_id: int, user_id: int, *, admin: bool = False
    ) -> TableInfo:
        """The host hands the seat the table waits for to a bot (``warten``); the player
        takes it back with ``join`` as after a pause.
        """
        return await self._changed(await self._absence.take_over(table_id, user_id, admin))

    @refuse_store_faults
    async def score_absent_lost(
        self, table_id: int, user_id: int, *, admin: bool = False
    ) -> TableInfo:
        """The host scores the running game as lost for the absent player's party
        (``warten``; the rule in ``docs/rules.md``).
        """
        return await self._changed(await self._absence.score_lost(table_id, user_id, admin))
