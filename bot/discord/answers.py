"""The answers to interactions that show messages: the lobby a command or click opens, and
the hand a click edits once its action was taken (:class:`Clicked`: received here or
forwarded by another process, answered alike).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

import discord

from bot.discord import stored
from bot.discord.components import table_components
from bot.discord.pictures import edit_files, embeds_with, picture_key, send_files
from bot.discord.presenter import Presenter
from bot.discord.state import Payload, TokenEditor, payload_key
from bot.engine.forwarding import ForwardRow
from bot.engine.model import EngineError, TableInfo
from bot.render.hand import game_over_message
from bot.render.table import game_message, lobby_message, started_lobby
from bot.render.texts import Lang


async def say(interaction: discord.Interaction[Any], text: str, *, ephemeral: bool = True) -> None:
    """A text answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


# A click's answer (the hand) waits at most this long for the AIs' replies (the table message
# waits as long, TABLE_EDIT_DELAY); longer while the global budget is short: AIs that answer
# after the answer cost a DM edit against it.
ANSWER_WAITS_FOR_AIS_S = 0.3
ANSWER_WAITS_WHEN_BUSY_S = 1.0


async def post_lobby(
    presenter: Presenter, interaction: discord.Interaction[Any], info: TableInfo
) -> None:
    """The lobby as the answer to ``/doko tisch`` (deferred): the table's message, in the
    guild's language.
    """
    embed, controls = lobby_message(info, presenter.public_lang(info.guild_id))
    view = table_components(info, controls)
    message = await interaction.followup.send(embed=embed, view=view, wait=True)
    await presenter.register_table_message(
        info, interaction, message.id, payload_key(None, embed, view)
    )


async def show_lobby(
    presenter: Presenter, interaction: discord.Interaction[Any], info: TableInfo
) -> None:
    """A lobby click (deferred) edits the clicked lobby message at once, in the guild's
    language.
    """
    if interaction.message is None:
        return
    embed, controls = lobby_message(info, presenter.public_lang(info.guild_id))
    view = table_components(info, controls)
    await interaction.edit_original_response(embed=embed, view=view)
    await presenter.register_table_message(
        info, interaction, interaction.message.id, payload_key(None, embed, view)
    )


async def show_start(
    presenter: Presenter, interaction: discord.Interaction[Any], info: TableInfo
) -> None:
    """A start click (deferred): the clicked lobby says the game started and the game's
    table message follows as a follow-up, both on the interaction (not against Discord's
    global limit) instead of an edit and a post of the table job.
    """
    state = presenter.tables.get(info.id)
    message = interaction.message
    if state is None or message is None or state.message_id != message.id:
        return  # the table job shows it
    if state.message_game is not None or state.starting:
        return
    state.starting = True
    try:
        now = presenter.bot.engine.table(info.id)
        if now.status != "playing" or now.public is None or now.game_number is None:
            return
        lang = presenter.public_lang(now.guild_id)
        await interaction.edit_original_response(embed=started_lobby(now, lang), view=None)
        embed, controls = game_message(now, lang)
        view = table_components(now, controls)
        pictures = await presenter.pictures.table(now, lang)
        editor = TokenEditor(interaction, message.id)
        sent = await editor.send(
            embeds=embeds_with(embed, pictures), view=view, **send_files(pictures)
        )
        state.editor = editor  # the game's table message is edited through the click
        state.message_id, state.message_game = sent.id, now.game_number
        state.message_key = picture_key(payload_key(None, embed, view), pictures)
        await stored.save_table_message(presenter.bot.db, state)
    except EngineError:
        return
    finally:
        state.starting = False
        if state.job is not None:
            state.job.mark()  # what changed meanwhile (the job renders only what differs)


class ClickedMessage(NamedTuple):
    """The message a game click was made on."""

    channel_id: int
    message_id: int
    ephemeral: bool


class Clicked(Protocol):
    """A game click to answer, received by this process or forwarded by another: its user,
    the clicked message (None when unknown), and the interaction's two ways to show
    something, neither of which counts against Discord's global limit.
    """

    user_id: int

    @property
    def clicked(self) -> ClickedMessage | None:
        """The clicked message."""

    async def edit_original(self, **fields: Any) -> None:
        """Edit the clicked message through the interaction (its original response)."""

    async def followup(self, content: str, **fields: Any) -> discord.WebhookMessage:
        """A message in the clicked message's channel, through the interaction."""

    def opened_hand(self, game_id: int, key: Payload) -> None:
        """The clicked ephemeral message shows the user's hand (``key``) now."""

    def editor(self) -> TokenEditor | None:
        """What edits the clicked message and the click's follow-ups through the interaction
        while its token lives; None for a forwarded click.
        """


async def answer_click(presenter: Presenter, click: Clicked, info: TableInfo, lang: Lang) -> None:
    """After a game click was taken: the clicked hand message shows the table as it is
    now. ``info`` is the table as the click found it.
    """
    user = presenter.user(click.user_id)
    # Meanwhile the hand job leaves the DM to this answer (interaction routes do not count
    # against Discord's global limit); once done, it sends what the answer did not show.
    user.answering += 1
    try:
        await _answer_click(presenter, click, info, lang)
    finally:
        user.answering -= 1
        state = presenter.tables.get(info.id)
        if state is not None:
            presenter.mark_hand(state, click.user_id)


async def _answer_click(presenter: Presenter, click: Clicked, info: TableInfo, lang: Lang) -> None:
    user_id = click.user_id
    # The AIs answer within milliseconds: one edit shows the card and their replies.
    wait = ANSWER_WAITS_WHEN_BUSY_S if presenter.budget.busy else ANSWER_WAITS_FOR_AIS_S
    await presenter.bot.engine.settle(info.id, wait)
    # Under the hand's lock: a newer state the hand job renders goes out after this one.
    async with presenter.user(user_id).hand_lock:
        message = click.clicked
        ephemeral = message is not None and message.ephemeral
        if (
            message is not None
            and not ephemeral
            and presenter.shows(info.id, user_id, message.message_id, lang)
        ):
            return  # the hand job showed this state in this DM already
        try:
            now: TableInfo | None
            now, content, ui, key = presenter.render_hand(info.id, user_id, lang)
        except EngineError:
            now = None  # the table closed with this action (the last game of the session)
        if (
            now is None
            or now.status != "playing"
            or now.game_id is None
            or now.game_id != info.game_id
        ):
            # The game this message showed is over (this click or the AIs after it ended
            # it). The hand job sends the next game's hand as a new DM, so the old game's
            # DM shows how it ended: one hand message per game, never two for the next. An
            # ephemeral hand shows the result too; "Meine Karten" opens the next game's.
            await show_result(presenter, click, info, lang)
            if now is not None and not ephemeral and message is not None:
                await next_hand(presenter, click, now, lang)
            return
        picture, key = await presenter.pictures.hand(info.id, user_id, lang, key)
        files = edit_files([picture], presenter.pictures.enabled)
        await click.edit_original(content=content, view=ui, **files)
        if ephemeral:
            click.opened_hand(now.game_id, key)
        elif message is not None:
            await presenter.adopt_hand(
                info.id,
                user_id,
                now.game_id,
                message.channel_id,
                message.message_id,
                key,
                (now.version, lang),
                click.editor(),
            )


async def next_hand(presenter: Presenter, click: Clicked, info: TableInfo, lang: Lang) -> None:
    """The click ended a game and the next one is dealt: its hand goes to the DM as a
    follow-up of the click (not against Discord's global limit), unless it was sent.
    """
    state = presenter.tables.get(info.id)
    if not presenter.next_hand_on_click or state is None or info.status != "playing":
        return
    user_id = click.user_id
    hand = state.hands.get(user_id)
    if hand is not None and hand.game_id == info.game_id:
        return  # the hand job sent it already
    try:
        now, content, ui, key = presenter.render_hand(info.id, user_id, lang)
    except EngineError:
        return
    if now.game_id is None or now.game_id != info.game_id or info.game_seat_of(user_id) is None:
        return  # dealt again meanwhile, or sitting out (the hand job tells them)
    picture, key = await presenter.pictures.hand(info.id, user_id, lang, key)
    sent = await click.followup(content, view=ui, **send_files([picture]))
    await presenter.adopt_hand(
        info.id,
        user_id,
        now.game_id,
        sent.channel.id,
        sent.id,
        key,
        (now.version, lang),
        click.editor(),
    )


async def show_result(presenter: Presenter, click: Clicked, info: TableInfo, lang: Lang) -> None:
    """The clicked hand message of a finished game (``info``'s) shows its result, with the
    Spielanalyse button only; "it is over" only when the result is not known here.
    """
    user_id = click.user_id
    result = presenter.endings.result(info.id, user_id, info.game_id, lang)
    content, ui = result if result is not None else (None, None)
    await click.edit_original(
        content=content or game_over_message(info, user_id, lang),
        view=ui,
        **edit_files([], presenter.pictures.enabled),  # the hand's picture goes too
    )
    message = click.clicked
    if content is not None and message is not None:
        presenter.endings.shown(info.id, user_id, message.message_id)


async def adopt_forwarded(presenter: Presenter, info: TableInfo, row: ForwardRow) -> None:
    """The DM of a forwarded click is the user's hand message of this game, unless one
    is known: so this process edits it rather than sending another (it forgets them on
    a restart).
    """
    state = presenter.tables.get(info.id)
    if state is None or info.game_id is None or row.channel_id is None:
        return
    known = state.hands.get(row.user_id)
    if row.message_id is not None and (known is None or known.game_id != info.game_id):
        await presenter.adopt_hand(
            info.id, row.user_id, info.game_id, row.channel_id, row.message_id, ()
        )
