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

The service is a facade (:mod:`.service`) over parts that share a :class:`.context.Context`:
organising (:mod:`.organising`: the field, begin, pause, end, the start time), running rounds
(:mod:`.rounds`), standings and corrections (:mod:`.results`), the start timers
(:mod:`.timers`).
"""

from bot.engine.tournaments.model import (
    Overview,
    RoundStarted,
    SeatedTable,
    TableChannels,
    TableFinished,
    TournamentEvent,
    TournamentFinished,
    decode,
    encode,
)
from bot.engine.tournaments.organising import MAX_GAMES_PER_ROUND, MAX_ROUNDS
from bot.engine.tournaments.service import TournamentService
from bot.engine.tournaments.timers import START_TIMER_KIND
from bot.tournament import GameRef
from db.tournaments import TournamentRow

__all__ = [
    "MAX_GAMES_PER_ROUND",
    "MAX_ROUNDS",
    "START_TIMER_KIND",
    "GameRef",
    "Overview",
    "RoundStarted",
    "SeatedTable",
    "TableChannels",
    "TableFinished",
    "TournamentEvent",
    "TournamentFinished",
    "TournamentRow",
    "TournamentService",
    "decode",
    "encode",
]
