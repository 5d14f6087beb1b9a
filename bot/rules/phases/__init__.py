"""One module per phase of a game, each with its part of ``Game``'s legal/validate/apply.

The modules work on the ``Game`` they are given; ``Game`` dispatches to them. Helpers shared
by several phases live here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.rules.actions import IllegalActionError, Phase
from bot.rules.calls import Party

if TYPE_CHECKING:
    from bot.rules.game import Game


def expect_turn(game: Game, seat: int, phase: Phase, what: str) -> None:
    """Raise unless the game is in ``phase`` and it is ``seat``'s turn."""
    if game.phase is not phase:
        raise IllegalActionError(
            "wrong_phase", f"cannot {what} now: the game is in the {game.phase} phase"
        )
    turn = game.to_act()
    if seat != turn:
        raise IllegalActionError("not_your_turn", f"it is seat {turn}'s turn, not seat {seat}'s")


def set_parties(game: Game, re: set[int]) -> None:
    """Settle every seat's party: the seats in ``re`` are Re, the others Kontra."""
    game.parties = [Party.RE if seat in re else Party.KONTRA for seat in range(4)]
