"""The texts of bot/render/texts/ and the names of bot/render/terms.py, in both languages."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from dataclasses import replace

import discord
import pytest

from bot.discord import abrechnen
from bot.engine.model import SeatInfo, TableInfo
from bot.render import terms, turnier
from bot.render.controls import Controls, Select
from bot.render.hand import game_over_message, hand_message, sitting_out_message
from bot.render.stats import score_embed
from bot.render.table import closed_message, final_message, game_message, lobby_message, rules_text
from bot.render.terms import (
    CALL_NAMES,
    CALL_OPTIONS,
    CARD_LABEL_RE,
    CONTRACT_NAMES,
    OPTION_OF_CALL,
    call_name,
    card_label,
    contract_name,
    item_name,
    parse_card_label,
    party_name,
)
from bot.render.texts import DE, EN, Lang, lang_of, t
from bot.rules.calls import Call, Party
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Deal, Game, Phase
from bot.rules.presets import PRESETS
from bot.rules.records import game_summary
from bot.rules.ruleset import DDV, NoWinnerScore
from bot.rules.scoring import ScoreFacts, Sonderpunkt, score
from bot.rules.view import player_view
from tests.render import helpers

LANGS: tuple[Lang, ...] = ("de", "en")
TEXTS_OF = {"de": DE, "en": EN}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def sample_values(template: str) -> dict[str, object]:
    # 3 fits every format spec the texts use ({value:+d}, {mu:.1f}) and any plain field.
    return dict.fromkeys(placeholders(template), 3)


# -- texts/: the same keys and placeholders in both languages -----------------------------


@pytest.mark.parametrize("key", sorted(set(DE) | set(EN)))
def test_every_text_is_in_both_languages_with_the_same_placeholders(key: str) -> None:
    assert key in DE and key in EN
    assert placeholders(DE[key]) == placeholders(EN[key])
    assert DE[key].strip() and EN[key].strip()


@pytest.mark.parametrize("key", sorted(DE))
def test_every_text_formats_with_its_placeholders(key: str, lang: Lang) -> None:
    values = sample_values(TEXTS_OF[lang][key])
    text = t(lang, key, **values)
    if values:
        assert "{" not in text and "}" not in text, text


# English texts that are German on purpose: nothing but Doppelkopf terms, which stay German.
SAME_IN_BOTH = {
    "btn_vorbehalt",  # Vorbehalt
    "reserved",  # Vorbehalt
    "healthy",  # gesund
    "spielliste",  # Spielliste
    "bock_line",  # Bock ×{n}
    "note_bock",  # ×{n} (Bock)
    "trick_to",  # → {name} ({augen} Augen)
    "hochzeit_partner",  # Partner: {name}
    "score_seats",  # Re: {seats}
}


def test_english_texts_are_translated() -> None:
    same = {k for k in DE if DE[k] == EN[k]}
    assert same == SAME_IN_BOTH


# Function words that give away a text left in the other language. Doppelkopf terms
# ("gegen die Alten") and format names (doko-game/1) are cut out first.
GERMAN_WORDS = {"und", "der", "die", "das", "nicht", "ist", "du", "dein", "deine", "ein"}
GERMAN_WORDS |= {"eine", "mit", "von", "zu", "auf", "spiel", "tisch", "karten", "noch", "oder"}
ENGLISH_WORDS = {"the", "and", "you", "your", "is", "not", "of", "to", "with", "table"}
ENGLISH_WORDS |= {"game", "games", "cards", "or", "please", "only", "has", "no", "a"}
KEPT_TERMS = re.compile(r"\{[^}]*\}|doko-\w+/\d|gegen die Alten")


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", KEPT_TERMS.sub(" ", text))}


def all_names(lang: Lang) -> dict[str, str]:
    """Every text and name a player reads, by a key naming where it comes from."""
    out = {f"texts.{k}": v for k, v in TEXTS_OF[lang].items()}
    out |= {f"turnier.{k}": v for k, v in turnier.TEXTS[lang].items()}
    out |= {f"contract.{c}": v for c, v in CONTRACT_NAMES[lang].items()}
    out |= {f"call.{c}": v for c, v in CALL_NAMES[lang].items()}
    out |= {f"item.{k}": v for k, v in terms.ITEM_NAMES[lang].items()}
    return out


def test_german_reads_as_german_and_english_as_english() -> None:
    english_in_german = {k: words(v) & ENGLISH_WORDS for k, v in all_names("de").items()}
    german_in_english = {k: words(v) & GERMAN_WORDS for k, v in all_names("en").items()}
    assert {k: w for k, w in english_in_german.items() if w} == {}
    assert {k: w for k, w in german_in_english.items() if w} == {}


@pytest.mark.parametrize(
    ("lang", "key", "values", "expected"),
    [
        ("de", "btn_join", {}, "Beitreten"),
        ("en", "btn_join", {}, "Join"),
        ("de", "btn_hand", {}, "Meine Karten"),
        ("en", "btn_hand", {}, "My cards"),
        ("de", "btn_gesund", {}, "Gesund"),
        ("de", "btn_add_ai", {"level": "schwer"}, "Bot hinzufügen (schwer)"),
        ("de", "seat_line", {"n": 3, "name": "Anna"}, "Platz 3: Anna"),
        ("en", "seat_line", {"n": 3, "name": "Anna"}, "Seat 3: Anna"),
        ("de", "winner", {"party": "Kontra"}, "Kontra gewinnt."),
        ("en", "winner", {"party": "Kontra"}, "Kontra wins."),
        ("de", "err_not_your_turn", {}, "Du bist nicht am Zug."),
        ("en", "err_not_your_turn", {}, "It is not your turn."),
        ("de", "spielwert_sum", {"value": 4}, "= Spielwert +4"),
        ("en", "spielwert_sum", {"value": -2}, "= game value -2"),
        ("de", "trick_to", {"name": "Anna", "augen": 31}, "→ Anna (31 Augen)"),
        ("de", "suit_0", {}, "Kreuz"),
        ("en", "suit_3", {}, "Karo (diamonds)"),
    ],
)
def test_exact_texts(lang: Lang, key: str, values: dict[str, object], expected: str) -> None:
    assert t(lang, key, **values) == expected


def test_t_without_values_returns_the_template_as_it_is() -> None:
    # t formats only when it is given values; a text without placeholders comes back as is.
    assert t("de", "seats") == "Plätze"
    assert t("en", "seats") == "Seats"


def test_t_refuses_an_unknown_key_and_a_missing_value() -> None:
    with pytest.raises(KeyError):
        t("de", "no_such_text")
    with pytest.raises(KeyError):
        t("en", "seat_line", n=1)  # {name} not given


def test_a_key_missing_in_english_falls_back_to_german(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(EN, "seat_line")
    assert t("en", "seat_line", n=2, name="Anna") == "Platz 2: Anna"


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("EN-us", "en"),
        (discord.Locale.german, "de"),
        ("de", "de"),
        (discord.Locale.french, "de"),
        (discord.Locale.dutch, "de"),
        ("", "de"),
        (None, "de"),
    ],
)
def test_lang_of_maps_discord_locales(locale: object, expected: Lang) -> None:
    assert lang_of(locale) == expected


def test_the_package_exports_the_text_functions() -> None:
    import bot.render

    assert bot.render.t is t and bot.render.lang_of is lang_of


# -- terms.py: cards, contracts, calls, Spielwert items ---------------------------------------


@pytest.mark.parametrize(
    ("card", "de", "en"),
    [
        (Card.H10, "♥10", "♥10"),
        (Card.CQ, "♣D", "♣Q"),
        (Card.DJ, "♦B", "♦J"),
        (Card.SA, "♠A", "♠A"),
        (Card.HK, "♥K", "♥K"),
        (Card.C9, "♣9", "♣9"),
    ],
)
def test_card_labels(card: Card, de: str, en: str) -> None:
    assert card_label(card, "de") == de
    assert card_label(card, "en") == en


@pytest.mark.parametrize("card", list(Card))
def test_card_labels_round_trip(card: Card, lang: Lang) -> None:
    label = card_label(card, lang)
    match = CARD_LABEL_RE.fullmatch(label)
    assert match is not None, label
    assert parse_card_label(match[1], match[2]) is card


def test_card_labels_are_distinct(lang: Lang) -> None:
    labels = [card_label(c, lang) for c in Card]
    assert len(set(labels)) == len(Card)


@pytest.mark.parametrize("contract", list(Contract))
def test_every_contract_has_a_name_in_both_languages(contract: Contract) -> None:
    for lang in LANGS:
        assert contract_name(contract, lang).strip()
        assert contract_name(str(contract), lang) == contract_name(contract, lang)
    for lang in LANGS:  # names tell the contracts apart
        names = [contract_name(c, lang) for c in Contract]
        assert len(set(names)) == len(names)


@pytest.mark.parametrize("call", list(Call))
def test_every_call_has_a_name_and_a_command_option(call: Call) -> None:
    for lang in LANGS:
        assert call_name(call, lang).strip()
    assert CALL_OPTIONS[OPTION_OF_CALL[call]] is call


def test_call_names_and_options() -> None:
    assert [call_name(c, "de") for c in Call] == [
        "Re",
        "Kontra",
        "Keine 90",
        "Keine 60",
        "Keine 30",
        "Schwarz",
    ]
    # The /doko ansage values players type (design: re, kontra, keine90 … schwarz).
    assert sorted(CALL_OPTIONS) == ["keine30", "keine60", "keine90", "kontra", "re", "schwarz"]


def test_party_names() -> None:
    assert party_name(Party.RE) == "Re"
    assert party_name("kontra") == "Kontra"


def scored_items() -> set[str]:
    """Every Spielwert item id the scorer emits, over all calls and many Augen splits."""
    items: set[str] = set()
    specials = tuple(
        (k, p) for k in Sonderpunkt if k is not Sonderpunkt.GEGEN_DIE_ALTEN for p in Party
    )
    for re_level in range(-1, 5):
        for kontra_level in range(-1, 5):
            for re_augen in (0, 25, 29, 30, 45, 59, 60, 75, 89, 90, 105, 119, 120, 121):
                for mirrored in (False, True):
                    augen = 240 - re_augen if mirrored else re_augen
                    tricks = 0 if augen == 0 else 12 if augen == 240 else 6
                    for rules in (DDV, DDV.replace(no_winner_score=NoWinnerScore.ZERO)):
                        result = score(
                            ScoreFacts(
                                Contract.NORMAL,
                                (0, 1),
                                re_level,
                                kontra_level,
                                augen,
                                tricks,
                                specials,
                                rules,
                            )
                        )
                        for item in (
                            *result.game_points,
                            *result.special_points,
                            *result.ignored_specials,
                        ):
                            items.add(item.item)
    return items


SCORED_ITEMS = sorted(scored_items())


def test_the_scorer_emits_the_items_the_renderer_must_name() -> None:
    # A guard for the test below: it really sees Absagen, lines reached and Sonderpunkte.
    assert {"won", "under_90", "schwarz", "re_no90", "kontra_schwarz", "fuchs"} <= set(SCORED_ITEMS)
    assert "reached_120_against_no90" in SCORED_ITEMS


@pytest.mark.parametrize("item", SCORED_ITEMS)
def test_every_spielwert_item_has_a_name(item: str, lang: Lang) -> None:
    name = item_name(item, lang)
    assert name.strip() and "_" not in name and "{" not in name


@pytest.mark.parametrize(
    ("item", "lang", "expected"),
    [
        ("won", "de", "gewonnen"),
        ("under_90", "de", "unter 90 gespielt"),
        ("re_no90", "de", "Re-Absage Keine 90"),
        ("kontra_schwarz", "en", "Kontra Absage Schwarz"),
        ("reached_120_against_no90", "de", "120 Augen gegen Keine 90 erreicht"),
        ("reached_30_against_schwarz", "en", "30 Augen reached against Schwarz"),
        ("fuchs", "de", "Fuchs gefangen"),
        ("gegen_die_alten", "de", "gegen die Alten"),
    ],
)
def test_exact_item_names(item: str, lang: Lang, expected: str) -> None:
    assert item_name(item, lang) == expected


# -- every message, rendered: one language each, no raw id -----------------------------------

# Plain names: a player called "von Kreuzberg" would read as German in an English message.
PLAIN_NAMES = ("Anna", "Ben", "Clara", "Dirk", "Erika")
# A rules id, a preset key or a score note as the code spells it: no player should read one.
RAW_ID = re.compile(r"\b(?:[a-z0-9]+(?:_[a-z0-9]+)+|ddv|eigene)\b")


def plain_info(info: TableInfo, size: int) -> TableInfo:
    seats = tuple(
        SeatInfo(s, None, f"Bot {s + 1}", "leicht")
        if s == size - 1
        else SeatInfo(s, 100 + s, n, None)
        for s, n in enumerate(PLAIN_NAMES[:size])
    )
    return replace(info, seats=seats)


def control_labels(controls: Controls) -> list[str]:
    labels: list[str] = []
    for control in controls:
        if isinstance(control, Select):
            labels += [control.placeholder, *(o.label for o in control.options)]
        else:
            labels.append(control.label)
    return labels


def embed_text(embed: discord.Embed) -> str:
    return helpers.visible_text(embed)


def rendered_messages(lang: Lang) -> Iterator[tuple[str, str]]:
    """Every kind of message the bot sends, rendered in ``lang``: (what, the text read)."""
    from tests.render import test_turnier as turnier_cases

    for preset in sorted(PRESETS):
        for size in (4, 5):
            info = plain_info(helpers.table_info(None, size=size, rules=PRESETS[preset]), size)
            embed, controls = lobby_message(info, lang)
            yield (
                f"lobby {preset} {size}",
                "\n".join([embed_text(embed), *control_labels(controls)]),
            )
            yield f"rules {preset}", rules_text(info.rules, 24, lang)
    games = helpers.session(30, seed=11)
    spielliste = tuple(e for _, e in games)
    info = plain_info(helpers.table_info(None, spielliste=spielliste), 4)
    for index, (game, entry) in enumerate(games):
        summary = game_summary(game)
        if index == 0:  # a Bock game, as a round with Bock rules books it
            summary["bock"] = 2
            summary["result"]["notes"] = [*summary["result"].get("notes", []), "bock_x2"]
        embed, controls = final_message(info, summary, entry, 100 + index, lang, index == 29)
        yield f"final {index}", "\n".join([embed_text(embed), *control_labels(controls)])
    yield "closed", embed_text(closed_message(info, lang))
    for seed in range(4):
        for plays in (0, 5, 30):
            game = _game_at(seed, plays)
            info = plain_info(helpers.table_info(game, spielliste=spielliste[:3]), 4)
            embed, controls = game_message(info, lang, dm_closed=("Anna",), redeal=None)
            yield f"game {seed} {plays}", "\n".join([embed_text(embed), *control_labels(controls)])
            for seat in range(4):
                content, hand = hand_message(info, player_view(game, seat), lang)
                yield f"hand {seed} {plays} {seat}", "\n".join([content, *control_labels(hand)])
            yield "game over", game_over_message(info, 100, lang)
    five = plain_info(helpers.table_info(_game_at(1, 3), size=5, game_seats=(1, 2, 3, 4)), 5)
    content, controls = sitting_out_message(five, lang)
    yield "sitting out", "\n".join([content, *control_labels(controls)])
    for options in (
        ("normal", "1,3", 151, 8, "re", None, "fuchs:re"),
        ("solo_damen", "2", 100, 4, None, "kontra", None),
        ("hochzeit", "1,2", 0, 0, None, None, None),
    ):
        scored = abrechnen.score_real_game(*options)
        yield (
            f"score {options[0]}",
            embed_text(score_embed(scored.contract, scored.re_seats, scored.result, lang)),
        )
    view = turnier_cases.overview(players=12, games=6, audit=2)
    plain = {p: PLAIN_NAMES[i % 5] + str(i) for i, p in enumerate(view.names)}
    entrants = tuple(replace(e, display_name=plain[e.user_id]) for e in view.entrants)
    tournament = replace(view.tournament, name="Herbst")
    view = replace(view, names=plain, entrants=entrants, tournament=tournament)
    yield "overview", embed_text(turnier.overview_embed(view, lang))
    yield "round", embed_text(turnier.round_embed("Herbst", 1, view.tables[:3], plain, lang))
    yield "results", embed_text(turnier.results_embed(view, lang, 1))
    table = view.tables[0]
    games_of = view.table_games(1, table.number)
    yield "sheet", embed_text(turnier.sheet_embed(table, games_of, plain, ["x"], lang))


def _game_at(seed: int, plays: int) -> Game:
    rng = random.Random(seed)
    game = Game(Deal.shuffled(seed, dealer=seed % 4))
    return helpers.drive(
        game,
        helpers.gesund_and_random(rng),
        until=lambda g: g.phase is Phase.PLAY and len(helpers.played_cards(g)) >= plays,
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_reads_in_one_language_and_shows_no_raw_id(lang: Lang) -> None:
    other = ENGLISH_WORDS if lang == "de" else GERMAN_WORDS
    wrong: dict[str, object] = {}
    for what, text in rendered_messages(lang):
        assert text.strip(), what
        if "{" in text or "}" in text:
            wrong[what] = "unformatted placeholder"
        found = words(CARD_LABEL_RE.sub(" ", text)) & other  # ♠A is a card, not "a"
        raw = RAW_ID.findall(text)
        if found or raw:
            wrong[what] = (sorted(found), raw)
    assert wrong == {}


def test_the_raw_id_check_sees_what_it_must() -> None:
    # A guard for the test above: the ids the issue names would be caught.
    for raw in ("ddv", "bock_x2", "re_announced_doubles", "ohne_neunen", "solo_damen"):
        assert RAW_ID.search(f"Regeln: {raw}."), raw
    assert not RAW_ID.search("DDV-Turnier · Bock ×2 · Damensolo")
