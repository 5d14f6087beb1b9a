"""A ping on your turn: Discord does not notify on message edits, so a player who looks away
from the hand DM and the table message would wait forever.

When a human is to act (not an AI, not a paused player whose seat an AI plays), a timer
starts; once the player's delay has passed (``/doko benachrichtigung``: never, at once,
20 s unless chosen, 60 s) the bot sends one short new message, which notifies: a DM line
with a link to the table message or, when the player's DMs are closed, a line in the
table's channel that mentions them and only them. The ping is deleted when the turn passes
(the player acted, an AI took the seat, the game or the table ended), so DMs do not pile up
and a turn costs a send and a delete at most.

Each ping that is out is also in the store (``db.messages``), written right after the send
and removed with the message: the start-up refresh deletes what a stopped process left
behind (:meth:`Pings.sweep`) before this process pings anyone.

A turn is told from the next by what the public view shows, not by the table version:
another player's Re while you are to play bumps the version and leaves your turn (and its
ping) alone, while your own card or call ends it, also when you are to act again (you took
the trick).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Coroutine, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import stored
from bot.discord.budget import Priority
from bot.engine.model import EngineError, Event, TableChanged, TableInfo, TurnReminder
from bot.engine.queries import NOTIFY_DEFAULT_S
from bot.render import slow
from bot.render.texts import t
from db import messages

if TYPE_CHECKING:
    from bot.discord.presenter import Presenter
    from bot.discord.state import TableState

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
# A ping at the first turn of a game waits at most this long for the game's table message.
NEW_MESSAGE_WAIT_S = 2.0
# A player's delay is read from the store at most this often: a choice made in another
# process (another shard) counts from then on; one made here counts at once.
DELAY_CACHE_S = 60.0
# A turn whose hand DM is not up to date yet: looked at this often, waited for at most the
# player's delay again (or this long at least: "at once" waits for the hand too).
SHOWN_POLL_S = 0.5
SHOWN_WAIT_MIN_S = 10.0
NOT_CHOSEN = -1  # what the store answers for a player without a choice of their own


class Unknown(enum.Enum):
    UNKNOWN = "unknown"


UNKNOWN = Unknown.UNKNOWN  # a delay not read yet (``None`` is a choice: never)


def turn_of(info: TableInfo) -> tuple[int, Hashable] | None:
    """The human to act and what marks this turn of theirs; None when no human is to act."""
    pv = info.public
    if info.status != "playing" or pv is None or pv.to_act is None:
        return None
    player = info.player(pv.to_act)
    if player is None or player.user_id is None or player.played_by_ai:
        return None
    # Everything a move of the player to act changes; others' calls change none of it.
    own_calls = sum(1 for seat, _ in pv.calls if seat == pv.to_act)
    armut = None if pv.armut is None else (pv.armut.declined, pv.armut.taker)
    armut_returned = None if pv.armut is None else pv.armut.trumps_returned
    key = (info.game_id, pv.phase, pv.reservations, pv.contract, len(pv.tricks))
    return player.user_id, (*key, len(pv.current_trick), own_calls, armut, armut_returned)


@dataclass(eq=False)
class Turn:
    """One human's turn at one table, and its ping once sent."""

    table_id: int
    guild_id: int
    channel_id: int  # the table's channel (a tournament table's thread)
    game: int | None  # the game's number at the table
    user_id: int
    key: Hashable
    version: int  # the table's version when the turn began
    # Until the delay has passed a timer, not a sleeping task: most turns end before it, and
    # a cancelled task is a reference cycle (its CancelledError's traceback holds the frame
    # that holds the turn) that only the garbage collector frees. At 1,000 tables that was
    # 5 of every 6 objects its full collections found, and what set them off.
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None  # the delay's store read, or the ping under way
    ping: tuple[int, int] | None = None  # (channel id, message id)
    sending: bool = False
    over: bool = False


class Pings:
    """One timer per human turn; the turn passing cancels it or deletes its ping."""

    def __init__(self, presenter: Presenter) -> None:
        self.presenter = presenter
        # Seconds waited per second of a player's delay: tests make 20 s a fraction of one.
        self.time_scale = 1.0
        self.turns: dict[int, Turn] = {}  # by table: one human at a time is to act there
        self._versions: dict[int, int] = {}
        self._delays: dict[int, tuple[int | None, float]] = {}  # user: (delay, read at)
        self._tasks: set[asyncio.Task[None]] = set()  # deletes under way
        self._sweeping: asyncio.Task[None] | None = None  # a stopped process's pings going
        # Set once the start-up sweep read the stored pings: a reminder due at start waits,
        # or the sweep would take it for one of the last process's.
        self._swept = asyncio.Event()

    # -- the engine's events ------------------------------------------------------------

    def on_event(self, event: Event) -> None:
        if isinstance(event, TableChanged):
            self.table_changed(event.table)
        elif isinstance(event, TurnReminder):
            self._spawn(self._remind(event))

    def table_changed(self, info: TableInfo) -> None:
        if info.version < self._versions.get(info.id, -1):
            return  # an older snapshot arriving after a newer one
        if info.status == "closed":
            self._versions.pop(info.id, None)
        else:
            self._versions[info.id] = info.version
        now = turn_of(info)
        turn = self.turns.get(info.id)
        if turn is not None and (now is None or now != (turn.user_id, turn.key)):
            self._end(turn)
            turn = None
        if turn is None and now is not None:
            turn = Turn(
                info.id, info.guild_id, info.channel_id, info.game_number, *now, info.version
            )
            self.turns[info.id] = turn
            delay = self._known_delay(turn.user_id, turn.guild_id)
            if delay is UNKNOWN:
                turn.task = asyncio.create_task(self._read_delay(turn))
            else:
                self._arm(turn, delay)

    def chosen(self, user_id: int, delay_s: int | None) -> None:
        """The user just chose their delay here (``/doko benachrichtigung``): from the next
        turn on.
        """
        self._delays[user_id] = (delay_s, time.monotonic())

    async def sweep(self, table_ids: set[int]) -> None:
        """Delete the pings a stopped process left out: those of ``table_ids`` (the tables
        this process runs) and of closed tables; another live process's stay. Returns once
        they are read; the deletes run on, and no new ping goes out before they are done.
        """
        try:
            stored = await messages.pings(self.presenter.bot.db)
        except Exception:
            # The tables come first: their pings are left for the next start.
            log.exception("could not read the stored pings")
            return
        finally:
            self._swept.set()
        stale = [p for p in stored if p.table_closed or p.table_id in table_ids]
        if not stale:
            return
        log.info("deleting %d pings left from before the start", len(stale))
        self._sweeping = asyncio.create_task(self._sweep(stale))
        self._tasks.add(self._sweeping)
        self._sweeping.add_done_callback(self._tasks.discard)

    async def _sweep(self, stale: list[messages.PingMessage]) -> None:
        await asyncio.gather(*(self._delete((p.channel_id, p.message_id)) for p in stale))

    def close(self) -> None:
        self._sweeping = None
        for turn in self.turns.values():
            self._disarm(turn)
        self.turns.clear()
        for task in self._tasks:
            task.cancel()

    # -- one turn -----------------------------------------------------------------------

    def _end(self, turn: Turn) -> None:
        if self.turns.get(turn.table_id) is turn:
            del self.turns[turn.table_id]
        turn.over = True
        if turn.sending:
            return  # the send under way deletes its ping when it is back
        self._disarm(turn)
        if turn.ping is not None:
            self._spawn(self._delete(turn.ping))

    def _arm(self, turn: Turn, delay: int | None) -> None:
        if delay is not None and not turn.over:
            loop = asyncio.get_running_loop()
            turn.timer = loop.call_later(delay * self.time_scale, self._due, turn, delay)

    def _disarm(self, turn: Turn) -> None:
        if turn.timer is not None:
            turn.timer.cancel()
        if turn.task is not None:
            turn.task.cancel()

    def _due(self, turn: Turn, delay: int) -> None:
        turn.timer = None
        turn.task = asyncio.create_task(self._run(turn, delay))

    async def _read_delay(self, turn: Turn) -> None:
        try:
            choice = await self.presenter.bot.engine.notify_delay(turn.user_id, NOT_CHOSEN)
            self._delays[turn.user_id] = (choice, time.monotonic())
            delay = self._known_delay(turn.user_id, turn.guild_id)
            self._arm(turn, None if delay is UNKNOWN else delay)
        except Exception:
            log.exception("reading the ping delay of user %s failed", turn.user_id)
        finally:
            turn.task = None

    async def _run(self, turn: Turn, delay: int) -> None:
        """The ping of a turn whose delay has passed."""
        try:
            # Under load a hand reaches its player late (it waits for the budget): the delay
            # counts from when the hand shows the turn, all of it (the player's time, not the
            # bot's); a ping ahead of it is noise and two requests. Not for ever: a hand that
            # is never brought up to date is pinged.
            # The game's first hand DM is a new message, which notifies by itself: it is
            # waited for as long as it takes.
            waited, step = 0.0, SHOWN_POLL_S * self.time_scale
            limit = max(delay, SHOWN_WAIT_MIN_S) * self.time_scale
            if not self.shown(turn):
                while not self.shown(turn) and (waited < limit or self.hand_on_its_way(turn)):
                    await asyncio.sleep(step)
                    waited += step
                if self.shown(turn):
                    await asyncio.sleep(delay * self.time_scale)
            # A new game's table message goes out a moment after its first turn began; the
            # link should lead to it. Only then: a busy table's job runs on and on.
            state = self.presenter.tables.get(turn.table_id)
            if state is not None and state.job is not None and state.message_game != turn.game:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(state.job.wait(), NEW_MESSAGE_WAIT_S)
            if self._sweeping is not None:
                await asyncio.shield(self._sweeping)  # shielded: it serves every turn
            if turn.over or not self._still_on(turn):
                return
            turn.sending = True
            try:
                turn.ping = await self._send(turn, state)
                await self._store(turn, turn.ping)
            finally:
                turn.sending = False
            if turn.over:
                await self._delete(turn.ping)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("pinging user %s at table %s failed", turn.user_id, turn.table_id)

    def hand_on_its_way(self, turn: Turn) -> bool:
        """Whether the game's first hand DM has not gone out yet."""
        state = self.presenter.tables.get(turn.table_id)
        if state is None or self.presenter.user(turn.user_id).dms_closed:
            return False
        hand = state.hands.get(turn.user_id)
        game_id = turn.key[0] if isinstance(turn.key, tuple) else None
        return hand is None or hand.game_id != game_id

    def shown(self, turn: Turn) -> bool:
        """Whether the player's hand DM shows the table as it was when the turn began (or
        there is no hand DM to wait for: closed DMs, one not known since a restart).
        """
        state = self.presenter.tables.get(turn.table_id)
        if state is None or self.presenter.user(turn.user_id).dms_closed:
            return True
        hand = state.hands.get(turn.user_id)
        if hand is None:
            return False  # the game's first hand DM is on its way
        if hand.shown is None:
            return True
        game_id = turn.key[0] if isinstance(turn.key, tuple) else None
        return hand.game_id == game_id and hand.shown[0] >= turn.version

    def _known_delay(self, user_id: int, guild_id: int) -> int | Unknown | None:
        """The user's own choice (until they made one, the server's default) as last read
        (``DELAY_CACHE_S``); UNKNOWN: to be read from the store.
        """
        cached = self._delays.get(user_id)
        if cached is None or time.monotonic() - cached[1] >= DELAY_CACHE_S:
            return UNKNOWN
        if cached[0] == NOT_CHOSEN:
            return self.presenter.notify_defaults.get(guild_id, NOTIFY_DEFAULT_S)
        return cached[0]

    def _still_on(self, turn: Turn) -> bool:
        """Whether the engine's table still waits for this very turn."""
        try:
            info = self.presenter.bot.engine.table(turn.table_id)
        except EngineError:
            return False
        return turn_of(info) == (turn.user_id, turn.key)

    async def _send(
        self, turn: Turn, state: TableState | None, said: str | None = None
    ) -> tuple[int, int]:
        """The ping (or ``said`` in its place): a DM, or a mention in the table's channel
        when the DMs are closed.
        """
        bot, user = self.presenter.bot, self.presenter.user(turn.user_id)
        url = f"https://discord.com/channels/{turn.guild_id}/{turn.channel_id}"
        if state is not None and state.message_id is not None and state.message_game == turn.game:
            url = f"{url}/{state.message_id}"  # else the channel: the message is on its way
        text = f"{said or t(user.lang, 'ping_turn', table=turn.table_id)} {url}"
        if not user.dms_closed:
            try:
                presenter = self.presenter
                channel_id = await stored.dm_channel(
                    bot.db, bot, presenter.budget, turn.user_id, user
                )
                async with presenter.budget.turn(Priority.HAND):
                    dm = await bot.get_partial_messageable(channel_id).send(text)
                await presenter.dms.delivered(turn.user_id)  # DMs open (again)
                return channel_id, dm.id
            except discord.Forbidden as error:
                if error.code != DMS_CLOSED:
                    raise
                log.info("DMs of user %s are closed; pinging in the table's channel", turn.user_id)
                await self.presenter.dms.closed(turn.user_id)  # stored; the table names them
        only_them = discord.AllowedMentions(
            everyone=False, users=[discord.Object(turn.user_id)], roles=False, replied_user=False
        )
        channel = bot.get_partial_messageable(turn.channel_id)
        async with self.presenter.budget.turn(Priority.HAND):
            message = await channel.send(f"<@{turn.user_id}> {text}", allowed_mentions=only_them)
        return turn.channel_id, message.id

    async def _store(self, turn: Turn, ping: tuple[int, int]) -> None:
        """Keep the ping in the store, so that a restarted process deletes it."""
        try:
            await messages.save_ping(self.presenter.bot.db, turn.table_id, turn.user_id, *ping)
        except Exception:
            # The ping stands and is deleted with the turn all the same.
            log.exception("could not store ping %s at table %s", ping[1], turn.table_id)

    async def _delete(self, ping: tuple[int, int]) -> None:
        channel_id, message_id = ping
        partial = self.presenter.bot.get_partial_messageable(channel_id)
        try:
            async with self.presenter.budget.turn(Priority.HAND):
                await partial.get_partial_message(message_id).delete()
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted already (by the player, in a DM), or never deletable
        except discord.HTTPException as error:
            # The row stays: the next start tries again.
            log.warning("could not delete ping %s in %s: %s", message_id, channel_id, error)
            return
        try:
            await messages.forget_ping(self.presenter.bot.db, message_id)
        except Exception:
            log.exception("could not forget ping %s", message_id)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- a slow table's reminders (bot.engine.slow) ---------------------------------------

    async def _remind(self, event: TurnReminder) -> None:
        """The reminder takes the turn's ping's place (the ping not yet sent, or the one
        out, deleted first): a turn has one notification out at a time, and it is deleted
        with the turn like a ping.
        """
        try:
            await self._swept.wait()
            if self._sweeping is not None:
                await asyncio.shield(self._sweeping)
            info = self.presenter.bot.engine.table(event.table_id)
            self.table_changed(info)  # the turn is known here also right after a restart
            turn = self.turns.get(event.table_id)
            if turn is None or turn.user_id != event.user_id or turn.sending:
                return
            self._disarm(turn)
            if turn.ping is not None:
                old, turn.ping = turn.ping, None
                await self._delete(old)
            user = self.presenter.user(turn.user_id)
            said = slow.reminder_text(event, info.disconnect_policy, user.lang)
            turn.sending = True
            try:
                turn.ping = await self._send(turn, self.presenter.tables.get(turn.table_id), said)
                await self._store(turn, turn.ping)
            finally:
                turn.sending = False
            if turn.over:
                await self._delete(turn.ping)
        except Exception:
            log.exception("reminding user %s at table %s failed", event.user_id, event.table_id)
