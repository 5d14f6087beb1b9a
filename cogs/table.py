"""Every button of a table, and the answers that slash commands and forwarded interactions share.

A game action (a card, a call, a Vorbehalt button) is checked against the in-memory table
(seat, version), stored by the engine and only then acknowledged; rendering and message edits
come after. Lobby buttons are acknowledged at once and confirmed by the lobby message.
Refusals are ephemeral and name the rule.

Interactions that another bot process received for a table this one runs (DMs reach shard
0 only) come in as forwarded rows and go through the same handlers, answered on the
interaction's webhook instead (:class:`~bot.discord.forwarding.Reply`).
"""

from __future__ import annotations

import io
from functools import partial
from typing import Any

import discord
from discord.ext import commands

from bot.discord import access, analyse, answers, codec, rangliste
from bot.discord.bot import DokoBot
from bot.discord.forwarding import (
    InteractionReply,
    Reply,
    WebhookReply,
    answering_failures,
    forward_click,
)
from bot.engine.forwarding import ForwardRow
from bot.engine.model import EngineError, TableInfo
from bot.render.controls import TableButton
from bot.render.errors import error_text
from bot.render.presets import PRESETS
from bot.render.table import (
    add_spielliste,
    add_spielliste_note,
    rules_text,
    spielliste_attachment,
    spielliste_csv,
    spielliste_json,
)
from bot.render.terms import CALL_OPTIONS, call_name
from bot.render.texts import Lang, t

Interaction = discord.Interaction[Any]


class TableHandlers(commands.Cog):
    """The table handlers: buttons, forwarded interactions, and what ``/doko`` commands show."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.presenter = bot.presenter

    async def cog_load(self) -> None:
        self.bot.click_handler = self.on_click
        self.bot.outdated_handler = self.on_outdated
        self.bot.component_routes[rangliste.PREFIX] = partial(rangliste.page_click, self.bot)
        self.bot.component_routes[codec.REPLAY_PREFIX] = self.presenter.replays.click
        if self.bot.forwarder is not None:
            self.bot.forwarder.handler = answering_failures(self.bot, self.on_forwarded)
            self.bot.forwarder.unowned_handler = self.on_unowned

    async def cog_unload(self) -> None:
        self.bot.click_handler = self.bot.outdated_handler = None
        self.bot.component_routes.pop(rangliste.PREFIX, None)
        self.bot.component_routes.pop(codec.REPLAY_PREFIX, None)
        if self.bot.forwarder is not None:
            self.bot.forwarder.handler = self.bot.forwarder.unowned_handler = None

    # -- helpers --------------------------------------------------------------------------

    def reply(self, interaction: Interaction) -> InteractionReply:
        reply = InteractionReply(self.presenter, interaction)
        self.presenter.note_locale(reply.user_id, reply.lang)
        self.presenter.note_guild_locale(interaction.guild_id, interaction.guild_locale)
        return reply

    def public_lang(self, interaction: Interaction, reply: Reply) -> Lang:
        """A public answer speaks the guild's language; in a DM the user's."""
        if interaction.guild_id is None:
            return reply.lang
        return self.presenter.public_lang(interaction.guild_id)

    def table_here(self, interaction: Interaction) -> TableInfo | None:
        """The table of this channel; in a DM, the game the user plays in."""
        engine = self.bot.engine
        if interaction.guild_id is not None and interaction.channel_id is not None:
            info = engine.find_table(interaction.guild_id, interaction.channel_id)
            if info is not None:
                return info
        for info in engine.open_tables():
            if info.seat_of(interaction.user.id) is not None and info.status == "playing":
                return info
        return None

    # -- handlers shared by interactions received here and forwarded ones -----------------

    async def show_hand(self, reply: Reply, info: TableInfo, note: str | None = None) -> None:
        """The private hand as an ephemeral message (re-openable any time), ``note`` above."""
        if info.seat_of(reply.user_id) is None:
            await reply.say(t(reply.lang, "err_not_seated"))
            return
        try:
            now, content, ui, key = self.presenter.render_hand(info.id, reply.user_id, reply.lang)
        except EngineError as error:
            await reply.say(error_text(error, reply.lang))
            return
        picture, key = await self.presenter.pictures.hand(info.id, reply.user_id, reply.lang, key)
        await reply.send(f"{note}\n{content}" if note else content, view=ui, picture=picture)
        assert now.game_id is not None
        reply.opened_hand(now.game_id, key)

    async def announce(self, reply: Reply, info: TableInfo, option: str) -> None:
        """``/doko ansage``: Re, Kontra or an Absage, by its command option."""
        engine, lang = self.bot.engine, reply.lang
        call = CALL_OPTIONS.get(option)
        if call is None:
            await reply.say(t(lang, "err_bad_action"))
            return
        try:
            seat = engine.game_seat(info.id, reply.user_id)
            if seat is None:
                await reply.say(t(lang, "err_not_seated"))
                return
            async with reply.in_time():
                await engine.act(info.id, reply.user_id, codec.announce(seat, call))
        except EngineError as error:
            await reply.say(error_text(error, lang))
            return
        # Answered once the call is stored.
        await reply.say(t(lang, "called", call=call_name(call, lang)))

    async def show_stand(
        self, reply: Reply, info: TableInfo, lang: Lang, as_files: bool = False
    ) -> None:
        """The round's Spielliste, all of it: in the answer's fields, as a text file when it
        fits no message, or (``as_files``) privately as CSV and JSON files.
        """
        if as_files:
            files = [
                discord.File(io.BytesIO(data.encode()), filename=f"spielliste-{info.id}.{ext}")
                for data, ext in (
                    (spielliste_csv(info, reply.lang), "csv"),
                    (spielliste_json(info), "json"),
                )
            ]
            await reply.send(t(reply.lang, "stand_files", table=info.id), files=files)
            return
        embed = discord.Embed(title=t(lang, "stand_title", table=info.id))
        if not info.spielliste:
            embed.description = t(lang, "stand_empty")
        elif not add_spielliste(embed, info, lang):
            add_spielliste_note(embed, len(info.spielliste), lang)
        file = spielliste_attachment(embed, info, lang)
        chart = await self.presenter.pictures.stand_chart(info, lang)
        if chart is not None:
            embed.set_image(url=f"attachment://{chart.filename}")
        files = [file] if file else []
        await reply.send(embed=embed, ephemeral=False, files=files, picture=chart)

    async def show_rules(self, reply: Reply, info: TableInfo | None) -> None:
        lang = reply.lang
        rules = info.rules if info else PRESETS["ddv"]
        games = info.games_per_session if info else rules.games_per_round
        embed = discord.Embed(
            title=t(lang, "rules_title"), description=rules_text(rules, games, lang)
        )
        await reply.send(embed=embed)

    async def game_action(self, reply: Reply, click: codec.Click, info: TableInfo) -> None:
        """A card, a call, a Vorbehalt …: refused ephemerally with the rule, or taken and
        acknowledged as soon as it is stored (the engine's group commit, a few ms), before
        the engine books a finished game: a crash after the answer loses nothing the player
        was told.
        """
        lang = reply.lang
        assert not isinstance(click.target, TableButton)
        try:
            async with reply.in_time():  # a slow store: acknowledged before Discord gives up
                await self.bot.engine.act(
                    info.id,
                    reply.user_id,
                    click.target,
                    version=click.version,
                    on_stored=reply.defer,
                )
        except EngineError as error:
            if error.reason == "stale_version":
                await self.outdated(reply, info)
            else:
                await reply.say(error_text(error, lang))
            return
        await reply.acted(info)

    # -- buttons --------------------------------------------------------------------------

    async def on_click(self, click: codec.Click, interaction: Interaction) -> None:
        reply = self.reply(interaction)
        if isinstance(click.target, TableButton) and click.target.kind == "analyse":
            # A finished game's: its table may be closed by now.
            game_id = int(click.target.arg)
            await analyse.open_analysis(self.bot.engine, reply, click.table_id, game_id)
            return
        try:
            info = self.bot.engine.table(click.table_id)
        except EngineError as error:
            # Another process may run the table (DMs reach shard 0 only): it answers then.
            forwardable = not isinstance(click.target, TableButton)
            if not (forwardable and await forward_click(self.bot.forwarder, click, interaction)):
                await self.outdated(
                    reply, self.table_here(interaction), error_text(error, reply.lang)
                )
            return
        match click.target:
            case TableButton(kind="rules"):
                await reply.say(rules_text(info.rules, info.games_per_session, reply.lang))
            case TableButton(kind="hand"):
                await self.show_hand(reply, info)
            case TableButton(kind="tipp"):
                await analyse.give_tip(self.bot.engine, reply, info)
            case TableButton(kind="takeover" | "scorelost") as button:
                await self._absence_click(button, interaction, info, reply.lang)
            case TableButton() as button:
                await self._lobby_click(button, interaction, info, reply.lang)
            case _:
                await self.game_action(reply, click, info)

    async def _lobby_click(
        self, button: TableButton, interaction: Interaction, info: TableInfo, lang: Lang
    ) -> None:
        # Lobby buttons act on the table as it is now: a join after someone else's join is
        # what the player meant; doubles are refused by the engine (already seated, running).
        # Not game actions: acknowledged at once (nothing shows), the lobby message edited
        # after the engine stored the change is the confirmation.
        engine, user, admin = self.bot.engine, interaction.user, False
        if button.kind == "removeai":  # the host's, or a server admin's
            member = await access.member_of(interaction, engine)
            refusal = access.remove_bot(member, info)
            if refusal is not None:
                await answers.say(interaction, refusal.text(lang))
                return
            admin = member.admin
        await interaction.response.defer()
        try:
            match button.kind:
                case "join" | "back":
                    info = await engine.join(info.id, user.id, user.display_name)
                case "leave" | "pause":
                    info = await engine.leave(info.id, user.id)
                case "addai":
                    info = await engine.add_ai(info.id, user.id, button.arg)
                case "removeai":
                    info = await engine.remove_ai(info.id, user.id, int(button.arg), admin=admin)
                case _:
                    info = await engine.start_game(info.id, user.id)
        except EngineError as error:
            await answers.say(interaction, error_text(error, lang))
            return
        if info.status == "lobby":
            await answers.show_lobby(self.presenter, interaction, info)
        elif button.kind == "start" and info.status == "playing":
            await answers.show_start(self.presenter, interaction, info)
        elif button.kind in ("leave", "pause") and info.status == "playing":
            await interaction.followup.send(t(lang, "left_game"), ephemeral=True)
        elif button.kind == "back" and info.status == "playing":
            await interaction.followup.send(t(lang, "back_in_game"), ephemeral=True)

    async def _absence_click(
        self, button: TableButton, interaction: Interaction, info: TableInfo, lang: Lang
    ) -> None:
        """The host decides while the table waits for an absent player."""
        engine = self.bot.engine
        member = await access.member_of(interaction, engine)
        refusal = access.decide_absence(member, info)
        if refusal is not None:
            await answers.say(interaction, refusal.text(lang))
            return
        waiting = info.waiting
        seat = info.seats[waiting.seat] if waiting is not None else None
        name = seat.name if seat is not None else "?"
        await interaction.response.defer()
        try:
            if button.kind == "takeover":
                await engine.take_over_absent(info.id, member.user_id, admin=member.admin)
                key = "taken_over"
            else:
                after = await engine.score_absent_lost(info.id, member.user_id, admin=member.admin)
                # Before the parties are known nobody can lose the game: a bot took the seat.
                scored = len(after.spielliste) > len(info.spielliste)
                key = "scored_lost" if scored else "taken_over"
        except EngineError as error:
            await answers.say(interaction, error_text(error, lang))
            return
        await interaction.followup.send(t(lang, key, name=name), ephemeral=True)

    # -- interactions another bot process received for this process's tables ------------

    async def on_forwarded(self, row: ForwardRow) -> None:
        reply = WebhookReply(self.bot, row, self.presenter)
        self.presenter.note_locale(row.user_id, reply.lang)
        try:
            info = self.bot.engine.table(row.table_id)
        except EngineError as error:
            await reply.say(error_text(error, reply.lang))
            return
        match row.kind:
            case "click":
                try:
                    click = codec.decode(row.custom_id, row.args)
                except codec.CodecError:
                    click = None
                if (
                    click is None
                    or isinstance(click.target, TableButton)
                    or (click.table_id != info.id)
                ):
                    await reply.say(t(reply.lang, "err_bad_action"))
                    return
                await answers.adopt_forwarded(self.presenter, info, row)
                await self.game_action(reply, click, info)
            case "karten":
                await self.show_hand(reply, info)
            case "ansage":
                await self.announce(reply, info, row.args[0] if row.args else "")
            case "stand":
                await self.show_stand(reply, info, reply.lang, "dateien" in row.args)
            case "regeln":
                await self.show_rules(reply, info)

    async def on_unowned(self, row: ForwardRow) -> None:
        """A forwarded interaction nobody will apply: say so instead of leaving it silent."""
        closed = await self.bot.engine.table_closed(row.table_id)
        reply = WebhookReply(self.bot, row)
        await reply.say(t(reply.lang, "err_no_table" if closed else "unowned"))

    # -- input that cannot be taken ------------------------------------------------------

    async def outdated(self, reply: Reply, info: TableInfo | None, why: str | None = None) -> None:
        """An outdated button: ``why`` (or "outdated"); where the user plays, the hand."""
        if info is None or info.status != "playing" or info.seat_of(reply.user_id) is None:
            await reply.say(why or t(reply.lang, "input_outdated"))
        else:
            await self.show_hand(reply, info, t(reply.lang, "input_outdated_hand"))

    async def on_outdated(self, interaction: Interaction) -> None:
        """A component whose id does not decode (an older version's message, a forged id)."""
        await self.outdated(self.reply(interaction), self.table_here(interaction))


async def setup(bot: DokoBot) -> None:
    await bot.add_cog(TableHandlers(bot))
