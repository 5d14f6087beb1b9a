"""The loopback Discord sharded: the shard count on GET /gateway/bot, the shard in IDENTIFY
checked, each guild's events only on its shard's connection (DMs on shard 0).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest

from tests.fakediscord import FakeDiscord, apply_overrides


class ShardClient(discord.AutoShardedClient):
    """A bare sharded client that records the guilds and interactions reaching it."""

    def __init__(self, shard_id: int, count: int) -> None:
        super().__init__(intents=discord.Intents.default(), shard_ids=[shard_id], shard_count=count)
        self.interactions: list[discord.Interaction[Any]] = []

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.interactions.append(interaction)
        await interaction.response.defer()


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    async with FakeDiscord(shard_count=2) as server:
        apply_overrides(server.api_base, server.gateway_url)
        yield server


async def test_guilds_and_interactions_reach_only_their_shard(fake: FakeDiscord) -> None:
    anna = fake.add_user("anna")
    even = fake.guild_on_shard("Gerade", 0, owner=anna)
    odd = fake.guild_on_shard("Ungerade", 1, owner=anna)
    assert (fake.shard_of(even), fake.shard_of(odd)) == (0, 1)
    clients = [ShardClient(0, 2), ShardClient(1, 2)]
    tasks = [asyncio.create_task(c.start(fake.token)) for c in clients]
    for task in tasks:
        fake.watch(task)
    try:
        for client in clients:
            await fake.wait_for(client.is_ready, 10, "both shards ready")
        assert [{g.id for g in c.guilds} for c in clients] == [{even.id}, {odd.id}]
        assert fake.identifies == 2
        # A button in each guild's channel, clicked: only that shard's client hears it.
        for client, guild in zip(clients, (even, odd), strict=True):
            channel = client.get_channel(guild.channels[0].id)
            assert isinstance(channel, discord.TextChannel)
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Los", custom_id=f"go:{guild.id}"))
            await channel.send("Tisch", view=view)
        for guild in (even, odd):
            message = fake.channel_messages(guild.channels[0])[-1]
            click = await fake.click(anna, message, f"go:{guild.id}")
            assert (await fake.response(click)).status == 200
        assert [[i.data["custom_id"] for i in c.interactions] for c in clients] == [  # type: ignore[index]
            [f"go:{even.id}"],
            [f"go:{odd.id}"],
        ]
    finally:
        for client in clients:
            await client.close()


async def test_the_gateway_names_the_shard_count_and_a_wrong_shard_is_refused(
    fake: FakeDiscord,
) -> None:
    client = ShardClient(0, 3)
    with pytest.raises(discord.ConnectionClosed) as err:
        await asyncio.wait_for(client.start(fake.token), 10)
    assert err.value.code == 4010
    await client.close()
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(fake.token)
        count, _, _ = await http.get_bot_gateway()
    finally:
        await http.close()
    assert count == 2
