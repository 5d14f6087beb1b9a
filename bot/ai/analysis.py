"""Spielanalyse and the coach's Tipp: a finished game's decisions rated by the Monte-Carlo AI.

Every decision is rated from the deciding seat's own ``PlayerView`` at that moment, over
worlds sampled from what that seat knew then, never from the true deal: nothing here reads
another hand's unplayed cards. A card is a mistake when the AI rates another card at least
``THRESHOLD`` points better in expectation (the same sampled worlds price every candidate,
so the difference is not blurred by different samples); a call made on one's turn is one
when going without it rates that much better; a call that was in time and would have paid
as the AI's own calls must (``MonteCarloStrategy.margins``) but was never made is listed
with its win chance. The contract a seat chose at the Vorbehalt (gesund, a solo, a
Hochzeit, an Armut offered, Schmeißen) is rated as the contract search rates it
(``bot.ai.contract``; an open Pflichtsolo against waiting for a better hand), and so are the
answer to an Armut offered and the cards its taker returns.

The budget is fixed: ``PLAYOUTS`` per decision, at most ``BUDGET`` per seat and game (a seat
has at most a dozen rated decisions, so the cap only guards odd records). Pure: reads views
(``bot.rules.view.seat_decisions`` replays a record into them), returns plain values;
callers run it in a worker thread.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.ai.contract import (
    ContractSearch,
    HouseOption,
    Option,
    armut_answers,
    candidates,
    pflicht_threshold,
    rate_contracts,
)
from bot.ai.heuristic import HeuristicStrategy, pflicht_open
from bot.ai.montecarlo import MonteCarloStrategy, Rating
from bot.rules.calls import Call
from bot.rules.cards import Card
from bot.rules.contracts import SOLOS, Contract
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
)
from bot.rules.view import PlayerView

THRESHOLD = 0.5  # expected points: below this, a choice is as good as the AI's
PLAYOUTS = 2400  # per rated decision, split over the candidate cards
BUDGET = 40_000  # playouts per seat and game
TIP_PLAYOUTS = 3000  # a Tipp is one decision: schwer's budget


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision the AI rates at least ``THRESHOLD`` points worse than its own choice.

    ``played`` is the seat's card, call, contract (or house-rule choice), answer to an Armut
    or cards given back; ``suggested`` the AI's, or None for "no call". ``trick`` counts
    from 1, ``position`` is the place in the trick (1 leads); both are 0 for the contract
    and the Armut.
    """

    kind: Literal["card", "call", "contract", "armut"]
    trick: int
    position: int
    played: Card | Call | Contract | HouseOption | TakeArmut | ReturnCards
    suggested: Card | Contract | HouseOption | TakeArmut | ReturnCards | None
    loss: float


@dataclass(frozen=True, slots=True)
class MissedCall:
    """A call that was in time and would have paid, first moment only, never made."""

    call: Call
    trick: int
    position: int
    win: float  # 0..1: how often the seat's side wins with the call, as the seat saw it
    gain: float  # expected points the call adds


@dataclass(frozen=True, slots=True)
class Analysis:
    """One seat's game: ``given_away`` is the game's figure, the expected points lost to
    the AI's choices over every rated decision (small differences included).
    """

    seat: int
    decisions: int  # rated: a card with a choice, a call on one's turn, a contract, an Armut
    agreed: int  # decisions where the seat chose as the AI would
    given_away: float
    mistakes: tuple[Mistake, ...]
    missed_calls: tuple[MissedCall, ...]
    playouts: int
    complete: bool  # False when the budget ran out before the last decision


@dataclass(frozen=True, slots=True)
class Tip:
    """The coach's suggestion for the decision a view asks for, and why in few words.

    ``reason``: ``best_card`` (``expected`` and the runner-up's), ``only_card``,
    ``call_pays`` (``win`` chance), ``contract`` (the Vorbehalt or the contract to name as
    the contract search rates it: ``contract`` and ``expected``, the best ``other`` and its
    ``runner_up_expected``; taking an Armut or not: ``contract`` None, ``other`` the other
    answer, or the cards to return and the next best), ``rule_of_thumb`` (a hand not worth
    searching).
    """

    action: Action
    reason: Literal["best_card", "only_card", "call_pays", "contract", "rule_of_thumb"]
    expected: float | None = None
    runner_up: Card | None = None
    runner_up_expected: float | None = None
    win: float | None = None
    contract: Contract | HouseOption | None = None
    other: Contract | HouseOption | Action | None = None


def _where(view: PlayerView) -> tuple[int, int]:
    return len(view.tricks) + 1, len(view.current_trick) + 1


def _rate(
    ai: MonteCarloStrategy, view: PlayerView, call: Announce | None, rng: random.Random
) -> tuple[list[Play], Rating]:
    plays = [a for a in view.legal if isinstance(a, Play)]
    return plays, ai.rate(view, plays, call, rng)


def _first_call(view: PlayerView) -> Announce | None:
    return next((a for a in view.legal if isinstance(a, Announce)), None)


def analyse(decisions: Sequence[tuple[PlayerView, Action]], seed: int = 0) -> Analysis:
    """Rate one seat's decisions of a finished game: each of its actions with its view
    just before it (``bot.rules.view.seat_decisions``); the same ``seed``, the same result.
    """
    seat = decisions[0][0].seat if decisions else 0
    ai = MonteCarloStrategy(playouts=PLAYOUTS, name="analysis")
    rng = random.Random(f"analyse:{seed}:{seat}")
    made = {a.call for _, a in decisions if isinstance(a, Announce)}
    mistakes: list[Mistake] = []
    missed: dict[Call, MissedCall] = {}
    rated = agreed = 0
    given_away = 0.0
    complete = True
    contract = _contract_loss(ai, decisions, seat, mistakes, rng)
    for loss in (contract, *_armut_losses(ai, decisions, seat, mistakes, rng)):
        if loss is not None:
            rated += 1
            agreed += loss == 0.0
            given_away += loss
    for view, action in decisions:
        if view.phase is not Phase.PLAY or view.to_act != seat:
            continue
        if ai.stats.playouts >= BUDGET:
            complete = False
            continue
        loss = _judge(ai, view, action, made, mistakes, missed, rng)
        if loss is not None:
            rated += 1
            agreed += loss == 0.0
            given_away += loss
    given_away += sum(m.gain for m in missed.values())
    return Analysis(
        seat,
        rated,
        agreed,
        round(given_away, 2),
        tuple(mistakes),
        tuple(missed.values()),
        ai.stats.playouts,
        complete,
    )


def _judge(
    ai: MonteCarloStrategy,
    view: PlayerView,
    action: Action,
    made: set[Call],
    mistakes: list[Mistake],
    missed: dict[Call, MissedCall],
    rng: random.Random,
) -> float | None:
    """Rate one decision; the expected points it gave away, None when there was no choice."""
    trick, position = _where(view)
    call = _first_call(view)
    if isinstance(action, Announce):
        asked = next((a for a in view.legal if a == action), None)
        _, rating = _rate(ai, view, asked, rng)
        if rating.call_gain is None:
            return None
        loss = max(0.0, -rating.call_gain)
        if loss >= THRESHOLD:
            mistakes.append(Mistake("call", trick, position, action.call, None, round(loss, 2)))
        return loss
    if not isinstance(action, Play):
        return None
    plays, rating = _rate(ai, view, call, rng)
    new_call = call is not None and call.call not in made and call.call not in missed
    if call is not None and new_call and ai.margins.pays(rating, call):
        assert rating.call_win is not None and rating.call_gain is not None
        win, gain = round(rating.call_win, 2), rating.call_gain
        missed[call.call] = MissedCall(call.call, trick, position, win, gain)
    if len(plays) < 2:
        return None
    chosen = plays.index(action)
    loss = rating.means[rating.best] - rating.means[chosen]
    if loss >= THRESHOLD:
        best = plays[rating.best].card
        mistakes.append(Mistake("card", trick, position, action.card, best, round(loss, 2)))
    return loss


def _contract_loss(
    ai: MonteCarloStrategy,
    decisions: Sequence[tuple[PlayerView, Action]],
    seat: int,
    mistakes: list[Mistake],
    rng: random.Random,
) -> float | None:
    """Rate the contract the seat chose, from its view when first asked; the expected points
    it gave away, None when it was not searched (a hand with nothing worth searching, or a
    Vorbehalt that another outranked before it was named).
    """
    asked: PlayerView | None = None
    chosen: Option = None
    for view, action in decisions:
        if view.phase not in (Phase.VORBEHALT, Phase.DECLARE) or view.to_act != seat:
            continue
        if asked is None:
            asked = view
        if isinstance(action, Reserve) and action.reserve:
            continue
        if isinstance(action, Declare):
            chosen = action.contract
        elif isinstance(action, ArmutOffer):
            chosen = HouseOption.ARMUT
        elif isinstance(action, Schmeissen):
            chosen = HouseOption.SCHMEISSEN
        break
    else:
        return None
    assert asked is not None
    vorgefuehrt = asked.vorgefuehrt == seat
    options = candidates(asked, vorgefuehrt)
    if chosen not in options:
        if chosen is not None and chosen not in (*SOLOS, Contract.HOCHZEIT):
            return None
        options.append(chosen)
    if len(options) < 2:
        return None
    rating = rate_contracts(asked, options, PLAYOUTS, rng, pflicht_open(asked))
    ai.stats.playouts += rating.worlds * len(options)
    # Not playing an open Pflichtsolo now keeps the chance of a better hand.
    wait = pflicht_threshold(asked) if pflicht_open(asked) and not vorgefuehrt else 0.0
    value = rating.worth(wait)
    best = max(value, key=value.__getitem__)
    loss = value[best] - value[chosen]
    if loss >= THRESHOLD:
        played, suggested = _named(chosen, asked), _named(best, asked)
        mistakes.append(Mistake("contract", 0, 0, played, suggested, round(loss, 2)))
    return loss


def _armut_losses(
    ai: MonteCarloStrategy,
    decisions: Sequence[tuple[PlayerView, Action]],
    seat: int,
    mistakes: list[Mistake],
    rng: random.Random,
) -> list[float]:
    """Rate the seat's answer to an Armut offered and the cards it returned as its taker,
    each from its view then; the expected points each gave away.
    """
    out: list[float] = []
    for view, action in decisions:
        if view.phase is not Phase.ARMUT or view.to_act != seat:
            continue
        if not isinstance(action, TakeArmut | ReturnCards):
            continue
        if isinstance(action, ReturnCards):
            action = ReturnCards(seat, tuple(sorted(action.cards)))
        answers = armut_answers(view, PLAYOUTS, rng, also=action)
        (suggested, best), chosen = answers[0], dict(answers)[action]
        ai.stats.playouts += PLAYOUTS
        loss = max(0.0, best - chosen)
        if loss >= THRESHOLD:
            mistakes.append(Mistake("armut", 0, 0, action, suggested, round(loss, 2)))
        out.append(loss)
    return out


def _contract_tip(view: PlayerView, rng: random.Random) -> Tip:
    """The Vorbehalt or contract the contract search names, against the best other."""
    search = ContractSearch(budget=TIP_PLAYOUTS)
    action = search.choose(view, rng)
    rating, chosen = search.rating, search.chosen.get(view.seat)
    searched = isinstance(action, Reserve | Declare | Schmeissen | ArmutOffer)
    if rating is None or chosen is None or not searched:
        return Tip(action, "rule_of_thumb")
    plan = chosen[2]
    means = rating.means
    others = [c for c in means if _named(c, view) != _named(plan, view)]
    if plan not in means or not others:
        return Tip(action, "rule_of_thumb")
    other = max(others, key=means.__getitem__)
    return Tip(
        action,
        "contract",
        expected=round(means[plan], 2),
        runner_up_expected=round(means[other], 2),
        contract=_named(plan, view),
        other=_named(other, view),
    )


def _armut_tip(view: PlayerView, rng: random.Random) -> Tip:
    """Take the Armut offered or not, or the cards to give back as its taker, as the contract
    search rates them, against the next best.
    """
    answers = armut_answers(view, TIP_PLAYOUTS, rng)
    if len(answers) < 2:  # one set of cards to give back: nothing to weigh
        return Tip(answers[0][0], "rule_of_thumb")
    (best, expected), (other, runner_up) = answers[0], answers[1]
    return Tip(
        best, "contract", round(expected, 2), runner_up_expected=round(runner_up, 2), other=other
    )


def _named(option: Option, view: PlayerView) -> Contract | HouseOption:
    """A searched option as the game it is: not naming one is a normal game, or with both
    Kreuz-Damen a stille Hochzeit (a Hochzeit where the rules reveal it anyway).
    """
    if option is not None:
        return option
    if view.hand.count(Card.CQ) < 2:
        return Contract.NORMAL
    return Contract.STILLE_HOCHZEIT if view.ruleset.stille_hochzeit_enabled else Contract.HOCHZEIT


def tip(view: PlayerView, seed: int = 0) -> Tip:
    """The coach's suggestion for the decision ``view`` asks of its seat."""
    rng = random.Random(f"tipp:{seed}")
    plays = [a for a in view.legal if isinstance(a, Play)]
    if view.phase in (Phase.VORBEHALT, Phase.DECLARE):
        return _contract_tip(view, rng)
    if view.phase is Phase.ARMUT and view.armut is not None:
        return _armut_tip(view, rng)
    if view.phase is not Phase.PLAY or not plays:
        return Tip(HeuristicStrategy().choose(view, rng), "rule_of_thumb")
    call = _first_call(view)
    if len(plays) == 1 and call is None:
        return Tip(plays[0], "only_card")
    ai = MonteCarloStrategy(playouts=TIP_PLAYOUTS, name="tipp")
    rating = ai.rate(view, plays, call, rng)
    if call is not None and ai.margins.pays(rating, call):
        assert rating.call_win is not None
        return Tip(call, "call_pays", win=round(rating.call_win, 2))
    best = rating.best
    if len(plays) == 1:
        return Tip(plays[0], "only_card")
    second = max((i for i in range(len(plays)) if i != best), key=rating.means.__getitem__)
    return Tip(
        plays[best],
        "best_card",
        expected=round(rating.means[best], 2),
        runner_up=plays[second].card,
        runner_up_expected=round(rating.means[second], 2),
    )
