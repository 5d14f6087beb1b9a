"""Contracts (game types) and their card orders (TSR 2.3).

Every contract maps to one card order: which cards are trump, which plain-suit class each
other card follows, and a power per card kind (higher wins within its class).
"""

from __future__ import annotations

from dataclasses import dataclass
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
        return self.value.startswith("solo_")

    @property
    def scored_as_solo(self) -> bool:
        """×3 for the lone player, no Sonderpunkte (TSR 4.4, 7.2)."""
        return self not in (Contract.NORMAL, Contract.HOCHZEIT)

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


SOLOS: tuple[Contract, ...] = tuple(c for c in Contract if c.is_declared_solo)

TRUMP = 0  # class of trumps; plain suits are classes 1..4 (suit + 1)


@dataclass(frozen=True, slots=True)
class CardOrder:
    """Card order of one contract, as lookup tables indexed by card kind."""

    name: str
    klass: tuple[int, ...]  # TRUMP or suit + 1
    power: tuple[int, ...]  # higher beats lower within a class; trumps beat every plain card
    trumps_high_to_low: tuple[Card, ...]

    def is_trump(self, card: Card) -> bool:
        return self.klass[card] == TRUMP

    def follows(self, card: Card, led: Card) -> bool:
        """Whether ``card`` follows ``led``: both trump, or both of the same plain suit."""
        return self.klass[card] == self.klass[led]

    def beats(self, card: Card, best: Card) -> bool:
        """Whether ``card`` played later beats ``best`` (equal cards: the first stays ahead)."""
        if self.follows(card, best):
            return self.power[card] > self.power[best]
        return self.is_trump(card)

    def sort_key(self, card: Card) -> tuple[int, int]:
        """Sorting players use: trumps high to low, then the suits, each high to low."""
        return (self.klass[card], -self.power[card])


# Plain suits rank A 10 K Q J 9, whichever of them are not trump in the contract.
_PLAIN_RANKS = (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.DAME, Rank.BUBE, Rank.NEUN)
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
    for card in CARDS:
        if card in trump_set:
            klass.append(TRUMP)
            power.append(100 - trumps.index(card))
        else:
            klass.append(card.suit + 1)
            power.append(50 - _PLAIN_RANKS.index(card.rank))
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
