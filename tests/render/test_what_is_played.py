"""Say what is played: the contract in words, the soloist, Pflicht, Lust or vorgeführt, the
open Pflichtsoli of the round; and the hand message of a finished game (bot/render).
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import discord
import pytest

from bot.engine.model import TableInfo
from bot.render.hand import hand_content, hand_result_message
from bot.render.table import final_message, game_message, result_lines
from bot.render.terms import contract_name, party_name
from bot.render.texts import Lang, t
from bot.rules.contracts import SOLOS, Contract
from bot.rules.game import Deal, Declare, Game, Phase, Reserve
from bot.rules.records import game_summary
from bot.rules.round import RoundContext
from bot.rules.ruleset import DDV
from bot.rules.view import player_view

from .helpers import (
    NAMES,
    Chooser,
    drive,
    entry_for,
    five_seating,
    gesund_and_random,
    limit_errors,
    table_info,
    visible_text,
)

OPEN = RoundContext(24, (False, False, False, False))  # nobody played a Pflichtsolo yet
DONE = RoundContext(24, (True, True, True, True))  # every Pflichtsolo played: solos are Lust
# One game left and seat 3 still owes its Pflichtsolo: seat 3 is vorgeführt (TSR 4.2).
DUE = RoundContext(1, (True, True, True, False))


def solo_by(soloist: int, contract: Contract, rng: random.Random) -> Chooser:
    """``soloist`` says Vorbehalt and names ``contract`` (a vorgeführt seat names it at once)."""

    def choose(game: Game, seat: int, options: list) -> object:  # type: ignore[type-arg]
        if game.phase is Phase.VORBEHALT:
            return Reserve(seat, seat == soloist)
        if game.phase is Phase.DECLARE:
            return Declare(seat, contract)
        return rng.choice(options)

    return choose  # type: ignore[return-value]


def solo_game(
    context: RoundContext | None,
    soloist: int,
    contract: Contract = Contract.SOLO_KREUZ,
    tricks: int | None = 1,
    seed: int = 3,
) -> Game:
    """A solo of ``soloist``, played to ``tricks`` tricks (None: to the end)."""
    game = Game(Deal.shuffled(seed, 0, context))
    rng = random.Random(seed)
    until = (lambda g: g.finished) if tricks is None else (lambda g: len(g.tricks) == tricks)
    return drive(game, solo_by(soloist, contract, rng), until=until)


def table_text(game: Game, lang: Lang, info: TableInfo | None = None) -> str:
    embed, _ = game_message(info or table_info(game), lang)
    return visible_text(embed)


def kind_line(contract: Contract, name: str, kind: str, lang: Lang) -> str:
    head = t(lang, "soloist_line", contract=contract_name(contract, lang), name=name)
    return f"{head} · {t(lang, f'solo_{kind}')}"


# -- Pflicht, Lust, vorgeführt --------------------------------------------------------------


def test_a_first_solo_is_the_pflichtsolo_on_the_table_and_in_every_hand(lang: Lang) -> None:
    game = solo_game(OPEN, 2)
    line = kind_line(Contract.SOLO_KREUZ, NAMES[2], "pflicht", lang)
    assert line in table_text(game, lang)
    for seat in range(4):
        assert line in hand_content(table_info(game), player_view(game, seat), lang)
    assert t(lang, "solo_lust") not in table_text(game, lang)


def test_a_second_solo_is_a_lustsolo(lang: Lang) -> None:
    game = solo_game(DONE, 1, Contract.SOLO_DAMEN)
    line = kind_line(Contract.SOLO_DAMEN, NAMES[1], "lust", lang)
    assert line in table_text(game, lang)
    assert line in hand_content(table_info(game), player_view(game, 0), lang)
    assert t(lang, "solo_pflicht") not in table_text(game, lang)


def test_without_pflichtsoli_a_solo_says_no_kind(lang: Lang) -> None:
    rules = DDV.replace(pflichtsolo_enabled=False)
    game = solo_game(None, 1)
    info = table_info(game, rules=rules)
    text = table_text(game, lang, info)
    head = t(lang, "soloist_line", contract=contract_name(Contract.SOLO_KREUZ, lang), name=NAMES[1])
    assert head in text
    assert t(lang, "solo_lust") not in text and t(lang, "solo_pflicht") not in text
    assert t(lang, "open_pflichtsoli_none") not in text and "Pflichtsoli" not in text


def test_the_vorgefuehrt_seat_is_announced_before_and_while_it_plays(lang: Lang) -> None:
    game = Game(Deal.shuffled(3, 0, DUE))
    assert game.phase is Phase.DECLARE and game.vorgefuehrt == 3
    info = table_info(game)
    # Before the solo is named: everyone hears who must name it; the seat itself why.
    declare = t(lang, "vorgefuehrt_declare", name=NAMES[3])
    assert declare in table_text(game, lang)
    assert t(lang, "phase_declare") not in table_text(game, lang)
    own = hand_content(info, player_view(game, 3), lang)
    assert t(lang, "vorgefuehrt_you") in own and declare not in own
    for seat in range(3):
        other = hand_content(info, player_view(game, seat), lang)
        assert declare in other and t(lang, "vorgefuehrt_you") not in other
    # Once it is named: the solo, its soloist, "vorgeführt" for all.
    drive(game, solo_by(3, Contract.SOLO_PIK, random.Random(3)), until=lambda g: len(g.tricks) == 1)
    line = kind_line(Contract.SOLO_PIK, NAMES[3], "vorgefuehrt", lang)
    public = table_text(game, lang)
    assert line in public and t(lang, "vorgefuehrt_line", name=NAMES[3]) in public
    own = hand_content(table_info(game), player_view(game, 3), lang)
    assert line in own and t(lang, "vorgefuehrt_you_play") in own
    other = hand_content(table_info(game), player_view(game, 1), lang)
    assert line in other and t(lang, "vorgefuehrt_line", name=NAMES[3]) in other


def test_the_final_message_keeps_the_kind_of_solo(lang: Lang) -> None:
    game = solo_game(DUE, 3, Contract.SOLO_HERZ, tricks=None)
    entry = entry_for(game, 1, None)
    embed, _ = final_message(table_info(game), game_summary(game), entry, 9, lang)
    text = visible_text(embed)
    assert kind_line(Contract.SOLO_HERZ, NAMES[3], "vorgefuehrt", lang) in text
    assert t(lang, "vorgefuehrt_line", name=NAMES[3]) in text


# -- the open Pflichtsoli -------------------------------------------------------------------


def test_the_table_names_who_still_owes_a_pflichtsolo(lang: Lang) -> None:
    game = Game(Deal.shuffled(4, 0))
    info = replace(table_info(game), pflichtsolo_done=(True, False, True, False), games_left=9)
    names = f"{NAMES[1]}, {NAMES[3]}"
    assert t(lang, "open_pflichtsoli", names=names, games=9) in table_text(game, lang, info)
    done = replace(info, pflichtsolo_done=(True,) * 4)
    assert t(lang, "open_pflichtsoli_none") in table_text(game, lang, done)
    # Past the round's games the open ones are played on top, vorgeführt.
    due = replace(info, games_left=0)
    assert t(lang, "open_pflichtsoli_due", names=names) in table_text(game, lang, due)


def test_at_five_the_open_pflichtsoli_count_the_one_sitting_out(lang: Lang) -> None:
    game = Game(Deal.shuffled(4, 0))
    info = table_info(game, size=5, game_seats=five_seating(1))  # table seat 0 sits out
    info = replace(info, pflichtsolo_done=(False, True, True, True, False), games_left=3)
    names = f"{NAMES[0]}, {NAMES[4]}"
    assert t(lang, "open_pflichtsoli", names=names, games=3) in table_text(game, lang, info)


# -- no record codes anywhere ---------------------------------------------------------------


def final_embed(game: Game, lang: Lang) -> discord.Embed:
    """The table's final message of the finished ``game``."""
    entry = entry_for(game, 1, None)
    embed, _ = final_message(table_info(game), game_summary(game), entry, 9, lang)
    return embed


def result_hands(game: Game, lang: Lang) -> list[str]:
    """The four hand messages of the finished ``game``."""
    entry, summary = entry_for(game, 1, None), game_summary(game)
    return [
        hand_result_message(table_info(game), summary, entry, 9, 100 + s, lang) for s in range(4)
    ]


RAW = re.compile(r"solo_|_|\bvorgefuehrt\b|\bpflicht\b|\blust\b")


@pytest.mark.parametrize("contract", SOLOS)
@pytest.mark.parametrize("context", [OPEN, DONE, DUE], ids=["pflicht", "lust", "vorgefuehrt"])
def test_no_message_shows_a_record_code(
    contract: Contract, context: RoundContext, lang: Lang
) -> None:
    soloist = 3  # the vorgeführt seat of DUE
    game = Game(Deal.shuffled(3, 0, context))
    rng = random.Random(3)
    texts = []
    while not game.finished:  # every state of the running game: table and hands
        info = table_info(game)
        texts.append(table_text(game, lang, info))
        texts += [hand_content(info, player_view(game, s), lang) for s in range(4)]
        n = game.action_count
        drive(game, solo_by(soloist, contract, rng), until=lambda g, n=n: g.action_count > n)
    assert game.contract is contract and game.soloist == soloist
    embed, _ = final_message(
        table_info(game), game_summary(game), entry_for(game, 1, None), 9, lang
    )
    texts.append(visible_text(embed))
    texts += result_hands(game, lang)
    for text in texts:
        assert not RAW.search(text), text
    assert contract_name(contract, lang) in texts[-1]


def test_no_record_code_in_a_normal_game_and_its_end(lang: Lang) -> None:
    game = drive(Game(Deal.shuffled(8, 1, OPEN)), gesund_and_random(random.Random(8)))
    embed, _ = final_message(
        table_info(game), game_summary(game), entry_for(game, 1, None), 9, lang
    )
    texts = [visible_text(embed), table_text(game, lang), *result_hands(game, lang)]
    for text in texts:
        assert not RAW.search(text), text


# -- a finished game's hand message ---------------------------------------------------------


def test_the_finished_hand_shows_the_result_and_the_players_points(lang: Lang) -> None:
    game = solo_game(OPEN, 2, Contract.SOLO_BUBEN, tricks=None)
    assert game.result is not None
    entry = entry_for(game, 1, None)
    summary = game_summary(game)
    info = table_info(game)
    winner = game.result.winner
    for seat in range(4):
        text = hand_result_message(info, summary, entry, 4711, 100 + seat, lang)
        lines = text.splitlines()
        assert lines[0] == t(lang, "hand_head", table=7, number=1, game_id=4711, seat=seat + 1)
        assert t(lang, "game_over_hand") in lines
        assert kind_line(Contract.SOLO_BUBEN, NAMES[2], "pflicht", lang) in lines
        won = t(lang, "winner", party=party_name(winner)) if winner else t(lang, "no_winner")
        assert won in lines
        assert (
            t(
                lang,
                "result_augen",
                re=game.result.re_augen,
                kontra=game.result.kontra_augen,
                re_tricks=game.result.re_tricks,
                kontra_tricks=game.result.kontra_tricks,
            )
            in lines
        )
        for line in result_lines(summary["result"], lang, solo=True):
            assert line in lines
        party = party_name(game.parties[seat] or "")
        points = entry.scores[seat]
        assert points == game.result.scores[seat]
        mine = t(lang, "hand_result_you", party=party, points=points, total=entry.totals[seat])
        assert lines[-1] == mine
        assert limit_errors(content=text) == []


def test_at_five_the_dealer_hears_he_sat_out(lang: Lang) -> None:
    seating = five_seating(3)  # table seat 2 deals and sits out
    game = drive(Game(Deal.shuffled(6, 0)), gesund_and_random(random.Random(6)))
    previous = entry_for(game, 1, None, size=5, seating=five_seating(1))
    entry = entry_for(game, 2, previous, size=5, seating=seating)
    info = table_info(game, size=5, game_seats=seating, number=2)
    summary = game_summary(game)
    out = hand_result_message(info, summary, entry, 4712, 102, lang)
    assert out.splitlines()[-1] == t(lang, "hand_result_sat_out", total=entry.totals[2])
    assert t(lang, "sitting_out_line", name=NAMES[2]) in out
    # Table seat 3 played game seat 2: its own points, as that game seated it.
    player = hand_result_message(info, summary, entry, 4712, 103, lang)
    party = party_name(game.parties[2] or "")
    assert player.splitlines()[-1] == t(
        lang, "hand_result_you", party=party, points=entry.scores[3], total=entry.totals[3]
    )
