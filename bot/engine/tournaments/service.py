"""The tournament service's facade: what the front end calls (see the package's docstring)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from datetime import datetime

from bot.engine.facade import Engine
from bot.engine.model import Event, SessionOver
from bot.engine.tournaments.context import Context
from bot.engine.tournaments.model import Listener, Overview, TableChannels
from bot.engine.tournaments.organising import Organising
from bot.engine.tournaments.results import Results
from bot.engine.tournaments.rounds import Rounds
from bot.engine.tournaments.timers import START_TIMER_KIND, StartTimers
from bot.rules.ruleset import Ruleset
from bot.tournament import GameRef, Participant, RoundCheck, Substitute
from bot.tournament.standings import AuditEntry
from db import timers
from db import tournaments as store
from db.tournaments import Seating, TournamentRow

log = logging.getLogger(__name__)


class TournamentService:
    """Runs tournaments through ``engine``; the front end supplies the table channels."""

    def __init__(
        self,
        engine: Engine,
        *,
        channels: TableChannels | None = None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.engine = engine
        self.db = engine.db
        self._ctx = Context(engine, channels, seeds or (lambda: secrets.randbits(62)))
        self._timers = StartTimers(self._ctx, self._fire_start)
        self._results = Results(self._ctx)
        self._rounds = Rounds(self._ctx, self._results, self._timers)
        self._organising = Organising(self._ctx, self._rounds, self._timers)
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def channels(self) -> TableChannels | None:
        """Opens the tables' channels; the front end may set it after construction."""
        return self._ctx.channels

    @channels.setter
    def channels(self, channels: TableChannels | None) -> None:
        self._ctx.channels = channels

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """After ``engine.start()``: re-arm start timers, catch up on rounds that ended."""
        self._unsubscribe = self.engine.subscribe(self._on_engine_event)
        # Sharded, another process runs the tournaments of the guilds it owns.
        active = [
            t
            for t in await store.list_active_tournaments(self.db)
            if self.engine.owns_guild(t.guild_id)
        ]
        mine = {t.id for t in active}
        for tournament in active:
            for table in await store.list_tables(self.db, tournament.id):
                if table.table_id is not None:
                    self._ctx.by_table[table.table_id] = tournament.id
        for timer in await timers.list_timers(self.db):
            if timer.kind == START_TIMER_KIND and timer.tournament_id in mine:
                self._timers.arm(int(timer.tournament_id), timer.id, timer.fires_at)
        for tournament in active:
            if tournament.current_round > 0:
                self._ctx.spawn(self._rounds.advance(tournament.id))
        log.info("tournaments started: %d active", len(active))

    async def close(self) -> None:
        self._ctx.closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._timers.stop()
        tasks = list(self._ctx.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._ctx.listeners.append(listener)
        return lambda: self._ctx.listeners.remove(listener)

    async def idle(self) -> None:
        """Until no round change is pending (for tests)."""
        while self._ctx.tasks:
            await asyncio.gather(*list(self._ctx.tasks), return_exceptions=True)

    # -- queries --------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> TournamentRow:
        return await self._ctx.get(tournament_id)

    async def find(self, guild_id: int, tournament_id: int | None = None) -> TournamentRow:
        """The given tournament of this guild, or the newest one not finished (else newest)."""
        return await self._ctx.find(guild_id, tournament_id)

    def tournament_of_table(self, table_id: int) -> int | None:
        return self._ctx.by_table.get(table_id)

    async def overview(self, tournament_id: int) -> Overview:
        return await self._results.overview(tournament_id)

    async def results_csv(self, tournament_id: int) -> str:
        return await self._results.results_csv(tournament_id)

    async def table_check(self, tournament_id: int, round_number: int, number: int) -> RoundCheck:
        """The Pflichtsoli of one table's round, judged from its Spielliste."""
        return await self._results.table_check(tournament_id, round_number, number)

    # -- organising -----------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        organiser_name: str,
        name: str,
        rounds: int,
        games_per_round: int = 24,
        rules: Ruleset | None = None,
        preset: str = "ddv",
        seating: Seating = "mixing",
        starts_at: datetime | None = None,
        ai_level: str = "mittel",
        disconnect_policy: str = "bot",
    ) -> TournamentRow:
        return await self._organising.create(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            organiser_name=organiser_name,
            name=name,
            rounds=rounds,
            games_per_round=games_per_round,
            rules=rules,
            preset=preset,
            seating=seating,
            starts_at=starts_at,
            ai_level=ai_level,
            disconnect_policy=disconnect_policy,
        )

    async def register(self, tournament_id: int, user_id: int, name: str) -> TournamentRow:
        return await self._organising.register(tournament_id, user_id, name)

    async def withdraw(self, tournament_id: int, user_id: int) -> TournamentRow:
        """Leave the field; during a round an AI substitute plays the seat on."""
        return await self._organising.withdraw(tournament_id, user_id)

    async def begin(
        self, tournament_id: int, user_id: int, *, admin: bool = False
    ) -> TournamentRow:
        """Start now (or resume after a pause): the next round is seated if none is running."""
        return await self._organising.begin(tournament_id, user_id, admin=admin)

    async def pause(
        self, tournament_id: int, user_id: int, *, admin: bool = False
    ) -> TournamentRow:
        """No new round starts until ``begin``; tables playing now finish their round."""
        return await self._organising.pause(tournament_id, user_id, admin=admin)

    async def replace(
        self, tournament_id: int, by: int, player_id: int, *, admin: bool = False
    ) -> Substitute | None:
        """An AI substitute takes the player's seat from the running game on, and his place
        in later rounds. Returns the substitute when one sat down at a table now.
        """
        return await self._organising.replace(tournament_id, by, player_id, admin=admin)

    async def correct(
        self,
        tournament_id: int,
        by: int,
        ref: GameRef,
        scores: Mapping[Participant, int],
        reason: str,
        *,
        admin: bool = False,
    ) -> AuditEntry:
        """Rescore one game; the reason, the old and new scores go into the audit log."""
        return await self._results.correct(tournament_id, by, ref, scores, reason, admin=admin)

    async def correct_seats(
        self,
        tournament_id: int,
        by: int,
        ref: GameRef,
        points: list[int],
        reason: str,
        *,
        admin: bool = False,
    ) -> AuditEntry:
        """``correct`` with the new scores in the Spielliste's seat order."""
        return await self._results.correct_seats(
            tournament_id, by, ref, points, reason, admin=admin
        )

    async def end(self, tournament_id: int, user_id: int, *, admin: bool = False) -> TournamentRow:
        """End early: no further round; tables still playing finish their round as the rules
        demand, so open Pflichtsoli are played (vorgeführt) before a table closes.
        """
        return await self._organising.end(tournament_id, user_id, admin=admin)

    # -- background work ------------------------------------------------------------------

    async def _on_engine_event(self, event: Event) -> None:
        # Called under the engine table's lock: only schedule the round change.
        if isinstance(event, SessionOver) and event.table_id in self._ctx.by_table:
            self._ctx.spawn(self._rounds.advance(self._ctx.by_table[event.table_id]))

    async def _fire_start(self, tournament_id: int, timer_id: int) -> None:
        await self._organising.fire_start(tournament_id, timer_id)
