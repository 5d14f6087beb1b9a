"""A loopback Discord (REST + gateway) that an unmodified discord.py bot logs into.

Start it, point the bot at ``api_base`` / ``gateway_url`` (see ``overrides.py``), then drive it
from the test with ``slash``/``click``/``select`` and inspect what the bot sent.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import WSMsgType, web

from .attachments import (
    ATTACHMENT_SIZE_LIMIT,
    BadPayload,
    Upload,
    link_embeds,
    read_multipart,
    resolve,
    too_large,
)
from .limits import FieldErrors, check_message, form_error_body
from .models import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    LOADING,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Callback,
    Channel,
    Guild,
    Interaction,
    Message,
    RequestRecord,
    Role,
    User,
)
from .openapi import Operation, load_spec
from .ratelimits import Decision, RateLimits, limited_headers

log = logging.getLogger(__name__)

T = TypeVar("T")
API_PREFIX = "/api/v10"
ACK_DEADLINE = 3.0  # seconds to send the initial response
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token stays valid
HEARTBEAT_INTERVAL_MS = 41250
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
# Interaction types and the callback types Discord accepts for each.
APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 2, 3, 5
CALLBACKS_FOR = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    # A modal opened from a component may update that component's message (6, 7).
    MODAL_SUBMIT: {4, 5, 6, 7},
}
ROLE_SELECT, MODAL = 6, 9
# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, NUMBER = 3, 4, 5, 6, 7, 10


class FakeDiscordError(Exception):
    """A test drove the fake in a way Discord's client would not allow (typo, hidden message...)."""


@dataclass
class _Fault:
    pattern: str
    status: int
    body: dict[str, Any]
    headers: dict[str, str]
    times: int
    raw: bytes | None = None  # a body that is no JSON (a proxy's error page), or empty
    content_type: str = "application/json"

    def response(self) -> web.Response:
        if self.raw is None:
            return _json(self.body, self.status, self.headers)
        headers = {"Content-Type": self.content_type, **self.headers}
        return web.Response(body=self.raw, status=self.status, headers=headers)


@dataclass
class _Session:
    id: str
    intents: int
    shard: int = 0  # the shard this connection identified as (0 unsharded)
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    ws: web.WebSocketResponse | None = None


@dataclass
class _Req:
    op: Operation
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Upload]


Handler = Callable[[_Req], Awaitable[web.Response]]


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py compares the header literally (no charset).
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class ApiError(Exception):
    """Raised inside handlers; becomes Discord's JSON error response."""

    def __init__(self, status: int, code: int, message: str, errors: FieldErrors | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: dict[str, Any] = (
            form_error_body(errors) if errors else {"code": code, "message": message}
        )


def _route_params(template: str, path: str) -> dict[str, str]:
    return {
        t[1:-1]: p
        for t, p in zip(template.split("/"), path.split("/"), strict=True)
        if t.startswith("{")
    }


class FakeDiscord:
    """The loopback Discord and its test-control API."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Doko",
        shard_count: int = 1,
        rate_limits: bool | RateLimits = False,
    ) -> None:
        self.token = token
        # Discord's rate limits (ratelimits.py): enforced when True, else only counted.
        self.ratelimits = (
            rate_limits
            if isinstance(rate_limits, RateLimits)
            else RateLimits(enabled=rate_limits, clock=self.now)
        )
        # Sharded: a bot must IDENTIFY with [shard_id, shard_count]; each guild's events go
        # only to the connection of its shard, DMs to shard 0 (as on Discord).
        self.shard_count = shard_count
        self._ids = itertools.count(1_300_000_000_000_000_000)
        self.bot_user = User(self.snowflake(), bot_name, bot=True)
        self.app_id = self.bot_user.id
        self.users: dict[int, User] = {}
        self.guilds: list[Guild] = []
        self.channels: dict[int, Channel] = {}
        self.messages: list[Message] = []
        self.interactions: dict[int, Interaction] = {}
        # Indexes: a webhook finds its interaction by token, a route its message by id, a
        # channel its messages (scanning every one stalled the fake at 1,000 tables).
        self._by_token: dict[str, Interaction] = {}
        self._by_message_id: dict[int, Message] = {}
        self._by_channel: dict[int, list[Message]] = {}
        self.requests: list[RequestRecord] = []
        # The bot's permissions per channel as interactions report them (app_permissions);
        # a channel not listed: all of them.
        self.app_permissions: dict[int, int] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.identifies = 0
        self.resumes = 0
        self._sessions: dict[str, _Session] = {}
        self._session: _Session | None = None  # the newest connection of any shard
        self._shards: dict[int, _Session] = {}  # shard id -> its current session
        self._faults: list[_Fault] = []
        self.injected_failures = 0  # 400 and 5xx answers that fail_next injected
        self._transports: dict[web.WebSocketResponse, Any] = {}  # to drop a connection
        self._clock_offset = 0.0
        self._watched: list[asyncio.Task[Any]] = []
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self.port = 0
        self._spec = load_spec()
        self._handlers: dict[str, Handler] = {
            "GET /users/@me": self._get_me,
            "GET /oauth2/applications/@me": self._get_app,
            "GET /applications/@me": self._get_app,
            "GET /gateway": self._get_gateway,
            "GET /gateway/bot": self._get_gateway,
            "GET /applications/{application_id}/commands": self._get_commands,
            "PUT /applications/{application_id}/commands": self._put_commands,
            "GET /applications/{application_id}/guilds/{guild_id}/commands": self._get_commands,
            "PUT /applications/{application_id}/guilds/{guild_id}/commands": self._put_commands,
            "POST /users/@me/channels": self._create_dm,
            "GET /channels/{channel_id}": self._get_channel,
            "POST /channels/{channel_id}/messages": self._send_message,
            "GET /channels/{channel_id}/messages/{message_id}": self._get_message,
            "PATCH /channels/{channel_id}/messages/{message_id}": self._edit_message,
            "DELETE /channels/{channel_id}/messages/{message_id}": self._delete_message,
            "POST /channels/{channel_id}/messages/{message_id}/threads": self._create_thread,
            "POST /interactions/{interaction_id}/{interaction_token}/callback": self._callback,
            "POST /webhooks/{webhook_id}/{webhook_token}": self._followup,
            "GET /webhooks/{webhook_id}/{webhook_token}/messages/@original": self._get_wh_msg,
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": self._edit_wh_msg,
            "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original": self._del_wh_msg,
            "GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": self._get_wh_msg,
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": self._edit_wh_msg,
            "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": self._del_wh_msg,
        }

    # ------------------------------------------------------------------ lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Serve REST under ``/api/v10`` and the gateway at ``/`` on a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.host = host
        log.info("fake Discord listening on %s:%s", host, self.port)

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    def env(self) -> dict[str, str]:
        """The environment variables that point the bot at this fake."""
        return {
            "DOKO_DISCORD_API_BASE": self.api_base,
            "DOKO_DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ------------------------------------------------------------------ world building

    def snowflake(self) -> int:
        return next(self._ids)

    def add_user(self, name: str, *, locale: str = "de", dms_open: bool = True) -> User:
        user = User(self.snowflake(), name, locale=locale, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner: User | None = None, channels: tuple[str, ...] = ("doko",)
    ) -> Guild:
        """A guild with the bot as member; dispatched as GUILD_CREATE if the bot is connected."""
        owner = owner or self.add_user(f"{name}-owner")
        guild = Guild(self.snowflake(), name, owner, members=[self.bot_user, owner])
        for channel_name in channels:
            channel = Channel(self.snowflake(), GUILD_TEXT, channel_name, guild=guild)
            guild.channels.append(channel)
            self.channels[channel.id] = channel
        self.guilds.append(guild)
        session = self._shards.get(self.shard_of(guild))
        if session is not None:
            self._dispatch("GUILD_CREATE", self._guild_create(guild, session), guild=guild)
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(self.snowflake(), GUILD_TEXT, name, guild=guild)
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if self._session is not None:
            self._dispatch("CHANNEL_CREATE", channel.to_json(), guild=guild)
        return channel

    def add_member(self, guild: Guild, user: User) -> None:
        if user in guild.members:
            return
        guild.members.append(user)
        # GUILD_MEMBER_ADD is only sent to bots with the privileged GUILD_MEMBERS intent.
        session = self._shards.get(self.shard_of(guild))
        if session is not None and session.intents & GUILD_MEMBERS_INTENT:
            self._dispatch(
                "GUILD_MEMBER_ADD", {**guild.member_json(user), "guild_id": str(guild.id)}, guild
            )

    def dm_channel(self, user: User) -> Channel:
        """The (single) DM channel between the bot and ``user``, created on first use."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient is user:
                return channel
        channel = Channel(self.snowflake(), DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def close_dms(self, user: User) -> None:
        """The user disallows DMs: sends to their DM channel fail with 403/50007."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        user.dms_open = True

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        """A new role (no member holds it yet); dispatched as GUILD_ROLE_CREATE."""
        role = Role(self.snowflake(), name, permissions, position=len(guild.roles) + 1)
        guild.roles.append(role)
        session = self._shards.get(self.shard_of(guild))
        if session is not None:
            self._dispatch(
                "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_json()}, guild
            )
        return role

    def give_role(self, guild: Guild, user: User, role: Role) -> None:
        """``user`` holds ``role`` from now on: the member in their interactions lists it.

        Without the privileged GUILD_MEMBERS intent no GUILD_MEMBER_UPDATE is sent.
        """
        held = guild.member_roles.setdefault(user.id, [])
        if role not in held:
            held.append(role)

    def take_role(self, guild: Guild, user: User, role: Role) -> None:
        """``user`` no longer holds ``role``."""
        held = guild.member_roles.get(user.id, [])
        if role in held:
            held.remove(role)

    # ------------------------------------------------------------------ clock

    def now(self) -> float:
        """The fake's clock (monotonic plus whatever ``advance_clock`` added)."""
        return time.monotonic() + self._clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Move time forward for the 3 s / 15 min interaction rules, without sleeping."""
        self._clock_offset += seconds

    # ------------------------------------------------------------------ fault injection

    def _matches(self, pattern: str, method: str, path: str, route: str | None) -> bool:
        return pattern == route or re.search(pattern, f"{method} {path}") is not None

    def fail_next(
        self,
        route_pattern: str,
        status: int = 500,
        code: int = 0,
        message: str | None = None,
        *,
        times: int = 1,
        body: str = "json",
    ) -> None:
        """The next ``times`` requests matching ``route_pattern`` fail with ``status``/``code``.

        The pattern is either a documented route ("POST /channels/{channel_id}/messages") or a
        regex searched in "METHOD /concrete/path". ``body``: "json" (Discord's error body),
        "empty", or "html" (a proxy's error page, as Cloudflare sends for a 502).
        """
        error = {"code": code, "message": message or f"{status}: injected by the fake"}
        fault = _Fault(route_pattern, status, error, {}, times)
        if body == "empty":
            fault.raw, fault.content_type = b"", "text/plain"
        elif body == "html":
            page = f"<html><head><title>{status}</title></head><body>{status}</body></html>"
            fault.raw, fault.content_type = page.encode(), "text/html"
        elif body != "json":
            raise FakeDiscordError(f"unknown fault body {body!r}: json, empty or html")
        self._faults.append(fault)

    def rate_limit_next(
        self,
        route_pattern: str,
        retry_after: float = 0.05,
        *,
        is_global: bool = False,
        times: int = 1,
    ) -> None:
        """The next ``times`` matching requests get a 429 with the headers Discord sends."""
        headers = limited_headers(
            retry_after,
            is_global=is_global,
            bucket="fake" + secrets.token_hex(8),
            limit=5,
            now_wall=time.time(),
        )
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        self._faults.append(_Fault(route_pattern, 429, body, headers, times))

    def pending_faults(self) -> list[tuple[str, int, int]]:
        """Injected faults not met yet: (pattern, status, times left)."""
        return [(f.pattern, f.status, f.times) for f in self._faults]

    def _take_fault(self, method: str, path: str, route: str | None) -> _Fault | None:
        for fault in self._faults:
            if self._matches(fault.pattern, method, path, route):
                fault.times -= 1
                if fault.times <= 0:
                    self._faults.remove(fault)
                if fault.status == 429:
                    self.ratelimits.injected += 1
                elif fault.status == 400 or fault.status >= 500:
                    # The end-to-end tests' check for bad requests expects these.
                    self.injected_failures += 1
                return fault
        return None

    # ------------------------------------------------------------------ inspection

    def watch(self, task: asyncio.Task[Any]) -> None:
        """Make every ``wait_for`` re-raise this task's exception (e.g. the bot's ``start``)."""
        self._watched.append(task)

    def _check_watched(self) -> None:
        for task in self._watched:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise FakeDiscordError(
                    f"watched task failed: {task.exception()!r}"
                ) from task.exception()

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition"
    ) -> T:
        """Poll ``predicate`` until it returns something truthy; return that. Bounded."""
        deadline = time.monotonic() + timeout
        while True:
            self._check_watched()
            result = predicate()
            if result:
                return result
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            await asyncio.sleep(0.005)

    def attachment(self, url: str) -> Attachment:
        """The stored file behind a CDN ``url`` (as a message, embed or discord.py shows it)."""
        for message in self.messages:
            for attachment in message.attachments:
                if url.split("?")[0] in (attachment.url, attachment.proxy_url):
                    return attachment
        raise FakeDiscordError(f"no attachment is stored at {url}")

    def attachment_bytes(self, url: str) -> bytes:
        """The bytes the bot uploaded, for a CDN ``url``."""
        return self.attachment(url).data

    def requests_to(self, route_pattern: str) -> list[RequestRecord]:
        """Logged requests matching a documented route or a regex over "METHOD /path"."""
        return [r for r in self.requests if self._matches(route_pattern, r.method, r.path, r.route)]

    def visible_messages(self, user: User, channel: Channel) -> list[Message]:
        """What ``user`` sees in ``channel``: DMs only as recipient, ephemerals only their own."""
        if channel.type == DM and channel.recipient is not user:
            return []
        if channel.guild is not None and user not in channel.guild.members:
            return []
        return [
            m
            for m in self._by_channel.get(channel.id, ())
            if m.channel is channel
            and not m.deleted
            and (m.ephemeral_to is None or m.ephemeral_to is user)
        ]

    def channel_messages(self, channel: Channel) -> list[Message]:
        """Every live message in ``channel``, ephemeral ones included."""
        return [m for m in self._by_channel.get(channel.id, ()) if not m.deleted]

    def commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced: global, or one guild's."""
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    async def wait_until_ready(self, timeout: float = 5.0) -> None:
        """Until a bot has identified and received READY and every GUILD_CREATE."""
        await self.wait_for(
            lambda: self._session is not None and self._session.ws is not None, timeout, "IDENTIFY"
        )

    async def response(self, interaction: Interaction, timeout: float = 5.0) -> Callback:
        """The bot's first callback attempt for ``interaction`` (accepted or not)."""
        return await self.wait_for(
            lambda: interaction.callbacks[0] if interaction.callbacks else None,
            timeout,
            f"a callback for interaction {interaction.id}",
        )

    async def followup(self, interaction: Interaction, n: int = 1, timeout: float = 5.0) -> Message:
        """The ``n``-th followup message the bot sent for ``interaction``."""
        return await self.wait_for(
            lambda: interaction.followups[n - 1] if len(interaction.followups) >= n else None,
            timeout,
            f"followup {n} of interaction {interaction.id}",
        )

    # ------------------------------------------------------------------ gateway

    def shard_of(self, guild: Guild | None) -> int:
        """Discord's formula; events outside a guild (DMs) belong to shard 0."""
        return 0 if guild is None else (guild.id >> 22) % self.shard_count

    def guild_on_shard(self, name: str, shard: int, **options: Any) -> Guild:
        """A new guild whose id lands on ``shard``: the id counter jumps to the next such id."""
        upcoming = self.snowflake()
        step = (shard - (upcoming >> 22)) % self.shard_count
        if step:
            upcoming = ((upcoming >> 22) + step) << 22
        self._ids = itertools.count(upcoming)
        return self.add_guild(name, **options)

    def _dispatch(
        self,
        event: str,
        data: dict[str, Any],
        guild: Guild | None = None,
        *,
        session: _Session | None = None,
    ) -> None:
        """Send (or, while disconnected, buffer for RESUME) one dispatch event.

        It goes to ``session``, else to the current session of the guild's shard.
        """
        if self._session is None:
            raise FakeDiscordError("no bot is connected to the fake gateway")
        if session is None:
            shard = self.shard_of(guild)
            session = self._shards.get(shard)
        if session is None:
            if event == "INTERACTION_CREATE":
                raise FakeDiscordError(f"no bot has identified as shard {shard}")
            return  # Discord would not buffer for a shard nobody ever connected
        if event.startswith("MESSAGE_"):
            # Message events go only to connections that asked for them.
            wanted = GUILD_MESSAGES_INTENT if guild is not None else DIRECT_MESSAGES_INTENT
            if not session.intents & wanted:
                return
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        if session.ws is not None and not session.ws.closed:
            asyncio.get_running_loop().create_task(self._send(session.ws, payload))

    async def _send(self, ws: web.WebSocketResponse, payload: dict[str, Any]) -> None:
        try:
            await ws.send_str(json.dumps(payload))
        except ConnectionError:
            log.debug("gateway send failed; the event stays buffered for RESUME")

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        # The bot asks for zlib-stream compression; text frames are valid too and
        # discord.py only decompresses binary frames.
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        self._transports[ws] = request.transport
        await ws.send_str(
            json.dumps(
                {"op": 10, "s": None, "t": None, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}
            )
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, data = payload.get("op"), payload.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "s": None, "t": None, "d": None}))
                elif op == 2:
                    await self._identify(ws, data)
                elif op == 6:
                    await self._resume(ws, data)
                else:
                    log.debug("gateway op %s ignored", op)
        finally:
            self._sockets.discard(ws)
            self._transports.pop(ws, None)
            for session in self._sessions.values():
                if session.ws is ws:
                    session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        shard, count = data.get("shard") or [0, 1]
        if count != self.shard_count or not 0 <= shard < count:
            # Discord's close codes: 4011 when sharding is required, 4010 for a bad shard.
            if "shard" not in data:
                await ws.close(code=4011, message=b"Sharding required.")
            else:
                await ws.close(code=4010, message=b"Invalid shard.")
            return
        self.identifies += 1
        session = _Session(secrets.token_hex(16), int(data.get("intents", 0)), shard, ws=ws)
        self._sessions[session.id] = session
        self._session = session
        self._shards[shard] = session
        guilds = [g for g in self.guilds if self.shard_of(g) == shard]
        self._dispatch(
            "READY",
            {
                "v": 10,
                "user": self.bot_user.to_json(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": [shard, count],
                "application": {"id": str(self.app_id), "flags": 0},
            },
            session=session,
        )
        for guild in guilds:
            self._dispatch("GUILD_CREATE", self._guild_create(guild, session), session=session)

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.token:
            await ws.send_str(json.dumps({"op": 9, "s": None, "t": None, "d": False}))
            return
        self.resumes += 1
        session.ws = ws
        self._session = session
        self._shards[session.shard] = session
        seq = data.get("seq") or 0
        for payload in session.events:
            if payload["s"] > seq:
                await ws.send_str(json.dumps(payload))
        self._dispatch("RESUMED", {}, session=session)

    def _guild_create(self, guild: Guild, session: _Session) -> dict[str, Any]:
        data = (
            guild.to_json()
            if session.intents & GUILD_MEMBERS_INTENT
            else guild.to_json([self.bot_user])
        )
        # The guild's active threads come along, as on Discord (a restarted bot knows them).
        data["threads"] = [
            c.to_json() for c in self.channels.values() if c.parent is not None and c.guild is guild
        ]
        return data

    def _live_ws(self) -> web.WebSocketResponse:
        if self._session is None or self._session.ws is None:
            raise FakeDiscordError("no live gateway connection")
        return self._session.ws

    async def disconnect(self, *, wait: bool = True, timeout: float = 5.0) -> None:
        """Drop the gateway connection (close code 4000); the bot should RESUME."""
        before = self.resumes
        await self._live_ws().close(code=4000, message=b"Unknown error")
        if wait:
            await self.wait_for(lambda: self.resumes > before, timeout, "RESUME")

    async def reconnect(self, *, wait: bool = True, timeout: float = 5.0) -> None:
        """Send op 7 RECONNECT; the bot should reconnect and RESUME."""
        before = self.resumes
        await self._live_ws().send_str(json.dumps({"op": 7, "s": None, "t": None, "d": None}))
        if wait:
            await self.wait_for(lambda: self.resumes > before, timeout, "RESUME")

    async def invalid_session(
        self, *, resumable: bool = False, wait: bool = True, timeout: float = 10.0
    ) -> None:
        """Send op 9 INVALID_SESSION; unresumable sessions make the bot IDENTIFY afresh.

        discord.py sleeps 5 s before a re-IDENTIFY (``Client.before_identify_hook``), hence
        the longer default timeout.
        """
        before = (self.identifies, self.resumes)
        await self._live_ws().send_str(json.dumps({"op": 9, "s": None, "t": None, "d": resumable}))
        if wait:
            await self.wait_for(
                lambda: (self.identifies, self.resumes) != before, timeout, "IDENTIFY or RESUME"
            )

    async def drop(self, *, wait: bool = True, timeout: float = 10.0) -> None:
        """The connection breaks without a close frame (a network fault); the bot should
        notice (close code 1006) and RESUME.
        """
        before = self.resumes
        ws = self._live_ws()
        transport = self._transports.get(ws)
        if transport is None:
            raise FakeDiscordError("the live connection has no transport to break")
        transport.abort()
        if wait:
            await self.wait_for(lambda: self.resumes > before, timeout, "RESUME after a drop")

    async def resume_storm(self, times: int = 5, *, timeout: float = 10.0) -> None:
        """Drop the connection ``times`` times in a row, each as soon as the bot resumed."""
        for i in range(times):
            if i % 2:
                await self.drop(timeout=timeout)
            else:
                await self.disconnect(timeout=timeout)

    # ------------------------------------------------------------------ interactions (test side)

    def _new_interaction(
        self,
        type_: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        message: Message | None = None,
    ) -> Interaction:
        guild = channel.guild
        if guild is not None and user not in guild.members:
            raise FakeDiscordError(f"{user!r} is not a member of {guild.name}")
        if channel.type == DM and channel.recipient is not user:
            raise FakeDiscordError(f"{user!r} cannot use someone else's DM {channel!r}")
        interaction = Interaction(
            id=self.snowflake(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            type=type_,
            user=user,
            channel=channel,
            data=data,
            created_at=self.now(),
            message=message,
        )
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        payload: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(self.app_id),
            "type": type_,
            "token": interaction.token,
            "version": 1,
            "data": data,
            "channel": channel.to_json(),
            "channel_id": str(channel.id),
            "app_permissions": str(
                self.app_permissions.get(channel.permissions_channel.id, int(ALL_PERMISSIONS))
            ),
            "locale": user.locale,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
        }
        if guild is not None:
            payload |= {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "guild_locale": guild.locale,
                "member": {
                    **guild.member_json(user),
                    "permissions": str(guild.permissions_of(user)),
                },
                "authorizing_integration_owners": {"0": str(guild.id)},
                "context": 0,
            }
        else:
            payload |= {
                "user": user.to_json(),
                "authorizing_integration_owners": {"0": str(self.app_id)},
                "context": 1,
            }
        if message is not None:
            payload["message"] = self._message_json(message)
        self._dispatch("INTERACTION_CREATE", payload, guild)
        return interaction

    def _available_commands(self, channel: Channel) -> list[dict[str, Any]]:
        commands = [
            c
            for c in self.global_commands
            if channel.guild is not None or 1 in (c.get("contexts") or [0, 1, 2])
        ]
        if channel.guild is not None:
            commands += self.guild_commands.get(channel.guild.id, [])
        return commands

    async def slash(
        self, user: User, command: str, *, in_channel: Channel | None = None, **options: Any
    ) -> Interaction:
        """``user`` runs ``/command`` ("doko turnier start") in ``in_channel`` (default: their DM).

        Resolves against what the bot synced: an unknown command, subcommand or option, a
        missing required option, a wrong type or a value outside ``choices`` raises.
        """
        channel = in_channel or self.dm_channel(user)
        names = command.split()
        candidates = [c for c in self._available_commands(channel) if c.get("type", 1) == 1]
        top = next((c for c in candidates if c["name"] == names[0]), None)
        if top is None:
            known = sorted(c["name"] for c in candidates)
            raise FakeDiscordError(f"/{names[0]} is not synced for {channel!r}; known: {known}")
        node: dict[str, Any] = top
        path: list[dict[str, Any]] = []
        for name in names[1:]:
            subs = [
                o
                for o in node.get("options") or []
                if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            node = next((o for o in subs if o["name"] == name), {})
            if not node:
                raise FakeDiscordError(
                    f"/{command}: no subcommand {name!r}; known: {[o['name'] for o in subs]}"
                )
            path.append(node)
        defs = node.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
            raise FakeDiscordError(f"/{command} needs a subcommand: {[o['name'] for o in defs]}")
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options = [
            self._option(command, defs, n, v, channel, resolved) for n, v in options.items()
        ]
        missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
        if missing:
            raise FakeDiscordError(f"/{command}: required options missing: {missing}")
        nested = leaf_options
        for sub in reversed(path):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1, "options": nested}
        if "guild_id" in top:
            data["guild_id"] = top["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return self._new_interaction(APPLICATION_COMMAND, user, channel, data)

    def _option(
        self,
        command: str,
        defs: list[dict[str, Any]],
        name: str,
        value: Any,
        channel: Channel,
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        spec = next((o for o in defs if o["name"] == name), None)
        if spec is None:
            raise FakeDiscordError(
                f"/{command}: no option {name!r}; known: {[o['name'] for o in defs]}"
            )
        kind = spec["type"]
        checks: dict[int, Callable[[Any], bool]] = {
            STRING: lambda v: isinstance(v, str),
            INTEGER: lambda v: isinstance(v, int) and not isinstance(v, bool),
            BOOLEAN: lambda v: isinstance(v, bool),
            NUMBER: lambda v: isinstance(v, int | float) and not isinstance(v, bool),
            USER: lambda v: isinstance(v, User),
            CHANNEL: lambda v: isinstance(v, Channel),
        }
        if kind not in checks:
            raise FakeDiscordError(
                f"/{command}: option type {kind} of {name!r} is not modelled by the fake"
            )
        if not checks[kind](value):
            raise FakeDiscordError(f"/{command}: option {name!r} (type {kind}) got {value!r}")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordError(
                f"/{command}: {name}={value!r} is not one of the choices {choices}"
            )
        if isinstance(value, int | float) and not isinstance(value, bool):
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise FakeDiscordError(f"/{command}: {name}={value} outside [{low}, {high}]")
        if isinstance(value, str) and not spec.get("min_length", 0) <= len(value) <= spec.get(
            "max_length", 6000
        ):
            raise FakeDiscordError(f"/{command}: {name} has a length outside the synced bounds")
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.to_json()
            if channel.guild is not None and value in channel.guild.members:
                member = {
                    **channel.guild.member_json(value),
                    "permissions": str(channel.guild.permissions_of(value)),
                }
                del member["user"]
                resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        elif isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = {
                **value.to_json(),
                "permissions": ALL_PERMISSIONS,
            }
            value = str(value.id)
        return {"name": name, "type": kind, "value": value}

    def _component_target(
        self, user: User, message: Message, custom_id: str, kind: int
    ) -> dict[str, Any]:
        if message.deleted:
            raise FakeDiscordError(f"{message!r} was deleted")
        if message not in self.visible_messages(user, message.channel):
            raise FakeDiscordError(f"{user!r} cannot see {message!r}")
        component = message.component(custom_id)
        if component is None:
            raise FakeDiscordError(
                f"{message!r} has no component {custom_id!r}; ids: {message.custom_ids}"
            )
        if component.get("type") != kind:
            raise FakeDiscordError(
                f"{custom_id!r} is a type {component.get('type')} component, not {kind}"
            )
        if component.get("disabled"):
            raise FakeDiscordError(f"{custom_id!r} is disabled")
        return component

    async def click(self, user: User, message: Message, custom_id: str) -> Interaction:
        """``user`` clicks the button ``custom_id`` on ``message`` (which they must see)."""
        self._component_target(user, message, custom_id, 2)
        data = {"custom_id": custom_id, "component_type": 2}
        return self._new_interaction(MESSAGE_COMPONENT, user, message.channel, data, message)

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[str]
    ) -> Interaction:
        """``user`` picks ``values`` in the string select ``custom_id`` on ``message``."""
        component = self._component_target(user, message, custom_id, 3)
        offered = [o["value"] for o in component.get("options") or []]
        if not set(values) <= set(offered):
            raise FakeDiscordError(f"{values} not among the options {offered}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise FakeDiscordError(
                f"select {custom_id!r} takes {low}..{high} values, got {len(values)}"
            )
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return self._new_interaction(MESSAGE_COMPONENT, user, message.channel, data, message)

    # ------------------------------------------------------------------ REST plumbing

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method
        op = self._spec.match(method, path)
        record = RequestRecord(method, path, op.key if op else None, dict(request.query), None, [])
        self.requests.append(record)
        decision: Decision | None = None
        try:
            content_type, body, files = await self._read_body(request)
            record.body = body
            record.files = [f.filename for f in files]
            # An injected fault answers first: it uses up no bucket (nor does Discord's 429).
            fault = self._take_fault(method, path, op.key) if op is not None else None
            decision = None if fault is not None else self._admit(request, op, path)
            if fault is not None:
                response = fault.response()
            elif decision is not None and decision.limited:
                response = _json(decision.body(), 429, decision.headers)
            else:
                response = await self._handle(request, op, path, content_type, body, files)
        except ApiError as error:
            response = _json(error.body, error.status)
        if decision is not None:
            for name, value in decision.headers.items():
                response.headers.setdefault(name, value)  # an injected 429 keeps its own
        self.ratelimits.note_response(response.status, response.headers.get("X-RateLimit-Scope"))
        record.status = response.status
        if isinstance(response, web.Response) and response.body:
            try:
                record.response = json.loads(bytes(response.body))  # type: ignore[arg-type]
            except ValueError:
                record.response = response.text
        if response.status >= 400:
            log.info("fake Discord: %s %s -> %s %s", method, path, response.status, record.response)
        return response

    def _admit(self, request: web.Request, op: Operation | None, path: str) -> Decision | None:
        """The rate limiter's word on this request (None for a route Discord does not have)."""
        if op is None:
            return None
        params = _route_params(op.template, path)
        return self.ratelimits.admit(
            op.key, op.template, params, request.headers.get("Authorization")
        )

    async def _read_body(self, request: web.Request) -> tuple[str, Any, list[Upload]]:
        content_type = request.content_type
        if content_type == "multipart/form-data":
            try:
                body, files = await read_multipart(request)
            except BadPayload:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
            return content_type, body, files
        raw_text = await request.text()
        if not raw_text:
            return content_type, None, []
        if content_type != "application/json":
            raise ApiError(400, 50109, "The request body contains invalid JSON.")
        try:
            return content_type, json.loads(raw_text), []
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    async def _handle(
        self,
        request: web.Request,
        op: Operation | None,
        path: str,
        content_type: str,
        body: Any,
        files: list[Upload],
    ) -> web.Response:
        if op is None:
            raise ApiError(404, 0, "404: Not Found")
        # Interaction callbacks and interaction webhooks authenticate by their token only.
        if not op.template.startswith(("/interactions/", "/webhooks/")) and (
            request.headers.get("Authorization") != f"Bot {self.token}"
        ):
            raise ApiError(401, 0, "401: Unauthorized")
        if body is not None or op.method in ("POST", "PUT", "PATCH"):
            # Multipart bodies carry their JSON in payload_json; it obeys the JSON schema.
            kind = "application/json"
            errors = self._spec.validate(op, kind, body) if body is not None else []
            if errors:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    [(e.path, "OPENAPI_SCHEMA", e.message) for e in errors],
                )
        handler = self._handlers.get(op.key)
        if handler is None:
            # Loud on purpose: the bot called a real Discord route the fake does not model.
            raise ApiError(501, 0, f"fake Discord does not implement {op.key}")
        return await handler(
            _Req(op, _route_params(op.template, path), dict(request.query), body, files)
        )

    async def _cdn(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.messages:
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        raise web.HTTPNotFound()

    # ------------------------------------------------------------------ JSON shapes

    def _message_json(self, message: Message) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel.id),
            "author": message.author.to_json(),
            "content": message.content,
            "timestamp": message.created_at.isoformat(),
            "edited_timestamp": message.edited_at.isoformat() if message.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_json(ephemeral=message.ephemeral) for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": message.type,
            "flags": message.flags,
        }
        if message.channel.guild is not None:
            data["guild_id"] = str(message.channel.guild.id)
        if message.interaction is not None:
            ix = message.interaction
            data["webhook_id"] = str(self.app_id)
            data["application_id"] = str(self.app_id)
            data["interaction_metadata"] = {
                "id": str(ix.id),
                "type": ix.type,
                "user": ix.user.to_json(),
                "authorizing_integration_owners": {},
            }
        return data

    def _command_json(self, command: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
        kind = command.get("type", 1)
        key = (guild_id, command["name"], kind)
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflake()
        data = {
            "type": kind,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            **command,
            "id": str(self._command_ids[key]),
            "application_id": str(self.app_id),
            "version": str(self.snowflake()),
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    # ------------------------------------------------------------------ message helpers

    def _normalise_components(self, components: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Discord numbers every component (``id``) when it stores a message."""
        counter = itertools.count(1)
        rows = json.loads(json.dumps(components))
        for row in rows:
            row.setdefault("id", next(counter))
            for child in row.get("components") or []:
                child.setdefault("id", next(counter))
        return list(rows)

    def _check_limits(self, body: dict[str, Any]) -> None:
        errors = check_message(body)
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)

    def _attachments(
        self, channel: Channel, body: dict[str, Any], files: list[Upload], kept: list[Attachment]
    ) -> tuple[list[Attachment], list[dict[str, Any]] | None]:
        """The message's files and (if the body sets them) its embeds; 400 or 413 if refused.

        Runs before anything changes, so a refused request leaves the message as it was.
        """
        if too_large(files):
            raise ApiError(413, 40005, "Request entity too large")
        attachments = kept
        errors: FieldErrors = []
        if body.get("attachments") is not None or files:
            attachments, errors = resolve(
                body, files, kept, channel_id=channel.id, new_id=self.snowflake
            )
        embeds = None
        if "embeds" in body:
            raw = [{"type": "rich", **e} for e in body["embeds"] or []]
            embeds, embed_errors = link_embeds(raw, attachments)
            errors += embed_errors
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors)
        return attachments, embeds

    def _create(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: list[Upload],
        *,
        interaction: Interaction | None = None,
        type_: int = 0,
        extra_flags: int = 0,
    ) -> Message:
        flags = int(body.get("flags") or 0) | extra_flags
        attachments, embeds = self._attachments(channel, body, files, [])
        message = Message(
            id=self.snowflake(),
            channel=channel,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=embeds or [],
            components=self._normalise_components(body.get("components") or []),
            attachments=attachments,
            flags=flags,
            type=type_,
            ephemeral_to=interaction.user if interaction and flags & EPHEMERAL else None,
            interaction=interaction,
        )
        self.messages.append(message)
        self._by_message_id[message.id] = message
        self._by_channel.setdefault(channel.id, []).append(message)
        if not message.ephemeral:
            self._dispatch("MESSAGE_CREATE", self._message_json(message), message.channel.guild)
        return message

    def _edit(self, message: Message, body: dict[str, Any], files: list[Upload]) -> None:
        attachments, embeds = self._attachments(message.channel, body, files, message.attachments)
        message.history.append(message.snapshot())
        if "content" in body:
            message.content = body["content"] or ""
        if embeds is not None:
            message.embeds = embeds
        if "components" in body:
            message.components = self._normalise_components(body["components"] or [])
        message.attachments = attachments
        message.flags &= ~LOADING
        message.edited_at = dt.datetime.now(dt.UTC)
        if not message.ephemeral:
            self._dispatch("MESSAGE_UPDATE", self._message_json(message), message.channel.guild)

    def _delete(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            payload = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                payload["guild_id"] = str(message.channel.guild.id)
            self._dispatch("MESSAGE_DELETE", payload, message.channel.guild)

    # ------------------------------------------------------------------ REST handlers

    async def _get_me(self, req: _Req) -> web.Response:
        return _json(self.bot_user.to_json())

    async def _get_app(self, req: _Req) -> web.Response:
        owner = self.guilds[0].owner if self.guilds else self.bot_user
        return _json(
            {
                "id": str(self.app_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": owner.to_json(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "bot": self.bot_user.to_json(),
            }
        )

    async def _get_gateway(self, req: _Req) -> web.Response:
        return _json(
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000 - self.identifies,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _command_scope(self, req: _Req) -> int | None:
        if int(req.params["application_id"]) != self.app_id:
            raise ApiError(403, 50001, "Missing Access")
        if "guild_id" not in req.params:
            return None
        guild_id = int(req.params["guild_id"])
        if not any(g.id == guild_id for g in self.guilds):
            raise ApiError(403, 50001, "Missing Access")
        return guild_id

    async def _get_commands(self, req: _Req) -> web.Response:
        scope = self._command_scope(req)
        return _json(self.global_commands if scope is None else self.guild_commands.get(scope, []))

    async def _put_commands(self, req: _Req) -> web.Response:
        scope = self._command_scope(req)
        synced = [self._command_json(c, scope) for c in req.body or []]
        if scope is None:
            self.global_commands = synced
        else:
            self.guild_commands[scope] = synced
        return _json(synced)

    async def _create_dm(self, req: _Req) -> web.Response:
        user = self.users.get(int(req.body.get("recipient_id") or 0))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        # Creating the channel succeeds even when the user disallows DMs; sending fails.
        return _json(self.dm_channel(user).to_json())

    def _channel(self, req: _Req) -> Channel:
        channel = self.channels.get(int(req.params["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _channel_message(self, req: _Req) -> Message:
        channel = self._channel(req)
        message = self._by_message_id.get(int(req.params["message_id"]))
        # Ephemeral messages exist only for their interaction's webhook, not the channel.
        if (
            message is not None
            and message.channel is channel
            and not message.deleted
            and not message.ephemeral
        ):
            return message
        raise ApiError(404, 10008, "Unknown Message")

    async def _get_channel(self, req: _Req) -> web.Response:
        return _json(self._channel(req).to_json())

    async def _send_message(self, req: _Req) -> web.Response:
        channel = self._channel(req)
        if channel.type == DM and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body = req.body or {}
        if not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or req.files
            or body.get("sticker_ids")
            or body.get("poll")
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        self._check_limits(body)
        self._check_channel_permissions(channel, sending=True, files=bool(req.files))
        return _json(self._message_json(self._create(channel, body, req.files)))

    async def _get_message(self, req: _Req) -> web.Response:
        return _json(self._message_json(self._channel_message(req)))

    async def _edit_message(self, req: _Req) -> web.Response:
        message = self._channel_message(req)
        if message.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        body = req.body or {}
        self._check_limits(body)
        self._check_channel_permissions(message.channel, sending=False, files=bool(req.files))
        self._edit(message, body, req.files)
        return _json(self._message_json(message))

    def _check_channel_permissions(self, channel: Channel, *, sending: bool, files: bool) -> None:
        """What the bot may not do in a channel (``app_permissions``) Discord refuses: 50001
        without View Channel, 50013 without Send Messages (a new message) or Attach Files (an
        upload, new or in an edit).
        """
        have = self.app_permissions.get(channel.permissions_channel.id)
        if channel.guild is None or have is None:
            return
        if not have & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        # In a thread Discord asks for Send Messages in Threads instead of Send Messages.
        send = SEND_MESSAGES_IN_THREADS if channel.type == PUBLIC_THREAD else SEND_MESSAGES
        if (sending and not have & send) or (files and not have & ATTACH_FILES):
            raise ApiError(403, 50013, "Missing Permissions")

    async def _delete_message(self, req: _Req) -> web.Response:
        self._delete(self._channel_message(req))
        return web.Response(status=204)

    # ------------------------------------------------------------------ interaction callbacks

    async def _callback(self, req: _Req) -> web.Response:
        interaction = self.interactions.get(int(req.params["interaction_id"]))
        if interaction is None or interaction.token != req.params["interaction_token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        body = req.body or {}
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        callback = Callback(kind, data, 0)
        interaction.callbacks.append(callback)
        try:
            response = self._acknowledge(interaction, kind, data, req)
        except ApiError as error:
            callback.status, callback.error_code = error.status, error.body.get("code")
            raise
        callback.status = response.status
        return response

    def _acknowledge(
        self, ix: Interaction, kind: int, data: dict[str, Any], req: _Req
    ) -> web.Response:
        # The token dies with the deadline: a late first response is an unknown interaction.
        if not ix.acked and self.now() - ix.created_at > ACK_DEADLINE:
            raise ApiError(404, 10062, "Unknown interaction")
        if ix.acked:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if kind not in CALLBACKS_FOR.get(ix.type, set()):
            # Discord rejects e.g. UPDATE_MESSAGE for a slash command; the exact error code for
            # this case is not documented, so the fake reports it as a form error on "type".
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                [
                    (
                        ("type",),
                        "INTERACTION_CALLBACK_TYPE_INVALID",
                        f"Callback type {kind} is not valid for this interaction",
                    )
                ],
            )
        if kind in (4, 7):
            self._check_limits(data)
        resource: dict[str, Any] = {"type": kind}
        message: Message | None = None
        if kind == 4:
            message = self._create(
                ix.channel,
                data,
                req.files,
                interaction=ix,
                type_=20 if ix.type == APPLICATION_COMMAND else 0,
            )
            ix.original = message
        elif kind == 5:
            # "Thinking…": an empty loading message; only the EPHEMERAL flag is honoured.
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._create(
                ix.channel,
                {"flags": flags},
                [],
                interaction=ix,
                type_=20 if ix.type == APPLICATION_COMMAND else 0,
            )
            ix.original = message
        elif kind in (6, 7):
            assert ix.message is not None
            if kind == 7:
                self._edit(ix.message, data, req.files)
                message = ix.message
            ix.original = ix.message
        ix.acked_type = kind
        if req.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        if message is not None:
            resource["message"] = self._message_json(message)
        info: dict[str, Any] = {"id": str(ix.id), "type": ix.type}
        if ix.original is not None:
            info |= {
                "response_message_id": str(ix.original.id),
                "response_message_loading": bool(ix.original.flags & LOADING),
                "response_message_ephemeral": ix.original.ephemeral,
            }
        return _json({"interaction": info, "resource": resource})

    # ------------------------------------------------------------------ interaction webhooks

    def _webhook_interaction(self, req: _Req) -> Interaction:
        if int(req.params["webhook_id"]) != self.app_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        ix = self._by_token.get(req.params["webhook_token"])
        if ix is None or self.now() - ix.created_at > TOKEN_LIFETIME:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if not ix.acked:
            raise ApiError(404, 10015, "Unknown Webhook")
        return ix

    def _webhook_message(self, ix: Interaction, req: _Req) -> Message:
        message_id = req.params.get("message_id", "@original")
        if message_id == "@original":
            message = ix.original
        else:
            message = next((m for m in ix.followups if m.id == int(message_id)), None)
            if message is None and ix.original is not None and ix.original.id == int(message_id):
                message = ix.original
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _followup(self, req: _Req) -> web.Response:
        ix = self._webhook_interaction(req)
        body = req.body or {}
        self._check_limits(body)
        original = ix.original
        if original is not None and original.flags & LOADING and ix.acked_type == 5:
            # Documented backwards compatibility: the first followup after a deferred
            # response edits the loading message, whose ephemeral state wins.
            self._edit(original, body, req.files)
            message = original
        else:
            message = self._create(ix.channel, body, req.files, interaction=ix)
        ix.followups.append(message)
        if req.query.get("wait") in ("1", "true", "True"):
            return _json(self._message_json(message))
        return web.Response(status=204)

    async def _get_wh_msg(self, req: _Req) -> web.Response:
        ix = self._webhook_interaction(req)
        return _json(self._message_json(self._webhook_message(ix, req)))

    async def _edit_wh_msg(self, req: _Req) -> web.Response:
        ix = self._webhook_interaction(req)
        message = self._webhook_message(ix, req)
        body = req.body or {}
        self._check_limits(body)
        self._check_channel_permissions(message.channel, sending=False, files=bool(req.files))
        self._edit(message, body, req.files)
        return _json(self._message_json(message))

    async def _del_wh_msg(self, req: _Req) -> web.Response:
        ix = self._webhook_interaction(req)
        self._delete(self._webhook_message(ix, req))
        return web.Response(status=204)

    async def _create_thread(self, req: _Req) -> web.Response:
        """A public thread started from a message: a channel of type 11 whose id is the
        message's, its parent the message's channel; one thread per message (160004).
        Needs Create Public Threads in the parent (50013 without).
        """
        message = self._channel_message(req)
        parent = message.channel
        if parent.type != GUILD_TEXT or parent.guild is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if message.id in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        have = self.app_permissions.get(parent.id)
        if have is not None and not have & CREATE_PUBLIC_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        body = req.body or {}
        thread = Channel(
            message.id,
            PUBLIC_THREAD,
            str(body.get("name", "")),
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        self.channels[thread.id] = thread
        self._dispatch("THREAD_CREATE", {**thread.to_json(), "newly_created": True}, parent.guild)
        return _json(thread.to_json(), status=201)

    def threads_of(self, channel: Channel) -> list[Channel]:
        """The threads started from messages of ``channel``, oldest first."""
        return [c for c in self.channels.values() if c.parent is channel]

    async def forged_click(
        self, user: User, message: Message, custom_id: str, values: list[str] | None = None
    ) -> Interaction:
        """A component interaction on ``message`` with any custom id and values, as an
        outdated client or a hand-made request sends it: not checked against the message's
        components (``click`` and ``select`` are).
        """
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data |= {"component_type": 3, "values": values}
        return self._new_interaction(MESSAGE_COMPONENT, user, message.channel, data, message)

    async def role_select(
        self, user: User, message: Message, custom_id: str, roles: list[Role]
    ) -> Interaction:
        """``user`` picks ``roles`` (none: clears it) in the role select ``custom_id``."""
        component = self._component_target(user, message, custom_id, ROLE_SELECT)
        guild = message.channel.guild
        assert guild is not None, "a role select lives in a guild"
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(roles) <= high:
            raise FakeDiscordError(f"{custom_id!r} takes {low}..{high} roles, got {len(roles)}")
        if not all(r in guild.roles for r in roles):
            raise FakeDiscordError(f"{roles} are not all roles of {guild.name}")
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ROLE_SELECT,
            "values": [str(r.id) for r in roles],
            "resolved": {"roles": {str(r.id): r.to_json() for r in roles}},
        }
        return self._new_interaction(MESSAGE_COMPONENT, user, message.channel, data, message)

    async def submit_modal(
        self, user: User, opened_by: Interaction, values: dict[str, str]
    ) -> Interaction:
        """``user`` fills in and submits the modal the bot answered ``opened_by`` with:
        ``values`` by the text inputs' custom ids (each must be in the modal).
        """
        if opened_by.user is not user:
            raise FakeDiscordError(f"{user!r} did not open that modal")
        modal = next((c.data for c in opened_by.callbacks if c.type == MODAL and c.status), None)
        if modal is None:
            raise FakeDiscordError("the bot answered that interaction with no modal")
        inputs = [
            c.get("component") or c
            for row in modal.get("components") or []
            for c in ([row] if row.get("type") == 18 else row.get("components") or [])
        ]
        ids = [c.get("custom_id") for c in inputs]
        if not set(values) <= set(ids):
            raise FakeDiscordError(f"{sorted(values)} are not all inputs of the modal: {ids}")
        data = {
            "custom_id": modal["custom_id"],
            "components": [
                {"type": 18, "component": {"type": 4, "custom_id": c, "value": values.get(c, "")}}
                for c in ids
            ],
        }
        return self._new_interaction(MODAL_SUBMIT, user, opened_by.channel, data, opened_by.message)
