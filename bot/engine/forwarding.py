"""Interactions for tables another process runs: stored by the receiver, applied by the owner.

Discord delivers interactions in DMs (a hand's buttons, slash commands there) to shard 0
only, whichever process runs the table. The receiving process stores such an interaction
with :meth:`Forwarder.forward` and acknowledges it only after that returned; the process
holding the table's lease finds it within a poll interval and hands it to ``handler``, which
applies it as a local one and answers through the interaction's webhook. An interaction
whose table closed or is run by nobody goes to ``unowned_handler`` of whichever process
sweeps first, so the player hears why nothing happened.

Delivery is at least once: a process that dies after applying but before marking the row
handled leaves it for the next holder, whose version check refuses the repeat as stale.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta

from bot.engine.facade import Engine
from bot.engine.model import EngineError
from db import forwards, tables
from db.errors import NotFoundError
from db.forwards import ForwardRow as ForwardRow  # the handlers' argument
from db.forwards import Kind

log = logging.getLogger(__name__)

Handler = Callable[[ForwardRow], Awaitable[None]]

POLL_S = 0.15  # how soon the owner picks a forwarded click up
SWEEP_S = 1.0  # how often unowned interactions are looked for
PRUNE_S = 600.0  # how often handled rows are deleted …
KEEP = timedelta(hours=1)  # … once they are this old


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Forwarder:
    """One process's side of the forward queue: it forwards, and it applies its own tables'.

    ``owner_id`` is the engine's lease owner; ``grace`` how long an interaction may wait for
    an owner (a restarting process claims its tables within the lease time).
    """

    def __init__(
        self,
        engine: Engine,
        owner_id: str,
        *,
        grace: timedelta,
        poll_s: float = POLL_S,
        clock: Callable[[], datetime] = _utcnow,
    ) -> None:
        self.engine = engine
        self.db = engine.db
        self.owner_id = owner_id
        self.grace = grace
        self.poll_s = poll_s
        self.clock = clock
        self.handler: Handler | None = None
        self.unowned_handler: Handler | None = None
        self._task: asyncio.Task[None] | None = None

    # -- the receiving side ---------------------------------------------------------------

    def runs(self, table_id: int) -> bool:
        """Whether this process runs the table now (then nothing is forwarded)."""
        try:
            self.engine.table(table_id)
        except EngineError:
            return False
        return True

    async def forward(
        self,
        table_id: int,
        *,
        kind: Kind,
        custom_id: str,
        args: Sequence[str] = (),
        user_id: int,
        locale: str,
        application_id: int,
        token: str,
        channel_id: int | None = None,
        message_id: int | None = None,
    ) -> bool:
        """Store an interaction for the process that runs ``table_id``; committed on return.

        False when the table is not open: nobody would apply it, answer it here.
        """
        # Urgent, as a game action's commit: the click is acknowledged once it is stored.
        async with self.db.transaction(urgent=True):
            try:
                table = await tables.get_table(self.db, table_id)
            except NotFoundError:
                return False
            if table.status == "closed":
                return False
            row = await forwards.add(
                self.db,
                table_id=table_id,
                kind=kind,
                custom_id=custom_id,
                args=args,
                user_id=user_id,
                locale=locale,
                application_id=application_id,
                token=token,
                channel_id=channel_id,
                message_id=message_id,
                now=self.clock(),
            )
        log.info(
            "forwarded %s %s of user %s to table %s's process", kind, row.id, user_id, table_id
        )
        return True

    async def remote_table_of(self, user_id: int) -> int | None:
        """The table in play where the user sits that another process runs (DM commands)."""
        for table_id in await forwards.playing_tables_of(self.db, user_id):
            if not self.runs(table_id):
                return table_id
        return None

    # -- the owning side ------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="doko-forwarded")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        last_sweep = last_prune = time.monotonic()
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await self.poll()
                now = time.monotonic()
                if now - last_sweep >= SWEEP_S:
                    last_sweep = now
                    await self.sweep()
                if now - last_prune >= PRUNE_S:
                    last_prune = now
                    await forwards.prune(self.db, before=self.clock() - KEEP)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("handling forwarded interactions failed; retrying")

    async def poll(self) -> int:
        """Apply the pending interactions of the tables this process runs; returns how many.

        Tables are handled side by side, each one's interactions in the order they came.
        """
        handler = self.handler
        if handler is None:  # not wired up yet: they wait
            return 0
        rows = await forwards.pending_for(self.db, self.owner_id, now=self.clock())
        by_table: dict[int, list[ForwardRow]] = {}
        for row in rows:
            # Held but not loaded (a takeover still retrying): it waits for the table.
            if self.runs(row.table_id):
                by_table.setdefault(row.table_id, []).append(row)
        await asyncio.gather(*(self._apply_all(handler, batch) for batch in by_table.values()))
        return sum(len(batch) for batch in by_table.values())

    async def _apply_all(self, handler: Handler, rows: list[ForwardRow]) -> None:
        for row in rows:
            state: forwards.State = "done"
            try:
                await handler(row)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Never retried: a click that breaks the handler would break it again.
                log.exception("forwarded interaction %s failed", row.id)
                state = "failed"
            await forwards.finish(self.db, row.id, state, now=self.clock())

    async def sweep(self) -> int:
        """Answer interactions that nobody will apply; returns how many this process took."""
        taken = 0
        for row in await forwards.unowned(self.db, now=self.clock(), grace=self.grace):
            # Marked first: of several sweeping processes exactly one answers.
            if not await forwards.finish(self.db, row.id, "orphaned", now=self.clock()):
                continue
            taken += 1
            log.info("forwarded %s %s for table %s: nobody runs it", row.kind, row.id, row.table_id)
            if self.unowned_handler is None:
                continue
            try:
                await self.unowned_handler(row)
            except Exception:
                log.exception("answering forwarded interaction %s failed", row.id)
        return taken
