"""Pictures for Discord: the private hand, the trick on the table, the end of a game, the
Spielliste as a chart and a player's running points. Each is a PNG with an alt text in the
reader's language.

All functions are pure. ``table_picture`` takes a ``PublicView`` and the seat names only, so
it cannot show a card still in a hand; ``hand_picture`` is for the hand's owner alone. The
layouts are computed first (``hand_layout``, ``trick_layout``) and then pasted from cached
tiles (``bot.render.cards``), and finished PNGs are cached by what they show: the table
message re-rendered for a timer or a name change costs no drawing.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from bot.engine.model import ListEntry
from bot.render.cards import (
    EDGE,
    FACE,
    FELT,
    FELT_LINE,
    HIGHLIGHT,
    MUTED,
    RGB,
    TEXT,
    Look,
    card_name,
    empty_slot,
    paste_text,
    text_length,
    text_tile,
    tile,
)
from bot.render.table import result_lines
from bot.render.texts import Lang, t
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Play, Trick
from bot.rules.ruleset import DulleTie
from bot.rules.tricks import trick_winner_index
from bot.rules.view import PlayerView, PublicView

ALT_LIMIT = 1024  # Discord's limit for an attachment's description
PNG_COLOURS = 64  # a palette PNG: a third of the bytes of RGB, no visible loss on card faces
HAND_CARD = 64  # tile widths in pixels
TRICK_CARD = 72
SMALL_CARD = 48
PAD = 12
RAISE = 14  # how far a playable card stands out of the hand
# PNGs kept for a render of the same state again (a click's answer and the hand job draw one
# hand, moments apart). A hand's or a trick's state recurs only then: bench discord, 300
# tables, hands hit 14 % with 4,096 kept, trick pictures never; kept by the thousand they
# were most of the bot's memory per table.
PNG_CACHE = 512
TABLE_PNG_CACHE = 64
# Text tiles: labels and Spielwert lines recur everywhere, players' names only at their own
# table. Every tile kept costs memory (bench discord, 600 tables: 2,048 on the felt and 2,048
# for the charts, drawn in RGB at twice the size, were ~80 KB a table, most of the pictures'
# share), so few are kept; the charts (a session's end, /doko stand) keep fewer.
TEXT_CACHE = 512
CHART_TEXT_CACHE = 128


@dataclass(frozen=True, slots=True)
class Picture:
    """A finished picture: a file name for ``attachment://``, the PNG bytes, the alt text."""

    filename: str
    data: bytes
    alt: str
    # What the picture shows, as a short hash: for the presenter's payload keys (hashed
    # once: the keys ask for it several times per message).
    digest: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hashlib.blake2b(self.data, digest_size=8).hexdigest())


def png(image: Image.Image) -> bytes:
    """The image as a small palette PNG: a picture on the felt is on its palette already
    (:func:`felt_canvas`); any other (a chart) gets colours chosen for it.
    """
    if image.mode == "P":
        # zlib level 3 for the pictures on the felt (drawn on every move): an eighth more
        # bytes than "optimize" at a twentieth of its time; a chart takes 6.
        level = 3
    else:
        image = image.quantize(
            PNG_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        level = 6
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=level)
    return out.getvalue()


# -- the felt: the hand, the table and the end of a game share one palette ------------------


@cache
def felt_palette() -> Image.Image:
    """One palette for the pictures on the felt, built once from every tile look and every
    text colour, carried by a 1×1 image. Tiles are mapped to it once and pasted as they are:
    a picture costs no colour mapping, and a kept tile a byte per pixel instead of four.
    """
    samples: list[Image.Image] = [
        tile(card, "de", width, trump, look)
        for card in Card
        for width in (HAND_CARD, TRICK_CARD, SMALL_CARD)
        for trump in (False, True)
        for look in Look
    ]
    letters = "ÄÖÜäöü AaBbDdGgKkMmQqSsWwXxy 0123456789 …"
    samples += [
        text_tile(letters, size, colour, FELT)
        for size in (11, 12, 13, 14, 15)
        for colour in (TEXT, MUTED, HIGHLIGHT)
    ]
    samples += [text_tile("1. 2. 3. 4.", 11, EDGE, FACE)]
    samples += [empty_slot(width) for width in (TRICK_CARD, SMALL_CARD)]
    height = sum(s.height for s in samples)
    sheet = Image.new("RGB", (max(s.width for s in samples), height), FELT)
    y = 0
    for sample in samples:
        sheet.paste(sample, (0, y))
        y += sample.height
    mapped = sheet.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    carrier = Image.new("P", (1, 1))
    carrier.putpalette(mapped.getpalette() or [])
    return carrier


def on_felt(image: Image.Image) -> Image.Image:
    """An RGB image mapped to the felt's palette (each pixel to its nearest colour, as the
    whole picture would be mapped: pasting mapped tiles gives the same picture).
    """
    return image.quantize(palette=felt_palette(), dither=Image.Dither.NONE)


@cache
def felt_ink(colour: RGB) -> int:
    """The palette index a drawn line of ``colour`` takes on the felt."""
    index = on_felt(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


def felt_canvas(size: tuple[int, int]) -> Image.Image:
    image = Image.new("P", size, felt_ink(FELT))
    image.putpalette(felt_palette().getpalette() or [])
    return image


@cache
def felt_tile(card: Card, lang: Lang, width: int, trump: bool, look: Look) -> Image.Image:
    return on_felt(tile(card, lang, width, trump, look))


@cache
def felt_slot(width: int) -> Image.Image:
    return on_felt(empty_slot(width))


@lru_cache(maxsize=TEXT_CACHE)
def felt_text(text: str, size: int, fill: RGB, background: RGB) -> Image.Image:
    return on_felt(text_tile(text, size, fill, background))


#: Text tiles of the charts (drawn in RGB at twice the size: they are not on the felt).
chart_text = lru_cache(maxsize=CHART_TEXT_CACHE)(text_tile)


def alt_text(parts: Sequence[str]) -> str:
    """Sentences joined up to Discord's limit; those that do not fit are left out whole, so
    no card name is ever cut in half.
    """
    out = ""
    for part in parts:
        joined = f"{out} {part}" if out else part
        if len(joined) <= ALT_LIMIT:
            out = joined
    return out


@lru_cache(maxsize=PNG_CACHE)
def fit(text: str, width: int, size: int) -> str:
    """``text`` shortened with … until it is at most ``width`` pixels wide."""
    if text_length(text, size) <= width:
        return text
    while text and text_length(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB = TEXT,
    anchor: str = "la",
    background: RGB = FELT,
) -> None:
    paste_text(image, xy, text, size, fill, anchor, background, felt_text)


# -- the hand -------------------------------------------------------------------------------


class Slot(NamedTuple):
    """Where one card of a picture goes, and how it looks."""

    card: Card
    x: int
    y: int
    look: Look
    trump: bool


def playable_cards(view: PlayerView) -> frozenset[Card]:
    return frozenset(a.card for a in view.legal if isinstance(a, Play))


def hand_layout(view: PlayerView) -> tuple[tuple[Slot, ...], tuple[int, int]]:
    """The hand's cards left to right as ``view.hand`` sorts them, and the picture's size.

    When the seat may play, the playable cards stand raised with a lit edge and the others
    are dimmed; when it may not (someone else's turn, no play phase), all look alike.
    """
    cards = view.hand
    playable = playable_cards(view)
    step = 52 if len(cards) <= 12 else max(24, (12 * 52) // len(cards))
    slots = []
    for i, card in enumerate(cards):
        if not playable:
            look, y = Look.PLAIN, PAD + RAISE
        elif card in playable:
            look, y = Look.LIT, PAD
        else:
            look, y = Look.DIM, PAD + RAISE
        slots.append(Slot(card, PAD + i * step, y, look, view.order.is_trump(card)))
    width = 2 * PAD + max(0, len(cards) - 1) * step + HAND_CARD
    height = 2 * PAD + RAISE + round(HAND_CARD * 1.43)
    return tuple(slots), (width, height)


@lru_cache(maxsize=PNG_CACHE)
def _paste(slots: tuple[Slot, ...], size: tuple[int, int], width: int, lang: Lang) -> bytes:
    image = felt_canvas(size)
    for s in slots:
        image.paste(felt_tile(s.card, lang, width, s.trump, s.look), (s.x, s.y))
    return png(image)


def hand_picture(view: PlayerView, lang: Lang) -> Picture | None:
    """The private hand; None when it holds no card."""
    if not view.hand:
        return None
    slots, size = hand_layout(view)
    parts = [t(lang, "pic_hand_alt", n=len(view.hand), cards=_names(view.hand, lang))]
    playable = [c for c in view.hand if c in playable_cards(view)]
    if playable:
        parts.append(t(lang, "pic_playable", cards=_names(playable, lang)))
    return Picture("hand.png", _paste(slots, size, HAND_CARD, lang), alt_text(parts))


def _names(cards: Sequence[Card], lang: Lang) -> str:
    return ", ".join(card_name(c, lang) for c in cards)


# -- the table ------------------------------------------------------------------------------


class TrickLayout(NamedTuple):
    """A trick in seat order: each seat's card (None: not played yet), the play order."""

    leader: int
    cards: tuple[Card | None, ...]  # by seat
    order: tuple[int | None, ...]  # by seat: 1 for the lead, None when not played
    ahead: int | None  # the seat whose card wins so far (the winner, once taken)


def trick_layout(
    leader: int,
    cards: Sequence[Card],
    winner: int | None,
    order_: Any,
    dulle_tie: DulleTie,
    last_trick: bool,
) -> TrickLayout:
    by_seat: list[Card | None] = [None] * 4
    played: list[int | None] = [None] * 4
    for i, card in enumerate(cards):
        by_seat[(leader + i) % 4] = card
        played[(leader + i) % 4] = i + 1
    ahead = winner
    if ahead is None and cards:
        ahead = (leader + trick_winner_index(order_, cards, last_trick, dulle_tie)) % 4
    return TrickLayout(leader, tuple(by_seat), tuple(played), ahead)


def public_trick(public: PublicView, dulle_tie: DulleTie) -> TrickLayout:
    """The current trick as everyone sees it, the card ahead by the publicly known order."""
    order = (public.contract or Contract.NORMAL).card_order(public.schweinchen is not None)
    # The twelfth trick: every seat held one card when it began.
    last = sum(public.cards_in_hand) + len(public.current_trick) <= 4
    return trick_layout(public.current_leader, public.current_trick, None, order, dulle_tie, last)


def finished_trick(trick: Trick) -> TrickLayout:
    return trick_layout(trick.leader, trick.cards, trick.winner, None, DulleTie.FIRST_WINS, False)


def _plays_alt(layout: TrickLayout, names: Sequence[str], lang: Lang) -> str:
    """The cards in playing order, each with its player."""
    plays = []
    for i in range(4):
        seat = (layout.leader + i) % 4
        card = layout.cards[seat]
        if card is not None:
            plays.append(f"{names[seat]}: {card_name(card, lang)}")
    return ", ".join(plays)


def _draw_trick(
    image: Image.Image,
    layout: TrickLayout,
    names: Sequence[str],
    x0: int,
    y0: int,
    width: int,
    lang: Lang,
    to_act: int | None = None,
    open_trick: bool = False,
) -> None:
    """Four places in seat order, the name under each; the card ahead lit."""
    step = width + (14 if width >= TRICK_CARD else 8)
    size = 14 if width >= TRICK_CARD else 11
    height = round(width * 1.43)
    for seat in range(4):
        x = x0 + seat * step
        card = layout.cards[seat]
        if card is None:
            image.paste(felt_slot(width), (x, y0))
        else:
            look = Look.LIT if seat == layout.ahead else Look.PLAIN
            image.paste(felt_tile(card, lang, width, False, look), (x, y0))
            number = layout.order[seat]
            if number is not None and width >= TRICK_CARD:
                _text(image, (x + width - 6, y0 + height - 4), f"{number}.", 11, EDGE, "rb", FACE)
        name_y = y0 + height + 4
        turn = seat == to_act
        _text(
            image,
            (x + width / 2, name_y),
            fit(names[seat], step - 4, size),
            size,
            HIGHLIGHT if turn else TEXT,
            "ma",
        )
        note = None
        if turn:
            note = t(lang, "pic_turn")
        elif seat == layout.ahead and card is not None and open_trick:
            note = t(lang, "pic_ahead")
        if note:
            _text(image, (x + width / 2, name_y + size + 3), note, size - 2, HIGHLIGHT, "ma")


@lru_cache(maxsize=TABLE_PNG_CACHE)
def _table_png(
    current: TrickLayout,
    last: TrickLayout | None,
    last_head: str,
    names: tuple[str, ...],
    to_act: int | None,
    lang: Lang,
) -> bytes:
    big_step, small_step = TRICK_CARD + 14, SMALL_CARD + 8
    left_w = 4 * big_step
    width = PAD + left_w + (2 * PAD + 4 * small_step if last is not None else 0) + PAD
    height = 32 + round(TRICK_CARD * 1.43) + 44
    image = felt_canvas((width, height))
    draw = ImageDraw.Draw(image)
    _text(image, (PAD, 8), t(lang, "pic_trick"), 15)
    _draw_trick(image, current, names, PAD, 32, TRICK_CARD, lang, to_act, open_trick=True)
    if last is not None:
        x = PAD + left_w + PAD
        draw.line((x, 10, x, height - 10), fill=felt_ink(FELT_LINE), width=2)
        x += PAD
        _text(image, (x, 8), fit(last_head, 4 * small_step, 13), 13, MUTED)
        _draw_trick(image, last, names, x, 32, SMALL_CARD, lang)
    return png(image)


def table_picture(
    public: PublicView,
    names: Sequence[str],
    lang: Lang,
    dulle_tie: DulleTie = DulleTie.FIRST_WINS,
) -> Picture:
    """The current trick in seat order (the card ahead lit), the last trick, who is to act.

    ``names`` are the game seats' names. Only public state goes in: no hand can show.
    """
    current = public_trick(public, dulle_tie)
    parts = []
    if public.current_trick:
        parts.append(t(lang, "pic_trick_alt", plays=_plays_alt(current, names, lang)))
        assert current.ahead is not None
        parts.append(t(lang, "pic_ahead_alt", name=names[current.ahead]))
    else:
        parts.append(t(lang, "pic_trick_empty"))
    if public.to_act is not None:
        parts.append(t(lang, "pic_turn_alt", name=names[public.to_act]))
    last = None
    last_head = ""
    if public.tricks:
        trick = public.tricks[-1]
        last = finished_trick(trick)
        winner = names[trick.winner] if trick.winner is not None else "?"
        last_head = t(lang, "pic_last_to", name=winner, augen=trick.augen)
        parts.append(
            t(
                lang,
                "pic_last_alt",
                plays=_plays_alt(last, names, lang),
                name=winner,
                augen=trick.augen,
            )
        )
    data = _table_png(current, last, last_head, tuple(names), public.to_act, lang)
    return Picture("tisch.png", data, alt_text(parts))


# -- the end of a game ----------------------------------------------------------------------


def final_picture(summary: dict[str, Any], names: Sequence[str], lang: Lang) -> Picture | None:
    """The last trick and the Spielwert lines of a finished game (``summary`` is the
    engine's game summary, in which every card has been played); None without tricks.
    """
    tricks = summary.get("tricks") or []
    if not tricks:
        return None
    last = tricks[-1]
    trick = Trick(last["leader"], tuple(Card[c] for c in last["cards"]), last["winner"])
    layout = finished_trick(trick)
    contract = Contract(summary.get("contract") or "normal")
    lines = result_lines(summary["result"], lang, contract.scored_as_solo)
    winner = names[trick.winner] if trick.winner is not None else "?"
    head = t(lang, "pic_last_to", name=winner, augen=trick.augen)
    line_h = 19
    text_w = 300
    card_w = 4 * (TRICK_CARD + 14)
    height = max(32 + round(TRICK_CARD * 1.43) + 30, 32 + line_h * len(lines) + PAD)
    image = felt_canvas((PAD + card_w + 2 * PAD + text_w + PAD, height))
    draw = ImageDraw.Draw(image)
    _text(image, (PAD, 8), fit(head, card_w, 15), 15)
    _draw_trick(image, layout, names, PAD, 32, TRICK_CARD, lang)
    x = PAD + card_w + PAD
    draw.line((x, 10, x, height - 10), fill=felt_ink(FELT_LINE), width=2)
    x += PAD
    _text(image, (x, 8), t(lang, "spielwert"), 15)
    for i, line in enumerate(lines):
        last_line = i == len(lines) - 1
        _text(
            image, (x, 32 + i * line_h), fit(line, text_w, 14), 14, HIGHLIGHT if last_line else TEXT
        )
    parts = [
        t(
            lang,
            "pic_last_alt",
            plays=_plays_alt(layout, names, lang),
            name=winner,
            augen=trick.augen,
        ),
        t(lang, "pic_result_alt", lines="; ".join(lines)),
    ]
    return Picture("ende.png", png(image), alt_text(parts))


def trick_picture(trick: Trick, names: Sequence[str], head: str, lang: Lang) -> Picture:
    """One finished trick as the table draws it (the winner's card lit), ``head`` above it:
    a replay thread's page. Only the trick's four played cards go in.
    """
    layout = finished_trick(trick)
    width = PAD + 4 * (TRICK_CARD + 14) + PAD
    image = felt_canvas((width, 32 + round(TRICK_CARD * 1.43) + 30))
    _text(image, (PAD, 8), fit(head, width - 2 * PAD, 15), 15)
    _draw_trick(image, layout, names, PAD, 32, TRICK_CARD, lang)
    winner = names[trick.winner] if trick.winner is not None else "?"
    plays = _plays_alt(layout, names, lang)
    alt = t(lang, "rp_pic_alt", plays=plays, name=winner, augen=trick.augen)
    return Picture("stich.png", png(image), alt_text([head, alt]))


# -- the Spielliste -------------------------------------------------------------------------

CHART_BG: RGB = (43, 45, 49)  # Discord's dark grey: the lines stand out in either theme
GRID: RGB = (78, 80, 88)
LINE_COLOURS: tuple[RGB, ...] = (
    (255, 196, 0),
    (88, 180, 255),
    (255, 110, 110),
    (110, 225, 140),
    (215, 150, 255),
)


def _ticks(low: int, high: int) -> list[int]:
    """Round values for the y axis between ``low`` and ``high``, about five of them."""
    span = max(1, high - low)
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        step = candidate
        if span / candidate <= 6:
            break
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def spielliste_chart(
    entries: Sequence[ListEntry], names: Sequence[str], lang: Lang
) -> Picture | None:
    """The running totals after each game, one line per table seat, with a legend; None
    before the first game is booked. ``names`` are the table seats' names.
    """
    if not entries:
        return None
    series = [[0, *(e.totals[s] for e in entries)] for s in range(len(names))]
    image = line_chart(series, names, t(lang, "pic_chart_title"), lang)
    ranked = sorted(range(len(names)), key=lambda s: -series[s][-1])
    totals = ", ".join(f"{names[s]} {series[s][-1]:+d}" for s in ranked)
    alt = alt_text([t(lang, "pic_chart_alt", n=len(entries), totals=totals)])
    return Picture("spielliste.png", png(image), alt)


def running_chart(running: Sequence[int], name: str, zeitraum: str, lang: Lang) -> Picture | None:
    """A player's points after each game of a period (``/doko statistik``); None without."""
    if not running:
        return None
    image = line_chart(
        [[0, *running]], [name], t(lang, "pic_running_title", zeitraum=zeitraum), lang
    )
    alt = t(
        lang,
        "pic_running_alt",
        name=name,
        n=len(running),
        zeitraum=zeitraum,
        last=running[-1],
        high=max(running),
        low=min(running),
    )
    return Picture("verlauf.png", png(image), alt_text([alt]))


def line_chart(
    series: Sequence[Sequence[int]], names: Sequence[str], title: str, lang: Lang
) -> Image.Image:
    """Running totals as lines over the games (each series starts at 0 before game 1),
    with a legend of names and last values, highest first.
    """
    scale = 2  # drawn at twice the size and scaled down: smooth lines
    width, height = 640, 300
    left, right, top, bottom = 44, 170, 34, 30
    seats = len(names)
    low = min(0, *(min(v) for v in series))
    high = max(0, *(max(v) for v in series))
    if high == low:
        high = low + 1
    games = max(1, max(len(v) for v in series) - 1)
    image = Image.new("RGB", (width * scale, height * scale), CHART_BG)
    draw = ImageDraw.Draw(image)

    def write(
        xy: tuple[float, float], text: str, size: int, fill: RGB = TEXT, anchor: str = "la"
    ) -> None:
        paste_text(image, xy, text, size, fill, anchor, CHART_BG, chart_text)

    def at(game: int, value: int) -> tuple[float, float]:
        x = left + (width - left - right) * game / games
        y = top + (height - top - bottom) * (high - value) / (high - low)
        return x * scale, y * scale

    for tick in _ticks(low, high):
        _, y = at(0, tick)
        colour = MUTED if tick == 0 else GRID
        draw.line((left * scale, y, (width - right) * scale, y), fill=colour, width=scale)
        text = f"{tick:+d}" if tick else "0"
        write(((left - 6) * scale, y), text, 11 * scale, MUTED, "rm")
    every = max(1, -(-games // 8))
    for game in range(0, games + 1, every):
        x, _ = at(game, low)
        write((x, (height - bottom + 6) * scale), str(game), 11 * scale, MUTED, "ma")
    game_label = t(lang, "pic_chart_game")
    write(((width - right) * scale, (height - 12) * scale), game_label, 11 * scale, MUTED, "ra")
    write((left * scale, 8 * scale), fit(title, width - left - 8, 15), 15 * scale)
    for s in range(seats):
        points = [at(g, v) for g, v in enumerate(series[s])]
        colour = LINE_COLOURS[s % len(LINE_COLOURS)]
        draw.line(points, fill=colour, width=3 * scale, joint="curve")
        if games <= 30:  # a dot per game while they stay apart
            for x, y in points[1:]:
                r = 3 * scale
                draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    # The legend, highest total first, each name with its total.
    ranked = sorted(range(seats), key=lambda s: -series[s][-1])
    for row, s in enumerate(ranked):
        y = (top + 6 + row * 24) * scale
        x = (width - right + 14) * scale
        colour = LINE_COLOURS[s % len(LINE_COLOURS)]
        draw.rounded_rectangle((x, y, x + 16 * scale, y + 12 * scale), 3 * scale, fill=colour)
        name = fit(names[s], 84, 13)
        write((x + 22 * scale, y + 6 * scale), name, 13 * scale, TEXT, "lm")
        total = f"{series[s][-1]:+d}"
        write(((width - 8) * scale, y + 6 * scale), total, 13 * scale, TEXT, "rm")
    # Each pixel the mean of its 2×2: smooth edges at a tenth of LANCZOS's time (a chart
    # goes with every game's end).
    return image.reduce(scale)
