"""The loopback Discord, driven by a small real discord.py bot running in this process."""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    Channel,
    FakeDiscord,
    FakeDiscordError,
    Guild,
    User,
    apply_overrides,
)


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"doko:join:(?P<table>\d+)"
):
    """A restart-proof button: all its state is in the custom_id."""

    def __init__(self, table: int) -> None:
        super().__init__(discord.ui.Button(label="Beitreten", custom_id=f"doko:join:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.name} sitzt an Tisch {self.table}"
        )


class AnsageView(discord.ui.View):
    @discord.ui.select(
        custom_id="doko:ansage:7",
        options=[discord.SelectOption(label=x, value=x) for x in ("re", "kontra", "keine90")],
    )
    async def ansage(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"Ansage: {select.values[0]}", view=None)


@dataclass
class Harness:
    """What the test bot records, and gates that let a test hold a handler mid-way."""

    errors: list[discord.HTTPException] = field(default_factory=list)
    gates: dict[str, asyncio.Event] = field(default_factory=dict)

    def gate(self, name: str) -> asyncio.Event:
        return self.gates.setdefault(name, asyncio.Event())


class QuickBot(commands.Bot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before every re-IDENTIFY (flood guard); tests need not.
        return None


def make_bot(harness: Harness, guild_id: int) -> commands.Bot:
    bot = QuickBot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
    doko = app_commands.Group(name="doko", description="Doppelkopf")
    turnier = app_commands.Group(name="turnier", description="Turniere", parent=doko)

    @doko.command(name="tisch", description="Einen Tisch eröffnen")
    @app_commands.choices(
        regeln=[
            app_commands.Choice(name="DDV", value="ddv"),
            app_commands.Choice(name="Haus", value="haus"),
        ]
    )
    async def tisch(interaction: discord.Interaction, spiele: int, regeln: str = "ddv") -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(7))
        await interaction.response.send_message(f"Tisch 7: {spiele} Spiele ({regeln})", view=view)

    @turnier.command(name="start", description="Ein Turnier starten")
    async def start(interaction: discord.Interaction, runden: int) -> None:
        await interaction.response.send_message(f"Turnier mit {runden} Runden", ephemeral=True)

    @doko.command(name="karten", description="Meine Karten per DM")
    async def karten(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send("Deine Karten: ♣D ♠D")
        except discord.Forbidden as error:
            harness.errors.append(error)
            await interaction.followup.send("Deine DMs sind geschlossen.", ephemeral=True)
        else:
            await interaction.followup.send("Karten per DM geschickt.", ephemeral=True)

    @doko.command(name="ansage", description="Eine Ansage machen")
    async def ansage(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Welche Ansage?", view=AnsageView(), ephemeral=True)

    @doko.command(name="langsam", description="Antwortet erst, wenn der Test es erlaubt")
    async def langsam(interaction: discord.Interaction) -> None:
        await harness.gate("ack").wait()
        try:
            await interaction.response.send_message("endlich")
        except discord.HTTPException as error:
            harness.errors.append(error)

    @doko.command(name="spaet", description="Bearbeitet die Antwort später")
    async def spaet(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("gleich mehr")
        await harness.gate("edit").wait()
        try:
            await interaction.edit_original_response(content="mehr")
        except discord.HTTPException as error:
            harness.errors.append(error)

    @doko.command(name="doppelt", description="Antwortet zweimal")
    async def doppelt(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("eins")
        # A second responder (e.g. a second bot process) that did not see the first answer.
        try:
            await discord.InteractionResponse(interaction).send_message("zwei")
        except discord.HTTPException as error:
            harness.errors.append(error)

    @doko.command(name="alles", description="Jede Antwortart einmal")
    async def alles(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        first = await interaction.followup.send("erste", wait=True)  # fills the loading message
        second = await interaction.followup.send("zweite", wait=True)
        await second.edit(content="zweite, bearbeitet")
        await (await interaction.original_response()).edit(content="erste, bearbeitet")
        await interaction.followup.send("weg", wait=True)
        await interaction.delete_original_response()
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Leise", custom_id="doko:leise"))
        await interaction.followup.send(f"{first.id}", view=view, wait=True)

    @doko.command(name="formular", description="Ein Modal")
    async def formular(interaction: discord.Interaction) -> None:
        modal = discord.ui.Modal(title="Abrechnen")
        modal.add_item(discord.ui.TextInput(label="Augen", custom_id="augen"))
        await interaction.response.send_modal(modal)

    @app_commands.command(name="gilde", description="Nur in dieser Gilde")
    async def gilde(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Gildenbefehl")

    bot.tree.add_command(doko)
    bot.tree.add_command(gilde, guild=discord.Object(guild_id))

    async def on_interaction(interaction: discord.Interaction) -> None:
        # A deferred update (type 6) from a plain listener, then an edit through @original.
        if interaction.data and interaction.data.get("custom_id") == "doko:leise":
            await interaction.response.defer()
            await interaction.edit_original_response(content="leise bearbeitet", view=None)
            await interaction.followup.send("nur für dich", ephemeral=True)

    bot.add_listener(on_interaction)

    async def setup_hook() -> None:
        bot.add_dynamic_items(JoinButton)
        await bot.tree.sync()
        await bot.tree.sync(guild=discord.Object(guild_id))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    bot: commands.Bot
    harness: Harness
    guild: Guild
    other_guild: Guild
    channel: Channel
    alice: User
    bob: User


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
async def world(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    alice, bob = fake.add_user("alice"), fake.add_user("bob", locale="en-US")
    guild = fake.add_guild("Stammtisch", owner=alice, channels=("doko", "allgemein"))
    fake.add_member(guild, bob)
    other = fake.add_guild("Verein")
    # Record the real values so monkeypatch restores them after the test.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    apply_overrides(fake.api_base, fake.gateway_url)
    harness = Harness()
    bot = make_bot(harness, guild.id)
    task = asyncio.create_task(bot.start(fake.token))
    fake.watch(task)
    await fake.wait_for(bot.is_ready, what="the bot's on_ready")
    yield World(fake, bot, harness, guild, other, guild.channels[0], alice, bob)
    for gate in harness.gates.values():
        gate.set()
    await bot.close()
    await asyncio.wait_for(task, 5)


async def test_login_ready_and_guilds(world: World) -> None:
    fake, bot = world.fake, world.bot
    routes = [r.route for r in fake.requests[:2]]
    assert routes == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert fake.identifies == 1
    assert {g.id for g in bot.guilds} == {world.guild.id, world.other_guild.id}
    stammtisch = bot.get_guild(world.guild.id)
    assert stammtisch is not None
    assert [c.name for c in stammtisch.text_channels] == ["doko", "allgemein"]
    # Without the privileged members intent only the bot's own member is sent.
    assert stammtisch.member_count == 3
    assert [m.id for m in stammtisch.members] == [fake.bot_user.id]
    assert fake._session is not None and fake._session.intents == discord.Intents.default().value


async def test_command_sync_is_validated_and_stored(world: World) -> None:
    fake = world.fake
    syncs = fake.requests_to(r"PUT /applications/\d+/")
    assert [(r.route, r.status) for r in syncs] == [
        ("PUT /applications/{application_id}/commands", 200),
        ("PUT /applications/{application_id}/guilds/{guild_id}/commands", 200),
    ]
    (doko,) = fake.commands()
    subs = {o["name"]: o for o in doko["options"]}
    assert set(subs) == {
        "tisch",
        "turnier",
        "karten",
        "ansage",
        "langsam",
        "spaet",
        "doppelt",
        "alles",
        "formular",
    }
    assert [o["name"] for o in subs["turnier"]["options"]] == ["start"]
    assert [c["name"] for c in fake.commands(world.guild)] == ["gilde"]


async def test_slash_with_options_and_button_update(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    ix = await fake.slash(alice, "doko tisch", in_channel=world.channel, spiele=12, regeln="haus")
    response = await fake.response(ix)
    assert (response.type, response.status) == (4, 200)
    table = ix.original
    assert table is not None and table.content == "Tisch 7: 12 Spiele (haus)"
    assert table.custom_ids == ["doko:join:7"]
    assert table in fake.visible_messages(bob, world.channel)

    click = await fake.click(bob, table, "doko:join:7")
    assert (await fake.response(click)).type == 7
    assert table.content == "bob sitzt an Tisch 7"
    assert [h["content"] for h in table.history] == ["Tisch 7: 12 Spiele (haus)"]


async def test_subcommand_group_and_ephemeral_visibility(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    ix = await fake.slash(alice, "doko turnier start", in_channel=world.channel, runden=3)
    await fake.response(ix)
    assert ix.data["options"] == [
        {
            "name": "turnier",
            "type": 2,
            "options": [
                {"name": "start", "type": 1, "options": [{"name": "runden", "type": 4, "value": 3}]}
            ],
        }
    ]
    message = ix.original
    assert message is not None and message.ephemeral
    assert message in fake.visible_messages(alice, world.channel)
    assert message not in fake.visible_messages(bob, world.channel)
    assert message in fake.channel_messages(world.channel)


async def test_slash_resolves_against_synced_commands(world: World) -> None:
    fake, alice = world.fake, world.alice
    with pytest.raises(FakeDiscordError, match="not synced"):
        await fake.slash(alice, "doko-typo tisch", in_channel=world.channel)
    with pytest.raises(FakeDiscordError, match="no subcommand"):
        await fake.slash(alice, "doko tish", in_channel=world.channel, spiele=1)
    with pytest.raises(FakeDiscordError, match="no option"):
        await fake.slash(alice, "doko tisch", in_channel=world.channel, spile=1)
    with pytest.raises(FakeDiscordError, match="required options missing"):
        await fake.slash(alice, "doko tisch", in_channel=world.channel)
    with pytest.raises(FakeDiscordError, match="choices"):
        await fake.slash(alice, "doko tisch", in_channel=world.channel, spiele=1, regeln="x")
    with pytest.raises(FakeDiscordError, match="got '12'"):
        await fake.slash(alice, "doko tisch", in_channel=world.channel, spiele="12")
    # Guild commands exist only in their guild.
    with pytest.raises(FakeDiscordError, match="not synced"):
        await fake.slash(alice, "gilde", in_channel=world.other_guild.channels[0])
    ix = await fake.slash(alice, "gilde", in_channel=world.channel)
    assert (await fake.response(ix)).status == 200


async def test_select_menu(world: World) -> None:
    fake, alice = world.fake, world.alice
    ix = await fake.slash(alice, "doko ansage", in_channel=world.channel)
    await fake.response(ix)
    prompt = ix.original
    assert prompt is not None
    with pytest.raises(FakeDiscordError, match="not among the options"):
        await fake.select(alice, prompt, "doko:ansage:7", ["schwarz"])
    pick = await fake.select(alice, prompt, "doko:ansage:7", ["kontra"])
    assert (await fake.response(pick)).type == 7
    assert prompt.content == "Ansage: kontra"
    assert prompt.components == []
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await fake.select(world.bob, prompt, "doko:ansage:7", ["re"])


async def test_dm_send_and_deferred_followup(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    ix = await fake.slash(alice, "doko karten", in_channel=world.channel)
    reply = await fake.followup(ix)
    assert (await fake.response(ix)).type == 5
    # The first followup after a defer edits the "thinking" message, which stays ephemeral.
    assert reply is ix.original and reply.ephemeral
    assert reply.content == "Karten per DM geschickt."
    dm = fake.dm_channel(alice)
    assert [m.content for m in fake.visible_messages(alice, dm)] == ["Deine Karten: ♣D ♠D"]
    assert fake.visible_messages(bob, dm) == []
    assert fake.requests_to("POST /users/@me/channels")[0].body == {"recipient_id": alice.id}


async def test_closed_dms_surface_as_forbidden_50007(world: World) -> None:
    fake, alice = world.fake, world.alice
    fake.close_dms(alice)
    ix = await fake.slash(alice, "doko karten", in_channel=world.channel)
    reply = await fake.followup(ix)
    assert reply.content == "Deine DMs sind geschlossen."
    (error,) = world.harness.errors
    assert isinstance(error, discord.Forbidden)
    assert (error.status, error.code) == (403, 50007)
    assert fake.visible_messages(alice, fake.dm_channel(alice)) == []


async def test_dm_slash_and_button_in_dm(world: World) -> None:
    fake, alice = world.fake, world.alice
    ix = await fake.slash(alice, "doko tisch", spiele=1)  # no channel: the user's DM
    await fake.response(ix)
    table = ix.original
    assert table is not None and table.channel is fake.dm_channel(alice)
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await fake.click(world.bob, table, "doko:join:7")
    click = await fake.click(alice, table, "doko:join:7")
    assert (await fake.response(click)).type == 7
    assert table.content == "alice sitzt an Tisch 7"


async def test_late_ack_is_unknown_interaction(world: World) -> None:
    fake = world.fake
    ix = await fake.slash(world.alice, "doko langsam", in_channel=world.channel)
    await asyncio.sleep(0)  # let the bot receive it, then let 3 s pass on the fake's clock
    fake.advance_clock(3.01)
    world.harness.gate("ack").set()
    response = await fake.response(ix)
    assert (response.status, response.error_code) == (404, 10062)
    await fake.wait_for(lambda: world.harness.errors)
    assert isinstance(world.harness.errors[0], discord.NotFound)
    assert world.harness.errors[0].code == 10062
    assert not ix.acked and ix.original is None


async def test_token_expires_after_15_minutes(world: World) -> None:
    fake = world.fake
    ix = await fake.slash(world.alice, "doko spaet", in_channel=world.channel)
    await fake.response(ix)
    fake.advance_clock(15 * 60 + 1)
    world.harness.gate("edit").set()
    error = await fake.wait_for(lambda: world.harness.errors and world.harness.errors[0])
    assert (error.status, error.code) == (401, 50027)
    assert ix.original is not None and ix.original.content == "gleich mehr"


async def test_edit_original_within_token_lifetime(world: World) -> None:
    fake = world.fake
    ix = await fake.slash(world.alice, "doko spaet", in_channel=world.channel)
    await fake.response(ix)
    fake.advance_clock(14 * 60)
    world.harness.gate("edit").set()
    await fake.wait_for(lambda: ix.original is not None and ix.original.content == "mehr")
    assert ix.original is not None and len(ix.original.history) == 1


async def test_double_ack_is_rejected_40060(world: World) -> None:
    fake = world.fake
    ix = await fake.slash(world.alice, "doko doppelt", in_channel=world.channel)
    await fake.wait_for(lambda: len(ix.callbacks) == 2)
    assert [(c.status, c.error_code) for c in ix.callbacks] == [(200, None), (400, 40060)]
    await fake.wait_for(lambda: world.harness.errors)
    assert world.harness.errors[0].code == 40060
    assert [m.content for m in fake.channel_messages(world.channel)] == ["eins"]


async def test_duplicate_custom_id_rejected_50035(world: World) -> None:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="♥10", custom_id="doko:p:1:1:H10"))
    view.add_item(discord.ui.Button(label="♥10", custom_id="doko:p:1:1:H10"))
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("Hand", view=view)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "components.0.components.1.custom_id" in caught.value.text
    assert "cannot be duplicated" in caught.value.text
    # With a copy index the same two cards are fine.
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="♥10", custom_id="doko:p:1:1:H10:0"))
    view.add_item(discord.ui.Button(label="♥10", custom_id="doko:p:1:1:H10:1"))
    message = await channel.send("Hand", view=view)
    assert world.fake.channel_messages(world.channel)[-1].id == message.id


async def test_content_over_2000_chars_rejected(world: World) -> None:
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("x" * 2000)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "content" in caught.value.text and "2000" in caught.value.text
    assert len(world.fake.channel_messages(world.channel)) == 1


async def test_openapi_rejects_wrong_type_field(world: World) -> None:
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=world.channel.id
    )
    bad = {"content": "hi", "components": [{"type": "action_row", "components": []}]}
    with pytest.raises(discord.HTTPException) as caught:
        await world.bot.http.request(route, json=bad)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    (record,) = world.fake.requests_to("POST /channels/{channel_id}/messages")
    assert "components" in record.response["errors"]
    assert world.fake.channel_messages(world.channel) == []


async def test_rate_limit_is_retried(world: World) -> None:
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.rate_limit_next("POST /channels/{channel_id}/messages", retry_after=0.3)
    started = time.monotonic()
    await channel.send("nach dem Limit")
    assert time.monotonic() - started >= 0.3
    sends = fake.requests_to("POST /channels/{channel_id}/messages")
    assert [r.status for r in sends] == [429, 200]
    assert sends[0].response == {
        "message": "You are being rate limited.",
        "retry_after": 0.3,
        "global": False,
        "code": 0,
    }


async def test_injected_server_errors(world: World) -> None:
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    fake.fail_next(r"POST /channels/\d+/messages", 503)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("weg")
    fake.fail_next("POST /channels/{channel_id}/messages", 500)
    await channel.send("beim zweiten Mal")  # discord.py retries a 500 after 1 s
    statuses = [r.status for r in fake.requests_to("POST /channels/{channel_id}/messages")]
    assert statuses == [503, 500, 200]


async def test_attachments_and_embed_limits(world: World) -> None:
    fake = world.fake
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    embed = discord.Embed(title="Stand", description="Re gewinnt")
    sent = await channel.send(embed=embed, file=discord.File(io.BytesIO(b"\x89PNG"), "hand.png"))
    (stored,) = fake.channel_messages(world.channel)
    assert [a.filename for a in stored.attachments] == ["hand.png"]
    # The CDN URL is not resolvable (like Discord's, offline); the fake hands out the bytes.
    assert fake.attachment_bytes(sent.attachments[0].url) == b"\x89PNG"
    assert stored.embeds[0]["title"] == "Stand"
    big = discord.Embed(title="t", description="d" * 4096)
    for i in range(25):
        big.add_field(name=f"f{i}", value="v" * 100)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(embed=big)
    assert "Embed size exceeds maximum size of 6000" in caught.value.text
    too_many = discord.Embed(title="t")
    for i in range(26):
        too_many.add_field(name=str(i), value="v")
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(embed=too_many)
    assert caught.value.code == 50035


async def test_resume_after_forced_disconnect(world: World) -> None:
    fake = world.fake
    await fake.disconnect(wait=False)
    # Sent while the bot is away: replayed on RESUME.
    ix = await fake.slash(world.alice, "doko tisch", in_channel=world.channel, spiele=2)
    await fake.wait_for(lambda: fake.resumes == 1, what="RESUME")
    assert (await fake.response(ix)).status == 200
    await fake.reconnect()
    assert (fake.identifies, fake.resumes) == (1, 2)
    await fake.invalid_session()
    assert fake.identifies == 2
    await fake.wait_for(world.bot.is_ready)
    ix = await fake.slash(world.alice, "doko tisch", in_channel=world.channel, spiele=3)
    assert (await fake.response(ix)).status == 200


async def test_every_response_kind_discord_py_sends(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    ix = await fake.slash(alice, "doko alles", in_channel=world.channel)
    last = await fake.followup(ix, 4)
    assert (await fake.response(ix)).type == 5
    original, second, gone, _ = ix.followups
    assert original is ix.original and original.deleted
    assert original.content == "erste, bearbeitet" and len(original.history) == 2
    assert second.content == "zweite, bearbeitet" and not second.deleted
    assert gone.content == "weg"
    assert [m.content for m in fake.visible_messages(bob, world.channel)] == [
        "zweite, bearbeitet",
        "weg",
        str(original.id),
    ]
    click = await fake.click(bob, last, "doko:leise")
    reply = await fake.followup(click)
    assert (await fake.response(click)).type == 6
    assert click.original is last and last.content == "leise bearbeitet" and last.components == []
    assert reply.ephemeral_to is bob
    assert reply not in fake.visible_messages(alice, world.channel)
    patch = fake.requests_to("PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
    delete = fake.requests_to("DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original")
    assert [r.status for r in patch] == [200, 200] and [r.status for r in delete] == [204]


async def test_modal_response(world: World) -> None:
    ix = await world.fake.slash(world.alice, "doko formular", in_channel=world.channel)
    response = await world.fake.response(ix)
    assert (response.type, response.status) == (9, 200)
    assert response.data["title"] == "Abrechnen"
    assert ix.original is None
