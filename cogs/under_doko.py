"""Command families added under ``/doko`` by cogs of their own (turnier, einstellungen, …)."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands

Command = app_commands.Command[Any, ..., Any] | app_commands.Group


def attach(bot: commands.Bot, command: Command) -> None:
    """Add ``command`` to the ``/doko`` group (the Doko cog is loaded first)."""
    doko = bot.get_cog("Doko")
    assert isinstance(doko, commands.GroupCog) and doko.app_command is not None
    doko.app_command.add_command(command)


def detach(bot: commands.Bot, command: Command) -> None:
    """Take ``command`` out of the ``/doko`` group again (on unload; Doko may be gone)."""
    doko = bot.get_cog("Doko")
    if isinstance(doko, commands.GroupCog) and doko.app_command is not None:
        doko.app_command.remove_command(command.name)
