"""Organising: create a tournament, the field (register, withdraw, replace), begin, pause,
end, and the start time when it comes.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Final, Literal

from bot.engine.absence import check_policy
from bot.engine.model import EngineError, check_level
from bot.engine.tournaments.context import Context, require_organiser
from bot.engine.tournaments.rounds import Rounds
from bot.engine.tournaments.timers import START_TIMER_KIND, StartTimers
from bot.rules.ruleset import Ruleset
from bot.tournament import Substitute
from db import players, timers
from db import tournaments as store
from db.tournaments import Seating, TournamentRow

log = logging.getLogger(__name__)

MAX_ROUNDS: Final = 20
MAX_GAMES_PER_ROUND: Final = 100


class Organising:
    def __init__(self, ctx: Context, rounds: Rounds, timers: StartTimers) -> None:
        self.ctx = ctx
        self.engine = ctx.engine
        self.db = ctx.db
        self.rounds = rounds
        self.timers = timers

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
        """``ai_level`` fills empty seats and stands in at its tables; ``disconnect_policy``
        says what an expired turn timer means there (the front end passes the server's
        defaults unless the organiser chose).
        """
        name = name.strip()
        if not name or len(name) > 80:
            raise EngineError("bad_name", "a tournament needs a name of 1 to 80 characters")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise EngineError("bad_rounds", f"a tournament has 1 to {MAX_ROUNDS} rounds")
        if not 1 <= games_per_round <= MAX_GAMES_PER_ROUND:
            raise EngineError("bad_games", f"a round has 1 to {MAX_GAMES_PER_ROUND} games")
        level, policy = check_level(ai_level), check_policy(disconnect_policy)
        if seating not in ("mixing", "standing"):
            raise EngineError("bad_seating", "seating is by mixing or by standing")
        now = self.engine.clock()
        if starts_at is not None and starts_at <= now:
            raise EngineError("bad_start_time", "the start time must lie in the future")
        await players.upsert_player(self.db, organiser_id, organiser_name)
        async with self.db.transaction():
            tournament = await store.create_tournament(
                self.db,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                name=name,
                preset=preset,
                rules=(rules or Ruleset()).to_dict(),
                rounds=rounds,
                games_per_round=games_per_round,
                seating=seating,
                seed=self.ctx.seeds(),
                starts_at=starts_at,
                ai_level=level,
                disconnect_policy=policy,
                now=now,
            )
            if starts_at is not None:
                timer = await timers.add_timer(
                    self.db,
                    START_TIMER_KIND,
                    starts_at,
                    tournament_id=tournament.id,
                    now=now,
                )
        if starts_at is not None:
            self.timers.arm(tournament.id, timer.id, starts_at)
        log.info("tournament %s %r created by %s", tournament.id, name, organiser_id)
        return tournament

    async def register(self, tournament_id: int, user_id: int, name: str) -> TournamentRow:
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            if tournament.status in ("ending", "finished"):
                raise EngineError("registration_closed", "the tournament is over")
            entrant = await self.ctx.entrant(tournament_id, user_id)
            if entrant is not None and entrant.status == "registered":
                raise EngineError("already_registered", "you are registered already")
            if entrant is not None and entrant.status == "replaced":
                raise EngineError("replaced", "the organiser has replaced you")
            await players.upsert_player(self.db, user_id, name)
            await store.set_entrant(
                self.db, tournament_id, user_id, "registered", now=self.engine.clock()
            )
            return tournament

    async def withdraw(self, tournament_id: int, user_id: int) -> TournamentRow:
        """Leave the field; during a round an AI substitute plays the seat on."""
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            entrant = await self.ctx.entrant(tournament_id, user_id)
            if entrant is None or entrant.status != "registered":
                raise EngineError("not_registered", "you are not registered")
            await self.rounds.substitute(tournament, user_id, "withdrawn")
            return tournament

    async def begin(
        self, tournament_id: int, user_id: int, *, admin: bool = False
    ) -> TournamentRow:
        """Start now (or resume after a pause): the next round is seated if none is running."""
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            require_organiser(tournament, user_id, admin)
            return await self.rounds.begin(tournament)

    async def pause(
        self, tournament_id: int, user_id: int, *, admin: bool = False
    ) -> TournamentRow:
        """No new round starts until ``begin``; tables playing now finish their round."""
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            require_organiser(tournament, user_id, admin)
            if tournament.status not in ("open", "running"):
                raise EngineError("not_running", "the tournament is not running")
            return await store.update_tournament(
                self.db, tournament, status="paused", now=self.engine.clock()
            )

    async def replace(
        self, tournament_id: int, by: int, player_id: int, *, admin: bool = False
    ) -> Substitute | None:
        """An AI substitute takes the player's seat from the running game on, and his place
        in later rounds. Returns the substitute when one sat down at a table now.
        """
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            require_organiser(tournament, by, admin)
            entrant = await self.ctx.entrant(tournament_id, player_id)
            if entrant is None or entrant.status != "registered":
                raise EngineError("not_registered", "that player is not in the field")
            return await self.rounds.substitute(tournament, player_id, "replaced")

    async def end(self, tournament_id: int, user_id: int, *, admin: bool = False) -> TournamentRow:
        """End early: no further round; tables still playing finish their round as the rules
        demand, so open Pflichtsoli are played (vorgeführt) before a table closes.
        """
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            require_organiser(tournament, user_id, admin)
            if tournament.status == "finished":
                raise EngineError("finished", "the tournament is over already")
            await self.timers.cancel(tournament.id)
            # Not started yet: nothing to play out, it is over at once.
            status: Literal["ending", "finished"] = (
                "ending" if tournament.current_round > 0 else "finished"
            )
            tournament = await store.update_tournament(
                self.db, tournament, status=status, now=self.engine.clock()
            )
        if status == "ending":
            # Running tables end after their current game; owed Pflichtsoli are still played.
            for row in await store.list_tables(self.db, tournament_id):
                if row.round_number != tournament.current_round or row.status == "finished":
                    continue
                open_ = row.table_id is not None and await self.ctx.table_open(row.table_id)
                if open_ and self.engine.table(row.table_id).status == "playing":  # type: ignore[arg-type]
                    await self.engine.end_early(row.table_id, user_id, admin=True)  # type: ignore[arg-type]
        await self.rounds.advance(tournament_id)
        return await self.ctx.get(tournament_id)

    async def fire_start(self, tournament_id: int, timer_id: int) -> None:
        async with self.ctx.lock(tournament_id):
            self.timers.forget(tournament_id)
            tournament = await self.ctx.get(tournament_id)
            if tournament.status != "open":
                await self.timers.cancel(tournament_id)
                return
            try:
                await self.rounds.begin(tournament)
            except EngineError as error:
                log.warning("tournament %s could not start on time: %s", tournament_id, error)
                await self.timers.cancel(tournament_id)
