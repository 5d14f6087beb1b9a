"""Players whose DMs are closed: Discord answers a DM to them with 403, code 50007.

The first 50007 marks the player, in memory and in the store (db.closed_dms): from then on
their hand is shown in the table's channel ("Meine Karten", an ephemeral message the hand job
keeps in step), pings mention them there, and no DM is tried again, not after a restart
either (every 403 counts towards Discord's invalid-request ban). The table message names
them. The player hears why, once, with the answer to their next click or command in a server
channel (an ephemeral followup, which needs no DM; a click in their DMs may have been made
before the DM failed). Once told, a ``/doko`` command of theirs makes the next hand update
try the DM again: a new DM that gets through clears the stored mark, a 50007 restores it
without a second notice.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.model import TableInfo
from bot.render.texts import lang_of, t
from db import closed_dms

if TYPE_CHECKING:
    from bot.discord.presenter import Presenter

log = logging.getLogger(__name__)

DMS_CLOSED = 50007  # "Cannot send messages to this user"


def dms_are_closed(error: discord.HTTPException) -> bool:
    """Whether Discord refused a DM because the user does not take DMs from the bot."""
    return isinstance(error, discord.Forbidden) and error.code == DMS_CLOSED


class ClosedDms:
    """The closed-DM marks of the players this process serves."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        self.untold: set[int] = set()  # marked, not told yet
        self.retrying: set[int] = set()  # marked, told, their DM tried again

    async def load(self) -> None:
        """Every stored mark (at the start): hands of these players go to the channel."""
        for row in await closed_dms.closed_dms(self.presenter.bot.db):
            self.presenter.user(row.user_id).dms_closed = True
            if row.told_at is None:
                self.untold.add(row.user_id)

    async def closed(self, user_id: int) -> None:
        """A DM to the player got 50007: mark them, to be told with their next answer."""
        user = self.presenter.user(user_id)
        if user.dms_closed:
            return
        user.dms_closed = True
        retried = user_id in self.retrying
        self.retrying.discard(user_id)
        try:
            # A new mark is told; one kept while the DM was tried again was told before.
            if await closed_dms.mark_closed(self.presenter.bot.db, user_id) and not retried:
                self.untold.add(user_id)
        except Exception:
            # Kept in memory all the same; after a restart one more DM is tried.
            log.exception("could not store the closed DMs of user %s", user_id)
            self.untold.add(user_id)
        for state in self.presenter.tables.values():
            if state.job is not None and self._seated(state.info, user_id):
                state.job.mark()  # the table message names them

    async def after_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """After the player's click or command was answered: tell them once; once told, a
        ``/doko`` command has the bot try their DM again (as the notice says). A click does
        not: one on an old message in their DMs proves nothing, and every refused DM counts
        against Discord's invalid-request limit.
        """
        user_id = interaction.user.id
        user = self.presenter.users.get(user_id)
        if user is None or not user.dms_closed:
            return
        if user_id in self.untold:
            if interaction.guild_id is not None:  # in the table's channel, not in the DMs
                await self._tell(interaction, user_id)
        elif interaction.type is discord.InteractionType.application_command:
            await self.reopen(user_id)

    async def _tell(self, interaction: discord.Interaction[Any], user_id: int) -> None:
        text = t(lang_of(interaction.locale), "dms_closed_notice")
        self.untold.discard(user_id)  # before the send: two answers at once tell once
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as error:
            log.info("could not tell user %s about their closed DMs: %s", user_id, error)
            self.untold.add(user_id)
            return  # the next answer tries again
        try:
            await closed_dms.mark_told(self.presenter.bot.db, user_id)
        except Exception:
            log.exception("could not store that user %s was told", user_id)

    async def reopen(self, user_id: int) -> None:
        """The player may have opened their DMs: try the DM with the next update of each of
        their hands (marked now). The stored mark stays until a new DM gets through
        (:meth:`delivered`); a 50007 meanwhile restores it without telling them again.
        """
        user = self.presenter.user(user_id)
        user.dms_closed = False
        self.untold.discard(user_id)
        self.retrying.add(user_id)
        for state in list(self.presenter.tables.values()):
            if self._seated(state.info, user_id):
                self.presenter.mark_hand(state, user_id)
                if state.job is not None:
                    state.job.mark()  # no longer named in the table message

    async def delivered(self, user_id: int) -> None:
        """A new DM to the player got through: their DMs are open, the mark goes. (An edit
        of an older DM proves nothing: Discord may allow it when new DMs are refused.)
        """
        if user_id not in self.retrying:
            return
        self.retrying.discard(user_id)
        try:
            await closed_dms.clear(self.presenter.bot.db, user_id)
        except Exception:
            log.exception("could not forget the closed DMs of user %s", user_id)

    @staticmethod
    def _seated(info: TableInfo | None, user_id: int) -> bool:
        return info is not None and info.seat_of(user_id) is not None
