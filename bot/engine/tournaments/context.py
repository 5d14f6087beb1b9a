"""The state the tournament service's parts share: the engine, locks, tasks, listeners."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.engine.facade import Engine
from bot.engine.model import EngineError
from bot.engine.tournaments.model import Listener, TableChannels, TournamentEvent
from db import tournaments as store
from db.errors import NotFoundError
from db.tournaments import EntrantRow, TournamentRow

log = logging.getLogger(__name__)


def require_organiser(tournament: TournamentRow, user_id: int, admin: bool) -> None:
    if user_id != tournament.organiser_id and not admin:
        raise EngineError("not_organiser", "only the organiser or a server admin can do this")


class Context:
    """One lock per tournament; background work (round changes, start timers) as tasks."""

    def __init__(
        self,
        engine: Engine,
        channels: TableChannels | None,
        seeds: Callable[[], int],
    ) -> None:
        self.engine = engine
        self.db = engine.db
        self.channels = channels
        self.seeds = seeds
        self.by_table: dict[int, int] = {}  # engine table id -> tournament id
        self.closed = False
        self.listeners: list[Listener] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self._locks: dict[int, asyncio.Lock] = {}

    async def get(self, tournament_id: int) -> TournamentRow:
        try:
            return await store.get_tournament(self.db, tournament_id)
        except NotFoundError:
            raise EngineError("no_tournament", "there is no such tournament") from None

    async def find(self, guild_id: int, tournament_id: int | None = None) -> TournamentRow:
        """The given tournament of this guild, or the newest one not finished (else newest)."""
        if tournament_id is not None:
            found = await self.get(tournament_id)
            if found.guild_id != guild_id:
                raise EngineError("no_tournament", "there is no such tournament here")
            return found
        listed = await store.list_guild_tournaments(self.db, guild_id)
        if not listed:
            raise EngineError("no_tournament", "this server has no tournament")
        return next((t for t in listed if t.status != "finished"), listed[0])

    async def entrant(self, tournament_id: int, user_id: int) -> EntrantRow | None:
        for entrant in await store.list_entrants(self.db, tournament_id):
            if entrant.user_id == user_id:
                return entrant
        return None

    async def table_open(self, table_id: int) -> bool:
        try:
            self.engine.table(table_id)
        except EngineError:
            return False
        return True

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self.closed:
            work.close()
            return
        task = asyncio.create_task(self._guarded(work))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _guarded(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament work failed")

    async def emit(self, event: TournamentEvent) -> None:
        for listener in list(self.listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("tournament listener failed on %s", type(event).__name__)
