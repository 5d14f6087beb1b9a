"""Helpers shared by the repository modules: JSON text, epoch milliseconds, seat numbers."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

MS_PER_DAY = 86_400_000

#: "No limit" for ``LIMIT ?``: SQLite rejects NULL there, PostgreSQL would accept either.
NO_LIMIT = 2**62


def dump_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def load_json(text: str) -> Any:
    return json.loads(text)


def to_ms(moment: datetime | None) -> int:
    """Epoch milliseconds of an aware datetime; ``None`` means now."""
    if moment is None:
        moment = datetime.now(UTC)
    elif moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: pass an aware one (UTC)")
    return int(moment.timestamp() * 1000)


def from_ms(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def opt_from_ms(ms: int | None) -> datetime | None:
    return None if ms is None else from_ms(ms)


def day_number(day: date) -> int:
    """Days since 1970-01-01: the ``day`` column of the standings sums."""
    return (day - date(1970, 1, 1)).days


def check_seat(seat: int, seats: int = 5) -> None:
    """A table seat (0..4: a table seats four or five), or a game seat (``seats=4``)."""
    if seat not in range(seats):
        raise ValueError(f"seat must be 0..{seats - 1}, not {seat}")
