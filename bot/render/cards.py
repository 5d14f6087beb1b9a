"""Card faces drawn by the project itself: suit shapes, card tiles, card names for alt texts.

The suits are drawn as shapes (the bundled font has no ♣♠♥♦), four times larger than shown
and scaled down, so their edges are smooth. Tiles are drawn here in RGB; ``bot.render.pictures``
keeps them, once drawn, on its palette: a picture is a paste of tiles that were drawn once.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from enum import Enum
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from bot.render.terms import RANK_LETTER
from bot.render.texts import Lang
from bot.rules.cards import Card, Suit

RGB = tuple[int, int, int]

RED: RGB = (200, 30, 45)
BLACK: RGB = (25, 25, 30)
FACE: RGB = (250, 250, 246)
EDGE: RGB = (120, 120, 128)
TRUMP_BAND: RGB = (88, 101, 242)  # Discord's blurple, as the trump buttons below the picture
HIGHLIGHT: RGB = (255, 196, 0)  # playable cards, the trick's winner so far
FELT: RGB = (31, 92, 58)  # the table: dark enough for white text, distinct in both themes
FELT_LINE: RGB = (70, 135, 95)
TEXT: RGB = (240, 240, 235)
MUTED: RGB = (175, 200, 180)

SUPERSAMPLE = 4

SUIT_NAMES: dict[Lang, tuple[str, ...]] = {
    "de": ("Kreuz", "Pik", "Herz", "Karo"),
    "en": ("Clubs", "Spades", "Hearts", "Diamonds"),
}
RANK_NAMES: dict[Lang, tuple[str, ...]] = {
    "de": ("Ass", "Zehn", "König", "Dame", "Bube", "Neun"),
    "en": ("Ace", "Ten", "King", "Queen", "Jack", "Nine"),
}


def card_name(card: Card, lang: Lang) -> str:
    """The card's full name: ``Herz-Zehn``, ``Ten of Hearts``."""
    suit, rank = SUIT_NAMES[lang][card.suit], RANK_NAMES[lang][card.rank]
    return f"{suit}-{rank}" if lang == "de" else f"{rank} of {suit}"


def suit_colour(suit: Suit) -> RGB:
    return RED if suit in (Suit.HERZ, Suit.KARO) else BLACK


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at ``size`` pixels: no system font needed (Pillow ≥ 10.1 with
    FreeType, which its wheels include).
    """
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont), "Pillow without FreeType"
    return loaded


def _draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, s: int) -> None:
    """The suit as a shape filling an ``s`` × ``s`` square (white on black: a mask)."""
    fill = 255
    if suit is Suit.KARO:
        draw.polygon([(s / 2, 0), (s * 0.9, s / 2), (s / 2, s), (s * 0.1, s / 2)], fill=fill)
    elif suit is Suit.HERZ:
        r = s * 0.27
        draw.ellipse((s * 0.02, s * 0.08, s * 0.02 + 2 * r, s * 0.08 + 2 * r), fill=fill)
        draw.ellipse((s * 0.98 - 2 * r, s * 0.08, s * 0.98, s * 0.08 + 2 * r), fill=fill)
        draw.polygon([(s * 0.04, s * 0.42), (s * 0.96, s * 0.42), (s / 2, s * 0.97)], fill=fill)
    elif suit is Suit.PIK:
        r = s * 0.25
        draw.ellipse((s * 0.04, s * 0.36, s * 0.04 + 2 * r, s * 0.36 + 2 * r), fill=fill)
        draw.ellipse((s * 0.96 - 2 * r, s * 0.36, s * 0.96, s * 0.36 + 2 * r), fill=fill)
        draw.polygon([(s / 2, 0.02 * s), (s * 0.06, s * 0.58), (s * 0.94, s * 0.58)], fill=fill)
        draw.polygon([(s / 2, s * 0.6), (s * 0.3, s), (s * 0.7, s)], fill=fill)
    else:  # Kreuz: three leaves and a stem
        r = s * 0.21
        for cx, cy in ((0.5, 0.24), (0.25, 0.55), (0.75, 0.55)):
            draw.ellipse((s * cx - r, s * cy - r, s * cx + r, s * cy + r), fill=fill)
        draw.rectangle((s * 0.44, s * 0.3, s * 0.56, s * 0.7), fill=fill)
        draw.polygon([(s / 2, s * 0.55), (s * 0.3, s), (s * 0.7, s)], fill=fill)


@cache
def suit_mask(suit: Suit, size: int) -> Image.Image:
    """A smooth ``size``-pixel mask of the suit's shape."""
    big = Image.new("L", (size * SUPERSAMPLE, size * SUPERSAMPLE), 0)
    _draw_suit(ImageDraw.Draw(big), suit, size * SUPERSAMPLE)
    return big.resize((size, size), Image.Resampling.LANCZOS)


class Look(Enum):
    """How a tile stands: as it is, raised out of the hand (playable), or dimmed."""

    PLAIN = "plain"
    LIT = "lit"  # a highlighted edge: playable, or the trick's winner so far
    DIM = "dim"


def _rounded(size: tuple[int, int], radius: int) -> Image.Image:
    big = Image.new("L", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1), radius * SUPERSAMPLE, fill=255
    )
    return big.resize(size, Image.Resampling.LANCZOS)


@cache
def tile_mask(width: int, height: int) -> Image.Image:
    """The rounded outline every tile of this size is pasted through."""
    return _rounded((width, height), max(4, width // 9))


def tile(card: Card, lang: Lang, width: int, trump: bool, look: Look) -> Image.Image:
    """One card face, ``width`` pixels wide (height 1.43 × width), as an RGB image.

    The rank letter and a small suit sit in the top left corner (visible where cards
    overlap in a hand), a large suit in the middle; a trump carries a band at the bottom.
    """
    height = round(width * 1.43)
    colour = suit_colour(card.suit)
    edge = HIGHLIGHT if look is Look.LIT else EDGE
    face = Image.new("RGB", (width, height), FELT)
    face.paste(edge, (0, 0), tile_mask(width, height))
    inner = max(2, width // 22) if look is Look.LIT else 1
    body = (width - 2 * inner, height - 2 * inner)
    face.paste(FACE, (inner, inner), tile_mask(*body))
    draw = ImageDraw.Draw(face)
    rank = RANK_LETTER[lang][card.rank]
    size = round(width * 0.33)
    pad = round(width * 0.1)
    draw.text((pad, pad - size * 0.1), rank, font=font(size), fill=colour)
    small = round(width * 0.24)
    face.paste(colour, (pad, pad + size + 2), suit_mask(card.suit, small))
    big = round(width * 0.46)
    face.paste(
        colour, ((width - big) // 2 + pad // 2, height // 2 - big // 4), suit_mask(card.suit, big)
    )
    if trump:
        band = max(4, height // 11)
        draw.rectangle(
            (inner, height - inner - band, width - inner - 1, height - inner - 1), fill=TRUMP_BAND
        )
    if look is Look.DIM:
        face = Image.blend(face, Image.new("RGB", face.size, FELT), 0.55)
    return face


def empty_slot(width: int) -> Image.Image:
    """A place in the trick where nobody has played yet: a faint outline on the felt."""
    height = round(width * 1.43)
    slot = Image.new("RGB", (width, height), FELT)
    ImageDraw.Draw(slot).rounded_rectangle(
        (1, 1, width - 2, height - 2), max(4, width // 9), outline=FELT_LINE, width=2
    )
    return slot


# -- text -----------------------------------------------------------------------------------
# The bundled font knows ASCII only: names like "Übermuth" are drawn as the base letters with
# their accents drawn as shapes above them; a few symbols get an ASCII stand-in.

_STAND_INS = {"ß": "ss", "×": "x", "–": "-", "—": "-", "→": "-", "€": "EUR", "’": "'"}
_DIAERESIS, _ACUTE, _GRAVE, _CIRCUMFLEX = "\u0308", "\u0301", "\u0300", "\u0302"


class Glyphs(NamedTuple):
    """Text as the bundled font can draw it, and the accents to add by character index."""

    text: str
    marks: tuple[tuple[int, str], ...]


# Bounded: every name and line drawn passes here; kept for ever they grew without end.
@lru_cache(maxsize=4096)
def glyphs(text: str) -> Glyphs:
    out: list[str] = []
    marks: list[tuple[int, str]] = []
    for char in text:
        if char.isascii() or char in "…·":
            out.append(char)
            continue
        if char in _STAND_INS:
            out.append(_STAND_INS[char])
            continue
        decomposed = unicodedata.normalize("NFD", char)
        base, accents = decomposed[0], decomposed[1:]
        if not base.isascii():
            out.append("?")  # a letter the font cannot draw at all (an emoji, a CJK name)
            continue
        for accent in accents:
            if accent in (_DIAERESIS, _ACUTE, _GRAVE, _CIRCUMFLEX):
                marks.append((len("".join(out)), accent))
        out.append(base)
    return Glyphs("".join(out), tuple(marks))


def text_length(text: str, size: int) -> float:
    return font(size).getlength(glyphs(text).text)


def label(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """``text`` drawn as ``draw.text`` would (same anchors), accents included."""
    g = glyphs(text)
    f = font(size)
    draw.text(xy, g.text, font=f, fill=fill, anchor=anchor)
    if not g.marks:
        return
    ascent, descent = f.getmetrics()
    length = f.getlength(g.text)
    x = xy[0] - {"l": 0.0, "m": length / 2, "r": length}[anchor[0]]
    baseline = (
        xy[1]
        + {
            "a": ascent,
            "t": ascent,
            "m": (ascent - descent) / 2,
            "s": 0,
            "b": -descent,
            "d": -descent,
        }[anchor[1]]
    )
    dot = max(0.8, size / 15)  # the radius of a dot of an Umlaut
    for index, accent in g.marks:
        left = x + f.getlength(g.text[:index])
        x0, top, x1, _ = f.getbbox(g.text[index], anchor="ls")
        mid = left + (x0 + x1) / 2
        y = baseline + top - dot * 2.2
        if accent == _DIAERESIS:
            gap = max(dot * 1.6, (x1 - x0) * 0.22)
            for cx in (mid - gap, mid + gap):
                draw.ellipse((cx - dot, y - dot, cx + dot, y + dot), fill=fill)
        else:
            rise = dot * 2.5
            if accent == _ACUTE:
                draw.line(
                    (mid - dot, y + dot, mid + dot * 1.5, y - rise), fill=fill, width=round(dot)
                )
            elif accent == _GRAVE:
                draw.line(
                    (mid + dot, y + dot, mid - dot * 1.5, y - rise), fill=fill, width=round(dot)
                )
            else:
                draw.line(
                    (mid - dot * 2, y + dot, mid, y - rise, mid + dot * 2, y + dot),
                    fill=fill,
                    width=round(dot),
                )


TEXT_MARGIN = 3  # pixels around a text tile: accents above, letters that overhang


def text_tile(text: str, size: int, fill: RGB, background: RGB) -> Image.Image:
    """``text`` drawn once on ``background``: names and labels come back in every picture,
    and a paste costs a fraction of drawing them.
    """
    f = font(size)
    ascent, descent = f.getmetrics()
    width = math.ceil(text_length(text, size)) + 2 * TEXT_MARGIN
    image = Image.new("RGB", (width, ascent + descent + 2 * TEXT_MARGIN), background)
    label(ImageDraw.Draw(image), (TEXT_MARGIN, TEXT_MARGIN), text, size, fill)
    return image


TextTiles = Callable[[str, int, RGB, RGB], Image.Image]


def paste_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    anchor: str = "la",
    background: RGB = FELT,
    tiles: TextTiles = text_tile,
) -> None:
    """``text`` at ``xy`` as ``draw.text`` would place it (anchors ``l``/``m``/``r`` and
    ``a``/``m``/``b``), pasted from its tile (``tiles``: where the caller keeps them).
    """
    tile_ = tiles(text, size, fill, background)
    inner_w = tile_.width - 2 * TEXT_MARGIN
    inner_h = tile_.height - 2 * TEXT_MARGIN
    x = xy[0] - {"l": 0.0, "m": inner_w / 2, "r": inner_w}[anchor[0]]
    y = xy[1] - {"a": 0.0, "m": inner_h / 2, "b": inner_h}[anchor[1]]
    image.paste(tile_, (round(x) - TEXT_MARGIN, round(y) - TEXT_MARGIN))
