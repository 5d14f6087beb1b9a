"""The channel permissions the bot needs, derived from what it calls; the README's invite
link carries exactly these (a test compares its number with :data:`INVITE_PERMISSIONS`).

A table posts its message with embeds and pictures (View Channel, Send Messages, Embed
Links, Attach Files; without the last it plays in text) and edits and deletes only its own
messages, which needs nothing more;
a tournament opens a public thread per table and posts there (Create Public Threads, Send
Messages in Threads). Nothing privileged, no Manage Messages.
"""

from __future__ import annotations

import discord

from bot.render.texts import Lang, t

# Flag names as discord.Permissions spells them (iterating a Permissions yields its aliases,
# read_messages for view_channel: these are named, in Discord's order, for the texts).
TABLE_FLAGS = ("view_channel", "send_messages", "embed_links", "attach_files")
# Without Attach Files a table still plays, in text: its pictures stay off in that channel.
TABLE_REQUIRED = ("view_channel", "send_messages", "embed_links")
# A replay thread (a table option) needs the same two as a tournament's table threads.
REPLAY_FLAGS = ("create_public_threads", "send_messages_in_threads")
TOURNAMENT_FLAGS = (*TABLE_FLAGS, *REPLAY_FLAGS)
TABLE_PERMISSIONS = discord.Permissions(**dict.fromkeys(TABLE_FLAGS, True))
TOURNAMENT_PERMISSIONS = discord.Permissions(**dict.fromkeys(TOURNAMENT_FLAGS, True))
INVITE_PERMISSIONS = TOURNAMENT_PERMISSIONS
INVITE_SCOPES = ("bot", "applications.commands")


def missing(have: discord.Permissions, flags: tuple[str, ...]) -> list[str]:
    """The ``flags`` that ``have`` lacks (each has its ``perm_<flag>`` text)."""
    return [name for name in flags if not getattr(have, name)]


def access_problem(have: discord.Permissions, flags: tuple[str, ...], lang: Lang) -> str | None:
    """What to tell the player when the bot lacks some of ``flags`` in the channel; None when
    it has them all.
    """
    lacking = missing(have, flags)
    if not lacking:
        return None
    names = ", ".join(t(lang, f"perm_{name}") for name in lacking)
    return t(lang, "err_channel_access", missing=names)
