"""Lobby and seats: tables opened and closed, seats taken, left, given to AIs, the start.

Each method does its work under the table's lock and returns the table; the facade then
publishes the change and lets the AIs act.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace

from bot.engine.absence import check_policy
from bot.engine.model import EngineError, SeatInfo, check_level
from bot.engine.ownership import Ownership
from bot.engine.play import Playing, dealer_columns
from bot.engine.slow import MIN_TEMPO_S
from bot.engine.tables import STAND_IN_LEVEL, Table, Tables, bot_name
from bot.rules.ruleset import Ruleset
from bot.tournament.pflichtsolo import TableRound
from db import away, games, players, replays, sessions, tables, timers


def _check_host(table: Table, user_id: int, admin: bool, what: str) -> None:
    if user_id != table.host_id and not admin:
        raise EngineError("not_host", f"only the host or a server admin can {what}")


class Lobby:
    def __init__(
        self, tables: Tables, play: Playing, ownership: Ownership, seeds: Callable[[], int]
    ) -> None:
        self.tables = tables
        self.db = tables.db
        self.play = play
        self.ownership = ownership
        self.seeds = seeds

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: Ruleset | None,
        games: int,
        turn_timer_s: int | None,
        ai_level: str = STAND_IN_LEVEL,
        disconnect_policy: str = "bot",
        protokoll: bool = False,
        tempo_s: int | None = None,
        coach: bool = False,
        deal_base: int | None = None,
    ) -> Table:
        if not self.ownership.owns_guild(guild_id):
            raise EngineError("not_owner", "another bot process runs this server's tables")
        if self.tables.in_channel(guild_id, channel_id) is not None:
            raise EngineError("table_exists", "this channel already has a table")
        if games < 1:
            raise EngineError("bad_games", "a session has at least one game")
        if turn_timer_s is not None and turn_timer_s < 5:
            raise EngineError("bad_timer", "the turn timer must be at least 5 seconds")
        level, policy = check_level(ai_level), check_policy(disconnect_policy)
        if tempo_s is not None and tempo_s < MIN_TEMPO_S:
            raise EngineError("bad_tempo", "a slow table gives at least an hour per move")
        rules = rules or Ruleset()
        async with self.db.transaction():  # all of it or, when the store fails, nothing
            await players.upsert_player(self.db, host_id, host_name)
            row = await tables.create_table(
                self.db,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                rules=rules.to_dict(),
                games_per_session=games,
                turn_timer_s=turn_timer_s,
                ai_level=level,
                now=self.tables.clock(),
                disconnect_policy=policy,
                tempo_s=tempo_s,
                coach=coach,
                ranked=deal_base is None,  # a challenge's games stay off the leaderboard
            )
            if not await self.ownership.claim(row.id):  # a new table: only a broken clock
                raise EngineError("not_owner", "another bot process holds this new table")
            await tables.set_seat(self.db, row.id, 0, user_id=host_id)
            if protokoll:  # a replay thread per finished game; off is the column's default
                await replays.set_table_replay(self.db, row.id, True)
        table = Table(
            id=row.id,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            status="lobby",
            stored_version=row.version,
            turn_timer_s=turn_timer_s,
            games_per_session=games,
            seats=[SeatInfo(0, host_id, host_name, None)] + [None] * (rules.players - 1),
            ai_level=ai_level,
            disconnect_policy=disconnect_policy,
            tempo_s=tempo_s,
            coach=coach,
            deal_base=deal_base,
        )
        self.tables.add(table)
        return table

    async def join(self, table_id: int, user_id: int, name: str, seat: int | None) -> Table:
        table = self.tables.get(table_id)
        async with self._change(table):
            own = table.find_seat(user_id)
            if own is not None:
                info = table.seats[own]
                assert info is not None
                if not info.away:
                    raise EngineError("already_seated", "you already sit at this table")
                await away.set_back(self.db, table.id, own, user_id)
                table.seats[own] = replace(info, ai_level=None, away=False, name=name)
            else:
                if table.status != "lobby":
                    raise EngineError(
                        "game_running", "the game has started; wait for the next table"
                    )
                seat = table.free_seat(seat)
                await players.upsert_player(self.db, user_id, name)
                await tables.set_seat(self.db, table.id, seat, user_id=user_id)
                table.seats[seat] = SeatInfo(seat, user_id, name, None)
            await self.play.bump(table)
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        table = self.tables.get(table_id)
        async with self._change(table):
            seat = table.seat_of(user_id)
            info = table.seats[seat]
            assert info is not None
            if table.status == "lobby":
                await tables.clear_seat(self.db, table.id, seat)
                table.seats[seat] = None
            else:
                if info.away:
                    raise EngineError("already_away", "an AI already plays for you")
                level = table.ai_level
                await away.set_away(self.db, table.id, seat, user_id, level)  # type: ignore[arg-type]
                table.seats[seat] = replace(info, ai_level=level, away=True)
            await self.play.bump(table)
        return table

    async def add_ai(self, table_id: int, user_id: int, level: str, seat: int | None) -> Table:
        table = self.tables.get(table_id)
        check_level(level)
        async with self._change(table):
            table.require_lobby()
            table.require_seated_or_host(user_id)
            seat = table.free_seat(seat)
            await self._seat_ai(table, seat, level)
            await self.play.bump(table)
        return table

    async def remove_ai(self, table_id: int, user_id: int, seat: int, admin: bool) -> Table:
        table = self.tables.get(table_id)
        # Seats are the host's to arrange: a bot someone placed is not anyone's to take off.
        _check_host(table, user_id, admin, "remove a bot")
        async with self._change(table):
            table.require_lobby()
            info = table.seats[seat] if 0 <= seat < table.size else None
            if info is None or not info.is_ai:
                raise EngineError("not_ai_seat", "there is no AI on that seat")
            await tables.clear_seat(self.db, table.id, seat)
            table.seats[seat] = None
            await self.play.bump(table)
        return table

    async def start_game(
        self, table_id: int, user_id: int, fill_level: str | None, dealer: int | None
    ) -> Table:
        """``fill_level``: the AI of the empty seats (None: the table's own level)."""
        table = self.tables.get(table_id)
        if fill_level is not None:
            check_level(fill_level)
        async with self._change(table):
            table.require_lobby()
            table.require_seated_or_host(user_id, "only players at this table can start it")
            for seat in range(table.size):
                if table.seats[seat] is None:
                    await self._seat_ai(table, seat, fill_level or table.ai_level)
            if dealer is None:
                dealer = random.Random(self.seeds()).randrange(table.size)
            elif not 0 <= dealer < table.size:
                raise EngineError("bad_seat", f"seats are numbered 0 to {table.size - 1}")
            table.round = TableRound.start(table.size, dealer, table.games_per_session)
            game_dealer, sitting_out = dealer_columns(table.round)
            session = await sessions.create_session(
                self.db,
                table.id,
                games_per_round=table.games_per_session,
                dealer=game_dealer,
                sitting_out=sitting_out,
                pflichtsolo_done=table.round.pflichtsolo_done,
                now=self.tables.clock(),
            )
            table.session_id = session.id
            await self.play.set_status(table, "playing")
            await self.play.deal(table)
        return table

    async def stop_table(self, table_id: int, user_id: int, admin: bool) -> Table:
        """Close the table at once; it leaves memory (the caller publishes the snapshot)."""
        table = self.tables.get(table_id)
        _check_host(table, user_id, admin, "stop the table")
        async with self._change(table):
            if table.live and table.game_id is not None:
                await games.abort_game(self.db, table.game_id, now=self.tables.clock())
                await self.play.end_live_game(table)
            await timers.cancel_table_timers(self.db, table.id)
            await self.play.close_session(table)
        table.stop_work()
        self.tables.remove(table.id)
        return table

    async def end_early(self, table_id: int, user_id: int, admin: bool) -> Table:
        table = self.tables.get(table_id)
        _check_host(table, user_id, admin, "end the session")
        async with self._change(table):
            if table.status != "playing" or table.round is None or table.session_id is None:
                raise EngineError("no_game", "no game is running at this table")
            # No games left: after the running game only the open Pflichtsoli are played,
            # each vorgeführt (the running game keeps the context it was dealt with).
            table.round = replace(table.round, games_left=0)
            await self.play.store_round(table)
            await self.play.bump(table)
        return table

    async def replace_seat(
        self, table_id: int, user_id: int, level: str, by: int, admin: bool
    ) -> Table:
        table = self.tables.get(table_id)
        _check_host(table, by, admin, "replace a player")
        check_level(level)
        async with self._change(table):
            seat = table.seat_of(user_id)
            await tables.clear_seat(self.db, table.id, seat)
            await self._seat_ai(table, seat, level)
            await self.play.bump(table)
        return table

    @asynccontextmanager
    async def _change(self, table: Table) -> AsyncIterator[None]:
        """The table's lock and one transaction: a change is stored whole or not at all,
        and memory is put back when the store fails (:meth:`Table.changing`).
        """
        async with table.changing(), self.db.transaction():
            yield

    async def _seat_ai(self, table: Table, seat: int, level: str) -> None:
        await tables.set_seat(self.db, table.id, seat, ai_level=level)  # type: ignore[arg-type]
        table.seats[seat] = SeatInfo(seat, None, bot_name(seat, level), level)
