"""Seating for a tournament round: tables of four and five, mixed or by standing.

A field of n players sits at tables of four, plus n % 4 tables of five (n = 4a + 5b with as
few five-tables as possible). Round 1 is drawn at random; later rounds either mix the field
so that players meet as many different opponents as possible, or seat it by standing. Every
random choice comes from the injected ``random.Random``, so a seed reproduces a plan.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal

from bot.rules.round import SoloKind, next_dealer
from bot.tournament.participants import Participant, participant_key

Mode = Literal["mixing", "standing"]

# Search budget of the mixing planner: fixed counts, not a time limit, so a seed always gives
# the same plan on any machine.
_RESTARTS: Final = 6
_KICKS: Final = 40


class PlanningError(ValueError):
    """The field cannot be seated as asked."""


def _seatable(n: int) -> bool:
    # n = 4a + 5b needs b ≡ n (mod 4) five-tables, the fewest being n % 4 of them.
    return n >= 4 and n >= 5 * (n % 4)


def fill_with_substitutes(n: int) -> int:
    """How many AI substitutes make a field of ``n`` seatable (0 if it already is).

    Only 1, 2, 3, 6, 7 and 11 players need any: 6 → 8, 7 → 8, 11 → 12.
    """
    if n < 0:
        raise ValueError("a field cannot have fewer than 0 players")
    k = 0
    while not _seatable(n + k):
        k += 1
    return k


def table_sizes(n: int) -> tuple[int, ...]:
    """Tables of four first, then the n % 4 tables of five; raises PlanningError if none fit."""
    if not _seatable(n):
        k = fill_with_substitutes(n)
        raise PlanningError(
            f"{n} players cannot be seated at tables of four and five; "
            f"add {k} AI substitute{'' if k == 1 else 's'} for a field of {n + k}"
        )
    fives = n % 4
    return (4,) * ((n - 5 * fives) // 4) + (5,) * fives


def next_table_dealer(size: int, dealer: int, solo_kind: SoloKind | None) -> int:
    """The table seat dealing next: the rules core's rotation, round five seats if need be."""
    if size == 4:
        return next_dealer(dealer, solo_kind)
    # The same dealer deals again after a Pflichtsolo (TSR 3.3), else the deal moves on.
    return dealer if solo_kind is SoloKind.PFLICHT else (dealer + 1) % size


@dataclass(frozen=True, slots=True)
class GameSeating:
    """The four players of one game as rules-core seats 0..3, and the dealer seat for ``Deal``.

    At a five-table the dealer sits out and scores 0. Game seat 0 is his left neighbour and
    the game's dealer seat is his right neighbour (seat 3), so that the Vorbehaltsabfrage,
    the lead and Vorführen all count from his left, as if he played.
    """

    players: tuple[Participant, Participant, Participant, Participant]
    table_seats: tuple[int, int, int, int]
    dealer: int
    sitting_out: Participant | None


@dataclass(frozen=True, slots=True)
class TableAssignment:
    """One table of a round: its players in clockwise seat order and who deals first."""

    number: int
    seats: tuple[Participant, ...]
    first_dealer: int

    def __post_init__(self) -> None:
        if len(self.seats) not in (4, 5):
            raise ValueError("a table seats four or five players")
        if not 0 <= self.first_dealer < len(self.seats):
            raise ValueError("the first dealer must be one of the table's seats")

    @property
    def size(self) -> int:
        return len(self.seats)

    def game_seating(self, dealer: int) -> GameSeating:
        """Who plays the game that table seat ``dealer`` deals, and in which game seat."""
        if self.size == 4:
            s = self.seats
            return GameSeating((s[0], s[1], s[2], s[3]), (0, 1, 2, 3), dealer, None)
        t = tuple((dealer + k) % 5 for k in range(1, 5))
        table_seats = (t[0], t[1], t[2], t[3])
        players = tuple(self.seats[i] for i in table_seats)
        return GameSeating(
            (players[0], players[1], players[2], players[3]),
            table_seats,
            3,
            self.seats[dealer],
        )

    def next_dealer(self, dealer: int, solo_kind: SoloKind | None) -> int:
        return next_table_dealer(self.size, dealer, solo_kind)


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """The seating of one tournament round."""

    round_number: int
    mode: Mode
    tables: tuple[TableAssignment, ...]

    @property
    def participants(self) -> tuple[Participant, ...]:
        return tuple(p for table in self.tables for p in table.seats)

    def table_of(self, participant: Participant) -> TableAssignment:
        for table in self.tables:
            if participant in table.seats:
                return table
        raise KeyError(participant)


def _pair(a: Participant, b: Participant) -> tuple[Participant, Participant]:
    return (a, b) if participant_key(a) <= participant_key(b) else (b, a)


def pair_meetings(history: Iterable[RoundPlan]) -> Counter[tuple[Participant, Participant]]:
    """How often each pair of participants sat at the same table."""
    met: Counter[tuple[Participant, Participant]] = Counter()
    for plan in history:
        for table in plan.tables:
            for a, b in combinations(table.seats, 2):
                met[_pair(a, b)] += 1
    return met


def plan_round(
    players: Iterable[Participant],
    round_number: int,
    history: Sequence[RoundPlan],
    rng: random.Random,
    mode: Mode = "mixing",
    standings: Mapping[Participant, int] | None = None,
) -> RoundPlan:
    """Seat the field for round ``round_number``.

    Round 1 is drawn at random. Later rounds in ``"mixing"`` mode minimise repeat meetings
    over ``history`` (a pair meeting for the third time costs more than every second meeting
    of the round together), then spread the five-table seats; in ``"standing"`` mode the
    field is seated by ``standings`` (tournament points, highest first, ties drawn by lot;
    anyone missing from it, such as a substitute, counts 0): the top four at table 1, and so
    on, with the five-tables last. Seat order and the first dealer of each table are drawn
    too. ``history`` may name players who have since withdrawn; they are ignored.
    """
    field = sorted(players, key=participant_key)
    if len(set(field)) != len(field):
        raise PlanningError("a participant is listed twice")
    if round_number < 1:
        raise PlanningError("rounds are numbered from 1")
    if mode not in ("mixing", "standing"):
        raise PlanningError(f"unknown seating mode {mode!r}")
    sizes = table_sizes(len(field))
    if round_number == 1:
        order = list(field)
        rng.shuffle(order)
        groups = _cut(order, sizes)
    elif mode == "standing":
        if standings is None:
            raise PlanningError("seating by standing needs the standings")
        order = list(field)
        rng.shuffle(order)  # the lot for equal points; sort() is stable
        order.sort(key=lambda p: -standings.get(p, 0))
        groups = _cut(order, sizes)
    else:
        groups = _mix(field, sizes, history, rng)
    tables = []
    for number, group in enumerate(groups, start=1):
        seats = list(group)
        rng.shuffle(seats)
        tables.append(TableAssignment(number, tuple(seats), rng.randrange(len(seats))))
    return RoundPlan(round_number, mode, tuple(tables))


def _cut(order: Sequence[Participant], sizes: Sequence[int]) -> list[list[Participant]]:
    groups: list[list[Participant]] = []
    start = 0
    for size in sizes:
        groups.append(list(order[start : start + size]))
        start += size
    return groups


class _Search:
    """Iterated local search over swaps of two players between tables.

    ``weight[x][y]`` is the cost of x and y meeting again; ``fives[x]`` the cost of x
    sitting at a five-table once more. ``near[x][t]`` caches the summed weight between x
    and the players at table t, so a swap is valued in constant time.
    """

    def __init__(self, weight: list[list[int]], fives: list[int], sizes: Sequence[int]) -> None:
        self.weight = weight
        self.fives = fives
        self.sizes = sizes
        self.n = len(weight)
        self.tables: list[list[int]] = []
        self.where: list[int] = []
        self.near: list[list[int]] = []

    def load(self, tables: list[list[int]]) -> None:
        self.tables = [list(t) for t in tables]
        self.where = [0] * self.n
        for t, members in enumerate(self.tables):
            for x in members:
                self.where[x] = t
        self.near = [
            [sum(self.weight[x][z] for z in members) for members in self.tables]
            for x in range(self.n)
        ]

    def cost(self) -> int:
        total = 0
        for members in self.tables:
            total += sum(self.weight[a][b] for a, b in combinations(members, 2))
            if len(members) == 5:
                total += sum(self.fives[x] for x in members)
        return total

    def delta(self, x: int, y: int) -> int:
        a, b = self.where[x], self.where[y]
        w, near = self.weight, self.near
        d = near[y][a] - w[y][x] - near[x][a] + near[x][b] - w[x][y] - near[y][b]
        if self.sizes[a] != self.sizes[b]:
            into_five = y if self.sizes[a] == 5 else x
            out_of_five = x if into_five == y else y
            d += self.fives[into_five] - self.fives[out_of_five]
        return d

    def swap(self, x: int, y: int) -> None:
        a, b = self.where[x], self.where[y]
        ta, tb = self.tables[a], self.tables[b]
        ta[ta.index(x)] = y
        tb[tb.index(y)] = x
        self.where[x], self.where[y] = b, a
        for p in range(self.n):
            row = self.near[p]
            change = self.weight[p][y] - self.weight[p][x]
            row[a] += change
            row[b] -= change

    def climb(self) -> None:
        """Apply improving swaps until none is left."""
        improved = True
        while improved:
            improved = False
            for x in range(self.n):
                for y in range(x + 1, self.n):
                    if self.where[x] != self.where[y] and self.delta(x, y) < 0:
                        self.swap(x, y)
                        improved = True

    def kick(self, rng: random.Random, swaps: int) -> None:
        for _ in range(swaps):
            x = rng.randrange(self.n)
            others = [y for y in range(self.n) if self.where[y] != self.where[x]]
            self.swap(x, rng.choice(others))


def _mix(
    field: Sequence[Participant],
    sizes: Sequence[int],
    history: Sequence[RoundPlan],
    rng: random.Random,
) -> list[list[Participant]]:
    if len(sizes) == 1:
        return [list(field)]
    n = len(field)
    index = {p: i for i, p in enumerate(field)}
    met = [[0] * n for _ in range(n)]
    fives = [0] * n
    for plan in history:
        for table in plan.tables:
            ids = [index[p] for p in table.seats if p in index]
            for a, b in combinations(ids, 2):
                met[a][b] += 1
                met[b][a] += 1
            if table.size == 5:
                for i in ids:
                    fives[i] += 1
    # Lexicographic costs in one integer: a pair meeting for the (c+1)-th time weighs more
    # than every pair of the round meeting for the c-th time, and any repeat outweighs all
    # five-table seats together.
    base = sum(s * (s - 1) // 2 for s in sizes) + 1
    scale = sum(fives) + 1
    weight = [[0 if c == 0 else base ** (c - 1) * scale for c in row] for row in met]

    # No plan beats zero repeats with the five-table seats on those who had the fewest.
    floor = sum(sorted(fives)[: 5 * sizes.count(5)])
    search = _Search(weight, fives, sizes)
    best: list[list[int]] = []
    best_cost = -1
    for _ in range(_RESTARTS):
        order = list(range(n))
        rng.shuffle(order)
        start = 0
        tables = []
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        search.load(tables)
        search.climb()
        current, current_cost = [list(t) for t in search.tables], search.cost()
        for _ in range(_KICKS):
            if current_cost == floor:
                break
            search.load(current)
            search.kick(rng, 2)
            search.climb()
            cost = search.cost()
            # Accept equal costs too, to walk across plateaus.
            if cost <= current_cost:
                current, current_cost = [list(t) for t in search.tables], cost
        if best_cost < 0 or current_cost < best_cost:
            best, best_cost = current, current_cost
        if best_cost == floor:
            break
    return [[field[i] for i in sorted(members)] for members in best]
