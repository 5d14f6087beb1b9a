"""Playing: a player's action (checked, stored, applied), dealing, and booking a finished game.

Every action is validated by the rules core, handed to the store writer and applied only
once it is durable; the caller holds the table's lock throughout.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.engine.model import EngineError, Event, GameOver, ListEntry, SessionOver, TrickTaken
from bot.engine.ownership import Ownership
from bot.engine.tables import Table, Tables
from bot.engine.writer import ActionWriter
from bot.rules.calls import Party
from bot.rules.game import Action, Deal, Game, IllegalActionError
from bot.rules.records import (
    action_from_dict,
    action_to_dict,
    deal_to_dict,
    game_record_to_dict,
    game_summary,
    round_to_dict,
)
from bot.rules.round import FiveSeating
from bot.tournament.duplicate import deal_seed
from bot.tournament.pflichtsolo import ListedGame, TableRound
from db import actions, games, results, sessions, tables, versions
from db.errors import DuplicateActionError, StoreError
from db.rows import SeatResult, TableStatus

log = logging.getLogger(__name__)

OnStored = Callable[[], Awaitable[None]]


class Playing:
    def __init__(
        self, tables: Tables, writer: ActionWriter, ownership: Ownership, seeds: Callable[[], int]
    ) -> None:
        self.tables = tables
        self.db = tables.db
        self.writer = writer
        self.ownership = ownership
        self.seeds = seeds

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: Action,
        version: int | None,
        on_stored: OnStored | None,
    ) -> Table:
        """A human's action: their seat, the table version, then the rules (Engine.act)."""
        table = self.tables.get(table_id)
        async with table.lock:
            if table.status != "playing" or table.game is None:
                raise EngineError("no_game", "no game is running at this table")
            seat = table.game_seat(table.seat_of(user_id))
            if version is not None and version != table.version:
                raise EngineError(
                    "stale_version",
                    "this button belongs to an earlier state of the table",
                    current_version=table.version,
                )
            if action.seat != seat:
                raise EngineError(
                    "not_your_seat", f"you play seat {seat} of this game, not {action.seat}"
                )
            await self.apply(table, action, on_stored)
        return table

    async def apply(self, table: Table, action: Action, on_stored: OnStored | None = None) -> None:
        """Validate, store, then apply (the caller holds the lock)."""
        game = table.game
        assert game is not None and table.game_id is not None
        try:
            game.validate(action)
        except IllegalActionError as err:
            raise EngineError(err.reason, str(err)) from None
        tricks_before = len(game.tricks)
        # A storage error propagates; nothing was applied then.
        try:
            cancelled = await self.writer.store(
                table.game_id, game.action_count, action_to_dict(action), self.tables.clock()
            )
        except DuplicateActionError:
            # The store holds more than memory: an earlier write was refused as failed but
            # went through (a connection lost during COMMIT). Catch up, then refuse.
            await self._catch_up(table)
            raise EngineError(
                "stale_version",
                "the table has moved on",
                current_version=table.version,
                caught_up=True,
            ) from None
        try:
            if on_stored is not None:
                await on_stored()
        except Exception:
            # The action is stored: it is applied whatever became of the acknowledgement,
            # or memory would fall behind the store and refuse every later action.
            log.exception("acknowledging a stored action at table %s failed", table.id)
        game.apply(action)
        if len(game.tricks) > tricks_before:
            trick = game.tricks[-1]
            assert trick.winner is not None
            await self.tables.emit(
                TrickTaken(table.id, len(game.tricks), trick.winner, trick.augen)
            )
        if game.finished:
            try:
                await self.book(table)
            except StoreError:
                # The game's last action is stored and stays applied; booking it is left
                # to the table's AI driver, which retries until the store takes it.
                log.warning("booking the game at table %s failed; retrying", table.id)
        if cancelled:
            raise asyncio.CancelledError

    async def _catch_up(self, table: Table) -> None:
        """Apply the running game's stored actions that memory lacks."""
        game = table.game
        assert game is not None and table.game_id is not None
        stored = await actions.load_actions(self.db, table.game_id)
        for seq in range(game.action_count, len(stored)):
            game.apply(action_from_dict(stored[seq], seq))
            log.warning("table %s: caught up with stored action %s", table.id, seq)
        if self.unbooked(table):
            await self.book(table)

    @staticmethod
    def unbooked(table: Table) -> bool:
        """The running game is over but not yet booked (a store error, a restart)."""
        return table.live and table.game is not None and table.game.finished

    async def book(self, table: Table) -> None:
        """Book the finished game, deal the next or close the session, all in one
        transaction; on a store error memory is put back as it was and the error raised.
        The caller holds the lock.
        """
        events: list[Event] = []
        with table.kept_if_unstored():
            async with self.db.transaction():
                await self._finish_game(table, events)
        for event in events:
            await self.tables.emit(event)
        if table.status == "closed":
            self.tables.free_channel(table)
            # The closed table leaves memory once this change is through (it stays stored).
            asyncio.get_running_loop().call_soon(self.tables.remove, table.id)

    async def bump(self, table: Table) -> None:
        """One more version for a change outside the game (seats, round, status)."""
        row = await tables.update_table(self.db, table.id, table.stored_version)
        table.stored_version = row.version

    async def set_status(self, table: Table, status: TableStatus) -> None:
        row = await tables.update_table(self.db, table.id, table.stored_version, status=status)
        table.stored_version = row.version
        table.status = status

    async def end_live_game(self, table: Table) -> None:
        """The running game is over: store a version past all of its actions (in the caller's
        transaction, together with the game's new status).
        """
        version = table.version
        await versions.advance_table_version(
            self.db, table.id, table.stored_version, version + 1, now=self.tables.clock()
        )
        table.stored_version = version + 1
        table.live = False

    async def deal(self, table: Table) -> None:
        assert table.session_id is not None and table.round is not None
        seed = self._deal_seed(table)
        # Five players: the dealer sits out, the four others take game seats 0..3 from his
        # left, and the game's dealer seat is his right neighbour (FiveSeating).
        slot = table.round.slot()
        deal = Deal.shuffled(
            seed,
            slot.game_dealer,
            slot.context,
            table.rules,
            bock=table.bock.multiplier(table.rules),
        )
        table.game_number += 1
        row = await games.create_game(
            self.db,
            table.session_id,
            number=table.game_number,
            ruleset=table.rules.to_dict(),
            deal=deal_to_dict(deal),
            seed=seed,
            dealer=slot.game_dealer,
            sitting_out=slot.sitting_out,
            round_context=round_to_dict(slot.context),
            now=self.tables.clock(),
        )
        table.seating, table.sitting_out = slot.table_seats, slot.sitting_out
        table.game = Game(deal)
        table.game_id = row.id
        table.live = True
        await self.bump(table)

    def _deal_seed(self, table: Table) -> int:
        """A fresh seed, or a challenge's fixed one: deal n alike for everyone (a deal
        thrown in is dealt again from a seed of its history).
        """
        if table.deal_base is None:
            return self.seeds()
        again = table.game is not None and table.game.redeal is not None
        attempt = table.game_number if again else 0
        return deal_seed(table.deal_base, len(table.spielliste), attempt)

    async def store_round(self, table: Table) -> None:
        """Write the round state (games left, Pflichtsolo flags, next dealer) to the session."""
        assert table.round is not None and table.session_id is not None
        game_dealer, sitting_out = dealer_columns(table.round)
        await sessions.update_round_context(
            self.db,
            table.session_id,
            games_left=table.round.games_left,
            pflichtsolo_done=table.round.pflichtsolo_done,
            dealer=game_dealer,
            sitting_out=sitting_out,
        )

    async def close_session(self, table: Table) -> None:
        """The table's session is over (or stopped): the table closes and is let go (the
        caller frees its channel once this is stored).
        """
        if table.session_id is not None:
            await sessions.finish_session(self.db, table.session_id, now=self.tables.clock())
        await self.set_status(table, "closed")
        await self.ownership.release(table.id)

    async def _finish_game(self, table: Table, events: list[Event]) -> None:
        """Book the finished game (in the caller's transaction); ``events`` gets what to
        tell once it is stored.
        """
        game = table.game
        assert game is not None and table.game_id is not None
        now = self.tables.clock()
        if game.redeal is not None:
            # Thrown in or an Armut nobody took: no score, same dealer, same round, same Bock.
            await games.abort_game(self.db, table.game_id, now=now)
            await self.end_live_game(table)
            await self.deal(table)
            return
        await results.finish_game(
            self.db,
            table.game_id,
            _seat_results(table, game),
            _record(table, game),
            now=now,
        )
        await self.end_live_game(table)
        entry = list_entry(table, game, table.seating, table.sitting_out)
        table.spielliste.append(entry)
        events.append(GameOver(table.id, table.game_id, entry, game_summary(game)))
        assert table.round is not None
        table.round = table.round.after(_listed(game, table.seating))
        table.bock = table.bock.after(len(game.bock_triggers()), table.rules)
        await self.store_round(table)
        if not _session_done(table):
            await self.deal(table)
            return
        await self.close_session(table)
        events.append(SessionOver(table.id, tuple(table.spielliste)))


def dealer_columns(round: TableRound) -> tuple[int, int | None]:
    """The stored dealer: the game's dealer seat, plus the table seat sitting out (five)."""
    if round.size == 5:
        return FiveSeating.GAME_DEALER, round.dealer
    return round.dealer, None


def list_entry(
    table: Table, game: Game, seating: tuple[int, int, int, int], sitting_out: int | None
) -> ListEntry:
    """The finished ``game``'s line of the table's Spielliste (columns by table seat)."""
    result = game.result
    assert result is not None
    scores = [0] * table.size  # the one sitting out scores 0
    for seat, table_seat in enumerate(seating):
        scores[table_seat] = result.scores[seat]
    before = table.spielliste[-1].totals if table.spielliste else (0,) * table.size
    totals = tuple(a + b for a, b in zip(before, scores, strict=True))
    if sum(scores) != 0 or sum(totals) != 0:
        # The Spielliste's sum-zero check (TSR 7.3): a broken sheet must never be stored.
        raise RuntimeError(f"scores {result.scores} of table {table.id} do not sum to zero")
    return ListEntry(
        number=len(table.spielliste) + 1,
        contract=str(game.contract),
        solo_kind=str(game.solo_kind) if game.solo_kind else None,
        soloist=None if game.soloist is None else seating[game.soloist],
        game_value=result.game_value,
        scores=tuple(scores),
        totals=totals,
        seats=seating,
        sitting_out=sitting_out,
    )


def _session_done(table: Table) -> bool:
    ctx = table.round
    assert ctx is not None
    if not (table.rules.pflichtsolo_enabled and table.rules.solos_enabled):
        return ctx.games_left <= 0
    return ctx.finished


def _seat_results(table: Table, game: Game) -> list[SeatResult]:
    """The stored result of each game seat (the one sitting out has none)."""
    result = game.result
    assert result is not None
    seat_results = []
    callers = {seat for seat, _, _ in game.calls}
    for seat in range(4):
        info = table.seats[table.seating[seat]]
        assert info is not None
        party = game.parties[seat]
        assert party is not None
        seat_results.append(
            SeatResult(
                seat=seat,
                party=str(party),  # type: ignore[arg-type]
                augen=result.re_augen if party is Party.RE else result.kontra_augen,
                points=result.scores[seat],
                contract=str(game.contract),
                is_solo=result.solo,
                won=result.winner is party,
                player_id=info.user_id,
                ai_level=info.ai_level if info.user_id is None else None,  # type: ignore[arg-type]
                called=seat in callers,
            )
        )
    return seat_results


def _record(table: Table, game: Game) -> dict[str, Any]:
    """The ``doko-game/1`` record, its ``meta`` naming the four who played (by game seat)
    and, at a five-player table, the dealer who sat out.
    """
    record = game_record_to_dict(game)
    players = []
    for seat in table.seating:
        info = table.seats[seat]
        players.append({"table_seat": seat, "name": info.name if info else "?"})
    meta: dict[str, Any] = {"table": table.id, "game": table.game_number, "players": players}
    if table.sitting_out is not None:
        out = table.seats[table.sitting_out]
        meta["sitting_out"] = {"table_seat": table.sitting_out, "name": out.name if out else "?"}
    if game.conceded_by is not None:  # the absent player's party gave the game up
        meta["conceded"] = {"seat": game.conceded_by}
    record["meta"] = meta
    return record


def _listed(game: Game, seating: tuple[int, int, int, int]) -> ListedGame:
    """A finished game as the round's bookkeeping takes it (the soloist as a table seat)."""
    assert game.contract is not None
    soloist = None if game.soloist is None else seating[game.soloist]
    return ListedGame(game.contract, game.solo_kind, soloist)
