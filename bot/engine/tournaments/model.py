"""What the tournament service hands to front ends: seated tables, overviews, events."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.tournament import (
    GameScore,
    ListedGame,
    Participant,
    RoundCheck,
    Substitute,
    TournamentResults,
    standings,
)
from bot.tournament.standings import Standings
from db.tournaments import EntrantRow, TournamentRow


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
