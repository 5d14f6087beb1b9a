"""The public table message: it shows no hand, says what is publicly known, fits Discord."""

from __future__ import annotations

import random
import re

import pytest

from bot.discord.components import Components
from bot.engine.model import ListEntry
from bot.render.hand import hand_content
from bot.render.table import (
    closed_message,
    final_message,
    game_message,
    lobby_message,
    result_lines,
    rules_text,
)
from bot.render.terms import card_label, contract_name
from bot.render.texts import Lang, t
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import (
    ArmutOffer,
    Deal,
    Declare,
    Game,
    Phase,
    Reserve,
    ReturnCards,
    TakeArmut,
)
from bot.rules.presets import PRESETS
from bot.rules.records import game_summary
from bot.rules.ruleset import DDV, Ruleset
from bot.rules.view import player_view

from .helpers import (
    NAMES,
    Chooser,
    drive,
    entry_for,
    first_legal_call,
    five_seating,
    gesund_and_random,
    limit_errors,
    played_cards,
    session,
    table_info,
    visible_text,
)

LANGS: tuple[Lang, ...] = ("de", "en")
RECORD_CODE = re.compile(r"\b([CSHD](?:10|[AKQJ9]))\b")


def public_text(game: Game, lang: Lang, **info: object) -> str:
    table = table_info(game, **info)  # type: ignore[arg-type]
    embed, controls = game_message(table, lang)
    # The buttons too: a card must not leak through a label or a custom id either.
    view = Components(table.id, table.version, controls)
    components = [c for row in view.to_components() for c in row["components"]]
    extras = [str(c.get("label", "")) + " " + str(c.get("custom_id", "")) for c in components]
    return "\n".join([visible_text(embed), *extras])


def label_counts(text: str, card: Card) -> int:
    return sum(text.count(label) for label in {card_label(card, lang) for lang in LANGS})


def assert_no_hidden_card(game: Game, text: str) -> None:
    """No card shows more often than it has been played; no record code of a hidden card."""
    played = played_cards(game)
    for card in Card:
        assert label_counts(text, card) <= played.count(card), (card, text)
    codes = {Card[code] for code in RECORD_CODE.findall(text)}
    assert codes <= set(played), (codes, text)


def game_at(seed: int, plays: int, calls: bool = True) -> Game:
    """A DDV game after ``plays`` cards (everyone gesund), with early calls if ``calls``."""
    rng = random.Random(seed)
    game = Game(Deal.shuffled(seed, dealer=seed % 4))
    return drive(
        game,
        gesund_and_random(rng),
        until=lambda g: g.phase is Phase.PLAY and len(played_cards(g)) >= plays,
        calls=(lambda g: first_legal_call(g) if rng.random() < 0.3 else None)
        if calls
        else (lambda g: None),
    )


@pytest.mark.parametrize("plays", [0, 1, 3, 4, 6, 13, 26, 47])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_public_message_shows_no_hand(seed: int, plays: int, lang: Lang) -> None:
    game = game_at(seed, plays)
    assert not game.finished and len(played_cards(game)) == plays
    text = public_text(game, lang)
    assert_no_hidden_card(game, text)
    # What is public is there: every card of the current trick and of the last one.
    for card in game.current:
        assert card_label(card, lang) in text
    if game.tricks:
        for card in game.tricks[-1].cards:
            assert card_label(card, lang) in text


@pytest.mark.parametrize("seed", [4, 5])
def test_the_public_message_at_five_seats_shows_no_hand(seed: int, lang: Lang) -> None:
    seating = five_seating(2)
    for plays in (0, 2, 9, 30):
        game = game_at(seed, plays)
        text = public_text(game, lang, size=5, game_seats=seating)
        assert_no_hidden_card(game, text)
        for card in game.current:
            assert card_label(card, lang) in text


def test_before_play_no_card_is_shown(lang: Lang) -> None:
    game = Game(Deal.shuffled(11, dealer=0))
    assert game.phase is Phase.VORBEHALT
    text = public_text(game, lang)
    assert_no_hidden_card(game, text)
    assert t(lang, "phase_vorbehalt") in text


def test_a_private_hand_shows_no_other_hand(lang: Lang) -> None:
    game = game_at(6, 10)
    info = table_info(game)
    played = played_cards(game)
    for seat in range(4):
        text = hand_content(info, player_view(game, seat), lang)
        others = {c for s in range(4) if s != seat for c in game.hands[s]}
        for card in others - set(played) - set(game.hands[seat]):
            assert label_counts(text, card) == 0, (seat, card, text)


def test_a_stille_hochzeit_looks_like_a_normal_game(lang: Lang) -> None:
    # Find a deal with both Kreuz-Damen in one hand; everyone gesund makes it a stille Hochzeit.
    seed = next(s for s in range(200) if any(h.count(Card.CQ) == 2 for h in Deal.shuffled(s).hands))
    game = Game(Deal.shuffled(seed, dealer=0))
    drive(game, gesund_and_random(random.Random(seed)), until=lambda g: len(g.tricks) == 2)
    assert game.contract is Contract.STILLE_HOCHZEIT
    text = public_text(game, lang)
    assert contract_name(Contract.NORMAL, lang) in text
    assert "Hochzeit" not in text
    holder = next(s for s in range(4) if game.deal.hands[s].count(Card.CQ) == 2)
    # The holder's own hand message knows it.
    own = hand_content(table_info(game), player_view(game, holder), lang)
    assert contract_name(Contract.STILLE_HOCHZEIT, lang) in own


def solo_chooser(rng: random.Random, soloist: int, contract: Contract) -> Chooser:
    def choose(game: Game, seat: int, options: list) -> object:  # type: ignore[type-arg]
        if game.phase is Phase.VORBEHALT:
            return Reserve(seat, seat == soloist)
        if game.phase is Phase.DECLARE:
            return Declare(seat, contract)
        return rng.choice(options)

    return choose  # type: ignore[return-value]


def test_a_solo_is_public_with_its_soloist(lang: Lang) -> None:
    rng = random.Random(12)
    game = Game(Deal.shuffled(12, dealer=0))
    drive(game, solo_chooser(rng, 2, Contract.SOLO_DAMEN), until=lambda g: len(g.tricks) == 1)
    text = public_text(game, lang)
    expected = t(lang, "soloist_line", contract=contract_name(Contract.SOLO_DAMEN, lang), name="")
    assert expected.strip() in text and NAMES[2] in text
    assert_no_hidden_card(game, text)


def armut_chooser(poor: int) -> Chooser:
    """The poor seat reserves and offers its trumps, the first asked takes, returns any."""

    def choose(game: Game, seat: int, options: list) -> object:  # type: ignore[type-arg]
        if game.phase is Phase.VORBEHALT:
            return Reserve(seat, seat == poor)
        if game.phase is Phase.DECLARE:
            return next(a for a in options if isinstance(a, ArmutOffer))
        if game.phase is Phase.ARMUT:
            take = next((a for a in options if isinstance(a, TakeArmut) and a.take), None)
            return take or next(a for a in options if isinstance(a, ReturnCards))
        return options[0]

    return choose  # type: ignore[return-value]


ARMUT_RULES = PRESETS["stammtisch"]
ARMUT_SEED = next(
    s
    for s in range(500)
    if any(Game(Deal.shuffled(s, ruleset=ARMUT_RULES)).can_offer_armut(p) for p in range(4))
)


def test_an_armut_shows_who_and_how_many_but_not_the_cards(lang: Lang) -> None:
    deal = Deal.shuffled(ARMUT_SEED, ruleset=ARMUT_RULES)
    poor = next(p for p in range(4) if Game(deal).can_offer_armut(p))
    game = Game(deal)
    seen_phases = set()
    choose = armut_chooser(poor)
    while game.phase is not Phase.PLAY:
        seat = game.to_act()
        assert seat is not None
        game.apply(choose(game, seat, game.legal_actions(seat)))  # type: ignore[arg-type]
        seen_phases.add(game.phase)
        text = public_text(game, lang, rules=ARMUT_RULES)
        assert_no_hidden_card(game, text)  # nothing is played: no card at all
        if game.armut is not None:
            assert str(len(game.armut.cards)) in text and NAMES[poor] in text
    assert Phase.ARMUT in seen_phases
    assert game.armut is not None and game.armut.taker is not None
    # The taker's own hand message names the cards received; the others' do not.
    info = table_info(game, rules=ARMUT_RULES)
    taker = game.armut.taker
    own = hand_content(info, player_view(game, taker), lang)
    assert all(card_label(c, lang) in own for c in game.armut.cards)
    for seat in set(range(4)) - {poor, taker}:
        other = hand_content(info, player_view(game, seat), lang)
        assert_no_hidden_card(game, other)


# -- Discord's limits -----------------------------------------------------------------------


def long_spielliste(games: int, size: int) -> tuple[ListEntry, ...]:
    return tuple(entry for _, entry in session(games, size=size, seed=games))


@pytest.mark.parametrize("size", [4, 5])
@pytest.mark.parametrize("games", [0, 1, 24, 80])
def test_the_running_game_fits_discord(size: int, games: int, lang: Lang) -> None:
    spielliste = long_spielliste(games, size)
    seating = five_seating(games + 1) if size == 5 else (0, 1, 2, 3)
    for plays in (0, 7, 40):
        game = game_at(games + plays, plays)
        info = table_info(game, size=size, spielliste=spielliste, game_seats=seating)
        embed, controls = game_message(info, lang, dm_closed=NAMES[:size], redeal="x" * 100)
        assert limit_errors(embeds=[embed], view=Components(info.id, info.version, controls)) == []


@pytest.mark.parametrize("size", [4, 5])
def test_every_final_message_of_a_long_session_fits_discord(size: int, lang: Lang) -> None:
    games = session(60, size=size, seed=size)
    spielliste = tuple(entry for _, entry in games)
    for index, (game, entry) in enumerate(games):
        info = table_info(None, size=size, spielliste=spielliste[: index + 1])
        embed, controls = final_message(
            info, game_summary(game), entry, 1000 + index, lang, session_over=index == 59
        )
        view = Components(info.id, info.version, controls)
        assert limit_errors(embeds=[embed], view=view) == []


@pytest.mark.parametrize("size", [4, 5])
def test_the_closed_table_fits_discord(size: int, lang: Lang) -> None:
    info = table_info(None, size=size, spielliste=long_spielliste(100, size))
    assert limit_errors(embeds=[closed_message(info, lang)]) == []


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("size", [4, 5])
def test_the_lobby_embed_fits_discord(preset: str, size: int, lang: Lang) -> None:
    # The embed only: the lobby's buttons are being reworked elsewhere.
    embed, _ = lobby_message(table_info(None, size=size, rules=PRESETS[preset]), lang)
    assert limit_errors(embeds=[embed]) == []


# -- the end of a game: what the final message says ------------------------------------------


def signed_total(lines: list[str]) -> int:
    """The Spielwert as the listed items add up: Re's items count up, Kontra's down."""
    total = 0
    for line in lines:
        match = re.match(r"\+(\d+) (Re|Kontra): ", line)
        if match:
            total += int(match[1]) if match[2] == "Re" else -int(match[1])
    return total


@pytest.mark.parametrize("seed", range(12))
def test_the_spielwert_lines_add_up_to_the_value(seed: int, lang: Lang) -> None:
    game, _ = session(1, seed=seed)[0]
    result = game_summary(game)["result"]
    lines = result_lines(result, lang, solo=False)
    assert lines[-1] == t(lang, "spielwert_sum", value=result["game_value"])
    assert signed_total(lines[:-1]) == result["game_value"]


def test_the_final_message_names_the_winner_the_augen_and_the_points(lang: Lang) -> None:
    games = session(3, seed=21)
    spielliste = tuple(e for _, e in games)
    game, entry = games[-1]
    embed, _ = final_message(
        table_info(None, spielliste=spielliste), game_summary(game), entry, 9, lang
    )
    text = visible_text(embed)
    result = game.result
    assert result is not None
    augen = t(
        lang,
        "result_augen",
        re=result.re_augen,
        kontra=result.kontra_augen,
        re_tricks=result.re_tricks,
        kontra_tricks=result.kontra_tricks,
    )
    assert augen in text and result.re_augen + result.kontra_augen == 240
    if result.winner is not None:
        assert t(lang, "winner", party=str(result.winner).capitalize()) in text
    points = next(f.value for f in embed.fields if f.name == t(lang, "points"))
    for seat in range(4):
        assert f"{NAMES[seat]} {entry.scores[seat]:+d}" in (points or "")
    # Every card has been played by now: the last trick is public.
    for card in game.tricks[-1].cards:
        assert card_label(card, lang) in text


def test_the_final_message_at_five_names_who_played(lang: Lang) -> None:
    games = session(3, size=5, seed=22)
    spielliste = tuple(e for _, e in games)
    game, entry = games[1]
    assert entry.sitting_out is not None
    # The table has moved on: the next game's seating must not rename this game's players.
    info = table_info(None, size=5, spielliste=spielliste, game_seats=five_seating(3))
    embed, _ = final_message(info, game_summary(game), entry, 9, lang)
    points = next(f.value for f in embed.fields if f.name == t(lang, "points")) or ""
    out = NAMES[entry.sitting_out]
    assert out not in points
    assert t(lang, "sitting_out_line", name=out) in (embed.description or "")
    for game_seat, table_seat in enumerate(entry.seats):
        assert f"{NAMES[table_seat]} {entry.scores[table_seat]:+d}" in points
        assert entry.scores[table_seat] == (game.result.scores[game_seat] if game.result else None)


def test_a_solo_result_says_it_counts_three_times(lang: Lang) -> None:
    rng = random.Random(13)
    game = drive(Game(Deal.shuffled(13, dealer=0)), solo_chooser(rng, 1, Contract.SOLO_KREUZ))
    entry = entry_for(game, 1, None)
    embed, _ = final_message(
        table_info(None, spielliste=(entry,)), game_summary(game), entry, 5, lang
    )
    text = visible_text(embed)
    assert result_value_line(game, lang) in text
    head = t(lang, "soloist_line", contract=contract_name(Contract.SOLO_KREUZ, lang), name=NAMES[1])
    assert head in text
    # The soloist (Re) scores three times the value, each of the three others minus it.
    assert entry.scores == tuple(
        3 * entry.game_value if s == 1 else -entry.game_value for s in range(4)
    )


def result_value_line(game: Game, lang: Lang) -> str:
    assert game.result is not None
    return t(lang, "solo_sum", value=game.result.game_value)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_text_heads_with_the_preset_and_fits(preset: str, lang: Lang) -> None:
    rules: Ruleset = PRESETS[preset]
    text = rules_text(rules, 12, lang)
    first = text.splitlines()[0]
    assert first.startswith(t(lang, "rules_head", name="").strip())
    assert len(text) <= 2000
    assert rules_text(DDV, 24, lang) != rules_text(DDV, 24, "en" if lang == "de" else "de")
