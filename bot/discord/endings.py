"""Every hand ends well: when a game ends, each seated human's hand message of that game
(the DM, or the ephemeral one while its token lives) is edited to the result; its one
button opens the player's Spielanalyse. A game dealt again (Schmeißen, an Armut nobody
took) ends the same way, its hand message saying why, without buttons.

The presenter notes a GameOver here and marks the humans' hand jobs; a hand job shows the
result first, then sends the next game's hand as a new DM, so each game keeps exactly one
hand message. A click that ended the game shows the result in the clicked message at once
(``answers.answer_click``) and tells this service, so the DM is not edited twice.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.budget import GLOBAL_PER_S, Priority, RequestBudget, hand_turn
from bot.discord.components import Components
from bot.discord.pictures import edit_files
from bot.discord.state import (
    HandMessage,
    Payload,
    TableState,
    UserState,
    payload_key,
)
from bot.engine.model import GameOver, ListEntry, TableInfo
from bot.render.analyse import analyse_controls
from bot.render.hand import game_over_message, hand_result_message
from bot.render.table import redeal_text
from bot.render.texts import Lang
from bot.rules.game import Redeal


@dataclass
class HandEnd:
    """A finished game's result, for one user's hand message of it; or, for a game dealt
    again, why (``redeal``: the reason and the seat that threw in or offered the Armut).
    """

    table_id: int
    game_id: int
    info: TableInfo  # the table as the game ended: whose names the summary's seats are
    entry: ListEntry | None
    summary: dict[str, Any] | None
    hand: HandMessage | None  # the user's hand message of that game, as the game ended
    redeal: tuple[Redeal | None, int | None] | None = None


class HandEndings:
    """Each user's last finished game, and whose hand messages do not show it yet."""

    def __init__(
        self,
        client: discord.Client,
        ephemeral_window: float,
        pictures: bool = False,
        budget: RequestBudget | None = None,
    ) -> None:
        self.client = client
        self.budget = budget or RequestBudget(GLOBAL_PER_S)
        self.ephemeral_window = ephemeral_window
        # With pictures on, a hand message shows one: the result drops it.
        self.no_files = edit_files([], pictures)
        self.ends: dict[int, HandEnd] = {}  # by user id: one game each, the latest
        self.pending: dict[tuple[int, int], HandEnd] = {}  # by (table id, user id)

    def note(self, state: TableState, event: GameOver) -> list[int]:
        """Keep the result for every human at the table; their user ids, whose hand jobs
        should run now.
        """
        info = state.info
        if info is None:
            return []
        users = []
        for seat in info.seats:
            if seat is None or seat.user_id is None:
                continue
            hand = state.hands.get(seat.user_id)
            if hand is not None and hand.game_id != event.game_id:
                hand = None
            end = HandEnd(state.table_id, event.game_id, info, event.entry, event.summary, hand)
            self.ends[seat.user_id] = self.pending[(state.table_id, seat.user_id)] = end
            users.append(seat.user_id)
        return users

    def note_redeal(
        self, state: TableState, old: TableInfo, reason: Redeal | None, seat: int | None
    ) -> list[int]:
        """The game ``old`` shows was dealt again: every human at the table whose hand
        message shows it is told why; their user ids, whose hand jobs should run now.
        """
        users = []
        for table_seat in old.seats:
            if table_seat is None or table_seat.user_id is None:
                continue
            hand = state.hands.get(table_seat.user_id)
            if hand is None or hand.game_id != old.game_id or old.game_id is None:
                continue
            end = HandEnd(state.table_id, old.game_id, old, None, None, hand, (reason, seat))
            self.pending[(state.table_id, table_seat.user_id)] = end
            users.append(table_seat.user_id)
        return users

    def render(
        self, info: TableInfo, user_id: int, lang: Lang
    ) -> tuple[str, discord.ui.View, Payload] | None:
        """The user's hand message once the game ``info`` shows is over: its result, no
        buttons; None while it runs (or its result is not known here).
        """
        end = self.ends.get(user_id)
        if end is None or end.table_id != info.id or end.game_id != info.game_id:
            return None
        return self._payload(end, user_id, lang)

    def result(
        self, table_id: int, user_id: int, game_id: int | None, lang: Lang
    ) -> tuple[str, discord.ui.View] | None:
        """The result message of game ``game_id`` for this user and its Spielanalyse button,
        if it is known here.
        """
        end = self.ends.get(user_id)
        if end is None or end.table_id != table_id or end.game_id != game_id:
            return None
        return self._payload(end, user_id, lang)[:2]

    def shown(self, table_id: int, user_id: int, message_id: int) -> None:
        """A click's answer showed the result in message ``message_id``: if that is the
        game's hand message, its hand job has nothing left to show.
        """
        end = self.pending.get((table_id, user_id))
        if end is not None and end.hand is not None and end.hand.message_id == message_id:
            del self.pending[(table_id, user_id)]

    async def show(self, state: TableState, user_id: int, user: UserState) -> None:
        """Edit the finished game's hand message to its result (the caller holds the user's
        hand lock, so the next game's hand goes out after it).
        """
        end = self.pending.pop((state.table_id, user_id), None)
        if end is None:
            return
        content, ui, key = self._payload(end, user_id, user.lang)
        if user.dms_closed:
            await self._show_ephemeral(user, end.game_id, content, ui, key)
            return
        hand = self._hand(state, user_id, end)
        if hand is None or hand.key == key:
            return
        fields = dict(content=content, view=ui, **self.no_files)
        editor = hand.by_token()  # the player's last click on it: off the global budget
        try:
            if editor is not None and not await editor.try_edit(hand.message_id, **fields):
                hand.editor = editor = None
            if editor is None:
                message = self.client.get_partial_messageable(hand.channel_id)
                async with hand_turn(self.budget, user, Priority.HAND):
                    await message.get_partial_message(hand.message_id).edit(**fields)
        except (discord.NotFound, discord.Forbidden):
            return  # deleted, or the DMs closed since: the table message shows the result
        hand.key = key

    @staticmethod
    def _hand(state: TableState, user_id: int, end: HandEnd) -> HandMessage | None:
        hand = state.hands.get(user_id)
        if hand is None or hand.game_id != end.game_id:
            hand = end.hand  # the next game's DM went out already: the old one is kept here
        return hand

    def by_token(self, state: TableState, user_id: int) -> bool:
        """Whether the finished game's hand, still to show its result, is edited through
        an interaction (its owner's last click on it).
        """
        end = self.pending.get((state.table_id, user_id))
        hand = self._hand(state, user_id, end) if end is not None else None
        return hand is not None and hand.by_token() is not None

    @staticmethod
    def _payload(end: HandEnd, user_id: int, lang: Lang) -> tuple[str, discord.ui.View, Payload]:
        if end.redeal is not None:
            why = redeal_text(end.info, *end.redeal, lang)
            content = f"{game_over_message(end.info, user_id, lang)}\n{why}"
            ui = Components(end.info.id, end.info.version, ())
            return content, ui, payload_key(content, None, ui)
        assert end.summary is not None and end.entry is not None
        content = hand_result_message(end.info, end.summary, end.entry, end.game_id, user_id, lang)
        # The game is over: only the player's own Spielanalyse is left to open.
        controls = analyse_controls(end.info, end.entry, end.game_id, user_id, lang)
        ui = Components(end.info.id, end.info.version, controls)
        return content, ui, payload_key(content, None, ui)

    async def _show_ephemeral(
        self, user: UserState, game_id: int, content: str, ui: discord.ui.View, key: Payload
    ) -> None:
        """The ephemeral hand of that game, while its interaction token lives."""
        ix = user.ephemeral
        if ix is None or user.ephemeral_game != game_id or user.ephemeral_key == key:
            return
        if time.monotonic() - user.ephemeral_at > self.ephemeral_window:
            user.ephemeral = None
            return
        try:
            await ix.edit_original_response(content=content, view=ui, **self.no_files)
            user.ephemeral_key = key
        except discord.HTTPException:
            user.ephemeral = None  # dismissed or expired
