"""Slow tables' texts: the reminder times, the tempo names, ``/doko meine-tische`` cut to one
message.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.engine.queries import MyTable
from bot.engine.slow import reminder_times
from bot.render.slow import CONTENT_LIMIT, my_tables_text, tempo_text

T0 = datetime(2031, 3, 3, 18, 0, tzinfo=UTC)


def test_reminders_at_half_time_and_an_hour_before_the_end() -> None:
    day = T0 + timedelta(days=1)
    assert reminder_times(T0, day) == [T0 + timedelta(hours=12), T0 + timedelta(hours=23)]
    # An hour per move: the hour before the end is no later than half time; one reminder.
    hour = T0 + timedelta(hours=1)
    assert reminder_times(T0, hour) == [T0 + timedelta(minutes=30)]


def test_tempo_names_in_both_languages() -> None:
    assert [tempo_text(n, "de") for n in (3600, 43200, 86400, 259200)] == [
        "1 Stunde",
        "12 Stunden",
        "1 Tag",
        "3 Tage",
    ]
    assert [tempo_text(n, "en") for n in (3600, 43200, 86400, 259200)] == [
        "1 hour",
        "12 hours",
        "1 day",
        "3 days",
    ]


def entry(n: int, my_turn: bool) -> MyTable:
    return MyTable(
        n, 10**18 + n, 10**18 + 2 * n, 10**18 + 3 * n, "playing", 3, True, my_turn,
        T0 if my_turn else None, T0 + timedelta(days=1) if my_turn else None,
    )  # fmt: skip


def test_many_tables_fit_one_message_the_rest_counted() -> None:
    entries = [entry(n, my_turn=n < 20) for n in range(1, 61)]
    for lang, more in (("de", "… und"), ("en", "… and")):
        text = my_tables_text(entries, lang)  # type: ignore[arg-type]
        assert len(text) <= CONTENT_LIMIT
        shown = text.count("\n- ")
        assert 0 < shown < 60 and text.endswith(
            f"{more} {60 - shown} {'weitere' if lang == 'de' else 'more'}."
        )
    assert my_tables_text([], "en") == "You sit at no open table."
