"""Winning targets and the plus-minus list (TSR 7.1, 7.2, 7.3).

Scoring works from the facts of a finished game, so it serves both games played through the
engine and score sheets of games played with real cards (``doko-score/1``).
"""

from __future__ import annotations

from enum import StrEnum
from itertools import chain
from typing import Any, NamedTuple

from bot.rules.calls import Party, calls_up_to
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.ruleset import DDV, NoWinnerScore, Ruleset

TOTAL_AUGEN = 240
ALL_TRICKS = "all tricks"
ONE_TRICK = "1 trick"


class Sonderpunkt(StrEnum):
    GEGEN_DIE_ALTEN = "gegen_die_alten"
    DOPPELKOPF = "doppelkopf"
    FUCHS = "fuchs"
    KARLCHEN = "karlchen"


DOPPELKOPF_AUGEN = 40


def is_doppelkopf(trick_augen: int) -> bool:
    """A trick of at least 40 Augen earns its winners a Sonderpunkt (TSR 7.2.3)."""
    return trick_augen >= DOPPELKOPF_AUGEN


def fuchs_caught(played_by: Party, trick_won_by: Party) -> bool:
    """A Karo-Ass counts only when it lands in a trick of the other party."""
    return played_by is not trick_won_by


def is_karlchen(winning_card_of_last_trick: Card) -> bool:
    """Only a Kreuz-Bube that wins the last trick counts; DDV has no "Karlchen gefangen"."""
    return winning_card_of_last_trick == _CJ


class ScoreFacts(NamedTuple):
    """What a score keeper needs: the contract, parties, highest calls, Augen, tricks.

    Named tuples, this and ``ScoreResult``: immutable like a frozen dataclass, whose
    ``__init__`` costs about seven times more, and every game builds one of each.
    """

    contract: Contract
    re_seats: tuple[int, ...]
    re_level: int  # -1 none, 0 Re, 1..4 keine 90 … schwarz (implies the lower levels)
    kontra_level: int
    re_augen: int
    re_tricks: int
    specials: tuple[tuple[Sonderpunkt, Party], ...] = ()  # earned in play; not gegen die Alten
    ruleset: Ruleset = DDV
    bock: int = 1  # house rule: the Bock multiplier of this game (1, 2, 4, …)


class Item(NamedTuple):
    """One line of the Spielwert; a named tuple because every game scores a handful."""

    item: str
    party: Party
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"item": self.item, "party": str(self.party), "points": self.points}


class ScoreResult(NamedTuple):
    re_augen: int
    kontra_augen: int
    re_tricks: int
    kontra_tricks: int
    calls: dict[Party, list[str]]
    re_needed: int | str
    kontra_needed: int | str
    winner: Party | None
    game_points: tuple[Item, ...]
    special_points: tuple[Item, ...]
    ignored_specials: tuple[Item, ...]
    game_value: int
    scores: tuple[int, int, int, int]
    solo: bool
    notes: tuple[str, ...] = ()
    multiplier: int = 1  # house rules: Stammtisch doubling × Bock; game_value includes it

    def to_dict(self) -> dict[str, Any]:
        out = {
            "re_augen": self.re_augen,
            "kontra_augen": self.kontra_augen,
            "re_tricks": self.re_tricks,
            "kontra_tricks": self.kontra_tricks,
            "calls": {str(p): list(v) for p, v in self.calls.items()},
            "re_needed": self.re_needed,
            "kontra_needed": self.kontra_needed,
            "winner": str(self.winner) if self.winner else "none",
            "game_points": [i.to_dict() for i in self.game_points],
            "special_points": [i.to_dict() for i in self.special_points],
            "ignored_special_points": [i.to_dict() for i in self.ignored_specials],
            "game_value": self.game_value,
            "scores": list(self.scores),
            "notes": list(self.notes),
        }
        if self.multiplier != 1:
            out["multiplier"] = self.multiplier
        return out


# Targets of a party's own Absage, and what the other side then needs (TSR 7.1.2, 7.1.3).
_OWN_TARGET: dict[int, int | str] = {1: 151, 2: 181, 3: 211, 4: ALL_TRICKS}
_AGAINST_TARGET: dict[int, int | str] = {1: 90, 2: 60, 3: 30, 4: ONE_TRICK}
# (e)/(f): Augen reached against each Absage level of the opponents.
_REACHED_AGAINST = {1: 120, 2: 90, 3: 60, 4: 30}
_ABSAGE_NAME = {1: "no90", 2: "no60", 3: "no30", 4: "schwarz"}


def needed(own_level: int, other_level: int, party: Party) -> int | str:
    """What ``party`` must reach to win, given both parties' highest calls."""
    if own_level >= 1:
        return _OWN_TARGET[own_level]
    if other_level >= 1:
        return _AGAINST_TARGET[other_level]
    # Only the Kontra party announced: Re wins with 120, Kontra needs 121 (TSR 7.1.3).
    only_kontra = own_level < 0 <= other_level if party is RE else other_level < 0 <= own_level
    if party is RE:
        return 120 if only_kontra else 121
    return 121 if only_kontra else 120


def reached(target: int | str, augen: int, tricks: int, total_tricks: int) -> bool:
    if target == ALL_TRICKS:
        return tricks == total_tricks
    if target == ONE_TRICK:
        return tricks >= 1
    assert isinstance(target, int)
    return augen >= target


RE, KONTRA = Party.RE, Party.KONTRA  # globals: loading an enum member costs a Python call
# (Re's target, Kontra's target) by (Re's level + 1, Kontra's level + 1): one lookup a game.
_NEEDS = tuple(
    tuple((needed(r, k, RE), needed(k, r, KONTRA)) for k in range(-1, 5)) for r in range(-1, 5)
)
_CJ = Card.CJ
_PARTIES = (RE, KONTRA)
_NO_WINNER_ZERO = NoWinnerScore.ZERO
_GEGEN_DIE_ALTEN = Item(Sonderpunkt.GEGEN_DIE_ALTEN.value, KONTRA, 1)
_LINES = ((90, "under_90"), (60, "under_60"), (30, "under_30"))
# Tables by party index (0 Re, 1 Kontra): hashing an enum member costs a Python call.
_ANNOUNCED = tuple(f"{p.value}_announced" for p in _PARTIES)
_DOUBLES = tuple(f"{p.value}_announced_doubles" for p in _PARTIES)
# Item names by party and level: "re_no90" …, and the lines reached against an Absage.
_ABSAGE_ITEMS = tuple({lv: f"{p.value}_{n}" for lv, n in _ABSAGE_NAME.items()} for p in _PARTIES)
_REACHED_ITEMS = {
    lv: (line, f"reached_{line}_against_{_ABSAGE_NAME[lv]}")
    for lv, line in _REACHED_AGAINST.items()
}
# [party index][level + 1]: the calls a party's highest level stands for.
_CALL_NAMES = tuple(
    tuple(tuple(map(str, calls_up_to(p, lv))) for lv in range(-1, 5)) for p in _PARTIES
)

# Every line of the Spielwert as a shared Item (they are immutable), by the index of the
# party it counts for: building named tuples was a fifth of scoring a game.
_WON = tuple(Item("won", p, 1) for p in _PARTIES)
_SCHWARZ = tuple(Item("schwarz", p, 1) for p in _PARTIES)
_UNDER = tuple(tuple((line, Item(name, p, 1)) for line, name in _LINES) for p in _PARTIES)
# [announcing party][winner]
_ANNOUNCED_ITEM = tuple(tuple(Item(_ANNOUNCED[i], p, 2) for p in _PARTIES) for i in (0, 1))
# [announcing party][winner]: the items of levels 1..4, a prefix of them per Absage level
_ABSAGE_ITEM = tuple(
    tuple(tuple(Item(_ABSAGE_ITEMS[i][lv], p, 1) for lv in range(1, 5)) for p in _PARTIES)
    for i in (0, 1)
)
# [party reaching]: (Augen needed, item) against the opponents' levels 1..4
_REACHED_ITEM = tuple(
    tuple((_REACHED_ITEMS[lv][0], Item(_REACHED_ITEMS[lv][1], p, 1)) for lv in range(1, 5))
    for p in _PARTIES
)
# Keyed like ScoreFacts.specials: (kind, party).
_SONDER_ITEM = {(kind, p): Item(kind.value, p, 1) for kind in Sonderpunkt for p in _PARTIES}


def score(facts: ScoreFacts) -> ScoreResult:
    """Score a finished game. Raises ValueError on facts that cannot be."""
    contract, re_seats, re_level, kontra_level, re_augen, re_tricks, earned, rules, bock = facts
    total_tricks = rules.tricks
    if not 0 <= re_augen <= TOTAL_AUGEN:
        raise ValueError(f"re_augen must be between 0 and {TOTAL_AUGEN}")
    if not 0 <= re_tricks <= total_tricks:
        raise ValueError(f"re_tricks must be between 0 and {total_tricks}")
    solo = contract.scored_as_solo
    expected_re = 1 if solo else 2
    if bock < 1:
        raise ValueError("the Bock multiplier is at least 1")
    if len(re_seats) != expected_re or len(set(re_seats)) != expected_re:
        raise ValueError(f"a {contract} game has {expected_re} distinct Re seat(s)")
    for s in re_seats:
        if not 0 <= s <= 3:
            raise ValueError("seats are 0..3")
    if (re_tricks == 0 and re_augen > 0) or (re_tricks == total_tricks and re_augen < TOTAL_AUGEN):
        raise ValueError("Augen and tricks do not fit together")

    # By party index, 0 Re and 1 Kontra.
    augen = (re_augen, TOTAL_AUGEN - re_augen)
    tricks = (re_tricks, total_tricks - re_tricks)
    level = (re_level, kontra_level)
    if not (-1 <= re_level <= 4 and -1 <= kontra_level <= 4):
        raise ValueError("call levels are -1 (none) to 4 (schwarz)")
    need = _NEEDS[re_level + 1][kontra_level + 1]
    winner: Party | None = None
    if reached(need[0], re_augen, re_tricks, total_tricks):
        winner = RE
    elif reached(need[1], augen[1], tricks[1], total_tricks):
        winner = KONTRA

    items: list[Item] = []
    if winner is not None:
        w = 0 if winner is RE else 1
        loser_augen = augen[1 - w]
        items.append(_WON[w])
        for line, item in _UNDER[w]:
            if loser_augen < line:
                items.append(item)
        if tricks[1 - w] == 0:
            items.append(_SCHWARZ[w])
        if not rules.stammtisch_scoring:
            # House rule (Stammtisch): Re and Kontra double the value instead of adding 2.
            if re_level >= 0:
                items.append(_ANNOUNCED_ITEM[0][w])
            if kontra_level >= 0:
                items.append(_ANNOUNCED_ITEM[1][w])
        for i in (0, 1):
            if level[i] >= 1:  # a slice to -1 (no call) would take all but one
                items.extend(_ABSAGE_ITEM[i][w][: level[i]])
    else:
        # No winner (TSR 7.1.4): only the lines the opponent stayed under count.
        for i in (0, 1):
            for line, item in _UNDER[i]:
                if augen[1 - i] < line:
                    items.append(item)
    for i in (0, 1):
        if level[1 - i] >= 1:  # a slice to -1 (no call) would take all but one
            for line, item in _REACHED_ITEM[i][: level[1 - i]]:
                if augen[i] >= line:
                    items.append(item)

    specials: list[Item] = []
    ignored: list[Item] = []
    sonder = [_SONDER_ITEM[pair] for pair in earned]
    if solo:
        ignored = sonder
    else:
        specials = sonder
        if winner is KONTRA:
            specials.insert(0, _GEGEN_DIE_ALTEN)

    notes: list[str] = []
    if winner is None and rules.no_winner_score is _NO_WINNER_ZERO:
        # House rule: a game without a winner scores nothing at all.
        ignored = [*ignored, *specials]
        items, specials = [], []
        notes.append("no_winner_zero")
    value = 0
    for _, party, points in chain(items, specials):
        value += points if party is RE else -points
    # House rule: the winners never end below zero after the Sonderpunkte.
    below_zero = (winner is RE and value < 0) or (winner is KONTRA and value > 0)
    if rules.winner_floor_zero and below_zero:
        value = 0
        notes.append("winner_floor_zero")
    multiplier = bock
    if rules.stammtisch_scoring and winner is not None:
        for i in (0, 1):
            if level[i] >= 0:
                multiplier *= 2
                notes.append(_DOUBLES[i])
    if bock > 1:
        notes.append(f"bock_x{bock}")
    value *= multiplier
    re_score = 3 * value if solo else value
    return ScoreResult(
        re_augen=re_augen,
        kontra_augen=augen[1],
        re_tricks=re_tricks,
        kontra_tricks=tricks[1],
        calls={RE: list(_CALL_NAMES[0][re_level + 1]), KONTRA: list(_CALL_NAMES[1][level[1] + 1])},
        re_needed=need[0],
        kontra_needed=need[1],
        winner=winner,
        game_points=tuple(items),
        special_points=tuple(specials),
        ignored_specials=tuple(ignored),
        game_value=value,
        scores=(
            re_score if 0 in re_seats else -value,
            re_score if 1 in re_seats else -value,
            re_score if 2 in re_seats else -value,
            re_score if 3 in re_seats else -value,
        ),
        solo=solo,
        notes=tuple(notes),
        multiplier=multiplier,
    )
