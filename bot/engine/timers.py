"""Turn timers: a durable deadline for the human to act, and the stand-in AI when it passes."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, Final

from bot.engine.absence import FORFEIT_GRACE, Absence
from bot.engine.faults import retry_pause
from bot.engine.model import AIPlayer, TableChanged
from bot.engine.play import Playing
from bot.engine.slow import Reminders
from bot.engine.tables import Table, Tables, Waiting
from bot.rules.view import player_view
from db import timers
from db.errors import StoreError

log = logging.getLogger(__name__)

TURN_TIMER_KIND: Final = "turn"
# The event loop may run a call_later a little before the engine's clock reaches it.
_EARLY: Final = timedelta(seconds=1)


class Timers:
    """``on_due(table_id, version)`` runs when a deadline passes (the facade's expire_turn)."""

    def __init__(
        self,
        tables: Tables,
        play: Playing,
        ai: AIPlayer,
        on_due: Callable[[int, int], Awaitable[object]],
        absence: Absence,
    ) -> None:
        self.tables = tables
        self.db = tables.db
        self.play = play
        self.ai = ai
        self.on_due = on_due
        self.absence = absence
        self._failures: dict[int, int] = {}  # by table: failed writes of its due timer
        self.reminders = Reminders(tables, TURN_TIMER_KIND)

    async def arm_turn_timer(self, table: Table) -> None:
        """Store and schedule the deadline of the human now to act (the caller holds the lock).

        A slow table's ``tempo_s`` takes the turn timer's place (:mod:`.slow`).
        """
        seconds = table.tempo_s or table.turn_timer_s
        if seconds is None or table.game is None or table.game.finished:
            return
        if table.waiting_now is not None:
            return  # the table waits for the absent player: no new deadline
        now = self.tables.clock()
        if table.slow_turn_due is not None:
            return  # this move's deadline stands (re-armed after a restart): days, not anew
        fires_at = now + timedelta(seconds=seconds)
        await self._set_deadline(table, fires_at, {"version": table.version}, now)
        if table.tempo_s is not None:
            # The table message says since when the move waits: it was published before.
            await self.tables.emit(TableChanged(table.snapshot()))

    async def _set_deadline(
        self, table: Table, fires_at: datetime, payload: dict[str, Any], now: datetime
    ) -> None:
        """The table's one turn deadline, stored (replacing the last) and armed."""
        async with self.db.transaction():
            await timers.cancel_table_timers(self.db, table.id, TURN_TIMER_KIND)
            await timers.add_timer(
                self.db,
                kind=TURN_TIMER_KIND,
                table_id=table.id,
                fires_at=fires_at,
                payload=payload,
                now=now,
            )
        self.arm(table, fires_at, payload)

    def arm(self, table: Table, fires_at: datetime, payload: dict[str, Any]) -> None:
        """Schedule a stored deadline in memory (also when re-arming it after a restart)."""
        if table.timer is not None:
            table.timer.cancel()
        table.turn_due = fires_at
        table.turn_version = payload["version"]
        if "since" in payload and table.game is not None:  # verloren's grace period
            seat = table.game.to_act()
            if seat is not None and payload["version"] == table.version:
                since = datetime.fromisoformat(payload["since"])
                table.waiting = Waiting(table.version, table.seating[seat], since, fires_at)
        delay = max(0.0, (fires_at - self.tables.clock()).total_seconds())
        loop = asyncio.get_running_loop()
        table.timer = loop.call_later(
            delay, lambda: asyncio.ensure_future(self.on_due(table.id, payload["version"]))
        )
        self.reminders.arm(table, fires_at, payload)

    async def expire(self, table_id: int, version: int) -> Table | None:
        """The stand-in AI acts for the absent player; the table, or None if nothing was due.

        When the store refuses the stand-in's action, the deadline fires again after a pause
        (in memory; the stored one stays), until it is taken or the player acted. Under
        ``warten`` and ``verloren`` the table waits instead (:meth:`_absent`).
        """
        table = self.tables.lookup(table_id)
        if table is None:
            return None
        async with table.lock:
            game = table.game
            if table.version != version or game is None or game.finished:
                return None
            seat = game.to_act()
            assert seat is not None
            try:
                if table.disconnect_policy != "bot":
                    return await self._absent(table, seat)
                view = player_view(game, seat)
                rng = random.Random(f"{game.deal.seed}:{game.action_count}:{seat}:timeout")
                await self.play.apply(table, self.ai.choose(table.ai_level, view, rng))
            except StoreError as error:
                failures = self._failures[table_id] = self._failures.get(table_id, 0) + 1
                pause = retry_pause(failures)
                log.warning("table %s: the timer's action was not stored (%s)", table_id, error)
                again = self.tables.clock() + timedelta(seconds=pause)
                self.arm(table, again, {"version": version})
                self.reminders.cancel(table)  # the move is past due: no more reminders
                return None
            self._failures.pop(table_id, None)
        return table

    async def _absent(self, table: Table, seat: int) -> Table | None:
        """The deadline passed under ``warten`` or ``verloren`` (the caller holds the lock):
        the table starts waiting; under ``verloren`` the end of the grace period scores the
        game as lost. The table when it changed, else None.
        """
        now = self.tables.clock()
        waiting = table.waiting_now
        if waiting is None:
            since = table.turn_due or now
            forfeit_at = None
            if table.disconnect_policy == "verloren":
                forfeit_at = now + FORFEIT_GRACE
                payload = {"version": table.version, "since": since.isoformat()}
                # The turn's deadline becomes the grace's.
                await self._set_deadline(table, forfeit_at, payload, now)
            table.waiting = Waiting(table.version, table.seating[seat], since, forfeit_at)
            return table
        if waiting.forfeit_at is None or now < waiting.forfeit_at - _EARLY:
            return None  # warten: only the player or the host ends the wait
        await self.absence.forfeit(table)
        return table
