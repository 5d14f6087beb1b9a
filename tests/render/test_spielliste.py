"""The Spielliste: every game of the round, every column headed, names in full (or letters
with a legend naming them), split over fields or sent as a file, never cut; CSV and JSON.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace

import discord
import pytest

from bot.engine.model import ListEntry, SeatInfo
from bot.render.table import (
    FIELD_LIMIT,
    add_spielliste,
    closed_message,
    final_entries,
    final_message,
    spielliste_attachment,
    spielliste_block,
    spielliste_csv,
    spielliste_json,
    spielliste_text,
)
from bot.render.terms import contract_name
from bot.render.texts import Lang, t
from bot.rules.records import game_summary

from .helpers import NAMES, limit_errors, session, table_info, visible_text

FENCE = re.compile(r"```\n(.*?)\n```", re.S)


def long_spielliste(games: int, size: int) -> tuple[ListEntry, ...]:
    return tuple(entry for _, entry in session(games, size=size, seed=games))


def table_lines(blocks: list[str]) -> tuple[list[str], list[list[str]]]:
    """The head line of each block and the rows of all of them, split into cells."""
    heads, rows = [], []
    for block in blocks:
        inside = FENCE.search(block)
        assert inside is not None, block
        lines = inside[1].splitlines()
        heads.append(lines[0])
        rows += [line.split() for line in lines[1:]]
    return heads, rows


def short_names(size: int) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(s, 100 + s, name, None) for s, name in enumerate(NAME_SHORT[:size]))


NAME_SHORT = ("Anna", "Ben", "Clara", "Dirk", "Erika")


@pytest.mark.parametrize("size", [4, 5])
def test_every_game_with_its_running_totals_and_value(size: int, lang: Lang) -> None:
    spielliste = long_spielliste(6, size)
    blocks = spielliste_block(table_info(None, size=size, spielliste=spielliste), lang)
    assert len(blocks) == 1
    heads, rows = table_lines(blocks)
    assert len(rows) == 6
    for row, entry in zip(rows, spielliste, strict=True):
        assert int(row[0]) == entry.number
        assert [int(x) for x in row[1 : 1 + size]] == list(entry.totals)
        assert int(row[1 + size]) == entry.game_value
    # Every column has a head: the number, one per seat, the Spielwert.
    assert heads[0].split() == [t(lang, "sl_number"), *"ABCDE"[:size], t(lang, "sl_value")]


@pytest.mark.parametrize("size", [4, 5])
def test_long_names_are_letters_with_a_legend_of_the_full_names(size: int, lang: Lang) -> None:
    info = table_info(None, size=size, spielliste=long_spielliste(3, size))
    blocks = spielliste_block(info, lang)
    legend = blocks[0].split("```")[0]
    for letter, name in zip("ABCDE", NAMES[:size], strict=False):
        assert f"`{letter}` {name}" in legend  # full, never cut to eight characters


def test_short_names_head_their_columns_in_full(lang: Lang) -> None:
    info = replace(table_info(None, spielliste=long_spielliste(3, 4)), seats=short_names(4))
    blocks = spielliste_block(info, lang)
    assert blocks[0].startswith("```")  # no legend needed
    heads, _ = table_lines(blocks)
    assert heads[0].split() == [t(lang, "sl_number"), *NAME_SHORT[:4], t(lang, "sl_value")]


def test_a_bot_name_is_not_cut() -> None:
    seats = (*short_names(3), SeatInfo(3, None, "Bot 4 (leicht)", "leicht"))
    info = replace(table_info(None, spielliste=long_spielliste(2, 4)), seats=seats)
    text = "\n".join(spielliste_block(info, "de"))
    assert "Bot 4 (leicht)" in text


@pytest.mark.parametrize("size", [4, 5])
@pytest.mark.parametrize("games", [24, 200])
def test_a_long_round_is_split_over_blocks_never_cut(size: int, games: int, lang: Lang) -> None:
    spielliste = long_spielliste(games, size)
    blocks = spielliste_block(table_info(None, size=size, spielliste=spielliste), lang)
    assert all(len(b) <= FIELD_LIMIT for b in blocks)
    heads, rows = table_lines(blocks)
    assert [int(r[0]) for r in rows] == list(range(1, games + 1))
    assert len(set(heads)) == 1  # every block carries the same column heads
    assert [int(x) for x in rows[-1][1 : 1 + size]] == list(spielliste[-1].totals)


@pytest.mark.parametrize("size", [4, 5])
def test_the_final_message_of_a_24_game_round_holds_every_game(size: int, lang: Lang) -> None:
    games = session(24, size=size, seed=24)
    spielliste = tuple(e for _, e in games)
    game, entry = games[-1]
    info = table_info(None, size=size, spielliste=spielliste)
    embed, _ = final_message(info, game_summary(game), entry, 99, lang, session_over=True)
    assert limit_errors(embeds=[embed]) == []
    parts = [f.value or "" for f in embed.fields if (f.name or "").startswith("Spielliste")]
    _, rows = table_lines(parts)
    assert [int(r[0]) for r in rows] == list(range(1, 25))
    if len(parts) > 1:  # five seats take two fields
        assert embed.fields[-1].name == t(lang, "spielliste_part", n=len(parts), of=len(parts))


def test_the_final_message_lists_the_spielliste_up_to_its_game(lang: Lang) -> None:
    games = session(5, seed=9)
    spielliste = tuple(e for _, e in games)
    game, entry = games[2]
    info = table_info(None, spielliste=spielliste)  # the engine has moved on to game 5
    embed, _ = final_message(info, game_summary(game), entry, 77, lang)
    sheet = next(f.value for f in embed.fields if f.name == t(lang, "spielliste"))
    assert [int(r[0]) for r in table_lines([sheet or ""])[1]] == [1, 2, 3]


def test_a_round_too_long_for_the_final_message_comes_as_a_file(lang: Lang) -> None:
    games = session(150, seed=5)
    spielliste = tuple(e for _, e in games)
    game, entry = games[-1]
    info = table_info(None, spielliste=spielliste)
    embed, _ = final_message(info, game_summary(game), entry, 1, lang)
    assert limit_errors(embeds=[embed]) == []
    text = visible_text(embed)
    assert t(lang, "spielliste_file", games=150) in text
    assert "```" not in text.split(t(lang, "spielliste"))[-1]  # no cut-off part of it
    file = spielliste_attachment(embed, info, lang, final_entries(info, entry))
    assert file is not None and file.filename == "spielliste-7.txt"
    assert file.fp.read().decode() == spielliste_text(info, lang)


def test_a_spielliste_that_fits_comes_without_a_file(lang: Lang) -> None:
    games = session(24, seed=5)
    spielliste = tuple(e for _, e in games)
    game, entry = games[-1]
    info = table_info(None, spielliste=spielliste)
    embed, _ = final_message(info, game_summary(game), entry, 1, lang)
    assert spielliste_attachment(embed, info, lang, final_entries(info, entry)) is None


@pytest.mark.parametrize("games", [24, 150])
def test_the_closed_table_fits_and_never_cuts(games: int, lang: Lang) -> None:
    info = table_info(None, spielliste=long_spielliste(games, 4))
    embed = closed_message(info, lang)
    assert limit_errors(embeds=[embed]) == []
    parts = [f.value or "" for f in embed.fields if "```" in (f.value or "")]
    if parts:
        assert [int(r[0]) for r in table_lines(parts)[1]] == list(range(1, games + 1))
    else:
        assert t(lang, "spielliste_file", games=games) in visible_text(embed)
        assert spielliste_attachment(embed, info, lang) is not None


def test_add_spielliste_adds_nothing_when_it_does_not_fit() -> None:
    info = table_info(None, spielliste=long_spielliste(200, 4))
    embed = discord.Embed(title="x")
    assert not add_spielliste(embed, info, "de")
    assert embed.fields == []
    small = table_info(None, spielliste=long_spielliste(24, 4))
    assert add_spielliste(embed, small, "de")
    assert limit_errors(embeds=[embed]) == []


def test_the_text_file_holds_every_game_and_every_full_name(lang: Lang) -> None:
    info = table_info(None, size=5, spielliste=long_spielliste(200, 5))
    text = spielliste_text(info, lang)
    for name in NAMES:
        assert name in text
    numbers = [int(line.split()[0]) for line in text.splitlines() if re.match(r"\s*\d+ ", line)]
    assert numbers == list(range(1, 201))


@pytest.mark.parametrize("size", [4, 5])
def test_the_csv_export_has_a_line_per_game_in_the_readers_language(size: int, lang: Lang) -> None:
    spielliste = long_spielliste(24, size)
    info = table_info(None, size=size, spielliste=spielliste)
    rows = list(csv.reader(io.StringIO(spielliste_csv(info, lang))))
    head, body = rows[0], rows[1:]
    assert head[:5] == [
        t(lang, k) for k in ("sl_number", "csv_contract", "csv_solo", "csv_soloist", "sl_value")
    ]
    assert head[5::2] == list(NAMES[:size])  # full names
    assert len(body) == 24
    for line, entry in zip(body, spielliste, strict=True):
        assert int(line[0]) == entry.number
        assert line[1] == contract_name(entry.contract, lang)  # a name, not the rules' id
        assert [int(x) for x in line[5::2]] == list(entry.scores)
        assert [int(x) for x in line[6::2]] == list(entry.totals)


def test_the_json_export_counts_seats_from_one() -> None:
    spielliste = long_spielliste(24, 5)
    data = json.loads(spielliste_json(table_info(None, size=5, spielliste=spielliste)))
    assert [p["name"] for p in data["players"]] == list(NAMES)
    assert [p["seat"] for p in data["players"]] == [1, 2, 3, 4, 5]
    assert [g["number"] for g in data["games"]] == list(range(1, 25))
    for game, entry in zip(data["games"], spielliste, strict=True):
        assert game["totals"] == list(entry.totals)
        assert game["sitting_out"] == entry.sitting_out + 1  # type: ignore[operator]
