"""Tournament standings: points across rounds, ranks, CSV export, organiser corrections.

A player's tournament points are the sum of his game scores, as on the DDV score sheet;
equal points share a rank (1, 2, 2, 4). AI substitutes play and score like anyone at the
table, but take no place in the standings.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.rules.round import SoloKind
from bot.tournament.participants import Participant, PlayerId, is_substitute, participant_key


@dataclass(frozen=True, slots=True, order=True)
class GameRef:
    """A game of the tournament: round, table and its line in the table's Spielliste (1-based)."""

    round_number: int
    table: int
    game: int

    def __str__(self) -> str:
        return f"round {self.round_number}, table {self.table}, game {self.game}"


Scores = tuple[tuple[Participant, int], ...]


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game's line of the Spielliste: a score for every seat of the table.

    At a five-table the dealer sits out and scores 0 (``sitting_out``). The scores of a
    game sum to zero (TSR 7.3); the parity check is left out, as it is waived at a
    five-table and broken by penalty points.
    """

    ref: GameRef
    scores: Scores
    sitting_out: Participant | None = None
    soloist: Participant | None = None
    solo_kind: SoloKind | None = None

    def __post_init__(self) -> None:
        seats = [p for p, _ in self.scores]
        if len(set(seats)) != len(seats):
            raise ValueError(f"{self.ref}: a participant is listed twice")
        if len(seats) != (4 if self.sitting_out is None else 5):
            raise ValueError(f"{self.ref}: a game has four players, plus a sitting-out dealer")
        if self.sitting_out is not None and self.points_of(self.sitting_out) != 0:
            raise ValueError(f"{self.ref}: the sitting-out dealer scores 0")
        if sum(points for _, points in self.scores) != 0:
            raise ValueError(f"{self.ref}: the scores do not sum to zero")
        if self.soloist is not None and self.soloist not in self.players:
            raise ValueError(f"{self.ref}: the soloist must be one of the four players")
        if self.solo_kind is not None and self.soloist is None:
            raise ValueError(f"{self.ref}: a solo needs its soloist")

    @property
    def players(self) -> tuple[Participant, ...]:
        """The four who played (the sitting-out dealer left out)."""
        return tuple(p for p, _ in self.scores if p != self.sitting_out)

    def points_of(self, participant: Participant) -> int:
        for p, points in self.scores:
            if p == participant:
                return points
        raise KeyError(participant)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a standings table; ``won`` counts games with a positive score."""

    rank: int
    participant: Participant
    points: int
    games: int
    won: int
    solos: int
    vorgefuehrt: int


Standings = tuple[StandingRow, ...]


@dataclass
class _Tally:
    points: int = 0
    games: int = 0
    won: int = 0
    solos: int = 0
    vorgefuehrt: int = 0


def standings(
    games: Iterable[GameScore],
    *,
    round_number: int | None = None,
    table: int | None = None,
    include_substitutes: bool = False,
) -> Standings:
    """Rank the participants of ``games`` (optionally of one round, or one table of it).

    Substitutes are left out unless ``include_substitutes`` (e.g. for one table's sheet).
    Equal points share a rank; within it rows are ordered by participant.
    """
    tallies: dict[Participant, _Tally] = {}
    for game in games:
        if round_number is not None and game.ref.round_number != round_number:
            continue
        if table is not None and game.ref.table != table:
            continue
        for participant, points in game.scores:
            if is_substitute(participant) and not include_substitutes:
                continue
            tally = tallies.setdefault(participant, _Tally())
            tally.points += points
            if participant == game.sitting_out:
                continue
            tally.games += 1
            tally.won += int(points > 0)
            if participant == game.soloist and game.solo_kind is not None:
                tally.solos += 1
                tally.vorgefuehrt += int(game.solo_kind is SoloKind.VORGEFUEHRT)
    order = sorted(tallies, key=lambda p: (-tallies[p].points, participant_key(p)))
    rows: list[StandingRow] = []
    for position, participant in enumerate(order, start=1):
        t = tallies[participant]
        shares = rows and rows[-1].points == t.points
        rank = rows[-1].rank if shares else position
        rows.append(
            StandingRow(rank, participant, t.points, t.games, t.won, t.solos, t.vorgefuehrt)
        )
    return tuple(rows)


def round_standings(games: Iterable[GameScore]) -> dict[int, Standings]:
    """The standings of each round on its own, by round number."""
    listed = list(games)
    numbers = sorted({g.ref.round_number for g in listed})
    return {n: standings(listed, round_number=n) for n in numbers}


def table_standings(
    games: Iterable[GameScore], round_number: int, *, include_substitutes: bool = True
) -> dict[int, Standings]:
    """The standings of each table of one round, by table number."""
    listed = [g for g in games if g.ref.round_number == round_number]
    tables = sorted({g.ref.table for g in listed})
    return {t: standings(listed, table=t, include_substitutes=include_substitutes) for t in tables}


def tournament_points(rows: Iterable[StandingRow]) -> dict[Participant, int]:
    """Points by participant, as seating by standing takes them."""
    return {row.participant: row.points for row in rows}


CSV_HEADER = ("rank", "player", "player_id", "points", "games", "won", "solos", "vorgefuehrt")


def results_csv(rows: Iterable[StandingRow], names: Mapping[Participant, str] | None = None) -> str:
    """The standings as comma-separated text with a header row (RFC 4180 quoting, CRLF).

    ``player`` is the display name when ``names`` has one, else the id; substitutes show as
    "KI n" with an empty ``player_id``. Plain integers only, so no decimal-comma trouble.
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for row in rows:
        p = row.participant
        name = (names or {}).get(p, str(p))
        player_id = "" if is_substitute(p) else str(p)
        writer.writerow(
            (row.rank, name, player_id, row.points, row.games, row.won, row.solos, row.vorgefuehrt)
        )
    return out.getvalue()


# -- organiser corrections ----------------------------------------------------------------


class CorrectionError(ValueError):
    """A correction that cannot be applied."""


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One correction as the audit log keeps it: what changed, why, by whom and when."""

    ref: GameRef
    before: Scores
    after: Scores
    reason: str
    by: PlayerId
    at: datetime


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """Every scored game of a tournament, with the audit log of its corrections."""

    games: tuple[GameScore, ...]
    audit: tuple[AuditEntry, ...] = field(default=())

    def game(self, ref: GameRef) -> GameScore:
        for game in self.games:
            if game.ref == ref:
                return game
        raise KeyError(ref)


def apply_correction(
    results: TournamentResults,
    ref: GameRef,
    new_scores: Mapping[Participant, int],
    reason: str,
    *,
    by: PlayerId,
    at: datetime,
) -> tuple[TournamentResults, AuditEntry]:
    """Results with game ``ref`` rescored, and the audit entry recording it.

    The reason is required; the new scores must cover the same seats, sum to zero and leave
    a sitting-out dealer at 0. ``at`` must carry its time zone.
    """
    if not reason.strip():
        raise CorrectionError("a correction needs a reason")
    if at.tzinfo is None:
        raise CorrectionError("the time of a correction needs its time zone")
    try:
        old = results.game(ref)
    except KeyError:
        raise CorrectionError(f"no game at {ref}") from None
    if set(new_scores) != {p for p, _ in old.scores}:
        raise CorrectionError(f"{ref}: the corrected scores must name the same players")
    after = tuple((p, new_scores[p]) for p, _ in old.scores)
    if after == old.scores:
        raise CorrectionError(f"{ref}: the scores are unchanged")
    try:
        corrected = replace(old, scores=after)
    except ValueError as error:
        raise CorrectionError(str(error)) from None
    entry = AuditEntry(ref, old.scores, after, reason.strip(), by, at)
    games = tuple(corrected if g.ref == ref else g for g in results.games)
    return TournamentResults(games, (*results.audit, entry)), entry
