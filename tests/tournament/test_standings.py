"""Standings: shared ranks, substitutes left out, CSV round trip, corrections with an audit log."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from bot.rules.round import SoloKind
from bot.tournament.participants import Participant, Substitute
from bot.tournament.standings import (
    CSV_HEADER,
    CorrectionError,
    GameRef,
    GameScore,
    TournamentResults,
    apply_correction,
    results_csv,
    round_standings,
    standings,
    table_standings,
    tournament_points,
)

KI = Substitute(1)
WHEN = datetime(2026, 3, 1, 19, 30, tzinfo=UTC)


def game(
    r: int,
    t: int,
    g: int,
    scores: dict[Participant, int],
    *,
    out: Participant | None = None,
    soloist: Participant | None = None,
    kind: SoloKind | None = None,
) -> GameScore:
    return GameScore(GameRef(r, t, g), tuple(scores.items()), out, soloist, kind)


# Round 1: table 1 = players 1-4, table 2 = 5, 6, 7 and a substitute.
# Round 2: table 1 is a five-table of 1, 2, 5, 6, 7; table 2 = 3, 4, the substitute and 8.
GAMES = (
    game(1, 1, 1, {1: 3, 2: 3, 3: -3, 4: -3}),
    game(1, 1, 2, {1: -6, 2: 2, 3: 2, 4: 2}, soloist=1, kind=SoloKind.PFLICHT),
    game(1, 2, 1, {5: 1, 6: 1, 7: -1, KI: -1}),
    game(1, 2, 2, {5: 9, 6: -3, 7: -3, KI: -3}, soloist=5, kind=SoloKind.VORGEFUEHRT),
    game(2, 1, 1, {1: 0, 2: 2, 5: -2, 6: -1, 7: 1}, out=1),
    game(2, 2, 1, {3: 4, 4: -4, KI: 4, 8: -4}),
)


def test_points_are_summed_and_ties_share_a_rank() -> None:
    """Totals 8, 7, 3, then -3 three times (rank 4 each), so the next rank is 7."""
    rows = standings(GAMES)
    assert [(r.rank, r.participant, r.points) for r in rows] == [
        (1, 5, 1 + 9 - 2),
        (2, 2, 3 + 2 + 2),
        (3, 3, -3 + 2 + 4),
        (4, 1, 3 - 6 + 0),  # sat out in round 2
        (4, 6, 1 - 3 - 1),
        (4, 7, -1 - 3 + 1),
        (7, 8, -4),
        (8, 4, -3 + 2 - 4),
    ]


def test_ranks_follow_one_two_two_four() -> None:
    games = [
        game(1, 1, 1, {1: 6, 2: 2, 3: 2, 4: -10}),
    ]
    assert [r.rank for r in standings(games)] == [1, 2, 2, 4]


def test_substitutes_play_but_take_no_place() -> None:
    rows = standings(GAMES)
    assert KI not in [r.participant for r in rows]
    with_ki = standings(GAMES, include_substitutes=True)
    assert next(r for r in with_ki if r.participant == KI).points == -1 - 3 + 4


def test_games_and_solos_are_counted_but_sitting_out_is_no_game() -> None:
    by_player = {r.participant: r for r in standings(GAMES)}
    assert by_player[1].games == 2  # two in round 1; sat out the five-table game
    assert by_player[1].solos == 1 and by_player[1].won == 1
    assert by_player[5].solos == 1 and by_player[5].vorgefuehrt == 1
    assert by_player[2].games == 3 and by_player[2].won == 3


def test_round_and_table_tables_add_up_to_the_total() -> None:
    per_round = round_standings(GAMES)
    assert sorted(per_round) == [1, 2]
    total: dict[Participant, int] = {}
    for rows in per_round.values():
        for row in rows:
            total[row.participant] = total.get(row.participant, 0) + row.points
    assert total == tournament_points(standings(GAMES))
    tables = table_standings(GAMES, 1)
    assert [(r.rank, r.participant) for r in tables[1]] == [(1, 2), (2, 3), (2, 4), (4, 1)]
    assert KI in [r.participant for r in tables[2]]  # a table's own sheet shows its AI seat
    assert table_standings(GAMES, 3) == {}


def test_csv_round_trip() -> None:
    """The CSV reads back, with the csv module, into the same rows; names may need quoting."""
    rows = standings(GAMES, include_substitutes=True)
    names: dict[Participant, str] = {5: 'Jürgen "Dulle" Weiß', 2: "Meier, Anna"}
    text = results_csv(rows, names)
    read = list(csv.DictReader(io.StringIO(text, newline="")))
    assert tuple(read[0]) == CSV_HEADER
    assert len(read) == len(rows)
    for line, row in zip(read, rows, strict=True):
        assert int(line["rank"]) == row.rank
        assert int(line["points"]) == row.points
        assert int(line["games"]) == row.games
        assert int(line["won"]) == row.won
        assert int(line["solos"]) == row.solos
        assert int(line["vorgefuehrt"]) == row.vorgefuehrt
        p = row.participant
        assert line["player"] == names.get(p, str(p))
        assert line["player_id"] == ("" if isinstance(p, Substitute) else str(p))
    assert read[0]["player"] == 'Jürgen "Dulle" Weiß'
    assert text.splitlines()[0] == ",".join(CSV_HEADER)


def test_a_line_must_sum_to_zero_and_the_sitting_out_dealer_scores_nothing() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        game(1, 1, 1, {1: 3, 2: 3, 3: -3, 4: -2})
    with pytest.raises(ValueError, match="sitting-out"):
        game(1, 1, 1, {1: 2, 2: 0, 3: -1, 4: -1, 5: 0}, out=1)
    with pytest.raises(ValueError, match="four players"):
        game(1, 1, 1, {1: 3, 2: -3, 3: 0, 4: 0, 5: 0})
    with pytest.raises(ValueError, match="soloist"):
        game(2, 1, 1, {1: 0, 2: 3, 5: -1, 6: -1, 7: -1}, out=1, soloist=1, kind=SoloKind.LUST)


def test_a_correction_keeps_an_audit_entry() -> None:
    results = TournamentResults(GAMES)
    ref = GameRef(1, 1, 2)
    corrected, entry = apply_correction(
        results,
        ref,
        {1: -9, 2: 3, 3: 3, 4: 3},
        "  Gegenspieler hatten Kontra gesagt ",
        by=77,
        at=WHEN,
    )
    assert entry.reason == "Gegenspieler hatten Kontra gesagt"
    assert (entry.by, entry.at, entry.ref) == (77, WHEN, ref)
    assert dict(entry.before) == {1: -6, 2: 2, 3: 2, 4: 2}
    assert dict(entry.after) == {1: -9, 2: 3, 3: 3, 4: 3}
    assert corrected.audit == (entry,)
    assert corrected.game(ref).soloist == 1  # only the scores change
    assert tournament_points(standings(corrected.games))[1] == -6
    assert results.game(ref).points_of(1) == -6  # the input is left as it was
    again, _ = apply_correction(corrected, ref, {1: -6, 2: 2, 3: 2, 4: 2}, "zurück", by=1, at=WHEN)
    assert len(again.audit) == 2


@pytest.mark.parametrize("reason", ["", "   ", "\n"])
def test_a_correction_needs_a_reason(reason: str) -> None:
    with pytest.raises(CorrectionError, match="reason"):
        apply_correction(
            TournamentResults(GAMES),
            GameRef(1, 1, 1),
            {1: 0, 2: 0, 3: 0, 4: 0},
            reason,
            by=1,
            at=WHEN,
        )


def test_bad_corrections_are_refused() -> None:
    results = TournamentResults(GAMES)
    ref = GameRef(1, 1, 1)
    cases: list[tuple[GameRef, dict[Participant, int], str]] = [
        (GameRef(9, 1, 1), {1: 0, 2: 0, 3: 0, 4: 0}, "no game"),
        (ref, {1: 0, 2: 0, 3: 0, 5: 0}, "same players"),
        (ref, {1: 3, 2: 3, 3: -3, 4: -2}, "sum to zero"),
        (ref, {1: 3, 2: 3, 3: -3, 4: -3}, "unchanged"),
        (GameRef(2, 1, 1), {1: 2, 2: 0, 5: -2, 6: 2, 7: -2}, "sitting-out"),
    ]
    for target, scores, message in cases:
        with pytest.raises(CorrectionError, match=message):
            apply_correction(results, target, scores, "Tippfehler", by=1, at=WHEN)
    with pytest.raises(CorrectionError, match="time zone"):
        apply_correction(
            results, ref, {1: 0, 2: 0, 3: 0, 4: 0}, "Tippfehler", by=1, at=datetime(2026, 3, 1)
        )
