"""Discord's side of forwarding: interactions for tables another bot process runs.

Discord sends interactions in DMs (the hand's buttons, slash commands there) to shard 0
only. The receiving process stores such an interaction through the engine's
:class:`~bot.engine.forwarding.Forwarder` and only then acknowledges it; the table's
process applies it and answers through the interaction's webhook, which needs only the
application id and the token, no gateway. :class:`Reply` lets one code path answer a
click received here and one received by another process alike.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import discord

from bot.engine.forwarding import Forwarder
from bot.render.buttons import Click, custom_id
from db.forwards import ForwardRow, Kind

log = logging.getLogger(__name__)

# An interaction token lives 15 minutes; answers are not attempted in its last seconds.
TOKEN_LIFETIME = timedelta(minutes=15) - timedelta(seconds=10)
UNKNOWN_WEBHOOK = 10015
# The receiver stores a click before its acknowledgement reaches Discord, so the table's
# process can answer first and find no webhook yet: it tries again after these pauses.
ANSWER_RETRIES_S = (0.25, 0.5, 1.0, 2.0)


class Reply(Protocol):
    """How a click's refusal reaches the player."""

    async def defer(self) -> None:
        """Acknowledge without a visible answer, unless that happened already."""

    async def say(self, text: str) -> None:
        """An ephemeral answer."""


class InteractionReply:
    """A click received by this process: answered on its interaction."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    async def defer(self) -> None:
        if not self.interaction.response.is_done():
            await self.interaction.response.defer()

    async def say(self, text: str) -> None:
        if self.interaction.response.is_done():
            await self.interaction.followup.send(text, ephemeral=True)
        else:
            await self.interaction.response.send_message(text, ephemeral=True)


class WebhookReply:
    """A forwarded interaction: the receiving process acknowledged it, answers are followups.

    A token that ran out (the table's process was slow or down) is not an error: the
    action still counts, only its answer is dropped.
    """

    def __init__(self, client: discord.Client, row: ForwardRow) -> None:
        self.row = row
        # What Interaction.followup builds: the application's webhook for this token.
        self._webhook = discord.Webhook.from_state(
            data={"id": row.application_id, "type": 3, "token": row.token},
            state=client._connection,
        )

    @property
    def alive(self) -> bool:
        return datetime.now(UTC) - self.row.created_at < TOKEN_LIFETIME

    async def defer(self) -> None:
        return None  # the receiving process acknowledged it before storing returned

    async def say(self, text: str) -> None:
        await self.send(text)

    async def send(self, content: str, view: discord.ui.View | None = None) -> None:
        if not self.alive:
            log.info("forwarded interaction %s: its token ran out, no answer", self.row.id)
            return
        for pause in (*ANSWER_RETRIES_S, None):
            try:
                if view is None:
                    await self._webhook.send(content, ephemeral=True)
                else:
                    await self._webhook.send(content, view=view, ephemeral=True)
                return
            except discord.NotFound as error:
                if error.code != UNKNOWN_WEBHOOK or pause is None or not self.alive:
                    log.info("forwarded interaction %s: answer refused (%s)", self.row.id, error)
                    return
                await asyncio.sleep(pause)  # not acknowledged yet by the receiving process
            except discord.HTTPException as error:
                log.info("forwarded interaction %s: answer refused (%s)", self.row.id, error)
                return


def _forwarder(client: Any) -> Forwarder | None:
    forwarder: Forwarder | None = getattr(client, "forwarder", None)
    return forwarder


async def forward_click(client: Any, click: Click, interaction: discord.Interaction[Any]) -> bool:
    """Store a click on a table this process does not run, then acknowledge it (type 6).

    False when nothing was forwarded (unsharded, or the table is not open): answer it here.
    """
    forwarder = _forwarder(client)
    if forwarder is None or forwarder.runs(click.table_id):
        return False
    message = interaction.message
    stored = await forwarder.forward(
        click.table_id,
        kind="click",
        custom_id=custom_id(click.what, click.table_id, click.version, *click.args),
        args=click.values,
        user_id=interaction.user.id,
        locale=str(interaction.locale),
        application_id=interaction.application_id,
        token=interaction.token,
        channel_id=interaction.channel_id,
        message_id=message.id if message is not None else None,
    )
    if stored:
        await interaction.response.defer()
    return stored


async def forward_command(
    client: Any, interaction: discord.Interaction[Any], kind: Kind, args: tuple[str, ...] = ()
) -> bool:
    """A command used in a DM by a player whose table another process runs: store it, then
    acknowledge it ephemerally ("thinking…", replaced by the table process's answer)."""
    forwarder = _forwarder(client)
    if forwarder is None or interaction.guild_id is not None:
        return False
    table_id = await forwarder.remote_table_of(interaction.user.id)
    if table_id is None:
        return False
    stored = await forwarder.forward(
        table_id,
        kind=kind,
        custom_id=kind,
        args=args,
        user_id=interaction.user.id,
        locale=str(interaction.locale),
        application_id=interaction.application_id,
        token=interaction.token,
        channel_id=interaction.channel_id,
    )
    if stored:
        await interaction.response.defer(ephemeral=True, thinking=True)
    return stored
