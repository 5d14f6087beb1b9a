"""Restart recovery: rebuild open tables from the store, re-arm their timers, and, with
several processes on one database, renew the leases and take over tables whose lease ran out.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from bot.engine.ai_turns import AITurns
from bot.engine.model import SeatInfo
from bot.engine.ownership import Ownership
from bot.engine.play import list_entry
from bot.engine.tables import Table, Tables, bot_name, seating_of
from bot.engine.timers import TURN_TIMER_KIND, Timers
from bot.rules.game import Game
from bot.rules.records import action_from_dict, deal_from_dict
from bot.rules.ruleset import Ruleset
from bot.tournament.pflichtsolo import TableRound
from db import actions, away, challenges, games, players, sessions, tables, timers

log = logging.getLogger(__name__)

_FOREVER = timedelta(days=3650)  # every stored timer, however far off


class Recovery:
    """Loads tables from the store on start-up and on takeover; keeps the leases."""

    def __init__(self, tables: Tables, ownership: Ownership, timers: Timers, ai: AITurns) -> None:
        self.tables = tables
        self.db = tables.db
        self.ownership = ownership
        self.timers = timers
        self.ai = ai
        # Open tables of our guilds that another process still holds (it may be restarting):
        # claimed and taken over once its lease runs out.
        self._waiting: set[int] = set()
        self._lease_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Rebuild every open table from the store and re-arm its timers.

        Sharded, only the tables of this process's guilds, and of those only the ones it can
        claim; the others are retried while the leases are renewed.
        """
        for row in await tables.list_open_tables(self.db):
            if not self.ownership.owns_guild(row.guild_id):
                continue
            if not await self.ownership.claim(row.id):
                log.info("table %s is held by another process; waiting for its lease", row.id)
                self._waiting.add(row.id)
                continue
            self.tables.add(await self.load(row.id))
        for timer in await timers.list_timers(self.db, due_by=self.tables.clock() + _FOREVER):
            table = self.tables.lookup(timer.table_id) if timer.table_id is not None else None
            if timer.kind == TURN_TIMER_KIND and table is not None:
                self.timers.arm(table, timer.fires_at, timer.payload)
        for table in self.tables.all():
            if table.status == "playing":
                self.ai.kick(table)
        if self.ownership.owner is not None:
            self._lease_task = asyncio.create_task(self._keep_leases(), name="doko-leases")
        log.info("engine started with %d open table(s)", len(self.tables.ids()))

    async def close(self) -> None:
        if self._lease_task is not None:
            self._lease_task.cancel()
            await asyncio.gather(self._lease_task, return_exceptions=True)
        if self.ownership.owner is None:
            return
        # Stopped gracefully: the next process need not wait for the leases to run out.
        for table_id in self.tables.ids():
            try:
                await self.ownership.release(table_id)
            except Exception:
                log.exception("could not release the lease on table %s", table_id)

    async def _keep_leases(self) -> None:
        """Renew our leases well before they run out; take over tables whose lease ran out."""
        interval = self.ownership.ttl.total_seconds() / 3
        while not self.tables.closed:
            await asyncio.sleep(interval)
            try:
                for table_id in await self.ownership.renew(self.tables.ids()):
                    self._drop(table_id)
                for table_id in sorted(self._waiting):
                    if not await self.ownership.claim(table_id):
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
        table = self.tables.remove(table_id)
        if table is None:
            return
        log.warning("lost the lease on table %s; another process runs it now", table_id)
        table.stop_work()
        self._waiting.add(table_id)

    async def _adopt(self, table_id: int) -> None:
        """Take over a table claimed after start-up: rebuild it, re-arm its timer, let AIs act."""
        table = await self.load(table_id)
        if table.status == "closed":
            await self.ownership.release(table_id)
            return
        self.tables.add(table)
        for timer in await timers.list_timers(self.db):
            if timer.kind == TURN_TIMER_KIND and timer.table_id == table.id:
                self.timers.arm(table, timer.fires_at, timer.payload)
        self.ai.kick(table)
        # Front ends learn of it as of a change: messages brought up to date, a waiting
        # turn pinged (a dead owner's process told nobody).
        await self.tables.publish(table)
        log.info("took over table %s", table_id)

    async def load(self, table_id: int) -> Table:
        """Rebuild one table from the store: seats, session, Spielliste, the running game."""
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
        table = Table(
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
            ai_level=row.ai_level,
            disconnect_policy=row.disconnect_policy,
            tempo_s=row.tempo_s,
            coach=row.coach,
        )
        challenge = await challenges.challenge_of_table(self.db, table_id)
        table.deal_base = None if challenge is None else challenge.seed
        session = await sessions.get_active_session(self.db, table_id)
        if session is None:
            return table
        table.session_id = session.id
        dealer = session.dealer if session.sitting_out is None else session.sitting_out
        table.round = TableRound(table.size, dealer, session.games_left, session.pflichtsolo_done)
        for game_row in await games.list_games(self.db, session.id):
            table.game_number = max(table.game_number, game_row.number)
            seating = seating_of(game_row.sitting_out)
            if game_row.status == "finished" and game_row.record is not None:
                finished = _replay(game_row.record, game_row.record.get("actions", []))
                conceded = game_row.record.get("meta", {}).get("conceded")
                if conceded is not None:  # given up by an absent player's party
                    finished.concede(conceded["seat"])
                entry = list_entry(table, finished, seating, game_row.sitting_out)
                table.spielliste.append(entry)
                table.bock = table.bock.after(len(finished.bock_triggers()), table.rules)
            elif game_row.status == "running":
                logged = await actions.load_actions(self.db, game_row.id)
                table.game = _replay(game_row.deal, logged)
                table.game_id = game_row.id
                table.live = True
                table.seating, table.sitting_out = seating, game_row.sitting_out
        return table


def _replay(deal: dict[str, object], logged: list[dict[str, object]]) -> Game:
    game = Game(deal_from_dict(deal))
    for i, a in enumerate(logged):
        game.apply(action_from_dict(a, i))
    return game
