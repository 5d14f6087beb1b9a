"""A replay thread for every finished game of a table that chose one (``protokoll``).

When a game's final table message has gone out, a thread is opened on that message (one
request) and the protocol's first page posted in it (a second one); each takes a turn of the
request budget, behind the players' hands and table messages. Stepping through the pages is
an interaction update of that one message (``protokoll:<game id>:<step>:<slot>``, written
and read by the codec), which costs nothing of the global budget. Every page is drawn from
the stored ``doko-game/1`` record, so buttons work after a restart and for anyone who can see
the thread; the thread id is stored before its message goes out, so a restarted process
never opens a second thread for a game.

Without Create Public Threads or Send Messages in Threads the table plays on without
threads, and the host is told once why (at ``/doko tisch``, or by DM when the permission was
taken away later).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.discord import codec
from bot.discord import stored as stored_ids
from bot.discord.budget import Priority
from bot.discord.components import STYLES, Components
from bot.discord.permissions import REPLAY_FLAGS, missing
from bot.discord.pictures import picture_file
from bot.discord.state import TableState
from bot.engine.model import TableInfo
from bot.render.replay import Nav, Protocol, page_picture, protocol, replay_page, thread_name
from bot.render.texts import Lang, lang_of, t
from db import replays
from db.errors import StoreError

if TYPE_CHECKING:
    from bot.discord.presenter import Presenter

log = logging.getLogger(__name__)
NOT_HERE = 50024  # Discord: cannot execute action on this channel type (a thread)
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: a game is talked about for a few days


class ReplayButtons(Components):
    """First trick, back, next, last trick under a protocol page."""

    def __init__(self, game_id: int, navs: list[Nav]) -> None:
        super().__init__()
        for nav in navs:
            button = {
                "type": 2,
                "style": STYLES["secondary"],
                "disabled": nav.disabled,
                "label": nav.label,
                "custom_id": codec.replay_id(game_id, nav.step, nav.slot),
            }
            self._place(button, 1, 0)


def problem_text(have: discord.Permissions, lang: Lang) -> str | None:
    """Why a table gets no replay threads in a channel with permissions ``have``; None: none."""
    lacking = missing(have, REPLAY_FLAGS)
    if not lacking:
        return None
    names = ", ".join(t(lang, f"perm_{name}") for name in lacking)
    return t(lang, "rp_no_thread", missing=names)


async def render(
    proto: Protocol, step: int, lang: Lang, pictures: bool
) -> tuple[discord.Embed, ReplayButtons, list[discord.File]]:
    """A page with its buttons and, with pictures, its trick picture (drawn off the loop)."""
    embed, navs = replay_page(proto, step, lang)
    files: list[discord.File] = []
    if pictures:
        picture = await asyncio.to_thread(page_picture, proto, step, lang)
        if picture is not None:
            embed.set_image(url=f"attachment://{picture.filename}")
            files.append(picture_file(picture))
    return embed, ReplayButtons(proto.game_id, navs), files


class ReplayThreads:
    """The replay threads of one presenter's tables."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        self.told: set[int] = set()  # tables whose host was told why there is no thread
        self.refused: set[int] = set()  # tables whose channel refused a thread
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: dict[int, asyncio.Task[None]] = {}  # each table's latest thread task

    def game_ended(self, state: TableState, info: TableInfo, game_id: int) -> None:
        """The final message of game ``game_id`` went out: open its thread, in the background
        (the table message's job does not wait for it).
        """
        if state.message_id is None or info.id in self.refused:
            return
        # One table's threads open in order: a refusal for one game spares the next the try.
        task = asyncio.create_task(
            self._after(
                self._last.get(info.id),
                info,
                game_id,
                state.message_id,
                state.files_refused,
            )
        )
        self._last[info.id] = task
        self._tasks.add(task)
        task.add_done_callback(functools.partial(self._done, info.id))

    def _done(self, table_id: int, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if self._last.get(table_id) is task:
            del self._last[table_id]

    async def _after(
        self,
        previous: asyncio.Task[None] | None,
        info: TableInfo,
        game_id: int,
        message_id: int,
        no_files: bool,
    ) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        if info.id not in self.refused:
            await self.open_thread(info.id, info, game_id, message_id, no_files)

    async def idle(self) -> None:
        """Until every thread being opened is open (tests and benchmarks)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def open_thread(
        self, table_id: int, info: TableInfo, game_id: int, message_id: int, no_files: bool
    ) -> None:
        bot = self.presenter.bot
        try:
            if not await replays.table_replay(bot.db, table_id):
                return
            if await replays.replay_thread(bot.db, game_id) is not None:
                return  # opened (or refused) before: never a second thread
            record = await bot.engine.finished_record(info.guild_id, game_id)
            proto = None if record is None else protocol(record, game_id)
            if proto is None:
                return
            await self._post(proto, info, message_id, no_files)
        except StoreError as error:
            log.warning("game %s: no replay thread (%s)", game_id, error)
        except (discord.HTTPException, ValueError) as error:  # ValueError: guild not cached
            log.warning("game %s: no replay thread (%s)", game_id, error)

    async def _post(
        self, proto: Protocol, info: TableInfo, message_id: int, no_files: bool
    ) -> None:
        presenter, db = self.presenter, self.presenter.bot.db
        lang = presenter.public_lang(info.guild_id)
        # A thread is made in a guild: the partial channel must know it (the guild's cache).
        channel = presenter.bot.get_partial_messageable(info.channel_id, guild_id=info.guild_id)
        target: discord.abc.Messageable = channel
        if not isinstance(presenter.bot.get_channel(info.channel_id), discord.Thread):
            try:
                async with presenter.budget.turn(Priority.TABLE):
                    target = await channel.get_partial_message(message_id).create_thread(
                        name=thread_name(proto, lang), auto_archive_duration=ARCHIVE_MINUTES
                    )
            except discord.Forbidden:
                await replays.save_replay_thread(db, proto.game_id, None, None)
                await self._refused(info, "create_public_threads")
                return
            except discord.HTTPException as error:
                if error.code != NOT_HERE:
                    raise
        # A table that plays in a thread (a tournament's) keeps its protocol there: Discord
        # starts no thread in a thread.
        thread_id = getattr(target, "id", info.channel_id)
        await replays.save_replay_thread(db, proto.game_id, thread_id, None)
        embed, view, files = await render(
            proto, 0, lang, presenter.pictures.enabled and not no_files
        )
        try:
            async with presenter.budget.turn(Priority.TABLE):
                sent = await target.send(embed=embed, view=view, files=files)
        except discord.Forbidden:
            await self._refused(info, "send_messages_in_threads")
            return
        await replays.save_replay_thread(db, proto.game_id, thread_id, sent.id)

    async def _refused(self, info: TableInfo, flag: str) -> None:
        """The channel took permission ``flag`` away: no more threads there; the host learns
        why, once.
        """
        self.refused.add(info.id)
        log.warning("table %s: no replay threads in channel %s", info.id, info.channel_id)
        if info.id in self.told:
            return
        self.told.add(info.id)
        presenter = self.presenter
        user = presenter.user(info.host_id)
        if user.dms_closed:
            return
        # A DM speaks the host's language.
        text = t(user.lang, "rp_no_thread", missing=t(user.lang, f"perm_{flag}"))
        try:
            channel_id = await stored_ids.dm_channel(
                presenter.bot.db, presenter.bot, presenter.budget, info.host_id, user
            )
            async with presenter.budget.turn(Priority.TABLE):
                await presenter.channel(channel_id).send(text)
        except discord.HTTPException:
            pass  # DMs closed: the table message goes on all the same

    async def click(self, interaction: discord.Interaction[Any]) -> None:
        """A page button: the clicked message shows that page now (the server's language)."""
        data: dict[str, Any] = dict(interaction.data or {})
        try:
            step = codec.decode_replay(str(data.get("custom_id", "")))
        except codec.CodecError as error:
            log.info("refused a replay button: %s", error)
            step = None
        record = None
        if step is not None and interaction.guild_id is not None:
            record = await self.presenter.bot.engine.finished_record(
                interaction.guild_id, step.game_id
            )
        proto = None if record is None or step is None else protocol(record, step.game_id)
        if proto is None or step is None:
            await interaction.response.send_message(
                t(lang_of(interaction.locale), "rp_gone"), ephemeral=True
            )
            return
        lang = self.presenter.public_lang(interaction.guild_id)
        files_ok = bool(interaction.app_permissions.attach_files)
        pictures = self.presenter.pictures.enabled and files_ok
        embed, view, files = await render(proto, step.step, lang, pictures)
        # New attachments replace the old picture; page 0 has none and drops it.
        await interaction.response.edit_message(
            embed=embed, view=view, attachments=files if pictures else discord.utils.MISSING
        )
