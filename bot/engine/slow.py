"""Slow tables: hours or days per move, and the reminders by DM while a move waits.

A slow table's ``tempo_s`` takes the turn timer's place: the human to act has that long,
then the table's disconnect policy decides (:mod:`.absence`), as for any turn timer. While
the move waits the player is reminded at half time and, when that is later, an hour before
the end (``docs/slow.md``). Which reminders went out is kept with the turn's stored
deadline (``timers.payload["reminded"]``), written before the reminder is published: a
restart neither repeats a reminder nor loses one that fell due while the bot was down (it
goes out on start, unless the deadline passed too; then only the policy acts). In memory a
slow table holds one timer handle for its next reminder, nothing else.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any, Final

from bot.engine.faults import retry_pause
from bot.engine.model import TurnReminder
from bot.engine.tables import Table, Tables
from db import timers
from db.errors import StoreError

log = logging.getLogger(__name__)

# The choices of /doko tisch bedenkzeit and of the server default, in seconds.
TEMPOS: Final = (3600, 12 * 3600, 24 * 3600, 72 * 3600)
MIN_TEMPO_S: Final = 3600
LAST_CALL: Final = timedelta(hours=1)
# The event loop may run a call_later a little before the engine's clock reaches it.
_EARLY: Final = timedelta(seconds=1)


def reminder_times(since: datetime, due: datetime) -> list[datetime]:
    """When a move waiting from ``since`` to ``due`` is reminded: half time, and an hour
    before the end when that comes after half time.
    """
    half = since + (due - since) / 2
    return [half, due - LAST_CALL] if due - LAST_CALL > half else [half]


class Reminders:
    """Arms a slow turn's next reminder and sends it (as an engine event) when it is due."""

    def __init__(self, tables: Tables, kind: str) -> None:
        self.tables = tables
        self.db = tables.db
        self.kind = kind  # the stored turn deadline's timer kind

    def arm(self, table: Table, due: datetime, payload: dict[str, Any]) -> None:
        """Schedule the next reminder of the turn due at ``due`` (its stored payload)."""
        self.cancel(table)
        sent = table.reminded = int(payload.get("reminded", 0))
        if table.tempo_s is None or "since" in payload:  # "since": verloren's grace period
            return
        since = due - timedelta(seconds=table.tempo_s)
        times = reminder_times(since, due)
        if sent >= len(times):
            return
        delay = max(0.0, (times[sent] - self.tables.clock()).total_seconds())
        version = int(payload["version"])
        table.reminder = asyncio.get_running_loop().call_later(
            delay, lambda: asyncio.ensure_future(self.remind(table.id, version, due))
        )

    def cancel(self, table: Table) -> None:
        if table.reminder is not None:
            table.reminder.cancel()
            table.reminder = None

    async def remind_now(self, table_id: int) -> None:
        """The reminder of the table's current slow turn, if one is due by the clock."""
        table = self.tables.lookup(table_id)
        if table is not None and table.turn_version is not None and table.turn_due is not None:
            await self.remind(table_id, table.turn_version, table.turn_due)

    async def remind(self, table_id: int, version: int, due: datetime, failures: int = 0) -> None:
        """Store that the reminder went out, then publish it; nothing when the move was made."""
        table = self.tables.lookup(table_id)
        if table is None or table.tempo_s is None:
            return
        async with table.lock:
            game = table.game
            now = self.tables.clock()
            if (
                table.version != version
                or table.turn_due != due
                or game is None
                or game.finished
                or table.waiting_now is not None
                or now >= due - _EARLY  # the deadline's own timer acts now
            ):
                return
            times = reminder_times(due - timedelta(seconds=table.tempo_s), due)
            # After a restart several may be due: only the latest goes out.
            sent = sum(1 for at in times if at <= now + _EARLY)
            if sent <= table.reminded:  # sent already, or the loop ran ahead of the clock
                self.arm(table, due, {"version": version, "reminded": table.reminded})
                return
            payload = {"version": version, "reminded": sent}
            try:
                await timers.set_table_timer_payload(self.db, table.id, self.kind, payload)
            except StoreError as error:
                log.warning("table %s: the reminder was not stored (%s)", table_id, error)
                table.reminder = asyncio.get_running_loop().call_later(
                    retry_pause(failures + 1),
                    lambda: asyncio.ensure_future(
                        self.remind(table_id, version, due, failures + 1)
                    ),
                )
                return
            seat = game.to_act()
            assert seat is not None
            info = table.seats[table.seating[seat]]
            self.arm(table, due, payload)
            number = table.game_number
        if info is None or info.user_id is None or info.played_by_ai:
            return
        last = sent == len(times)
        await self.tables.emit(TurnReminder(table_id, info.user_id, number, due, last))
