"""AI turns: after a change, the AI seats act one after another until a human is to act."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Final

from bot.engine.faults import retry_pause
from bot.engine.model import AIPlayer, EngineError
from bot.engine.play import Playing
from bot.engine.tables import Table, Tables
from bot.engine.timers import Timers
from bot.rules.game import Action
from bot.rules.view import PlayerView, player_view
from db.errors import StoreError

log = logging.getLogger(__name__)

# Levels that decide on the event loop even with ``ai_in_thread``, as the stand-in always
# did: leicht takes ~0.1 ms, less than the thread hop costs the loop (submit, wake-up, GIL
# hand-over, result callback; bench discord: CPU per action -10 %).
QUICK_LEVELS: Final = frozenset({"leicht"})


class AITurns:
    """One driver task per table; heavy levels think in a worker thread (``in_thread``)."""

    def __init__(
        self, tables: Tables, play: Playing, timers: Timers, ai: AIPlayer, *, in_thread: bool
    ) -> None:
        self.tables = tables
        self.play = play
        self.timers = timers
        self.ai = ai
        self.in_thread = in_thread

    def kick(self, table: Table) -> None:
        """Start the table's driver unless it runs (it looks at the game afresh each turn)."""
        if self.tables.closed or table.status != "playing":
            return
        if table.ai_task is None or table.ai_task.done():
            table.ai_task = asyncio.create_task(self._drive(table), name=f"ai-table-{table.id}")

    async def stop(self) -> None:
        """Cancel every table's timer and AI (the engine closes)."""
        tasks = []
        for table in self.tables.all():
            table.stop_work()
            if table.ai_task is not None and not table.ai_task.done():
                tasks.append(table.ai_task)
        await asyncio.gather(*tasks, return_exceptions=True)

    async def idle(self) -> None:
        """Until no AI is thinking at any table."""
        while True:
            tasks = [t.ai_task for t in self.tables.all() if t.ai_task and not t.ai_task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def settle(self, table_id: int, timeout: float) -> None:
        """Until the table's AIs have answered, at most ``timeout`` seconds."""
        table = self.tables.lookup(table_id)
        task = table.ai_task if table is not None else None
        if task is not None and not task.done():
            await asyncio.wait({task}, timeout=timeout)

    async def _drive(self, table: Table) -> None:
        """Let AI seats act until a human must act (or the table closes); book a finished
        game left unbooked. A store error is retried after a pause, never given up on.
        """
        failures = 0
        try:
            while self._runs(table):
                try:
                    if not await self._step(table):
                        return
                    failures = 0
                except StoreError as error:
                    failures += 1
                    pause = retry_pause(failures)
                    log.warning(
                        "table %s: not stored (%s); trying again in %.2f s", table.id, error, pause
                    )
                    await asyncio.sleep(pause)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI driver failed at table %s", table.id)

    def _runs(self, table: Table) -> bool:
        """The table still plays here (not closed, not handed to another process)."""
        return (
            not self.tables.closed
            and table.status == "playing"
            and self.tables.lookup(table.id) is table
        )

    async def _step(self, table: Table) -> bool:
        """One AI action, or the booking of a finished game; False when there is no more
        to do (a human is to act: their timer is armed).
        """
        async with table.lock:
            game = table.game
            if game is not None and self.play.unbooked(table):
                await self.play.book(table)
                booked = True
            elif game is None or game.finished:
                return False
            else:
                booked = False
                seat = game.to_act()
                assert seat is not None
                info = table.seats[table.seating[seat]]
                assert info is not None
                if not info.played_by_ai:
                    await self.timers.arm_turn_timer(table)
                    return False
                version = table.version
                view = player_view(game, seat)
                rng = random.Random(f"{game.deal.seed}:{game.action_count}:{seat}")
                level = info.ai_level or table.ai_level
        if not booked:
            action = await self._decide(level, view, rng)
            async with table.lock:
                if table.version != version:
                    return True  # somebody acted meanwhile (a call): think again
                try:
                    await self.play.apply(table, action)
                except EngineError as error:
                    if error.reason != "stale_version":
                        raise
                    return True  # the store was ahead of memory (Playing.apply): think again
        await self.tables.publish(table)
        return True

    async def _decide(self, level: str, view: PlayerView, rng: random.Random) -> Action:
        if self.in_thread and level not in QUICK_LEVELS:
            return await asyncio.to_thread(self.ai.choose, level, view, rng)
        return self.ai.choose(level, view, rng)
