"""The public table message of each table: posted, edited and replaced as the game goes.

The presenter (presenter.py) marks a table as changed; its job calls :meth:`TableMessage.sync`,
which renders the latest state once a turn of the request budget came: the lobby, the game
(with its pictures), each finished game's final message, the closed table. The message id
is stored as it is sent; one that is gone (404) is posted again. Without Attach Files in the
channel the table goes on in text (``state.files_refused``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import stored
from bot.discord.budget import (
    table_turn,
)
from bot.discord.components import table_components
from bot.discord.pictures import (
    edit_files,
    embeds_with,
    picture_file,
    picture_key,
    send_files,
    upload_refused,
)
from bot.discord.state import (
    TableState,
    payload_key,
    token_refused,
)
from bot.engine.model import (
    TableInfo,
)
from bot.render.pictures import Picture
from bot.render.table import (
    closed_message,
    final_entries,
    final_message,
    game_message,
    lobby_message,
    redeal_text,
    seat_name,
    spielliste_attachment,
    started_lobby,
)
from bot.render.texts import Lang
from db import messages

if TYPE_CHECKING:
    from bot.discord.presenter import Presenter

log = logging.getLogger(__name__)


class TableMessage:
    """The table messages of one presenter (its budget, pictures and users)."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter

    async def _post(
        self,
        state: TableState,
        embed: discord.Embed,
        view: discord.ui.View | None,
        game: int | None,
        pictures: Sequence[Picture | None] = (),
        file: discord.File | None = None,
    ) -> None:
        """A new table message, showing game number ``game`` (None: the lobby), with its
        pictures and ``file`` (a Spielliste too long for it) attached.
        """
        if state.files_refused:
            pictures, file = (), None
        uploads = send_files(pictures)
        if file is not None:
            uploads["files"] = [*uploads.get("files", []), file]
        fields = dict(
            embeds=embeds_with(embed, pictures),
            view=view if view is not None else discord.utils.MISSING,
            **uploads,
        )
        try:
            message = await self._send_by_token(state, fields)
            if message is None:
                async with table_turn(self.presenter.budget, state):
                    message = await self.presenter.channel(state.channel_id).send(**fields)
        except discord.Forbidden as error:
            if upload_refused(state, error, pictures, file, embed):
                await self._post(state, embed, view, game)
                return
            # Permissions taken away after the table opened (/doko tisch checks them first).
            log.warning(
                "cannot post table %s's message in channel %s: give the bot View Channel, "
                "Send Messages, Embed Links and Attach Files there",
                state.table_id,
                state.channel_id,
            )
            raise
        state.message_id, state.message_game = message.id, game
        state.message_key = picture_key(payload_key(None, embed, view), pictures)
        await stored.save_table_message(self.presenter.bot.db, state)

    async def _edit(
        self,
        state: TableState,
        embed: discord.Embed,
        view: discord.ui.View | None,
        pictures: Sequence[Picture | None] = (),
        file: discord.File | None = None,
    ) -> None:
        if state.files_refused:
            pictures, file = (), None
        embeds = embeds_with(embed, pictures)
        key = picture_key(payload_key(None, embed, view), pictures)
        if key == state.message_key or state.message_id is None:
            return
        partial = self.presenter.channel(state.channel_id).get_partial_message(state.message_id)
        try:
            uploads = edit_files(pictures, self.presenter.pictures.enabled, state.message_key)
            if file is not None:  # new attachments replace all: the pictures go again too
                shown = [picture_file(p) for p in pictures if p is not None]
                uploads = {"attachments": [*shown, file]}
            if not await self._edit_by_token(state, embeds=embeds, view=view, **uploads):
                async with table_turn(self.presenter.budget, state):
                    await partial.edit(embeds=embeds, view=view, **uploads)
        except discord.NotFound:
            await self._post(state, embed, view, state.message_game, pictures, file)
            return
        except discord.Forbidden as error:
            if not upload_refused(state, error, pictures, file, embed):
                raise
            await self._edit(state, embed, view)
            return
        state.message_key = key

    async def _edit_by_token(self, state: TableState, **fields: Any) -> bool:
        """Edit the table message through the interaction that can (not against the global
        limit); False when none can, and the channel's route must.
        """
        editor = state.by_token()
        if editor is None or state.message_id is None:
            return False
        if not await editor.try_edit(state.message_id, **fields):
            state.editor = None
            return False
        state.edited_at = time.monotonic()
        return True

    async def _send_by_token(
        self, state: TableState, fields: dict[str, Any]
    ) -> discord.Message | None:
        """A new table message as a follow-up of the interaction that can post in the
        table's channel (not against the global limit); None when none can.
        """
        editor = state.editor
        if editor is None or not editor.can_send(state.channel_id):
            return None
        try:
            return await editor.send(**fields)
        except discord.HTTPException as error:
            if not token_refused(error):
                raise
            state.editor = None
            return None

    async def sync(self, state: TableState) -> None:
        """The table message, rendered once a turn of the budget came (changes go along)."""
        await stored.restore(self.presenter.bot.db, state, self.presenter.user)
        info = state.info
        if info is None or state.done or state.starting:
            return  # (starting: marked again when the start click's answer is done)
        shown = self._shows(state, info)
        if shown == state.synced and not state.finals and info.status != "closed":
            return  # nothing the message shows has changed
        # Edits through a live interaction take turns of their own budget (they cost the
        # render, not Discord's global limit); a post in between takes a global turn.
        by_token = state.by_token() is not None
        budget = self.presenter.token_budget if by_token else self.presenter.budget
        async with table_turn(budget, state, first=True, hold=not by_token):
            info = state.info
            assert info is not None
            shown = self._shows(state, info)
            await self._sync_now(state, info)
            state.synced = shown

    def _shows(self, state: TableState, info: TableInfo) -> tuple[Any, ...]:
        """What the table message's content depends on, besides finished games."""
        lang = self.presenter.public_lang(info.guild_id)
        names = tuple(self.dm_closed_names(info, lang))
        return (info.version, info.status, lang, names, info.waiting)

    async def _sync_now(self, state: TableState, info: TableInfo) -> None:
        await self.presenter.take_turn()
        if state.done or state.starting:
            return
        lang = self.presenter.public_lang(info.guild_id)
        for number in sorted(state.finals):
            summary, entry, game_id = state.finals[number]  # dropped once it went out
            last = state.session_over and number == max(state.finals)
            embed, controls = final_message(info, summary, entry, game_id, lang, session_over=last)
            view = table_components(info, controls)
            file = spielliste_attachment(embed, info, lang, final_entries(info, entry))
            pictures = await self.presenter.pictures.final(info, summary, entry, lang, last)
            if state.message_game == number and state.message_id is not None:
                await self._edit(state, embed, view, pictures, file)
            else:
                await self._post(state, embed, view, number, pictures, file)
            state.finished.add(number)
            state.finals.pop(number)
            self.presenter.replays.game_ended(state, info, game_id)  # its replay thread
            state.last_final, state.last_final_ends = (summary, entry, game_id), last
        if info.status == "closed":
            if state.session_over and state.last_final is not None and not state.last_final_ends:
                summary, entry, game_id = state.last_final
                embed, controls = final_message(
                    info, summary, entry, game_id, lang, session_over=True
                )
                file = spielliste_attachment(embed, info, lang, final_entries(info, entry))
                pictures = await self.presenter.pictures.final(info, summary, entry, lang, True)
                await self._edit(state, embed, table_components(info, controls), pictures, file)
            elif not state.session_over and state.message_id is not None:
                embed = closed_message(info, lang)
                await self._edit(state, embed, None, (), spielliste_attachment(embed, info, lang))
            state.done = True
            self.presenter.tables.pop(info.id, None)
            await messages.forget_table(self.presenter.bot.db, info.id)
            return
        if info.status == "lobby":
            embed, controls = lobby_message(info, lang)
            view = table_components(info, controls)
            if state.message_id is None:
                await self._post(state, embed, view, None)
            else:
                await self._edit(state, embed, view)
            return
        if info.game_number is None or info.public is None:
            return
        if info.game_number in state.finished:
            # A snapshot from before the next deal: never turn a final message back into play.
            return
        closed = self.dm_closed_names(info, lang)
        redeal = None
        if state.redeal is not None and state.redeal[0] == info.game_id:
            redeal = redeal_text(info, state.redeal[1], state.redeal[2], lang)
        embed, controls = game_message(info, lang, closed, redeal)
        view = table_components(info, controls)
        pictures = await self.presenter.pictures.table(info, lang)
        if state.message_game != info.game_number:
            if state.message_game is None and state.message_id is not None:
                await self._edit(state, started_lobby(info, lang), None)
            await self._post(state, embed, view, info.game_number, pictures)
        else:
            await self._edit(state, embed, view, pictures)

    def dm_closed_names(self, info: TableInfo, lang: Lang) -> list[str]:
        return [
            seat_name(info, s.seat, lang)
            for s in info.seats
            if s is not None and s.user_id is not None and self.presenter.user(s.user_id).dms_closed
        ]
