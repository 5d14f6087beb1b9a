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

from bot.discord import abrechnen, access, answers, options
from bot.discord import settings as server
from bot.discord.bot import DokoBot
from bot.discord.forwarding import (
    forward_command,
)
from bot.discord.permissions import TABLE_REQUIRED, access_problem, missing
from bot.discord.rangliste import (
    ORDER_CHOICES,
    RANGLISTE_OPTIONS,
    STATISTIK_OPTIONS,
    ZEITRAUM_CHOICES,
    ask_zeitraum,
    send_board,
    send_figures,
)
from bot.discord.replay import problem_text as replay_problem
from bot.engine.model import EngineError
from bot.engine.rangliste import MIN_RATED_GAMES, Order
from bot.engine.slow import TEMPOS
from bot.render.errors import error_text
from bot.render.presets import PRESETS, preset_name
from bot.render.slow import tempo_text
from bot.render.stats import score_embed
from bot.render.terms import CALL_OPTIONS, OPTION_OF_CALL, call_name, contract_name, legal_calls
from bot.render.texts import Lang, lang_of, t
from cogs.table import TableHandlers

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

# /doko tisch bedenkzeit: a slow table's time per move (bot/engine/slow.py)
TEMPO_CHOICES = [
    app_commands.Choice(name=tempo_text(seconds, "de"), value=seconds) for seconds in TEMPOS
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

    @property
    def handlers(self) -> TableHandlers:
        """The table handlers the commands share with buttons (``cogs.table``, loaded first)."""
        cog = self.bot.get_cog("TableHandlers")
        assert isinstance(cog, TableHandlers)
        return cog

    # -- slash commands -------------------------------------------------------------------

    @app_commands.command(name="tisch", description="Einen Tisch in diesem Kanal eröffnen")
    @app_commands.describe(
        regeln="Regelsatz (Standard: wie in /doko einstellungen)",
        spiele="Spiele in dieser Runde (Standard: wie der Regelsatz, meist 24)",
        zugzeit="Sekunden pro Zug, danach spielt ein Bot (Standard: wie in /doko einstellungen)",
        plaetze="Plätze am Tisch: 4, oder 5 (der Geber setzt jedes Spiel aus)",
        bots="Stufe der Bots an freien Plätzen (Standard: wie in /doko einstellungen)",
        bei_abwesenheit="Läuft die Zugzeit ab: Bot spielt, Tisch wartet oder Spiel verloren",
        protokoll=(
            "Nach jedem Spiel ein Thread mit dem Protokoll (Standard: wie in /doko einstellungen)"
        ),
        bedenkzeit="Langsamer Tisch: Zeit pro Zug mit Erinnerungen, gilt statt der Zugzeit",
        coach="Tipp-Knopf mit dem Vorschlag der KI; die Spiele zählen nicht für die Rangliste",
    )
    @app_commands.choices(
        regeln=PRESET_CHOICES, bots=options.BOT_CHOICES, bei_abwesenheit=options.POLICY_CHOICES
    )
    @app_commands.choices(bedenkzeit=TEMPO_CHOICES)
    async def tisch(
        self,
        interaction: Interaction,
        regeln: str | None = None,
        spiele: app_commands.Range[int, 1, 200] | None = None,
        zugzeit: app_commands.Range[int, 5, 3600] | None = None,
        plaetze: app_commands.Range[int, 4, 5] | None = None,
        bots: str | None = None,
        bei_abwesenheit: str | None = None,
        protokoll: bool | None = None,
        bedenkzeit: int | None = None,
        coach: bool = False,
    ) -> None:
        """Open a table: the server's defaults (``/doko einstellungen``), these options on top."""
        lang = self.handlers.reply(interaction).lang
        if interaction.guild_id is None or interaction.channel_id is None:
            await answers.say(interaction, t(lang, "guild_only"))
            return
        if self.bot.engine.find_table(interaction.guild_id, interaction.channel_id):
            await answers.say(interaction, t(lang, "err_table_exists"))
            return
        # Discord says what the bot may do here: refuse before a table nobody can see opens.
        problem = access_problem(interaction.app_permissions, TABLE_REQUIRED, lang)
        if problem is not None:
            await answers.say(interaction, problem)
            return
        # The lobby is no game action: a "thinking" answer at once, the lobby message (after
        # the table is stored) is the confirmation.
        await interaction.response.defer()
        await open_table(
            self.bot,
            interaction,
            lang,
            regeln,
            spiele,
            zugzeit,
            plaetze,
            bots,
            bei_abwesenheit,
            protokoll,
            bedenkzeit,
            coach,
        )

    @app_commands.command(name="karten", description="Deine Karten noch einmal zeigen")
    async def karten(self, interaction: Interaction) -> None:
        reply = self.handlers.reply(interaction)
        info = self.handlers.table_here(interaction)
        if info is not None:
            await self.handlers.show_hand(reply, info)
        # In a DM, for a table another process runs: that process shows the hand.
        elif not await forward_command(self.bot.forwarder, interaction, "karten"):
            await reply.say(t(reply.lang, "no_table_here"))

    @app_commands.command(name="ansage", description="Eine Ansage oder Absage machen")
    @app_commands.describe(ansage="Re, Kontra, keine 90/60/30 oder schwarz")
    async def ansage(self, interaction: Interaction, ansage: str) -> None:
        reply = self.handlers.reply(interaction)
        option = ansage.strip().lower().replace(" ", "")
        info = self.handlers.table_here(interaction)
        if option not in CALL_OPTIONS:  # not one of the options, wherever it was typed
            await reply.say(t(reply.lang, "err_bad_action"))
        elif info is not None:
            await self.handlers.announce(reply, info, option)
        # In a DM, for a table another process runs: that process makes the call.
        elif not await forward_command(self.bot.forwarder, interaction, "ansage", (option,)):
            await reply.say(t(reply.lang, "no_table_here"))

    @ansage.autocomplete("ansage")
    async def ansage_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        info = self.handlers.table_here(interaction)
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
        reply = self.handlers.reply(interaction)
        info = self.handlers.table_here(interaction)
        if info is not None:
            await self.handlers.show_stand(
                reply, info, self.handlers.public_lang(interaction, reply), dateien
            )
        # In a DM, for a table another process runs: that process shows its Spielliste.
        elif not await forward_command(
            self.bot.forwarder, interaction, "stand", ("dateien",) if dateien else ()
        ):
            await reply.say(t(reply.lang, "no_table_here"))

    @app_commands.command(name="rangliste", description="Die Rangliste dieses Servers")
    @app_commands.describe(**RANGLISTE_OPTIONS)
    @app_commands.choices(zeitraum=ZEITRAUM_CHOICES, nach=ORDER_CHOICES)
    async def rangliste(
        self,
        interaction: Interaction,
        zeitraum: str = "gesamt",
        monat: str | None = None,
        nach: str = "points",
        seite: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        reply = self.handlers.reply(interaction)
        period = await ask_zeitraum(self.bot, interaction, zeitraum, monat, reply.lang)
        if period is not None:
            order: Order = "rating" if nach == "rating" else "points"
            lang = self.handlers.public_lang(interaction, reply)
            await send_board(self.bot, interaction, period, order, seite - 1, lang)

    @app_commands.command(name="statistik", description="Die Zahlen eines Spielers")
    @app_commands.describe(spieler="Wessen Statistik (Standard: deine)", **STATISTIK_OPTIONS)
    @app_commands.choices(zeitraum=ZEITRAUM_CHOICES)
    async def statistik(
        self,
        interaction: Interaction,
        spieler: discord.User | None = None,
        zeitraum: str = "gesamt",
        monat: str | None = None,
    ) -> None:
        reply = self.handlers.reply(interaction)
        period = await ask_zeitraum(self.bot, interaction, zeitraum, monat, reply.lang)
        if period is not None:
            lang = self.handlers.public_lang(interaction, reply)
            await send_figures(self.bot, interaction, spieler or interaction.user, period, lang)

    @app_commands.command(name="regeln", description="Die Regeln dieses Tisches")
    async def regeln(self, interaction: Interaction) -> None:
        reply = self.handlers.reply(interaction)
        info = self.handlers.table_here(interaction)
        # In a DM, for a table another process runs: that process names its rules.
        if info is not None or not await forward_command(self.bot.forwarder, interaction, "regeln"):
            await self.handlers.show_rules(reply, info)

    @app_commands.command(name="export", description="Ein beendetes Spiel als doko-game/1-Datei")
    @app_commands.describe(spiel="Spiel-Nummer (#…) aus der Tischnachricht; Standard: das letzte")
    async def export(self, interaction: Interaction, spiel: int | None = None) -> None:
        lang = self.handlers.reply(interaction).lang
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
        reply = self.handlers.reply(interaction)
        try:
            scored = abrechnen.score_real_game(
                vertrag, re_plaetze, re_augen, re_stiche, re_ansage, kontra_ansage, sonderpunkte
            )
        except abrechnen.SheetError as error:
            await answers.say(interaction, t(reply.lang, error.key, **error.values))
            return
        lang = self.handlers.public_lang(interaction, reply)
        embed = score_embed(scored.contract, scored.re_seats, scored.result, lang)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="stopp", description="Den Tisch beenden (Gastgeber oder Admins)")
    async def stopp(self, interaction: Interaction) -> None:
        lang = self.handlers.reply(interaction).lang
        info = self.handlers.table_here(interaction) if interaction.guild_id else None
        if info is None or info.channel_id != interaction.channel_id:
            await answers.say(interaction, t(lang, "no_table_here"))
            return
        member = await access.member_of(interaction, self.bot.engine)
        refusal = access.stop_table(member, info)
        if refusal is not None:
            await answers.say(interaction, refusal.text(lang))
            return
        try:
            await self.bot.engine.stop_table(info.id, interaction.user.id, admin=member.admin)
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
        lang, user_id = self.handlers.reply(interaction).lang, interaction.user.id
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
        lang = self.handlers.reply(interaction).lang
        rating = t(lang, "help_rating", min=MIN_RATED_GAMES)
        body = f"{t(lang, 'help_body')}\n\n**{t(lang, 'help_rating_title')}**\n{rating}"
        body += f"\n\n**{t(lang, 'help_slow_title')}**\n{t(lang, 'help_slow')}"
        embed = discord.Embed(title=t(lang, "help_title"), description=body)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- input that cannot be taken ------------------------------------------------------

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Every ``/doko`` command: options outside their definition are refused first."""
        return await options.accept(interaction)


async def open_table(
    bot: DokoBot,
    interaction: Interaction,
    lang: Lang,
    regeln: str | None,
    spiele: int | None,
    zugzeit: int | None,
    plaetze: int | None,
    bots: str | None,
    bei_abwesenheit: str | None = None,
    protokoll: bool | None = None,
    bedenkzeit: int | None = None,
    coach: bool = False,
) -> None:
    """``/doko tisch``, checked and deferred: the table opened from the server's defaults with
    the command's options on top, its lobby posted.
    """
    assert interaction.guild_id is not None and interaction.channel_id is not None
    presenter = bot.presenter
    defaults = await server.load(bot.db, interaction.guild_id)
    server.remember(presenter, interaction.guild_id, defaults)
    rules = defaults.rules if regeln is None else PRESETS.get(regeln, PRESETS["ddv"])
    if plaetze is not None:
        rules = rules.replace(players=plaetze)
    replay = defaults.replay_thread if protokoll is None else protokoll
    # Without the thread permissions the table plays on without threads: the host learns why.
    no_thread = replay_problem(interaction.app_permissions, lang) if replay else None
    try:
        info = await bot.engine.create_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            rules=rules,
            games=spiele or rules.games_per_round,
            turn_timer_s=defaults.turn_timer_s if zugzeit is None else zugzeit,
            ai_level=bots or defaults.ai_level,
            disconnect_policy=bei_abwesenheit or defaults.disconnect_policy,
            protokoll=replay and no_thread is None,
            tempo_s=defaults.tempo_s if bedenkzeit is None else bedenkzeit,
            coach=coach,
        )
    except EngineError as error:
        await answers.say(interaction, error_text(error, lang))
        return
    await answers.post_lobby(presenter, interaction, info)
    # Without Attach Files the table plays in text; the host learns what would bring the
    # pictures (the check costs no request: the interaction carries the permissions).
    if missing(interaction.app_permissions, ("attach_files",)):
        presenter.refuse_files(info)
        if presenter.pictures.enabled:
            text = t(lang, "pictures_off_here", missing=t(lang, "perm_attach_files"))
            await interaction.followup.send(text, ephemeral=True)
    if no_thread is not None:
        await interaction.followup.send(no_thread, ephemeral=True)


async def setup(bot: DokoBot) -> None:
    await bot.add_cog(Doko(bot))
