"""The values repository functions take and return. Times are aware UTC datetimes."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from db.database import Row

JSONDict = dict[str, Any]
"""A JSON object as plain Python (what the rules core's codecs produce and consume)."""

TableStatus = Literal["lobby", "playing", "closed"]
SessionStatus = Literal["active", "finished"]
GameStatus = Literal["running", "finished", "aborted"]
AILevel = Literal["leicht", "mittel", "schwer"]
DisconnectPolicy = Literal["bot", "warten", "verloren"]
"""What a player's absence means at a table: an AI plays, the table waits, the game is lost."""
Party = Literal["re", "kontra"]
PublicLanguage = Literal["server", "de", "en"]
"""A guild's language for public messages: its Discord locale (``server``), or fixed."""


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A Discord user who has played or hosted."""

    user_id: int
    display_name: str


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild (Discord server) and its settings."""

    guild_id: int
    name: str
    default_rules: JSONDict
    """Ruleset overrides for new tables, as in ``doko-game/1`` ``rules``."""
    admin_role_id: int | None = None
    """Members with this role may do what Manage Server allows in the bot (None: no role)."""
    time_zone: str = "Europe/Berlin"
    """IANA zone in which the server gives and reads times (stored times are UTC)."""
    turn_timer_s: int | None = None
    """Seconds per turn at a new table (None: no turn timer)."""
    ai_level: AILevel = "mittel"
    """The AI level of empty seats at the start and of stand-ins at a new table."""
    public_language: PublicLanguage = "server"
    """The language of public messages (``server``: the guild's Discord locale)."""
    notify_delay_s: int | None = 20
    """The ping delay of players who have not chosen one (0: at once; None: never)."""
    disconnect_policy: DisconnectPolicy = "bot"
    """What a player's absence means at a new table (migration 0017)."""
    replay_thread: bool = False
    """Whether a new table opens a replay thread for each finished game (migration 0018)."""
    tempo_s: int | None = None
    """Seconds per move at a new slow table (None: not slow; migration 0019)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table in a channel; ``version`` grows with every change."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: JSONDict
    status: TableStatus
    turn_timer_s: int | None
    games_per_session: int
    version: int
    created_at: datetime
    updated_at: datetime
    ai_level: AILevel = "mittel"
    """The level of AIs that fill empty seats at the start and stand in for players."""
    disconnect_policy: DisconnectPolicy = "bot"
    coach: bool = False  # the coach's Tipp on its hands
    ranked: bool = True  # its games count on the leaderboard (not coached, no challenge)
    """What happens when the turn timer runs out on a human (migration 0017)."""
    tempo_s: int | None = None
    """A slow table's seconds per move, in place of the turn timer (migration 0019)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits on a seat: a human (``user_id``) or an AI (``ai_level``)."""

    table_id: int
    seat: int
    user_id: int | None
    ai_level: AILevel | None

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class SessionRow:
    """A run of games at one table (the Spielliste) and its round context.

    ``pflichtsolo_done`` has a flag per table seat (four or five). At a five-player table
    ``sitting_out`` is the next dealer's table seat (he sits his game out) and ``dealer``
    the game's dealer seat; at a four-player table ``sitting_out`` is None.
    """

    id: int
    table_id: int
    games_per_round: int
    games_left: int
    pflichtsolo_done: tuple[bool, ...]
    dealer: int
    status: SessionStatus
    started_at: datetime
    finished_at: datetime | None
    sitting_out: int | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """One deal: what is needed to replay it, and its final record once finished.

    A game has four seats; ``dealer`` is one of them. At a five-player table ``sitting_out``
    is the table seat who dealt and sat out (game seat ``k`` is table seat
    ``sitting_out + 1 + k``, modulo 5); None at a four-player table.
    """

    id: int
    session_id: int
    number: int
    ruleset: JSONDict
    deal: JSONDict
    seed: int | None
    dealer: int
    round_context: JSONDict | None
    status: GameStatus
    started_at: datetime
    finished_at: datetime | None
    record: JSONDict | None
    sitting_out: int | None = None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's outcome of a finished game (input to ``finish_game``, and stored as is)."""

    seat: int
    party: Party
    augen: int
    points: int
    contract: str
    is_solo: bool
    """The game was a solo; its soloist is the one ``re`` seat."""
    won: bool
    player_id: int | None = None
    ai_level: AILevel | None = None
    called: bool = False
    """This seat made an Ansage or Absage (Re, Kontra, keine 90 …)."""

    @classmethod
    def from_row(cls, row: Row) -> SeatResult:
        """A ``game_results`` row, as the store reads it back."""
        return cls(
            seat=row["seat"],
            party=row["party"],
            augen=row["augen"],
            points=row["points"],
            contract=row["contract"],
            is_solo=bool(row["is_solo"]),
            won=bool(row["won"]),
            player_id=row["player_id"],
            ai_level=row["ai_level"],
            called=bool(row["called"]),
        )


@dataclass(frozen=True, slots=True)
class TimerRow:
    """Something that fires at ``fires_at`` (turn deadline, tournament start)."""

    id: int
    kind: str
    table_id: int | None
    tournament_id: int | None
    fires_at: datetime
    payload: JSONDict
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's OpenSkill rating."""

    player_id: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate (mu - 3 sigma), what a rating list sorts by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatedRow:
    """One line of a server's rating list. Equal estimates share a rank."""

    rank: int
    rating: RatingRow
    display_name: str


@dataclass(frozen=True, slots=True)
class PlayerGameRow:
    """One finished game of a player on a server, as their statistics read it."""

    game_id: int
    finished_at: datetime
    party: Party
    points: int
    is_solo: bool
    won: bool
    called: bool


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of a standings table. Equal points share a rank (1, 2, 2, 4)."""

    rank: int
    player_id: int | None
    display_name: str | None
    ai_level: AILevel | None
    seat: int | None
    """The AI's seat in session standings; None for humans."""
    games: int
    points: int
    wins: int
    solos: int
    solos_won: int
    re_games: int

    @property
    def points_per_game(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def re_share(self) -> float:
        """Share of games played in the Re party."""
        return self.re_games / self.games if self.games else 0.0

    @property
    def kontra_share(self) -> float:
        return 1.0 - self.re_share if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Period:
    """Days (UTC) whose finished games count; ``None`` leaves that end open. Both inclusive."""

    first_day: date | None = None
    last_day: date | None = None

    @classmethod
    def all_time(cls) -> Period:
        return cls()

    @classmethod
    def month_of(cls, day: date) -> Period:
        """The calendar month containing ``day`` ("this month": ``month_of(today)``)."""
        last = calendar.monthrange(day.year, day.month)[1]
        return cls(day.replace(day=1), day.replace(day=last))

    @classmethod
    def season(cls, first_day: date, last_day: date) -> Period:
        if last_day < first_day:
            raise ValueError(f"season ends ({last_day}) before it starts ({first_day})")
        return cls(first_day, last_day)

    @property
    def is_all_time(self) -> bool:
        return self.first_day is None and self.last_day is None
