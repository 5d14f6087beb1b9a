"""Standings and corrections: the games the engine stored, with the organiser's audit log."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.engine.model import EngineError
from bot.engine.tournaments.context import Context, require_organiser
from bot.engine.tournaments.model import Overview, SeatedTable, decode, encode
from bot.rules.game import Game
from bot.rules.records import action_from_dict, deal_from_dict
from bot.rules.round import FiveSeating
from bot.rules.scoring import ImpossibleGame, check_scores
from bot.tournament import (
    CorrectionError,
    GameRef,
    GameScore,
    ListedGame,
    Participant,
    RoundCheck,
    Substitute,
    TournamentResults,
    apply_correction,
    check_round,
    results_csv,
)
from bot.tournament.standings import AuditEntry
from db import tournaments as store
from db.results import correct_points
from db.tournaments import ScoreList, TournamentRow, TournamentSeatRow, TournamentTableRow

log = logging.getLogger(__name__)


class Results:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.engine = ctx.engine
        self.db = ctx.db

    async def overview(self, tournament_id: int) -> Overview:
        tournament = await self.ctx.get(tournament_id)
        entrants = tuple(await store.list_entrants(self.db, tournament_id))
        tables = await self.seated_tables(tournament)
        played = await self.played(tournament, tables)
        results = await self.corrected(tournament, played.games)
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
        return self.check(view.tournament, view, table)

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
        async with self.ctx.lock(tournament_id):
            tournament = await self.ctx.get(tournament_id)
            require_organiser(tournament, by, admin)
            tables = await self.seated_tables(tournament)
            played = await self.played(tournament, tables)
            corrected = await self.corrected(tournament, played.games)
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
        try:  # points typed in: only what one game can give its four players
            check_scores([scores[p] for p in game.players])
        except ImpossibleGame as error:
            raise EngineError(f"impossible_{error.rule}", str(error)) from None
        return await self.correct(tournament_id, by, ref, scores, reason, admin=admin)

    def check(self, tournament: TournamentRow, view: Overview, table: SeatedTable) -> RoundCheck:
        key = (table.round_number, table.number)
        return check_round(
            view.listed.get(key, ()),
            len(table.seats),
            view.first_dealers.get(key, 0),
            tournament.games_per_round,
        )

    async def seated_tables(self, tournament: TournamentRow) -> tuple[SeatedTable, ...]:
        tables = await store.list_tables(self.db, tournament.id)
        seat_rows = await store.list_seats(self.db, tournament.id)
        return tuple(
            SeatedTable(
                row.round_number,
                row.number,
                row.channel_id,
                row.table_id,
                first_seats(row, seat_rows),
                row.status == "finished",
            )
            for row in tables
        )

    async def played(self, tournament: TournamentRow, tables: tuple[SeatedTable, ...]) -> _Played:
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

    async def corrected(
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


def first_seats(
    table: TournamentTableRow, seat_rows: list[TournamentSeatRow]
) -> tuple[Participant, ...]:
    """The table as seated for the round's first game."""
    own = [s for s in seat_rows if s.tournament_table_id == table.id and s.from_game == 1]
    return tuple(_participant(s) for s in sorted(own, key=lambda s: s.seat))


def _score_list(scores: tuple[tuple[Participant, int], ...]) -> ScoreList:
    return [[encode(p), points] for p, points in scores]
