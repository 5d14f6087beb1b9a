"""The game state machine: Vorbehaltsabfrage, declarations, Armut, play, Ansagen, scoring.

A game is its ``Deal`` plus the accepted actions; ``Game.apply`` validates every action and
raises ``IllegalActionError`` with a machine-readable reason. ``replay`` rebuilds the state.
Each phase's rules are in a module of ``bot.rules.phases``; ``Game`` holds the state and
dispatches to them.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import assert_never

from bot.rules.actions import (
    Action,
    Announce,
    ArmutOffer,
    Declare,
    IllegalActionError,
    Phase,
    Play,
    Redeal,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)
from bot.rules.calls import NO_CALLS, Call, Party, PartyCalls
from bot.rules.cards import Card, deal_hands, deck
from bot.rules.contracts import CardOrder, Contract
from bot.rules.phases import armut, calls, finished, play, vorbehalt
from bot.rules.phases.armut import ArmutInfo, armut_trumps
from bot.rules.phases.play import HochzeitInfo, clarify_hochzeit, schweinchen_holder
from bot.rules.phases.vorbehalt import schmeissen_reasons
from bot.rules.round import RoundContext, SoloKind, bock_triggers, next_dealer
from bot.rules.ruleset import DDV, BockTrigger, Ruleset
from bot.rules.scoring import ScoreFacts, ScoreResult
from bot.rules.tricks import Trick, legal_cards, trick_winner_index

__all__ = [
    "Action",
    "Announce",
    "ArmutInfo",
    "ArmutOffer",
    "Deal",
    "Declare",
    "Game",
    "HochzeitInfo",
    "IllegalActionError",
    "Phase",
    "Play",
    "Redeal",
    "Reserve",
    "ReturnCards",
    "Schmeissen",
    "TakeArmut",
    "Trick",
    "armut_trumps",
    "clarify_hochzeit",
    "legal_cards",
    "replay",
    "schmeissen_reasons",
    "schweinchen_holder",
    "trick_winner_index",
]


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
        if not 0 <= self.dealer <= 3:
            raise ValueError("dealer must be a seat 0..3")
        if self.bock < 1:
            raise ValueError("the Bock multiplier is at least 1")
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
        hands = deal_hands(random.Random(seed), ruleset.with_nines)
        return cls(hands, dealer, round, ruleset, seed, bock)


class Game:
    """The live state of one game, changed only through ``apply``."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.rules = deal.ruleset
        self.dealer = deal.dealer
        self.hands: list[list[Card]] = [list(hand) for hand in deal.hands]  # each kept sorted
        self.reservations: list[bool | None] = [None] * 4
        self.declarations: dict[int, Contract] = {}
        self.armut_offers: dict[int, tuple[Card, ...]] = {}  # Armut named in the declare phase
        self.armut: ArmutInfo | None = None  # the Armut being played, once it prevailed
        self.contract: Contract | None = None
        self.soloist: int | None = None
        self.solo_kind: SoloKind | None = None
        self.hochzeit: HochzeitInfo | None = None
        self.parties: list[Party | None] = [None] * 4
        self.party_calls: dict[Party, PartyCalls] = {Party.RE: NO_CALLS, Party.KONTRA: NO_CALLS}
        self.calls: list[tuple[int, Call, int]] = []  # (seat, call, cards in hand)
        self.order: CardOrder = Contract.NORMAL.order  # the contract's, from the first trick
        self.schweinchen: int | None = None  # seat holding both Karo-Asse as Schweinchen
        self.leader: int = (self.dealer + 1) % 4  # of the open trick
        self.open_trick: list[Card] = []
        self.tricks: list[Trick] = []  # the finished tricks, in order
        self.result: ScoreResult | None = None
        self.redeal: Redeal | None = None  # ended without play: deal again, nobody scores
        self.conceded_by: int | None = None  # this seat's party gave the game up (absent)
        self._actions: list[Action] = []
        ctx = self._pflichtsolo_round()
        self.vorgefuehrt: int | None = None if ctx is None else ctx.vorgefuehrt(self.dealer)
        # The vorgeführt seat names its solo at once, nobody else speaks (TSR 4.2).
        self.phase = Phase.VORBEHALT if self.vorgefuehrt is None else Phase.DECLARE

    # -- queries ---------------------------------------------------------------------------

    @property
    def current(self) -> list[Card]:
        """The cards of the open trick so far, led card first (a new list)."""
        return list(self.open_trick)

    @property
    def actions(self) -> list[Action]:
        """Every accepted action in order (a new list): ``replay(deal, actions)`` rebuilds it."""
        return list(self._actions)

    @property
    def action_count(self) -> int:
        return len(self._actions)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def played_by(self, card: Card) -> list[int]:
        """The seats that have played ``card`` so far, open trick included, in playing order."""
        open_trick = Trick(self.leader, tuple(self.open_trick))
        return [
            seat
            for trick in [*self.tricks, open_trick]
            if card in trick.cards  # a card is in at most two tricks: skip the others
            for seat, played in zip(trick.seats, trick.cards, strict=True)
            if played == card
        ]

    def _pflichtsolo_round(self) -> RoundContext | None:
        return (
            self.deal.round if self.rules.pflichtsolo_enabled and self.rules.solos_enabled else None
        )

    def is_pflicht(self, seat: int) -> bool:
        """Whether a solo of this seat is its Pflichtsolo (still open in the round)."""
        ctx = self._pflichtsolo_round()
        return ctx is not None and not ctx.pflichtsolo_done[seat]

    def to_act(self) -> int | None:
        """The seat whose turn it is (announcements aside), or None when finished."""
        match self.phase:
            case Phase.PLAY:
                return (self.leader + len(self.open_trick)) % 4
            case Phase.VORBEHALT:
                return vorbehalt.next_speaker(self)
            case Phase.DECLARE:
                return vorbehalt.next_declarer(self)
            case Phase.ARMUT:
                return armut.next_to_act(self)
            case Phase.FINISHED:
                return None
            case _:
                assert_never(self.phase)

    def can_offer_armut(self, seat: int) -> bool:
        return vorbehalt.can_offer_armut(self, seat)

    def has_vorbehalt(self, seat: int) -> bool:
        return vorbehalt.has_vorbehalt(self, seat)

    def declarable(self, seat: int) -> list[Contract]:
        return vorbehalt.declarable(self, seat)

    def deadline_shift(self) -> int:
        return calls.deadline_shift(self)

    def call_window_open(self) -> bool:
        return calls.call_window_open(self)

    def legal_calls(self, seat: int) -> list[Call]:
        return calls.legal_calls(self, seat)

    def legal_cards(self, seat: int) -> list[Card]:
        """The cards this seat may play now (a kind held twice is listed twice)."""
        return play.playable_cards(self, seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action this seat may take now, calls included."""
        match self.phase:
            case Phase.PLAY:
                return [*play.legal_actions(self, seat), *calls.legal_actions(self, seat)]
            case Phase.VORBEHALT | Phase.DECLARE:
                return vorbehalt.legal_actions(self, seat)
            case Phase.ARMUT:
                return armut.legal_actions(self, seat)
            case Phase.FINISHED:
                return []
            case _:
                assert_never(self.phase)

    def is_legal(self, action: Action) -> bool:
        try:
            self.validate(action)
        except IllegalActionError:
            return False
        return True

    # -- applying --------------------------------------------------------------------------

    def validate(self, action: Action) -> None:
        """Raise IllegalActionError if the action is not allowed now; change nothing."""
        if not 0 <= action.seat <= 3:
            raise IllegalActionError("bad_seat", f"seat {action.seat} does not exist")
        if self.phase is Phase.FINISHED:
            finished.validate(self)
        match action:
            case Play():
                play.validate(self, action)
            case Announce():
                calls.validate(self, action)
            case Reserve() | Declare() | Schmeissen() | ArmutOffer():
                vorbehalt.validate(self, action)
            case TakeArmut() | ReturnCards():
                armut.validate(self, action)
            case _:
                assert_never(action)

    def apply(self, action: Action) -> None:
        """Validate and apply one action; raises IllegalActionError and changes nothing then."""
        self.validate(action)
        match action:
            case Play():
                if not isinstance(action.card, Card):
                    action = Play(action.seat, Card(action.card))  # a card's number plays it
                play.apply(self, action)
            case Announce():
                calls.apply(self, action)
            case Reserve() | Declare() | Schmeissen() | ArmutOffer():
                vorbehalt.apply(self, action)
            case TakeArmut() | ReturnCards():
                armut.apply(self, action)
            case _:
                assert_never(action)
        self._actions.append(action)

    def play(self, seat: int, card: Card) -> int | None:
        """``apply(Play(seat, card))``; returns the seat to act next (``to_act()``)."""
        self.apply(Play(seat, card))
        return self.to_act()

    # -- the result and the round ----------------------------------------------------------

    def can_concede(self, seat: int) -> bool:
        """Whether ``seat``'s party can give the game up now (its party is known)."""
        return finished.can_concede(self, seat)

    def concede(self, seat: int) -> None:
        """``seat``'s party gives the game up: the rest of the tricks go to the other party.

        Not an action of the log: a front end's decision about an absent player, kept in
        the record's ``meta`` (``conceded``) and applied again after a replay.
        """
        finished.concede(self, seat)

    def score_facts(self) -> ScoreFacts:
        return finished.score_facts(self)

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
