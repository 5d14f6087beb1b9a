"""What one seat may know: its own hand and the public history, nothing else.

Front ends render only views and AIs receive only views, so a hidden card can leak nowhere.
A stille Hochzeit looks like a normal game to everyone but the player holding both Alten.
House rules: Schweinchen are known to their holder at once and to the others from the first
Karo-Ass played; of an Armut everyone sees who is poor, how many trumps were offered, who
declined, who took and how many trumps came back, but only the two players see the cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rules.calls import Call, Party
from bot.rules.cards import ALTE, FUCHS, Card
from bot.rules.contracts import CardOrder, Contract
from bot.rules.game import Action, Deal, Game, Phase, Redeal, Trick
from bot.rules.round import RoundContext, SoloKind
from bot.rules.ruleset import Ruleset
from bot.rules.scoring import ScoreResult


@dataclass(frozen=True, slots=True)
class ArmutView:
    """The public part of an Armut (house rule)."""

    poor: int
    offered: int  # number of trumps offered (and returned cards owed)
    declined: tuple[int, ...]
    taker: int | None
    trumps_returned: int | None  # how many of the returned cards are trumps, once returned


def armut_view(game: Game) -> ArmutView | None:
    a = game.armut
    if a is None:
        return None
    returned = None
    if a.returned is not None:
        returned = sum(game.order.is_trump(c) for c in a.returned)
    return ArmutView(a.poor, len(a.cards), a.declined, a.taker, returned)


def schweinchen_known(game: Game, seat: int | None) -> int | None:
    """The Schweinchen holder as ``seat`` knows it: its own at once, anyone's once one is out."""
    holder = game.schweinchen
    if holder is None or seat == holder or game.finished:
        return holder
    if game.played_by(FUCHS):
        return holder
    return None


def known_order(game: Game, seat: int | None) -> CardOrder:
    """The card order as ``seat`` knows it (Schweinchen hidden from the others until shown)."""
    contract = public_contract(game, seat) or Contract.NORMAL
    return contract.card_order(schweinchen_known(game, seat) is not None)


def received_cards(game: Game, seat: int) -> tuple[Card, ...]:
    """Cards this seat got in an Armut exchange: the trumps (taker) or the returned cards."""
    a = game.armut
    if a is None or a.taker is None:
        return ()
    if seat == a.taker:
        return a.cards
    if seat == a.poor and a.returned is not None:
        return a.returned
    return ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    ruleset: Ruleset
    dealer: int
    round: RoundContext | None
    phase: Phase
    hand: tuple[Card, ...]  # sorted as players sort: trumps high to low, then the suits
    to_act: int | None
    legal: tuple[Action, ...]
    reservations: tuple[bool | None, ...]  # who said Vorbehalt (public), in seat order
    own_declaration: Contract | None
    contract: Contract | None  # as this seat knows it
    soloist: int | None  # when publicly known (a named solo, a failed Hochzeit)
    solo_kind: SoloKind | None
    hochzeiter: int | None
    clarification_trick: int | None
    vorgefuehrt: int | None
    parties: tuple[Party | None, ...]  # as far as this seat can know them
    calls: tuple[tuple[int, Call], ...]
    tricks: tuple[Trick, ...]
    current_leader: int
    current_trick: tuple[Card, ...]
    cards_in_hand: tuple[int, ...]
    result: ScoreResult | None
    # House rules; the defaults are what a DDV game shows.
    order: CardOrder = Contract.NORMAL.order  # the card order as this seat knows it
    schweinchen: int | None = None  # the Schweinchen holder, as far as this seat knows
    armut: ArmutView | None = None
    received: tuple[Card, ...] = ()  # cards this seat got in the Armut exchange
    redeal: Redeal | None = None  # the game ended without play: deal again
    bock: int = 1  # this game's Bock multiplier

    @property
    def own_party(self) -> Party | None:
        return self.parties[self.seat]

    def played_cards(self) -> list[Card]:
        out = [c for t in self.tricks for c in t.cards]
        out.extend(self.current_trick)
        return out


def public_contract(game: Game, seat: int | None) -> Contract | None:
    """The contract as ``seat`` knows it: a stille Hochzeit is a normal game to the others."""
    hidden = game.contract is Contract.STILLE_HOCHZEIT and not game.finished
    if hidden and seat != game.soloist:
        return Contract.NORMAL
    return game.contract


def known_parties(game: Game, seat: int | None) -> tuple[Party | None, ...]:
    """Parties as the public record (plus ``seat``'s own hand, if given) reveals them."""
    contract = game.contract
    if contract is None:
        return (None, None, None, None)
    if game.phase is Phase.FINISHED or game.armut is not None:
        return tuple(game.parties)  # an Armut's parties are public: the poor seat and taker
    public_solo = contract.is_declared_solo or contract is Contract.HOCHZEIT_FAILED
    # In a Hochzeit the parties are what the rules settled so far: before the Klärungsstich
    # only the Hochzeiter's.
    own_stille = contract is Contract.STILLE_HOCHZEIT and seat == game.soloist
    if public_solo or contract is Contract.HOCHZEIT or own_stille:
        return tuple(game.parties)
    # Normal game (or a stille Hochzeit seen from outside): Kreuz-Damen and calls reveal.
    known: list[Party | None] = [None] * 4
    if seat is not None:
        known[seat] = Party.RE if ALTE in game.deal.hands[seat] else Party.KONTRA
    for s in game.played_by(ALTE):
        known[s] = Party.RE
    for s, _call, _ in game.calls:
        known[s] = game.parties[s]  # every announcement says whose side the caller is on
    # Two seats shown as Re settle everything. Two Kontra seats do not: it might be a
    # stille Hochzeit, with three against one.
    re = [s for s in range(4) if known[s] is Party.RE]
    if len(re) == 2:
        known = [Party.RE if s in re else Party.KONTRA for s in range(4)]
    return tuple(known)


def player_view(game: Game, seat: int) -> PlayerView:
    order = known_order(game, seat)
    hand = tuple(sorted(game.hands[seat], key=order.sort_key))
    contract = public_contract(game, seat)
    public_solo = contract is not None and (
        contract.is_declared_solo or contract is Contract.HOCHZEIT_FAILED
    )
    h = game.hochzeit
    return PlayerView(
        seat=seat,
        ruleset=game.rules,
        dealer=game.dealer,
        round=game.deal.round,
        phase=game.phase,
        hand=hand,
        to_act=game.to_act(),
        legal=tuple(game.legal_actions(seat)),
        reservations=tuple(game.reservations),
        own_declaration=game.declarations.get(seat),
        contract=contract,
        soloist=game.soloist if public_solo or seat == game.soloist else None,
        solo_kind=game.solo_kind,
        hochzeiter=h.hochzeiter if h else None,
        clarification_trick=h.clarification_trick if h else None,
        vorgefuehrt=game.vorgefuehrt,
        parties=known_parties(game, seat),
        calls=tuple((s, c) for s, c, _ in game.calls),
        tricks=tuple(game.tricks),
        current_leader=game.leader,
        current_trick=tuple(game.current),
        cards_in_hand=tuple(len(h) for h in game.hands),
        result=game.result,
        order=order,
        schweinchen=schweinchen_known(game, seat),
        armut=armut_view(game),
        received=received_cards(game, seat),
        redeal=game.redeal,
        bock=game.deal.bock,
    )


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everybody at the table (and any onlooker) may see: no hand at all."""

    dealer: int
    phase: Phase
    to_act: int | None
    reservations: tuple[bool | None, ...]
    contract: Contract | None
    soloist: int | None
    solo_kind: SoloKind | None
    hochzeiter: int | None
    clarification_trick: int | None
    vorgefuehrt: int | None
    parties: tuple[Party | None, ...]
    calls: tuple[tuple[int, Call], ...]
    tricks: tuple[Trick, ...]
    current_leader: int
    current_trick: tuple[Card, ...]
    cards_in_hand: tuple[int, ...]
    result: ScoreResult | None
    schweinchen: int | None = None  # once the first Karo-Ass is out
    armut: ArmutView | None = None
    redeal: Redeal | None = None
    bock: int = 1


def public_view(game: Game) -> PublicView:
    contract = public_contract(game, None)
    public_solo = contract is not None and (
        contract.is_declared_solo or contract is Contract.HOCHZEIT_FAILED
    )
    h = game.hochzeit
    return PublicView(
        dealer=game.dealer,
        phase=game.phase,
        to_act=game.to_act(),
        reservations=tuple(game.reservations),
        contract=contract,
        soloist=game.soloist if public_solo or game.finished else None,
        solo_kind=game.solo_kind,
        hochzeiter=h.hochzeiter if h else None,
        clarification_trick=h.clarification_trick if h else None,
        vorgefuehrt=game.vorgefuehrt,
        parties=known_parties(game, None),
        calls=tuple((s, c) for s, c, _ in game.calls),
        tricks=tuple(game.tricks),
        current_leader=game.leader,
        current_trick=tuple(game.current),
        cards_in_hand=tuple(len(h) for h in game.hands),
        result=game.result,
        schweinchen=schweinchen_known(game, None),
        armut=armut_view(game),
        redeal=game.redeal,
        bock=game.deal.bock,
    )


def seat_decisions(
    deal: Deal, actions: Sequence[Action], seat: int
) -> list[tuple[PlayerView, Action]]:
    """Each of ``seat``'s actions in a replay of the game, with the seat's view just before
    it: what the seat knew when it decided (a Spielanalyse rates nothing else).
    """
    game = Game(deal)
    out = []
    for action in actions:
        if action.seat == seat:
            out.append((player_view(game, seat), action))
        game.apply(action)
    return out
