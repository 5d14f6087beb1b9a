"""Times on the server's wall clock: the daylight-saving gap refused, the fold's first taken."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.render.times import parse_time, time_text, zone_of

BERLIN = zone_of("Europe/Berlin")


def test_a_winter_and_a_summer_time_in_berlin() -> None:
    assert parse_time("2031-01-10 19:00", BERLIN).when == datetime(2031, 1, 10, 18, tzinfo=UTC)
    assert parse_time(" 2031-07-10 19:00 ", BERLIN).when == datetime(2031, 7, 10, 17, tzinfo=UTC)


def test_the_spring_gap_is_refused_with_the_reason() -> None:
    given = parse_time("2031-03-30 02:30", BERLIN)
    assert given.when is None and given.problem == "time_gap"
    assert "30.03.2031" in (given.problem_text("de") or "")
    assert "2031-03-30" in (given.problem_text("en") or "")
    # The hour after the gap exists again.
    assert parse_time("2031-03-30 03:00", BERLIN).when == datetime(2031, 3, 30, 1, tzinfo=UTC)


def test_the_autumn_fold_takes_the_first_and_says_so() -> None:
    given = parse_time("2031-10-26 02:30", BERLIN)
    assert given.folded and given.when == datetime(2031, 10, 26, 0, 30, tzinfo=UTC)
    assert "UTC+02:00" in (given.note_text("en") or "")
    assert not parse_time("2031-10-26 03:30", BERLIN).folded


def test_an_unknown_zone_reads_as_berlin_and_a_bad_format_names_the_zone() -> None:
    assert zone_of("Mars/Olympus").key == "Europe/Berlin" and zone_of(None).key == "Europe/Berlin"
    given = parse_time("19 Uhr", zone_of("Asia/Tokyo"))
    assert given.when is None and "Asia/Tokyo" in (given.problem_text("de") or "")


def test_shown_in_the_zone_and_in_each_readers_own_time() -> None:
    when = datetime(2031, 3, 1, 18, tzinfo=UTC)
    text = time_text(when, zone_of("America/New_York"), "en")
    assert text.startswith("2031-03-01, 13:00 (America/New_York")
    assert f"<t:{int(when.timestamp())}:f>" in text
