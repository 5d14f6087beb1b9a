"""The leaderboard's page buttons: their custom ids, both ways, and what a click does.

A page button's id says everything it shows, so it works after a restart and in any
process: ``rang:<order>:<Zeitraum>:<page>`` (``rang:points:m2026-11:1`` is page 2 of the
November 2026 leaderboard by points). The Zeitraum is the one resolved when the list was
asked for: "this month" stays that month, also when the button is clicked next month.
A click edits the leaderboard message to that page as it is now; a page that no longer
exists shows the last one and says so, and an id this version cannot read (a button of
another release) is answered with a hint to ask for the list again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.discord import answers
from bot.discord.components import STYLES, Components
from bot.discord.pictures import picture_file
from bot.engine.rangliste import ORDERS, BoardPage, Order, Zeitraum, resolve
from bot.render.stats import board_embed, figures_embed, zeitraum_name
from bot.render.texts import Lang, lang_of, t

if TYPE_CHECKING:
    from bot.discord.bot import DokoBot

log = logging.getLogger(__name__)

# /doko rangliste and /doko statistik: which games count, in which order
ZEITRAUM_CHOICES: Final = [
    app_commands.Choice(name=name, value=value)
    for name, value in (
        ("Alle Spiele", "gesamt"),
        ("Dieser Monat", "monat"),
        ("Diese Saison (Vierteljahr)", "saison"),
        ("Letzter Monat", "letzter_monat"),
    )
]
ORDER_CHOICES: Final = [
    app_commands.Choice(name="Punkte", value="points"),
    app_commands.Choice(name="Wertung", value="rating"),
]
STATISTIK_OPTIONS: Final = {
    "zeitraum": "Welche Spiele zählen (Standard: alle)",
    "monat": "Ein bestimmter Monat, z. B. 11.2026",
}
RANGLISTE_OPTIONS: Final = {
    **STATISTIK_OPTIONS,
    "nach": "Nach Punkten (Standard) oder nach Wertung",
    "seite": "Welche Seite (20 Spieler je Seite)",
}
PREFIX: Final = "rang"
MAX_PAGE: Final = 10_000  # far beyond any server's players / 20; a bound for odd ids


@dataclass(frozen=True, slots=True)
class PageClick:
    """What a page button asks for."""

    order: Order
    zeitraum: Zeitraum
    page: int


def page_id(order: Order, zeitraum: Zeitraum, page: int) -> str:
    return f"{PREFIX}:{order}:{zeitraum.key}:{page}"


def decode_page(custom_id: str) -> PageClick:
    """The click a page button's id stands for; ``ValueError`` for anything else."""
    fields = custom_id.split(":")
    if len(fields) != 4 or fields[0] != PREFIX or fields[1] not in ORDERS:
        raise ValueError(f"no page button: {custom_id!r}")
    if not fields[3].isdecimal() or int(fields[3]) > MAX_PAGE:
        raise ValueError(f"no page number: {custom_id!r}")
    order: Order = "points" if fields[1] == "points" else "rating"
    return PageClick(order, Zeitraum.from_key(fields[2]), int(fields[3]))


class PageButtons(Components):
    """Back and Next under a leaderboard page; each names the page it shows."""

    def __init__(self, page: BoardPage, lang: Lang) -> None:
        super().__init__()
        for label, target, disabled in (
            (t(lang, "rl_prev"), page.page - 1, page.page == 0),
            (t(lang, "rl_next"), page.page + 1, page.page >= page.pages - 1),
        ):
            button = {
                "type": 2,
                "style": STYLES["secondary"],
                "disabled": disabled,
                "label": label,
                # A disabled button keeps an id of its own: no two on a message may share one.
                "custom_id": page_id(page.order, page.zeitraum, max(0, target)),
            }
            self._place(button, 1, 0)


def page_view(page: BoardPage, lang: Lang) -> PageButtons | None:
    """The buttons under a leaderboard page: none when it is the only one."""
    return PageButtons(page, lang) if page.pages > 1 else None


async def page_click(bot: DokoBot, interaction: discord.Interaction[Any]) -> None:
    """A page button: the message shows that page now (the guild's language, as the list)."""
    guild_id = interaction.guild_id
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    try:
        click = decode_page(custom_id)
    except ValueError as error:
        click = None
        log.info("refused a page button: %s", error)
    if click is None or guild_id is None:
        await interaction.response.send_message(
            t(lang_of(interaction.locale), "rl_stale"), ephemeral=True
        )
        return
    page = await bot.engine.leaderboard_page(guild_id, click.zeitraum, click.order, click.page)
    lang = bot.presenter.public_lang(guild_id)
    # view=None drops the buttons: the list may have shrunk to one page.
    await interaction.response.edit_message(
        embed=board_embed(page, lang), view=page_view(page, lang)
    )


async def ask_zeitraum(
    bot: DokoBot,
    interaction: discord.Interaction[Any],
    choice: str,
    month: str | None,
    lang: Lang,
) -> Zeitraum | None:
    """The Zeitraum a command asks for, the interaction deferred (the answer comes from the
    store); None, answered with the reason, outside a server or for a month not understood.
    """
    if interaction.guild_id is None:
        await answers.say(interaction, t(lang, "guild_only"))
        return None
    try:
        zeitraum = resolve(choice, month, bot.engine.today())
    except ValueError:
        await answers.say(interaction, t(lang, "rl_bad_month"))
        return None
    await interaction.response.defer()
    return zeitraum


async def send_board(
    bot: DokoBot,
    interaction: discord.Interaction[Any],
    zeitraum: Zeitraum,
    order: Order,
    page: int,
    lang: Lang,
) -> None:
    """``/doko rangliste`` (deferred): the page asked for, with page buttons beyond one."""
    assert interaction.guild_id is not None
    board = await bot.engine.leaderboard_page(interaction.guild_id, zeitraum, order, page)
    view = page_view(board, lang)
    if view is None:
        await interaction.followup.send(embed=board_embed(board, lang))
    else:
        await interaction.followup.send(embed=board_embed(board, lang), view=view)


async def send_figures(
    bot: DokoBot,
    interaction: discord.Interaction[Any],
    who: discord.abc.User,
    zeitraum: Zeitraum,
    lang: Lang,
) -> None:
    """``/doko statistik`` (deferred): the figures, and the running points as a picture
    unless pictures are off.
    """
    assert interaction.guild_id is not None
    figures = await bot.engine.player_figures(interaction.guild_id, who.id, zeitraum)
    embed = figures_embed(who.display_name, figures, zeitraum, lang)
    chart = None
    if figures is not None:
        name = zeitraum_name(zeitraum, lang)
        chart = await bot.presenter.pictures.running(figures.running, who.display_name, name, lang)
    if chart is None:
        await interaction.followup.send(embed=embed)
        return
    embed.set_image(url=f"attachment://{chart.filename}")
    await interaction.followup.send(embed=embed, file=picture_file(chart))
