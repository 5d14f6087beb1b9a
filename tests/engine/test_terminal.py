"""The terminal client: readable output, bad input answered, the game goes on."""

from __future__ import annotations

import itertools

from bot.engine import Engine
from bot.rules.cards import Card
from bot.rules.game import Play, Reserve
from bot.terminal import HUMAN, Terminal, parse_choice


async def test_terminal_plays_a_game_and_answers_bad_input(engine: Engine) -> None:
    info = await engine.create_table(
        guild_id=0, channel_id=0, host_id=HUMAN, host_name="Du", games=1
    )
    info = await engine.start_game(info.id, HUMAN)
    answers = itertools.chain(["quatsch", "99"], itertools.repeat("1"))
    out: list[str] = []
    terminal = Terminal(engine, ask=lambda _prompt: next(answers), say=out.append)
    assert await terminal.run(info.id) == 0
    text = "\n".join(out)
    assert "'quatsch' steht nicht zur Wahl" in text
    assert "'99' steht nicht zur Wahl" in text
    assert "Deine Karten" in text
    assert "Spielwert" in text and "Stich 12" in text
    assert "Die Runde ist zu Ende." in text


def test_parse_choice_accepts_numbers_codes_and_words() -> None:
    legal = [Play(0, Card.H10), Play(0, Card.CQ)]
    assert parse_choice("2", legal) == Play(0, Card.CQ)
    assert parse_choice("h10", legal) == Play(0, Card.H10)
    assert parse_choice("H10 ", legal) == Play(0, Card.H10)
    assert parse_choice("SA", legal) is None
    reserve = [Reserve(0, False), Reserve(0, True)]
    assert parse_choice("gesund", reserve) == Reserve(0, False)
    assert parse_choice("v", reserve) == Reserve(0, True)


def test_returning_armut_cards_is_typed() -> None:
    from bot.rules.game import ReturnCards

    legal = [ReturnCards(0, (Card.CA, Card.S9)), ReturnCards(0, (Card.CA, Card.H9))]
    assert parse_choice("s9 ca", legal) == legal[0]
    assert parse_choice("CA,H9", legal) == legal[1]
    assert parse_choice("1", legal) is None
