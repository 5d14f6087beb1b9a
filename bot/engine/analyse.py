"""Spielanalyse and the coach's Tipp for the front ends: the AI's rating of a player's own
decisions, run in a worker thread (``asyncio.to_thread``) off the event loop.

The analysis of a game seat is kept once computed (the last ``KEPT``), so a second click
answers at once. Only the seat the asking user played is ever analysed.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from bot.ai.analysis import PLAYOUTS, Analysis, MissedCall, Mistake, Tip, analyse, tip
from bot.ai.contract import HouseOption
from bot.engine import queries
from bot.rules.records import game_record_from_dict
from bot.rules.view import PlayerView, seat_decisions
from db.database import Database

KEPT = 256  # analyses kept in memory

__all__ = ["PLAYOUTS", "Analyses", "Analysis", "HouseOption", "MissedCall", "Mistake", "Tip"]


def analyse_record(record: dict[str, Any], seat: int, seed: int) -> Analysis:
    """One seat's analysis of a stored ``doko-game/1`` record (blocking: a worker's job)."""
    parsed = game_record_from_dict(record)
    return analyse(seat_decisions(parsed.deal, parsed.actions, seat), seed=seed)


class Analyses:
    """The analyses computed so far, by (game id, game seat)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.kept: OrderedDict[tuple[int, int], Analysis] = OrderedDict()

    async def of_user(self, table_id: int, game_id: int, user_id: int) -> Analysis | None:
        """The user's own seat in that finished game, analysed; None unless they played."""
        found = await queries.own_finished_game(self.db, table_id, game_id, user_id)
        if found is None:
            return None
        record, seat = found
        analysis = self.kept.get((game_id, seat))
        if analysis is None:
            analysis = await asyncio.to_thread(analyse_record, record, seat, game_id)
            self.kept[(game_id, seat)] = analysis
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return analysis

    @staticmethod
    async def tip(view: PlayerView, seed: int) -> Tip:
        """The coach's suggestion for the decision ``view`` asks for."""
        return await asyncio.to_thread(tip, view, seed)
