"""Tournament texts and embeds (bot/render/turnier.py): both languages, Discord's limits."""

from __future__ import annotations

import random
import string
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.engine.model import EngineError
from bot.engine.tournaments import Overview, SeatedTable
from bot.render.texts import Lang
from bot.render.turnier import (
    COMMAND_EN,
    DE,
    EN,
    overview_embed,
    results_embed,
    round_embed,
    sheet_block,
    sheet_embed,
    tt,
    turnier_error,
)
from bot.rules.round import SoloKind
from bot.tournament import (
    AuditEntry,
    CorrectionError,
    GameRef,
    GameScore,
    Participant,
    Substitute,
    TournamentResults,
    apply_correction,
)
from db.tournaments import EntrantRow, TournamentRow

from .helpers import limit_errors

NOW = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


UNUSED_GERMAN_ONLY: dict[str, str] = {}


@pytest.mark.parametrize(
    "key",
    [
        pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=UNUSED_GERMAN_ONLY[k]))
        if k in UNUSED_GERMAN_ONLY
        else k
        for k in sorted(set(DE) | set(EN))
    ],
)
def test_every_tournament_text_is_in_both_languages(key: str) -> None:
    assert key in DE and key in EN
    assert placeholders(DE[key]) == placeholders(EN[key])


def test_exact_tournament_texts() -> None:
    assert tt("de", "standings_final") == "Endstand"
    assert tt("en", "standings_final") == "Final standings"
    assert tt("de", "substitute", n=2) == "Bot 2 (Ersatz)"
    assert tt("en", "status_running", round=2, rounds=5) == "round 2 of 5 running"


# -- a tournament as the engine's Overview shows it -----------------------------------------


def row(status: str = "running", rounds: int = 3, current: int = 2) -> TournamentRow:
    return TournamentRow(
        id=3,
        guild_id=1,
        channel_id=2,
        organiser_id=100,
        name="Großer Preis von Übersee " * 3,
        preset="ddv",
        rules={},
        rounds=rounds,
        games_per_round=24,
        seating="mixing",
        seed=1,
        status=status,  # type: ignore[arg-type]
        current_round=current,
        starts_at=NOW,
        created_at=NOW,
        ai_level="mittel",
        disconnect_policy="bot",
    )


def player(n: int) -> int:
    return 1000 + n


def name(n: int) -> str:
    return f"Spielerin Nummer {n} von der Waterkant"


def tables_of(round_number: int, players: int, substitutes: int = 0) -> list[SeatedTable]:
    field: list[Participant] = [player(i) for i in range(players)]
    field += [Substitute(i + 1) for i in range(substitutes)]
    random.Random(round_number).shuffle(field)
    tables, i = [], 0
    while i < len(field):
        size = 5 if (len(field) - i) % 4 else 4
        tables.append(
            SeatedTable(
                round_number,
                len(tables) + 1,
                5000 + len(tables),
                None,
                tuple(field[i : i + size]),
                True,
            )
        )
        i += size
    return tables


def games_of(table: SeatedTable, games: int, seed: int) -> list[GameScore]:
    """Random sum-zero games of a table, in its seat order (scores are listed by seat)."""
    rng = random.Random(seed)
    out = []
    for g in range(1, games + 1):
        seats = list(table.seats)
        out_seat = seats[(g - 1) % len(seats)] if len(seats) == 5 else None
        players = [p for p in seats if p != out_seat]
        value = rng.choice([1, 2, 3, 4, 5, 8])
        solo = rng.random() < 0.15
        if solo:
            soloist = rng.choice(players)
            points = {p: (3 * value if p == soloist else -value) for p in players}
        else:
            soloist = None
            re = rng.sample(players, 2)
            points = {p: (value if p in re else -value) for p in players}
        out.append(
            GameScore(
                GameRef(table.round_number, table.number, g),
                tuple((p, points.get(p, 0)) for p in seats),
                sitting_out=out_seat,
                soloist=soloist,
                solo_kind=rng.choice(list(SoloKind)) if solo else None,
            )
        )
    return out


def overview(
    players: int = 40, rounds: int = 3, games: int = 24, status: str = "running", audit: int = 0
) -> Overview:
    tables = [t for r in range(1, rounds + 1) for t in tables_of(r, players)]
    results = [g for t in tables for g in games_of(t, games, t.round_number * 100 + t.number)]
    audits = tuple(
        AuditEntry(
            results[i].ref,
            results[i].scores,
            results[i].scores,
            "Falsch eingetragen, laut Schiedsrichter korrigiert",
            100,
            NOW,
        )
        for i in range(audit)
    )
    entrants = tuple(EntrantRow(3, player(i), name(i), "registered", NOW) for i in range(players))
    return Overview(
        tournament=row(status, rounds, rounds),
        entrants=entrants,
        tables=tuple(tables),
        results=TournamentResults(tuple(results), audits),
        names={player(i): name(i) for i in range(players)},
        listed={},
        first_dealers={},
    )


@pytest.mark.parametrize("players", [0, 5, 40, 300])
def test_the_overview_fits_discord(players: int, lang: Lang) -> None:
    embed = overview_embed(overview(players=players, rounds=1, games=1, status="open"), lang)
    assert limit_errors(embeds=[embed]) == []
    if players == 0:
        assert tt(lang, "field_empty") in (embed.fields[0].value or "")
    if players == 300:  # clipped, and says so
        assert (embed.fields[0].value or "").endswith("…")


@pytest.mark.parametrize("players", [4, 9, 40, 200])
def test_the_round_embed_fits_discord(players: int, lang: Lang) -> None:
    tables = tables_of(1, players)
    embed = round_embed(
        "Herbstturnier", 1, tables, {player(i): name(i) for i in range(players)}, lang
    )
    assert limit_errors(embeds=[embed]) == []
    assert name(0) in (embed.description or "") or players > 40


@pytest.mark.parametrize("status", ["running", "finished"])
@pytest.mark.parametrize("players", [4, 40, 200])
def test_the_standings_fit_discord(players: int, status: str, lang: Lang) -> None:
    embed = results_embed(overview(players=players, status=status, audit=30), lang)
    assert limit_errors(embeds=[embed]) == []
    title = tt(lang, "standings_final" if status == "finished" else "standings")
    assert (embed.title or "").startswith(title)


def test_the_standings_of_a_round_with_two_tables_fit_discord(lang: Lang) -> None:
    embed = results_embed(overview(players=8, games=24), lang, round_number=2)
    assert limit_errors(embeds=[embed]) == []
    assert len(embed.fields) == 2


@pytest.mark.parametrize("players", [20, 40])
def test_the_standings_of_a_round_with_several_tables_fit_discord(players: int) -> None:
    embed = results_embed(overview(players=players, games=24), "de", round_number=1)
    assert limit_errors(embeds=[embed]) == []
    # The sheets that do not fit are counted, not dropped silently; a long one takes parts.
    sheets = {str(f.name).split(" · Teil")[0] for f in embed.fields if f.name != "…"}
    notes = [f.value for f in embed.fields if f.name == "…"]
    assert len(sheets) + sum(int(str(n).split()[0]) for n in notes) == players // 4


def test_a_sheet_has_running_totals_per_seat_and_the_solo_column() -> None:
    table = SeatedTable(1, 1, 5000, None, (player(0), player(1), Substitute(1), player(3)), True)
    names = {player(i): name(i) for i in range(4)}
    games = [
        GameScore(
            GameRef(1, 1, 1), ((player(0), 1), (player(1), 1), (Substitute(1), -1), (player(3), -1))
        ),
        GameScore(
            GameRef(1, 1, 2),
            ((player(0), -3), (player(1), -3), (Substitute(1), 9), (player(3), -3)),
            soloist=Substitute(1),
            solo_kind=SoloKind.PFLICHT,
        ),
    ]
    blocks = sheet_block(table, games, names, "de")
    assert len(blocks) == 1
    legend, code = blocks[0].split("```\n", 1)
    assert "`C` Bot 1 (Ersatz)" in legend  # the substitute's column, named
    assert f"`A` {name(0)}" in legend  # long names in full, in the legend
    lines = code.strip("`\n").splitlines()
    assert lines[0] == tt("de", "sheet_head")
    assert lines[1].split() == ["Nr", "A", "B", "C", "D", "Solo"]  # every column headed
    assert lines[2].split() == ["1", "+1", "+1", "-1", "-1"]
    assert lines[3].split() == ["2", "-2", "-2", "+8", "-4", "PC"]


def test_short_names_head_the_sheet_in_full() -> None:
    table = SeatedTable(1, 1, 5000, None, tuple(player(i) for i in range(4)), True)
    names = {player(i): n for i, n in enumerate(("Anna", "Ben", "Clara", "Dirk"))}
    game = GameScore(GameRef(1, 1, 1), tuple((player(i), 3 if i == 0 else -1) for i in range(4)))
    blocks = sheet_block(
        table, [replace(game, soloist=player(0), solo_kind=SoloKind.LUST)], names, "en"
    )
    lines = blocks[0].strip("`\n").splitlines()
    assert lines[1].split() == ["No", "Anna", "Ben", "Clara", "Dirk", "Solo"]
    assert lines[2].split() == ["1", "+3", "-1", "-1", "-1", "L1"]


def sheet_rows(blocks: list[str]) -> list[list[str]]:
    rows = []
    for block in blocks:
        lines = block.split("```\n", 1)[1].strip("`\n").splitlines()
        rows += [line.split() for line in lines if line.split()[0].isdigit()]
    return rows


@pytest.mark.parametrize("games", [1, 24, 100])
def test_a_table_sheet_fits_discord_and_keeps_every_game(games: int, lang: Lang) -> None:
    table = tables_of(1, 5)[0]
    played = games_of(table, games, 1)
    names = {player(i): name(i) for i in range(5)}
    embed = sheet_embed(table, played, names, ["x" * 300] * 5, lang)
    assert limit_errors(embeds=[embed]) == []
    parts = [embed.description or ""] + [f.value or "" for f in embed.fields if f.name != "⚠"]
    rows = sheet_rows([p for p in parts if "```" in p])
    assert [int(r[0]) for r in rows] == list(range(1, games + 1))


def test_sheet_blocks_stay_within_a_field_and_keep_every_game(lang: Lang) -> None:
    blocks = sheet_block(tables_of(1, 5)[0], games_of(tables_of(1, 5)[0], 24, 2), {}, lang)
    assert all(len(b) <= 1000 for b in blocks)
    assert [int(r[0]) for r in sheet_rows(blocks)] == list(range(1, 25))


def test_tournament_command_names_are_valid_discord_names() -> None:
    names = {k: v for k, v in COMMAND_EN.items() if k.islower() and " " not in k}
    assert names  # the command and option names, as opposed to the descriptions
    for german, english in names.items():
        assert english.islower() and " " not in english and 1 <= len(english) <= 32, german
    for german, english in COMMAND_EN.items():
        assert 1 <= len(english) <= 100, german


@pytest.mark.parametrize(
    ("detail", "key", "values"),
    [
        (
            "no game at round 2, table 3, game 30",
            "err_correction_no_game",
            {"round": "2", "table": "3", "game": "30"},
        ),
        ("round 1, table 1, game 2: give 4 scores", "err_correction_count", {"n": "4"}),
        ("round 1, table 1, game 2: the scores are unchanged", "err_correction_unchanged", {}),
        ("a correction needs a reason", "err_correction_reason", {}),
        ("round 1, table 1, game 2: something else", "err_bad_correction", {}),
    ],
)
def test_a_refused_correction_is_told_without_english_detail(
    detail: str, key: str, values: dict[str, str], lang: Lang
) -> None:
    text = turnier_error(EngineError("bad_correction", detail), lang)
    assert text == tt(lang, key, **values)
    assert "round 1" not in text and "give" not in text


def test_the_correction_texts_match_what_the_tournament_rules_raise() -> None:
    # The messages turnier_error reads come from the tournament rules: held to them here.
    results = TournamentResults(games_of(tables_of(1, 4)[0], 3, 1), ())
    ref = results.games[0].ref
    missing = replace(ref, game=9)
    for bad, key in (
        ((missing, dict(results.games[0].scores)), "err_correction_no_game"),
        ((ref, dict(results.games[0].scores)), "err_correction_unchanged"),
    ):
        with pytest.raises(CorrectionError) as caught:
            apply_correction(results, bad[0], bad[1], "Grund", by=1, at=NOW)
        text = turnier_error(EngineError("bad_correction", str(caught.value)), "de")
        assert text == tt("de", key, round=1, table=1, game=9), text
    with pytest.raises(CorrectionError) as caught:
        apply_correction(
            results, ref, {p: 0 for p, _ in results.games[0].scores}, " ", by=1, at=NOW
        )
    assert turnier_error(EngineError("bad_correction", str(caught.value)), "en") == tt(
        "en", "err_correction_reason"
    )
