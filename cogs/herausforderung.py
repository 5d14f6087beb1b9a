"""``/doko herausforderung …``: server challenges with the same deals for everyone.

The subcommand group hangs under the ``/doko`` group of :mod:`cogs.doko` (loaded first),
like ``/doko turnier``. A member plays in their DM: the table message and the hand go
there, so nothing of the deals shows in the server before the challenge has ended.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import access, answers, options, stored
from bot.discord.bot import DokoBot
from bot.engine.challenges import ChallengeEnded, ChallengeRow, ChallengeService
from bot.engine.model import EngineError
from bot.render.challenge import COMMAND_EN, challenge_error, created_text, standings_embed
from bot.render.presets import PRESETS
from bot.render.texts import Lang, lang_of, t
from bot.render.times import zone_of
from bot.render.translator import EN
from cogs.under_doko import attach, detach

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
T = TypeVar("T")
PRESET_CHOICES = [
    app_commands.Choice(name="DDV-Turnierregeln", value="ddv"),
    app_commands.Choice(name="DDV ohne Neunen", value="ohne_neunen"),
    app_commands.Choice(name="DDV ohne Soli", value="ohne_soli"),
    app_commands.Choice(name="Stammtisch", value="stammtisch"),
]


def _lang(interaction: Interaction) -> Lang:
    return lang_of(interaction.locale)


class Herausforderung(app_commands.Group):
    """The ``herausforderung`` subcommands; ``nummer`` picks one, else the newest open one."""

    def __init__(self, bot: DokoBot) -> None:
        super().__init__(
            name="herausforderung", description="Herausforderungen: dieselben Karten für alle"
        )
        self.bot = bot

    @property
    def service(self) -> ChallengeService:
        service: ChallengeService = self.bot.challenges
        return service

    async def _attempt(self, interaction: Interaction, call: Awaitable[T]) -> T | None:
        """One service call; a refusal is answered to the user (only they see it)."""
        try:
            return await call
        except EngineError as error:
            await answers.say(interaction, challenge_error(error, _lang(interaction)))
            return None

    async def _find(self, interaction: Interaction, nummer: int | None) -> ChallengeRow | None:
        """The server's challenge ``nummer`` (default: the current one); None once the user
        has been told there is none.
        """
        if interaction.guild_id is None:
            await answers.say(interaction, t(_lang(interaction), "err_no_challenge"))
            return None
        return await self._attempt(interaction, self.service.find(interaction.guild_id, nummer))

    async def _zone(self, guild_id: int) -> ZoneInfo:
        return zone_of((await self.bot.engine.guild_settings(guild_id)).time_zone)

    @app_commands.command(name="erstellen", description="Eine Herausforderung anlegen")
    @app_commands.describe(
        spiele="Anzahl der Spiele (z. B. 12 oder 24)",
        tage="Wie viele Tage sie läuft (1 bis 31)",
        regeln="Regelsatz",
        bots="Stärke der Bots",
    )
    @app_commands.choices(regeln=PRESET_CHOICES, bots=options.BOT_CHOICES)
    async def erstellen(
        self,
        interaction: Interaction,
        spiele: app_commands.Range[int, 1, 48] = 12,
        tage: app_commands.Range[int, 1, 31] = 7,
        regeln: str = "ddv",
        bots: str = "mittel",
    ) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await answers.say(interaction, t(_lang(interaction), "err_no_challenge"))
            return
        member = await access.member_of(interaction, self.bot.engine)
        refusal = access.create_challenge(member)
        if refusal is not None:
            await answers.say(interaction, refusal.text(_lang(interaction)))
            return
        presenter = self.bot.presenter
        presenter.note_guild_locale(interaction.guild_id, interaction.guild_locale)
        lang = presenter.public_lang(interaction.guild_id)
        challenge = await self._attempt(
            interaction,
            self.service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                creator_id=interaction.user.id,
                deals=spiele,
                days=tage,
                preset=regeln,
                rules=PRESETS.get(regeln, PRESETS["ddv"]),
                ai_level=bots,
            ),
        )
        if challenge is None:
            return
        view = await self.service.view(challenge)
        zone = await self._zone(interaction.guild_id)
        await interaction.response.send_message(created_text(view, zone, lang))

    @app_commands.command(
        name="spielen", description="Die Herausforderung spielen oder weiterspielen"
    )
    @app_commands.describe(nummer="Nummer der Herausforderung (Standard: die aktuelle)")
    async def spielen(self, interaction: Interaction, nummer: int | None = None) -> None:
        lang = _lang(interaction)
        challenge = await self._find(interaction, nummer)
        if challenge is None:
            return
        await interaction.response.defer(ephemeral=True)
        user = interaction.user
        try:
            channel_id = await stored.dm_channel(
                self.bot.db,
                self.bot,
                self.bot.presenter.budget,
                user.id,
                self.bot.presenter.user(user.id),
            )
        except discord.HTTPException:
            await interaction.followup.send(t(lang, "ch_no_dm"), ephemeral=True)
            return
        try:
            info, new = await self.service.play(challenge, user.id, user.display_name, channel_id)
        except EngineError as error:
            await interaction.followup.send(challenge_error(error, lang), ephemeral=True)
            return
        if new:
            text = t(lang, "ch_started", id=challenge.id)
        else:
            deal = len(info.spielliste) + 1
            text = t(lang, "ch_resumed", id=challenge.id, deal=deal, deals=challenge.deals)
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="stand", description="Der Stand der Herausforderung")
    @app_commands.describe(nummer="Nummer der Herausforderung (Standard: die aktuelle)")
    async def stand(self, interaction: Interaction, nummer: int | None = None) -> None:
        lang = _lang(interaction)
        challenge = await self._find(interaction, nummer)
        if challenge is None:
            return
        view = await self.service.view(challenge)
        zone = await self._zone(challenge.guild_id)
        embed = standings_embed(view, zone, lang, viewer=interaction.user.id)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Every ``/doko herausforderung`` command: options outside their definition are
        refused.
        """
        return await options.accept(interaction)


class HerausforderungCog(commands.Cog):
    """Adds the group under ``/doko`` and posts a challenge's summary when it ends."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot
        self.group = Herausforderung(bot)
        self._unsubscribe: Callable[[], None] | None = None

    async def cog_load(self) -> None:
        attach(self.bot, self.group)
        if self.bot.running:
            self._unsubscribe = self.bot.challenges.subscribe(self.on_ended)

    async def cog_unload(self) -> None:
        detach(self.bot, self.group)
        if self._unsubscribe is not None:
            self._unsubscribe()

    async def on_ended(self, event: ChallengeEnded) -> None:
        """The summary in the channel where the challenge was created."""
        challenge = event.view.challenge
        lang = self.bot.presenter.public_lang(challenge.guild_id)
        zone = zone_of((await self.bot.engine.guild_settings(challenge.guild_id)).time_zone)
        channel = self.bot.get_partial_messageable(challenge.channel_id)
        await channel.send(embed=standings_embed(event.view, zone, lang))


async def setup(bot: DokoBot) -> None:
    # The shared translator reads bot.render.translator.EN: the command names join it here.
    EN.update(COMMAND_EN)
    await bot.add_cog(HerausforderungCog(bot))
