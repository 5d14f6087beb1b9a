"""Challenges as players read them: the standings, a member's own deals, the summary.

Only numbers are shown, never a card; the best and worst deals appear in the summary, once
the challenge has ended (before, a member sees only their own deals).
"""

from __future__ import annotations

from fractions import Fraction
from zoneinfo import ZoneInfo

from discord import Embed
from discord.utils import escape_markdown

from bot.engine.challenges import ChallengeView
from bot.engine.model import EngineError
from bot.render.errors import error_text
from bot.render.presets import preset_name
from bot.render.texts import Lang, t
from bot.render.times import time_text
from bot.tournament.duplicate import Compared

DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1000
KNOWN_ERRORS = frozenset(
    {"no_challenge", "challenge_ended", "already_played", "bad_deals", "bad_days", "table_exists"}
)


def number(value: Fraction | int, lang: Lang, *, signed: bool = True) -> str:
    """One decimal, with the reader's decimal mark; a sign for differences."""
    text = f"{float(value):+.1f}" if signed else f"{float(value):.1f}"
    return text.replace(".", ",") if lang == "de" else text


def challenge_error(error: EngineError, lang: Lang) -> str:
    if error.reason == "table_exists":  # the DM holds another challenge's table
        return t(lang, "ch_err_table_exists")
    if error.reason in KNOWN_ERRORS:
        return t(lang, f"err_{error.reason}")
    return error_text(error, lang)


def seat_name(seat: int, lang: Lang) -> str:
    """The place from the dealer: 0 is Vorhand, 3 the dealer."""
    return t(lang, f"ch_seat_{(seat - 1) % 4}")


def created_text(view: ChallengeView, zone: ZoneInfo, lang: Lang) -> str:
    c = view.challenge
    return t(
        lang,
        "ch_created",
        id=c.id,
        deals=c.deals,
        rules=preset_name(c.preset, lang),
        level=c.ai_level,
        ends=time_text(c.ends_at, zone, lang),
    )


def _standing_lines(view: ChallengeView, lang: Lang) -> list[str]:
    deals = view.challenge.deals
    return [
        t(
            lang,
            "ch_line",
            rank=s.rank,
            name=escape_markdown(view.names.get(s.player, "?")),
            diff=number(s.difference, lang),
            points=s.points,
            done=s.deals,
            deals=deals,
        )
        for s in view.comparison.standings
    ]


def _clip(lines: list[str], limit: int) -> str:
    out, size = [], 0
    for line in lines:
        size += len(line) + 1
        if size > limit:
            out.append("…")
            break
        out.append(line)
    return "\n".join(out)


def _deal_line(c: Compared, view: ChallengeView, lang: Lang) -> str:
    return t(
        lang,
        "ch_deal_line",
        name=escape_markdown(view.names.get(c.result.player, "?")),
        deal=c.result.deal + 1,
        seat=seat_name(c.result.seat, lang),
        points=c.result.points,
        mean=number(c.field_mean, lang, signed=False),
        field=c.field_size,
        diff=number(c.difference, lang),
    )


def standings_embed(
    view: ChallengeView, zone: ZoneInfo, lang: Lang, viewer: int | None = None
) -> Embed:
    """The live standings, with ``viewer``'s own deals; after the end, the summary with
    the best and the worst deal.
    """
    c = view.challenge
    ended = c.status == "ended"
    when = time_text(c.ends_at, zone, lang)
    state = t(lang, "ch_ended_at" if ended else "ch_open_until", ends=when)
    embed = Embed(
        title=t(lang, "ch_title_final" if ended else "ch_title", id=c.id, deals=c.deals),
        description=t(
            lang, "ch_about", rules=preset_name(c.preset, lang), level=c.ai_level, state=state
        )
        + "\n"
        + t(lang, "ch_explain"),
    )
    lines = _standing_lines(view, lang)
    embed.add_field(
        name=t(lang, "ch_standings"),
        value=_clip(lines, FIELD_LIMIT) if lines else t(lang, "ch_nobody"),
        inline=False,
    )
    if ended:
        best, worst = view.comparison.best(), view.comparison.worst()
        if best is not None and worst is not None:
            embed.add_field(name=t(lang, "ch_best"), value=_deal_line(best, view, lang))
            embed.add_field(name=t(lang, "ch_worst"), value=_deal_line(worst, view, lang))
    if viewer is not None:
        own = [
            t(
                lang,
                "ch_own_line",
                deal=r.result.deal + 1,
                seat=seat_name(r.result.seat, lang),
                points=r.result.points,
                mean=number(r.field_mean, lang, signed=False),
                diff=number(r.difference, lang),
            )
            for r in view.comparison.of(viewer)
        ]
        if own:
            embed.add_field(
                name=t(lang, "ch_your_deals"), value=_clip(own, FIELD_LIMIT), inline=False
            )
    return embed


COMMAND_EN: dict[str, str] = {
    "herausforderung": "challenge",
    "spielen": "play",
    "stand": "standings",
    "tage": "days",
    "nummer": "number",
    "Herausforderungen: dieselben Karten für alle": "Challenges: the same cards for everyone",
    "Eine Herausforderung anlegen": "Create a challenge",
    "Anzahl der Spiele (z. B. 12 oder 24)": "Number of games (e.g. 12 or 24)",
    "Wie viele Tage sie läuft (1 bis 31)": "How many days it runs (1 to 31)",
    "Stärke der Bots": "Strength of the bots",
    "Die Herausforderung spielen oder weiterspielen": "Play or resume the challenge",
    "Nummer der Herausforderung (Standard: die aktuelle)": (
        "Challenge number (default: the current one)"
    ),
    "Der Stand der Herausforderung": "The challenge's standings",
}
