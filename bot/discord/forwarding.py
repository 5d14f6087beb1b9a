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
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import discord

from bot.discord import answers
from bot.discord.codec import Click
from bot.discord.library import edit_original, interaction_webhook
from bot.discord.pictures import picture_file, upload
from bot.discord.state import TokenEditor
from bot.engine.forwarding import Forwarder
from bot.engine.model import TableInfo
from bot.render.pictures import Picture
from bot.render.texts import Lang, lang_of, t
from db.forwards import ForwardRow, Kind

if TYPE_CHECKING:
    from bot.discord.presenter import Presenter
    from bot.discord.state import Payload

log = logging.getLogger(__name__)
T = TypeVar("T")
_answering: set[asyncio.Task[None]] = set()  # forwarded clicks' answers under way

# An interaction token lives 15 minutes; answers are not attempted in its last seconds.
TOKEN_LIFETIME = timedelta(minutes=15) - timedelta(seconds=10)
UNKNOWN_WEBHOOK = 10015
# The receiver stores a click before its acknowledgement reaches Discord, so the table's
# process can answer first and find no webhook yet: it tries again after these pauses.
ANSWER_RETRIES_S = (0.25, 0.5, 1.0, 2.0)
# Discord wants the first answer to an interaction within 3 s. A game action whose write is
# slow (another process holding the write lock up to the busy timeout, 5 s) is acknowledged
# after this long; its outcome follows on the acknowledged interaction.
ACK_BEFORE_S = 2.0


class Reply(Protocol):
    """Where a handler's answers go: the interaction received here, or a forwarded one that
    another process acknowledged (then every answer is a followup on its webhook).
    """

    user_id: int
    lang: Lang

    async def defer(self) -> None:
        """Acknowledge without a visible answer, unless that happened already."""

    def in_time(self) -> AbstractAsyncContextManager[None]:
        """Within: acknowledged after ``ACK_BEFORE_S`` unless answered by then."""

    async def say(self, text: str) -> None:
        """An ephemeral text answer."""

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        ephemeral: bool = True,
        files: Sequence[discord.File] = (),
        picture: Picture | None = None,
    ) -> None:
        """An answer with an embed, components or files."""

    async def acted(self, info: TableInfo) -> None:
        """A game action of this user was taken: show its outcome where they clicked."""

    def opened_hand(self, game_id: int, key: Payload) -> None:
        """The answer showed the user's hand (``key``): keep it in step if possible."""


def _message(
    embed: discord.Embed | None,
    view: discord.ui.View | None,
    ephemeral: bool,
    files: Sequence[discord.File] = (),
    picture: Picture | None = None,
) -> dict[str, Any]:
    """The keyword arguments of a send: discord.py wants an absent embed, view or file left
    out. A picture is a fresh upload each time (a retried send reads it again).
    """
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    uploads = [*files, *([picture_file(picture)] if picture is not None else [])]
    if uploads:
        kwargs["files"] = uploads
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    return kwargs


class InteractionReply:
    """An interaction received by this process: answered on it."""

    def __init__(self, presenter: Presenter, interaction: discord.Interaction[Any]) -> None:
        self.presenter = presenter
        self.interaction = interaction
        self.user_id = interaction.user.id
        self.lang = lang_of(interaction.locale)
        self._deferring: asyncio.Future[Any] | None = None
        message = interaction.message
        self._editor = TokenEditor(interaction, message.id if message is not None else None)

    async def defer(self) -> None:
        stats = self.presenter.bot.stats
        if stats is not None:
            stats.mark(self.interaction.id)
        self._start_defer()
        if self._deferring is not None:
            # Shielded: a waiter given up on must not cancel the acknowledgement under way.
            await asyncio.shield(self._deferring)
        if stats is not None:
            stats.mark(self.interaction.id)

    @asynccontextmanager
    async def in_time(self) -> AsyncIterator[None]:
        timer = asyncio.get_running_loop().call_later(ACK_BEFORE_S, self._start_defer)
        try:
            yield
        finally:
            timer.cancel()

    def _start_defer(self) -> None:
        """Send the acknowledgement once, whoever asks first (the store, the clock)."""
        if self._deferring is None and not self.interaction.response.is_done():
            self._deferring = asyncio.ensure_future(self.interaction.response.defer())
            self._deferring.add_done_callback(_retrieved)

    async def say(self, text: str) -> None:
        await self.send(text)

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        ephemeral: bool = True,
        files: Sequence[discord.File] = (),
        picture: Picture | None = None,
    ) -> None:
        kwargs = _message(embed, view, ephemeral, files, picture)
        if self._deferring is not None:
            with suppress(Exception):  # failed: the answer below fails for the same reason
                await asyncio.shield(self._deferring)
        if self.interaction.response.is_done():
            await self.interaction.followup.send(content or discord.utils.MISSING, **kwargs)
        else:
            await self.interaction.response.send_message(content, **kwargs)

    async def acted(self, info: TableInfo) -> None:
        await answers.answer_click(self.presenter, self, info, self.lang)

    def opened_hand(self, game_id: int, key: Payload) -> None:
        self.presenter.remember_ephemeral(self.user_id, self.interaction, game_id, key)

    # -- answers.Clicked

    @property
    def clicked(self) -> answers.ClickedMessage | None:
        message = self.interaction.message
        if message is None:
            return None
        return answers.ClickedMessage(message.channel.id, message.id, message.flags.ephemeral)

    async def edit_original(self, **fields: Any) -> None:
        await self.interaction.edit_original_response(**fields)

    async def followup(self, content: str, **fields: Any) -> discord.WebhookMessage:
        return await self._editor.send(content=content, **fields)

    def editor(self) -> TokenEditor | None:
        return self._editor


class WebhookReply:
    """A forwarded interaction: the receiving process acknowledged it, answers go through
    its webhook (followups; a game click's outcome edits the clicked hand, as here).

    A token that ran out (the table's process was slow or down) is not an error: the
    action still counts, only its answer is dropped.
    """

    def __init__(
        self, client: discord.Client, row: ForwardRow, presenter: Presenter | None = None
    ) -> None:
        self.row = row
        self.presenter = presenter  # None: no game action is answered (acted does nothing)
        self.user_id = row.user_id
        self.lang = lang_of(row.locale)
        self._webhook = interaction_webhook(client, row.application_id, row.token)

    @property
    def alive(self) -> bool:
        return datetime.now(UTC) - self.row.created_at < TOKEN_LIFETIME

    async def defer(self) -> None:
        return None  # the receiving process acknowledged it before storing returned

    @asynccontextmanager
    async def in_time(self) -> AsyncIterator[None]:
        yield  # acknowledged already by the receiving process

    async def say(self, text: str) -> None:
        await self.send(text)

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
        ephemeral: bool = True,
        files: Sequence[discord.File] = (),
        picture: Picture | None = None,
    ) -> None:
        """A followup; in a DM (the only place interactions are forwarded from) an
        ephemeral one, whatever ``ephemeral`` says.
        """
        if not self.alive:
            log.info("forwarded interaction %s: its token ran out, no answer", self.row.id)
            return
        fields = _message(embed, view, True, files, picture)
        try:
            await self._on_webhook(
                lambda each: self._webhook.send(content or discord.utils.MISSING, **each), fields
            )
        except discord.HTTPException as error:
            log.info("forwarded interaction %s: answer refused (%s)", self.row.id, error)

    async def _on_webhook(
        self, request: Callable[[dict[str, Any]], Awaitable[T]], fields: dict[str, Any]
    ) -> T:
        """``request`` with ``fields``, tried again while the webhook is unknown (the
        receiving process stores before it acknowledges); raises the last refusal.
        """
        uploads = _Uploads(fields)
        for pause in ANSWER_RETRIES_S:
            try:
                return await request(uploads.fresh())
            except discord.NotFound as error:
                if error.code != UNKNOWN_WEBHOOK or not self.alive:
                    raise
            await asyncio.sleep(pause)  # not acknowledged yet by the receiving process
        return await request(uploads.fresh())

    async def acted(self, info: TableInfo) -> None:
        """The clicked hand shows the outcome, as for a click received here, answered in
        the background: it waits for the AIs first, and the forwarder applies the next
        rows meanwhile (as clicks received here do not wait for each other's answers).
        """
        if self.presenter is None or not self.alive:
            return
        task = asyncio.create_task(self._answer_click(self.presenter, info))
        _answering.add(task)  # kept until done: the loop holds tasks only weakly
        task.add_done_callback(_answering.discard)

    async def _answer_click(self, presenter: Presenter, info: TableInfo) -> None:
        """A refused answer is only logged: the hand job edits the DM instead
        (answers.adopt_forwarded made it the hand message).
        """
        try:
            await answers.answer_click(presenter, self, info, self.lang)
        except discord.HTTPException as error:
            log.info("forwarded interaction %s: answer refused (%s)", self.row.id, error)
        except Exception:
            log.exception("forwarded interaction %s: answering failed", self.row.id)

    def opened_hand(self, game_id: int, key: Payload) -> None:
        return None  # a followup cannot be kept in step: "Meine Karten" shows a fresh one

    def editor(self) -> TokenEditor | None:
        return None  # the hand job edits the DM (this token is another process's)

    # -- answers.Clicked

    @property
    def clicked(self) -> answers.ClickedMessage | None:
        row = self.row
        if row.channel_id is None or row.message_id is None:
            return None  # an ephemeral message (forward_click): nothing to adopt
        return answers.ClickedMessage(row.channel_id, row.message_id, ephemeral=False)

    async def edit_original(self, **fields: Any) -> None:
        await self._on_webhook(lambda each: edit_original(self._webhook, **each), fields)

    async def followup(self, content: str, **fields: Any) -> discord.WebhookMessage:
        """Not ephemeral: the next game's hand, which the hand job edits from then on."""
        return await self._on_webhook(
            lambda each: self._webhook.send(content, wait=True, ephemeral=False, **each), fields
        )


class _Uploads:
    """A message's fields for each try: a sent file is closed and read to its end after
    the request, so each try uploads its own copy of the bytes.
    """

    KEYS = ("files", "attachments")

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields
        self.blobs = {
            key: [_saved(item) for item in fields[key]] for key in self.KEYS if key in fields
        }

    def fresh(self) -> dict[str, Any]:
        copies = {key: [_copy(item) for item in items] for key, items in self.blobs.items()}
        return {**self.fields, **copies}


def _saved(item: Any) -> Any:
    if isinstance(item, discord.File):
        return (item.fp.read(), item.filename, item.description)
    return item  # an attachment kept as it is


def _copy(item: Any) -> Any:
    if isinstance(item, tuple):
        data, name, alt = item
        return upload(data, name, alt)
    return item


def _retrieved(future: asyncio.Future[Any]) -> None:
    """An acknowledgement nobody awaited: its failure is logged, not lost."""
    if not future.cancelled() and future.exception() is not None:
        log.info("could not acknowledge an interaction: %s", future.exception())


async def forward_click(
    forwarder: Forwarder | None, click: Click, interaction: discord.Interaction[Any]
) -> bool:
    """Store a click on a table this process does not run, then acknowledge it (type 6).

    False when nothing was forwarded (unsharded, or the table is not open): answer it here.
    The clicked message's id is kept only when it is not ephemeral: the table's process
    makes it the hand message, which only a message in the DM channel can be.
    """
    if forwarder is None or forwarder.runs(click.table_id):
        return False
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        message = None
    data: dict[str, Any] = dict(interaction.data or {})
    stored = await forwarder.forward(
        click.table_id,
        kind="click",
        custom_id=str(data.get("custom_id", "")),
        args=tuple(str(v) for v in data.get("values") or ()),
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
    forwarder: Forwarder | None,
    interaction: discord.Interaction[Any],
    kind: Kind,
    args: tuple[str, ...] = (),
) -> bool:
    """A command used in a DM by a player whose table another process runs: store it, then
    acknowledge it ephemerally ("thinking…", replaced by the table process's answer).
    """
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


def answering_failures(
    client: discord.Client, handler: Callable[[ForwardRow], Awaitable[None]]
) -> Callable[[ForwardRow], Awaitable[None]]:
    """``handler`` with the last resort: when it fails, the user is told that nothing
    changed; the failure goes on to the forwarder, which logs it and marks the row failed.
    """

    async def handle(row: ForwardRow) -> None:
        try:
            await handler(row)
        except Exception:
            reply = WebhookReply(client, row)
            with contextlib.suppress(discord.HTTPException):
                await reply.say(t(reply.lang, "input_failed"))
            raise

    return handle
