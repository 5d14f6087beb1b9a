"""Members with and without permissions and roles, and what the bot may do in a channel."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from tests.fakediscord import FakeDiscord, User
from tests.fakediscord.models import ALL_PERMISSIONS, Guild, Role
from tests.fakediscord.test_server import World, fake, world  # noqa: F401  (fixtures)

MANAGE = discord.Permissions(manage_guild=True).value
ADMIN = discord.Permissions(administrator=True).value


def test_the_owner_has_all_members_what_everyone_and_their_roles_have() -> None:
    owner, member = User(1, "anna"), User(2, "ben")
    guild = Guild(10, "Stammtisch", owner, members=[owner, member])
    assert guild.permissions_of(owner) == int(ALL_PERMISSIONS)
    plain = discord.Permissions(guild.permissions_of(member))
    assert plain.send_messages and plain.use_application_commands
    assert not (plain.manage_guild or plain.administrator)
    managers = discord.Permissions(MANAGE)
    guild.roles.append(role := Role(11, "Moderation", MANAGE))
    guild.member_roles[member.id] = [role]
    assert discord.Permissions(guild.permissions_of(member)) >= managers
    guild.member_roles[member.id] = [Role(12, "Admin", ADMIN)]
    assert guild.permissions_of(member) == int(ALL_PERMISSIONS)  # Administrator: everything


async def test_an_interaction_carries_the_members_roles_and_permissions(
    world: World,  # noqa: F811
) -> None:
    fake_: FakeDiscord = world.fake
    seen: list[discord.Interaction[Any]] = []

    async def note(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction)

    world.bot.add_listener(note, "on_interaction")
    role = fake_.add_role(world.guild, "Doko-Leitung", permissions=MANAGE)
    ix = await fake_.slash(world.bob, "doko tisch", in_channel=world.channel, spiele=4)
    await fake_.response(ix)
    assert not seen[-1].permissions.manage_guild
    assert isinstance(seen[-1].user, discord.Member) and seen[-1].user.get_role(role.id) is None
    fake_.give_role(world.guild, world.bob, role)
    ix = await fake_.slash(world.bob, "doko tisch", in_channel=world.channel, spiele=4)
    await fake_.response(ix)
    member = seen[-1].user
    assert seen[-1].permissions.manage_guild
    assert isinstance(member, discord.Member) and member.get_role(role.id) is not None
    fake_.take_role(world.guild, world.bob, role)
    ix = await fake_.slash(world.bob, "doko tisch", in_channel=world.channel, spiele=4)
    await fake_.response(ix)
    assert not seen[-1].permissions.manage_guild


async def test_a_channel_refuses_what_the_bot_may_not_do_there(world: World) -> None:  # noqa: F811
    channel = world.bot.get_partial_messageable(world.channel.id)
    everything = discord.Permissions.all().value
    world.fake.app_permissions[world.channel.id] = (
        everything & ~discord.Permissions(attach_files=True).value
    )
    message = await channel.send("Text geht")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("Bild", file=discord.File(io.BytesIO(b"png"), filename="a.png"))
    assert refused.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await message.edit(attachments=[discord.File(io.BytesIO(b"png"), filename="a.png")])
    world.fake.app_permissions[world.channel.id] = (
        everything & ~discord.Permissions(send_messages=True).value
    )
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("Text")
    assert refused.value.code == 50013
    await message.edit(content="bearbeiten geht")  # an own message needs no Send Messages
    world.fake.app_permissions[world.channel.id] = 0
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("Text")
    assert refused.value.code == 50001
