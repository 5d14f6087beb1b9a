"""The Vorbehaltsabfrage and the declarations (TSR 4.1), and which reservation prevails.

Every seat from the dealer's left says "gesund" or "Vorbehalt"; the seats that reserved name
their reservation in the same order. A vorgeführt seat has no Vorbehaltsabfrage: it names its
Pflichtsolo at once (TSR 4.2). House rules: Schmeißen on a seat's turn, and naming an Armut by
offering the hand's trumps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from bot.rules.actions import (
    Action,
    ArmutOffer,
    Declare,
    IllegalActionError,
    Phase,
    Redeal,
    Reserve,
    Schmeissen,
)
from bot.rules.calls import Party
from bot.rules.cards import ALTE, Card, Rank
from bot.rules.contracts import SOLOS, Contract
from bot.rules.phases import expect_turn, play, set_parties
from bot.rules.phases.armut import ArmutInfo, armut_trumps
from bot.rules.phases.finished import end_with_redeal
from bot.rules.round import SoloKind
from bot.rules.ruleset import Ruleset, SchmeissenReason

if TYPE_CHECKING:
    from bot.rules.game import Game

VorbehaltAction = Reserve | Declare | Schmeissen | ArmutOffer


def speaking_order(game: Game) -> list[int]:
    """The seats in the order they speak: the dealer's left first, the dealer last."""
    return [(game.dealer + k) % 4 for k in range(1, 5)]


def next_speaker(game: Game) -> int:
    """The seat to answer the Vorbehaltsabfrage next."""
    return speaking_order(game)[4 - game.reservations.count(None)]


def next_declarer(game: Game) -> int | None:
    """The next seat to name its reservation, or None once all have."""
    if game.vorgefuehrt is not None:
        return game.vorgefuehrt if game.vorgefuehrt not in game.declarations else None
    for seat in speaking_order(game):
        named = seat in game.declarations or seat in game.armut_offers
        if game.reservations[seat] and not named:
            return seat
    return None


def may_declare_hochzeit(game: Game, seat: int) -> bool:
    return game.hands[seat].count(ALTE) == 2 and seat != game.vorgefuehrt


def declarable(game: Game, seat: int) -> list[Contract]:
    """What this seat could name if its Vorbehalt is asked for."""
    options = [Contract.HOCHZEIT] if may_declare_hochzeit(game, seat) else []
    if game.rules.solos_enabled:
        options.extend(SOLOS)
    return options


def can_offer_armut(game: Game, seat: int) -> bool:
    """House rule Armut: at most ``armut_max_trumps`` trumps (not when vorgeführt)."""
    return (
        game.rules.armut
        and seat != game.vorgefuehrt
        and len(armut_trumps(game.hands[seat])) <= game.rules.armut_max_trumps
    )


def has_vorbehalt(game: Game, seat: int) -> bool:
    """Whether this seat could name anything after saying Vorbehalt."""
    return bool(declarable(game, seat)) or can_offer_armut(game, seat)


def schmeissen_reasons(
    hand: list[Card] | tuple[Card, ...], ruleset: Ruleset
) -> tuple[SchmeissenReason, ...]:
    """The enabled Schmeißen triggers this hand meets (house rule)."""
    if not ruleset.schmeissen:
        return ()  # DDV: no hand is thrown in
    nines = sum(card.rank is Rank.NEUN for card in hand)
    kings = sum(card.rank is Rank.KOENIG for card in hand)
    met = {
        SchmeissenReason.NEUNEN: nines >= 5,
        SchmeissenReason.KOENIGE: kings >= 5,
        SchmeissenReason.NEUNEN_KOENIGE: nines + kings >= 7,
        SchmeissenReason.WENIG_TRUMPF: len(armut_trumps(hand)) <= 1,
    }
    return tuple(r for r in SchmeissenReason if r in ruleset.schmeissen and met[r])


def legal_actions(game: Game, seat: int) -> list[Action]:
    if seat != game.to_act():
        return []
    hand = game.hands[seat]
    actions: list[Action] = []
    if game.phase is Phase.VORBEHALT:
        actions.append(Reserve(seat, False))
        if has_vorbehalt(game, seat):
            actions.append(Reserve(seat, True))
        if schmeissen_reasons(hand, game.rules):
            actions.append(Schmeissen(seat))
    else:
        actions.extend(Declare(seat, contract) for contract in declarable(game, seat))
        if can_offer_armut(game, seat):
            actions.append(ArmutOffer(seat, armut_trumps(hand)))
    return actions


def validate(game: Game, action: VorbehaltAction) -> None:
    seat = action.seat
    match action:
        case Reserve():
            expect_turn(game, seat, Phase.VORBEHALT, "reserve")
            if action.reserve and not has_vorbehalt(game, seat):
                raise IllegalActionError(
                    "nothing_to_reserve", "this seat has no Vorbehalt it could name"
                )
        case Declare():
            expect_turn(game, seat, Phase.DECLARE, "declare")
            if action.contract not in declarable(game, seat):
                if action.contract is Contract.HOCHZEIT:
                    raise IllegalActionError(
                        "hochzeit_needs_both_alten",
                        "only a player holding both Kreuz-Damen can declare a Hochzeit",
                    )
                raise IllegalActionError(
                    "not_declarable", f"'{action.contract}' cannot be declared here"
                )
        case Schmeissen():
            expect_turn(game, seat, Phase.VORBEHALT, "schmeissen")
            if not schmeissen_reasons(game.hands[seat], game.rules):
                raise IllegalActionError(
                    "schmeissen_not_allowed",
                    "this hand may not be thrown in under this table's rules",
                )
        case ArmutOffer():
            expect_turn(game, seat, Phase.DECLARE, "offer an Armut")
            if not can_offer_armut(game, seat):
                raise IllegalActionError(
                    "armut_not_allowed",
                    f"an Armut needs Armut switched on and at most "
                    f"{game.rules.armut_max_trumps} trumps",
                )
            if sorted(action.cards) != sorted(armut_trumps(game.hands[seat])):
                raise IllegalActionError(
                    "armut_must_offer_trumps", "an Armut offers exactly the hand's trumps"
                )
        case _:
            assert_never(action)


def apply(game: Game, action: VorbehaltAction) -> None:
    match action:
        case Reserve():
            game.reservations[action.seat] = action.reserve
            if None in game.reservations:
                return
            if True in game.reservations:
                game.phase = Phase.DECLARE
            else:
                resolve(game)
        case Declare():
            game.declarations[action.seat] = action.contract
            if next_declarer(game) is None:
                resolve(game)
        case ArmutOffer():
            game.armut_offers[action.seat] = action.cards
            if next_declarer(game) is None:
                resolve(game)
        case Schmeissen():
            end_with_redeal(game, Redeal.SCHMEISSEN)
        case _:
            assert_never(action)


def resolve(game: Game) -> None:
    """End of the Vorbehaltsabfrage: decide the contract, parties and leader (TSR 4.1)."""
    game.leader = (game.dealer + 1) % 4
    if game.vorgefuehrt is not None:
        seat = game.vorgefuehrt
        _set_solo(game, seat, game.declarations[seat], SoloKind.VORGEFUEHRT)
    elif not game.declarations and not game.armut_offers:
        holder = next((s for s in range(4) if game.hands[s].count(ALTE) == 2), None)
        if holder is None:
            game.contract = Contract.NORMAL
            set_parties(game, {s for s in range(4) if ALTE in game.hands[s]})
        elif game.rules.stille_hochzeit_enabled:
            game.contract = Contract.STILLE_HOCHZEIT
            game.soloist = holder
            set_parties(game, {holder})
        else:
            _set_hochzeit(game, holder)  # house rule: both Alten always reveal a Hochzeit
    else:
        order = speaking_order(game)

        def precedence(seat: int) -> tuple[int, int]:
            # Pflichtsolo, Lustsolo, then the house rule Armut, then Hochzeit; between
            # equals the earlier seat (TSR 4.1).
            contract = game.declarations.get(seat)
            if contract is None:
                kind = 2
            elif contract is Contract.HOCHZEIT:
                kind = 3
            else:
                kind = 0 if game.is_pflicht(seat) else 1
            return (kind, order.index(seat))

        seat = min([*game.declarations, *game.armut_offers], key=precedence)
        contract = game.declarations.get(seat)
        if contract is None:
            game.contract = Contract.NORMAL
            game.armut = ArmutInfo(seat, game.armut_offers[seat])
            game.parties = [Party.RE if s == seat else None for s in range(4)]
            game.phase = Phase.ARMUT
            return
        if contract is Contract.HOCHZEIT:
            _set_hochzeit(game, seat)
        else:
            kind = SoloKind.PFLICHT if game.is_pflicht(seat) else SoloKind.LUST
            _set_solo(game, seat, contract, kind)
    play.start(game)


def _set_hochzeit(game: Game, seat: int) -> None:
    game.contract = Contract.HOCHZEIT
    game.hochzeit = play.HochzeitInfo(seat, None, None)
    game.parties = [Party.RE if s == seat else None for s in range(4)]


def _set_solo(game: Game, seat: int, contract: Contract, kind: SoloKind) -> None:
    game.contract = contract
    game.soloist = seat
    game.solo_kind = kind
    set_parties(game, {seat})
    if kind is not SoloKind.LUST:
        game.leader = seat  # the soloist leads a Pflichtsolo, vorgeführt or not (TSR 5.1)
