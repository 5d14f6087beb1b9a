"""Cards, suits, ranks and the record notation (``H10``, ``CQ``, ...).

A card is one of 24 kinds, a small int: ``suit * 6 + rank``. The two copies of a card
are the same value; ties between them are broken by their position in the trick.
"""

from __future__ import annotations

import random
from enum import IntEnum


class Suit(IntEnum):
    KREUZ = 0
    PIK = 1
    HERZ = 2
    KARO = 3

    @property
    def code(self) -> str:
        return "CSHD"[self]


class Rank(IntEnum):
    ASS = 0
    ZEHN = 1
    KOENIG = 2
    DAME = 3
    BUBE = 4
    NEUN = 5

    @property
    def code(self) -> str:
        return ("A", "10", "K", "Q", "J", "9")[self]


class Card(IntEnum):
    """One of the 24 card kinds; the member name is the record notation."""

    CA = 0
    C10 = 1
    CK = 2
    CQ = 3
    CJ = 4
    C9 = 5
    SA = 6
    S10 = 7
    SK = 8
    SQ = 9
    SJ = 10
    S9 = 11
    HA = 12
    H10 = 13
    HK = 14
    HQ = 15
    HJ = 16
    H9 = 17
    DA = 18
    D10 = 19
    DK = 20
    DQ = 21
    DJ = 22
    D9 = 23

    @property
    def suit(self) -> Suit:
        return Suit(self // 6)

    @property
    def rank(self) -> Rank:
        return Rank(self % 6)

    @property
    def augen(self) -> int:
        return AUGEN[self]

    @property
    def code(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        return CARDS[suit * 6 + rank]


CARDS: tuple[Card, ...] = tuple(Card)
_RANK_AUGEN = (11, 10, 4, 3, 2, 0)
AUGEN: tuple[int, ...] = tuple(_RANK_AUGEN[c % 6] for c in range(24))

# Named cards of the game.
DULLE = Card.H10
ALTE = Card.CQ
FUCHS = Card.DA
KARLCHEN = Card.CJ


class NotationError(ValueError):
    """A card code that is not valid record notation."""


_BY_CODE = {c.name: c for c in CARDS}


def parse_card(text: str) -> Card:
    """Parse a record card code in any letter case: ``h10`` → ``Card.H10``."""
    if not isinstance(text, str):
        raise NotationError(f"a card must be a string like 'H10', not {text!r}")
    card = _BY_CODE.get(text.strip().upper())
    if card is None:
        raise NotationError(f"unknown card {text!r} (suits C S H D, ranks A 10 K Q J 9)")
    return card


def deck(with_nines: bool = True) -> list[Card]:
    """The full deck, two copies of each card (48, or 40 without nines), sorted."""
    return sorted([c for c in CARDS if with_nines or c.rank is not Rank.NEUN] * 2)


def deal_hands(rng: random.Random, with_nines: bool = True) -> tuple[tuple[Card, ...], ...]:
    """Shuffle the sorted deck with the given generator and deal it to four seats, sorted."""
    cards = deck(with_nines)
    rng.shuffle(cards)
    size = len(cards) // 4
    return tuple(tuple(sorted(cards[seat * size : (seat + 1) * size])) for seat in range(4))
