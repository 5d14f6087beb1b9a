"""``/doko meine-tische``: every open table of the player, on every server, where it is
their move first (a jump link to the table message, the game, since when, time left).

The command hangs under the ``/doko`` group of :mod:`cogs.doko` (loaded first), as
``/doko einstellungen`` does. The answer is ephemeral, in the user's language, one message
(:func:`bot.render.slow.my_tables_text` cuts it to Discord's 2,000 characters).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import answers
from bot.discord.bot import DokoBot
from bot.render.slow import my_tables_text
from bot.render.texts import lang_of
from cogs.under_doko import attach, detach

Interaction = discord.Interaction[Any]
NAME = "meine-tische"
# English: bot.render.translator
DESCRIPTION = "Deine offenen Tische auf allen Servern, wo du am Zug bist zuerst"


class MeineTische(commands.Cog):
    """``/doko meine-tische``."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot

        async def meine_tische(interaction: Interaction) -> None:
            await self.show(interaction)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=NAME, description=DESCRIPTION, callback=meine_tische
        )

    async def cog_load(self) -> None:
        attach(self.bot, self.command)

    async def cog_unload(self) -> None:
        detach(self.bot, self.command)

    async def show(self, interaction: Interaction) -> None:
        """The list, read from the store and the tables this process runs."""
        lang = lang_of(interaction.locale)
        entries = await self.bot.engine.my_tables(interaction.user.id)
        await answers.say(interaction, my_tables_text(entries, lang))


async def setup(bot: DokoBot) -> None:
    await bot.add_cog(MeineTische(bot))
