"""What players read of slow tables: the time per move, whose move since when, the
reminder DM, and ``/doko meine-tische``.

Times are Discord timestamps (``<t:…:R>``, ``<t:…:f>``): each reader's client shows them in
their own zone and language, and the relative ones stay right as the days pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from bot.engine.model import TableInfo, TurnReminder
from bot.engine.queries import MyTable
from bot.engine.slow import TEMPOS
from bot.render.absence import policy_text
from bot.render.texts import Lang, t

# Discord's limit for a message's content, with room to spare for the last line.
CONTENT_LIMIT: Final = 2000
_DAY: Final = 24 * 3600


def relative(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


def absolute(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:f>"


def tempo_text(seconds: int, lang: Lang) -> str:
    """A slow table's time per move: whole days as days, else hours."""
    if seconds % _DAY == 0:
        days = seconds // _DAY
        return t(lang, "tempo_day") if days == 1 else t(lang, "tempo_days", n=days)
    hours = round(seconds / 3600)
    return t(lang, "tempo_hour") if hours == 1 else t(lang, "tempo_hours", n=hours)


def tempo_choices(lang: Lang) -> list[tuple[str, str]]:
    """The slow tempos in the settings' select of the time per move: (value, label)."""
    return [(f"slow:{n}", t(lang, "set_tempo_pick", tempo=tempo_text(n, lang))) for n in TEMPOS]


def tempo_value(seconds: int | None, lang: Lang) -> str | None:
    """A server's default slow tempo as the settings show it; None when not slow."""
    if seconds is None:
        return None
    return t(lang, "set_tempo_pick", tempo=tempo_text(seconds, lang))


def lobby_line(info: TableInfo, lang: Lang) -> str | None:
    """The lobby's line of a slow table."""
    if info.tempo_s is None:
        return None
    # One reminder only when an hour before the end comes no later than half time.
    key = "slow_lobby_line" if info.tempo_s > 2 * 3600 else "slow_lobby_line_half"
    return t(lang, key, tempo=tempo_text(info.tempo_s, lang))


def turn_lines(info: TableInfo, lang: Lang, name: str) -> list[str]:
    """Whose move since when and until when, at a slow table where a human is to act."""
    since, due = info.turn_since, info.turn_due
    if since is None or due is None:
        return []
    return [
        t(
            lang,
            "slow_turn_line",
            name=name,
            since=relative(since),
            due=relative(due),
            at=absolute(due),
        )
    ]


def reminder_text(event: TurnReminder, policy: str, lang: Lang) -> str:
    """The reminder DM (its link to the table follows)."""
    key = "slow_reminder_last" if event.last else "slow_reminder"
    return t(
        lang,
        key,
        table=event.table_id,
        game=event.game_number,
        due=relative(event.due),
        policy=policy_text(policy, lang),
    )


def table_url(entry: MyTable) -> str | None:
    if entry.message_id is None:
        return None
    return f"https://discord.com/channels/{entry.guild_id}/{entry.channel_id}/{entry.message_id}"


def my_table_line(entry: MyTable, lang: Lang) -> str:
    """One table: a jump link to its message, its channel, the game, since when, time left."""
    name = t(lang, "my_tables_table", table=entry.table_id)
    url = table_url(entry)
    parts = [f"[{name}]({url})" if url else name, f"<#{entry.channel_id}>"]
    if entry.game_number is None or entry.status == "lobby":
        parts.append(t(lang, "my_tables_lobby"))
    else:
        parts.append(t(lang, "my_tables_game", game=entry.game_number))
    if entry.since is not None:
        parts.append(t(lang, "my_tables_since", since=relative(entry.since)))
    if entry.due is not None:
        parts.append(t(lang, "my_tables_due", due=relative(entry.due)))
    if url is None:
        parts.append(t(lang, "my_tables_no_link"))
    return "- " + " · ".join(parts)


def my_tables_text(entries: Sequence[MyTable], lang: Lang) -> str:
    """The answer to ``/doko meine-tische``: the player's moves first, then the other
    tables; cut to one message, the rest counted.
    """
    if not entries:
        return t(lang, "my_tables_none")
    lines: list[str] = []
    groups = (
        ("my_tables_turn_head", [e for e in entries if e.my_turn]),
        ("my_tables_other_head", [e for e in entries if not e.my_turn]),
    )
    shown = 0
    for head, group in groups:
        for i, entry in enumerate(group):
            new = [t(lang, head)] if i == 0 else []
            new.append(my_table_line(entry, lang))
            more = t(lang, "my_tables_more", n=len(entries) - shown)
            if len("\n".join([*lines, *new, more])) > CONTENT_LIMIT:
                return "\n".join([*lines, more])
            lines.extend(new)
            shown += 1
    return "\n".join(lines)
