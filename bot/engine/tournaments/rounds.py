"""Running rounds: seat a round, open its engine tables, close them, move on, substitutes."""

from __future__ import annotations

import logging
import random
from typing import Literal

from bot.engine.model import EngineError
from bot.engine.tournaments.context import Context
from bot.engine.tournaments.model import RoundStarted, TableFinished, TournamentFinished
from bot.engine.tournaments.results import Results, first_seats
from bot.engine.tournaments.timers import StartTimers
from bot.rules.ruleset import Ruleset
from bot.tournament import (
    Participant,
    PlanningError,
    RoundPlan,
    Substitute,
    TableAssignment,
    fill_with_substitutes,
    plan_round,
    tournament_points,
)
from db import players
from db import tournaments as store
from db.tournaments import TournamentRow, TournamentSeatRow, TournamentTableRow

log = logging.getLogger(__name__)


class Rounds:
    def __init__(self, ctx: Context, results: Results, timers: StartTimers) -> None:
        self.ctx = ctx
        self.engine = ctx.engine
        self.db = ctx.db
        self.results = results
        self.timers = timers

    async def begin(self, tournament: TournamentRow) -> TournamentRow:
        if tournament.status in ("running", "ending", "finished"):
            raise EngineError("already_started", "the tournament is running already")
        await self.timers.cancel(tournament.id)
        tables = await store.list_tables(self.db, tournament.id)
        current = [t for t in tables if t.round_number == tournament.current_round]
        if tournament.current_round > 0 and any(t.status != "finished" for t in current):
            return await store.update_tournament(
                self.db, tournament, status="running", now=self.engine.clock()
            )
        if tournament.current_round >= tournament.rounds:
            raise EngineError("finished", "every round has been played")
        entrants = await store.list_entrants(self.db, tournament.id)
        field = [e.user_id for e in entrants if e.status == "registered"]
        if not field:
            raise EngineError("too_few_players", "nobody has registered")
        return await self._start_round(tournament, tournament.current_round + 1)

    async def _start_round(self, tournament: TournamentRow, number: int) -> TournamentRow:
        """Seat round ``number`` and open its tables (the caller holds the lock)."""
        tables = await store.list_tables(self.db, tournament.id)
        seat_rows = await store.list_seats(self.db, tournament.id)
        history = _plans(tables, seat_rows, before=number)
        entrants = await store.list_entrants(self.db, tournament.id)
        players: list[Participant] = [e.user_id for e in entrants if e.status == "registered"]
        # Tables of four and five seat most fields; the few others get AI substitutes.
        missing = fill_with_substitutes(len(players))
        players += [Substitute(k) for k in range(1, missing + 1)]
        rng = random.Random(f"{tournament.seed}:{number}")
        points: dict[Participant, int] | None = None
        if tournament.seating == "standing" and number > 1:
            view = await self.results.overview(tournament.id)
            points = tournament_points(view.standings())
        try:
            plan = plan_round(players, number, history, rng, tournament.seating, points)
        except PlanningError as error:
            raise EngineError("planning", str(error)) from None
        tournament = await store.update_tournament(
            self.db, tournament, status="running", current_round=number, now=self.engine.clock()
        )
        for assignment in plan.tables:
            await self._open_table(tournament, number, assignment)
        seated = tuple(
            t for t in await self.results.seated_tables(tournament) if t.round_number == number
        )
        log.info("tournament %s: round %s seated at %d tables", tournament.id, number, len(seated))
        await self.ctx.emit(RoundStarted(tournament, number, seated))
        return tournament

    async def _open_table(
        self, tournament: TournamentRow, number: int, assignment: TableAssignment
    ) -> None:
        if self.ctx.channels is None:
            raise EngineError("no_channels", "tables cannot be opened without a channel")
        channel_id = await self.ctx.channels.open_table_channel(
            tournament, number, assignment.number
        )
        row = await store.add_table(
            self.db,
            tournament.id,
            number,
            assignment.number,
            channel_id=channel_id,
            first_dealer=assignment.first_dealer,
        )
        for seat, participant in enumerate(assignment.seats):
            if isinstance(participant, Substitute):
                await store.set_seat(self.db, row.id, seat, substitute=participant.number)
            else:
                await store.set_seat(self.db, row.id, seat, user_id=participant)
        await self._run_table(tournament, row, assignment.seats)

    async def _run_table(
        self,
        tournament: TournamentRow,
        row: TournamentTableRow,
        seats: tuple[Participant, ...],
    ) -> None:
        """Open (or finish opening) the engine table, seat everyone, deal the first game."""
        engine, host = self.engine, tournament.organiser_id
        table_id = row.table_id
        if table_id is None:
            organiser = await players.get_player(self.db, host)
            info = await engine.create_table(
                guild_id=tournament.guild_id,
                channel_id=row.channel_id,
                host_id=host,
                host_name=organiser.display_name if organiser else str(host),
                # A five-table is a five-player table: the dealer sits out each game.
                rules=Ruleset.from_dict(tournament.rules).replace(players=len(seats)),
                games=tournament.games_per_round,
                ai_level=tournament.ai_level,  # the organiser's, for empty seats and stand-ins
                disconnect_policy=tournament.disconnect_policy,
                protokoll=True,  # a tournament's games are talked about: a replay thread each
            )
            table_id = info.id
            row = await store.set_table(self.db, row.id, table_id=table_id, status="seating")
        self.ctx.by_table[table_id] = tournament.id
        info = engine.table(table_id)
        if info.status == "lobby":
            names = {
                e.user_id: e.display_name for e in await store.list_entrants(self.db, tournament.id)
            }
            # create_table seats the host on seat 0: clear every seat that is not as planned.
            for seat in info.seats:
                if seat is None:
                    continue
                wanted = seats[seat.seat]
                if seat.user_id is not None and seat.user_id != wanted:
                    info = await engine.leave(table_id, seat.user_id)
            for seat_number, participant in enumerate(seats):
                if info.seats[seat_number] is not None:
                    continue
                if isinstance(participant, Substitute):
                    info = await engine.add_ai(
                        table_id, host, tournament.ai_level, seat=seat_number
                    )
                else:
                    name = names.get(participant, str(participant))
                    info = await engine.join(table_id, participant, name, seat=seat_number)
            await engine.start_game(table_id, host, tournament.ai_level, dealer=row.first_dealer)
        if row.status == "seating":
            await store.set_table(self.db, row.id, table_id=table_id, status="playing")

    async def advance(self, tournament_id: int) -> None:
        """Close the finished tables of the current round; then the next round or the end."""
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            if tournament.status == "finished" or tournament.current_round == 0:
                return
            tables = await store.list_tables(self.db, tournament.id)
            seat_rows = await store.list_seats(self.db, tournament.id)
            current = [t for t in tables if t.round_number == tournament.current_round]
            for row in current:
                if row.status == "finished":
                    continue
                if row.table_id is None or await self.ctx.table_open(row.table_id):
                    if row.table_id is None or self.engine.table(row.table_id).status == "lobby":
                        # Interrupted while opening (a restart): finish seating it.
                        await self._run_table(tournament, row, first_seats(row, seat_rows))
                    continue
                await store.set_table(self.db, row.id, table_id=row.table_id, status="finished")
                await self._table_finished(tournament, row)
            tables = await store.list_tables(self.db, tournament.id)
            current = [t for t in tables if t.round_number == tournament.current_round]
            if any(t.status != "finished" for t in current):
                return
            if tournament.status == "ending" or tournament.current_round >= tournament.rounds:
                tournament = await store.update_tournament(
                    self.db, tournament, status="finished", now=self.engine.clock()
                )
                view = await self.results.overview(tournament.id)
                log.info("tournament %s finished", tournament.id)
                await self.ctx.emit(TournamentFinished(tournament, view.standings()))
            elif tournament.status == "running":
                await self._start_round(tournament, tournament.current_round + 1)

    async def _table_finished(self, tournament: TournamentRow, row: TournamentTableRow) -> None:
        view = await self.results.overview(tournament.id)
        key = (row.round_number, row.number)
        table = next(t for t in view.tables if (t.round_number, t.number) == key)
        games = view.table_games(*key)
        check = self.results.check(view.tournament, view, table)
        if not check.ok:
            log.warning(
                "tournament %s round %s table %s: %s",
                tournament.id,
                row.round_number,
                row.number,
                "; ".join(p.message for p in check.problems),
            )
        await self.ctx.emit(TableFinished(view.tournament, table, games, check))

    async def substitute(
        self, tournament: TournamentRow, user_id: int, status: Literal["withdrawn", "replaced"]
    ) -> Substitute | None:
        now = self.engine.clock()
        await store.set_entrant(self.db, tournament.id, user_id, status, now=now)
        tables = await store.list_tables(self.db, tournament.id)
        seat_rows = await store.list_seats(self.db, tournament.id)
        used = [s.substitute for s in seat_rows if s.substitute is not None]
        for row in tables:
            if row.round_number != tournament.current_round or row.status == "finished":
                continue
            if row.table_id is None or not await self.ctx.table_open(row.table_id):
                continue
            info = self.engine.table(row.table_id)
            seat = info.seat_of(user_id)
            if seat is None:
                continue
            substitute = Substitute(max(used, default=0) + 1)
            from_game = info.game_number or 1
            if info.status == "playing":
                # For good: the seat's results now count for the substitute, not the player.
                await self.engine.replace_seat(
                    row.table_id, user_id, tournament.ai_level, by=info.host_id, admin=True
                )
            await store.set_seat(
                self.db, row.id, seat, from_game=from_game, substitute=substitute.number
            )
            log.info(
                "tournament %s: %s replaced by %s from game %s",
                tournament.id,
                user_id,
                substitute,
                from_game,
            )
            return substitute
        return None


def _plans(
    tables: list[TournamentTableRow], seat_rows: list[TournamentSeatRow], *, before: int
) -> list[RoundPlan]:
    """The seating history of the rounds before ``before``, as the planner takes it."""
    plans: list[RoundPlan] = []
    for number in sorted({t.round_number for t in tables if t.round_number < before}):
        assignments = tuple(
            TableAssignment(t.number, first_seats(t, seat_rows), t.first_dealer)
            for t in tables
            if t.round_number == number
        )
        plans.append(RoundPlan(number, "mixing", assignments))
    return plans
