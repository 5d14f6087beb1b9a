"""The duplicate comparison: each result against the mean of its deal and seat."""

from __future__ import annotations

from fractions import Fraction

from bot.tournament.duplicate import DealResult, compare, deal_seed


def test_deal_seeds_are_fixed_by_challenge_deal_and_attempt() -> None:
    assert deal_seed(5, 0) == deal_seed(5, 0)
    seeds = {deal_seed(5, d, a) for d in range(24) for a in range(3)} | {deal_seed(6, 0)}
    assert len(seeds) == 24 * 3 + 1
    assert all(0 <= s < 2**62 for s in seeds)


def test_results_are_compared_with_their_field_only() -> None:
    results = [
        DealResult(1, 0, 0, 3),
        DealResult(2, 0, 0, -1),
        DealResult(3, 0, 0, 1),
        DealResult(1, 1, 1, -2),
        DealResult(2, 1, 1, 4),
        DealResult(3, 1, 2, 9),  # another seat: a field of its own
    ]
    comparison = compare(results)
    first = comparison.of(1)
    assert [c.field_mean for c in first] == [Fraction(1), Fraction(1)]
    assert [c.difference for c in first] == [Fraction(2), Fraction(-3)]
    assert comparison.of(3)[1].field_size == 1 and comparison.of(3)[1].difference == 0
    by_player = {s.player: s for s in comparison.standings}
    assert by_player[2].difference == Fraction(1) and by_player[2].rank == 1
    assert by_player[3].difference == 0 and by_player[3].rank == 2
    assert by_player[1].difference == -1 and by_player[1].rank == 3
    assert sum(s.difference for s in comparison.standings) == 0
    best, worst = comparison.best(), comparison.worst()
    assert best is not None and best.result == DealResult(2, 1, 1, 4)
    assert worst is not None and worst.result == DealResult(1, 1, 1, -2)


def test_equal_totals_share_a_rank() -> None:
    comparison = compare([DealResult(1, 0, 0, 2), DealResult(2, 0, 0, 2)])
    assert [s.rank for s in comparison.standings] == [1, 1]
    assert compare([]).best() is None
