"""The pictures: real PNGs of a sane size, the hand marking exactly the playable cards, and
alt texts that name exactly the cards a picture shows, never one still in a hand.
"""

from __future__ import annotations

import io
import random
import typing
from collections import Counter
from collections.abc import Sequence

import pytest
from PIL import Image

import bot.render.cards as cards_module
import bot.render.pictures as pictures_module
from bot.render.cards import FELT, RANK_NAMES, SUIT_NAMES, card_name, glyphs, tile
from bot.render.pictures import (
    ALT_LIMIT,
    HAND_CARD,
    PAD,
    RAISE,
    Picture,
    felt_palette,
    final_picture,
    hand_layout,
    hand_picture,
    playable_cards,
    spielliste_chart,
    table_picture,
)
from bot.render.texts import Lang
from bot.rules.cards import Card
from bot.rules.game import Deal, Game, Phase
from bot.rules.records import game_summary
from bot.rules.ruleset import DulleTie
from bot.rules.view import PublicView, player_view, public_view
from tests.render.helpers import NAMES, drive, gesund_and_random, session

LANGS: tuple[Lang, ...] = ("de", "en")
# Discord allows names of 32 characters: the alt texts must fit with the longest.
LONG_NAMES = tuple(f"{n} {'x' * 32}"[:32] for n in NAMES)


def decoded(picture: Picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.data))
    assert image.format == "PNG"
    image.load()
    assert 80 <= image.width <= 1000 and 80 <= image.height <= 400, image.size
    assert len(picture.data) < 40_000  # palette PNGs: a few kB, not a photo
    return image.convert("RGB")


def named_cards(alt: str, lang: Lang) -> Counter[Card]:
    """Every card an alt text names, with how often."""
    return Counter({c: alt.count(card_name(c, lang)) for c in Card if card_name(c, lang) in alt})


def positions(count: int, seed: int = 7) -> list[Game]:
    """Random games stopped anywhere in the play, from the first card to the last trick."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = Game(Deal.shuffled(rng.randrange(2**32), dealer=rng.randrange(4)))
        stop = rng.randrange(0, 48)

        def reached(g: Game, n: int = stop) -> bool:
            return _played(g) >= n

        drive(game, gesund_and_random(rng), until=reached)
        games.append(game)
    return games


def _played(game: Game) -> int:
    return sum(len(t.cards) for t in game.tricks) + len(game.current)


def test_card_names_in_both_languages() -> None:
    assert card_name(Card.H10, "de") == "Herz-Zehn"
    assert card_name(Card.H10, "en") == "Ten of Hearts"
    assert card_name(Card.CQ, "de") == "Kreuz-Dame"
    assert card_name(Card.DJ, "en") == "Jack of Diamonds"
    for lang in LANGS:
        assert len({card_name(c, lang) for c in Card}) == 24
        assert len(SUIT_NAMES[lang]) == 4 and len(RANK_NAMES[lang]) == 6


def test_accents_are_drawn_on_ascii_letters() -> None:
    """The bundled font has only ASCII: an Umlaut becomes its letter plus a drawn mark."""
    g = glyphs("Cäcilie Übermuth, Straße")
    assert g.text == "Cacilie Ubermuth, Strasse"
    assert [i for i, _ in g.marks] == [1, 8]


@pytest.mark.parametrize("lang", LANGS)
def test_hand_picture_marks_exactly_the_playable_cards(lang: Lang) -> None:
    checked = 0
    for game in positions(40, seed=11):
        seat = game.to_act()
        if seat is None or game.phase is not Phase.PLAY:
            continue
        view = player_view(game, seat)
        playable = playable_cards(view)
        slots, _ = hand_layout(view)
        assert [s.card for s in slots] == list(view.hand)
        assert {s.card for s in slots if s.y == PAD} == set(playable)
        picture = hand_picture(view, lang)
        assert picture is not None
        image = decoded(picture)
        for s in slots:
            # Just inside the top edge of a raised card (right of the card before it, which
            # may stand raised too): its face, where an unraised card
            # leaves the felt showing.
            top = image.getpixel((s.x + 14, PAD + 2))
            assert isinstance(top, tuple)
            assert (min(top) > 200) == (s.card in playable), (s, top)
            # The face at the left edge (visible under any overlap): dimmed unless playable.
            face = image.getpixel((s.x + 4, s.y + round(HAND_CARD * 1.43) // 2 + 8))
            assert isinstance(face, tuple)
            assert (min(face) > 200) == (s.card in playable), (s, face)
        if len(playable) < len(view.hand):
            checked += 1
    assert checked >= 5  # positions where some cards could not be played


def test_a_hand_waiting_for_others_dims_nothing() -> None:
    game = positions(1, seed=3)[0]
    seat = next(s for s in range(4) if s != game.to_act())
    slots, _ = hand_layout(player_view(game, seat))
    assert {s.y for s in slots} == {PAD + RAISE}
    assert {s.look.value for s in slots} == {"plain"}


@pytest.mark.parametrize("lang", LANGS)
def test_hand_alt_names_every_card_and_the_playable_ones(lang: Lang) -> None:
    game = Game(Deal.shuffled(42, dealer=0))
    drive(game, gesund_and_random(random.Random(1)), until=lambda g: g.phase is Phase.PLAY)
    seat = game.to_act()
    assert seat is not None
    view = player_view(game, seat)
    picture = hand_picture(view, lang)
    assert picture is not None and picture.filename == "hand.png"
    hand_part, _, playable_part = picture.alt.partition(". ")
    assert named_cards(hand_part, lang) == Counter(view.hand)
    assert len(view.hand) == 12 and str(12) in hand_part
    assert len(picture.alt) <= ALT_LIMIT
    assert named_cards(playable_part, lang) == Counter(
        c for c in view.hand if c in playable_cards(view)
    )


def test_no_public_picture_names_a_card_still_in_a_hand() -> None:
    """Over many positions: the table picture's alt text names exactly the cards of the
    current and the last trick, never one a player still holds beyond those.
    """
    for game in positions(150):
        pv = public_view(game)
        shown = Counter(pv.current_trick)
        if pv.tricks:
            shown.update(pv.tricks[-1].cards)
        for lang in LANGS:
            picture = table_picture(pv, LONG_NAMES[:4], lang)
            decoded(picture)
            assert len(picture.alt) <= ALT_LIMIT
            assert named_cards(picture.alt, lang) == shown, picture.alt
        # Cards in hands may appear only as copies of played ones.
        held = Counter(c for hand in game.hands for c in hand)
        for card in named_cards(picture.alt, "en"):
            assert card not in held or shown[card] >= 1


def test_the_table_picture_takes_nothing_that_holds_a_hand() -> None:
    """Its inputs are a PublicView, names, a language and a house rule: no Game, no
    PlayerView, so a hidden card cannot get in.
    """
    hints = typing.get_type_hints(table_picture)
    assert hints.pop("public") is PublicView
    assert hints.pop("return") is Picture
    allowed = {str(Sequence[str]), str(Lang), str(DulleTie)}
    assert {str(h) for h in hints.values()} <= allowed, hints


def test_the_table_picture_names_who_is_ahead_and_to_act() -> None:
    game = Game(Deal.shuffled(9, dealer=1))
    drive(game, gesund_and_random(random.Random(4)), until=lambda g: len(g.current) == 2)
    pv = public_view(game)
    picture = table_picture(pv, NAMES[:4], "de")
    assert pv.to_act is not None
    assert f"Am Zug: {NAMES[pv.to_act]}." in picture.alt
    assert "Vorn liegt " in picture.alt
    assert picture.filename == "tisch.png"


@pytest.mark.parametrize("lang", LANGS)
def test_final_picture_shows_the_last_trick_and_the_spielwert(lang: Lang) -> None:
    for game, _ in session(6, seed=3):
        summary = game_summary(game)
        picture = final_picture(summary, LONG_NAMES[:4], lang)
        assert picture is not None
        decoded(picture)
        assert len(picture.alt) <= ALT_LIMIT
        assert named_cards(picture.alt, lang) == Counter(game.tricks[-1].cards)
        value = summary["result"]["game_value"]
        assert f"{value:+d}" in picture.alt


@pytest.mark.parametrize("size", [4, 5])
def test_spielliste_chart(size: int) -> None:
    entries = [entry for _, entry in session(24, size=size, seed=5)]
    names = LONG_NAMES[:size]
    for lang in LANGS:
        picture = spielliste_chart(entries, names, lang)
        assert picture is not None
        image = decoded(picture)
        assert len(picture.alt) <= ALT_LIMIT
        for s in range(size):
            assert f"{names[s]} {entries[-1].totals[s]:+d}" in picture.alt
        # One colour per player in the legend and in the plot.
        colours = {c for _, c in (image.getcolors(4096) or [])}
        assert len(colours) >= size + 2
    assert spielliste_chart([], names, "de") is None


def test_pictures_are_cached_and_hashed_by_content() -> None:
    game = positions(1, seed=5)[0]
    pv = public_view(game)
    a = table_picture(pv, NAMES[:4], "de")
    b = table_picture(pv, NAMES[:4], "de")
    c = table_picture(pv, NAMES[:4], "en")
    assert a.digest == b.digest and a.data is b.data
    assert a.digest != c.digest


def test_tiles_mapped_to_the_felt_give_the_picture_mapped_whole() -> None:
    # The felt's tiles are kept on its palette and pasted as they are; that must be the
    # picture the RGB tiles would give, mapped to the palette as a whole.
    game = positions(1, seed=12)[0]
    views = [player_view(game, seat) for seat in range(4)]
    view = max(views, key=lambda v: len(playable_cards(v)))  # lit, dimmed and plain tiles
    slots, size = hand_layout(view)
    whole = Image.new("RGB", size, FELT)
    for s in slots:
        whole.paste(tile(s.card, "de", HAND_CARD, s.trump, s.look), (s.x, s.y))
    mapped = whole.quantize(palette=felt_palette(), dither=Image.Dither.NONE).convert("RGB")
    picture = hand_picture(view, "de")
    assert picture is not None
    assert decoded(picture).tobytes() == mapped.tobytes()


def test_text_caches_stay_bounded_over_many_tables() -> None:
    """Every table brings four names of its own: the caches of text drawn keep a bounded
    number, so a bot that runs for months does not grow by every name it ever drew.
    """
    game = Game(Deal.shuffled(9))
    drive(game, gesund_and_random(random.Random(3)), until=lambda g: len(g.tricks) >= 3)
    pv = public_view(game)
    caches = [
        f
        for module in (cards_module, pictures_module)
        for f in vars(module).values()
        if hasattr(f, "cache_info")
    ]

    def draw(tables: range) -> None:
        for i in tables:
            table_picture(pv, [f"Spielerin {i}/{seat}" for seat in range(4)], "de")

    draw(range(20))
    before = {f: f.cache_info().currsize for f in caches}
    draw(range(20, 600))
    for f in caches:
        info = f.cache_info()
        # An unbounded cache is keyed by a fixed set (cards, sizes, colours): names add none.
        limit = info.maxsize if info.maxsize is not None else before[f]
        assert info.currsize <= limit, f"{f.__name__} holds {info.currsize}"
