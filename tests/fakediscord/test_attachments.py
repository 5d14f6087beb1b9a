"""Files on messages: a real discord.py bot uploads, replaces and keeps them, hits each limit."""

from __future__ import annotations

import asyncio
import io
import json
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, User, apply_overrides
from tests.fakediscord.attachments import ATTACHMENT_SIZE_LIMIT

CDN = "https://cdn.discordapp.test/attachments/"
Handler = Callable[[discord.Interaction], Awaitable[None]]


def png(width: int, height: int) -> bytes:
    """A valid (grey) PNG of the given size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 0, 0, 0, 0])
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def picture(
    name: str = "tisch.png", data: bytes | None = None, alt: str | None = None
) -> discord.File:
    return discord.File(io.BytesIO(data or png(3, 2)), name, description=alt)


@dataclass
class Harness:
    """The test decides what the bot's one command (and a click) does."""

    command: Handler | None = None
    click: Handler | None = None
    errors: list[discord.HTTPException] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, handler: Handler | None, interaction: discord.Interaction) -> None:
        assert handler is not None
        try:
            await handler(interaction)
        except discord.HTTPException as error:
            self.errors.append(error)
        finally:
            self.done.set()


class QuickBot(commands.Bot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def make_bot(harness: Harness) -> commands.Bot:
    bot = QuickBot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    @app_commands.command(name="bild", description="Tut, was der Test will")
    async def bild(interaction: discord.Interaction) -> None:
        await harness.run(harness.command, interaction)

    bot.tree.add_command(bild)

    async def on_interaction(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await harness.run(harness.click, interaction)

    bot.add_listener(on_interaction)

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    bot: commands.Bot
    harness: Harness
    channel: Channel
    alice: User

    @property
    def text_channel(self) -> discord.TextChannel:
        channel = self.bot.get_channel(self.channel.id)
        assert isinstance(channel, discord.TextChannel)
        return channel

    async def slash(self, handler: Handler) -> Interaction:
        """Alice runs /bild; ``handler`` answers it; returns once it has finished."""
        self.harness.command = handler
        self.harness.done.clear()
        ix = await self.fake.slash(self.alice, "bild", in_channel=self.channel)
        await asyncio.wait_for(self.harness.done.wait(), 5)
        return ix

    async def click(self, message: Message, custom_id: str, handler: Handler) -> Interaction:
        self.harness.click = handler
        self.harness.done.clear()
        ix = await self.fake.click(self.alice, message, custom_id)
        await asyncio.wait_for(self.harness.done.wait(), 5)
        return ix

    def stored(self, sent: discord.Message) -> Message:
        return next(m for m in self.fake.messages if m.id == sent.id)

    async def raw(self, method: str, path: str, payload: dict[str, Any], files: list[bytes]) -> Any:
        """A multipart request exactly as given (discord.py would fill in ``attachments``)."""
        form: list[dict[str, Any]] = [{"name": "payload_json", "value": json.dumps(payload)}]
        form += [
            {"name": f"files[{i}]", "value": data, "filename": f"f{i}.png"}
            for i, data in enumerate(files)
        ]
        route = discord.http.Route(method, path, channel_id=self.channel.id)
        return await self.bot.http.request(route, form=form, files=[])


@pytest.fixture
async def world(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")
        guild = fake.add_guild("Stammtisch", owner=alice)
        apply_overrides(fake.api_base, fake.gateway_url)
        harness = Harness()
        bot = make_bot(harness)
        task = asyncio.create_task(bot.start(fake.token))
        fake.watch(task)
        await fake.wait_for(bot.is_ready, what="the bot's on_ready")
        yield World(fake, bot, harness, guild.channels[0], alice)
        await bot.close()
        await asyncio.wait_for(task, 5)


def refused(caught: pytest.ExceptionInfo[discord.HTTPException]) -> tuple[int, int]:
    return caught.value.status, caught.value.code


def form_error(fake: FakeDiscord, *path: str) -> str:
    """The code of the first form error at ``path`` in the fake's last answer."""
    node = fake.requests[-1].response["errors"]
    for part in path:
        node = node[part]
    return str(node["_errors"][0]["code"])


# ---------------------------------------------------------------------- channel messages


async def test_send_with_file_and_alt_text(world: World) -> None:
    data = png(30, 20)
    sent = await world.text_channel.send("Der Tisch", file=picture(data=data, alt="Vier Spieler"))
    (request,) = world.fake.requests_to("POST /channels/{channel_id}/messages")
    assert request.files == ["tisch.png"]
    assert request.body["attachments"] == [
        {"id": 0, "filename": "tisch.png", "description": "Vier Spieler"}
    ]
    (stored,) = world.stored(sent).attachments
    assert (stored.filename, stored.description, stored.content_type) == (
        "tisch.png",
        "Vier Spieler",
        "image/png",
    )
    assert (stored.data, stored.size, stored.width, stored.height) == (data, len(data), 30, 20)
    assert stored.url == f"{CDN}{world.channel.id}/{stored.id}/tisch.png"
    # What discord.py made of the answer.
    (seen,) = sent.attachments
    assert (seen.id, seen.url, seen.description, seen.size) == (
        stored.id,
        stored.url,
        "Vier Spieler",
        len(data),
    )
    assert (seen.content_type, seen.width, seen.height) == ("image/png", 30, 20)
    assert world.fake.attachment_bytes(seen.url) == data
    assert world.fake.attachment(seen.proxy_url) is stored


async def test_the_loopback_serves_the_bytes_under_the_cdn_path(world: World) -> None:
    data = png(2, 2)
    sent = await world.text_channel.send(file=picture(data=data))
    (stored,) = world.stored(sent).attachments
    async with (
        aiohttp.ClientSession() as session,
        session.get(world.fake.base_url + stored.path) as response,
    ):
        assert (response.status, await response.read()) == (200, data)


async def test_edit_replaces_keeps_adds_and_removes_files(world: World) -> None:
    first, second = png(4, 4), png(8, 8)
    sent = await world.text_channel.send("Stand", file=picture(data=first))
    message = world.stored(sent)
    (old,) = message.attachments

    # A new file in attachments replaces the old one.
    sent = await sent.edit(attachments=[picture(data=second, alt="Neu")])
    (new,) = message.attachments
    assert new.id != old.id and (new.data, new.description, new.width) == (second, "Neu", 8)
    assert [h["attachments"] for h in message.history] == [["tisch.png"]]

    # An edit without attachments keeps them.
    sent = await sent.edit(content="Stand, bearbeitet")
    assert message.content == "Stand, bearbeitet" and message.attachments == [new]
    assert world.fake.requests[-1].files == []

    # Listing the current one keeps it (plain JSON, no upload); a new one joins it.
    sent = await sent.edit(attachments=[sent.attachments[0], picture("spielliste.png")])
    assert [a.filename for a in message.attachments] == ["tisch.png", "spielliste.png"]
    assert message.attachments[0] is new
    assert [a.filename for a in sent.attachments] == ["tisch.png", "spielliste.png"]

    # A kept file that is not listed goes.
    sent = await sent.edit(attachments=[sent.attachments[1]])
    assert [a.filename for a in message.attachments] == ["spielliste.png"]
    await sent.edit(attachments=[])
    assert message.attachments == []
    assert len(message.history) == 5


async def test_embed_image_shows_an_attachment(world: World) -> None:
    embed = discord.Embed(title="Tisch 1").set_image(url="attachment://tisch.png")
    sent = await world.text_channel.send(embed=embed, file=picture(data=png(6, 5), alt="Tisch"))
    message = world.stored(sent)
    shown = message.embed_image()
    assert shown is not None and shown is message.attachment("tisch.png")
    # Discord stores the file's URL in place of attachment://, with the picture's size.
    assert message.embeds[0]["image"]["url"] == shown.url
    assert sent.embeds[0].image.url == shown.url
    assert (sent.embeds[0].image.width, sent.embeds[0].image.height) == (6, 5)

    # An edit that sends the embed again may point at the kept file.
    again = discord.Embed(title="Tisch 1, Stich 2").set_image(url="attachment://tisch.png")
    await sent.edit(embed=again)
    assert message.embed_image() is shown


# ---------------------------------------------------------------------- interactions


async def test_interaction_response_with_file(world: World) -> None:
    data = png(5, 5)

    async def answer(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Hand").set_image(url="attachment://hand.png")
        await interaction.response.send_message(
            embed=embed, file=picture("hand.png", data, alt="Deine Karten")
        )

    ix = await world.slash(answer)
    callback = await world.fake.response(ix)
    assert (callback.type, callback.status) == (4, 200)
    assert world.fake.requests_to(
        "POST /interactions/{interaction_id}/{interaction_token}/callback"
    )[0].files == ["hand.png"]
    assert ix.original is not None and not ix.original.ephemeral
    (stored,) = ix.original.attachments
    assert (stored.data, stored.description) == (data, "Deine Karten")
    assert ix.original.embed_image() is stored


async def test_ephemeral_response_and_followups_with_files(world: World) -> None:
    sent: list[discord.WebhookMessage] = []

    async def answer(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The first followup fills the "thinking" message; the second is a new message.
        sent.append(
            await interaction.followup.send(
                file=picture("hand.png", alt="Deine Hand"), ephemeral=True, wait=True
            )
        )
        sent.append(
            await interaction.followup.send(
                "Spielliste", file=picture("liste.png"), ephemeral=True, wait=True
            )
        )

    ix = await world.slash(answer)
    assert world.harness.errors == []
    loading, second = ix.followups
    assert loading is ix.original and loading.ephemeral_to is world.alice
    assert [(a.filename, a.description) for a in loading.attachments] == [
        ("hand.png", "Deine Hand")
    ]
    assert second is not loading and second.ephemeral_to is world.alice
    assert [a.filename for a in second.attachments] == ["liste.png"]
    assert sent[0].attachments[0].ephemeral and sent[0].attachments[0].description == "Deine Hand"
    bob = world.fake.add_user("bob")
    assert world.channel.guild is not None
    world.fake.add_member(world.channel.guild, bob)
    assert second not in world.fake.visible_messages(bob, world.channel)
    assert second in world.fake.visible_messages(world.alice, world.channel)


async def test_public_followup_after_a_response(world: World) -> None:
    async def answer(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Tisch eröffnet")
        await interaction.followup.send(file=picture("tisch.png", alt="Leerer Tisch"))

    ix = await world.slash(answer)
    (followup,) = ix.followups
    assert followup is not ix.original and not followup.ephemeral
    assert followup.attachments[0].description == "Leerer Tisch"
    assert ix.original is not None and ix.original.attachments == []


async def test_button_update_and_webhook_edits_carry_files(world: World) -> None:
    async def table(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Weiter", custom_id="bild:weiter"))
        await interaction.response.send_message(file=picture(data=png(1, 1)), view=view)

    ix = await world.slash(table)
    message = ix.original
    assert message is not None
    (first,) = message.attachments

    async def update(interaction: discord.Interaction) -> None:
        # Type 7 replaces the file; then @original and a followup are edited through the webhook.
        await interaction.response.edit_message(attachments=[picture(data=png(2, 2), alt="Zug 2")])
        await interaction.edit_original_response(attachments=[picture(data=png(3, 3), alt="Zug 3")])
        followup = await interaction.followup.send("Stich", file=picture("stich.png"), wait=True)
        await followup.edit(attachments=[picture("stich.png", png(4, 4), alt="Stich 1")])

    click = await world.click(message, "bild:weiter", update)
    assert world.harness.errors == []
    assert (await world.fake.response(click)).type == 7
    (third,) = message.attachments
    assert third.id != first.id and (third.description, third.width) == ("Zug 3", 3)
    assert [h["attachments"] for h in message.history] == [["tisch.png"], ["tisch.png"]]
    (followup,) = click.followups
    assert [(a.description, a.width) for a in followup.attachments] == [("Stich 1", 4)]
    edits = world.fake.requests_to(r"PATCH /webhooks/\d+/[^/]+/messages/")
    assert [r.files for r in edits] == [["tisch.png"], ["stich.png"]]


# ---------------------------------------------------------------------- limits


async def test_at_most_ten_files(world: World) -> None:
    await world.text_channel.send(files=[picture(f"{i}.png") for i in range(10)])
    with pytest.raises(discord.HTTPException) as caught:
        await world.text_channel.send(files=[picture(f"{i}.png") for i in range(11)])
    assert refused(caught) == (400, 50035) and "attachments" in caught.value.text
    # Without an attachments list (which the spec caps at 10) the files still count.
    with pytest.raises(discord.HTTPException) as caught:
        await world.raw("POST", "/channels/{channel_id}/messages", {}, [png(1, 1)] * 11)
    assert refused(caught) == (400, 50035)
    assert "Must be 10 or fewer in length" in caught.value.text
    # Kept files count too: ten on the message plus one without a list is eleven.
    (full,) = [m for m in world.fake.channel_messages(world.channel) if len(m.attachments) == 10]
    with pytest.raises(discord.HTTPException) as caught:
        await world.raw(
            "PATCH", f"/channels/{{channel_id}}/messages/{full.id}", {"content": "x"}, [png(1, 1)]
        )
    assert refused(caught) == (400, 50035)
    assert len(full.attachments) == 10 and full.content == "" and full.history == []


async def test_upload_size_limit_is_413_40005(world: World) -> None:
    half = ATTACHMENT_SIZE_LIMIT // 2
    # Exactly the limit in total is fine; one byte more is refused.
    await world.text_channel.send(
        files=[picture("a.bin", b"a" * half), picture("b.bin", b"b" * half)]
    )
    with pytest.raises(discord.HTTPException) as caught:
        await world.text_channel.send(
            files=[picture("a.bin", b"a" * half), picture("b.bin", b"b" * (half + 1))]
        )
    assert refused(caught) == (413, 40005) and "Request entity too large" in caught.value.text
    assert len(world.fake.channel_messages(world.channel)) == 1


async def test_interactions_carry_the_size_limit_and_enforce_it(world: World) -> None:
    limits: list[int] = []

    async def answer(interaction: discord.Interaction) -> None:
        limits.append(interaction.filesize_limit)
        big = b"x" * (interaction.filesize_limit + 1)
        await interaction.response.send_message(file=picture("gross.bin", big))

    ix = await world.slash(answer)
    assert limits == [ATTACHMENT_SIZE_LIMIT] == [10485760]
    callback = await world.fake.response(ix)
    assert (callback.status, callback.error_code) == (413, 40005)
    assert not ix.acked and ix.original is None
    (error,) = world.harness.errors
    assert (error.status, error.code) == (413, 40005)


async def test_alt_text_up_to_1024_characters(world: World) -> None:
    await world.text_channel.send(file=picture(alt="a" * 1024))
    with pytest.raises(discord.HTTPException) as caught:
        await world.text_channel.send(file=picture(alt="a" * 1025))
    assert refused(caught) == (400, 50035)
    assert form_error(world.fake, "attachments", "0", "description") == "OPENAPI_SCHEMA"
    assert len(world.fake.channel_messages(world.channel)) == 1


async def test_attachment_ids_must_name_an_upload_or_a_kept_file(world: World) -> None:
    with pytest.raises(discord.HTTPException) as caught:
        await world.raw(
            "POST",
            "/channels/{channel_id}/messages",
            {"attachments": [{"id": 1, "filename": "f1.png"}]},
            [png(1, 1)],  # only files[0]
        )
    assert refused(caught) == (400, 50035)
    assert form_error(world.fake, "attachments", "0") == "ATTACHMENT_NOT_FOUND"
    assert world.fake.channel_messages(world.channel) == []

    # On an edit, a file of another message is not this message's to keep.
    other = await world.text_channel.send(file=picture("fremd.png"))
    own = await world.text_channel.send("eigen", file=picture("eigen.png"))
    with pytest.raises(discord.HTTPException) as caught:
        await own.edit(attachments=[other.attachments[0]])
    assert refused(caught) == (400, 50035)
    assert form_error(world.fake, "attachments", "0") == "ATTACHMENT_NOT_FOUND"
    stored = world.stored(own)
    assert [a.filename for a in stored.attachments] == ["eigen.png"] and stored.history == []


async def test_embed_must_name_an_attachment_of_its_message(world: World) -> None:
    embed = discord.Embed(title="Tisch").set_image(url="attachment://fehlt.png")
    with pytest.raises(discord.HTTPException) as caught:
        await world.text_channel.send(embed=embed, file=picture("tisch.png"))
    assert refused(caught) == (400, 50035)
    assert form_error(world.fake, "embeds", "0", "image", "url") == "ATTACHMENT_NOT_FOUND"
    assert world.fake.channel_messages(world.channel) == []

    # An edit that drops the file cannot keep showing it.
    embed = discord.Embed(title="Tisch").set_image(url="attachment://tisch.png")
    sent = await world.text_channel.send(embed=embed, file=picture("tisch.png"))
    with pytest.raises(discord.HTTPException) as caught:
        await sent.edit(embed=embed, attachments=[])
    assert refused(caught) == (400, 50035)
    assert world.stored(sent).attachments[0].filename == "tisch.png"


async def test_invalid_payload_json_is_50109(world: World) -> None:
    form = [
        {"name": "payload_json", "value": "{kein json"},
        {"name": "files[0]", "value": png(1, 1), "filename": "a.png"},
    ]
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id
    )
    with pytest.raises(discord.HTTPException) as caught:
        await world.bot.http.request(route, form=form, files=[])
    assert refused(caught) == (400, 50109)
