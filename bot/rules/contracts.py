"""Contracts (game types) and their card orders (TSR 2.3).

Every contract maps to one card order: which cards are trump, which plain-suit class each
other card follows, and a power per card kind (higher wins within its class).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.rules.cards import CARDS, Card, Rank, Suit


class Contract(StrEnum):
    NORMAL = "normal"
    HOCHZEIT = "hochzeit"
    HOCHZEIT_FAILED = "hochzeit_failed"
    STILLE_HOCHZEIT = "stille_hochzeit"
    SOLO_KREUZ = "solo_kreuz"
    SOLO_PIK = "solo_pik"
    SOLO_HERZ = "solo_herz"
    SOLO_KARO = "solo_karo"
    SOLO_DAMEN = "solo_damen"
    SOLO_BUBEN = "solo_buben"
    SOLO_FLEISCHLOS = "solo_fleischlos"

    @property
    def is_declared_solo(self) -> bool:
        """A solo named in the Vorbehaltsabfrage (Pflicht- or Lustsolo)."""
        return self in _DECLARED_SOLOS

    @property
    def scored_as_solo(self) -> bool:
        """×3 for the lone player, no Sonderpunkte (TSR 4.4, 7.2)."""
        return self is not _NORMAL and self is not _HOCHZEIT  # globals: enum lookups cost

    @property
    def order(self) -> CardOrder:
        return ORDERS[_ORDER_OF[self]]

    @property
    def schweinchen_possible(self) -> bool:
        """Games with the normal trumps (Karo trump), where Schweinchen can exist."""
        return _ORDER_OF[self] == "normal"

    def card_order(self, schweinchen: bool = False) -> CardOrder:
        """The card order; with ``schweinchen`` the Karo-Asse rank above the Dullen."""
        if schweinchen and self.schweinchen_possible:
            return ORDERS["schweinchen"]
        return self.order


_NORMAL = Contract.NORMAL
_HOCHZEIT = Contract.HOCHZEIT
_DECLARED_SOLOS = frozenset(c for c in Contract if c.value.startswith("solo_"))


SOLOS: tuple[Contract, ...] = tuple(c for c in Contract if c.is_declared_solo)

TRUMP = 0  # class of trumps; plain suits are classes 1..4 (suit + 1)


@dataclass(frozen=True, slots=True)
class CardOrder:
    """Card order of one contract, as lookup tables indexed by card kind."""

    name: str
    klass: tuple[int, ...]  # TRUMP or suit + 1
    power: tuple[int, ...]  # higher beats lower within a class; trumps beat every plain card
    trumps_high_to_low: tuple[Card, ...]
    # Each card's place in the players' sorting (``sort_key``), precomputed: a hand's view
    # sorts it on every action, and a tuple lookup is much cheaper than a Python key function.
    sort_rank: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_sort = sorted(CARDS, key=lambda c: (self.klass[c], -self.power[c]))
        rank = [0] * len(CARDS)
        for i, c in enumerate(by_sort):
            rank[c] = i
        object.__setattr__(self, "sort_rank", tuple(rank))

    def is_trump(self, card: Card) -> bool:
        return self.klass[card] == TRUMP

    def beats(self, card: Card, best: Card) -> bool:
        """Whether ``card`` played later beats ``best`` (equal cards: the first stays ahead)."""
        k = self.klass[card]
        kb = self.klass[best]
        if k == kb:
            return self.power[card] > self.power[best]
        return k == TRUMP

    def sort_key(self, card: Card) -> int:
        """Sorting players use: trumps high to low, then the suits, each high to low."""
        return self.sort_rank[card]


_PLAIN_RANKS: dict[str, tuple[Rank, ...]] = {
    "standard": (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.DAME, Rank.BUBE, Rank.NEUN),
}
_QUEENS = tuple(Card.of(s, Rank.DAME) for s in Suit)
_JACKS = tuple(Card.of(s, Rank.BUBE) for s in Suit)


def _color_trumps(suit: Suit) -> tuple[Card, ...]:
    # H10 stays the highest trump in every colour solo, Herz included (TSR 2.3).
    own = [Card.of(suit, r) for r in (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.NEUN)]
    own = [c for c in own if c is not Card.H10]
    return (Card.H10, *_QUEENS, *_JACKS, *own)


def _build(name: str, trumps: tuple[Card, ...]) -> CardOrder:
    trump_set = set(trumps)
    klass = []
    power = []
    plain = _PLAIN_RANKS["standard"]
    for card in CARDS:
        if card in trump_set:
            klass.append(TRUMP)
            power.append(100 - trumps.index(card))
        else:
            klass.append(card.suit + 1)
            power.append(50 - plain.index(card.rank))
    return CardOrder(name, tuple(klass), tuple(power), trumps)


def _schweinchen_trumps() -> tuple[Card, ...]:
    # House rule: the two Karo-Asse of one hand are the highest trumps, above the Dullen.
    return (Card.DA, *(c for c in _color_trumps(Suit.KARO) if c is not Card.DA))


ORDERS: dict[str, CardOrder] = {
    "normal": _build("normal", _color_trumps(Suit.KARO)),
    "schweinchen": _build("schweinchen", _schweinchen_trumps()),
    "kreuz": _build("kreuz", _color_trumps(Suit.KREUZ)),
    "pik": _build("pik", _color_trumps(Suit.PIK)),
    "herz": _build("herz", _color_trumps(Suit.HERZ)),
    "damen": _build("damen", _QUEENS),
    "buben": _build("buben", _JACKS),
    "fleischlos": _build("fleischlos", ()),
}

_ORDER_OF: dict[Contract, str] = {
    Contract.NORMAL: "normal",
    Contract.HOCHZEIT: "normal",
    Contract.HOCHZEIT_FAILED: "normal",
    Contract.STILLE_HOCHZEIT: "normal",
    Contract.SOLO_KARO: "normal",
    Contract.SOLO_KREUZ: "kreuz",
    Contract.SOLO_PIK: "pik",
    Contract.SOLO_HERZ: "herz",
    Contract.SOLO_DAMEN: "damen",
    Contract.SOLO_BUBEN: "buben",
    Contract.SOLO_FLEISCHLOS: "fleischlos",
}
