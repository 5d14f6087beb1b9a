"""The leicht level: rules of thumb of a decent club player, from the PlayerView alone.

House rules: a hand that may be thrown in (Schmeißen) is thrown in unless it is worth a solo
(such a hand is weak enough that a redeal is the better game); an Armut is offered by a hand
with at most ``armut_max_trumps`` trumps and no strong plain suit, taken by a strong trump
hand, and answered with the cheapest cards (see ``armut_return``). Card play uses the card
order as the seat knows it (``PlayerView.order``: Schweinchen).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from bot.ai.knowledge import played_by, public_contract, voids_of
from bot.rules.calls import Call, Party
from bot.rules.cards import AUGEN, Card, Rank, Suit
from bot.rules.contracts import SOLOS, TRUMP, CardOrder, Contract
from bot.rules.game import (
    Action,
    Announce,
    ArmutOffer,
    Declare,
    Phase,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
    armut_trumps,
)
from bot.rules.view import PlayerView

KARLCHEN = Card.CJ
FUCHS = Card.DA
DULLE = Card.H10
# Trumps a player never schmiert: they win tricks (Dulle, Damen, Buben).
_POWER_RANKS = (Rank.DAME, Rank.BUBE)

# Taking an Armut: the taker's own hand must carry the game (normal_strength, see below).
TAKE_ARMUT_STRENGTH = 10.0

# Solo strength needed to play one voluntarily; a Pflichtsolo is played with less.
LUSTSOLO_STRENGTH = 13.5
PFLICHTSOLO_STRENGTH = 11.5


def solo_strength(hand: tuple[Card, ...] | list[Card], contract: Contract) -> float:
    """Rough count of tricks the soloist takes: trumps by length and height, plain aces."""
    order = contract.order
    trumps = [c for c in hand if order.is_trump(c)]
    all_trumps = order.trumps_high_to_low
    strength = float(len(trumps))
    if all_trumps:
        top = all_trumps[: max(3, len(all_trumps) // 4)]
        strength += 0.75 * sum(1 for c in trumps if c in top)
    for suit in Suit:
        plain = sorted(
            (c for c in hand if not order.is_trump(c) and c.suit is suit),
            key=lambda c: -order.power[c],
        )
        if not plain:
            continue
        # Aces (and a ten behind an ace) stand; every other card of the suit is a loser.
        stands = 0
        for i, c in enumerate(plain):
            if c.rank is Rank.ASS or (c.rank is Rank.ZEHN and i >= 1 and stands == i):
                stands += 1
        strength += stands * (1.0 if not all_trumps else 0.8)
        strength -= 0.6 * (len(plain) - stands)
    return strength


def best_solo(hand: tuple[Card, ...] | list[Card]) -> tuple[Contract, float]:
    return max(((c, solo_strength(hand, c)) for c in SOLOS), key=lambda x: x[1])


def normal_strength(hand: tuple[Card, ...] | list[Card]) -> float:
    """Hand strength for an Ansage in a normal game: trumps, high trumps, plain aces."""
    order = Contract.NORMAL.order
    trumps = [c for c in hand if order.is_trump(c)]
    high = sum(1 for c in trumps if c in (Card.H10, Card.CQ, Card.SQ))
    aces = sum(1 for c in hand if c.rank is Rank.ASS and not order.is_trump(c))
    return len(trumps) + 1.0 * high + 0.5 * aces


def strong_suit(hand: tuple[Card, ...] | list[Card]) -> bool:
    """A plain suit that takes tricks on its own: both Asse, or Ass and Zehn of it."""
    order = Contract.NORMAL.order
    for suit in Suit:
        plain = [c for c in hand if not order.is_trump(c) and c.suit is suit]
        ranks = [c.rank for c in plain]
        if ranks.count(Rank.ASS) == 2 or (Rank.ASS in ranks and Rank.ZEHN in ranks):
            return True
    return False


def wants_armut(view: PlayerView) -> bool:
    """Offer an Armut: allowed by the rules, few trumps and no strong plain suit."""
    rules = view.ruleset
    return (
        rules.armut
        and view.vorgefuehrt != view.seat
        and len(armut_trumps(view.hand)) <= rules.armut_max_trumps
        and not strong_suit(view.hand)
    )


def armut_return(hand: tuple[Card, ...] | list[Card], count: int, order: CardOrder) -> list[Card]:
    """The ``count`` cards a taker gives back: cheap plain cards first, then the lowest trumps.

    Plain cards go by Augen (a Neun before a König before an Ass), from the shortest suit
    first, so the taker keeps his tricks and may become void; trumps only when no plain card
    is left, the weakest first. Picks cards, never enumerates combinations.
    """
    plain = [c for c in hand if not order.is_trump(c)]
    length = Counter(c.suit for c in plain)
    plain.sort(key=lambda c: (AUGEN[c], length[c.suit], int(c)))
    trumps = sorted((c for c in hand if order.is_trump(c)), key=lambda c: (order.power[c], int(c)))
    return (plain + trumps)[:count]


@dataclass(frozen=True, slots=True)
class Table:
    """Per-decision facts the rules of thumb look at."""

    view: PlayerView
    order: CardOrder
    unseen: list[Card]  # cards neither in my hand nor played
    voids: list[int]
    team: list[int]  # +1 partner (or me), -1 opponent, 0 unknown
    led_suits: set[int]  # card classes led before in this game


def read_table(view: PlayerView) -> Table:
    order = view.order  # the card order as this seat knows it (Schweinchen)
    from bot.rules.cards import deck

    unseen = list(deck(view.ruleset.with_nines))
    for c in view.hand:
        unseen.remove(c)
    for _, code in played_by(view):
        unseen.remove(Card(code))
    me = view.own_party
    team = [0, 0, 0, 0]
    for s in range(4):
        p = view.parties[s]
        if s == view.seat:
            team[s] = 1
        elif p is not None and me is not None:
            team[s] = 1 if p is me else -1
    led = {order.klass[t.cards[0]] for t in view.tricks}
    return Table(view, order, unseen, voids_of(view), team, led)


def pflicht_open(view: PlayerView) -> bool:
    """Whether this seat still owes the round its Pflichtsolo."""
    r = view.round
    return (
        r is not None
        and view.ruleset.pflichtsolo_enabled
        and view.ruleset.solos_enabled
        and not r.pflichtsolo_done[view.seat]
    )


def reserve_for(view: PlayerView, legal: list[Action], want: Contract | None) -> Action | None:
    """The Vorbehalt action for the contract this hand wants (None: play normally), if legal:
    a hand the rules let us throw in is thrown in unless it is a solo.
    """
    if want is None or not want.is_declared_solo:
        throw = next((a for a in legal if isinstance(a, Schmeissen)), None)
        if throw is not None:
            return throw
    reserve = want is not None or wants_armut(view)
    return next((a for a in legal if isinstance(a, Reserve) and a.reserve == reserve), None)


class HeuristicStrategy:
    name = "heuristic"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = list(view.legal)
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action to choose from")
        match view.phase:
            case Phase.VORBEHALT:
                return self._reserve(view, legal)
            case Phase.DECLARE:
                return self._declare(view, legal)
            case Phase.ARMUT:
                return self._armut(view, legal)
            case Phase.PLAY:
                call = self.call(view, legal)
                if call is not None:
                    return call
                plays = [a for a in legal if isinstance(a, Play)]
                if not plays:
                    return legal[0]
                return self.play(view, plays, rng)
            case _:
                return legal[0]

    # -- Vorbehalt and contracts -----------------------------------------------------------

    def wanted(self, view: PlayerView) -> Contract | None:
        """The contract this hand should name, if any."""
        solos_ok = view.ruleset.solos_enabled
        solo, strength = best_solo(view.hand) if solos_ok else (None, 0.0)
        need = PFLICHTSOLO_STRENGTH if pflicht_open(view) else LUSTSOLO_STRENGTH
        if view.round is not None and pflicht_open(view):
            # The later in the round, the weaker a Pflichtsolo worth playing now.
            left = max(view.round.games_left, 1)
            need -= min(3.0, 4.0 / left)
        if solo is not None and strength >= need:
            return solo
        if view.hand.count(Card.CQ) == 2:
            return Contract.HOCHZEIT
        return None

    def _reserve(self, view: PlayerView, legal: list[Action]) -> Action:
        chosen = reserve_for(view, legal, self.wanted(view))
        return chosen or next((a for a in legal if isinstance(a, Reserve)), legal[0])

    def _declare(self, view: PlayerView, legal: list[Action]) -> Action:
        options = {a.contract: a for a in legal if isinstance(a, Declare)}
        want = self.wanted(view)
        if want in options:
            return options[want]
        offer = next((a for a in legal if isinstance(a, ArmutOffer)), None)
        if offer is not None:
            return offer
        # Vorgeführt, or nothing fits any more: the best solo this hand has.
        solos = [c for c in options if c.is_declared_solo]
        if solos:
            best = max(solos, key=lambda c: solo_strength(view.hand, c))
            return options[best]
        return legal[0]

    def _armut(self, view: PlayerView, legal: list[Action]) -> Action:
        armut = view.armut
        if armut is not None and armut.taker == view.seat:
            # Our own pick; legal_actions may list every combination, or none at all.
            cards = armut_return(view.hand, armut.offered, view.order)
            return ReturnCards(view.seat, tuple(sorted(cards)))
        take = normal_strength(view.hand) >= TAKE_ARMUT_STRENGTH
        for a in legal:
            if isinstance(a, TakeArmut) and a.take == take:
                return a
        return legal[0]

    # -- Ansagen and Absagen ---------------------------------------------------------------

    def call(self, view: PlayerView, legal: list[Action]) -> Announce | None:
        calls = [a for a in legal if isinstance(a, Announce)]
        if not calls:
            return None
        first = calls[0]
        if first.call in (Call.RE, Call.KONTRA):
            contract = public_contract(view)
            if view.soloist == view.seat:
                strong = solo_strength(view.hand, contract) >= LUSTSOLO_STRENGTH + 1
            elif contract.scored_as_solo:
                strong = False  # three against a soloist: let the soloist show his hand
            else:
                strong = normal_strength(view.hand) >= 11.5 - (12 - len(view.hand))
            return first if strong else None
        # keine 90: only when the own side holds 151 Augen already within reach.
        own = view.own_party
        mine = sum(
            t.augen
            for t in view.tricks
            if t.winner is not None and own is not None and view.parties[t.winner] is own
        )
        if first.call is Call.NO90 and mine >= 121:
            return first
        return None

    # -- card play -------------------------------------------------------------------------

    def play(self, view: PlayerView, plays: list[Play], rng: random.Random) -> Play:
        if len(plays) == 1:
            return plays[0]
        tb = read_table(view)
        cards = [a.card for a in plays]
        keep = self._keep_karlchen(tb, cards)
        choice = self._lead(tb, keep) if not view.current_trick else self._follow(tb, keep)
        return next(a for a in plays if a.card == choice)

    def _keep_karlchen(self, tb: Table, cards: list[Card]) -> list[Card]:
        """Hold the Kreuz-Bube back for the last trick once nothing unseen can beat it there."""
        order = tb.order
        if KARLCHEN not in cards or not order.is_trump(KARLCHEN) or len(cards) == 1:
            return cards
        beaters = [
            c for c in tb.unseen if order.is_trump(c) and order.power[c] > order.power[KARLCHEN]
        ]
        if len(beaters) > 2:
            return cards
        rest = [c for c in cards if c != KARLCHEN]
        return rest or cards

    def _sure(self, tb: Table, card: Card, trick: tuple[Card, ...], after: list[int]) -> bool:
        """Whether ``card``, on top of the trick, cannot be beaten by the seats still to play."""
        order = tb.order
        if not after:
            return True
        if all(tb.team[s] == 1 for s in after):
            return True
        led = order.klass[trick[0]] if trick else order.klass[card]
        for c in tb.unseen:
            if order.beats(c, card):
                if order.klass[c] == led:
                    return False
                # A trump over a plain card: only if a later seat can be void in the suit.
                if any(tb.voids[s] >> led & 1 for s in after) or led in tb.led_suits:
                    return False
                plain_left = sum(
                    1 for u in tb.unseen if not order.is_trump(u) and order.klass[u] == led
                )
                if plain_left < 2 * len(after):
                    return False
        return True

    def _lead(self, tb: Table, cards: list[Card]) -> Card:
        view = tb.view
        order = tb.order
        trumps = [c for c in cards if order.is_trump(c)]
        plain = [c for c in cards if not order.is_trump(c)]
        soloist = view.soloist == view.seat
        after = [(view.seat + i) % 4 for i in (1, 2, 3)]
        # The soloist pulls trumps while he holds the highest one left.
        if soloist and trumps:
            top = max(trumps, key=lambda c: order.power[c])
            if self._sure(tb, top, (), after):
                return top
        # An Ass of a suit not led yet comes through most often (Herz has few plain cards).
        aces = [c for c in plain if c.rank is Rank.ASS and order.klass[c] not in tb.led_suits]
        aces.sort(key=lambda c: -sum(1 for u in tb.unseen if order.klass[u] == order.klass[c]))
        if aces and sum(1 for u in tb.unseen if order.klass[u] == order.klass[aces[0]]) >= 3:
            return aces[0]
        # Re with trump length pulls trumps; the highest if it stands.
        strong_side = soloist or (view.own_party is Party.RE and len(trumps) >= 6)
        if trumps and strong_side:
            top = max(trumps, key=lambda c: order.power[c])
            if self._sure(tb, top, (), after):
                return top
        # Otherwise something cheap: a low plain card, else a low trump (never the Fuchs).
        if plain and not soloist:
            return min(plain, key=lambda c: (AUGEN[c], order.power[c]))
        low = [c for c in trumps if c != FUCHS] or trumps or cards
        return min(low, key=lambda c: (order.power[c], AUGEN[c]))

    def _follow(self, tb: Table, cards: list[Card]) -> Card:
        view = tb.view
        order = tb.order
        trick = view.current_trick
        leader = view.current_leader
        best_i = 0
        for i in range(1, len(trick)):
            if order.beats(trick[i], trick[best_i]):
                best_i = i
        best = trick[best_i]
        winner = (leader + best_i) % 4
        after = [(leader + i) % 4 for i in range(len(trick) + 1, 4)]
        partner_wins = tb.team[winner] == 1
        value = sum(AUGEN[c] for c in trick)
        fuchs_bait = any(c == FUCHS and tb.team[(leader + i) % 4] != 1 for i, c in enumerate(trick))
        if partner_wins and self._sure(tb, best, trick, after):
            return self._schmier(order, cards)
        winning = [c for c in cards if order.beats(c, best)]
        if winning and not partner_wins:
            if not after:
                return min(winning, key=lambda c: (order.power[c] + 100 * (c == FUCHS), AUGEN[c]))
            sure = [c for c in winning if self._sure(tb, c, trick, after)]
            if sure and (value >= 10 or fuchs_bait or not order.is_trump(sure[0])):
                return min(sure, key=lambda c: (order.is_trump(c), order.power[c]))
            if value >= 10 or fuchs_bait or not order.is_trump(winning[0]):
                cheap = [c for c in winning if c not in (FUCHS,)] or winning
                return min(cheap, key=lambda c: (order.power[c], AUGEN[c]))
        return self._smear_least(order, cards)

    def _schmier(self, order: CardOrder, cards: list[Card]) -> Card:
        """The most Augen that don't waste a trick-taking trump (the Fuchs is welcome)."""

        def wasteful(c: Card) -> bool:
            return order.is_trump(c) and (c == DULLE or c.rank in _POWER_RANKS)

        pool = [c for c in cards if not wasteful(c)] or cards
        return max(pool, key=lambda c: (AUGEN[c], -order.power[c], c == FUCHS))

    def _smear_least(self, order: CardOrder, cards: list[Card]) -> Card:
        """The fewest Augen, plain before trump, the weakest first; the Fuchs last."""
        return min(
            cards,
            key=lambda c: (c == FUCHS, AUGEN[c], order.klass[c] == TRUMP, order.power[c]),
        )
