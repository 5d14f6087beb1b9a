"""Ansagen and Absagen during play (TSR 6): when the call window is open, and whose calls are
still in time. The deadlines themselves are in ``bot.rules.calls``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.rules.actions import Action, Announce, IllegalActionError, Phase
from bot.rules.calls import Call, CallError, PartyCalls, check_call
from bot.rules.calls import legal_calls as calls_in_time

if TYPE_CHECKING:
    from bot.rules.game import Game


def deadline_shift(game: Game) -> int:
    """An announced Hochzeit shifts every deadline by (Klärungsstich − 1)."""
    h = game.hochzeit
    if h is not None and h.clarification_trick is not None:
        return h.clarification_trick - 1
    return 0


def call_window_open(game: Game) -> bool:
    """Calls are made in play, in a Hochzeit only once its Klärungsstich is complete."""
    if game.phase is not Phase.PLAY:
        return False
    return not (game.hochzeit is not None and game.hochzeit.clarification_trick is None)


def legal_calls(game: Game, seat: int) -> list[Call]:
    """New calls this seat may make now (repeats are not offered)."""
    party = game.parties[seat]
    if party is None or not call_window_open(game):
        return []
    return list(
        calls_in_time(
            party,
            len(game.hands[seat]),
            game.party_calls[party],
            game.party_calls[party.other],
            game.rules.hand_size,
            deadline_shift(game),
            game.rules.absagen_enabled,
        )
    )


def legal_actions(game: Game, seat: int) -> list[Action]:
    return [Announce(seat, call) for call in legal_calls(game, seat)]


def validate(game: Game, action: Announce) -> None:
    _checked(game, action)


def apply(game: Game, action: Announce) -> None:
    party = game.parties[action.seat]
    assert party is not None
    game.party_calls[party] = _checked(game, action)
    game.calls.append((action.seat, action.call, len(game.hands[action.seat])))


def _checked(game: Game, action: Announce) -> PartyCalls:
    """The calling party's call state after this call; raises if it is not allowed now."""
    if game.phase is not Phase.PLAY:
        raise IllegalActionError(
            "vorbehalt_open", "no announcement before the Vorbehaltsabfrage has ended"
        )
    if not call_window_open(game):
        raise IllegalActionError(
            "hochzeit_not_clarified",
            "no announcement before the Hochzeit's Klärungsstich is complete",
        )
    party = game.parties[action.seat]
    assert party is not None  # every party is settled once the call window is open
    try:
        return check_call(
            party,
            action.call,
            len(game.hands[action.seat]),
            game.party_calls[party],
            game.party_calls[party.other],
            hand_size=game.rules.hand_size,
            shift=deadline_shift(game),
            absagen_enabled=game.rules.absagen_enabled,
        )
    except CallError as err:
        raise IllegalActionError(err.reason, str(err)) from None
