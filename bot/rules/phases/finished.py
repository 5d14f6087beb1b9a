"""The end of a game: scored after the last trick, or ended by a redeal (house rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.rules.actions import IllegalActionError, Phase, Redeal
from bot.rules.calls import Party
from bot.rules.cards import FUCHS
from bot.rules.scoring import (
    ScoreFacts,
    Sonderpunkt,
    conceded,
    fuchs_caught,
    is_doppelkopf,
    is_karlchen,
    score,
)

if TYPE_CHECKING:
    from bot.rules.game import Game


def validate(game: Game) -> None:
    """Nothing is allowed once the game is over."""
    raise IllegalActionError("game_finished", "the game is over")


def finish(game: Game) -> None:
    """After the last trick: score the game."""
    game.phase = Phase.FINISHED
    game.result = score(score_facts(game))


def can_concede(game: Game, seat: int) -> bool:
    """Whether ``seat``'s party can give the game up: cards are played and every seat's
    party is known (not before the contract stands, nor in a Hochzeit not yet clarified).
    """
    return (
        game.phase is Phase.PLAY
        and 0 <= seat < 4
        and all(party is not None for party in game.parties)
    )


def concede(game: Game, seat: int) -> None:
    """``seat``'s party gives the game up: the other party takes every trick still open
    (``scoring.conceded``), and the game is scored.
    """
    if not can_concede(game, seat):
        raise IllegalActionError("cannot_concede", "the parties are not known yet")
    party = game.parties[seat]
    assert party is not None
    augen_played = sum(trick.augen for trick in game.tricks)
    facts = conceded(score_facts(game), party, len(game.tricks), augen_played)
    game.conceded_by = seat
    game.phase = Phase.FINISHED
    game.result = score(facts)


def end_with_redeal(game: Game, reason: Redeal) -> None:
    """End the game unplayed: the same dealer deals again and nobody scores."""
    game.redeal = reason
    game.phase = Phase.FINISHED


def score_facts(game: Game) -> ScoreFacts:
    """The facts scoring needs, from the tricks played so far."""
    contract = game.contract
    assert contract is not None
    parties = game.parties
    re_augen = 0
    re_tricks = 0
    specials: list[tuple[Sonderpunkt, Party]] = []
    for trick in game.tricks:
        assert trick.winner is not None
        won_by = parties[trick.winner]
        assert won_by is not None
        if won_by is Party.RE:
            re_augen += trick.augen
            re_tricks += 1
        if contract.scored_as_solo:
            continue  # no Sonderpunkte in a solo (TSR 7.2)
        if is_doppelkopf(trick.augen):
            specials.append((Sonderpunkt.DOPPELKOPF, won_by))
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            if card == FUCHS:
                played_by = parties[seat]
                assert played_by is not None
                if fuchs_caught(played_by, won_by):
                    specials.append((Sonderpunkt.FUCHS, won_by))
    if not contract.scored_as_solo and len(game.tricks) == game.rules.tricks:
        last = game.tricks[-1]
        assert last.winner is not None
        winning_card = last.cards[last.seats.index(last.winner)]
        won_by = parties[last.winner]
        assert won_by is not None
        if is_karlchen(winning_card):
            specials.append((Sonderpunkt.KARLCHEN, won_by))
    facts = ScoreFacts(
        contract=contract,
        re_seats=tuple(seat for seat in range(4) if parties[seat] is Party.RE),
        re_level=game.party_calls[Party.RE].level,
        kontra_level=game.party_calls[Party.KONTRA].level,
        re_augen=re_augen,
        re_tricks=re_tricks,
        specials=tuple(specials),
        ruleset=game.rules,
        bock=game.deal.bock,
    )
    if game.conceded_by is not None:
        by = parties[game.conceded_by]
        assert by is not None
        return conceded(facts, by, len(game.tricks), sum(t.augen for t in game.tricks))
    return facts
