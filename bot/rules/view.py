"""What one seat may know: its own hand and the public history, nothing else.

Front ends render only views and AIs receive only views, so a hidden card can leak nowhere.
A stille Hochzeit looks like a normal game to everyone but the player holding both Alten.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.calls import Call, Party
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Action, Game, Phase, Trick
from bot.rules.round import RoundContext, SoloKind
from bot.rules.ruleset import Ruleset
from bot.rules.scoring import ScoreResult


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
    if game.phase is Phase.FINISHED:
        return tuple(game.parties)
    public_solo = contract.is_declared_solo or contract is Contract.HOCHZEIT_FAILED
    clarified = (
        contract is Contract.HOCHZEIT
        and game.hochzeit is not None
        and (game.hochzeit.partner is not None)
    )
    if public_solo or clarified or (contract is Contract.STILLE_HOCHZEIT and seat == game.soloist):
        return tuple(game.parties)
    if contract is Contract.HOCHZEIT:
        # Before the Klärungsstich only the Hochzeiter's party is settled.
        return tuple(game.parties)
    # Normal game (or a stille Hochzeit seen from outside): Kreuz-Damen and calls reveal.
    known: list[Party | None] = [None] * 4
    if seat is not None:
        known[seat] = Party.RE if Card.CQ in game.deal.hands[seat] else Party.KONTRA
    for trick in (*game.tricks, Trick(game.leader, tuple(game.current))):
        for s, card in zip(trick.seats, trick.cards, strict=True):
            if card == Card.CQ:
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
    order = (public_contract(game, seat) or Contract.NORMAL).order
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
    )
