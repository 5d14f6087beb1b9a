"""Times players give and read, in the server's time zone (``GuildSettings.time_zone``).

Stored times are UTC. A time is given as ``YYYY-MM-DD HH:MM`` on the server's wall clock and
shown the same way, with the zone's name and Discord's timestamp markup (``<t:…:f>``), which
each reader's client shows in their own local time.

Daylight saving: a wall-clock time in the spring gap (02:30 on the last Sunday of March in
Europe/Berlin) does not exist and is refused with the reason; one in the autumn fold (02:30
on the last Sunday of October happens twice) means the first of the two, and the answer says
so with its UTC offset.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.render.texts import Lang, t

DEFAULT_ZONE = "Europe/Berlin"
INPUT_FORMAT = "%Y-%m-%d %H:%M"
DATE_FORMAT = {"de": "%d.%m.%Y", "en": "%Y-%m-%d"}


def zone_of(name: str | None) -> ZoneInfo:
    """The zone a server named; Europe/Berlin for none or a name the tz database lacks."""
    try:
        return ZoneInfo(name or DEFAULT_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_ZONE)


@dataclass(frozen=True, slots=True)
class GivenTime:
    """A wall-clock time as given: ``when`` in UTC, or None when ``problem`` says why not."""

    when: datetime | None
    problem: str | None = None
    """The text key of the refusal: ``time_bad`` (no such format), ``time_gap``."""
    folded: bool = False
    """The time happens twice (the fold); ``when`` is the first."""
    values: dict[str, str] = field(default_factory=dict)

    def problem_text(self, lang: Lang) -> str | None:
        """Why the time cannot be taken, for the member who gave it."""
        return None if self.problem is None else t(lang, self.problem, **self.local(lang))

    def note_text(self, lang: Lang) -> str | None:
        """Said with the confirmation: which of the fold's two times it is."""
        return t(lang, "time_fold", **self.local(lang)) if self.folded else None

    def local(self, lang: Lang) -> dict[str, str]:
        values = dict(self.values)
        if "date" in values:
            values["date"] = datetime.fromisoformat(values["date"]).strftime(DATE_FORMAT[lang])
        return values


def _offset(local: datetime) -> str:
    offset = local.utcoffset() or timedelta()
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def parse_time(text: str, zone: ZoneInfo) -> GivenTime:
    """``YYYY-MM-DD HH:MM`` on the wall clock of ``zone``, as a UTC time."""
    try:
        naive = datetime.strptime(text.strip(), INPUT_FORMAT)
    except ValueError:
        return GivenTime(None, "time_bad", values={"zone": zone.key})
    first, second = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    values = {"clock": naive.strftime("%H:%M"), "date": naive.date().isoformat(), "zone": zone.key}
    # In the gap, the wall clock never shows the time: a round trip through UTC moves it.
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != naive:
        return GivenTime(None, "time_gap", values=values)
    folded = first.utcoffset() != second.utcoffset()
    return GivenTime(first.astimezone(UTC), folded=folded, values={**values, "utc": _offset(first)})


def time_text(when: datetime, zone: ZoneInfo, lang: Lang) -> str:
    """A stored (UTC) time on the server's wall clock, and in each reader's own time."""
    local = when.astimezone(zone)
    return t(
        lang,
        "time_shown",
        date=local.strftime(DATE_FORMAT[lang]),
        clock=local.strftime("%H:%M"),
        zone=zone.key,
        local=f"<t:{int(when.timestamp())}:f>",
    )
