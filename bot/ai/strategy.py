"""The one interface every AI level implements, and the random baseline."""

from __future__ import annotations

import random
from typing import Protocol

from bot.rules.game import Action, Announce, Phase, ReturnCards
from bot.rules.view import PlayerView


class Strategy(Protocol):
    """Picks one of ``view.legal`` for the seat of the view.

    Asked once per decision: gesund/Vorbehalt, the contract to name, each card, and whether
    to make a call (an Ansage or Absage). After a call is applied the driver asks again; only
    new, higher calls are offered then, so a strategy cannot announce forever.
    """

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def random_return(view: PlayerView, rng: random.Random) -> ReturnCards:
    """The Armut taker's return as a uniform sample of its hand (no list of combinations)."""
    assert view.armut is not None
    cards = rng.sample(list(view.hand), view.armut.offered)
    return ReturnCards(view.seat, tuple(sorted(cards)))


class RandomStrategy:
    """Uniform over the legal actions, but never a call: the baseline of the arena.

    Returning cards after taking an Armut picks a uniform sample of the hand instead of
    choosing among every combination.
    """

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        armut = view.armut
        if view.phase is Phase.ARMUT and armut is not None and armut.taker == view.seat:
            return random_return(view, rng)
        options: list[Action] = [a for a in view.legal if not isinstance(a, Announce)]
        options = options or list(view.legal)
        if not options:
            raise ValueError(f"seat {view.seat} has no legal action to choose from")
        return rng.choice(options)
