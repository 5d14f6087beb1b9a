"""The leaderboard, the rating list and a player's figures as players read them, in German
and English; the running points chart; the page buttons' ids.
"""

from __future__ import annotations

import io
from datetime import date

import pytest
from PIL import Image

from bot.discord.rangliste import PageButtons, decode_page, page_id, page_view
from bot.engine.rangliste import (
    BoardLine,
    BoardPage,
    PlayerFigures,
    Zeitraum,
    parse_month,
    rating_figure,
    resolve,
)
from bot.render.pictures import running_chart
from bot.render.stats import board_embed, figures_embed, zeitraum_name
from bot.render.texts import Lang, t
from db.rows import RatingRow

NOVEMBER = Zeitraum("month", 2026, 11)


def board(
    order: str = "points", page: int = 0, pages: int = 2, asked: int | None = None
) -> BoardPage:
    lines = tuple(
        BoardLine(
            rank, f"Spieler {rank}", 10 - rank, 5, 2, 1100 - rank if order == "rating" else None
        )
        for rank in range(1 + 20 * page, 4 + 20 * page)
    )
    zeitraum = Zeitraum() if order == "rating" else NOVEMBER
    return BoardPage(
        zeitraum,
        order,
        page,
        pages,
        23,
        lines,
        page if asked is None else asked,  # type: ignore[arg-type]
    )


def figures(**changes: object) -> PlayerFigures:
    values: dict[str, object] = {
        "zeitraum": NOVEMBER,
        "rank": 2,
        "games": 8,
        "points": 11,
        "wins": 5,
        "solos": 1,
        "solos_won": 1,
        "re_games": 3,
        "called": 3,
        "called_won": 2,
        "running": (2, 4, 1, 3, 5, 7, 9, 11),
        "rating": 1088,
        "rated_games": 14,
        "rating_rank": 3,
    }
    values.update(changes)
    return PlayerFigures(**values)  # type: ignore[arg-type]


def test_periods_have_names(lang: Lang) -> None:
    assert zeitraum_name(Zeitraum(), lang) == {"de": "alle Spiele", "en": "all games"}[lang]
    assert zeitraum_name(NOVEMBER, lang) == "November 2026"
    march = {"de": "März 2025", "en": "March 2025"}[lang]
    assert zeitraum_name(Zeitraum("month", 2025, 3), lang) == march
    season = zeitraum_name(Zeitraum("season", 2026, 4), lang)
    assert season == {"de": "Saison 4/2026 (Okt–Dez)", "en": "season 4/2026 (Oct–Dec)"}[lang]


def test_a_page_of_points(lang: Lang) -> None:
    embed = board_embed(board(), lang)
    assert embed.title == t(lang, "rl_title", zeitraum="November 2026")
    lines = (embed.description or "").splitlines()
    points = {
        "de": "1. Spieler 1 – +9 Punkte (5 Spiele, 2 gewonnen)",
        "en": "1. Spieler 1 – +9 points (5 games, 2 won)",
    }
    assert lines[0] == points[lang] and len(lines) == 3
    footer = {"de": "Seite 1 von 2 · 23 Spieler", "en": "Page 1 of 2 · 23 players"}
    assert embed.footer.text == footer[lang]


def test_a_page_that_moved_says_so(lang: Lang) -> None:
    embed = board_embed(board(page=1, asked=6), lang)
    first = (embed.description or "").splitlines()[0]
    assert first == "*" + t(lang, "rl_moved", asked=7, page=2) + "*"
    assert "7" in first and "2" in first


def test_the_rating_list(lang: Lang) -> None:
    embed = board_embed(board("rating"), lang)
    assert embed.title == {"de": "Wertungsliste", "en": "Rating list"}[lang]
    line = {
        "de": "1. Spieler 1 – Wertung 1099 (5 Spiele)",
        "en": "1. Spieler 1 – rating 1099 (5 games)",
    }
    assert (embed.description or "").splitlines()[0] == line[lang]
    assert "10" in (embed.footer.text or "")  # the minimum of games
    empty = BoardPage(Zeitraum(), "rating", 0, 1, 0, (), 0)
    assert board_embed(empty, lang).description == t(lang, "rl_empty_rating", min=10)


def test_an_empty_period(lang: Lang) -> None:
    embed = board_embed(BoardPage(NOVEMBER, "points", 0, 1, 0, (), 0), lang)
    assert "November 2026" in (embed.description or "")


def test_a_players_figures(lang: Lang) -> None:
    embed = figures_embed("anna", figures(), NOVEMBER, lang)
    text = embed.description or ""
    expected = {
        "de": [
            "+11 Punkte in 8 Spielen (+1,4 pro Spiel) · Platz 2 der Rangliste",
            "Gewonnen: 5 von 8 (62 %)",
            "Soli: 1 gespielt, 1 gewonnen",
            "Re in 38 % der Spiele, Kontra in 62 %",
            "Ansagen: in 3 Spielen angesagt, 2 davon gewonnen (67 %)",
            "Wertung: **1088** · Platz 3 der Wertungsliste (14 Spiele)",
        ],
        "en": [
            "+11 points in 8 games (+1.4 per game) · rank 2 on the leaderboard",
            "Won: 5 of 8 (62 %)",
            "Solos: 1 played, 1 won",
            "Re in 38 % of the games, Kontra in 62 %",
            "Calls: made in 3 games, 2 of them won (67 %)",
            "Rating: **1088** · rank 3 on the rating list (14 games)",
        ],
    }
    assert text.splitlines() == expected[lang]
    assert embed.footer.text == t(lang, "st_rating_all")  # a month: the rating is all time
    unranked = figures_embed(
        "anna", figures(rating_rank=None, rated_games=4, solos=0, called=0), Zeitraum(), lang
    )
    text = unranked.description or ""
    assert t(lang, "st_rating_unranked", rating=1088, min=10, games=4) in text
    assert t(lang, "st_solos_none") in text and t(lang, "st_calls_none") in text
    assert unranked.footer.text is None
    none = figures_embed("anna", None, NOVEMBER, lang)
    assert none.description == t(lang, "st_none", name="anna", zeitraum="November 2026")


def test_the_help_explains_the_rating(lang: Lang) -> None:
    text = t(lang, "help_rating", min=10)
    assert "1000 + 40 × (μ − 3σ)" in text and "10" in text
    assert len(t(lang, "help_body")) + len(text) + 100 < 4096  # one embed description


def test_the_running_points_chart(lang: Lang) -> None:
    picture = running_chart((3, 2, 4, 0, -5), "anna", "November 2026", lang)
    assert picture is not None and picture.filename == "verlauf.png"
    image = Image.open(io.BytesIO(picture.data))
    assert image.size == (640, 300)
    alt = {
        "de": "Punkteverlauf von anna über 5 Spiele (November 2026): zuletzt -5, höchstens +4, "
        "tiefstens -5.",
        "en": "Running points of anna over 5 games (November 2026): last -5, highest +4, "
        "lowest -5.",
    }
    assert picture.alt == alt[lang]
    assert running_chart((), "anna", "November 2026", lang) is None


def test_periods_are_resolved_and_keyed() -> None:
    today = date(2026, 1, 20)
    assert resolve("gesamt", None, today) == Zeitraum()
    assert resolve("monat", None, today) == Zeitraum("month", 2026, 1)
    assert resolve("letzter_monat", None, today) == Zeitraum("month", 2025, 12)
    assert resolve("saison", None, today) == Zeitraum("season", 2026, 1)
    assert resolve("saison", "11.2025", today) == Zeitraum("month", 2025, 11)  # typed wins
    for text in ("2025-11", "11.2025", "11/2025", " 11.2025 "):
        assert parse_month(text) == Zeitraum("month", 2025, 11)
    for bad in ("13.2025", "0.2025", "2025", "November", "11.25"):
        with pytest.raises(ValueError):
            parse_month(bad)
    season = Zeitraum("season", 2026, 4)
    assert (season.period.first_day, season.period.last_day) == (
        date(2026, 10, 1),
        date(2026, 12, 31),
    )
    assert Zeitraum("month", 2024, 2).period.last_day == date(2024, 2, 29)
    for zeitraum in (Zeitraum(), NOVEMBER, season):
        assert Zeitraum.from_key(zeitraum.key) == zeitraum
    for bad in ("m2026-13", "x2026-1", "s2026-5", "", "all:1"):
        with pytest.raises(ValueError):
            Zeitraum.from_key(bad)


def test_the_rating_figure() -> None:
    # A newcomer (μ 25, σ 25/3) is at 1000; a surer estimate of the same μ is higher.
    assert rating_figure(RatingRow(1, 25.0, 25 / 3, 0)) == 1000
    assert rating_figure(RatingRow(1, 25.0, 3.0, 40)) == 1000 + 40 * 16
    assert rating_figure(RatingRow(1, 20.0, 5.0, 40)) == 1000 + 40 * 5


def test_page_buttons_name_their_pages(lang: Lang) -> None:
    first = page_view(board(), lang)
    assert isinstance(first, PageButtons)
    ids = first.custom_ids()
    assert ids == ["rang:points:m2026-11:0", "rang:points:m2026-11:1"]
    buttons = first.to_components()[0]["components"]
    assert [b["disabled"] for b in buttons] == [True, False]
    assert [b["label"] for b in buttons] == [t(lang, "rl_prev"), t(lang, "rl_next")]
    last = page_view(board(page=1), lang)
    assert last is not None
    assert [b["disabled"] for b in last.to_components()[0]["components"]] == [False, True]
    assert page_view(board(pages=1), lang) is None
    click = decode_page(page_id("rating", Zeitraum(), 3))
    assert (click.order, click.zeitraum, click.page) == ("rating", Zeitraum(), 3)
    for bad in (
        "rang:points:m2026-11",
        "rang:best:all:1",
        "rang:points:all:-1",
        "rang:points:x:1",
        "doko:points:all:1",
        "rang:points:all:99999",
    ):
        with pytest.raises(ValueError):
            decode_page(bad)
