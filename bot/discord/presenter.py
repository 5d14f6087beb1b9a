"""Keeps what players see in step with the engine: the public table message and private hands.

(The table message itself is posted and edited by table_message.py; the hands here.)

Engine events only mark a table or a hand as changed; one task per table and per hand then
renders the latest state, so bursts of changes coalesce. The public table message is edited
through the channel route at most about once per second per table, a change waiting
TABLE_EDIT_DELAY for the ones that follow it at once (a human's card and the AIs' answers go
out as one edit, not two a second apart). A hand goes to the DM at
once when its owner is to act; other changes (AIs or other players playing on) wait up to
HAND_EDIT_DELAY, so a run of moves becomes one DM edit instead of one each. A click's answer
shows the hand after the AIs' replies, and the hand job skips a hand whose DM shows the
table's version already, so a click costs one hand render and one edit, not two.
A user whose DMs are closed (403, code 50007) is remembered and served ephemerally instead.
Public messages speak the guild's language (the ``guild_locale`` its interactions carry,
remembered per guild), hands the user's.

The ids of the table message and of each player's hand message are stored (db.messages) as
they are sent and read back before a recovered table's first update, so a restarted process
edits the same messages; one that is gone (404) is sent again and the new id stored.

House rules: a game thrown in (Schmeißen) or an Armut nobody took is dealt again at once, with
no GameOver; the presenter sees a new game without a result and tells the table why, from the
last public state of the old game (the seat to act in the Vorbehaltsabfrage threw in; in the
Armut phase the last seat asked declined).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import stored
from bot.discord.budget import (
    GLOBAL_PER_S,
    PRESENTER_SHARE,
    Priority,
    RequestBudget,
    bank_turn,
    hand_priority,
    hand_turn,
    process_share,
)
from bot.discord.components import table_components
from bot.discord.dms import ClosedDms, dms_are_closed
from bot.discord.endings import HandEndings
from bot.discord.pictures import (
    Pictures,
    edit_files,
    send_files,
)
from bot.discord.pings import Pings
from bot.discord.replay import ReplayThreads
from bot.discord.state import (
    TOKEN_EDIT_WINDOW_S,
    Coalescer,
    HandMessage,
    Payload,
    TableState,
    TokenEditor,
    UserState,
    payload_key,
)
from bot.discord.table_message import TableMessage
from bot.engine.model import (
    EngineError,
    Event,
    GameOver,
    SessionOver,
    TableChanged,
    TableInfo,
    ViewChanged,
    YourTurn,
)
from bot.render.hand import hand_message, sitting_out_message
from bot.render.pictures import Picture
from bot.render.texts import Lang, lang_of
from bot.rules.game import Phase, Redeal
from db import messages

if TYPE_CHECKING:
    from bot.discord.bot import DokoBot
    from bot.engine import Engine

log = logging.getLogger(__name__)

# Seconds between edits of one table message, at the least (a channel's messages allow
# about 5 edits in 5 s). Many tables at once share the global budget (budget.py): each
# message is then edited less often, fairly, and after the private hands.
TABLE_EDIT_INTERVAL = 1.0
TABLE_EDIT_DELAY = 0.3  # a move waits this long for the moves right after it (AIs answering)
HAND_EDIT_DELAY = 0.5  # seconds a hand update may wait while someone else is to act
# Table message edits a second through interaction tokens, in all: free of the global
# budget, but each renders the table (its picture too), so they are paced. bench discord,
# 1,000 tables: at 40 a second the table message is 28 s behind the game (p50), at 100
# 0.8 s, for ~0.7 ms more CPU per action.
TOKEN_EDITS_PER_S = 100.0


class Presenter:
    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.tables: dict[int, TableState] = {}
        self.users: dict[int, UserState] = {}
        self.last_game_by_channel: dict[int, int] = {}
        self.guild_langs: dict[int, Lang] = {}  # by the guild locale its interactions carry
        # A server's own choices (/doko einstellungen): its public language, if it fixed one,
        # and the ping delay of players who chose none (bot.discord.settings.remember).
        self.fixed_langs: dict[int, Lang] = {}
        self.notify_defaults: dict[int, int | None] = {}
        self._render_turn = asyncio.Lock()
        # Sharded, this process's share of the global budget, by the shards it runs.
        share = process_share(bot.settings.shard_ids, bot.settings.shard_count)
        self.budget = RequestBudget(GLOBAL_PER_S * PRESENTER_SHARE * share)
        self.token_budget = RequestBudget(TOKEN_EDITS_PER_S)  # table edits by interactions
        self.pictures = Pictures(bot, bot.settings.pictures)  # PICTURES=off: text only
        # The finished games' results, for the hand messages that showed them.
        self.endings = HandEndings(bot, TOKEN_EDIT_WINDOW_S, self.pictures.enabled, self.budget)
        self.pings = Pings(self)  # a new message when a human's turn waits (pings.py)
        self.next_hand_on_click = True  # answers.next_hand; False: always by the hand job
        self.dms = ClosedDms(self)  # players whose DMs are closed (dms.py)
        self.table_message = TableMessage(self)  # the public table messages (table_message.py)
        self.replays = ReplayThreads(self)  # a finished game's replay thread (replay.py)

    # -- bookkeeping ----------------------------------------------------------------------

    def user(self, user_id: int) -> UserState:
        return self.users.setdefault(user_id, UserState())

    def note_locale(self, user_id: int, lang: Lang) -> None:
        self.user(user_id).lang = lang

    def note_guild_locale(self, guild_id: int | None, locale: object) -> None:
        """The guild's preferred locale, as an interaction from it tells: public messages
        (the table message, tournament posts) speak its language.
        """
        if guild_id is not None and locale:
            self.guild_langs[guild_id] = lang_of(locale)

    def public_lang(self, guild_id: int | None) -> Lang:
        """The language of a guild's public messages: the one the server fixed in its
        settings; else its preferred locale as the last interaction from it said, else as
        the gateway did (a restart), German when unknown.
        """
        if guild_id is None:
            return "de"
        lang = self.fixed_langs.get(guild_id) or self.guild_langs.get(guild_id)
        if lang is not None:
            return lang
        guild = self.bot.get_guild(guild_id)
        return lang_of(guild.preferred_locale) if guild is not None else "de"

    def table_state(self, info: TableInfo) -> TableState:
        state = self.tables.get(info.id)
        if state is None:
            state = TableState(info.id, info.channel_id, info=info)
            state.job = Coalescer(lambda: self.table_message.sync(state), TABLE_EDIT_INTERVAL)
            self.tables[info.id] = state
        return state

    def _update_info(self, state: TableState, info: TableInfo) -> None:
        if state.info is None or info.version >= state.info.version:
            self._note_redeal(state, state.info, info)
            state.info = info

    def _note_redeal(self, state: TableState, old: TableInfo | None, new: TableInfo) -> None:
        """A new game that follows one without a GameOver: the old one was dealt again."""
        if old is None or old.game_id is None or old.public is None or new.game_id is None:
            return
        if new.game_id == old.game_id or old.game_id == state.last_game_id:
            return
        pv = old.public
        reason: Redeal | None = None
        seat: int | None = None
        if pv.phase is Phase.ARMUT and pv.armut is not None:
            reason, seat = Redeal.ARMUT_DECLINED, pv.armut.poor
        elif pv.phase is Phase.VORBEHALT:
            reason, seat = Redeal.SCHMEISSEN, pv.to_act
        state.redeal = (new.game_id, reason, seat)
        # The old game's hand messages say why, and lose their buttons.
        for user_id in self.endings.note_redeal(state, old, reason, seat):
            self.mark_hand(state, user_id)

    async def register_table_message(
        self, info: TableInfo, interaction: discord.Interaction[Any], message_id: int, key: Payload
    ) -> None:
        """The lobby message a ``/doko tisch`` answer created (or a lobby click showed): the
        interaction edits it from now on while its token lives.
        """
        state = self.table_state(info)
        state.message_id, state.message_game, state.message_key = message_id, None, key
        state.editor = TokenEditor(interaction, message_id)
        self._update_info(state, info)
        await stored.save_table_message(self.bot.db, state)

    def remember_ephemeral(
        self, user_id: int, interaction: discord.Interaction[Any], game_id: int, key: Payload
    ) -> None:
        user = self.user(user_id)
        user.ephemeral, user.ephemeral_game = interaction, game_id
        user.ephemeral_at, user.ephemeral_key = time.monotonic(), key

    async def adopt_hand(
        self,
        table_id: int,
        user_id: int,
        game_id: int,
        channel_id: int,
        message_id: int,
        key: Payload,
        shown: tuple[int, Lang] | None = None,
        editor: TokenEditor | None = None,
    ) -> None:
        """The clicked DM now shows ``key`` (table version and language ``shown``): it is the
        user's hand message from here on, edited through ``editor`` (the click) while it can.

        Only for the game the message shows: a message of an earlier game never becomes
        the next game's hand (the hand job sends that one).
        """
        state = self.tables.get(table_id)
        if state is not None:
            state.hands[user_id] = HandMessage(game_id, channel_id, message_id, key, shown, editor)
            await stored.save_hand(self.bot.db, state, user_id)

    def shows(self, table_id: int, user_id: int, message_id: int, lang: Lang) -> bool:
        """Whether the message is the user's hand and shows the table as it is now."""
        state = self.tables.get(table_id)
        hand = state.hands.get(user_id) if state is not None else None
        if hand is None or hand.message_id != message_id:
            return False
        return self._shows_now(hand, table_id, lang) is True

    def _shows_now(self, hand: HandMessage, table_id: int, lang: Lang) -> bool | None:
        """Whether the hand message shows the table's current version in ``lang``; None
        when the table is closed.
        """
        if hand.shown is None:
            return False
        try:
            return hand.shown == (self.bot.engine.version(table_id), lang)
        except EngineError:
            return None

    async def refresh_all(self) -> None:
        """Bring every open table's messages up to date (after a start or a restart)."""
        await self.dms.load()  # no DM is tried for a player known to have them closed
        infos = self.bot.engine.open_tables()
        await self.pings.sweep({info.id for info in infos})  # a stopped process's pings
        for info in infos:
            state = self.table_state(info)
            self._update_info(state, info)
            self._mark(state, info)
            # A turn that was waiting when the process stopped gets its ping all the same.
            self.pings.table_changed(info)
        await messages.forget_closed(self.bot.db)

    def _mark(self, state: TableState, info: TableInfo) -> None:
        assert state.job is not None
        state.job.mark()
        for seat in info.seats:
            if seat is not None and seat.user_id is not None and info.status == "playing":
                self.mark_hand(state, seat.user_id)

    def mark_hand(self, state: TableState, user_id: int, delay: float = 0.0) -> None:
        job = state.hand_jobs.get(user_id)
        if job is None:
            job = Coalescer(lambda: self._sync_hand(state, user_id))
            state.hand_jobs[user_id] = job
        job.mark(delay)

    async def idle(self) -> None:
        """Until every pending message update has been sent (tests and benchmarks)."""
        for _ in range(3):
            for state in list(self.tables.values()):
                if state.job is not None:
                    await state.job.wait()
                for job in list(state.hand_jobs.values()):
                    await job.wait()
            await self.replays.idle()

    def close(self) -> None:
        self.pings.close()
        for state in self.tables.values():
            if state.job is not None:
                state.job.cancel()
            for job in state.hand_jobs.values():
                job.cancel()
        self.pictures.close()
        self.budget.close()
        self.token_budget.close()

    # -- events ---------------------------------------------------------------------------

    async def on_event(self, event: Event) -> None:
        """An engine event marks messages as changed; their jobs send them later."""
        self.pings.on_event(event)
        match event:
            case TableChanged(table=info):
                table = self.table_state(info)
                self._update_info(table, info)
                assert table.job is not None
                table.job.mark(TABLE_EDIT_DELAY)
                # Five players: the dealer gets no view of the game, only word that he sits
                # out (a hand job that finds nothing new sends nothing).
                out = info.seats[info.sitting_out] if info.sitting_out is not None else None
                if out is not None and out.user_id is not None and info.status == "playing":
                    self.mark_hand(table, out.user_id)
            case ViewChanged(table_id=table_id, user_id=user_id):
                # Followed by YourTurn when this user is to act, which sends the hand at once.
                state = self.tables.get(table_id)
                if state is not None:
                    self.mark_hand(state, user_id, HAND_EDIT_DELAY)
            case YourTurn(table_id=table_id, user_id=user_id):
                state = self.tables.get(table_id)
                if state is not None:
                    self.mark_hand(state, user_id)
            case GameOver(table_id=table_id, game_id=game_id, entry=entry, summary=summary):
                state = self.tables.get(table_id)
                if state is not None:
                    state.finals[entry.number] = (summary, entry, game_id)
                    state.last_game_id = game_id
                    self.last_game_by_channel[state.channel_id] = game_id
                    assert state.job is not None
                    state.job.mark()
                    self.budget.rerank(state.table_id)  # its table message goes first now
                    self.token_budget.rerank(state.table_id)
                    for user_id in self.endings.note(state, event):
                        self.mark_hand(state, user_id)
            case SessionOver(table_id=table_id):
                state = self.tables.get(table_id)
                if state is not None:
                    state.session_over = True
                    assert state.job is not None
                    state.job.mark()
            case _:
                pass

    # -- the public table message ---------------------------------------------------------

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        channel: discord.PartialMessageable = self.bot.get_partial_messageable(channel_id)
        return channel

    def refuse_files(self, info: TableInfo) -> None:
        """The bot may not attach files where the table plays: its messages go in text."""
        self.table_state(info).files_refused = True

    async def take_turn(self) -> None:
        """Message jobs render one per pass of the event loop: a burst of them (timers that
        fire together) would otherwise hold up the interactions waiting to be acknowledged.
        """
        async with self._render_turn:
            await asyncio.sleep(0)

    # -- private hands --------------------------------------------------------------------

    def render_hand(
        self, table_id: int, user_id: int, lang: Lang
    ) -> tuple[TableInfo, str, discord.ui.View, Payload]:
        """The user's hand as of now (raises EngineError when there is none); for the dealer
        sitting out at a five-player table, a note without cards.
        """
        info = self.bot.engine.table(table_id)
        ended = self.endings.render(info, user_id, lang)  # the game is over, not yet dealt
        if ended is not None:
            return (info, *ended)
        if info.status == "playing" and info.game_seat_of(user_id) is None:
            seat = info.seat_of(user_id)
            if seat is not None and seat == info.sitting_out:
                content, controls = sitting_out_message(info, lang)
                ui = table_components(info, controls)
                return info, content, ui, payload_key(content, None, ui)
            # Replaced (an AI substitute plays the seat): the cards are not theirs to see.
            raise EngineError("not_seated", "the user does not play this game")
        view = self.bot.engine.view_for(table_id, user_id)
        content, controls = hand_message(info, view, lang)
        ui = table_components(info, controls)
        return info, content, ui, payload_key(content, None, ui)

    async def _sync_hand(self, state: TableState, user_id: int) -> None:
        await stored.restore(self.bot.db, state, self.user)
        user = self.user(user_id)
        if user.dms_closed:  # ephemeral: interaction routes, no turn needed
            async with user.hand_lock:
                await self._sync_hand_locked(state, user_id, user)
            return
        if user.answering and plays(self.bot.engine, state, user_id):
            return  # a click's answer shows the hand; it marks this job again when done
        hand = state.hands.get(user_id)
        pending = (state.table_id, user_id) in self.endings.pending
        if hand is not None and not pending and self._shows_now(hand, state.table_id, user.lang):
            return
        new = False  # a game dealt that this user's hand DM does not show yet
        try:
            info = self.bot.engine.table(state.table_id)
            # A game's first hand goes first: its owner is to act, or soon will be.
            new = hand is None or hand.game_id != info.game_id
            priority = Priority.HAND_NOW if new else hand_priority(info, user_id)
        except EngineError:
            if not pending:
                return
            # The session is over and the table closed: its last game's ending still shows.
            priority = Priority.HAND
        # An edit through the user's last click goes at once: it costs no global request,
        # and a player waits for it (a send in between takes a global turn).
        if self._hand_by_token(state, user_id) is not None or (
            pending and not new and self.endings.by_token(state, user_id)
        ):
            async with user.hand_lock:
                await self._sync_hand_locked(state, user_id, user)
            return
        async with self.budget.turn(priority):
            user.has_turn = True
            try:
                async with user.hand_lock:
                    await self._sync_hand_locked(state, user_id, user)
            finally:
                user.has_turn = False

    def _hand_by_token(self, state: TableState, user_id: int) -> TokenEditor | None:
        """What edits the user's hand of the running game through an interaction, if any."""
        hand = state.hands.get(user_id)
        editor = hand.by_token() if hand is not None else None
        if editor is None or hand is None:
            return None
        try:
            return editor if self.bot.engine.table(state.table_id).game_id == hand.game_id else None
        except EngineError:
            return None

    async def _sync_hand_locked(self, state: TableState, user_id: int, user: UserState) -> None:
        await self.endings.show(state, user_id, user)  # a finished game's hand first
        hand = state.hands.get(user_id)
        if hand is not None and not user.dms_closed:
            current = self._shows_now(hand, state.table_id, user.lang)
            if current is None or current:
                return  # the DM shows this version already, or the table is closed
        by_token = self._hand_by_token(state, user_id)
        if not user.dms_closed and by_token is None:
            # Every wait before the render: it shows the hand of then.
            await stored.dm_channel(self.bot.db, self.bot, self.budget, user_id, user)
            await bank_turn(self.budget, user, Priority.HAND_NOW)
        await self.take_turn()
        try:
            info, content, ui, key = self.render_hand(state.table_id, user_id, user.lang)
        except EngineError:
            return
        if info.status != "playing" or info.game_id is None:
            return
        picture, key = await self.pictures.hand(state.table_id, user_id, user.lang, key)
        if user.dms_closed:
            files = edit_files([picture], self.pictures.enabled, user.ephemeral_key)
            await sync_ephemeral(user, info, content, ui, key, files)
            return
        hand = state.hands.get(user_id)
        shown = (info.version, user.lang)
        priority = hand_priority(info, user_id)
        try:
            if hand is None or hand.game_id != info.game_id:
                await self._send_hand(state, user_id, user, info.game_id, content, ui, key, picture)
                state.hands[user_id].shown = shown
            elif hand.key != key:
                partial = self.channel(hand.channel_id).get_partial_message(hand.message_id)
                files = edit_files([picture], self.pictures.enabled, hand.key)
                try:
                    if not await self._edit_by_token(hand, content=content, view=ui, **files):
                        async with hand_turn(self.budget, user, priority):
                            await partial.edit(content=content, view=ui, **files)
                except discord.NotFound:  # deleted (10008): this game's hand is sent anew
                    await self._send_hand(
                        state, user_id, user, info.game_id, content, ui, key, picture
                    )
                    state.hands[user_id].shown = shown
                    return
                hand.key, hand.shown = key, shown
            else:
                hand.shown = shown
        except discord.Forbidden as error:
            if not dms_are_closed(error):
                raise
            log.info("DMs of user %s are closed; serving the hand ephemerally", user_id)
            await self.dms.closed(user_id)  # the table message tells them to use "Meine Karten"

    async def _edit_by_token(self, hand: HandMessage, **fields: Any) -> bool:
        """Edit the hand DM through the user's last click; False when it cannot (the token ran
        out) and the DM's own route must.
        """
        editor = hand.by_token()
        if editor is None:
            return False
        if await editor.try_edit(hand.message_id, **fields):
            return True
        hand.editor = None
        return False

    async def _send_hand(
        self,
        state: TableState,
        user_id: int,
        user: UserState,
        game_id: int,
        content: str,
        ui: discord.ui.View,
        key: Payload,
        picture: Picture | None = None,
    ) -> None:
        """The game's hand message, sent (the caller holds the user's hand lock)."""
        channel_id = await stored.dm_channel(self.bot.db, self.bot, self.budget, user_id, user)
        async with hand_turn(self.budget, user, Priority.HAND_NOW):
            message = await self.channel(channel_id).send(content, view=ui, **send_files([picture]))
        state.hands[user_id] = HandMessage(game_id, channel_id, message.id, key)
        await stored.save_hand(self.bot.db, state, user_id)
        await self.dms.delivered(user_id)  # DMs open again: the closed mark goes


def plays(engine: Engine, state: TableState, user_id: int) -> bool:
    """Whether the user plays the table's running game (not sitting it out)."""
    try:
        return engine.game_seat(state.table_id, user_id) is not None
    except EngineError:
        return False  # closed


async def sync_ephemeral(
    user: UserState,
    info: TableInfo,
    content: str,
    ui: discord.ui.View,
    key: Payload,
    files: dict[str, Any],
) -> None:
    """The hand of a user whose DMs are closed: the ephemeral one, while its token lives."""
    ix = user.ephemeral
    if ix is None or user.ephemeral_game != info.game_id or user.ephemeral_key == key:
        return
    if time.monotonic() - user.ephemeral_at > TOKEN_EDIT_WINDOW_S:
        user.ephemeral = None
        return
    try:
        await ix.edit_original_response(content=content, view=ui, **files)
        user.ephemeral_key = key
    except discord.HTTPException:
        user.ephemeral = None  # dismissed or expired: "Meine Karten" opens a fresh one
