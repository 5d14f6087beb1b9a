"""The table message while it waits for an absent player (the disconnect policy)."""

from __future__ import annotations

from datetime import datetime

from bot.engine.model import DISCONNECT_POLICIES, TableInfo
from bot.render.controls import Button, TableButton
from bot.render.texts import Lang, t


def _clock(when: datetime) -> str:
    """Discord's short-time markup: each reader's client shows it in their own time zone."""
    return f"<t:{int(when.timestamp())}:t>"


def policy_text(policy: str, lang: Lang) -> str:
    """The table's disconnect policy in a few words."""
    return t(lang, f"policy_{policy}")


def policies(lang: Lang) -> list[tuple[str, str]]:
    """The settings' choice of policy: (value, label)."""
    return [
        (policy, f"{t(lang, 'set_policy')}: {policy_text(policy, lang)}")
        for policy in DISCONNECT_POLICIES
    ]


def policy_line(info: TableInfo, lang: Lang) -> str:
    """The lobby's line about what an absence means at this table."""
    return t(lang, "policy_line", policy=policy_text(info.disconnect_policy, lang))


def waiting_lines(info: TableInfo, lang: Lang) -> list[str]:
    """Whom the table waits for and since when; under ``verloren`` also until when."""
    waiting = info.waiting
    if waiting is None:
        return []
    seat = info.seats[waiting.seat]
    name = seat.name if seat is not None else "?"
    lines = [t(lang, "waiting_line", name=name, since=_clock(waiting.since))]
    if waiting.forfeit_at is not None:
        lines.append(t(lang, "waiting_forfeit", name=name, at=_clock(waiting.forfeit_at)))
    else:
        lines.append(t(lang, "waiting_host"))
    return lines


def waiting_controls(info: TableInfo, lang: Lang) -> list[Button]:
    """The host's two decisions while the table waits (anyone sees them; the host may use
    them, which the handler checks).
    """
    if info.waiting is None:
        return []
    return [
        Button(TableButton("takeover"), t(lang, "btn_take_over"), "primary"),
        Button(TableButton("scorelost"), t(lang, "btn_score_lost"), "danger"),
    ]
