"""Seating: table sizes, substitutes, fairness of the mixing planner, seating by standing."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

import pytest

from bot.rules.round import SoloKind, next_dealer
from bot.tournament.participants import Participant, Substitute, substitutes
from bot.tournament.seating import (
    PlanningError,
    RoundPlan,
    TableAssignment,
    fill_with_substitutes,
    pair_meetings,
    plan_round,
    table_sizes,
)

SEATABLE = [n for n in range(4, 34) if n not in (6, 7, 11)]


@cache
def three_rounds(n: int, seed: int) -> tuple[RoundPlan, ...]:
    """Three mixed rounds of players 1..n (cached: the plans are frozen values)."""
    rng = random.Random(seed)
    history: list[RoundPlan] = []
    for number in (1, 2, 3):
        history.append(plan_round(range(1, n + 1), number, history, rng))
    return tuple(history)


def spread_pairs(size: int, groups: int) -> int:
    """The fewest pairs sharing a group when ``size`` players come from ``groups`` groups.

    Pigeonhole: spread as evenly as possible, q or q+1 per group.
    """
    q, r = divmod(size, groups)
    return r * (q + 1) * q // 2 + (groups - r) * q * (q - 1) // 2


def repeat_lower_bound(sizes: tuple[int, ...], rounds: int) -> int:
    """A lower bound on the pairs meeting twice, for schedules where no pair meets 3 times.

    In round r every table of size s holds at least spread_pairs(s, g) pairs that already
    shared one of the g tables of each earlier round. With at most two meetings per pair a
    repeat in round r cannot also be one from another earlier round, so the counts add up,
    and each repeat is a different pair.
    """
    return sum(
        spread_pairs(size, len(sizes)) * (r - 1) for r in range(2, rounds + 1) for size in sizes
    )


def partitions_of_eight() -> list[tuple[frozenset[int], frozenset[int]]]:
    """All 35 ways to split players 0..7 into two tables of four."""
    result = []
    for four in combinations(range(1, 8), 3):
        table = frozenset((0, *four))
        result.append((table, frozenset(range(8)) - table))
    return result


def figures(history: Sequence[RoundPlan]) -> tuple[int, int]:
    met = pair_meetings(history)
    return max(met.values()), sum(1 for c in met.values() if c > 1)


@pytest.mark.parametrize("n", SEATABLE)
def test_every_player_seated_once_per_round(n: int) -> None:
    """Each round seats the whole field, everyone exactly once."""
    for plan in three_rounds(n, seed=1):
        seated = plan.participants
        assert sorted(seated) == list(range(1, n + 1))
        assert len(set(seated)) == n


@pytest.mark.parametrize("n", SEATABLE)
def test_five_tables_exactly_when_the_field_does_not_divide_by_four(n: int) -> None:
    """N % 4 tables of five (the fewest possible), the rest of four."""
    plan = three_rounds(n, seed=1)[-1]
    sizes = [t.size for t in plan.tables]
    assert sizes.count(5) == n % 4
    assert set(sizes) <= {4, 5}
    assert sum(sizes) == n
    assert table_sizes(n) == tuple(sizes)


@pytest.mark.parametrize(("n", "fill"), [(1, 3), (2, 2), (3, 1), (6, 2), (7, 1), (11, 1)])
def test_invalid_counts_raise_and_name_the_substitutes(n: int, fill: int) -> None:
    """6, 7 and 11 (and fewer than 4) cannot be split into 4s and 5s."""
    assert fill_with_substitutes(n) == fill
    with pytest.raises(PlanningError, match=f"add {fill} AI substitute.*{n + fill}"):
        plan_round(range(n), 1, [], random.Random(0))
    plan = plan_round([*range(n), *substitutes(fill)], 1, [], random.Random(0))
    assert len(plan.participants) == n + fill


def test_seatable_counts_need_no_substitutes() -> None:
    for n in SEATABLE:
        assert fill_with_substitutes(n) == 0


def test_substitutes_are_seated_like_players() -> None:
    field: list[Participant] = [*range(1, 8), Substitute(1)]
    plan = plan_round(field, 1, [], random.Random(3))
    assert Substitute(1) in plan.participants
    assert str(Substitute(1)) == "KI 1"


def test_same_seed_same_plan_and_input_order_does_not_matter() -> None:
    """Plans are reproducible from the seed and depend on the field, not its listing order."""
    a = three_rounds(13, seed=42)
    b = three_rounds(13, seed=42)
    assert a == b
    rng = random.Random(42)
    history: list[RoundPlan] = []
    for number in (1, 2, 3):
        history.append(plan_round(reversed(range(1, 14)), number, history, rng))
    assert tuple(history) == a
    assert three_rounds(13, seed=43) != a


@pytest.mark.parametrize("n", [8, 12, 13, 16, 20])
@pytest.mark.parametrize("seed", range(4))
def test_mixing_meets_the_pigeonhole_bound(n: int, seed: int) -> None:
    """Over three rounds no pair meets three times, and repeats reach the lower bound.

    The bound (see repeat_lower_bound) is 0 for 16 and 20 players, where every table of a
    later round can take one player from each table of round 1: nobody meets anyone twice.
    For 8 players it is 4 + 8 = 12, for 12 players 3 + 6 = 9, for 13 players 4 + 8 = 12.
    """
    max_met, repeated = figures(three_rounds(n, seed))
    bound = repeat_lower_bound(table_sizes(n), 3)
    assert max_met <= 2
    assert repeated <= bound
    if n in (16, 20):
        assert bound == 0 and max_met == 1


def test_eight_player_bound_is_the_true_optimum() -> None:
    """Exhaustive check: the best any 3-round schedule of 8 players does is (2, 12).

    Round 1 may be fixed by symmetry; rounds 2 and 3 range over all 35 splits each.
    Schedules are compared by the most meetings of a pair first, then by repeated pairs.
    """
    splits = partitions_of_eight()
    first = (frozenset(range(4)), frozenset(range(4, 8)))
    best = None
    for second in splits:
        for third in splits:
            met: dict[tuple[int, int], int] = {}
            for split in (first, second, third):
                for table in split:
                    for pair in combinations(sorted(table), 2):
                        met[pair] = met.get(pair, 0) + 1
            score = (max(met.values()), sum(1 for c in met.values() if c > 1))
            best = score if best is None else min(best, score)
    assert best == (2, repeat_lower_bound((4, 4), 3))
    assert figures(three_rounds(8, seed=7)) == best


@pytest.mark.parametrize("seed", range(3))
def test_five_tables_rotate_among_players(seed: int) -> None:
    """Among equally mixed plans, the five-table goes to players who have not sat at one.

    25 players sit at five tables of four and one of five. A later round can fill its
    five-table with one player from each of the earlier round's six tables but the five-table,
    so three rounds need neither a repeat meeting nor anyone at a five-table twice.
    """
    rng = random.Random(seed)
    history: list[RoundPlan] = []
    for number in (1, 2, 3):
        history.append(plan_round(range(25), number, history, rng))
    at_five = [p for plan in history for t in plan.tables if t.size == 5 for p in t.seats]
    assert len(at_five) == len(set(at_five)) == 15
    assert max(pair_meetings(history).values()) == 1


def test_standing_mode_seats_the_top_four_together() -> None:
    field = range(1, 14)
    history = list(three_rounds(13, seed=2)[:1])
    points: dict[Participant, int] = {p: 10 * p for p in field}  # 13 leads, then 12, …
    plan = plan_round(field, 2, history, random.Random(0), mode="standing", standings=points)
    assert [sorted(t.seats) for t in plan.tables] == [
        [10, 11, 12, 13],
        [6, 7, 8, 9],
        [1, 2, 3, 4, 5],
    ]
    with pytest.raises(PlanningError, match="standings"):
        plan_round(field, 2, history, random.Random(0), mode="standing")


def test_standing_ties_are_drawn_by_lot_reproducibly() -> None:
    field = range(1, 9)
    points: dict[Participant, int] = {p: 0 for p in field}
    tops = set()
    for seed in range(10):
        plan = plan_round(field, 2, [], random.Random(seed), "standing", points)
        tops.add(tuple(sorted(plan.tables[0].seats)))
    assert len(tops) > 1
    again = plan_round(field, 2, [], random.Random(1), "standing", points)
    assert again == plan_round(field, 2, [], random.Random(1), "standing", points)


def test_duplicates_and_bad_arguments_are_refused() -> None:
    with pytest.raises(PlanningError, match="twice"):
        plan_round([1, 2, 3, 4, 4], 1, [], random.Random(0))
    with pytest.raises(PlanningError):
        plan_round(range(8), 0, [], random.Random(0))
    with pytest.raises(PlanningError):
        plan_round(range(8), 2, [], random.Random(0), mode="swiss")  # type: ignore[arg-type]


def test_four_table_game_seating_and_rotation_follow_the_rules_core() -> None:
    table = TableAssignment(1, (11, 12, 13, 14), first_dealer=2)
    seating = table.game_seating(2)
    assert seating.players == (11, 12, 13, 14)
    assert seating.dealer == 2 and seating.sitting_out is None
    for kind in (None, SoloKind.PFLICHT, SoloKind.LUST, SoloKind.VORGEFUEHRT):
        assert table.next_dealer(3, kind) == next_dealer(3, kind)


def test_five_table_dealer_sits_out_and_the_game_starts_at_his_left() -> None:
    table = TableAssignment(3, (1, 2, 3, 4, 5), first_dealer=0)
    seating = table.game_seating(0)
    assert seating.sitting_out == 1
    assert seating.players == (2, 3, 4, 5)
    assert seating.table_seats == (1, 2, 3, 4)
    # The rules core leads from the seat left of its dealer: the sitting-out dealer's left.
    assert seating.players[(seating.dealer + 1) % 4] == 2
    # Five games with the deal moving on: everyone sits out exactly once.
    dealer, out = 0, []
    for _ in range(5):
        out.append(table.game_seating(dealer).sitting_out)
        dealer = table.next_dealer(dealer, None)
    assert sorted(out) == [1, 2, 3, 4, 5]  # type: ignore[type-var]
    # After a Pflichtsolo the same dealer deals (and sits out) again.
    assert table.next_dealer(4, SoloKind.PFLICHT) == 4
    assert table.next_dealer(4, SoloKind.VORGEFUEHRT) == 0
