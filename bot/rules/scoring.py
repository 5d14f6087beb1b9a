"""Winning targets and the plus-minus list (TSR 7.1, 7.2, 7.3).

Scoring works from the facts of a finished game, so it serves both games played through the
engine and score sheets of games played with real cards (``doko-score/1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from bot.rules.calls import Party, calls_up_to
from bot.rules.cards import Card, deck
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
    return winning_card_of_last_trick == Card.CJ


class ScoreFacts(NamedTuple):
    """What a score keeper needs: the contract, parties, highest calls, Augen, tricks."""

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
    """One line of the Spielwert."""

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
_LINES = ((90, "under_90"), (60, "under_60"), (30, "under_30"))


def needed(own_level: int, other_level: int, party: Party) -> int | str:
    """What ``party`` must reach to win, given both parties' highest calls."""
    if own_level >= 1:
        return _OWN_TARGET[own_level]
    if other_level >= 1:
        return _AGAINST_TARGET[other_level]
    # Only the Kontra party announced: Re wins with 120, Kontra needs 121 (TSR 7.1.3).
    only_kontra = (
        own_level < 0 <= other_level if party is Party.RE else other_level < 0 <= own_level
    )
    if party is Party.RE:
        return 120 if only_kontra else 121
    return 121 if only_kontra else 120


def reached(target: int | str, augen: int, tricks: int, total_tricks: int) -> bool:
    if target == ALL_TRICKS:
        return tricks == total_tricks
    if target == ONE_TRICK:
        return tricks >= 1
    assert isinstance(target, int)
    return augen >= target


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

    if not (-1 <= re_level <= 4 and -1 <= kontra_level <= 4):
        raise ValueError("call levels are -1 (none) to 4 (schwarz)")
    re, kontra = Party.RE, Party.KONTRA
    augen = {re: re_augen, kontra: TOTAL_AUGEN - re_augen}
    tricks = {re: re_tricks, kontra: total_tricks - re_tricks}
    level = {re: re_level, kontra: kontra_level}
    need = {re: needed(re_level, kontra_level, re), kontra: needed(kontra_level, re_level, kontra)}
    winner: Party | None = None
    for party in (re, kontra):
        if reached(need[party], augen[party], tricks[party], total_tricks):
            winner = party
            break

    items: list[Item] = []
    if winner is not None:
        loser = winner.other
        items.append(Item("won", winner, 1))
        items.extend(Item(name, winner, 1) for line, name in _LINES if augen[loser] < line)
        if tricks[loser] == 0:
            items.append(Item("schwarz", winner, 1))
        if not rules.stammtisch_scoring:
            # House rule (Stammtisch): Re and Kontra double the value instead of adding 2.
            items.extend(Item(f"{p}_announced", winner, 2) for p in (re, kontra) if level[p] >= 0)
        for p in (re, kontra):
            items.extend(
                Item(f"{p}_{_ABSAGE_NAME[lv]}", winner, 1) for lv in range(1, level[p] + 1)
            )
    else:
        # No winner (TSR 7.1.4): only the lines the opponent stayed under count.
        for p in (re, kontra):
            items.extend(Item(name, p, 1) for line, name in _LINES if augen[p.other] < line)
    for p in (re, kontra):
        # (e)/(f): Augen reached against each of the opponents' Absagen.
        for lv in range(1, level[p.other] + 1):
            line = _REACHED_AGAINST[lv]
            if augen[p] >= line:
                items.append(Item(f"reached_{line}_against_{_ABSAGE_NAME[lv]}", p, 1))

    specials: list[Item] = []
    ignored: list[Item] = []
    sonder = [Item(kind.value, party, 1) for kind, party in earned]
    if solo:
        ignored = sonder
    else:
        specials = sonder
        if winner is kontra:
            specials.insert(0, Item(Sonderpunkt.GEGEN_DIE_ALTEN.value, kontra, 1))

    notes: list[str] = []
    if winner is None and rules.no_winner_score is NoWinnerScore.ZERO:
        # House rule: a game without a winner scores nothing at all.
        ignored = [*ignored, *specials]
        items, specials = [], []
        notes.append("no_winner_zero")
    value = sum(points if party is re else -points for _, party, points in (*items, *specials))
    # House rule: the winners never end below zero after the Sonderpunkte.
    below_zero = (winner is re and value < 0) or (winner is kontra and value > 0)
    if rules.winner_floor_zero and below_zero:
        value = 0
        notes.append("winner_floor_zero")
    multiplier = bock
    if rules.stammtisch_scoring and winner is not None:
        for p in (re, kontra):
            if level[p] >= 0:
                multiplier *= 2
                notes.append(f"{p}_announced_doubles")
    if bock > 1:
        notes.append(f"bock_x{bock}")
    value *= multiplier
    re_score = 3 * value if solo else value
    s0, s1, s2, s3 = (re_score if seat in re_seats else -value for seat in range(4))
    return ScoreResult(
        re_augen=re_augen,
        kontra_augen=augen[kontra],
        re_tricks=re_tricks,
        kontra_tricks=tricks[kontra],
        calls={p: [str(c) for c in calls_up_to(p, level[p])] for p in (re, kontra)},
        re_needed=need[re],
        kontra_needed=need[kontra],
        winner=winner,
        game_points=tuple(items),
        special_points=tuple(specials),
        ignored_specials=tuple(ignored),
        game_value=value,
        scores=(s0, s1, s2, s3),
        solo=solo,
        notes=tuple(notes),
        multiplier=multiplier,
    )


# -- what a real game can produce ------------------------------------------------------------

FUECHSE = 2  # the deck has two Karo-Asse
SEATS = range(4)
CARDS_PER_TRICK = 4


def conceded(facts: ScoreFacts, by: Party, tricks_played: int, augen_played: int) -> ScoreFacts:
    """The facts of a game that party ``by`` gives up after ``tricks_played`` tricks, in
    which both parties took ``augen_played`` Augen together.

    Every trick not yet taken goes to the other party, with its Augen (the open trick's
    cards and the cards still in hand); the Ansagen made stand, no new Sonderpunkt is
    earned. ``facts`` are those of the tricks played (Re's Augen and tricks, Sonderpunkte).
    This is how the bot scores a game an absent player's party loses (``docs/rules.md``);
    the DDV rules say nothing of an abandoned game.
    """
    if by is Party.RE:
        return facts  # Kontra takes the rest: Re keeps what it has taken
    kontra_taken = augen_played - facts.re_augen
    tricks_left = facts.ruleset.tricks - tricks_played
    return facts._replace(
        re_augen=TOTAL_AUGEN - kontra_taken, re_tricks=facts.re_tricks + tricks_left
    )


class ImpossibleGame(ValueError):
    """Score facts no game can produce. ``rule`` is a stable code that names the rule that
    is broken, ``values`` fill in its text; ``str()`` is an English sentence.
    """

    def __init__(self, rule: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.rule = rule
        self.values = values


def augen_range(tricks: int, ruleset: Ruleset = DDV) -> tuple[int, int]:
    """The fewest and the most Augen ``tricks`` tricks can hold: the lowest and the highest
    cards of the deck, four a trick.
    """
    values = sorted(card.augen for card in deck(ruleset.with_nines))
    cards = CARDS_PER_TRICK * tricks
    return sum(values[:cards]), sum(values[len(values) - cards :])


def check_possible(facts: ScoreFacts) -> None:
    """Raise ImpossibleGame unless a real game can end with these facts (TSR 7.2.3): the
    Augen fit the tricks, at most two Füchse and one Karlchen, a Doppelkopf is a trick of
    40 Augen or more, and a party that took no trick earned no Sonderpunkt. Sonderpunkte
    are checked in solos too, where they do not count: they still cannot have happened.
    """
    total_tricks = facts.ruleset.tricks
    tricks = {Party.RE: facts.re_tricks, Party.KONTRA: total_tricks - facts.re_tricks}
    augen = {Party.RE: facts.re_augen, Party.KONTRA: TOTAL_AUGEN - facts.re_augen}
    for party in Party:
        low, high = augen_range(tricks[party], facts.ruleset)
        if not low <= augen[party] <= high:
            raise ImpossibleGame(
                "augen_tricks",
                f"Augen and tricks do not fit together: {tricks[party]} tricks of {party} "
                f"hold {low} to {high} Augen, not {augen[party]}",
                party=party,
                tricks=tricks[party],
                augen=augen[party],
                low=low,
                high=high,
            )
    count = {(kind, party): 0 for kind in Sonderpunkt for party in Party}
    for kind, party in facts.specials:
        count[kind, party] += 1
    fuechse = count[Sonderpunkt.FUCHS, Party.RE] + count[Sonderpunkt.FUCHS, Party.KONTRA]
    if fuechse > FUECHSE:
        raise ImpossibleGame(
            "fuechse", f"{fuechse} Füchse: the deck has only two Karo-Asse", count=fuechse
        )
    karlchen = count[Sonderpunkt.KARLCHEN, Party.RE] + count[Sonderpunkt.KARLCHEN, Party.KONTRA]
    if karlchen > 1:
        raise ImpossibleGame(
            "karlchen", f"{karlchen} Karlchen: only the last trick can earn one", count=karlchen
        )
    for party in Party:
        earned = [kind for kind in Sonderpunkt if count[kind, party]]
        if earned and tricks[party] == 0:
            raise ImpossibleGame(
                "no_trick",
                f"{party} took no trick, so it earned no Sonderpunkt ({', '.join(earned)})",
                party=party,
                kind=earned[0],
            )
        doppelkoepfe = count[Sonderpunkt.DOPPELKOPF, party]
        if doppelkoepfe > tricks[party]:
            raise ImpossibleGame(
                "doppelkopf_tricks",
                f"{doppelkoepfe} Doppelköpfe for {party}, which took {tricks[party]} tricks",
                party=party,
                count=doppelkoepfe,
                tricks=tricks[party],
            )
        if doppelkoepfe * DOPPELKOPF_AUGEN > augen[party]:
            raise ImpossibleGame(
                "doppelkopf_augen",
                f"{doppelkoepfe} Doppelköpfe need at least {doppelkoepfe * DOPPELKOPF_AUGEN} "
                f"Augen, {party} has {augen[party]}",
                party=party,
                count=doppelkoepfe,
                need=doppelkoepfe * DOPPELKOPF_AUGEN,
                augen=augen[party],
            )
        caught = count[Sonderpunkt.FUCHS, party]
        if caught * Card.DA.augen > augen[party]:
            raise ImpossibleGame(
                "fuchs_augen",
                f"{caught} Füchse caught make {caught * Card.DA.augen} Augen, "
                f"{party} has {augen[party]}",
                party=party,
                count=caught,
                need=caught * Card.DA.augen,
                augen=augen[party],
            )


def check_scores(scores: Sequence[int]) -> None:
    """Raise ImpossibleGame unless four players' points are what one game gives (TSR 7.3):
    nothing for anyone, two winners and two losers with the same value, or a soloist with
    three times the value of each opponent.
    """
    if len(scores) != len(SEATS):
        raise ImpossibleGame("score_count", f"a game has four players, not {len(scores)}")
    ordered = sorted(scores)
    if sum(ordered) != 0:
        raise ImpossibleGame("score_sum", "the points of a game sum to zero", points=ordered)
    low, high = ordered[0], ordered[-1]
    pairs = ordered == [low, low, high, high] and low == -high
    solo = ordered[:3] == [low] * 3 or ordered[1:] == [high] * 3
    if not (pairs or solo):
        raise ImpossibleGame(
            "score_shape",
            "no game ends like this: two players win what two lose, "
            "or a soloist wins or loses three times what each opponent does",
            points=ordered,
        )
