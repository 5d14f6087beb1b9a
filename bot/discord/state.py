"""What the message-sync service keeps per table and per user, and the job that coalesces
a burst of changes into one message edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.engine.model import ListEntry, TableInfo
from bot.render.texts import Lang
from bot.rules.game import Redeal

log = logging.getLogger(__name__)

Payload = tuple[Any, ...]


def payload_key(
    content: str | None, embed: discord.Embed | None, view: discord.ui.View | None
) -> Payload:
    return (
        content,
        embed.to_dict() if embed is not None else None,
        view.to_components() if view is not None else None,
    )


# Pauses before a message job tries again after a transient failure, one per failure in a
# row (about a minute in all); a later change tries again in any case.
RETRY_AFTER_S = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)


def transient(error: Exception) -> bool:
    """A failure that trying again later can mend: Discord's 5xx (and a 429 discord.py gave
    up on), a broken connection, a timeout; not a refusal (403, 404, 400).
    """
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, (aiohttp.ClientError, OSError, TimeoutError, discord.RateLimited))


class Coalescer:
    """Run ``work`` after ``mark``; marks during a run cause one more run, never two at once.

    Runs start at least ``interval`` apart. A mark may say how long its change can wait
    (``delay``): marks within that time share one run, and a mark with less time to wait
    moves the run earlier.
    """

    def __init__(
        self, work: Callable[[], Awaitable[None]], interval: float | Callable[[], float] = 0.0
    ) -> None:
        self._work = work
        self._interval = interval
        self._dirty = False
        self._due = math.inf  # the latest time the pending changes should go out
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last = -1e9
        self._failures = 0  # transient failures in a row

    def mark(self, delay: float = 0.0) -> None:
        self._dirty = True
        due = time.monotonic() + delay
        if due < self._due:
            self._due = due
            self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._dirty:
            gap = self._interval() if callable(self._interval) else self._interval
            wait = max(self._due, self._last + gap) - time.monotonic()
            if wait > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue  # a mark may have moved the run earlier
            self._dirty = False
            self._due = math.inf
            self._last = time.monotonic()
            try:
                await self._work()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if transient(error) and self._failures < len(RETRY_AFTER_S):
                    # Discord had a hiccup (a 503 discord.py does not retry, 5xx after its
                    # retries, a broken connection): the latest state goes out a bit later.
                    pause = RETRY_AFTER_S[self._failures]
                    self._failures += 1
                    log.warning(
                        "updating a Discord message failed (%s); again in %s s", error, pause
                    )
                    self._dirty = True
                    self._due = min(self._due, time.monotonic() + pause)
                    continue
                self._failures = 0
                log.exception("updating a Discord message failed")
            else:
                self._failures = 0

    async def wait(self) -> None:
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()


# An interaction token lives 15 minutes; edits through it are not tried in its last minute.
TOKEN_EDIT_WINDOW_S = 14 * 60.0


@dataclass
class TokenEditor:
    """A live interaction that can edit messages outside Discord's global limit: its
    original response (``original``: the clicked message, or a deferred command's answer)
    and its follow-ups, through the interaction's webhook, for 15 minutes.
    """

    interaction: discord.Interaction[Any]
    original: int | None
    followups: set[int] = field(default_factory=set)
    at: float = field(default_factory=time.monotonic)

    def live(self) -> bool:
        return time.monotonic() - self.at < TOKEN_EDIT_WINDOW_S

    def can_edit(self, message_id: int | None) -> bool:
        mine = message_id is not None and (
            message_id == self.original or message_id in self.followups
        )
        return mine and self.live()

    def can_send(self, channel_id: int) -> bool:
        """Whether a follow-up of it lands in ``channel_id`` (the interaction's channel)."""
        return self.live() and self.interaction.channel_id == channel_id

    async def edit(self, message_id: int, **fields: Any) -> None:
        if message_id == self.original:
            await self.interaction.edit_original_response(**fields)
        else:
            await self.interaction.followup.edit_message(message_id, **fields)

    async def try_edit(self, message_id: int, **fields: Any) -> bool:
        """:meth:`edit`; False when the token no longer edits (the caller forgets it)."""
        try:
            await self.edit(message_id, **fields)
        except discord.HTTPException as error:
            if not token_refused(error):
                raise
            return False
        return True

    async def send(self, **fields: Any) -> discord.WebhookMessage:
        message = await self.interaction.followup.send(wait=True, **fields)
        self.followups.add(message.id)
        return message


def token_refused(error: discord.HTTPException) -> bool:
    """The interaction's webhook no longer edits (token expired, 401 50027; unknown
    webhook, 10015): the channel's own route takes over.
    """
    return error.status == 401 or getattr(error, "code", 0) in (10015, 50027)


@dataclass
class HandMessage:
    game_id: int
    channel_id: int
    message_id: int
    key: Payload  # () when unknown (read back after a restart): the next update edits
    # The table version and language the message shows: a hand job that finds the table at
    # that version has nothing to render (a click's answer showed it already).
    shown: tuple[int, Lang] | None = None
    # The user's last click on it (or the one that sent it): edits it off the global budget.
    editor: TokenEditor | None = None

    def by_token(self) -> TokenEditor | None:
        editor = self.editor
        return editor if editor is not None and editor.can_edit(self.message_id) else None


@dataclass
class UserState:
    lang: Lang = "de"
    dm_channel_id: int | None = None
    dms_closed: bool = False
    # The last ephemeral hand this user opened: editable while its token lives.
    ephemeral: discord.Interaction[Any] | None = None
    ephemeral_game: int | None = None
    ephemeral_at: float = 0.0
    ephemeral_key: Payload | None = None
    # Held while the hand is rendered and sent, by a click's answer or the hand job: whoever
    # renders later also edits later, so an older state never lands on top of a newer one.
    hand_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Clicks of this user being answered: their answers show the hand on the interaction
    # (not against the global limit), so the hand job waits for them, then sends the rest.
    answering: int = 0
    has_turn: bool = False  # the hand job holds a turn of the global budget (budget.py)


@dataclass
class TableState:
    table_id: int
    channel_id: int
    info: TableInfo | None = None
    message_id: int | None = None
    message_game: int | None = None  # game number shown; None while it is the lobby
    message_key: Payload | None = None
    saved_message: tuple[int, int | None] | None = None  # (message id, game) as stored
    finals: dict[int, tuple[dict[str, Any], ListEntry, int]] = field(default_factory=dict)
    finished: set[int] = field(default_factory=set)  # games whose final message is shown
    # The final message shown last, and whether it says the round is over: SessionOver may
    # arrive after it went out (the engine stores the round in between).
    last_final: tuple[dict[str, Any], ListEntry, int] | None = None
    last_final_ends: bool = False
    last_game_id: int | None = None
    session_over: bool = False
    done: bool = False
    hands: dict[int, HandMessage] = field(default_factory=dict)
    saved_hands: dict[int, tuple[int, int]] = field(default_factory=dict)  # (game, message)
    # The stored message ids are read once, before the first update of the table or a hand.
    restored: bool = False
    restore_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hand_jobs: dict[int, Coalescer] = field(default_factory=dict)
    job: Coalescer | None = None
    # (game id dealt again, why, the seat that threw in or offered the Armut)
    redeal: tuple[int, Redeal | None, int | None] | None = None
    # The bot may not attach files in the table's channel (no Attach Files): text only there.
    files_refused: bool = False
    # The global request budget (budget.py): when the message was last sent or edited,
    # what it showed then, and whether the running sync holds a turn for its next request.
    edited_at: float = 0.0
    synced: tuple[Any, ...] | None = None
    has_turn: bool = False
    starting: bool = False  # a start click's answer shows the game's message (answers.py)
    # The latest interaction that can edit the table message (or post its next one) off
    # the global budget: a /doko tisch, a lobby or start click (answers.py).
    editor: TokenEditor | None = None

    def by_token(self) -> TokenEditor | None:
        editor = self.editor
        return editor if editor is not None and editor.can_edit(self.message_id) else None
