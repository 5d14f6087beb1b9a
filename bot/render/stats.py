"""The server leaderboard, a player's figures and a real-card game's score, as embeds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from discord import Embed

from bot.render.table import result_lines
from bot.render.terms import contract_name
from bot.render.texts import Lang, t
from bot.rules.contracts import Contract


class StandingLike(Protocol):
    """A leaderboard row as the store returns it."""

    @property
    def rank(self) -> int: ...
    @property
    def player_id(self) -> int | None: ...
    @property
    def display_name(self) -> str | None: ...
    @property
    def points(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def re_games(self) -> int: ...
    @property
    def solos(self) -> int: ...
    @property
    def solos_won(self) -> int: ...


class RatingLike(Protocol):
    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...


class StatsLike(Protocol):
    """A player's standing and rating, as the engine looks them up."""

    @property
    def standing(self) -> StandingLike: ...
    @property
    def rating(self) -> RatingLike: ...


def leaderboard_embed(rows: Sequence[StandingLike], lang: Lang) -> Embed:
    embed = Embed(title=t(lang, "leaderboard"))
    embed.description = "\n".join(
        t(
            lang,
            "leaderboard_line",
            rank=r.rank,
            name=r.display_name or r.player_id,
            points=r.points,
            games=r.games,
            wins=r.wins,
        )
        for r in rows
    ) or t(lang, "no_standings")
    return embed


def stats_embed(name: str, stats: StatsLike | None, lang: Lang) -> Embed:
    embed = Embed(title=t(lang, "stats_title", name=name))
    if stats is None:
        embed.description = t(lang, "stats_none", name=name)
        return embed
    row, rating = stats.standing, stats.rating
    embed.description = t(
        lang,
        "stats_body",
        rank=row.rank,
        points=row.points,
        games=row.games,
        wins=row.wins,
        win_rate=round(100 * row.wins / row.games) if row.games else 0,
        re_games=row.re_games,
        solos=row.solos,
        solos_won=row.solos_won,
        mu=rating.mu,
        sigma=rating.sigma,
    )
    return embed


def score_embed(
    contract: Contract, seats: Sequence[int], result: dict[str, Any], lang: Lang
) -> Embed:
    """A ``doko-score/1`` result of a game played with real cards."""
    lines = [
        t(lang, "contract_line", contract=contract_name(contract, lang)),
        t(lang, "score_seats", seats=", ".join(t(lang, "seat_short", n=s + 1) for s in seats)),
        t(
            lang,
            "result_augen",
            re=result["re_augen"],
            kontra=result["kontra_augen"],
            re_tricks=result["re_tricks"],
            kontra_tricks=result["kontra_tricks"],
        ),
        t(lang, "winner", party=str(result["winner"]).capitalize())
        if result["winner"] != "none"
        else t(lang, "no_winner"),
    ]
    embed = Embed(title=t(lang, "score_title"), description="\n".join(lines))
    embed.add_field(
        name=t(lang, "spielwert"),
        value="\n".join(result_lines(result, lang, contract.scored_as_solo)),
        inline=False,
    )
    embed.add_field(
        name=t(lang, "points"),
        value=" · ".join(
            f"{t(lang, 'seat_short', n=s + 1)} {p:+d}" for s, p in enumerate(result["scores"])
        ),
        inline=False,
    )
    return embed
