"""The start time: a durable timer per tournament (``timers`` kind ``tournament_start``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, Final

from bot.engine.tournaments.context import Context
from db import timers

START_TIMER_KIND: Final = "tournament_start"


class StartTimers:
    """``on_due(tournament_id, timer_id)`` is the work to do when a start time has come."""

    def __init__(
        self, ctx: Context, on_due: Callable[[int, int], Coroutine[Any, Any, None]]
    ) -> None:
        self.ctx = ctx
        self.on_due = on_due
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._timer_ids: dict[int, int] = {}

    def arm(self, tournament_id: int, timer_id: int, fires_at: datetime) -> None:
        old = self._handles.pop(tournament_id, None)
        if old is not None:
            old.cancel()
        self._timer_ids[tournament_id] = timer_id
        delay = max(0.0, (fires_at - self.ctx.engine.clock()).total_seconds())
        loop = asyncio.get_running_loop()
        self._handles[tournament_id] = loop.call_later(
            delay, lambda: self.ctx.spawn(self.on_due(tournament_id, timer_id))
        )

    def forget(self, tournament_id: int) -> None:
        """The timer fired: its handle is spent (the stored timer stays until cancelled)."""
        self._handles.pop(tournament_id, None)

    async def cancel(self, tournament_id: int) -> None:
        handle = self._handles.pop(tournament_id, None)
        if handle is not None:
            handle.cancel()
        timer_id = self._timer_ids.pop(tournament_id, None)
        if timer_id is not None:
            await timers.cancel_timer(self.ctx.db, timer_id)

    def stop(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
