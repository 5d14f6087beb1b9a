"""``/doko …`` and every button: parse the interaction, call one engine method, render, answer.

A game action (a card, a call, a Vorbehalt button) is checked against the in-memory table
(seat, version), stored by the engine and only then acknowledged; rendering and message edits
come after. Lobby buttons and table creation are acknowledged at once and confirmed by the
lobby message. Refusals are ephemeral and name the rule.

Interactions that another bot process received for a table this one runs (DMs reach shard
0 only) come in as forwarded rows and go through the same handlers, answered on the
interaction's webhook instead (:class:`~bot.discord.forwarding.Reply`).
"""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import abrechnen, answers, codec
from bot.discord.bot import DokoBot
from bot.discord.forwarding import (
    InteractionReply,
    Reply,
    WebhookReply,
    forward_click,
    forward_command,
)
from bot.discord.permissions import TABLE_FLAGS, access_problem
from bot.engine.forwarding import ForwardRow
from bot.engine.model import EngineError, TableInfo
from bot.render.controls import TableButton
from bot.render.errors import error_text
from bot.render.presets import PRESETS, preset_name
from bot.render.stats import leaderboard_embed, score_embed, stats_embed
from bot.render.table import (
    add_spielliste,
    add_spielliste_note,
    rules_text,
    spielliste_attachment,
    spielliste_csv,
    spielliste_json,
)
from bot.render.terms import CALL_OPTIONS, OPTION_OF_CALL, call_name, contract_name, legal_calls
from bot.render.texts import Lang, lang_of, t

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

# The rules core's presets (DDV-Turnier, Stammtisch, Online), then the single-flag DDV variants.
PRESET_CHOICES = [app_commands.Choice(name=preset_name(key, "de"), value=key) for key in PRESETS]
CONTRACT_CHOICES = [
    app_commands.Choice(name=contract_name(c, "de"), value=str(c)) for c in abrechnen.CONTRACTS
]
RE_CALLS = [
    app_commands.Choice(name=call_name(CALL_OPTIONS[o], "de"), value=str(CALL_OPTIONS[o]))
    for o in ("re", "keine90", "keine60", "keine30", "schwarz")
]
KONTRA_CALLS = [
    app_commands.Choice(name=call_name(CALL_OPTIONS[o], "de"), value=str(CALL_OPTIONS[o]))
    for o in ("kontra", "keine90", "keine60", "keine30", "schwarz")
]

# /doko benachrichtigung: when the bot pings a player whose turn waits (bot/discord/pings.py)
NOTIFY_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (
        ("aus", "aus"),
        ("sofort", "sofort"),
        ("nach 20 s", "20"),
        ("nach 60 s", "60"),
    )
]
NOTIFY_DELAYS: dict[str, int | None] = {"aus": None, "sofort": 0, "20": 20, "60": 60}


def notify_text(delay: int | None, lang: Lang) -> str:
    """What the player's ping setting means."""
    if delay is None:
        return t(lang, "notify_off")
    said = t(lang, "notify_now") if delay == 0 else t(lang, "notify_after", seconds=delay)
    return f"{said}\n{t(lang, 'notify_how')}"


class Doko(commands.GroupCog, group_name="doko", group_description="Doppelkopf am Tisch"):
    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.presenter = bot.presenter
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.click_handler = self.on_click
        if self.bot.forwarder is not None:
            self.bot.forwarder.handler = self.on_forwarded
            self.bot.forwarder.unowned_handler = self.on_unowned

    async def cog_unload(self) -> None:
        self.bot.click_handler = None
        if self.bot.forwarder is not None:
            self.bot.forwarder.handler = self.bot.forwarder.unowned_handler = None

    # -- helpers --------------------------------------------------------------------------

    def _reply(self, interaction: Interaction) -> InteractionReply:
        reply = InteractionReply(self.presenter, interaction)
        self.presenter.note_locale(reply.user_id, reply.lang)
        self.presenter.note_guild_locale(interaction.guild_id, interaction.guild_locale)
        return reply

    def _public_lang(self, interaction: Interaction, reply: Reply) -> Lang:
        """A public answer speaks the guild's language; in a DM the user's."""
        if interaction.guild_id is None:
            return reply.lang
        return self.presenter.public_lang(interaction.guild_id)

    def _table_here(self, interaction: Interaction) -> TableInfo | None:
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

    async def show_hand(self, reply: Reply, info: TableInfo) -> None:
        """The private hand as an ephemeral message (the DM view, re-openable any time)."""
        if info.seat_of(reply.user_id) is None:
            await reply.say(t(reply.lang, "err_not_seated"))
            return
        try:
            now, content, ui, key = self.presenter.render_hand(info.id, reply.user_id, reply.lang)
        except EngineError as error:
            await reply.say(error_text(error, reply.lang))
            return
        picture, key = await self.presenter.pictures.hand(info.id, reply.user_id, reply.lang, key)
        await reply.send(content, view=ui, picture=picture)
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
            await self.bot.engine.act(
                info.id, reply.user_id, click.target, version=click.version, on_stored=reply.defer
            )
        except EngineError as error:
            text = t(lang, "stale") if error.reason == "stale_version" else error_text(error, lang)
            await reply.say(text)
            return
        await reply.acted(info)

    # -- slash commands -------------------------------------------------------------------

    @app_commands.command(name="tisch", description="Einen Tisch in diesem Kanal eröffnen")
    @app_commands.describe(
        regeln="Regelsatz",
        spiele="Spiele in dieser Runde (Standard: wie der Regelsatz, meist 24)",
        zugzeit="Sekunden pro Zug, danach spielt ein Bot (leer: keine Zugzeit)",
        plaetze="Plätze am Tisch: 4, oder 5 (der Geber setzt jedes Spiel aus)",
    )
    @app_commands.choices(regeln=PRESET_CHOICES)
    async def tisch(
        self,
        interaction: Interaction,
        regeln: str = "ddv",
        spiele: app_commands.Range[int, 1, 200] | None = None,
        zugzeit: app_commands.Range[int, 5, 3600] | None = None,
        plaetze: app_commands.Range[int, 4, 5] | None = None,
    ) -> None:
        lang = self._reply(interaction).lang
        if interaction.guild_id is None or interaction.channel_id is None:
            await answers.say(interaction, t(lang, "guild_only"))
            return
        if self.bot.engine.find_table(interaction.guild_id, interaction.channel_id):
            await answers.say(interaction, t(lang, "err_table_exists"))
            return
        # Discord says what the bot may do here: refuse before a table nobody can see opens.
        problem = access_problem(interaction.app_permissions, TABLE_FLAGS, lang)
        if problem is not None:
            await answers.say(interaction, problem)
            return
        # The lobby is no game action: a "thinking" answer at once, the lobby message (after
        # the table is stored) is the confirmation.
        await interaction.response.defer()
        rules = PRESETS.get(regeln, PRESETS["ddv"])
        if plaetze is not None:
            rules = rules.replace(players=plaetze)
        try:
            info = await self.bot.engine.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                rules=rules,
                games=spiele or rules.games_per_round,
                turn_timer_s=zugzeit,
            )
        except EngineError as error:
            await answers.say(interaction, error_text(error, lang))
            return
        await answers.post_lobby(self.presenter, interaction, info)

    @app_commands.command(name="karten", description="Deine Karten noch einmal zeigen")
    async def karten(self, interaction: Interaction) -> None:
        reply = self._reply(interaction)
        info = self._table_here(interaction)
        if info is not None:
            await self.show_hand(reply, info)
        # In a DM, for a table another process runs: that process shows the hand.
        elif not await forward_command(self.bot.forwarder, interaction, "karten"):
            await reply.say(t(reply.lang, "no_table_here"))

    @app_commands.command(name="ansage", description="Eine Ansage oder Absage machen")
    @app_commands.describe(ansage="Re, Kontra, keine 90/60/30 oder schwarz")
    async def ansage(self, interaction: Interaction, ansage: str) -> None:
        reply = self._reply(interaction)
        option = ansage.strip().lower().replace(" ", "")
        info = self._table_here(interaction)
        if option not in CALL_OPTIONS:  # not one of the options, wherever it was typed
            await reply.say(t(reply.lang, "err_bad_action"))
        elif info is not None:
            await self.announce(reply, info, option)
        # In a DM, for a table another process runs: that process makes the call.
        elif not await forward_command(self.bot.forwarder, interaction, "ansage", (option,)):
            await reply.say(t(reply.lang, "no_table_here"))

    @ansage.autocomplete("ansage")
    async def ansage_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        info = self._table_here(interaction)
        lang = lang_of(interaction.locale)
        if info is None:
            if interaction.guild_id is not None:
                return []
            # A DM: the table may run in another process, which checks the call.
            calls = list(CALL_OPTIONS.values())
        else:
            try:
                calls = legal_calls(self.bot.engine.view_for(info.id, interaction.user.id))
            except EngineError:
                return []
        return [
            app_commands.Choice(name=call_name(call, lang), value=OPTION_OF_CALL[call])
            for call in calls
            if OPTION_OF_CALL[call].startswith(current.lower())
        ]

    @app_commands.command(name="stand", description="Die Spielliste dieses Tisches")
    @app_commands.describe(dateien="Als CSV- und JSON-Datei, nur für dich")
    async def stand(self, interaction: Interaction, dateien: bool = False) -> None:
        reply = self._reply(interaction)
        info = self._table_here(interaction)
        if info is not None:
            await self.show_stand(reply, info, self._public_lang(interaction, reply), dateien)
        # In a DM, for a table another process runs: that process shows its Spielliste.
        elif not await forward_command(
            self.bot.forwarder, interaction, "stand", ("dateien",) if dateien else ()
        ):
            await reply.say(t(reply.lang, "no_table_here"))

    @app_commands.command(name="rangliste", description="Die Rangliste dieses Servers")
    async def rangliste(self, interaction: Interaction) -> None:
        reply = self._reply(interaction)
        if interaction.guild_id is None:
            await answers.say(interaction, t(reply.lang, "guild_only"))
            return
        await interaction.response.defer()
        rows = await self.bot.engine.leaderboard(interaction.guild_id, limit=20)
        lang = self._public_lang(interaction, reply)
        await interaction.followup.send(embed=leaderboard_embed(rows, lang))

    @app_commands.command(name="statistik", description="Die Zahlen eines Spielers")
    @app_commands.describe(spieler="Wessen Statistik (Standard: deine)")
    async def statistik(
        self, interaction: Interaction, spieler: discord.User | None = None
    ) -> None:
        reply = self._reply(interaction)
        if interaction.guild_id is None:
            await answers.say(interaction, t(reply.lang, "guild_only"))
            return
        who = spieler or interaction.user
        await interaction.response.defer()
        stats = await self.bot.engine.player_stats(interaction.guild_id, who.id)
        lang = self._public_lang(interaction, reply)
        await interaction.followup.send(embed=stats_embed(who.display_name, stats, lang))

    @app_commands.command(name="regeln", description="Die Regeln dieses Tisches")
    async def regeln(self, interaction: Interaction) -> None:
        reply = self._reply(interaction)
        info = self._table_here(interaction)
        # In a DM, for a table another process runs: that process names its rules.
        if info is not None or not await forward_command(self.bot.forwarder, interaction, "regeln"):
            await self.show_rules(reply, info)

    @app_commands.command(name="export", description="Ein beendetes Spiel als doko-game/1-Datei")
    @app_commands.describe(spiel="Spiel-Nummer (#…) aus der Tischnachricht; Standard: das letzte")
    async def export(self, interaction: Interaction, spiel: int | None = None) -> None:
        lang = self._reply(interaction).lang
        if interaction.guild_id is None or interaction.channel_id is None:
            await answers.say(interaction, t(lang, "guild_only"))
            return
        game_id = spiel or self.presenter.last_game_by_channel.get(interaction.channel_id)
        if game_id is None:
            await answers.say(interaction, t(lang, "export_none"))
            return
        await interaction.response.defer(ephemeral=True)
        # Running games are never exported (hands!): only a finished game of this server.
        record = await self.bot.engine.finished_record(interaction.guild_id, game_id)
        if record is None:
            await interaction.followup.send(
                t(lang, "export_unknown", game_id=game_id), ephemeral=True
            )
            return
        data = json.dumps(record, indent=1).encode()
        await interaction.followup.send(
            t(lang, "export_ready", game_id=game_id),
            file=discord.File(io.BytesIO(data), filename=f"doko-spiel-{game_id}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="abrechnen", description="Ein Spiel mit echten Karten abrechnen")
    @app_commands.describe(
        vertrag="Spielart",
        re_plaetze="Plätze der Re-Partei, z. B. 1,3 (im Solo nur der Solist)",
        re_augen="Augen der Re-Partei (0–240)",
        re_stiche="Stiche der Re-Partei",
        re_ansage="Höchste Ansage von Re",
        kontra_ansage="Höchste Ansage von Kontra",
        sonderpunkte="z. B. fuchs:re, doppelkopf:kontra, karlchen:re",
    )
    @app_commands.choices(vertrag=CONTRACT_CHOICES, re_ansage=RE_CALLS, kontra_ansage=KONTRA_CALLS)
    async def abrechnen(
        self,
        interaction: Interaction,
        vertrag: str,
        re_plaetze: str,
        re_augen: app_commands.Range[int, 0, 240],
        re_stiche: app_commands.Range[int, 0, 12],
        re_ansage: str | None = None,
        kontra_ansage: str | None = None,
        sonderpunkte: str | None = None,
    ) -> None:
        reply = self._reply(interaction)
        try:
            scored = abrechnen.score_real_game(
                vertrag, re_plaetze, re_augen, re_stiche, re_ansage, kontra_ansage, sonderpunkte
            )
        except abrechnen.SheetError as error:
            await answers.say(interaction, t(reply.lang, error.key, **error.values))
            return
        lang = self._public_lang(interaction, reply)
        embed = score_embed(scored.contract, scored.re_seats, scored.result, lang)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="stopp", description="Den Tisch beenden (Gastgeber oder Admins)")
    async def stopp(self, interaction: Interaction) -> None:
        lang = self._reply(interaction).lang
        info = self._table_here(interaction) if interaction.guild_id else None
        if info is None or info.channel_id != interaction.channel_id:
            await answers.say(interaction, t(lang, "no_table_here"))
            return
        perms = interaction.permissions
        admin = perms.administrator or perms.manage_guild
        try:
            await self.bot.engine.stop_table(info.id, interaction.user.id, admin=admin)
        except EngineError as error:
            await answers.say(interaction, error_text(error, lang))
            return
        await answers.say(interaction, t(lang, "table_stopped", table=info.id))

    @app_commands.command(
        name="benachrichtigung",
        description="Ob und wann der Bot dich anschreibt, wenn du dran bist",
    )
    @app_commands.describe(
        wann="Aus, sofort, oder nach so vielen Sekunden (leer: zeigen, was gilt)"
    )
    @app_commands.choices(wann=NOTIFY_CHOICES)
    async def benachrichtigung(self, interaction: Interaction, wann: str | None = None) -> None:
        """Store the user's ping setting (none given: show it); answered ephemerally."""
        lang, user_id = self._reply(interaction).lang, interaction.user.id
        if wann is None:
            delay = await self.bot.engine.notify_delay(user_id)
        elif wann in NOTIFY_DELAYS:
            delay = NOTIFY_DELAYS[wann]
            await self.bot.engine.set_notify_delay(user_id, delay)
            self.presenter.pings.chosen(user_id, delay)
        else:
            await answers.say(interaction, t(lang, "err_bad_action"))
            return
        await answers.say(interaction, notify_text(delay, lang))

    @app_commands.command(name="hilfe", description="Wie der Bot funktioniert")
    async def hilfe(self, interaction: Interaction) -> None:
        lang = self._reply(interaction).lang
        embed = discord.Embed(title=t(lang, "help_title"), description=t(lang, "help_body"))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- buttons --------------------------------------------------------------------------

    async def on_click(self, click: codec.Click, interaction: Interaction) -> None:
        reply = self._reply(interaction)
        try:
            info = self.bot.engine.table(click.table_id)
        except EngineError as error:
            # Another process may run the table (DMs reach shard 0 only): it answers then.
            forwardable = not isinstance(click.target, TableButton)
            if not (forwardable and await forward_click(self.bot.forwarder, click, interaction)):
                await reply.say(error_text(error, reply.lang))
            return
        match click.target:
            case TableButton(kind="rules"):
                await reply.say(rules_text(info.rules, info.games_per_session, reply.lang))
            case TableButton(kind="hand"):
                await self.show_hand(reply, info)
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
        engine, user = self.bot.engine, interaction.user
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
                    info = await engine.remove_ai(info.id, user.id, int(button.arg))
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

    # -- interactions another bot process received for this process's tables ------------

    async def on_forwarded(self, row: ForwardRow) -> None:
        reply = WebhookReply(self.bot, row)
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


async def setup(bot: DokoBot) -> None:
    await bot.add_cog(Doko(bot))
