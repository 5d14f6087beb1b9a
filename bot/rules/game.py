"""The game state machine: Vorbehaltsabfrage, declarations, play, Ansagen, scoring.

A game is its ``Deal`` plus the accepted actions; ``Game.apply`` validates every action and
raises ``IllegalActionError`` with a machine-readable reason. ``replay`` rebuilds the state.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import NamedTuple, NoReturn, assert_never

from bot.rules.calls import (
    NO_CALLS,
    Call,
    CallError,
    Party,
    PartyCalls,
    check_call,
)
from bot.rules.calls import legal_calls as _legal_calls
from bot.rules.cards import AUGEN, CARDS, Card, Rank, deal_hands, deck, seeded_random
from bot.rules.contracts import SOLOS, TRUMP, CardOrder, Contract
from bot.rules.fast import FastTables, fast_tables, trick_winner
from bot.rules.round import RoundContext, SoloKind, bock_triggers, next_dealer
from bot.rules.ruleset import DDV, BockTrigger, DulleTie, Ruleset, SchmeissenReason
from bot.rules.scoring import (
    ScoreFacts,
    ScoreResult,
    Sonderpunkt,
    fuchs_caught,
    is_doppelkopf,
    is_karlchen,
    score,
)


class Phase(StrEnum):
    VORBEHALT = "vorbehalt"
    DECLARE = "declare"
    ARMUT = "armut"  # house rule: the others are asked to take the Armut, the taker returns cards
    PLAY = "play"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Reserve:
    """The Vorbehaltsabfrage: ``reserve=False`` is "gesund", ``True`` is "Vorbehalt"."""

    seat: int
    reserve: bool


@dataclass(frozen=True, slots=True)
class Declare:
    """Naming ("taufen") a reservation: Hochzeit or a solo."""

    seat: int
    contract: Contract


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Announce:
    """An Ansage or Absage; any seat may announce at any time within its deadline."""

    seat: int
    call: Call


@dataclass(frozen=True, slots=True)
class Schmeissen:
    """House rule Schmeißen: on its turn in the Vorbehaltsabfrage, throw in a hand for a redeal."""

    seat: int


@dataclass(frozen=True, slots=True)
class ArmutOffer:
    """House rule Armut: naming the reservation by offering every trump of the hand."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TakeArmut:
    """Asked in turn from the poor seat's left: take the offered trumps (and be the partner)."""

    seat: int
    take: bool


@dataclass(frozen=True, slots=True)
class ReturnCards:
    """The taker gives the poor seat as many cards as it received (trumps allowed)."""

    seat: int
    cards: tuple[Card, ...]


Action = Reserve | Declare | Play | Announce | Schmeissen | ArmutOffer | TakeArmut | ReturnCards


class Redeal(StrEnum):
    """Why a game ended without being played: the same dealer deals again, nobody scores."""

    SCHMEISSEN = "schmeissen"
    ARMUT_DECLINED = "armut_declined"


# Actions are values; the hot path hands out shared instances instead of building new ones.
# Keyed by Card in dicts: a Card indexes a tuple on the slow generic path (int subclass).
_PLAYS: tuple[dict[Card, Play], ...] = tuple({c: Play(s, c) for c in CARDS} for s in range(4))
_ANNOUNCES: tuple[dict[Call, Announce], ...] = tuple(
    {c: Announce(s, c) for c in Call} for s in range(4)
)
_RESERVES: tuple[tuple[Reserve, Reserve], ...] = tuple(
    (Reserve(s, False), Reserve(s, True)) for s in range(4)
)
_DECLARES: tuple[dict[Contract, Declare], ...] = tuple(
    {c: Declare(s, c) for c in Contract} for s in range(4)
)
_SOLO_DECLARES: tuple[tuple[Declare, ...], ...] = tuple(
    tuple(_DECLARES[s][c] for c in SOLOS) for s in range(4)
)


# Module globals: loading one is about ten times cheaper than an enum member (Python 3.11).
_VORBEHALT, _DECLARE, _ARMUT, _PLAY, _FINISHED = (
    Phase.VORBEHALT,
    Phase.DECLARE,
    Phase.ARMUT,
    Phase.PLAY,
    Phase.FINISHED,
)
_RE, _KONTRA = Party.RE, Party.KONTRA
_CQ, _DA = Card.CQ, Card.DA
_DOPPELKOPF, _FUCHS, _KARLCHEN = Sonderpunkt.DOPPELKOPF, Sonderpunkt.FUCHS, Sonderpunkt.KARLCHEN
_NORMAL, _HOCHZEIT, _HOCHZEIT_FAILED, _STILLE_HOCHZEIT = (
    Contract.NORMAL,
    Contract.HOCHZEIT,
    Contract.HOCHZEIT_FAILED,
    Contract.STILLE_HOCHZEIT,
)
_VORGEFUEHRT, _PFLICHT, _LUST = SoloKind.VORGEFUEHRT, SoloKind.PFLICHT, SoloKind.LUST
_NORMAL_ORDER = Contract.NORMAL.order
_NEXT_SEAT = (1, 2, 3, 0)
# The Vorbehaltsabfrage's speaking order by dealer: the seat after the dealer first.
_SPEAKERS: tuple[tuple[int, ...], ...] = tuple(
    tuple((dealer + k) % 4 for k in range(1, 5)) for dealer in range(4)
)


class IllegalActionError(ValueError):
    """An action the rules forbid now. ``reason`` is a stable code for front ends."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Deal:
    """Everything fixed before the first action: hands, dealer, round context, rules."""

    hands: tuple[tuple[Card, ...], ...]
    dealer: int
    round: RoundContext | None = None
    ruleset: Ruleset = DDV
    seed: int | None = None
    bock: int = 1  # house rule: this game's Bock multiplier (``round.BockState.multiplier``)

    def __post_init__(self) -> None:
        self._check_setting()
        # A hand is a set of cards: kept sorted, so that a game starts from them as they are.
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in self.hands))
        if len(self.hands) != 4:
            raise ValueError("a deal has four hands")
        size = self.ruleset.hand_size
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                raise ValueError(f"seat {seat} holds {len(hand)} cards, not {size}")
        if sorted(itertools.chain.from_iterable(self.hands)) != deck(self.ruleset.with_nines):
            raise ValueError("the four hands together are not exactly the deck")

    def _check_setting(self) -> None:
        if not 0 <= self.dealer <= 3:
            raise ValueError("dealer must be a seat 0..3")
        if self.bock < 1:
            raise ValueError("the Bock multiplier is at least 1")

    @classmethod
    def shuffled(
        cls,
        seed: int,
        dealer: int = 0,
        round: RoundContext | None = None,
        ruleset: Ruleset = DDV,
        bock: int = 1,
    ) -> Deal:
        """A seeded deal: the same seed always gives the same hands."""
        hands = deal_hands(seeded_random(seed), ruleset.with_nines)
        # Dealt from the deck itself, so ``__post_init__``'s card check (sorting 48 cards,
        # a tenth of starting a game) is skipped; the other checks still run.
        deal = object.__new__(cls)
        for name, value in zip(
            _DEAL_FIELDS, (hands, dealer, round, ruleset, seed, bock), strict=True
        ):
            object.__setattr__(deal, name, value)
        deal._check_setting()
        return deal


_DEAL_FIELDS = tuple(f.name for f in fields(Deal))


class Trick(NamedTuple):
    """A trick as played; a named tuple because a game builds twelve on its hot path."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None = None  # seat; None while the trick is open

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple((self.leader + i) % 4 for i in range(len(self.cards)))

    @property
    def augen(self) -> int:
        return sum(AUGEN[c] for c in self.cards)


@dataclass(frozen=True, slots=True)
class HochzeitInfo:
    hochzeiter: int
    clarification_trick: int | None  # 1..3 once decided
    partner: int | None  # None while open, and in a failed Hochzeit


@dataclass(frozen=True, slots=True)
class ArmutInfo:
    """House rule Armut: the poor seat, its trumps, who declined, who took, what came back."""

    poor: int
    cards: tuple[Card, ...]
    declined: tuple[int, ...] = ()
    taker: int | None = None
    returned: tuple[Card, ...] | None = None

    def asked_next(self) -> int | None:
        """The seat to answer next, from the poor seat's left; None once taken or all declined."""
        if self.taker is not None or len(self.declined) == 3:
            return None
        return (self.poor + 1 + len(self.declined)) % 4


def armut_trumps(hand: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    """The trumps a poor hand offers, by the normal game's card order, high to low."""
    order = Contract.NORMAL.order
    return tuple(sorted((c for c in hand if order.klass[c] == TRUMP), key=order.sort_key))


def schmeissen_reasons(
    hand: list[Card] | tuple[Card, ...], ruleset: Ruleset
) -> tuple[SchmeissenReason, ...]:
    """The enabled Schmeißen triggers this hand meets (house rule)."""
    if not ruleset.schmeissen:
        return ()  # the DDV case, asked on every turn of the Vorbehaltsabfrage
    nines = sum(c % 6 == Rank.NEUN for c in hand)
    kings = sum(c % 6 == Rank.KOENIG for c in hand)
    met = {
        SchmeissenReason.NEUNEN: nines >= 5,
        SchmeissenReason.KOENIGE: kings >= 5,
        SchmeissenReason.NEUNEN_KOENIGE: nines + kings >= 7,
        SchmeissenReason.WENIG_TRUMPF: len(armut_trumps(hand)) <= 1,
    }
    return tuple(r for r in SchmeissenReason if r in ruleset.schmeissen and met[r])


def schweinchen_holder(hands: list[list[Card]] | tuple[tuple[Card, ...], ...]) -> int | None:
    """The seat holding both Karo-Asse, if any."""
    return next((s for s in range(4) if list(hands[s]).count(Card.DA) == 2), None)


def trick_winner_index(
    order: CardOrder, cards: tuple[Card, ...] | list[Card], last_trick: bool, dulle_tie: DulleTie
) -> int:
    """Position of the winning card; of two equal cards the first wins (TSR 5.3)."""
    best = 0
    for i in range(1, len(cards)):
        card = cards[i]
        top = cards[best]
        if card == top == Card.H10 and order.klass[card] == TRUMP:
            if _second_dulle_wins(dulle_tie, last_trick):
                best = i
        elif order.beats(card, top):
            best = i
    return best


def _second_dulle_wins(tie: DulleTie, last_trick: bool) -> bool:
    match tie:
        case DulleTie.FIRST_WINS:
            return False
        case DulleTie.SECOND_WINS:
            return True
        case DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK:
            return not last_trick
        case DulleTie.SECOND_WINS_ONLY_LAST_TRICK:
            return last_trick
        case _:
            assert_never(tie)


def legal_cards(
    order: CardOrder, hand: list[Card] | tuple[Card, ...], led: Card | None
) -> list[Card]:
    """Cards that may be played: follow the led class (trump or plain suit) if possible."""
    if led is None:
        return list(hand)
    k = order.klass[led]
    follow = [c for c in hand if order.klass[c] == k]
    return follow if follow else list(hand)


def clarify_hochzeit(hochzeiter: int, trick_winners: list[int]) -> HochzeitInfo:
    """The first of tricks 1–3 not won by the Hochzeiter finds the partner (TSR 4.4).

    If the Hochzeiter wins all three, trick 3 is the Klärungsstich and he plays alone.
    """
    for number, winner in enumerate(trick_winners[:3], start=1):
        if winner != hochzeiter:
            return HochzeitInfo(hochzeiter, number, winner)
    if len(trick_winners) >= 3:
        return HochzeitInfo(hochzeiter, 3, None)
    return HochzeitInfo(hochzeiter, None, None)


class Game:
    """The live state of one game, changed only through ``apply``."""

    # Slots: with more than 30 attributes an instance dict stops sharing its keys, and
    # every attribute access becomes a dict lookup (CPython 3.11).
    __slots__ = (
        "_code",
        "_fcur",
        "_fh",
        "_follow",
        "_follows",
        "_ft",
        "_last_call_at",
        "_log",
        "_order",
        "_play_turn",
        "_played",
        "_speakers",
        "_trick_objects",
        "_tricks",
        "_turn",
        "armut",
        "armut_offers",
        "calls",
        "contract",
        "deal",
        "dealer",
        "declarations",
        "hands",
        "hochzeit",
        "leader",
        "parties",
        "party_calls",
        "phase",
        "redeal",
        "reservations",
        "result",
        "rules",
        "schweinchen",
        "solo_kind",
        "soloist",
        "vorgefuehrt",
    )

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.rules = deal.ruleset
        self.dealer = deal.dealer
        self.hands: list[list[Card]] = list(map(list, deal.hands))  # sorted by the Deal
        # Every action but the plays, each with the number of cards played before it: the
        # plays are in the tricks already, and ``actions`` merges the two when asked.
        self._log: list[tuple[int, Action]] = []
        self.reservations: list[bool | None] = [None] * 4
        self.declarations: dict[int, Contract] = {}
        self.contract: Contract | None = None
        self.soloist: int | None = None
        self.solo_kind: SoloKind | None = None
        self.hochzeit: HochzeitInfo | None = None
        self.parties: list[Party | None] = [None] * 4
        self.party_calls: dict[Party, PartyCalls] = {_RE: NO_CALLS, _KONTRA: NO_CALLS}
        self.calls: list[tuple[int, Call, int]] = []  # (seat, call, cards in hand)
        self.leader: int = (self.dealer + 1) % 4
        self.result: ScoreResult | None = None
        self.vorgefuehrt: int | None = None
        self.armut_offers: dict[int, tuple[Card, ...]] = {}  # Armut named in the declare phase
        self.armut: ArmutInfo | None = None  # the Armut being played, once it prevailed
        self.schweinchen: int | None = None  # seat holding both Karo-Asse as Schweinchen
        self.redeal: Redeal | None = None  # ended without play: deal again, nobody scores
        self._speakers = _SPEAKERS[self.dealer]
        ctx = self._pflichtsolo_round()
        if ctx is not None:
            self.vorgefuehrt = ctx.vorgefuehrt(self.dealer)
        if self.vorgefuehrt is None:
            self.phase = _VORBEHALT
            self._turn: int | None = self._speakers[0]
        else:
            self.phase = _DECLARE  # the vorgeführt seat names its solo, nobody else speaks
            self._turn = self.vorgefuehrt
        self._order: CardOrder = _NORMAL_ORDER
        # The play phase runs on fast ids (bot.rules.fast): the card order's tables, each
        # hand as a sorted fast-id list, the open trick; ``hands`` and ``current`` mirror them.
        self._ft: FastTables = fast_tables(_NORMAL, self.rules)
        self._code = self._ft.code  # Card → fast id, the hot path's first lookup
        self._fh: list[list[int]] = []
        self._fcur: list[int] = []
        # The open trick's led class, set when a trick is led: as a fast-id range [lo, hi)
        # for ``legal_cards``, and as a table of which cards follow it for ``play``.
        self._follow: tuple[int, int] = (0, 0)
        self._follows: tuple[bool, ...] = ()
        # The seat to play a card, -1 outside the play phase: one check on the hot path.
        self._play_turn = -1
        # Each finished trick as (leader, winner, Augen, its four fast ids); ``tricks`` builds
        # the Trick objects from it when asked, so a game that nobody looks at makes none.
        self._played: list[tuple[int, int, int, list[int]]] = []
        self._trick_objects: list[Trick] = []
        self._tricks = self.rules.hand_size  # tricks in a game (10 without nines)
        # Fewest cards in hand with which any call is still possible (a reply to "schwarz").
        self._last_call_at = self._tricks - 6

    # -- queries ---------------------------------------------------------------------------

    @property
    def order(self) -> CardOrder:
        return self._order

    @property
    def current(self) -> list[Card]:
        """The cards of the open trick so far, led card first (a new list)."""
        return self._ft.decode(self._fcur)

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order (do not change the list)."""
        built = self._trick_objects
        if len(built) < len(self._played):
            card = self._ft.card
            for leader, winner, _, (c0, c1, c2, c3) in self._played[len(built) :]:
                built.append(Trick(leader, (card[c0], card[c1], card[c2], card[c3]), winner))
        return built

    @property
    def actions(self) -> list[Action]:
        """Every accepted action in order (a new list): ``replay(deal, actions)`` rebuilds
        the game. Plays are kept only in the tricks, so the hot path logs nothing per card."""
        card = self._ft.card  # plays come after the contract's tables are set
        plays = [
            _PLAYS[(leader + i) % 4][card[c]]
            for leader, _, _, cards in self._played
            for i, c in enumerate(cards)
        ]
        plays.extend(_PLAYS[(self.leader + i) % 4][card[c]] for i, c in enumerate(self._fcur))
        out: list[Action] = []
        done = 0
        for before, action in self._log:
            out.extend(plays[done:before])
            done = before
            out.append(action)
        out.extend(plays[done:])
        return out

    @property
    def action_count(self) -> int:
        """``len(self.actions)`` without building the list."""
        return len(self._log) + 4 * len(self._played) + len(self._fcur)

    def played_by(self, card: Card) -> list[int]:
        """The seats that have played ``card`` so far, open trick included, in playing order."""
        f = self._ft.code[card]
        seats: list[int] = []
        for leader, _, _, cards in self._played:
            if f in cards:  # most tricks hold neither copy: skip them without a loop
                seats.extend((leader + i) % 4 for i, c in enumerate(cards) if c == f)
        if f in self._fcur:
            seats.extend((self.leader + i) % 4 for i, c in enumerate(self._fcur) if c == f)
        return seats

    @property
    def finished(self) -> bool:
        return self.phase is _FINISHED

    def _pflichtsolo_round(self) -> RoundContext | None:
        return (
            self.deal.round if self.rules.pflichtsolo_enabled and self.rules.solos_enabled else None
        )

    def is_pflicht(self, seat: int) -> bool:
        ctx = self._pflichtsolo_round()
        return ctx is not None and not ctx.pflichtsolo_done[seat]

    def to_act(self) -> int | None:
        """The seat whose turn it is (announcements aside), or None when finished."""
        return self._turn

    def _compute_turn(self) -> int | None:
        phase = self.phase
        if phase is _VORBEHALT:
            return self._speakers[4 - self.reservations.count(None)]
        if phase is _DECLARE:
            return self._next_declarer()
        if phase is _ARMUT:
            assert self.armut is not None
            return self.armut.taker if self.armut.taker is not None else self.armut.asked_next()
        if phase is _PLAY:
            return (self.leader + len(self._fcur)) % 4
        return None  # finished

    def _next_declarer(self) -> int | None:
        if self.vorgefuehrt is not None:
            return self.vorgefuehrt if self.vorgefuehrt not in self.declarations else None
        for seat in self._speakers:
            if (
                self.reservations[seat]
                and seat not in self.declarations
                and seat not in self.armut_offers
            ):
                return seat
        return None

    def can_offer_armut(self, seat: int) -> bool:
        """House rule Armut: at most ``armut_max_trumps`` trumps (not when vorgeführt)."""
        return (
            self.rules.armut
            and seat != self.vorgefuehrt
            and len(armut_trumps(self.hands[seat])) <= self.rules.armut_max_trumps
        )

    def has_vorbehalt(self, seat: int) -> bool:
        """Whether this seat could name anything after saying Vorbehalt."""
        if self.rules.solos_enabled:
            return True  # any solo can be named (``declarable``)
        return bool(self.declarable(seat)) or self.can_offer_armut(seat)

    def declarable(self, seat: int) -> list[Contract]:
        """What this seat could name if its Vorbehalt is asked for."""
        options: list[Contract] = []
        if self._may_declare_hochzeit(seat):
            options.append(_HOCHZEIT)
        if self.rules.solos_enabled:
            options.extend(SOLOS)
        return options

    def _may_declare(self, seat: int, contract: Contract) -> bool:
        """``contract in self.declarable(seat)`` without building the list."""
        if contract is _HOCHZEIT:
            return self._may_declare_hochzeit(seat)
        return contract in SOLOS and self.rules.solos_enabled  # a tuple: no Python-level hash

    def _may_declare_hochzeit(self, seat: int) -> bool:
        return self.hands[seat].count(_CQ) == 2 and seat != self.vorgefuehrt

    def deadline_shift(self) -> int:
        h = self.hochzeit
        if h is not None and h.clarification_trick is not None:
            return h.clarification_trick - 1
        return 0

    def _update_call_floor(self) -> None:
        self._last_call_at = self.rules.hand_size - 6 - self.deadline_shift()

    def call_window_open(self) -> bool:
        if self.phase is not _PLAY:
            return False
        return not (self.hochzeit is not None and self.hochzeit.clarification_trick is None)

    def legal_calls(self, seat: int) -> list[Call]:
        """New calls this seat may make now (repeats are not offered)."""
        party = self.parties[seat]
        if party is None or not self.call_window_open():
            return []
        n = len(self.hands[seat])
        if n < self._last_call_at:
            return []  # past every deadline, the common case from the middle of the game on
        return list(
            _legal_calls(
                party,
                len(self.hands[seat]),
                self.party_calls[party],
                self.party_calls[party.other],
                self.rules.hand_size,
                self.deadline_shift(),
                self.rules.absagen_enabled,
            )
        )

    def legal_cards(self, seat: int) -> list[Card]:
        """The cards in this seat's hand it may play now (a kind held twice is listed twice).

        Empty unless it is this seat's turn to play. Following suit: the led class if held
        (TSR 5.2). In play a hand is kept in the card order's fast-id order, so the cards of
        one class are a slice found by bisecting the fast ids.
        """
        if seat != self._play_turn:
            return []
        if self._fcur:
            h = self._fh[seat]
            lo, hi = self._follow
            a = bisect_left(h, lo)
            b = bisect_left(h, hi, a)
            if a != b:
                return self.hands[seat][a:b]
        return self.hands[seat][:]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action this seat may take now, calls included."""
        actions: list[Action] = []
        turn = self._turn
        if self.phase is _PLAY:
            # map, not comprehensions: a comprehension over ``seat`` would make it a closure
            # cell, built on every call of this method.
            if seat == turn:
                cards = dict.fromkeys(sorted(self.legal_cards(seat)))
                actions = list(map(_PLAYS[seat].__getitem__, cards))
            calls = self.legal_calls(seat)
            if calls:
                actions.extend(map(_ANNOUNCES[seat].__getitem__, calls))
            return actions
        if seat != turn:
            return actions  # only calls are made out of turn, and only in play
        phase = self.phase
        # The rules' flags are checked here before the calls: a call costs more than a check.
        rules = self.rules
        if phase is _VORBEHALT:
            if rules.solos_enabled or self.has_vorbehalt(seat):
                actions.extend(_RESERVES[seat])
            else:
                actions.append(_RESERVES[seat][False])
            if rules.schmeissen and schmeissen_reasons(self.hands[seat], rules):
                actions.append(Schmeissen(seat))
        elif phase is _DECLARE:
            if self._may_declare_hochzeit(seat):
                actions.append(_DECLARES[seat][_HOCHZEIT])
            if rules.solos_enabled:
                actions.extend(_SOLO_DECLARES[seat])
            if rules.armut and self.can_offer_armut(seat):
                actions.append(ArmutOffer(seat, armut_trumps(self.hands[seat])))
        elif phase is _ARMUT:
            armut = self.armut
            assert armut is not None
            if armut.taker is None:
                actions.extend((TakeArmut(seat, True), TakeArmut(seat, False)))
            else:
                n = len(armut.cards)
                combos = sorted(set(itertools.combinations(sorted(self.hands[seat]), n)))
                for combo in combos:
                    actions.append(ReturnCards(seat, combo))
        return actions

    def is_legal(self, action: Action) -> bool:
        try:
            self.validate(action)
        except IllegalActionError:
            return False
        return True

    # -- applying --------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Validate and apply one action; raises IllegalActionError and changes nothing then."""
        if type(action) is Play:  # the common case first, checked and applied on fast ids
            self.play(action.seat, action.card)
            return
        if type(action) is Announce:  # checked once: the new call state comes with the check
            if not 0 <= action.seat <= 3 or self.phase is _FINISHED:
                self.validate(action)  # raises: its reason for a bad seat or a finished game
            party_calls = self._checked_call(action)
            party = self.parties[action.seat]
            assert party is not None
            self._log.append((4 * len(self._played) + len(self._fcur), action))
            self.party_calls[party] = party_calls
            self.calls.append((action.seat, action.call, len(self.hands[action.seat])))
            return
        if type(action) is Reserve:  # the Vorbehaltsabfrage's turns, checked in place
            seat = action.seat
            if (
                self.phase is _VORBEHALT
                and seat == self._turn
                and (not action.reserve or self.rules.solos_enabled or self.has_vorbehalt(seat))
            ):
                self._log.append((0, action))
                reservations = self.reservations
                reservations[seat] = action.reserve
                if None in reservations:
                    self._turn = self._speakers[4 - reservations.count(None)]
                    return
                if True in reservations:
                    self.phase = _DECLARE
                    self._turn = self._next_declarer()
                    return
                self._resolve()
                self._turn = self._compute_turn()
                return
        elif type(action) is Declare:
            seat = action.seat
            if (
                self.phase is _DECLARE
                and seat == self._turn
                and self._may_declare(seat, action.contract)
            ):
                self._log.append((0, action))
                self.declarations[seat] = action.contract
                turn = self._next_declarer()
                if turn is None:
                    self._resolve()
                    turn = self._compute_turn()
                self._turn = turn
                return
        self.validate(action)
        self._log.append((0, action))  # only calls are made in play, and they are above
        match action:
            case Reserve():
                self.reservations[action.seat] = action.reserve
                if None not in self.reservations:
                    if True in self.reservations:
                        self.phase = _DECLARE
                    else:
                        self._resolve()
            case Declare():
                self.declarations[action.seat] = action.contract
                if self._next_declarer() is None:
                    self._resolve()
            case Announce():
                raise AssertionError("calls are applied above")  # pragma: no cover
            case ArmutOffer():
                self.armut_offers[action.seat] = action.cards
                if self._next_declarer() is None:
                    self._resolve()
            case Schmeissen():
                self._end_with_redeal(Redeal.SCHMEISSEN)
            case TakeArmut():
                self._answer_armut(action.seat, action.take)
            case ReturnCards():
                self._return_armut(action.seat, action.cards)
            case Play():
                raise AssertionError("plays are applied above")  # pragma: no cover
            case _:
                assert_never(action)
        self._turn = self._compute_turn()

    def validate(self, action: Action) -> None:
        """Raise IllegalActionError if the action is not allowed now; change nothing."""
        if not 0 <= action.seat <= 3:
            raise IllegalActionError("bad_seat", f"seat {action.seat} does not exist")
        if type(action) is Play and action.card in self.legal_cards(action.seat):
            return  # the common case, checked on fast ids
        if self.phase is _FINISHED:
            raise IllegalActionError("game_finished", "the game is over")
        match action:
            case Reserve():
                self._expect_turn(action.seat, _VORBEHALT, "reserve")
                if action.reserve and not self.has_vorbehalt(action.seat):
                    raise IllegalActionError(
                        "nothing_to_reserve", "this seat has no Vorbehalt it could name"
                    )
            case Announce():
                self._checked_call(action)
            case Declare():
                self._expect_turn(action.seat, _DECLARE, "declare")
                if not self._may_declare(action.seat, action.contract):
                    if action.contract is _HOCHZEIT:
                        raise IllegalActionError(
                            "hochzeit_needs_both_alten",
                            "only a player holding both Kreuz-Damen can declare a Hochzeit",
                        )
                    raise IllegalActionError(
                        "not_declarable", f"'{action.contract}' cannot be declared here"
                    )
            case Schmeissen():
                self._expect_turn(action.seat, _VORBEHALT, "schmeissen")
                if not schmeissen_reasons(self.hands[action.seat], self.rules):
                    raise IllegalActionError(
                        "schmeissen_not_allowed",
                        "this hand may not be thrown in under this table's rules",
                    )
            case ArmutOffer():
                self._expect_turn(action.seat, _DECLARE, "offer an Armut")
                if not self.can_offer_armut(action.seat):
                    raise IllegalActionError(
                        "armut_not_allowed",
                        f"an Armut needs Armut switched on and at most "
                        f"{self.rules.armut_max_trumps} trumps",
                    )
                if sorted(action.cards) != sorted(armut_trumps(self.hands[action.seat])):
                    raise IllegalActionError(
                        "armut_must_offer_trumps", "an Armut offers exactly the hand's trumps"
                    )
            case TakeArmut():
                self._expect_turn(action.seat, _ARMUT, "answer the Armut")
                if self.armut is not None and self.armut.taker is not None:
                    raise IllegalActionError(
                        "armut_taken", "the Armut is taken: the taker returns cards now"
                    )
            case ReturnCards():
                self._expect_turn(action.seat, _ARMUT, "return cards")
                armut = self.armut
                assert armut is not None
                if armut.taker != action.seat:
                    raise IllegalActionError(
                        "armut_not_taken", "only the seat that took the Armut returns cards"
                    )
                if len(action.cards) != len(armut.cards):
                    raise IllegalActionError(
                        "armut_return_count",
                        f"return exactly {len(armut.cards)} card(s), as many as were taken",
                    )
                rest = list(self.hands[action.seat])
                for card in action.cards:
                    if card not in rest:
                        raise IllegalActionError(
                            "card_not_in_hand", f"seat {action.seat} does not hold {card}"
                        )
                    rest.remove(card)
            case Play():
                self._expect_turn(action.seat, _PLAY, "play")
                hand = self.hands[action.seat]
                if action.card not in hand:
                    raise IllegalActionError(
                        "card_not_in_hand", f"seat {action.seat} does not hold {action.card}"
                    )
                current = self.current
                led = current[0] if current else None
                if action.card not in legal_cards(self.order, hand, led):
                    what = "trump" if self.order.klass[led] == TRUMP else led.suit.name.lower()  # type: ignore[index,union-attr]
                    raise IllegalActionError(
                        "must_follow_suit",
                        f"{action.card} does not follow {led}: seat {action.seat} must play {what}",
                    )
            case _:
                assert_never(action)

    def _expect_turn(self, seat: int, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(
                "wrong_phase", f"cannot {what} now: the game is in the {self.phase} phase"
            )
        turn = self._turn
        if seat != turn:
            raise IllegalActionError(
                "not_your_turn", f"it is seat {turn}'s turn, not seat {seat}'s"
            )

    def _checked_call(self, action: Announce) -> PartyCalls:
        """The calling party's new call state; raises IllegalActionError if the call is not
        allowed now (the seat exists and the game is not finished: ``validate`` checks that)."""
        if self.phase is not _PLAY:
            raise IllegalActionError(
                "vorbehalt_open",
                "no announcement before the Vorbehaltsabfrage has ended",
            )
        if not self.call_window_open():
            raise IllegalActionError(
                "hochzeit_not_clarified",
                "no announcement before the Hochzeit's Klärungsstich is complete",
            )
        try:
            return self._check_call(action.seat, action.call)
        except CallError as err:
            raise IllegalActionError(err.reason, str(err)) from None

    def _check_call(self, seat: int, call: Call) -> PartyCalls:
        party = self.parties[seat]
        if party is None:
            raise CallError("party_unknown", "this seat's party is not decided yet")
        return check_call(
            party,
            call,
            len(self.hands[seat]),
            self.party_calls[party],
            self.party_calls[party.other],
            hand_size=self.rules.hand_size,
            shift=self.deadline_shift(),
            absagen_enabled=self.rules.absagen_enabled,
        )

    def _resolve(self) -> None:
        """End of the Vorbehaltsabfrage: decide the contract, parties and leader (TSR 4.1)."""
        self.leader = (self.dealer + 1) % 4
        if self.vorgefuehrt is not None:
            self._set_solo(self.vorgefuehrt, self.declarations[self.vorgefuehrt], _VORGEFUEHRT)
        elif not self.declarations and not self.armut_offers:
            holder = next((s for s in range(4) if self.hands[s].count(_CQ) == 2), None)
            if holder is not None and not self.rules.stille_hochzeit_enabled:
                self._set_hochzeit(holder)  # house rule: both Alten always reveal a Hochzeit
            elif holder is not None:
                self.contract = _STILLE_HOCHZEIT
                self.soloist = holder
                self._set_parties({holder})
            else:
                self.contract = _NORMAL
                self._set_parties({s for s in range(4) if _CQ in self.hands[s]})
        else:

            def rank(seat: int) -> tuple[int, int]:
                # Pflichtsolo, Lustsolo, then the house rule Armut, then Hochzeit (TSR 4.1).
                contract = self.declarations.get(seat)
                if contract is None:
                    kind = 2
                elif contract is _HOCHZEIT:
                    kind = 3
                else:
                    kind = 0 if self.is_pflicht(seat) else 1
                return (kind, self._speakers.index(seat))

            candidates = [*self.declarations, *self.armut_offers]
            seat = candidates[0] if len(candidates) == 1 else min(candidates, key=rank)
            contract = self.declarations.get(seat)
            if contract is None:
                self.contract = _NORMAL
                self.armut = ArmutInfo(seat, self.armut_offers[seat])
                self.parties = [None] * 4
                self.parties[seat] = _RE
                self.phase = _ARMUT
                return
            if contract is _HOCHZEIT:
                self._set_hochzeit(seat)
            else:
                kind = _PFLICHT if self.is_pflicht(seat) else _LUST
                self._set_solo(seat, contract, kind)
        self._start_play()

    def _start_play(self) -> None:
        contract = self.contract
        assert contract is not None
        if self.rules.schweinchen and contract.schweinchen_possible:
            self.schweinchen = schweinchen_holder(self.hands)
        ft = self._ft = fast_tables(contract, self.rules, self.schweinchen is not None)
        self._code = ft.code
        self._order = ft.order
        self._fh = list(map(ft.encode, self.hands))
        self.hands = list(map(ft.decode, self._fh))  # same order as the fast ids
        self._fcur = []
        self.phase = _PLAY
        self._play_turn = self.leader

    def _set_hochzeit(self, seat: int) -> None:
        self.contract = _HOCHZEIT
        self.hochzeit = HochzeitInfo(seat, None, None)
        self.parties = [None] * 4
        self.parties[seat] = _RE

    def _answer_armut(self, seat: int, take: bool) -> None:
        armut = self.armut
        assert armut is not None
        if not take:
            self.armut = replace(armut, declined=(*armut.declined, seat))
            if len(self.armut.declined) == 3:
                self._end_with_redeal(Redeal.ARMUT_DECLINED)
            return
        self.armut = replace(armut, taker=seat)
        self._move(armut.poor, seat, armut.cards)

    def _return_armut(self, seat: int, cards: tuple[Card, ...]) -> None:
        armut = self.armut
        assert armut is not None
        self._move(seat, armut.poor, cards)
        self.armut = replace(armut, returned=tuple(cards))
        self._set_parties({armut.poor, seat})
        self._start_play()

    def _move(self, giver: int, receiver: int, cards: tuple[Card, ...]) -> None:
        for card in cards:
            self.hands[giver].remove(card)
        self.hands[receiver] = sorted([*self.hands[receiver], *cards])

    def _end_with_redeal(self, reason: Redeal) -> None:
        self.redeal = reason
        self.phase = _FINISHED

    def _set_solo(self, seat: int, contract: Contract, kind: SoloKind) -> None:
        self.contract = contract
        self.soloist = seat
        self.solo_kind = kind
        self._set_parties({seat})
        if kind is not _LUST:
            self.leader = seat  # the soloist leads a Pflichtsolo, vorgeführt or not (TSR 5.1)

    def _set_parties(self, re: set[int]) -> None:
        self.parties = [
            _RE if 0 in re else _KONTRA,
            _RE if 1 in re else _KONTRA,
            _RE if 2 in re else _KONTRA,
            _RE if 3 in re else _KONTRA,
        ]  # not a comprehension: that is a function call of its own (Python 3.11)

    def play(self, seat: int, card: Card) -> int | None:
        """``apply(Play(seat, card))`` without building the action; raises the same errors.

        Returns the seat to act next (``to_act()``). The hot path, checked on fast ids in
        this one frame: its turn, the card held, the led class followed if held. Anything
        else goes to ``validate`` for its reason.
        """
        if seat == self._play_turn:
            try:
                f = self._code[card]  # KeyError or TypeError: not a card
                h = self._fh[seat]
                i = h.index(f)  # ValueError: not held
            except (KeyError, TypeError, ValueError):
                pass  # ``validate`` names the reason
            else:
                cur = self._fcur
                if not cur:
                    ft = self._ft  # leads: the class the others follow
                    self._follow = ft.span[f]
                    self._follows = ft.same_class[f]
                elif not self._follows[f]:
                    lo, hi = self._follow
                    j = bisect_left(h, lo)
                    if j < len(h) and h[j] < hi:
                        self._refuse(Play(seat, card))  # holds the led class: must follow
                cur.append(h.pop(i))
                self.hands[seat].pop(i)
                if len(cur) < 4:
                    self._turn = self._play_turn = seat = _NEXT_SEAT[seat]
                    return seat
                self._end_trick(cur)
                return self._turn
        self._refuse(Play(seat, card))

    def _refuse(self, action: Action) -> NoReturn:
        """Raise ``validate``'s reason for an action the fast check refused."""
        self.validate(action)
        raise AssertionError(f"validate passed an action the fast check refused: {action}")

    def _end_trick(self, cur: list[int]) -> None:
        ft = self._ft
        c0, c1, c2, c3 = cur
        st = ft.strength[c0]
        # The strongest card wins, the first of two equal ones (TSR 5.3).
        idx = 0
        best = st[c0]
        if st[c1] > best:
            idx = 1
            best = st[c1]
        if st[c2] > best:
            idx = 2
            best = st[c2]
        if st[c3] > best:
            idx = 3
        played = self._played
        number = len(played) + 1
        if cur[idx] == ft.house_dulle:
            idx = trick_winner(ft, cur, number == self._tricks)  # house rule: Dullen
        leader = self.leader
        winner = (leader + idx) % 4
        augen = ft.augen
        played.append((leader, winner, augen[c0] + augen[c1] + augen[c2] + augen[c3], cur))
        self._fcur = []
        self.leader = self._turn = self._play_turn = winner
        if self.hochzeit is not None and self.hochzeit.clarification_trick is None:
            self._clarify_hochzeit(winner)
        if number == self._tricks:
            self._finish()
            self._turn = None

    def _clarify_hochzeit(self, winner: int) -> None:
        h = self.hochzeit
        assert h is not None
        info = clarify_hochzeit(h.hochzeiter, [t[1] for t in self._played])
        if info.clarification_trick is None:
            return
        self.hochzeit = info
        self._update_call_floor()
        if info.partner is not None:
            self._set_parties({h.hochzeiter, info.partner})
        else:
            # Failed: a Karo solo (same card order as a normal game), scored as a solo.
            self.contract = _HOCHZEIT_FAILED
            self.soloist = h.hochzeiter
            self._set_parties({h.hochzeiter})

    def _finish(self) -> None:
        self.phase = _FINISHED
        self._play_turn = -1
        self.result = score(self.score_facts())

    def score_facts(self) -> ScoreFacts:
        contract = self.contract
        assert contract is not None
        parties = self.parties
        re_seats = tuple([s for s in (0, 1, 2, 3) if parties[s] is _RE])
        re_augen = 0
        re_tricks = 0
        specials: list[tuple[Sonderpunkt, Party]] = []
        if contract.scored_as_solo:  # no Sonderpunkte: only Augen and tricks
            for _, winner, augen, _ in self._played:
                if parties[winner] is _RE:
                    re_augen += augen
                    re_tricks += 1
        else:
            ft = self._ft
            fuchs = ft.code[_DA]
            for leader, winner, augen, cards in self._played:
                won_by = parties[winner]
                assert won_by is not None
                if won_by is _RE:
                    re_augen += augen
                    re_tricks += 1
                if is_doppelkopf(augen):
                    specials.append((_DOPPELKOPF, won_by))
                if fuchs in cards:
                    for pos, card in enumerate(cards):
                        played_by = parties[(leader + pos) % 4]
                        assert played_by is not None
                        if card == fuchs and fuchs_caught(played_by, won_by):
                            specials.append((_FUCHS, won_by))
            # The winning card of the last trick, as ``_end_trick`` found it (Dulle rules too).
            if len(self._played) == self._tricks:
                leader, winner, _, cards = self._played[-1]
                won_by = parties[winner]
                assert won_by is not None
                if is_karlchen(ft.card[cards[(winner - leader) % 4]]):
                    specials.append((_KARLCHEN, won_by))
        return ScoreFacts(
            contract=contract,
            re_seats=re_seats,
            re_level=self.party_calls[_RE].level,
            kontra_level=self.party_calls[_KONTRA].level,
            re_augen=re_augen,
            re_tricks=re_tricks,
            specials=tuple(specials),
            ruleset=self.rules,
            bock=self.deal.bock,
        )

    # -- round bookkeeping -----------------------------------------------------------------

    def next_dealer(self) -> int:
        """After a redeal (Schmeißen, Armut nobody took) the same dealer deals again."""
        if self.redeal is not None:
            return self.dealer
        return next_dealer(self.dealer, self.solo_kind)

    def next_round(self) -> RoundContext | None:
        if self.deal.round is None or self.redeal is not None:
            return self.deal.round  # a redeal uses no game of the round
        return self.deal.round.after(self.solo_kind, self.soloist)

    def bock_triggers(self) -> tuple[BockTrigger, ...]:
        """The enabled Bock triggers this finished game met (none after a redeal)."""
        if self.result is None:
            return ()
        return bock_triggers(self.score_facts(), self.result)


def replay(deal: Deal, actions: list[Action]) -> Game:
    """Rebuild a game from its deal and log; raises IllegalActionError at the first bad action."""
    game = Game(deal)
    for action in actions:
        game.apply(action)
    return game
