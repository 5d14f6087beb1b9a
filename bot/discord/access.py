"""Who may do what: the one place that decides, for every command that not everyone may use.

A server admin in the bot's sense has Manage Server (Administrator implies it) or holds the
server's bot-admin role (``GuildSettings.admin_role_id``, set with ``/doko einstellungen``).
A server admin may do everything here, the server's defaults for new tables included, but
change the bot's settings for the server and choose the bot-admin role, which take Manage
Server itself (the bot-admin role must not hand itself on); the table host may besides stop
their table and take bots off its seats, the tournament organiser may run and correct their
tournament. A refusal names who may, in the member's language.

The engine checks host and organiser again (``admin=`` says the member is a server admin),
so a front end that skips this module still cannot stop someone else's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.engine import Engine, TableInfo
from bot.engine.tournaments import TournamentRow
from bot.render.texts import Lang, t

Deed = Literal[
    "stop_table",
    "remove_bot",
    "create_tournament",
    "run_tournament",  # start, pause, end, replace a player
    "correct_tournament",
    "change_settings",
    "change_defaults",  # /doko einstellungen: rules, turn timer, bots, language …
    "choose_admin_role",
    "decide_absence",  # the table waits for an absent player: a bot, or the game scored
    "create_challenge",  # /doko herausforderung erstellen
]


@dataclass(frozen=True, slots=True)
class Member:
    """The member asking, as far as their rights go."""

    user_id: int
    manages_server: bool
    """Manage Server, or Administrator (which implies it)."""
    admin_role_id: int | None
    """The server's bot-admin role (None: the server named none)."""
    has_admin_role: bool

    @property
    def admin(self) -> bool:
        """A server admin in the bot's sense: may do everything this module decides."""
        return self.manages_server or self.has_admin_role


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the member may not: what they wanted and who may instead."""

    deed: Deed
    admin_role_id: int | None
    """The bot-admin role that would do (None: none does)."""
    owner: tuple[Literal["host", "organiser"], int] | None = None

    def text(self, lang: Lang) -> str:
        """The answer to the member: what they wanted, and who may."""
        who = []
        if self.owner is not None:
            kind, user_id = self.owner
            who.append(t(lang, f"access_who_{kind}", name=f"<@{user_id}>"))
        who.append(t(lang, "access_who_manage"))
        if self.admin_role_id is not None:
            who.append(t(lang, "access_who_role", role=f"<@&{self.admin_role_id}>"))
        joined = who[0]
        if len(who) > 1:
            joined = ", ".join(who[:-1]) + f" {t(lang, 'access_or')} " + who[-1]
        return t(lang, "access_refused", what=t(lang, f"access_what_{self.deed}"), who=joined)


async def member_of(interaction: discord.Interaction[Any], engine: Engine) -> Member:
    """The member behind an interaction: their permissions in the channel, and whether they
    hold the server's bot-admin role (read from the store each time: the setting may change).
    """
    perms = interaction.permissions
    role_id = None
    if interaction.guild_id is not None:
        role_id = (await engine.guild_settings(interaction.guild_id)).admin_role_id
    user = interaction.user
    # The member's role ids come with the interaction; get_role needs the role cached too,
    # so a role the server deleted counts as none.
    holds = (
        role_id is not None
        and isinstance(user, discord.Member)
        and user.get_role(role_id) is not None
    )
    return Member(user.id, bool(perms.administrator or perms.manage_guild), role_id, bool(holds))


def _decide(member: Member, deed: Deed, owner: Any = None) -> Refusal | None:
    if member.admin or (owner is not None and owner[1] == member.user_id):
        return None
    return Refusal(deed, member.admin_role_id, owner)


def stop_table(member: Member, info: TableInfo) -> Refusal | None:
    """``/doko stopp``: the host or a server admin."""
    return _decide(member, "stop_table", ("host", info.host_id))


def remove_bot(member: Member, info: TableInfo) -> Refusal | None:
    """A bot taken off a lobby seat: the host or a server admin (seats are the host's)."""
    return _decide(member, "remove_bot", ("host", info.host_id))


def create_tournament(member: Member) -> Refusal | None:
    """``/doko turnier erstellen``: a server admin (the creator becomes its organiser)."""
    return _decide(member, "create_tournament")


def run_tournament(member: Member, tournament: TournamentRow) -> Refusal | None:
    """Start, pause, end a tournament or replace a player: its organiser or a server admin."""
    return _decide(member, "run_tournament", ("organiser", tournament.organiser_id))


def correct_tournament(member: Member, tournament: TournamentRow) -> Refusal | None:
    """``/doko turnier korrigieren``: the organiser or a server admin."""
    return _decide(member, "correct_tournament", ("organiser", tournament.organiser_id))


def change_settings(member: Member) -> Refusal | None:
    """The server's settings for the bot (``/doko einstellungen``): Manage Server only."""
    return None if member.manages_server else Refusal("change_settings", None)


def change_defaults(member: Member) -> Refusal | None:
    """The server's defaults for new tables (``/doko einstellungen``): a server admin."""
    return _decide(member, "change_defaults")


def choose_admin_role(member: Member) -> Refusal | None:
    """The bot-admin role itself: Manage Server only (the role does not hand itself on)."""
    return None if member.manages_server else Refusal("choose_admin_role", None)


def decide_absence(member: Member, info: TableInfo) -> Refusal | None:
    """Bot übernimmt, Spiel werten (a table waits for someone): the host or a server admin."""
    return _decide(member, "decide_absence", ("host", info.host_id))


def create_challenge(member: Member) -> Refusal | None:
    """``/doko herausforderung erstellen``: a server admin, as for tournaments."""
    return _decide(member, "create_challenge")
