"""Faults the fake injects, as discord.py meets them: 5xx with and without a JSON body, a
connection that breaks without a close frame, a storm of RESUMEs, and a session that cannot
be resumed.
"""

# ruff: noqa: F811
# (the fixtures imported from test_server are the tests' parameters)
from __future__ import annotations

import discord
import pytest

from tests.fakediscord.test_server import World, fake, world  # noqa: F401  (fixtures)

SEND = "POST /channels/{channel_id}/messages"


@pytest.mark.parametrize("body", ["json", "empty", "html"])
async def test_a_500_or_502_is_retried_whatever_its_body(world: World, body: str) -> None:
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.fail_next(SEND, 502, body=body)
    await channel.send("nach dem Fehler")  # discord.py retries 500, 502, 504 after 1 s
    statuses = [r.status for r in fake.requests_to(SEND)]
    assert statuses == [502, 200]
    first = fake.requests_to(SEND)[0]
    if body == "json":
        assert first.response == {"code": 0, "message": "502: injected by the fake"}
    elif body == "html":
        assert isinstance(first.response, str) and "<title>502</title>" in first.response
    else:
        assert first.response is None
    assert fake.injected_failures == 1
    assert [m.content for m in fake.channel_messages(world.channel)] == ["nach dem Fehler"]


async def test_a_503_is_not_retried_by_discord_py(world: World) -> None:
    """The bot must retry a 503 itself (discord.py raises DiscordServerError at once)."""
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.fail_next(SEND, 503, body="empty")
    with pytest.raises(discord.DiscordServerError):
        await channel.send("weg")
    assert fake.channel_messages(world.channel) == []


async def test_a_broken_connection_and_a_resume_storm_lose_no_event(world: World) -> None:
    fake = world.fake
    await fake.drop(wait=False)
    # Sent while the connection is down: replayed on RESUME.
    ix = await fake.slash(world.alice, "doko tisch", in_channel=world.channel, spiele=2)
    await fake.wait_for(lambda: fake.resumes == 1, 10, "RESUME after the drop")
    assert (await fake.response(ix)).status == 200
    await fake.resume_storm(6)
    assert (fake.identifies, fake.resumes) == (1, 7)
    ix = await fake.slash(world.alice, "doko tisch", in_channel=world.channel, spiele=3)
    assert (await fake.response(ix)).status == 200
    # A session that cannot be resumed: the bot identifies afresh.
    await fake.invalid_session(resumable=False)
    assert fake.identifies == 2
    ix = await fake.slash(world.alice, "doko tisch", in_channel=world.channel, spiele=4)
    assert (await fake.response(ix)).status == 200


async def test_unknown_fault_bodies_are_refused(world: World) -> None:
    with pytest.raises(Exception, match="unknown fault body"):
        world.fake.fail_next(SEND, 500, body="xml")
