"""The env-override path: a discord.py bot in its own OS process logs into the fake."""

from __future__ import annotations

import asyncio
import os
import sys

import discord.http

from tests.fakediscord import FakeDiscord

# The same two override lines the real bot's entry point applies.
BOT_SCRIPT = """
import asyncio, os
import discord, discord.gateway, discord.http, yarl
from discord import app_commands

api, gw = os.environ.get("DOKO_DISCORD_API_BASE"), os.environ.get("DOKO_DISCORD_GATEWAY_URL")
if api:
    discord.http.Route.BASE = api
if gw:
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gw)


class Bot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self):
        await self.tree.sync()


bot = Bot()


@bot.tree.command(name="ping", description="Ping")
async def ping(interaction):
    await interaction.response.send_message(f"pong aus Prozess {os.getpid()}")


asyncio.run(bot.start(os.environ["DOKO_TEST_TOKEN"]))
"""


async def test_bot_process_uses_env_overrides() -> None:
    real_base = discord.http.Route.BASE
    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")
        guild = fake.add_guild("Stammtisch", owner=alice)
        env = {**os.environ, **fake.env(), "DOKO_TEST_TOKEN": fake.token}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", BOT_SCRIPT, env=env, stderr=asyncio.subprocess.PIPE
        )
        try:

            def synced_and_connected() -> bool:
                if process.returncode is not None:
                    raise AssertionError(f"bot process exited with {process.returncode}")
                return bool(fake.commands()) and fake.identifies == 1

            await fake.wait_for(synced_and_connected, timeout=20, what="the bot process")
            ix = await fake.slash(alice, "ping", in_channel=guild.channels[0])
            response = await fake.response(ix, timeout=10)
            assert (response.type, response.status) == (4, 200)
            assert ix.original is not None
            assert ix.original.content == f"pong aus Prozess {process.pid}"
            assert fake.requests[0].route == "GET /users/@me"
        finally:
            process.terminate()
            _, stderr = await asyncio.wait_for(process.communicate(), 10)
        assert b"Traceback" not in stderr, stderr.decode()
    # Nothing in this process was redirected: the path under test is the environment.
    assert real_base == discord.http.Route.BASE
