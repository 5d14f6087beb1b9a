"""The server leaderboard (by period and page, or by rating), a player's figures and a
real-card game's score, as embeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from discord import Embed

from bot.engine.rangliste import BoardPage, PlayerFigures, Zeitraum
from bot.render.table import result_lines
from bot.render.terms import contract_name
from bot.render.texts import Lang, t
from bot.rules.contracts import Contract


def zeitraum_name(zeitraum: Zeitraum, lang: Lang) -> str:
    """The Zeitraum as players read it: "alle Spiele", "November 2026", "Saison 4/2026 (…)"."""
    if zeitraum.kind == "all":
        return t(lang, "zr_all")
    months = t(lang, "month_names").split()
    if zeitraum.kind == "month":
        return f"{months[zeitraum.number - 1]} {zeitraum.year}"
    first, last = zeitraum.months
    return t(
        lang,
        "zr_season",
        number=zeitraum.number,
        year=zeitraum.year,
        first=months[first - 1][:3],
        last=months[last - 1][:3],
    )


def board_embed(page: BoardPage, lang: Lang) -> Embed:
    """One page of the leaderboard (by points over its Zeitraum) or of the rating list."""
    if page.order == "rating":
        embed = Embed(title=t(lang, "rl_title_rating"))
        lines = [
            t(lang, "rl_line_rating", rank=r.rank, name=r.name, rating=r.rating, games=r.games)
            for r in page.lines
        ]
        empty = t(lang, "rl_empty_rating", min=page.min_games)
        footer = t(
            lang,
            "rl_footer_rating",
            page=page.page + 1,
            pages=page.pages,
            total=page.total,
            min=page.min_games,
        )
    else:
        zeitraum = zeitraum_name(page.zeitraum, lang)
        embed = Embed(title=t(lang, "rl_title", zeitraum=zeitraum))
        lines = [
            t(
                lang,
                "rl_line",
                rank=r.rank,
                name=r.name,
                points=r.points,
                games=r.games,
                wins=r.wins,
            )
            for r in page.lines
        ]
        empty = t(lang, "rl_empty", zeitraum=zeitraum)
        footer = t(lang, "rl_footer", page=page.page + 1, pages=page.pages, total=page.total)
    if page.moved:
        lines.insert(0, f"*{t(lang, 'rl_moved', asked=page.asked + 1, page=page.page + 1)}*")
    # Twenty lines of at most ~130 characters: far below the description's 4096.
    embed.description = "\n".join(lines) if page.lines else empty
    embed.set_footer(text=footer)
    return embed


def figures_embed(
    name: str, figures: PlayerFigures | None, zeitraum: Zeitraum, lang: Lang
) -> Embed:
    """A player's statistics over a Zeitraum; their rating counts every game."""
    period = zeitraum_name(zeitraum, lang)
    embed = Embed(title=t(lang, "st_title", name=name, zeitraum=period))
    if figures is None:
        embed.description = t(lang, "st_none", name=name, zeitraum=period)
        return embed
    f = figures
    lines = [
        t(
            lang,
            "st_points",
            points=f.points,
            games=f.games,
            per_game=_decimal(f.points_per_game, lang),
            rank=f.rank,
        ),
        t(lang, "st_wins", wins=f.wins, games=f.games, rate=_percent(f.wins, f.games)),
        t(lang, "st_solos", solos=f.solos, solos_won=f.solos_won)
        if f.solos
        else t(lang, "st_solos_none"),
        t(
            lang,
            "st_parties",
            re=_percent(f.re_games, f.games),
            kontra=100 - _percent(f.re_games, f.games),
        ),
        t(
            lang,
            "st_calls",
            called=f.called,
            won=f.called_won,
            rate=_percent(f.called_won, f.called),
        )
        if f.called
        else t(lang, "st_calls_none"),
    ]
    if f.rating_rank is not None:
        rating = t(lang, "st_rating", rating=f.rating, rank=f.rating_rank, games=f.rated_games)
    else:
        rating = t(
            lang, "st_rating_unranked", rating=f.rating, min=f.min_games, games=f.rated_games
        )
    lines.append(rating)
    embed.description = "\n".join(lines)
    if zeitraum.kind != "all":
        embed.set_footer(text=t(lang, "st_rating_all"))
    return embed


def _percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def _decimal(value: float, lang: Lang) -> str:
    """A signed figure with one decimal, with the reader's decimal mark (+1,3 / +1.3)."""
    text = f"{value:+.1f}"
    return text.replace(".", ",") if lang == "de" else text


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
