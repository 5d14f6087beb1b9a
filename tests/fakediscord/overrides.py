"""Point discord.py at another Discord: the two overrides the bot applies from its environment."""

from __future__ import annotations

import os

import discord.gateway
import discord.http
import yarl

API_BASE_ENV = "DOKO_DISCORD_API_BASE"
GATEWAY_URL_ENV = "DOKO_DISCORD_GATEWAY_URL"


def apply_overrides(api_base: str | None = None, gateway_url: str | None = None) -> None:
    """Redirect REST and gateway; arguments default to the two environment variables.

    Unset values leave discord.py talking to Discord. Must run before ``bot.start()``.
    """
    api = api_base or os.environ.get(API_BASE_ENV)
    gateway = gateway_url or os.environ.get(GATEWAY_URL_ENV)
    if api:
        discord.http.Route.BASE = api
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
