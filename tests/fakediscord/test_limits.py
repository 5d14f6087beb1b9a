"""One rejection per documented limit, and acceptance of every response kind discord.py sends."""

from __future__ import annotations

from typing import Any

import discord
import discord.http
import pytest

from tests.fakediscord.test_server import World, fake, world  # noqa: F401  (fixtures)


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def select(options: int) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "s",
        "options": [{"label": str(i), "value": str(i)} for i in range(options)],
    }


def embed(**fields: Any) -> dict[str, Any]:
    return {"embeds": [fields]}


REJECTED: dict[str, tuple[dict[str, Any], str]] = {
    "content 2001": ({"content": "x" * 2001}, "content"),
    "custom_id 101": ({"components": [row(button("x" * 101))]}, "custom_id"),
    "custom_id empty": ({"components": [row(button(""))]}, "custom_id"),
    "custom_id twice": ({"components": [row(button("a")), row(button("a"))]}, "custom_id"),
    "6 action rows": ({"components": [row(button(str(i))) for i in range(6)]}, "components"),
    "6 buttons in a row": ({"components": [row(*(button(str(i)) for i in range(6)))]}, "0"),
    "button next to select": ({"components": [row(button("b"), select(2))]}, "0"),
    "26 select options": ({"components": [row(select(26))]}, "options"),
    "11 embeds": ({"embeds": [{"title": str(i)} for i in range(11)]}, "embeds"),
    "embed title 257": (embed(title="t" * 257), "title"),
    "embed description 4097": (embed(description="d" * 4097), "description"),
    "26 embed fields": (
        embed(fields=[{"name": "n", "value": "v"} for _ in range(26)]),
        "fields",
    ),
    "field name 257": (embed(fields=[{"name": "n" * 257, "value": "v"}]), "name"),
    "field value 1025": (embed(fields=[{"name": "n", "value": "v" * 1025}]), "value"),
    "footer 2049": (embed(footer={"text": "f" * 2049}), "footer"),
    "author 257": (embed(author={"name": "a" * 257}), "author"),
    "embeds over 6000 in total": (
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        "Embed size exceeds maximum size of 6000",
    ),
    "wrong type for content": ({"content": ["a list"]}, "content"),
}


@pytest.mark.parametrize("case", REJECTED, ids=list(REJECTED))
async def test_limits_are_rejected_with_50035(world: World, case: str) -> None:  # noqa: F811
    body, mentioned = REJECTED[case]
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id
    )
    with pytest.raises(discord.HTTPException) as caught:
        await world.bot.http.request(route, json=body)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert mentioned in caught.value.text
    assert world.fake.channel_messages(world.channel) == []


async def test_limits_at_the_boundary_are_accepted(world: World) -> None:  # noqa: F811
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id
    )
    rows = [row(*(button(f"{r}:{c}" + "x" * 90) for c in range(5))) for r in range(4)]
    body = {
        "content": "x" * 2000,
        "components": [*rows, row(select(25))],
        "embeds": [{"title": "t" * 256, "description": "d" * 4096, "footer": {"text": "f" * 1648}}],
    }
    await world.bot.http.request(route, json=body)
    (message,) = world.fake.channel_messages(world.channel)
    assert len(message.custom_ids) == 21


async def test_limits_apply_to_interaction_responses(world: World) -> None:  # noqa: F811
    """A callback body is checked like a message; a rejected one does not acknowledge."""
    server = world.fake
    ix = await server.slash(world.alice, "doko langsam", in_channel=world.channel)
    duplicate = {
        "type": 4,
        "data": {"content": "Hand", "components": [row(button("H10"), button("H10"))]},
    }
    async with discord.http.aiohttp.ClientSession() as session:
        url = f"{server.api_base}/interactions/{ix.id}/{ix.token}/callback?with_response=1"
        async with session.post(url, json=duplicate) as response:
            assert response.status == 400
            body = await response.json()
    assert body["code"] == 50035 and "custom_id" in str(body["errors"])
    assert not ix.acked
    world.harness.gate("ack").set()  # now the bot answers properly, within 3 s
    await server.wait_for(lambda: ix.acked)
    assert [c.status for c in ix.callbacks] == [400, 200]
