"""The server leaderboard by periods and pages, the rating list and a player's figures.

Periods are whole calendar months and seasons in UTC, as the standings sums count days.
A season is a quarter of the year (January–March is season 1): long enough for a regular
table to play a good number of games, short enough that a new season starts fair soon.

The rating shown to players is OpenSkill's conservative estimate μ − 3σ, as
``1000 + 40 · (μ − 3σ)``: a newcomer (μ 25, σ 25/3) starts at exactly 1000, and the
estimate rises as games show how well someone plays. The factor puts OpenSkill's small
numbers on the familiar scale of chess ratings (hundreds apart, no decimals), and being
conservative, a lucky streak in a few games cannot put anyone on top: the rating list
also leaves out players with fewer than ``MIN_RATED_GAMES`` games on the server.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from typing import Final, Literal

from db import ratings, standings
from db.database import Database
from db.rows import Period, RatingRow

PAGE_SIZE: Final = 20
MIN_RATED_GAMES: Final = 10
RATING_BASE: Final = 1000
RATING_SCALE: Final = 40

ZeitraumKind = Literal["all", "month", "season"]
Order = Literal["points", "rating"]
ORDERS: Final[tuple[Order, ...]] = ("points", "rating")

_KEY = re.compile(r"^(?:all|([ms])(\d{4})-(\d{1,2}))$")
_MONTH_TEXTS = (
    re.compile(r"^(?P<year>\d{4})-(?P<month>\d{1,2})$"),  # 2026-11
    re.compile(r"^(?P<month>\d{1,2})[./](?P<year>\d{4})$"),  # 11.2026, 11/2026
)


@dataclass(frozen=True, slots=True)
class Zeitraum:
    """The games a leaderboard or a player's figures count: all, a month or a season."""

    kind: ZeitraumKind = "all"
    year: int = 0
    number: int = 0
    """The month (1–12) or the season (1–4); 0 for all time."""

    def __post_init__(self) -> None:
        top = {"all": 0, "month": 12, "season": 4}[self.kind]
        if self.kind == "all" and (self.year or self.number):
            raise ValueError("all time has no year or number")
        if self.kind != "all" and not (1 <= self.number <= top and 1970 <= self.year <= 9999):
            raise ValueError(f"no {self.kind} {self.number}/{self.year}")

    @classmethod
    def month_of(cls, day: date) -> Zeitraum:
        return cls("month", day.year, day.month)

    @classmethod
    def season_of(cls, day: date) -> Zeitraum:
        return cls("season", day.year, (day.month - 1) // 3 + 1)

    @classmethod
    def last_month(cls, today: date) -> Zeitraum:
        if today.month == 1:
            return cls("month", today.year - 1, 12)
        return cls("month", today.year, today.month - 1)

    @property
    def months(self) -> tuple[int, int]:
        """The first and last month it covers (both 0 for all time)."""
        if self.kind == "month":
            return self.number, self.number
        if self.kind == "season":
            return 3 * self.number - 2, 3 * self.number
        return 0, 0

    @property
    def period(self) -> Period:
        """The store's days for this Zeitraum."""
        if self.kind == "all":
            return Period.all_time()
        first, last = self.months
        end = calendar.monthrange(self.year, last)[1]
        return Period.season(date(self.year, first, 1), date(self.year, last, end))

    @property
    def key(self) -> str:
        """A short text for a custom id: ``all``, ``m2026-11``, ``s2026-4``."""
        if self.kind == "all":
            return "all"
        return f"{self.kind[0]}{self.year}-{self.number}"

    @classmethod
    def from_key(cls, key: str) -> Zeitraum:
        """The Zeitraum of a ``key``; ``ValueError`` for anything else."""
        match = _KEY.match(key)
        if match is None:
            raise ValueError(f"no Zeitraum key: {key!r}")
        if key == "all":
            return cls()
        kind: ZeitraumKind = "month" if match[1] == "m" else "season"
        return cls(kind, int(match[2]), int(match[3]))


def parse_month(text: str) -> Zeitraum:
    """A month as a player types it: ``2026-11``, ``11.2026`` or ``11/2026``."""
    for pattern in _MONTH_TEXTS:
        match = pattern.match(text.strip())
        if match is not None:
            return Zeitraum("month", int(match["year"]), int(match["month"]))
    raise ValueError(f"no month: {text!r}")


ZEITRAUM_CHOICES: Final = ("gesamt", "monat", "saison", "letzter_monat")


def resolve(choice: str, month_text: str | None, today: date) -> Zeitraum:
    """The Zeitraum a command asks for: a typed month (see :func:`parse_month`) before the
    choice (``ZEITRAUM_CHOICES``: all, this month, this season, last month); ``ValueError``
    for a month that cannot be read.
    """
    if month_text:
        return parse_month(month_text)
    if choice == "monat":
        return Zeitraum.month_of(today)
    if choice == "saison":
        return Zeitraum.season_of(today)
    if choice == "letzter_monat":
        return Zeitraum.last_month(today)
    return Zeitraum()


def rating_figure(rating: RatingRow) -> int:
    """The rating as players read it: ``1000 + 40 · (μ − 3σ)``, rounded."""
    return round(RATING_BASE + RATING_SCALE * rating.ordinal)


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One line of a leaderboard page."""

    rank: int
    name: str
    points: int
    games: int
    wins: int
    rating: int | None = None
    """The rating figure (on a rating list); None on a points list."""


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One page of the server's leaderboard, by points over a Zeitraum or by rating.

    ``page`` counts from 0 and is the page shown: a page asked for beyond the end (an old
    button, the list got shorter) shows the last one, and ``asked`` tells.
    """

    zeitraum: Zeitraum
    order: Order
    page: int
    pages: int
    total: int
    lines: tuple[BoardLine, ...]
    asked: int
    min_games: int = MIN_RATED_GAMES

    @property
    def moved(self) -> bool:
        """The page asked for no longer exists: this is the last one instead."""
        return self.asked != self.page


async def board_page(
    db: Database, guild_id: int, zeitraum: Zeitraum, order: Order, page: int
) -> BoardPage:
    """Page ``page`` (from 0) of the guild's leaderboard. A rating list is always all time:
    a rating sums up every game, not a month's.
    """
    if order == "rating":
        zeitraum = Zeitraum()
        total = await ratings.count_rated(db, guild_id, MIN_RATED_GAMES)
    else:
        total = await standings.count_standings(db, guild_id, zeitraum.period)
    pages = max(1, -(-total // PAGE_SIZE))
    shown = min(max(0, page), pages - 1)
    offset = shown * PAGE_SIZE
    lines: tuple[BoardLine, ...]
    if order == "rating":
        rated = await ratings.rating_list(
            db, guild_id, MIN_RATED_GAMES, offset=offset, limit=PAGE_SIZE
        )
        lines = tuple(
            BoardLine(r.rank, r.display_name, 0, r.rating.games, 0, rating_figure(r.rating))
            for r in rated
        )
    else:
        rows = await standings.guild_standings(
            db, guild_id, zeitraum.period, offset=offset, limit=PAGE_SIZE
        )
        lines = tuple(
            BoardLine(r.rank, r.display_name or "?", r.points, r.games, r.wins) for r in rows
        )
    return BoardPage(zeitraum, order, shown, pages, total, lines, page)


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """A player's figures on one server over a Zeitraum, and their rating (all time)."""

    zeitraum: Zeitraum
    rank: int
    games: int
    points: int
    wins: int
    solos: int
    solos_won: int
    re_games: int
    called: int
    """Games in which the player made an Ansage or Absage (counted since version 14)."""
    called_won: int
    running: tuple[int, ...]
    """The player's points after each of these games, in the order played."""
    rating: int
    rated_games: int
    rating_rank: int | None
    """Place on the rating list; None below ``min_games`` rated games."""
    min_games: int = MIN_RATED_GAMES

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0


async def player_figures(
    db: Database, guild_id: int, user_id: int, zeitraum: Zeitraum
) -> PlayerFigures | None:
    """The user's figures over ``zeitraum``; None without a finished game in it."""
    games = await standings.player_games(db, guild_id, user_id, zeitraum.period)
    if not games:
        return None
    standing = await standings.player_standing(db, guild_id, user_id, zeitraum.period)
    rating = await ratings.get_rating(db, guild_id, user_id)
    rating_rank = None
    if rating.games >= MIN_RATED_GAMES:
        rating_rank = await ratings.rating_rank(db, guild_id, rating, MIN_RATED_GAMES)
    running: list[int] = []
    total = 0
    for game in games:
        total += game.points
        running.append(total)
    solos = [g for g in games if g.is_solo and g.party == "re"]
    called = [g for g in games if g.called]
    return PlayerFigures(
        zeitraum=zeitraum,
        rank=standing.rank if standing is not None else 0,
        games=len(games),
        points=total,
        wins=sum(g.won for g in games),
        solos=len(solos),
        solos_won=sum(g.won for g in solos),
        re_games=sum(g.party == "re" for g in games),
        called=len(called),
        called_won=sum(g.won for g in called),
        running=tuple(running),
        rating=rating_figure(rating),
        rated_games=rating.games,
        rating_rank=rating_rank,
    )
