"""``/doko turnier …``: parse the interaction, call one tournament-service method, render.

The subcommand group hangs under the ``/doko`` group of :mod:`cogs.doko` (loaded first).
Each tournament table plays in its own public thread of the tournament's channel; the
cog opens those threads for the service and posts round seatings, sheets and standings.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import Any, Final, TypeVar
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import access, answers, options
from bot.discord import settings as server
from bot.discord.bot import DokoBot
from bot.discord.permissions import TOURNAMENT_FLAGS, access_problem
from bot.engine.model import EngineError
from bot.engine.tournaments import (
    GameRef,
    RoundStarted,
    TableFinished,
    TournamentEvent,
    TournamentFinished,
    TournamentRow,
    TournamentService,
)
from bot.render.presets import PRESETS, preset_name
from bot.render.texts import Lang, lang_of
from bot.render.times import parse_time, time_text, zone_of
from bot.render.translator import EN
from bot.render.turnier import (
    COMMAND_EN,
    name_of,
    overview_embed,
    results_embed,
    round_embed,
    seats_text,
    sheet_embed,
    tt,
    turnier_error,
)
from cogs.under_doko import attach, detach

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
PRESET_CHOICES = [
    app_commands.Choice(name="DDV-Turnierregeln", value="ddv"),
    app_commands.Choice(name="DDV ohne Neunen", value="ohne_neunen"),
]
SEATING_CHOICES = [
    app_commands.Choice(name="Möglichst viele Gegner", value="mixing"),
    app_commands.Choice(name="Nach Tabellenstand", value="standing"),
]


def _lang(interaction: Interaction) -> Lang:
    """The user's language: for answers only they see."""
    return lang_of(interaction.locale)


T = TypeVar("T")


class _Refused(Enum):
    REFUSED = 0


REFUSED: Final = _Refused.REFUSED


async def _attempt(interaction: Interaction, call: Awaitable[T]) -> T | _Refused:
    """Await one service call; a refusal is answered to the user and reported as REFUSED."""
    try:
        return await call
    except EngineError as error:
        await answers.say(interaction, turnier_error(error, _lang(interaction)))
        return REFUSED


class Turnier(app_commands.Group):
    """The ``turnier`` subcommands; ``turnier`` (an id) picks one, else the newest open one."""

    def __init__(self, bot: DokoBot) -> None:
        super().__init__(name="turnier", description="Turniere mit Pflichtsolo")
        self.bot = bot

    @property
    def service(self) -> TournamentService:
        service: TournamentService = self.bot.tournaments
        return service

    def _public(self, interaction: Interaction) -> Lang:
        """The guild's language: for answers the whole channel reads."""
        presenter = self.bot.presenter
        presenter.note_guild_locale(interaction.guild_id, interaction.guild_locale)
        return presenter.public_lang(interaction.guild_id)

    async def _find(self, interaction: Interaction, turnier: int | None) -> TournamentRow | None:
        if interaction.guild_id is None:
            await answers.say(
                interaction, turnier_error(EngineError("no_tournament", ""), _lang(interaction))
            )
            return None
        found = await _attempt(interaction, self.service.find(interaction.guild_id, turnier))
        return None if found is REFUSED else found

    async def _zone(self, guild_id: int) -> ZoneInfo:
        """The server's time zone: tournament times are given and shown in it."""
        return zone_of((await self.bot.engine.guild_settings(guild_id)).time_zone)

    async def _allowed(
        self, interaction: Interaction, check: Callable[[access.Member], access.Refusal | None]
    ) -> access.Member | None:
        """The member when ``check`` lets them; else None, and they are told who may."""
        member = await access.member_of(interaction, self.bot.engine)
        refusal = check(member)
        if refusal is not None:
            await answers.say(interaction, refusal.text(_lang(interaction)))
            return None
        return member

    @app_commands.command(name="erstellen", description="Ein Turnier anlegen")
    @app_commands.describe(
        name="Name des Turniers",
        runden="Anzahl der Runden",
        spiele="Spiele pro Runde und Tisch (DDV: 24)",
        regeln="Regelsatz",
        beginn="Beginn als JJJJ-MM-TT HH:MM in der Zeit des Servers; leer: Start von Hand",
        sitzordnung="Wie ab Runde 2 gesetzt wird",
        bots="Stufe der Bots an freien Plätzen (Standard: wie in /doko einstellungen)",
        bei_abwesenheit="Läuft die Zugzeit ab: Bot spielt, Tisch wartet oder Spiel verloren",
    )
    @app_commands.choices(
        regeln=PRESET_CHOICES,
        sitzordnung=SEATING_CHOICES,
        bots=options.BOT_CHOICES,
        bei_abwesenheit=options.POLICY_CHOICES,
    )
    async def erstellen(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 80],
        runden: app_commands.Range[int, 1, 20],
        spiele: app_commands.Range[int, 1, 100] = 24,
        regeln: str = "ddv",
        beginn: str | None = None,
        sitzordnung: str = "mixing",
        bots: str | None = None,
        bei_abwesenheit: str | None = None,
    ) -> None:
        lang = self._public(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            mine = _lang(interaction)
            await answers.say(interaction, turnier_error(EngineError("no_tournament", ""), mine))
            return
        if await self._allowed(interaction, access.create_tournament) is None:
            return
        # Each table plays in a thread of this channel: refuse before the bot cannot open one.
        problem = access_problem(interaction.app_permissions, TOURNAMENT_FLAGS, _lang(interaction))
        if problem is not None:
            await answers.say(interaction, problem)
            return
        # Given on the server's wall clock (its time zone), stored in UTC.
        zone = await self._zone(interaction.guild_id)
        given = parse_time(beginn, zone) if beginn else None
        if given is not None and given.when is None:
            await answers.say(interaction, given.problem_text(_lang(interaction)) or "")
            return
        starts_at = given.when if given is not None else None
        defaults = await server.load(self.bot.db, interaction.guild_id)
        await interaction.response.defer()
        tournament = await _attempt(
            interaction,
            self.service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                organiser_id=interaction.user.id,
                organiser_name=interaction.user.display_name,
                name=name,
                rounds=runden,
                games_per_round=spiele,
                rules=PRESETS.get(regeln, PRESETS["ddv"]),
                preset=regeln,
                seating="standing" if sitzordnung == "standing" else "mixing",
                starts_at=starts_at,
                ai_level=bots or defaults.ai_level,
                disconnect_policy=bei_abwesenheit or defaults.disconnect_policy,
            ),
        )
        if tournament is REFUSED:
            return
        start = ""
        if starts_at is not None:
            start = tt(lang, "starts_at", when=time_text(starts_at, zone, lang))
            if given is not None and given.folded:
                start += f" {given.note_text(lang)}"
        await interaction.followup.send(
            tt(
                lang,
                "created",
                name=tournament.name,
                id=tournament.id,
                rounds=tournament.rounds,
                games=tournament.games_per_round,
                preset=preset_name(tournament.preset, lang),
                start=start,
                seats=seats_text(tournament, lang),
            )
        )

    @app_commands.command(name="anmelden", description="Für das Turnier anmelden")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def anmelden(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = _lang(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        if (
            await _attempt(
                interaction,
                self.service.register(found.id, interaction.user.id, interaction.user.display_name),
            )
            is REFUSED
        ):
            return
        await answers.say(interaction, tt(lang, "registered", name=found.name))

    @app_commands.command(name="abmelden", description="Vom Turnier abmelden")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def abmelden(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = _lang(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        await interaction.response.defer(ephemeral=True)
        if (
            await _attempt(interaction, self.service.withdraw(found.id, interaction.user.id))
            is REFUSED
        ):
            return
        await answers.say(interaction, tt(lang, "withdrawn", name=found.name))

    @app_commands.command(name="teilnehmer", description="Das Teilnehmerfeld zeigen")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def teilnehmer(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = self._public(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        view = await self.service.overview(found.id)
        zone = await self._zone(found.guild_id)
        await interaction.response.send_message(embed=overview_embed(view, lang, zone))

    @app_commands.command(name="starten", description="Das Turnier jetzt starten oder fortsetzen")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def starten(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = self._public(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        member = await self._allowed(interaction, lambda m: access.run_tournament(m, found))
        if member is None:
            return
        await interaction.response.defer()
        now = await _attempt(
            interaction, self.service.begin(found.id, interaction.user.id, admin=member.admin)
        )
        if now is REFUSED:
            return
        key = "started" if now.current_round > found.current_round else "resumed"
        await interaction.followup.send(tt(lang, key, name=now.name, round=now.current_round))

    @app_commands.command(name="pause", description="Nach dieser Runde anhalten")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def pause(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = self._public(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        member = await self._allowed(interaction, lambda m: access.run_tournament(m, found))
        if member is None:
            return
        if (
            await _attempt(
                interaction,
                self.service.pause(found.id, interaction.user.id, admin=member.admin),
            )
            is REFUSED
        ):
            return
        await interaction.response.send_message(tt(lang, "paused", name=found.name))

    @app_commands.command(name="ergebnis", description="Stand und Ergebnisse")
    @app_commands.describe(
        turnier="Turnier-Nummer (Standard: das aktuelle)",
        runde="Nur diese Runde, mit den Spiellisten der Tische",
    )
    async def ergebnis(
        self,
        interaction: Interaction,
        turnier: int | None = None,
        runde: app_commands.Range[int, 1, 20] | None = None,
    ) -> None:
        lang = self._public(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        await interaction.response.defer()
        view = await self.service.overview(found.id)
        await interaction.followup.send(embed=results_embed(view, lang, runde))

    @app_commands.command(name="export", description="Das Ergebnis als CSV-Datei")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def export(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = _lang(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        await interaction.response.defer(ephemeral=True)
        data = (await self.service.results_csv(found.id)).encode()
        await interaction.followup.send(
            tt(lang, "export_ready", name=found.name),
            file=discord.File(io.BytesIO(data), filename=f"turnier-{found.id}.csv"),
            ephemeral=True,
        )

    @app_commands.command(
        name="ersetzen", description="Einen Spieler durch einen Ersatz-Bot ersetzen"
    )
    @app_commands.describe(
        spieler="Wer ersetzt wird", turnier="Turnier-Nummer (Standard: das aktuelle)"
    )
    async def ersetzen(
        self, interaction: Interaction, spieler: discord.User, turnier: int | None = None
    ) -> None:
        lang = self._public(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        member = await self._allowed(interaction, lambda m: access.run_tournament(m, found))
        if member is None:
            return
        await interaction.response.defer()
        sub = await _attempt(
            interaction,
            self.service.replace(found.id, interaction.user.id, spieler.id, admin=member.admin),
        )
        if sub is REFUSED:
            return
        if sub is None:
            text = tt(lang, "replaced_later", player=spieler.display_name)
        else:
            text = tt(
                lang,
                "replaced",
                player=spieler.display_name,
                sub=name_of(sub, {}, lang),
                name=found.name,
            )
        await interaction.followup.send(text)

    @app_commands.command(name="korrigieren", description="Ein Spiel berichtigen (mit Grund)")
    @app_commands.describe(
        runde="Runde",
        tisch="Tisch",
        spiel="Spiel-Nummer in der Spielliste des Tisches",
        punkte="Neue Punkte in Sitzreihenfolge, z. B. 3,-1,-1,-1",
        grund="Grund der Berichtigung (kommt ins Protokoll)",
        turnier="Turnier-Nummer (Standard: das aktuelle)",
    )
    async def korrigieren(
        self,
        interaction: Interaction,
        runde: app_commands.Range[int, 1, 20],
        tisch: app_commands.Range[int, 1, 100],
        spiel: app_commands.Range[int, 1, 500],
        punkte: str,
        grund: app_commands.Range[str, 1, 300],
        turnier: int | None = None,
    ) -> None:
        lang = self._public(interaction)
        try:
            points = [int(p) for p in punkte.replace(" ", "").split(",") if p]
        except ValueError:
            await answers.say(interaction, tt(_lang(interaction), "bad_points"))
            return
        found = await self._find(interaction, turnier)
        if found is None:
            return
        member = await self._allowed(interaction, lambda m: access.correct_tournament(m, found))
        if member is None:
            return
        await interaction.response.defer()
        ref = GameRef(runde, tisch, spiel)
        entry = await _attempt(
            interaction,
            self.service.correct_seats(
                found.id, interaction.user.id, ref, points, grund, admin=member.admin
            ),
        )
        if entry is REFUSED:
            return
        await interaction.followup.send(
            tt(
                lang,
                "corrected",
                game=spiel,
                table=tisch,
                round=runde,
                before=" ".join(f"{p:+d}" for _, p in entry.before),
                after=" ".join(f"{p:+d}" for _, p in entry.after),
                reason=entry.reason,
            )
        )

    @app_commands.command(name="beenden", description="Das Turnier nach dieser Runde beenden")
    @app_commands.describe(turnier="Turnier-Nummer (Standard: das aktuelle)")
    async def beenden(self, interaction: Interaction, turnier: int | None = None) -> None:
        lang = self._public(interaction)
        found = await self._find(interaction, turnier)
        if found is None:
            return
        member = await self._allowed(interaction, lambda m: access.run_tournament(m, found))
        if member is None:
            return
        await interaction.response.defer()
        if (
            await _attempt(
                interaction,
                self.service.end(found.id, interaction.user.id, admin=member.admin),
            )
            is REFUSED
        ):
            return
        await interaction.followup.send(tt(lang, "ending", name=found.name))

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Every ``/doko turnier`` command: options outside their definition are refused."""
        return await options.accept(interaction)


class TurnierCog(commands.Cog):
    """Opens the tables' threads for the service and posts what happens in a tournament."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.group = Turnier(bot)
        self._unsubscribe: Callable[[], None] | None = None

    async def cog_load(self) -> None:
        attach(self.bot, self.group)
        if self.bot.running:
            self.bot.tournaments.channels = self
            self._unsubscribe = self.bot.tournaments.subscribe(self.on_tournament_event)

    async def cog_unload(self) -> None:
        detach(self.bot, self.group)
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def open_table_channel(
        self, tournament: TournamentRow, round_number: int, table_number: int
    ) -> int:
        channel = self.bot.get_channel(tournament.channel_id) or await self.bot.fetch_channel(
            tournament.channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise RuntimeError(f"tournament channel {channel.id} is no text channel")
        lang = self.bot.presenter.public_lang(tournament.guild_id)
        name = tt(
            lang, "thread_name", name=tournament.name, round=round_number, table=table_number
        )[:100]
        thread = await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        return int(thread.id)

    async def on_tournament_event(self, event: TournamentEvent) -> None:
        tournament = event.tournament
        lang = self.bot.presenter.public_lang(tournament.guild_id)
        channel = self.bot.get_partial_messageable(tournament.channel_id)
        match event:
            case RoundStarted(round_number=number, tables=tables):
                view = await self.bot.tournaments.overview(tournament.id)
                await channel.send(
                    embed=round_embed(tournament.name, number, tables, view.names, lang)
                )
            case TableFinished(table=table, games=games, check=check):
                view = await self.bot.tournaments.overview(tournament.id)
                problems = [p.message for p in check.problems]
                thread = self.bot.get_partial_messageable(table.channel_id)
                await thread.send(embed=sheet_embed(table, games, view.names, problems, lang))
            case TournamentFinished():
                view = await self.bot.tournaments.overview(tournament.id)
                await channel.send(embed=results_embed(view, lang))


async def setup(bot: DokoBot) -> None:
    # The shared translator reads bot.render.translator.EN; the turnier names live with
    # their texts (bot.render.turnier) and join it here, before any sync.
    EN.update(COMMAND_EN)
    await bot.add_cog(TurnierCog(bot))
