"""The terminal client: readable output, bad input answered, the game goes on."""

from __future__ import annotations

import itertools
import re

from bot.engine import Engine
from bot.render.texts import t
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


async def test_terminal_at_five_players_says_when_you_sit_out(engine: Engine) -> None:
    from bot.rules.ruleset import Ruleset

    info = await engine.create_table(
        guild_id=0, channel_id=0, host_id=HUMAN, host_name="Du", games=2, rules=Ruleset(players=5)
    )
    for seat in range(1, 5):
        info = await engine.add_ai(info.id, HUMAN, "leicht", seat)
    answers = itertools.repeat("1")
    out: list[str] = []
    terminal = Terminal(engine, ask=lambda _prompt: next(answers), say=out.append)
    info = await engine.start_game(info.id, HUMAN, dealer=0)  # the human deals first
    assert await terminal.run(info.id) == 0
    text = "\n".join(out)
    assert "Spiel 1: du gibst und setzt aus (0 Punkte)." in text
    assert text.count("setzt aus (0 Punkte)") == 1  # the second game the deal moved on
    assert "Deine Karten" in text and "Rechts gegenüber" in text
    assert "Die Runde ist zu Ende." in text


async def test_terminal_says_who_is_vorgefuehrt_and_what_is_played(engine: Engine) -> None:
    # One game in the round and four open Pflichtsoli: each of the four is vorgeführt in turn.
    info = await engine.create_table(
        guild_id=0, channel_id=0, host_id=HUMAN, host_name="Du", games=1
    )
    answers = itertools.repeat("1")
    out: list[str] = []
    terminal = Terminal(engine, ask=lambda _prompt: next(answers), say=out.append)
    info = await engine.start_game(info.id, HUMAN)  # listening before the first deal
    assert await terminal.run(info.id) == 0
    text = "\n".join(out)
    lines = text.splitlines()
    assert "Offene Pflichtsoli: Du, Links, Gegenüber, Rechts · Spiele der Runde übrig: 1" in text
    ended = [line for line in lines if " ist vorbei: " in line]
    assert len(ended) == 4 and all(line.endswith(" · Pflichtsolo, vorgeführt") for line in ended)
    for name in ("Links", "Gegenüber", "Rechts"):
        said = f"{name} ist vorgeführt und sagt jetzt das Pflichtsolo an (keine Vorbehaltsabfrage)."
        assert lines.count(said) == 1
        assert sum(f" von {name} · Pflichtsolo, vorgeführt" in line for line in ended) == 1
    # The human hears it as his own: before his solo, and on every turn of it.
    assert lines.count(t("de", "vorgefuehrt_you").replace("**", "")) == 1
    assert t("de", "vorgefuehrt_you_play") in text
    assert sum(" von Du · Pflichtsolo, vorgeführt" in line for line in ended) == 1
    assert "Alle Pflichtsoli" not in text  # the round ends with the last of them
    # Contracts in words, never the record's codes (solo_kreuz, vorgefuehrt …).
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|vorgefuehrt|\bpflicht\b", text), text
