"""A human who lets the turn timer run out, by the table's disconnect policy.

``bot``: the stand-in AI plays their move (:mod:`.timers`, as always). ``warten``: the table
waits for them, or for the host, who may hand the seat to a bot. ``verloren``: the table
waits a grace period; then their party's game is scored as lost (``docs/rules.md``).
Any change at the table (the absent player acts, takes a pause) ends the wait.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from typing import Final, cast

from bot.engine.model import DISCONNECT_POLICIES, EngineError
from bot.engine.play import Playing
from bot.engine.tables import Table, Tables
from db import away
from db.errors import StoreError
from db.rows import DisconnectPolicy

log = logging.getLogger(__name__)

# How long a table under ``verloren`` waits after the turn timer before the game is lost:
# long enough to reconnect a dropped client or restart Discord.
FORFEIT_GRACE: Final = timedelta(minutes=2)


def check_policy(policy: str) -> DisconnectPolicy:
    """``policy`` as the store's type; a disconnect policy the engine does not know is refused."""
    if policy not in DISCONNECT_POLICIES:
        raise EngineError("bad_policy", f"disconnect policies are {', '.join(DISCONNECT_POLICIES)}")
    return cast(DisconnectPolicy, policy)


class Absence:
    """The host's decisions while a table waits for an absent player."""

    def __init__(self, tables: Tables, play: Playing) -> None:
        self.tables = tables
        self.db = tables.db
        self.play = play

    async def take_over(self, table_id: int, by: int, admin: bool) -> Table:
        """A bot plays the absent player's seat, until they come back ("Zurück an den Tisch")."""
        table = self.tables.get(table_id)
        if by != table.host_id and not admin:
            raise EngineError("not_host", "only the host or a server admin can decide")
        async with table.changing(), self.db.transaction():
            waiting = table.waiting_now
            if waiting is None:
                raise EngineError("not_waiting", "the table waits for nobody")
            await self._hand_to_bot(table, waiting.seat)
        return table

    async def score_lost(self, table_id: int, by: int, admin: bool) -> Table:
        """The host scores the game as lost for the absent player's party (``warten``)."""
        table = self.tables.get(table_id)
        if by != table.host_id and not admin:
            raise EngineError("not_host", "only the host or a server admin can decide")
        async with table.lock:
            if table.waiting_now is None:
                raise EngineError("not_waiting", "the table waits for nobody")
            await self.forfeit(table)
        return table

    async def forfeit(self, table: Table) -> None:
        """The absent player's party gives the game up and it is booked (the caller holds
        the lock). Before their party is known (Vorbehalt, an open Hochzeit) nobody can lose
        it: a bot takes the seat as under ``bot``, until the player comes back.
        """
        waiting = table.waiting_now
        game = table.game
        assert waiting is not None and game is not None
        seat = table.seating.index(waiting.seat)
        if not game.can_concede(seat):
            async with self.db.transaction():
                with table.kept_if_unstored():
                    await self._hand_to_bot(table, waiting.seat)
            return
        game.concede(seat)
        table.waiting = None
        try:
            await self.play.book(table)
        except StoreError as error:
            # The game stays finished in memory; the table's AI driver books it once the
            # store takes it (Playing.unbooked), as any finished game.
            log.warning("table %s: the given-up game was not booked (%s)", table.id, error)

    async def _hand_to_bot(self, table: Table, seat: int) -> None:
        info = table.seats[seat]
        assert info is not None and info.user_id is not None
        level = table.ai_level
        await away.set_away(self.db, table.id, seat, info.user_id, level)  # type: ignore[arg-type]
        table.seats[seat] = replace(info, ai_level=level, away=True)
        table.waiting = None
        await self.play.bump(table)
