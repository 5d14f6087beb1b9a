"""Pictures for the Discord messages: rendered in a worker thread (drawing must not hold up
the event loop), attached as files with their alt texts, told apart by content hash so an
unchanged picture is not uploaded again.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.discord import library
from bot.discord.state import Payload, TableState
from bot.engine.model import EngineError, ListEntry, TableInfo
from bot.render.pictures import (
    Picture,
    final_picture,
    hand_picture,
    running_chart,
    spielliste_chart,
    table_picture,
)
from bot.render.table import player_name, seat_name
from bot.render.texts import Lang
from bot.rules.game import Phase

if TYPE_CHECKING:
    from bot.discord.bot import DokoBot

T = TypeVar("T")
log = logging.getLogger(__name__)
MISSING_PERMISSIONS = 50013  # Discord's code for a refused upload without Attach Files


# -- pictures -------------------------------------------------------------------------------


def picture_key(key: Payload, pictures: Sequence[Picture | None]) -> Payload:
    """A payload key that also tells the pictures apart (by content hash): the same text
    with another trick on the picture is another payload.
    """
    return (*key, tuple(p.digest for p in pictures if p is not None))


def upload(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """An upload of ``data``; a File is read once, so every request makes its own."""
    return library.Upload(io.BytesIO(data), filename=filename, description=description)


def picture_file(picture: Picture) -> discord.File:
    """An upload of the picture."""
    return upload(picture.data, picture.filename, picture.alt)


def send_files(pictures: Sequence[Picture | None]) -> dict[str, Any]:
    """The keyword arguments that attach ``pictures`` to a new message (none: nothing)."""
    files = [picture_file(p) for p in pictures if p is not None]
    return {"files": files} if files else {}


def edit_files(
    pictures: Sequence[Picture | None], enabled: bool, shown: Payload | None = None
) -> dict[str, Any]:
    """The keyword arguments that replace an edited message's pictures: with pictures on,
    given, so a message that showed one and now shows none drops it; off, none. When the
    message shows these very pictures already (``shown``, its payload key), none either:
    an edit without attachments keeps the files, and nothing is uploaded again.
    """
    if not enabled:
        return {}
    shown_digests = shown[-1] if shown else None
    if shown_digests == tuple(p.digest for p in pictures if p is not None):
        return {}
    return {"attachments": [picture_file(p) for p in pictures if p is not None]}


def embeds_with(embed: discord.Embed, pictures: Sequence[Picture | None]) -> list[discord.Embed]:
    """The first picture as the embed's image; each further one in an embed of its own."""
    shown = [p for p in pictures if p is not None]
    if not shown:
        return [embed]
    embed.set_image(url=f"attachment://{shown[0].filename}")
    extra = [
        discord.Embed(colour=embed.colour).set_image(url=f"attachment://{p.filename}")
        for p in shown[1:]
    ]
    return [embed, *extra]


def upload_refused(
    state: TableState,
    error: discord.Forbidden,
    pictures: Sequence[Picture | None],
    file: discord.File | None,
    embed: discord.Embed,
) -> bool:
    """Whether Discord refused a table message's files (no Attach Files, 50013): the table
    then goes on in text in that channel (``state.files_refused``), its pictures off.
    """
    uploading = file is not None or any(p is not None for p in pictures)
    if error.code != MISSING_PERMISSIONS or not uploading or state.files_refused:
        return False
    log.warning(
        "no Attach Files in channel %s: table %s goes on without pictures",
        state.channel_id,
        state.table_id,
    )
    state.files_refused = True
    embed.set_image(url=None)  # it pointed at the picture not sent
    return True


class Pictures:
    """The pictures of one bot's messages; with ``enabled`` False (PICTURES=off) none."""

    def __init__(self, bot: DokoBot, enabled: bool) -> None:
        self.bot = bot
        self.enabled = enabled
        # One drawing thread: several would contend with the event loop for the GIL (the
        # drawing is partly Python) and delay acknowledgements; one keeps that to a share.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)

    async def _draw(self, draw: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, draw)

    async def table(self, info: TableInfo, lang: Lang) -> list[Picture | None]:
        """The trick picture for the running game's table message (none before the play)."""
        pv = info.public
        if not self.enabled or pv is None or pv.phase is not Phase.PLAY:
            return []
        names = [player_name(info, g, lang) for g in range(4)]
        tie = info.rules.dulle_tie
        return [await self._draw(lambda: table_picture(pv, names, lang, tie))]

    async def final(
        self, info: TableInfo, summary: dict[str, Any], entry: ListEntry, lang: Lang, last: bool
    ) -> list[Picture | None]:
        """The last trick and the Spielwert; at the end of the round, the Spielliste chart."""
        if not self.enabled:
            return []
        names = [seat_name(info, entry.seats[g], lang) for g in range(4)]
        upto = [e for e in info.spielliste if e.number <= entry.number] or [entry]

        def draw() -> list[Picture | None]:
            pictures = [final_picture(summary, names, lang)]
            if last:
                pictures.append(self.chart(info, upto, lang))
            return pictures

        return await self._draw(draw)

    def chart(self, info: TableInfo, entries: Sequence[ListEntry], lang: Lang) -> Picture | None:
        """The Spielliste as a chart (None with pictures off or before the first game)."""
        if not self.enabled:
            return None
        names = [seat_name(info, s, lang) for s in range(info.size)]
        return spielliste_chart(entries, names, lang)

    async def stand_chart(self, info: TableInfo, lang: Lang) -> Picture | None:
        """The chart for ``/doko stand``: the Spielliste so far."""
        if not self.enabled:
            return None
        return await self._draw(lambda: self.chart(info, info.spielliste, lang))

    async def hand(
        self, table_id: int, user_id: int, lang: Lang, key: Payload
    ) -> tuple[Picture | None, Payload]:
        """The picture of the hand ``render_hand`` just rendered, and its payload key with
        the picture's hash. Call it right after ``render_hand``: the view is read before
        the first await, so picture and text show the same state.
        """
        if not self.enabled:
            return None, key
        try:
            view = self.bot.engine.view_for(table_id, user_id)
        except EngineError:
            return None, key  # no hand: the dealer sitting out, or the game is gone
        picture = await self._draw(lambda: hand_picture(view, lang))
        return picture, picture_key(key, [picture])

    async def running(
        self, running: Sequence[int], name: str, zeitraum: str, lang: Lang
    ) -> Picture | None:
        """The chart of a player's running points for ``/doko statistik`` (None: off)."""
        if not self.enabled:
            return None
        return await self._draw(lambda: running_chart(running, name, zeitraum, lang))
