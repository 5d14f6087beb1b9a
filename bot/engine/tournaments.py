"""Mandatory-solo tournaments on top of the engine: field, rounds, tables, standings.

Each table of a round is a normal engine table with ``games_per_round`` games in its own
channel (a thread the front end opens), so the Pflichtsolo rule, Vorführen and the
Spielliste's sum-zero check come from the rules core through the engine's round context.
The plan (seats, dealers) comes from :mod:`bot.tournament`, seeded per tournament and round,
so a round is reproducible. The start time is a durable timer (``timers`` kind
``tournament_start``), re-armed by :meth:`TournamentService.start`. Standings are derived
from the engine's stored games, with the organiser's corrections (an audit log) on top.

A field that does not divide by four sits at tables of four and five; a five-table is a
five-player engine table, where the dealer sits out each game and scores 0. Only the few
fields no mix of fours and fives seats (1–3, 6, 7, 11) are topped up with AI substitutes.
Organiser corrections change the engine's stored results too, so the server leaderboard
shows the corrected scores.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal, Protocol

from bot.engine.facade import Engine
from bot.engine.model import AI_LEVELS, EngineError, Event, SessionOver
from bot.rules.game import Game
from bot.rules.records import action_from_dict, deal_from_dict
from bot.rules.round import FiveSeating
from bot.rules.ruleset import Ruleset
from bot.tournament import (
    CorrectionError,
    GameRef,
    GameScore,
    ListedGame,
    Participant,
    PlanningError,
    RoundCheck,
    RoundPlan,
    Substitute,
    TableAssignment,
    TournamentResults,
    apply_correction,
    check_round,
    fill_with_substitutes,
    plan_round,
    results_csv,
    standings,
    tournament_points,
)
from bot.tournament.standings import AuditEntry, Standings
from db import repo
from db import tournaments as store
from db.errors import NotFoundError
from db.results import correct_points
from db.tournaments import (
    EntrantRow,
    ScoreList,
    Seating,
    TournamentRow,
    TournamentSeatRow,
    TournamentTableRow,
)

log = logging.getLogger(__name__)

START_TIMER_KIND: Final = "tournament_start"
MAX_ROUNDS: Final = 20
MAX_GAMES_PER_ROUND: Final = 100
Mode = Literal["mixing", "standing"]


class TableChannels(Protocol):
    """Opens the channel (a thread) a tournament table plays in; returns its id."""

    async def open_table_channel(
        self, tournament: TournamentRow, round_number: int, table_number: int
    ) -> int: ...


@dataclass(frozen=True, slots=True)
class SeatedTable:
    """A tournament table as players see it: where it plays and who sits where."""

    round_number: int
    number: int
    channel_id: int
    table_id: int | None
    seats: tuple[Participant, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class RoundStarted:
    tournament: TournamentRow
    round_number: int
    tables: tuple[SeatedTable, ...]


@dataclass(frozen=True, slots=True)
class TableFinished:
    tournament: TournamentRow
    table: SeatedTable
    games: tuple[GameScore, ...]
    check: RoundCheck


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    tournament: TournamentRow
    standings: Standings


TournamentEvent = RoundStarted | TableFinished | TournamentFinished
Listener = Callable[[TournamentEvent], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Overview:
    """Everything the front end shows of one tournament."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    tables: tuple[SeatedTable, ...]
    results: TournamentResults
    names: Mapping[Participant, str]
    # Per (round, table): the Spielliste as the Pflichtsolo check reads it, the first dealer.
    listed: Mapping[tuple[int, int], tuple[ListedGame, ...]]
    first_dealers: Mapping[tuple[int, int], int]

    @property
    def field(self) -> tuple[EntrantRow, ...]:
        return tuple(e for e in self.entrants if e.status == "registered")

    def standings(self, round_number: int | None = None) -> Standings:
        return standings(self.results.games, round_number=round_number)

    def table_games(self, round_number: int, number: int) -> tuple[GameScore, ...]:
        return tuple(
            g
            for g in self.results.games
            if g.ref.round_number == round_number and g.ref.table == number
        )


def encode(participant: Participant) -> int:
    """A participant as one integer: a player's id, or ``-n`` for substitute n."""
    return -participant.number if isinstance(participant, Substitute) else participant


def decode(value: int) -> Participant:
    return Substitute(-value) if value < 0 else value


class TournamentService:
    """Runs tournaments through ``engine``; the front end supplies the table channels."""

    def __init__(
        self,
        engine: Engine,
        *,
        channels: TableChannels | None = None,
        seeds: Callable[[], int] | None = None,
        fill_level: str = "leicht",
    ) -> None:
        if fill_level not in AI_LEVELS:
            raise ValueError(f"AI levels are {', '.join(AI_LEVELS)}")
        self.engine = engine
        self.db = engine.db
        self.channels = channels
        self.fill_level = fill_level
        self._seeds = seeds or (lambda: secrets.randbits(62))
        self._listeners: list[Listener] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._timer_ids: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._by_table: dict[int, int] = {}  # engine table id -> tournament id
        self._unsubscribe: Callable[[], None] | None = None
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """After ``engine.start()``: re-arm start timers, catch up on rounds that ended."""
        self._unsubscribe = self.engine.subscribe(self._on_engine_event)
        # Sharded, another process runs the tournaments of the guilds it owns.
        active = [
            t
            for t in await store.list_active_tournaments(self.db)
            if self.engine.owns_guild(t.guild_id)
        ]
        mine = {t.id for t in active}
        for tournament in active:
            for table in await store.list_tables(self.db, tournament.id):
                if table.table_id is not None:
                    self._by_table[table.table_id] = tournament.id
        for timer in await repo.list_timers(self.db):
            if timer.kind == START_TIMER_KIND and timer.tournament_id in mine:
                self._arm(int(timer.tournament_id), timer.id, timer.fires_at)
        for tournament in active:
            if tournament.current_round > 0:
                self._spawn(self._advance(tournament.id))
        log.info("tournaments started: %d active", len(active))

    async def close(self) -> None:
        self._closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def idle(self) -> None:
        """Until no round change is pending (for tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- queries --------------------------------------------------------------------------

    async def get(self, tournament_id: int) -> TournamentRow:
        try:
            return await store.get_tournament(self.db, tournament_id)
        except NotFoundError:
            raise EngineError("no_tournament", "there is no such tournament") from None

    async def find(self, guild_id: int, tournament_id: int | None = None) -> TournamentRow:
        """The given tournament of this guild, or the newest one not finished (else newest)."""
        if tournament_id is not None:
            found = await self.get(tournament_id)
            if found.guild_id != guild_id:
                raise EngineError("no_tournament", "there is no such tournament here")
            return found
        listed = await store.list_guild_tournaments(self.db, guild_id)
        if not listed:
            raise EngineError("no_tournament", "this server has no tournament")
        return next((t for t in listed if t.status != "finished"), listed[0])

    def tournament_of_table(self, table_id: int) -> int | None:
        return self._by_table.get(table_id)

    async def overview(self, tournament_id: int) -> Overview:
        tournament = await self.get(tournament_id)
        entrants = tuple(await store.list_entrants(self.db, tournament_id))
        tables = await self._seated_tables(tournament)
        played = await self._played(tournament, tables)
        results = await self._corrected(tournament, played.games)
        names: dict[Participant, str] = {e.user_id: e.display_name for e in entrants}
        return Overview(
            tournament, entrants, tables, results, names, played.listed, played.first_dealers
        )

    async def results_csv(self, tournament_id: int) -> str:
        view = await self.overview(tournament_id)
        return results_csv(view.standings(), view.names)

    async def table_check(self, tournament_id: int, round_number: int, number: int) -> RoundCheck:
        """The Pflichtsoli of one table's round, judged from its Spielliste."""
        view = await self.overview(tournament_id)
        table = next(
            (t for t in view.tables if (t.round_number, t.number) == (round_number, number)),
            None,
        )
        if table is None:
            raise EngineError("no_such_table", "the tournament has no such table")
        return self._check(view.tournament, view, table)

    # -- organising -----------------------------------------------------------------------

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
    ) -> TournamentRow:
        name = name.strip()
        if not name or len(name) > 80:
            raise EngineError("bad_name", "a tournament needs a name of 1 to 80 characters")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise EngineError("bad_rounds", f"a tournament has 1 to {MAX_ROUNDS} rounds")
        if not 1 <= games_per_round <= MAX_GAMES_PER_ROUND:
            raise EngineError("bad_games", f"a round has 1 to {MAX_GAMES_PER_ROUND} games")
        if seating not in ("mixing", "standing"):
            raise EngineError("bad_seating", "seating is by mixing or by standing")
        now = self.engine.clock()
        if starts_at is not None and starts_at <= now:
            raise EngineError("bad_start_time", "the start time must lie in the future")
        await repo.upsert_player(self.db, organiser_id, organiser_name)
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
                seed=self._seeds(),
                starts_at=starts_at,
                now=now,
            )
            if starts_at is not None:
                timer = await repo.add_timer(
                    self.db,
                    START_TIMER_KIND,
                    starts_at,
                    tournament_id=tournament.id,
                    now=now,
                )
        if starts_at is not None:
            self._arm(tournament.id, timer.id, starts_at)
        log.info("tournament %s %r created by %s", tournament.id, name, organiser_id)
        return tournament

    async def register(self, tournament_id: int, user_id: int, name: str) -> TournamentRow:
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.status in ("ending", "finished"):
                raise EngineError("registration_closed", "the tournament is over")
            entrant = await self._entrant(tournament_id, user_id)
            if entrant is not None and entrant.status == "registered":
                raise EngineError("already_registered", "you are registered already")
            if entrant is not None and entrant.status == "replaced":
                raise EngineError("replaced", "the organiser has replaced you")
            await repo.upsert_player(self.db, user_id, name)
            await store.set_entrant(
                self.db, tournament_id, user_id, "registered", now=self.engine.clock()
            )
            return tournament

    async def withdraw(self, tournament_id: int, user_id: int) -> TournamentRow:
        """Leave the field; during a round an AI substitute plays the seat on."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            entrant = await self._entrant(tournament_id, user_id)
            if entrant is None or entrant.status != "registered":
                raise EngineError("not_registered", "you are not registered")
            await self._substitute(tournament, user_id, "withdrawn")
            return tournament

    async def begin(
        self, tournament_id: int, user_id: int, *, admin: bool = False
    ) -> TournamentRow:
        """Start now (or resume after a pause): the next round is seated if none is running."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            self._require_organiser(tournament, user_id, admin)
            return await self._begin(tournament)

    async def pause(
        self, tournament_id: int, user_id: int, *, admin: bool = False
    ) -> TournamentRow:
        """No new round starts until ``begin``; tables playing now finish their round."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            self._require_organiser(tournament, user_id, admin)
            if tournament.status not in ("open", "running"):
                raise EngineError("not_running", "the tournament is not running")
            return await store.update_tournament(
                self.db, tournament, status="paused", now=self.engine.clock()
            )

    async def replace(
        self, tournament_id: int, by: int, player_id: int, *, admin: bool = False
    ) -> Substitute | None:
        """An AI substitute takes the player's seat from the running game on, and his place
        in later rounds. Returns the substitute when one sat down at a table now."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            self._require_organiser(tournament, by, admin)
            entrant = await self._entrant(tournament_id, player_id)
            if entrant is None or entrant.status != "registered":
                raise EngineError("not_registered", "that player is not in the field")
            return await self._substitute(tournament, player_id, "replaced")

    async def correct(
        self,
        tournament_id: int,
        by: int,
        ref: GameRef,
        scores: Mapping[Participant, int],
        reason: str,
        *,
        admin: bool = False,
    ) -> AuditEntry:
        """Rescore one game; the reason, the old and new scores go into the audit log."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            self._require_organiser(tournament, by, admin)
            tables = await self._seated_tables(tournament)
            played = await self._played(tournament, tables)
            corrected = await self._corrected(tournament, played.games)
            try:
                _, entry = apply_correction(
                    corrected, ref, scores, reason, by=by, at=self.engine.clock()
                )
            except CorrectionError as error:
                raise EngineError("bad_correction", str(error)) from None
            stored = played.stored[ref]
            async with self.db.transaction():
                await store.add_correction(
                    self.db,
                    tournament_id,
                    round_number=ref.round_number,
                    table_number=ref.table,
                    game_number=ref.game,
                    before=_score_list(entry.before),
                    after=_score_list(entry.after),
                    reason=entry.reason,
                    by_id=by,
                    now=entry.at,
                )
                # The server leaderboard reads the engine's results: correct them as well.
                after = dict(entry.after)
                await correct_points(
                    self.db, stored.game_id, {g: after[p] for p, g in stored.seats.items()}
                )
            log.info("tournament %s: %s corrected by %s: %s", tournament_id, ref, by, reason)
            return entry

    async def correct_seats(
        self,
        tournament_id: int,
        by: int,
        ref: GameRef,
        points: list[int],
        reason: str,
        *,
        admin: bool = False,
    ) -> AuditEntry:
        """``correct`` with the new scores in the Spielliste's seat order."""
        view = await self.overview(tournament_id)
        try:
            game = view.results.game(ref)
        except KeyError:
            raise EngineError("bad_correction", f"no game at {ref}") from None
        if len(points) != len(game.scores):
            raise EngineError("bad_correction", f"{ref}: give {len(game.scores)} scores")
        scores = {p: new for (p, _), new in zip(game.scores, points, strict=True)}
        return await self.correct(tournament_id, by, ref, scores, reason, admin=admin)

    async def end(self, tournament_id: int, user_id: int, *, admin: bool = False) -> TournamentRow:
        """End early: no further round; tables still playing finish their round as the rules
        demand, so open Pflichtsoli are played (vorgeführt) before a table closes."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            self._require_organiser(tournament, user_id, admin)
            if tournament.status == "finished":
                raise EngineError("finished", "the tournament is over already")
            await self._cancel_start_timer(tournament.id)
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
                open_ = row.table_id is not None and await self._table_open(row.table_id)
                if open_ and self.engine.table(row.table_id).status == "playing":  # type: ignore[arg-type]
                    await self.engine.end_early(row.table_id, user_id, admin=True)  # type: ignore[arg-type]
        await self._advance(tournament_id)
        return await self.get(tournament_id)

    # -- rounds ---------------------------------------------------------------------------

    async def _begin(self, tournament: TournamentRow) -> TournamentRow:
        if tournament.status in ("running", "ending", "finished"):
            raise EngineError("already_started", "the tournament is running already")
        await self._cancel_start_timer(tournament.id)
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
            view = await self.overview(tournament.id)
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
        seated = tuple(t for t in await self._seated_tables(tournament) if t.round_number == number)
        log.info("tournament %s: round %s seated at %d tables", tournament.id, number, len(seated))
        await self._emit(RoundStarted(tournament, number, seated))
        return tournament

    async def _open_table(
        self, tournament: TournamentRow, number: int, assignment: TableAssignment
    ) -> None:
        if self.channels is None:
            raise EngineError("no_channels", "tables cannot be opened without a channel")
        channel_id = await self.channels.open_table_channel(tournament, number, assignment.number)
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
            organiser = await repo.get_player(self.db, host)
            info = await engine.create_table(
                guild_id=tournament.guild_id,
                channel_id=row.channel_id,
                host_id=host,
                host_name=organiser.display_name if organiser else str(host),
                # A five-table is a five-player table: the dealer sits out each game.
                rules=Ruleset.from_dict(tournament.rules).replace(players=len(seats)),
                games=tournament.games_per_round,
            )
            table_id = info.id
            row = await store.set_table(self.db, row.id, table_id=table_id, status="seating")
        self._by_table[table_id] = tournament.id
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
                    info = await engine.add_ai(table_id, host, self.fill_level, seat=seat_number)
                else:
                    name = names.get(participant, str(participant))
                    info = await engine.join(table_id, participant, name, seat=seat_number)
            await engine.start_game(table_id, host, self.fill_level, dealer=row.first_dealer)
        if row.status == "seating":
            await store.set_table(self.db, row.id, table_id=table_id, status="playing")

    async def _advance(self, tournament_id: int) -> None:
        """Close the finished tables of the current round; then the next round or the end."""
        async with self._lock(tournament_id):
            tournament = await self.get(tournament_id)
            if tournament.status == "finished" or tournament.current_round == 0:
                return
            tables = await store.list_tables(self.db, tournament.id)
            seat_rows = await store.list_seats(self.db, tournament.id)
            current = [t for t in tables if t.round_number == tournament.current_round]
            for row in current:
                if row.status == "finished":
                    continue
                if row.table_id is None or await self._table_open(row.table_id):
                    if row.table_id is None or self.engine.table(row.table_id).status == "lobby":
                        # Interrupted while opening (a restart): finish seating it.
                        await self._run_table(tournament, row, _first_seats(row, seat_rows))
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
                view = await self.overview(tournament.id)
                log.info("tournament %s finished", tournament.id)
                await self._emit(TournamentFinished(tournament, view.standings()))
            elif tournament.status == "running":
                await self._start_round(tournament, tournament.current_round + 1)

    async def _table_finished(self, tournament: TournamentRow, row: TournamentTableRow) -> None:
        view = await self.overview(tournament.id)
        key = (row.round_number, row.number)
        table = next(t for t in view.tables if (t.round_number, t.number) == key)
        games = view.table_games(*key)
        check = self._check(view.tournament, view, table)
        if not check.ok:
            log.warning(
                "tournament %s round %s table %s: %s",
                tournament.id,
                row.round_number,
                row.number,
                "; ".join(p.message for p in check.problems),
            )
        await self._emit(TableFinished(view.tournament, table, games, check))

    def _check(self, tournament: TournamentRow, view: Overview, table: SeatedTable) -> RoundCheck:
        key = (table.round_number, table.number)
        return check_round(
            view.listed.get(key, ()),
            len(table.seats),
            view.first_dealers.get(key, 0),
            tournament.games_per_round,
        )

    async def _table_open(self, table_id: int) -> bool:
        try:
            self.engine.table(table_id)
        except EngineError:
            return False
        return True

    # -- substitutes ----------------------------------------------------------------------

    async def _substitute(
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
            if row.table_id is None or not await self._table_open(row.table_id):
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
                    row.table_id, user_id, self.fill_level, by=info.host_id, admin=True
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

    # -- internals ------------------------------------------------------------------------

    async def _seated_tables(self, tournament: TournamentRow) -> tuple[SeatedTable, ...]:
        tables = await store.list_tables(self.db, tournament.id)
        seat_rows = await store.list_seats(self.db, tournament.id)
        return tuple(
            SeatedTable(
                row.round_number,
                row.number,
                row.channel_id,
                row.table_id,
                _first_seats(row, seat_rows),
                row.status == "finished",
            )
            for row in tables
        )

    async def _played(self, tournament: TournamentRow, tables: tuple[SeatedTable, ...]) -> _Played:
        """Every finished game of the tournament's tables, as the engine stored it."""
        seat_rows = await store.list_seats(self.db, tournament.id)
        rows = {
            (r.round_number, r.number): r for r in await store.list_tables(self.db, tournament.id)
        }
        games: list[GameScore] = []
        listed: dict[tuple[int, int], tuple[ListedGame, ...]] = {}
        dealers: dict[tuple[int, int], int] = {}
        stored_games: dict[GameRef, _StoredGame] = {}
        for table in tables:
            if table.table_id is None:
                continue
            key = (table.round_number, table.number)
            own = [s for s in seat_rows if s.tournament_table_id == rows[key].id]
            sheet: list[ListedGame] = []
            for stored in await store.finished_games(self.db, table.table_id):
                game = _replay(stored.record)
                result = game.result
                assert result is not None
                # Game seat g is table seat seating[g]; at a five-table the dealer sits out.
                out = stored.sitting_out
                seating = (0, 1, 2, 3) if out is None else FiveSeating(out).players
                if not sheet:
                    dealers[key] = game.deal.dealer if out is None else out
                number = stored.number
                at = [_occupant(own, seat, number) for seat in seating]
                points = [0] * len(table.seats)
                for g, seat in enumerate(seating):
                    points[seat] = result.scores[g]
                everyone = [_occupant(own, seat, number) for seat in range(len(table.seats))]
                soloist = game.soloist if game.solo_kind is not None else None
                ref = GameRef(table.round_number, table.number, number)
                games.append(
                    GameScore(
                        ref,
                        tuple(zip(everyone, points, strict=True)),
                        sitting_out=None if out is None else everyone[out],
                        soloist=None if soloist is None else at[soloist],
                        solo_kind=game.solo_kind,
                    )
                )
                stored_games[ref] = _StoredGame(stored.game_id, {p: g for g, p in enumerate(at)})
                assert game.contract is not None
                table_soloist = None if soloist is None else seating[soloist]
                sheet.append(ListedGame(game.contract, game.solo_kind, table_soloist))
            listed[key] = tuple(sheet)
        return _Played(tuple(games), listed, dealers, stored_games)

    async def _corrected(
        self, tournament: TournamentRow, games: tuple[GameScore, ...]
    ) -> TournamentResults:
        """The games with the audit log's corrections applied in order."""
        results = TournamentResults(games)
        for row in await store.list_corrections(self.db, tournament.id):
            ref = GameRef(row.round_number, row.table_number, row.game_number)
            after = {decode(p): points for p, points in row.after}
            try:
                results, _ = apply_correction(
                    results, ref, after, row.reason, by=row.by_id, at=row.created_at
                )
            except CorrectionError as error:
                log.error(
                    "tournament %s: correction %s no longer applies: %s",
                    tournament.id,
                    row.id,
                    error,
                )
        return results

    async def _entrant(self, tournament_id: int, user_id: int) -> EntrantRow | None:
        for entrant in await store.list_entrants(self.db, tournament_id):
            if entrant.user_id == user_id:
                return entrant
        return None

    def _require_organiser(self, tournament: TournamentRow, user_id: int, admin: bool) -> None:
        if user_id != tournament.organiser_id and not admin:
            raise EngineError("not_organiser", "only the organiser or a server admin can do this")

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        if self._closed:
            work.close()
            return
        task = asyncio.create_task(self._guarded(work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament work failed")

    async def _emit(self, event: TournamentEvent) -> None:
        for listener in list(self._listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("tournament listener failed on %s", type(event).__name__)

    async def _on_engine_event(self, event: Event) -> None:
        # Called under the engine table's lock: only schedule the round change.
        if isinstance(event, SessionOver) and event.table_id in self._by_table:
            self._spawn(self._advance(self._by_table[event.table_id]))

    # -- the start timer --------------------------------------------------------------------

    def _arm(self, tournament_id: int, timer_id: int, fires_at: datetime) -> None:
        old = self._timers.pop(tournament_id, None)
        if old is not None:
            old.cancel()
        self._timer_ids[tournament_id] = timer_id
        delay = max(0.0, (fires_at - self.engine.clock()).total_seconds())
        loop = asyncio.get_running_loop()
        self._timers[tournament_id] = loop.call_later(
            delay, lambda: self._spawn(self._fire_start(tournament_id, timer_id))
        )

    async def _fire_start(self, tournament_id: int, timer_id: int) -> None:
        async with self._lock(tournament_id):
            self._timers.pop(tournament_id, None)
            tournament = await self.get(tournament_id)
            if tournament.status != "open":
                await self._cancel_start_timer(tournament_id)
                return
            try:
                await self._begin(tournament)
            except EngineError as error:
                log.warning("tournament %s could not start on time: %s", tournament_id, error)
                await self._cancel_start_timer(tournament_id)

    async def _cancel_start_timer(self, tournament_id: int) -> None:
        handle = self._timers.pop(tournament_id, None)
        if handle is not None:
            handle.cancel()
        timer_id = self._timer_ids.pop(tournament_id, None)
        if timer_id is not None:
            await repo.cancel_timer(self.db, timer_id)


@dataclass(frozen=True, slots=True)
class _StoredGame:
    """Where a game's engine results are: its id and each player's game seat."""

    game_id: int
    seats: Mapping[Participant, int]


@dataclass(frozen=True, slots=True)
class _Played:
    games: tuple[GameScore, ...]
    listed: Mapping[tuple[int, int], tuple[ListedGame, ...]]
    first_dealers: Mapping[tuple[int, int], int]
    stored: Mapping[GameRef, _StoredGame]


def _replay(record: dict[str, Any]) -> Game:
    game = Game(deal_from_dict(record))
    for index, action in enumerate(record.get("actions", [])):
        game.apply(action_from_dict(action, index))
    return game


def _occupant(seats: list[TournamentSeatRow], seat: int, game: int) -> Participant:
    """Who played ``seat`` in game number ``game``: the latest seating from before it."""
    found: TournamentSeatRow | None = None
    for row in seats:
        later = found is None or row.from_game > found.from_game
        if row.seat == seat and row.from_game <= game and later:
            found = row
    assert found is not None, f"seat {seat} has no occupant"
    return _participant(found)


def _participant(row: TournamentSeatRow) -> Participant:
    if row.substitute is not None:
        return Substitute(row.substitute)
    assert row.user_id is not None
    return row.user_id


def _first_seats(
    table: TournamentTableRow, seat_rows: list[TournamentSeatRow]
) -> tuple[Participant, ...]:
    """The table as seated for the round's first game."""
    own = [s for s in seat_rows if s.tournament_table_id == table.id and s.from_game == 1]
    return tuple(_participant(s) for s in sorted(own, key=lambda s: s.seat))


def _plans(
    tables: list[TournamentTableRow], seat_rows: list[TournamentSeatRow], *, before: int
) -> list[RoundPlan]:
    """The seating history of the rounds before ``before``, as the planner takes it."""
    plans: list[RoundPlan] = []
    for number in sorted({t.round_number for t in tables if t.round_number < before}):
        assignments = tuple(
            TableAssignment(t.number, _first_seats(t, seat_rows), t.first_dealer)
            for t in tables
            if t.round_number == number
        )
        plans.append(RoundPlan(number, "mixing", assignments))
    return plans


def _score_list(scores: tuple[tuple[Participant, int], ...]) -> ScoreList:
    return [[encode(p), points] for p, points in scores]
