"""A game an absent player's party gives up: the remaining tricks go to the other party."""

from __future__ import annotations

import random

import pytest

from bot.rules.actions import IllegalActionError
from bot.rules.calls import Party
from bot.rules.contracts import Contract
from bot.rules.game import Game, Phase
from bot.rules.scoring import ScoreFacts, conceded, score
from tests.rules.helpers import CONTRACT_TARGETS, deal_for, play_random

NORMAL_RE = (0, 2)


def facts(re_augen: int, re_tricks: int, re_level: int = -1, kontra_level: int = -1) -> ScoreFacts:
    return ScoreFacts(Contract.NORMAL, NORMAL_RE, re_level, kontra_level, re_augen, re_tricks)


def test_kontra_gives_up_re_takes_the_rest() -> None:
    # Four tricks played: Re took 2 with 40 Augen, Kontra 2 with 50; Kontra gives up.
    given_up = conceded(facts(40, 2), Party.KONTRA, tricks_played=4, augen_played=90)
    assert given_up.re_augen == 190 and given_up.re_tricks == 10
    result = score(given_up)
    assert result.winner is Party.RE
    assert result.scores[0] > 0 and result.scores[1] < 0


def test_re_gives_up_keeps_only_what_it_took() -> None:
    given_up = conceded(facts(40, 2), Party.RE, tricks_played=4, augen_played=90)
    assert given_up == facts(40, 2)  # Kontra's share is the rest: 200 Augen, 10 tricks
    result = score(given_up)
    assert result.winner is Party.KONTRA
    assert result.scores[0] < 0


def test_the_ansagen_made_still_count() -> None:
    # Re said "Re"; Re gives up at once: Kontra wins, the Ansage doubles it, Re schwarz.
    result = score(conceded(facts(0, 0, re_level=0), Party.RE, tricks_played=0, augen_played=0))
    assert result.winner is Party.KONTRA
    items = {item.item for item in result.game_points}
    assert {"won", "re_announced", "schwarz"} <= items


def test_a_party_that_already_won_keeps_it() -> None:
    # Re took 130 Augen in six tricks before leaving: Augen taken are not taken back.
    result = score(conceded(facts(130, 6), Party.RE, tricks_played=6, augen_played=150))
    assert result.winner is Party.RE


@pytest.mark.parametrize("seed", range(40))
def test_a_game_given_up_mid_play_is_scored_against_that_party(seed: int) -> None:
    rng = random.Random(seed)
    target = CONTRACT_TARGETS[seed % len(CONTRACT_TARGETS)]
    game = Game(deal_for(target, seed))
    play_random(game, rng, target, call_rate=0.0, stop_after=rng.randrange(5, 30))
    if game.finished:
        return
    seat = game.to_act()
    assert seat is not None
    if not game.can_concede(seat):
        assert game.phase is not Phase.PLAY or None in game.parties
        with pytest.raises(IllegalActionError):
            game.concede(seat)
        return
    party = game.parties[seat]
    game.concede(seat)
    assert game.finished and game.result is not None and game.conceded_by == seat
    result = game.result
    assert result.re_augen + result.kontra_augen == 240
    assert result.re_tricks + result.kontra_tricks == game.rules.tricks
    assert sum(result.scores) == 0
    taken = sum(t.augen for t in game.tricks if game.parties[t.winner or 0] is party)
    own_augen = result.re_augen if party is Party.RE else result.kontra_augen
    assert own_augen == taken  # not one card more than the tricks the party took
    assert game.score_facts().re_augen == result.re_augen  # the facts agree with the score
