"""Cards, suits, ranks and the record notation (``H10``, ``CQ``, ...).

A card is one of 24 kinds, a small int: ``suit * 6 + rank``. The two copies of a card
are the same value; ties between them are broken by their position in the trick.
"""

from __future__ import annotations

import _random
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


_DECKS: dict[bool, tuple[Card, ...]] = {
    nines: tuple(sorted([c for c in CARDS if nines or c % 6 != Rank.NEUN] * 2))
    for nines in (True, False)
}


def deck(with_nines: bool = True) -> list[Card]:
    """The full deck, two copies of each card (48, or 40 without nines), sorted."""
    return list(_DECKS[with_nines])


# Fisher–Yates from the last position down, each index drawn by rejection from ``k`` random
# bits: exactly the steps of ``random.shuffle`` (CPython 3.11), without a method call per card.
# Positions ``i`` that draw with the same ``k`` (the bit length of ``i + 1``) are one range.
_SHUFFLE_RANGES: dict[int, tuple[tuple[int, range], ...]] = {
    size: tuple(
        (k, range(min(size - 1, 2**k - 2), 2 ** (k - 1) - 2, -1))
        for k in range(size.bit_length(), 1, -1)
    )
    for size in (len(_DECKS[True]), len(_DECKS[False]))
}


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int seed, the same state, without the Python-level
    ``__init__`` and ``seed`` frames (a game draws its deal from a fresh generator). Only
    the generator's own draws are meant: ``gauss`` state is not set up."""
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    return rng


def deal_hands(rng: random.Random, with_nines: bool = True) -> tuple[tuple[Card, ...], ...]:
    """Shuffle with the given generator and deal the deck to four seats, sorted."""
    cards = list(_DECKS[with_nines])
    bits = rng.getrandbits
    for k, positions in _SHUFFLE_RANGES[len(cards)]:
        for i in positions:
            j = bits(k)
            while j > i:  # j must be below i + 1
                j = bits(k)
            cards[i], cards[j] = cards[j], cards[i]
    size = len(cards) // 4
    return (
        tuple(sorted(cards[:size])),
        tuple(sorted(cards[size : 2 * size])),
        tuple(sorted(cards[2 * size : 3 * size])),
        tuple(sorted(cards[3 * size :])),
    )
