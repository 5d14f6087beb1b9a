"""The real DokoBot against the loopback Discord, plus two checks over every test.

* Leak check: every message and edit the fake stores is inspected at that moment; a card
  that sits unplayed in another player's hand must not be visible to the viewer.
* Every request the bot made was valid for Discord (OpenAPI schema, limits): no 400/50035,
  no route the fake does not model.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import pytest

from bot.config import Settings
from bot.discord.bot import DokoBot
from bot.discord.library import apply_discord_overrides
from bot.discord.run import sync_commands
from bot.engine import Engine, EngineError
from bot.render.cards import card_name
from bot.render.terms import CARD_LABEL_RE, parse_card_label
from bot.render.texts import Lang
from bot.rules.cards import Card
from tests.fakediscord import Channel, FakeDiscord, Guild, Message, User
from tests.fakediscord.models import DM
from tests.fakediscord.ratelimits import RateLimits
from tests.fakediscord.server import FakeDiscord as _FakeServer

GAME_MARKER = re.compile(r"\(#(\d+)\)")
LANGS: tuple[Lang, ...] = ("de", "en")


def message_text(message: Message) -> str:
    parts = [message.content]
    for embed in message.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
        parts.append((embed.get("footer") or {}).get("text", ""))
    for component in message.iter_components():
        parts.append(str(component.get("label", "")))
        for option in component.get("options") or []:
            parts.append(str(option.get("label", "")))
    return "\n".join(parts)


def mentioned_cards(message: Message) -> set[str]:
    cards = {
        parse_card_label(m[1], m[2]).code for m in CARD_LABEL_RE.finditer(message_text(message))
    }
    for custom_id in message.custom_ids:
        fields = custom_id.split(":")
        if fields[:2] == ["doko", "card"]:
            cards.add(fields[5])
    # Pictures: their alt texts name every card they show ("Herz-Zehn", "Ten of Hearts").
    for attachment in message.attachments:
        text = attachment.description or ""
        cards.update(c.code for c in Card for lang in LANGS if card_name(c, lang) in text)
    return cards


def armut_exchange(record: dict[str, Any], hands: list[Counter[str]]) -> None:
    """House rule Armut: the offered trumps went to the taker, the returned cards back."""
    actions = record["actions"]
    offers = {a["seat"]: a["armut"] for a in actions if "armut" in a}
    taker = next((a["seat"] for a in actions if a.get("take_armut") is True), None)
    if not offers or taker is None:
        return
    # Of two offers the earlier seat from the dealer's left prevails.
    poor = min(offers, key=lambda s: (s - record["dealer"] - 1) % 4)
    moves = [(poor, taker, offers[poor])]
    moves += [(taker, poor, a["return"]) for a in actions if "return" in a]
    for giver, receiver, cards in moves:
        for card in cards:
            hands[giver][card] -= 1
            hands[receiver][card] += 1


@dataclass
class LeakCheck:
    engines: list[Engine] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    inspected: int = 0

    def inspect(self, message: Message) -> None:
        self.inspected += 1
        cards = mentioned_cards(message)
        if not cards:
            return
        viewer: User | None = message.ephemeral_to
        if viewer is None and message.channel.type == DM:
            viewer = message.channel.recipient
        marker = GAME_MARKER.search(message_text(message))
        for engine in self.engines:
            for info in engine.open_tables():
                if info.status != "playing" or info.game_id is None:
                    continue
                if marker is not None and int(marker[1]) != info.game_id:
                    continue  # about another (finished) game: every card of it was played
                try:
                    record = engine.record(info.id)
                except EngineError:
                    continue
                played = Counter(a["play"] for a in record["actions"] if "play" in a)
                hands = [Counter(h) for h in record["hands"]]
                armut_exchange(record, hands)
                for a in record["actions"]:
                    if "play" in a:
                        hands[a["seat"]][a["play"]] -= 1
                # The viewer's game seat: none for the dealer sitting out at five players.
                own = info.game_seat_of(viewer.id) if viewer is not None else None
                for card in cards:
                    mine = hands[own][card] if own is not None else 0
                    others = sum(hands[s][card] for s in range(4) if s != own)
                    if others > 0 and mine == 0 and played[card] == 0:
                        self.leaks.append(
                            f"{card} (unplayed, in another hand) visible to "
                            f"{viewer or 'everyone'} in {message!r}: {message_text(message)!r}"
                        )


LEAKS = LeakCheck()


@pytest.fixture(scope="session", autouse=True)
def leak_check() -> Iterator[LeakCheck]:
    """Inspect every message the fake stores, created or edited, across the whole session."""
    create, edit = _FakeServer._create, _FakeServer._edit

    def checked_create(self: _FakeServer, *args: Any, **kwargs: Any) -> Message:
        message = create(self, *args, **kwargs)
        LEAKS.inspect(message)
        return message

    def checked_edit(self: _FakeServer, message: Message, *args: Any, **kwargs: Any) -> None:
        edit(self, message, *args, **kwargs)
        LEAKS.inspect(message)

    _FakeServer._create = checked_create  # type: ignore[method-assign]
    _FakeServer._edit = checked_edit  # type: ignore[method-assign]
    yield LEAKS
    _FakeServer._create, _FakeServer._edit = create, edit  # type: ignore[method-assign]
    assert not LEAKS.leaks, "\n".join(LEAKS.leaks)


def bad_requests(fake: FakeDiscord) -> list[str]:
    """Requests Discord would have refused for their form, or routes the fake lacks."""
    out = []
    for r in fake.requests:
        code = r.response.get("code") if isinstance(r.response, dict) else None
        if r.status == 400 or r.status >= 500 or r.route is None:
            out.append(f"{r!r} {code} {r.response}")
    return out


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "fake_rate_limits(**options): options of the fake's RateLimits for this test "
        "(time_scale=0.05 runs Discord's limits 20 times faster)",
    )
    config.addinivalue_line(
        "markers",
        "allow_429s(n): up to n 429s by route are expected: a process started again after "
        "kill -9 cannot know the buckets its predecessor used up, so Discord may answer its "
        "first requests with 429 (discord.py waits and sends them again)",
    )


def rate_limits_for(request: pytest.FixtureRequest) -> RateLimits:
    """Discord's rate limits, on unless DOKO_FAKE_RATE_LIMITS=off (to measure what they
    cost); a test may shorten their windows: ``@pytest.mark.fake_rate_limits(time_scale=…)``.
    """
    marker = request.node.get_closest_marker("fake_rate_limits")
    options = dict(marker.kwargs) if marker is not None else {}
    enabled = os.environ.get("DOKO_FAKE_RATE_LIMITS", "on") != "off"
    return RateLimits(enabled=enabled, **options)


@pytest.fixture
async def fake(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> AsyncIterator[FakeDiscord]:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    # Discord's rate limits on: a test the real Discord would rate-limit is limited here too.
    async with FakeDiscord(rate_limits=rate_limits_for(request)) as server:
        server.ratelimits.clock = server.now  # the fake's clock (advance_clock)
        yield server
        injected = getattr(server, "injected_failures", 0)
        assert len(bad_requests(server)) == injected, bad_requests(server)
        # The bot obeys the headers: in normal play it never runs into a 429 of its own.
        limits = server.ratelimits
        marker = request.node.get_closest_marker("allow_429s")
        allowed = marker.args[0] if marker is not None else 0
        assert sum(limits.limited.values()) <= allowed and not limits.global_limited, (
            f"429s: {dict(limits.limited)}, global {limits.global_limited}"
        )
    assert not LEAKS.leaks, "\n".join(LEAKS.leaks)


def settings_for(fake: FakeDiscord, path: Path) -> Settings:
    return Settings(fake.token, path, dev_guild_id=None, log_level="INFO")


@dataclass
class World:
    fake: FakeDiscord
    bot: DokoBot
    task: asyncio.Task[None]
    guild: Guild
    channel: Channel
    users: list[User]
    db_path: Path

    @property
    def engine(self) -> Engine:
        assert self.bot.engine is not None
        return self.bot.engine

    async def settle(self) -> None:
        """Until the AIs rest and every message update has gone out."""
        for _ in range(3):
            await self.engine.idle()
            cog: Any = self.bot.get_cog("Doko")
            await cog.presenter.idle()

    async def run(self, user: User, command: str, **options: Any) -> Any:
        ix = await self.fake.slash(user, f"doko {command}", in_channel=self.channel, **options)
        callback = await self.fake.response(ix, timeout=3)
        assert callback.status == 200, callback
        return ix

    async def answer_text(self, ix: Any) -> str:
        """The text of the (ephemeral or public) answer an interaction got."""
        message = await self.fake.wait_for(
            lambda: next(
                (m for m in [*ix.followups, ix.original] if m is not None and not m.flags & 128),
                None,
            ),
            3,
            "an answer",
        )
        return message_text(message)

    async def open_table(self, host: User, **options: Any) -> int:
        ix = await self.run(host, "tisch", **options)
        await self.fake.followup(ix)
        info = self.engine.find_table(self.guild.id, self.channel.id)
        assert info is not None
        return info.id

    def lobby(self) -> Message:
        for message in reversed(self.fake.channel_messages(self.channel)):
            if any(c.startswith("doko:join:") for c in message.custom_ids):
                return message
        raise AssertionError("no lobby message")

    async def click(self, user: User, message: Message, prefix: str) -> Any:
        custom_id = next((c for c in message.custom_ids if c.startswith(prefix)), None)
        assert custom_id is not None, (prefix, message.custom_ids, message.content)
        ix = await self.fake.click(user, message, custom_id)
        callback = await self.fake.response(ix, timeout=3)
        assert callback.status == 200, callback
        return ix

    def hand_dms(self, user: User) -> list[Message]:
        """The user's DMs that are hand messages: not the ephemeral answers to clicks (a
        button clicked while the table moved on is answered "veraltet" there).
        """
        dm = self.fake.dm_channel(user)
        return [m for m in self.fake.visible_messages(user, dm) if not m.ephemeral]

    def hand_message(self, user: User, table_id: int, version: int) -> Message | None:
        """The newest message ``user`` sees with buttons for this table version."""
        channels = [self.fake.dm_channel(user), self.channel]
        prefixes = (
            *(f"doko:{what}:{table_id}:{version}:" for what in ("card", "reserve", "call")),
            f"doko:declare:{table_id}:{version}",
        )
        for channel in channels:
            for message in reversed(self.fake.visible_messages(user, channel)):
                if any(c.startswith(prefixes) for c in message.custom_ids):
                    return message
        return None

    async def current_hand(self, user: User, table_id: int) -> Message:
        def find() -> Message | None:
            info = self.engine.table(table_id)
            return self.hand_message(user, table_id, info.version)

        return await self.fake.wait_for(find, 5, f"the current hand of {user}")


async def start_bot(
    fake: FakeDiscord, db_path: Path, seeds: Callable[[], int] | None = None
) -> tuple[DokoBot, asyncio.Task[None]]:
    apply_discord_overrides(fake.env())
    bot = DokoBot(settings_for(fake, db_path), seeds=seeds, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(fake.token))
    fake.watch(task)
    await fake.wait_for(bot.is_ready, 10, "the bot's on_ready")
    assert bot.engine is not None
    LEAKS.engines.append(bot.engine)
    return bot, task


async def stop_bot(bot: DokoBot, task: asyncio.Task[None]) -> None:
    if bot.engine in LEAKS.engines:
        LEAKS.engines.remove(bot.engine)  # type: ignore[arg-type]
    await bot.close()
    await asyncio.wait_for(task, 10)


def seed_list(*seeds: int) -> Callable[[], int]:
    """Seeds in order: the engine draws one for the first dealer, then one per deal."""
    values = iter(seeds)
    return lambda: next(values, 7)


@pytest.fixture
async def make_world(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    worlds: list[World] = []

    async def make(
        names: tuple[str, ...] = ("anna", "ben", "clara", "dirk"),
        seeds: Callable[[], int] | None = None,
        locales: dict[str, str] | None = None,
    ) -> World:
        users = [fake.add_user(n, locale=(locales or {}).get(n, "de")) for n in names]
        guild = fake.add_guild("Stammtisch", owner=users[0])
        for user in users[1:]:
            fake.add_member(guild, user)
        db_path = tmp_path / "doko.sqlite3"
        apply_discord_overrides(fake.env())
        await sync_commands(settings_for(fake, db_path), None)
        bot, task = await start_bot(fake, db_path, seeds)
        world = World(fake, bot, task, guild, guild.channels[0], users, db_path)
        worlds.append(world)
        return world

    yield make
    for world in worlds:
        if not world.task.done():
            await world.settle()
            await stop_bot(world.bot, world.task)
