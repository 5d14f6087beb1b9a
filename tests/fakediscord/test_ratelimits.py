"""Discord's rate limits in the fake: per-route and global buckets, their headers, the 429
body, the invalid-request counter, and discord.py obeying the headers without a 429.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import discord.http
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.ratelimits import ROUTE_LIMITS, RateLimits, RouteLimit, exempt_from_global

GET_CHANNEL = "GET /channels/{channel_id}"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client:
        yield client


def limited_fake(**options: object) -> FakeDiscord:
    fake = FakeDiscord(rate_limits=True)
    fake.ratelimits = RateLimits(clock=fake.now, **options)  # type: ignore[arg-type]
    return fake


async def get_channel(
    session: aiohttp.ClientSession, fake: FakeDiscord, channel_id: int, token: str | None = None
) -> aiohttp.ClientResponse:
    headers = {"Authorization": f"Bot {token or fake.token}"}
    async with session.get(f"{fake.api_base}/channels/{channel_id}", headers=headers) as response:
        await response.read()
        return response


async def test_a_route_bucket_per_channel_with_headers_and_a_429(
    session: aiohttp.ClientSession,
) -> None:
    async with limited_fake(routes={GET_CHANNEL: RouteLimit(3, 5.0)}) as fake:
        guild = fake.add_guild("Stammtisch", channels=("doko", "skat"))
        doko, skat = guild.channels
        remaining = []
        for _ in range(3):
            response = await get_channel(session, fake, doko.id)
            assert response.status == 200
            assert response.headers["X-RateLimit-Limit"] == "3"
            assert float(response.headers["X-RateLimit-Reset-After"]) <= 5.0
            remaining.append(response.headers["X-RateLimit-Remaining"])
        assert remaining == ["2", "1", "0"]
        bucket = response.headers["X-RateLimit-Bucket"]

        async with session.get(
            f"{fake.api_base}/channels/{doko.id}", headers={"Authorization": f"Bot {fake.token}"}
        ) as refused:
            body = await refused.json()
            assert refused.status == 429
            assert refused.headers["Via"] and refused.headers["X-RateLimit-Scope"] == "user"
            assert refused.headers["X-RateLimit-Bucket"] == bucket
            assert int(refused.headers["Retry-After"]) >= 1
            assert "X-RateLimit-Global" not in refused.headers
        assert body["message"] == "You are being rate limited."
        assert body["global"] is False and body["code"] == 0 and 0 < body["retry_after"] <= 5
        # Another channel has a bucket of its own.
        assert (await get_channel(session, fake, skat.id)).status == 200
        fake.advance_clock(5.0)  # the window is over
        assert (await get_channel(session, fake, doko.id)).status == 200
        limits = fake.ratelimits
        assert limits.requests[GET_CHANNEL] == 6 and limits.limited[GET_CHANNEL] == 1
        assert limits.exhausted[GET_CHANNEL] == 1  # the third request used the window up
        assert limits.global_limited == 0 and limits.invalid_requests() == 1


async def test_the_global_bucket_spans_connections_but_not_interaction_routes(
    session: aiohttp.ClientSession,
) -> None:
    async with limited_fake(global_per_second=4) as fake:
        channels = fake.add_guild("Stammtisch", channels=tuple("abcdef")).channels
        # A second client with the same token (another shard's process) shares the bucket.
        async with aiohttp.ClientSession() as other:
            for i, channel in enumerate(channels[:4]):
                response = await get_channel(other if i % 2 else session, fake, channel.id)
                assert response.status == 200
            # Interaction callbacks and webhooks are exempt: unknown ones (404, 401), no 429.
            for url in ("/interactions/1/x/callback", f"/webhooks/{fake.app_id}/x"):
                async with session.post(fake.api_base + url, json={"type": 6}) as response:
                    assert response.status in (401, 404)
            async with session.get(
                f"{fake.api_base}/channels/{channels[4].id}",
                headers={"Authorization": f"Bot {fake.token}"},
            ) as refused:
                body = await refused.json()
                assert refused.status == 429
                assert refused.headers["X-RateLimit-Global"] == "true"
                assert refused.headers["X-RateLimit-Scope"] == "global"
            assert body["global"] is True and body["retry_after"] <= 1.0
        # Another bot token has a global bucket of its own (its requests are 401s here).
        assert (await get_channel(session, fake, channels[5].id, "other")).status == 401
        assert fake.ratelimits.global_limited == 1
        assert fake.ratelimits.invalid_requests() == 3  # the 429 and two 401s


async def test_invalid_requests_are_counted_for_ten_minutes(
    session: aiohttp.ClientSession,
) -> None:
    async with limited_fake() as fake:
        channel = fake.add_guild("Stammtisch").channels[0]
        for _ in range(3):
            assert (await get_channel(session, fake, channel.id, "wrong")).status == 401
        fake.rate_limit_next(GET_CHANNEL)  # injected 429s count too
        assert (await get_channel(session, fake, channel.id)).status == 429
        assert fake.ratelimits.injected == 1
        assert fake.ratelimits.invalid_requests() == 4
        fake.advance_clock(300)
        assert (await get_channel(session, fake, channel.id, "wrong")).status == 401
        assert fake.ratelimits.invalid_requests(window=60) == 1
        fake.advance_clock(301)
        assert fake.ratelimits.invalid_requests() == 1  # the first four are over 10 min old
        summary = fake.ratelimits.summary()
        assert summary["statuses"]["401"] == 4 and summary["injected"] == 1


async def test_counting_only_when_limits_are_off(session: aiohttp.ClientSession) -> None:
    async with FakeDiscord() as fake:
        channel = fake.add_guild("Stammtisch").channels[0]
        for _ in range(20):
            response = await get_channel(session, fake, channel.id)
            assert response.status == 200 and "X-RateLimit-Bucket" not in response.headers
        assert fake.ratelimits.requests[GET_CHANNEL] == 20
        assert not fake.ratelimits.limited


async def test_discord_py_obeys_the_headers_and_gets_no_429() -> None:
    """A burst of 12 requests at a bucket of 3 per 0.2 s: discord.py waits, never retries."""
    async with limited_fake(routes={GET_CHANNEL: RouteLimit(3, 0.2)}) as fake:
        channel = fake.add_guild("Stammtisch").channels[0]
        base = discord.http.Route.BASE
        discord.http.Route.BASE = fake.api_base
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        try:
            await http.static_login(fake.token)
            route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=channel.id)
            results = await asyncio.gather(*(http.request(route) for _ in range(12)))
        finally:
            await http.close()
            discord.http.Route.BASE = base
        assert [r["id"] for r in results] == [str(channel.id)] * 12
        assert fake.ratelimits.requests[GET_CHANNEL] == 12
        assert not fake.ratelimits.limited and fake.ratelimits.invalid_requests() == 0


def test_the_route_table_names_its_sources() -> None:
    assert ROUTE_LIMITS["POST /channels/{channel_id}/messages"] == RouteLimit(
        5, 5.0, "observed: 5 per 5 s per channel"
    )
    assert all(rule.why for rule in ROUTE_LIMITS.values())
    assert exempt_from_global("/interactions/{interaction_id}/{interaction_token}/callback")
    assert exempt_from_global("/webhooks/{webhook_id}/{webhook_token}")
    assert not exempt_from_global("/users/@me/channels")


async def test_a_time_scale_shortens_every_window(session: aiohttp.ClientSession) -> None:
    async with limited_fake(routes={GET_CHANNEL: RouteLimit(2, 10.0)}, time_scale=0.1) as fake:
        channel = fake.add_guild("Stammtisch").channels[0]
        first = await get_channel(session, fake, channel.id)
        assert float(first.headers["X-RateLimit-Reset-After"]) <= 1.0  # 10 s scaled
        await get_channel(session, fake, channel.id)
        assert (await get_channel(session, fake, channel.id)).status == 429
        fake.advance_clock(1.0)
        assert (await get_channel(session, fake, channel.id)).status == 200


def test_each_interaction_callback_has_a_bucket_of_its_own() -> None:
    limits = RateLimits(routes={CALLBACK: RouteLimit(1, 60.0)})
    template = CALLBACK.split(" ", 1)[1]
    for n in range(3):  # many clicks a second: one callback each, none limited
        params = {"interaction_id": str(n), "interaction_token": f"t{n}"}
        assert not limits.admit(CALLBACK, template, params, None).limited
    assert limits.admit(CALLBACK, template, params, None).limited  # the same one twice
