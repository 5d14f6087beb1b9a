"""A fast, unchecked playout of the rest of a game with a cheap rule-of-thumb policy.

Monte-Carlo search plays each candidate card out thousands of times per decision, so this
module trades the checks of ``bot.rules.game`` for int lookups and bit tricks. Cards are ints
0..23 (``Card`` values). A hand is five ints, one per card class (trump, then the four plain
suits); bit ``2*i`` and ``2*i+1`` hold the two copies of the class's i-th weakest card, so the
weakest card is the lowest set bit and the strongest the highest, and copying a world of four
hands is copying a list of 20 ints. The card orders come from ``bot.rules.contracts``, so the
tables always agree with the rules core (house-rule orders such as Schweinchen included).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from bot.rules.cards import AUGEN, Card, Rank
from bot.rules.contracts import TRUMP, Contract
from bot.rules.ruleset import DulleTie, Ruleset

_DULLE = int(Card.H10)
_FUCHS = int(Card.DA)
_KARLCHEN = int(Card.CJ)
_MAX_STRENGTH = 320


@dataclass(frozen=True, slots=True)
class Tables:
    """Lookup tables of one contract under one ruleset."""

    klass: tuple[int, ...]
    # strength[led class][card]: 0 if the card can't win a trick of that class; a trump
    # beats every plain card, within a class the higher power wins.
    strength: tuple[tuple[int, ...], ...]
    bit: tuple[int, ...]  # lowest bit of each card kind within its class int
    card_at: tuple[tuple[int, ...], ...]  # [class][bit index] -> card
    # above[class][s]: bits of that class whose cards have a strength above s (the led class
    # is the class itself or, for trumps, any: a trump's strength doesn't depend on it).
    above: tuple[tuple[int, ...], ...]
    plain_ace: tuple[bool, ...]
    tricks: int
    sonderpunkte: bool  # Doppelkopf, Fuchs, Karlchen count (not in solos)
    dulle_trump: bool
    dulle_tie: DulleTie


@cache
def tables_for(contract: Contract, ruleset: Ruleset, schweinchen: bool = False) -> Tables:
    """The tables of a contract's card order; ``schweinchen``: the Karo-Asse rank highest.

    Pass ``schweinchen`` as the seat knows it (``PlayerView.schweinchen is not None``), so the
    tables agree with ``PlayerView.order``.
    """
    order = contract.card_order(schweinchen)
    klass = order.klass
    strength = []
    for led in range(5):
        row = []
        for card in range(24):
            if klass[card] == TRUMP:
                row.append(200 + order.power[card])
            elif klass[card] == led:
                row.append(order.power[card])
            else:
                row.append(0)
        strength.append(tuple(row))
    bit = [0] * 24
    card_at: list[list[int]] = []
    above: list[tuple[int, ...]] = []
    for k in range(5):
        kinds = sorted((c for c in range(24) if klass[c] == k), key=lambda c: order.power[c])
        at: list[int] = []
        for i, c in enumerate(kinds):
            bit[c] = 1 << (2 * i)
            at.extend((c, c))
        card_at.append(at)
        own = strength[k]
        above.append(
            tuple(
                sum(3 << (2 * i) for i, c in enumerate(kinds) if own[c] > s)
                for s in range(_MAX_STRENGTH)
            )
        )
    plain_ace = tuple(klass[c] != TRUMP and Card(c).rank is Rank.ASS for c in range(24))
    return Tables(
        klass=klass,
        strength=tuple(strength),
        bit=tuple(bit),
        card_at=tuple(tuple(a) for a in card_at),
        above=tuple(above),
        plain_ace=plain_ace,
        tricks=ruleset.tricks,
        sonderpunkte=not contract.scored_as_solo,
        dulle_trump=klass[_DULLE] == TRUMP,
        dulle_tie=ruleset.dulle_tie,
    )


def add_card(t: Tables, hands: list[int], seat: int, card: int) -> None:
    """Put one copy of ``card`` into ``seat``'s hand (a world is 20 ints, 5 per seat)."""
    i = seat * 5 + t.klass[card]
    b = t.bit[card]
    hands[i] |= b << 1 if hands[i] & b else b


def world_of(t: Tables, hands: Iterable[Iterable[int]]) -> list[int]:
    out = [0] * 20
    for seat, hand in enumerate(hands):
        for c in hand:
            add_card(t, out, seat, int(c))
    return out


def cards_of(t: Tables, world: list[int], seat: int) -> list[int]:
    """The cards of one seat, weakest of each class first."""
    out = []
    for k in range(5):
        x = world[seat * 5 + k]
        at = t.card_at[k]
        while x:
            low = x & -x
            out.append(at[low.bit_length() - 1])
            x ^= low
    return out


def _second_dulle(tie: DulleTie, last: bool) -> bool:
    if tie is DulleTie.SECOND_WINS:
        return True
    if tie is DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK:
        return not last
    if tie is DulleTie.SECOND_WINS_ONLY_LAST_TRICK:
        return last
    return False


# (Re Augen, Re tricks, net Sonderpunkte for Re, Re seats as bits, scored as a solo)
Outcome = tuple[int, int, int, int, bool]


def playout(
    t: Tables,
    w: list[int],
    leader: int,
    trick: list[int],
    tricks_done: int,
    re_mask: int,
    rnd: Callable[[], float],
    hochzeiter: int = -1,
) -> Outcome:
    """Play the game to its end from world ``w`` (consumed) and return what Re gains on the way.

    ``trick`` holds the cards already in the open trick (led by ``leader``); ``hochzeiter``
    is a seat while a Hochzeit is not yet clarified. The policy knows the parties of the
    sampled world, as determinized Monte-Carlo does.
    """
    klass = t.klass
    strength = t.strength
    card_at = t.card_at
    above = t.above
    plain_ace = t.plain_ace
    ntricks = t.tricks
    team = [(re_mask >> s) & 1 for s in range(4)]
    re_augen = 0
    re_tricks = 0
    sp = 0
    solo = not t.sonderpunkte
    led_suits = 0  # plain suits led in this playout: an Ass comes through best the first time
    number = tricks_done
    cards = list(trick)
    seat = (leader + len(cards)) & 3
    dulle_tie = t.dulle_tie
    any_second = t.dulle_trump and dulle_tie is not DulleTie.FIRST_WINS
    while number < ntricks:
        dulle2 = any_second and _second_dulle(dulle_tie, number + 1 == ntricks)
        if cards:
            # An open trick: find who is ahead.
            k = klass[cards[0]]
            sk = strength[k]
            best = -1
            wpos = 0
            for i, c in enumerate(cards):
                v = sk[c]
                if v > best or (dulle2 and v == best and c == _DULLE):
                    best = v
                    wpos = i
            wseat = (leader + wpos) & 3
        else:
            base = seat * 5
            c = -1
            # Lead an Ass of a suit not yet led: it is most likely to come through now.
            if rnd() < 0.7:
                for kk in (1, 2, 3, 4):
                    x = w[base + kk]
                    if x and not (led_suits >> kk) & 1:
                        top = x.bit_length() - 1
                        if plain_ace[card_at[kk][top]]:
                            w[base + kk] = x ^ (1 << top)
                            c = card_at[kk][top]
                            break
            if c < 0:
                x = w[base]
                if x and team[seat] and solo:
                    # The soloist pulls trumps from the top.
                    top = x.bit_length() - 1
                    w[base] = x ^ (1 << top)
                    c = card_at[0][top]
                else:
                    # A random card of the hand.
                    n = (
                        x.bit_count()
                        + w[base + 1].bit_count()
                        + w[base + 2].bit_count()
                        + w[base + 3].bit_count()
                        + w[base + 4].bit_count()
                    )
                    j = int(rnd() * n)
                    for kk in range(5):
                        x = w[base + kk]
                        m = x.bit_count()
                        if j < m:
                            while j:
                                x &= x - 1
                                j -= 1
                            low = x & -x
                            w[base + kk] ^= low
                            c = card_at[kk][low.bit_length() - 1]
                            break
                        j -= m
            k = klass[c]
            led_suits |= 1 << k
            sk = strength[k]
            cards.append(c)
            best = sk[c]
            wseat = seat
            seat = (seat + 1) & 3
        at_k = card_at[k]
        above_k = above[k]
        while len(cards) < 4:
            i = seat * 5 + k
            x = w[i]
            partner = team[wseat] == team[seat]
            if x:
                if partner:
                    # Schmieren: the partner's trick takes the fattest card of a plain suit.
                    b = (x.bit_length() - 1) if k else ((x & -x).bit_length() - 1)
                else:
                    y = x & above_k[best]
                    # The cheapest card that takes the lead, else the cheapest card.
                    b = ((y & -y) if y else (x & -x)).bit_length() - 1
                w[i] = x ^ (1 << b)
                c = at_k[b]
            else:
                base = seat * 5
                tx = w[base]
                y = 0 if partner else tx & above[0][best]
                if y:
                    low = y & -y
                    w[base] = tx ^ low
                    c = card_at[0][low.bit_length() - 1]  # ruff as cheaply as possible
                else:
                    # Discard: onto the partner the highest-Augen plain card, else the lowest.
                    pick = -1
                    pv = -1 if partner else 99
                    pb = 0
                    for kk in (1, 2, 3, 4):
                        x = w[base + kk]
                        if x:
                            b = (x.bit_length() - 1) if partner else ((x & -x).bit_length() - 1)
                            a = AUGEN[card_at[kk][b]]
                            if (a > pv) if partner else (a < pv):
                                pv = a
                                pick = kk
                                pb = b
                    if pick < 0:
                        low = tx & -tx
                        w[base] = tx ^ low
                        c = card_at[0][low.bit_length() - 1]
                    else:
                        w[base + pick] ^= 1 << pb
                        c = card_at[pick][pb]
            cards.append(c)
            v = sk[c]
            if v > best or (dulle2 and v == best and c == _DULLE):
                best = v
                wseat = seat
            seat = (seat + 1) & 3
        # The trick is complete.
        augen = AUGEN[cards[0]] + AUGEN[cards[1]] + AUGEN[cards[2]] + AUGEN[cards[3]]
        number += 1
        if hochzeiter >= 0:
            if wseat != hochzeiter:
                team[wseat] = 1
                re_mask |= 1 << wseat
                hochzeiter = -1
            elif number == 3:
                solo = True  # a failed Hochzeit: a Karo solo, no Sonderpunkte
                hochzeiter = -1
        won = team[wseat]
        if won:
            re_augen += augen
            re_tricks += 1
        if not solo:
            sign = 1 if won else -1
            if augen >= 40:
                sp += sign
            if _FUCHS in cards:
                for i in range(4):
                    if cards[i] == _FUCHS and team[(leader + i) & 3] != won:
                        sp += sign
            # Karlchen: a Kreuz-Bube is the winning card of the last trick.
            if number == ntricks and best == sk[_KARLCHEN] and _KARLCHEN in cards:
                sp += sign
        leader = wseat
        seat = wseat
        cards = []
    return (re_augen, re_tricks, sp, re_mask, solo)
