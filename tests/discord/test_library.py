"""The places where the bot steps around discord.py's public API (bot.discord.library) still
meet discord.py: each test fails when an upgrade moves what it relies on.
"""

from __future__ import annotations

import gc
import io
import weakref
from collections.abc import Iterator

import discord
import discord.gateway
import discord.http
import pytest
import yarl

from bot.discord import library


@pytest.fixture
def restored() -> Iterator[None]:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    yield
    discord.http.Route.BASE = base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


def test_the_overrides_point_rest_and_gateway_elsewhere(restored: None) -> None:
    library.apply_discord_overrides(
        {
            library.API_BASE_ENV: "http://127.0.0.1:9/api/v10",
            library.GATEWAY_URL_ENV: "ws://127.0.0.1:9/",
        }
    )
    assert discord.http.Route("GET", "/users/@me").url == "http://127.0.0.1:9/api/v10/users/@me"
    assert yarl.URL("ws://127.0.0.1:9/") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def test_without_overrides_discord_py_talks_to_discord(restored: None) -> None:
    library.apply_discord_overrides({})
    assert discord.http.Route.BASE.startswith("https://discord.com/api/")


async def test_a_forwarded_interaction_gets_an_application_webhook() -> None:
    client = discord.Client(intents=discord.Intents.none())
    webhook = library.interaction_webhook(client, 1234, "tok")
    # Only an application webhook may send ephemeral followups.
    assert webhook.type is discord.WebhookType.application
    assert (webhook.id, webhook.token) == (1234, "tok")
    assert webhook.url.endswith("/webhooks/1234/tok")
    await client.close()


def test_an_interaction_caches_its_response_in_the_slot_that_is_released() -> None:
    cached = discord.Interaction.__dict__["response"]
    assert isinstance(cached, discord.utils.CachedSlotProperty)
    assert cached.name == "_cs_response"
    assert "_cs_response" in discord.Interaction.__slots__


def test_a_closed_upload_leaves_no_cycle_behind() -> None:
    # discord.File.close() puts the buffer's close back into the buffer; Upload takes it
    # out again, so the buffer (the picture's bytes) goes with its last reference.
    gc.disable()  # no collection in between: only reference counting frees the buffer
    try:
        for kind, cyclic in ((discord.File, True), (library.Upload, False)):
            buffer = io.BytesIO(b"\x89PNG")
            upload = kind(buffer, filename="tisch.png")
            assert upload.fp.read() == b"\x89PNG"
            upload.fp.close()  # what aiohttp calls: stubbed out while discord.py holds it
            assert not buffer.closed
            upload.close()
            alive = weakref.ref(buffer)
            del buffer, upload
            assert (alive() is not None) is cyclic, kind
    finally:
        gc.enable()
