"""The ids of the messages the presenter keeps in step, in the store (db.messages): saved as
they are sent, read back before a recovered table's first update, so a restarted process
edits the same messages. And each user's DM channel (db.dm_channels), created once.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable

import discord

from bot.discord.budget import Priority, RequestBudget, hand_turn
from bot.discord.state import HandMessage, TableState, UserState
from db import dm_channels, messages
from db.database import Database
from db.errors import StoreError

log = logging.getLogger(__name__)
# DM channels being created, one at a time per client (dm_channel).
_creating: weakref.WeakKeyDictionary[discord.Client, asyncio.Lock] = weakref.WeakKeyDictionary()


async def restore(db: Database, state: TableState, user: Callable[[int], UserState]) -> None:
    """Read the table's stored message ids, once; what this process knows already (a
    message it sent or adopted meanwhile) is newer and stays.
    """
    if state.restored:
        return
    async with state.restore_lock:
        if state.restored:
            return
        found = await messages.table_messages(db, state.table_id)
        if found.table is not None and state.message_id is None:
            state.message_id = found.table.message_id
            state.message_game = found.table.game_number
            state.saved_message = (state.message_id, state.message_game)
        for hand in found.hands:
            state.saved_hands.setdefault(hand.user_id, (hand.game_id, hand.message_id))
            if hand.user_id not in state.hands:
                state.hands[hand.user_id] = HandMessage(
                    hand.game_id, hand.channel_id, hand.message_id, ()
                )
            who = user(hand.user_id)
            if who.dm_channel_id is None:
                who.dm_channel_id = hand.channel_id
        state.restored = True


# A message id the store refuses (disk full) is not worth an answer or a message job: the
# message was sent and shows; only a restart would post it anew instead of editing it. The
# next save of the same message tries again.


async def save_table_message(db: Database, state: TableState) -> None:
    if state.message_id is None:
        return
    shown = (state.message_id, state.message_game)
    if shown != state.saved_message:
        try:
            await messages.save_table_message(
                db, state.table_id, state.message_id, state.message_game
            )
        except StoreError as error:
            log.warning("table %s: message id not stored (%s)", state.table_id, error)
            return
        state.saved_message = shown


async def save_hand(db: Database, state: TableState, user_id: int) -> None:
    hand = state.hands[user_id]
    saved = (hand.game_id, hand.message_id)
    if saved != state.saved_hands.get(user_id):
        try:
            await messages.save_hand_message(
                db, state.table_id, user_id, hand.game_id, hand.channel_id, hand.message_id
            )
        except StoreError as error:
            log.warning("table %s: hand message id not stored (%s)", state.table_id, error)
            return
        state.saved_hands[user_id] = saved


async def dm_channel(
    db: Database, client: discord.Client, budget: RequestBudget, user_id: int, user: UserState
) -> int:
    """The user's DM channel: created once (a request against the global limit), stored."""
    if user.dm_channel_id is None:
        user.dm_channel_id = await dm_channels.dm_channel(db, user_id)
    if user.dm_channel_id is not None:
        return user.dm_channel_id
    # One at a time: Create DM has one bucket for the whole bot, which discord.py learns
    # from an answer; new players' DMs opened together before the first answer came back
    # got 429s (bench discord --fresh-players: 10 at 50 tables).
    async with _creating.setdefault(client, asyncio.Lock()):
        if user.dm_channel_id is not None:  # a second hand job of the user waited here
            return user.dm_channel_id
        async with hand_turn(budget, user, Priority.HAND_NOW):
            channel = await client.create_dm(discord.Object(user_id))
    user.dm_channel_id = channel.id
    try:
        await dm_channels.save_dm_channel(db, user_id, channel.id)
    except StoreError as error:  # kept in memory; a restart creates it once more
        log.warning("user %s: DM channel not stored (%s)", user_id, error)
    return channel.id
