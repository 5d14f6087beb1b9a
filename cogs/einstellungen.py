"""``/doko einstellungen``: a server's defaults for new tables, shown and changed.

The command hangs under the ``/doko`` group of :mod:`cogs.doko` (loaded first), as
``/doko turnier`` does. Its answer is ephemeral, in the user's language; the controls on it
carry ``dokoset:…`` custom ids, read here (:mod:`bot.discord.settings` has the logic).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import access, answers
from bot.discord import settings as server
from bot.discord.bot import DokoBot
from bot.render.settings import PAGES, Page, ServerDefaults, saved_text
from bot.render.texts import lang_of, t
from cogs.under_doko import attach, detach

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
DESCRIPTION = "Die Standards dieses Servers für neue Tische"  # English: bot.render.translator


class Einstellungen(commands.Cog):
    """``/doko einstellungen`` and the clicks on its message."""

    def __init__(self, bot: DokoBot) -> None:
        self.bot = bot

        async def einstellungen(interaction: Interaction) -> None:
            await self.show(interaction)

        self.command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name="einstellungen", description=DESCRIPTION, callback=einstellungen
        )

    async def cog_load(self) -> None:
        attach(self.bot, self.command)
        self.bot.component_routes[server.PREFIX] = self.on_component
        if self.bot.running:
            await server.remember_all(self.bot.db, self.bot.presenter)

    async def cog_unload(self) -> None:
        detach(self.bot, self.command)
        self.bot.component_routes.pop(server.PREFIX, None)

    async def show(self, interaction: Interaction) -> None:
        lang = lang_of(interaction.locale)
        if interaction.guild_id is None:
            await answers.say(interaction, t(lang, "guild_only"))
            return
        defaults = await server.load(self.bot.db, interaction.guild_id)
        member = await access.member_of(interaction, self.bot.engine)
        embed, view = server.message("vorlage", defaults, lang, member)
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def on_component(self, interaction: Interaction) -> None:
        """A click on the settings message (a ``dokoset:…`` id, routed here by the bot)."""
        lang = lang_of(interaction.locale)
        data: dict[str, Any] = dict(interaction.data or {})
        parsed = server.parse_id(str(data.get("custom_id", "")))
        if parsed is None or interaction.guild_id is None:
            await answers.say(interaction, t(lang, "err_bad_action"))
            return
        page, key, extra = parsed
        # A toggle's value is in its id; a select's in the interaction.
        values = [extra] if extra in ("0", "1") else [str(v) for v in data.get("values") or ()]
        defaults = await server.load(self.bot.db, interaction.guild_id)
        member = await access.member_of(interaction, self.bot.engine)
        if key == "page":
            shown: Page = next((p for p in PAGES if [p] == values), page)
            embed, view = server.message(shown, defaults, lang, member)
            # Another page: the last change's acknowledgement goes.
            await interaction.response.edit_message(content=None, embed=embed, view=view)
        elif (refused := refusal_of(member, key)) is not None:
            await answers.say(interaction, refused.text(lang))
        elif extra == "ask":
            modal = server.ask_modal(page, key, defaults, lang, self.on_answer)
            if modal is None:
                await answers.say(interaction, t(lang, "err_bad_action"))
            else:
                await interaction.response.send_modal(modal)
        else:
            await self.apply(interaction, page, key, values, defaults, member)

    async def on_answer(self, interaction: Interaction, page: Page, key: str, text: str) -> None:
        """A modal's answer: checked again (the modal may have stayed open a while)."""
        assert interaction.guild_id is not None  # the modal came from a guild's message
        defaults = await server.load(self.bot.db, interaction.guild_id)
        member = await access.member_of(interaction, self.bot.engine)
        refused = refusal_of(member, key)
        if refused is not None:
            await answers.say(interaction, refused.text(lang_of(interaction.locale)))
            return
        await self.apply(interaction, page, key, [text], defaults, member)

    async def apply(
        self,
        interaction: Interaction,
        page: Page,
        key: str,
        values: list[str],
        defaults: ServerDefaults,
        member: access.Member,
    ) -> None:
        """Store the change, then show it: the clicked message is edited to the new state."""
        assert interaction.guild_id is not None
        lang = lang_of(interaction.locale)
        try:
            changes = server.change(defaults, key, values)
        except server.SettingError as error:
            await answers.say(interaction, t(lang, error.key, **error.values))
            return
        new = await server.save(self.bot.db, interaction.guild_id, changes)
        server.remember(self.bot.presenter, interaction.guild_id, new)
        log.info("guild %s: %s set by %s", interaction.guild_id, key, interaction.user.id)
        embed, view = server.message(page, new, lang, member)
        await interaction.response.edit_message(
            content=saved_text(key, new, lang), embed=embed, view=view
        )


def refusal_of(member: access.Member, key: str) -> access.Refusal | None:
    """Why ``member`` may not change ``key`` (None: they may)."""
    if key == "admin_role_id":
        return access.choose_admin_role(member)
    return access.change_defaults(member)


async def setup(bot: DokoBot) -> None:
    await bot.add_cog(Einstellungen(bot))
