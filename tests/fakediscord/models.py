"""The fake's world: users, guilds, channels, messages, interactions and the request log."""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

GUILD_TEXT, DM = 0, 1
PUBLIC_THREAD = 11  # a thread started from a message: its id is the message's
EPHEMERAL, LOADING = 1 << 6, 1 << 7
# Every permission bit the bot may need; the fake does not model permission overwrites.
ALL_PERMISSIONS = str((1 << 50) - 1)
ADMINISTRATOR, MANAGE_GUILD = 1 << 3, 1 << 5
VIEW_CHANNEL, SEND_MESSAGES, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 15
CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS = 1 << 35, 1 << 38
# What @everyone may by default (no Manage Server, no Administrator), by Discord's bits:
# create invites, add reactions, view channels, send messages, embed links, attach files,
# read history, external emojis, connect, speak, change nickname, application commands,
# create public and private threads, send messages in threads.
EVERYONE_PERMISSIONS = sum(
    1 << bit for bit in (0, 6, 10, 11, 14, 15, 16, 18, 20, 21, 26, 31, 35, 36, 38)
)


def iso(when: dt.datetime) -> str:
    return when.isoformat()


@dataclass(eq=False)
class User:
    id: int
    name: str
    locale: str = "de"
    bot: bool = False
    dms_open: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner: User
    members: list[User] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    locale: str = "de"
    # Roles besides @everyone, and who holds which (see ``FakeDiscord.add_role``).
    roles: list[Role] = field(default_factory=list)
    member_roles: dict[int, list[Role]] = field(default_factory=dict)
    everyone_permissions: int = EVERYONE_PERMISSIONS

    def member_json(self, user: User) -> dict[str, Any]:
        return {
            "user": user.to_json(),
            "roles": [str(r.id) for r in self.member_roles.get(user.id, [])],
            "joined_at": iso(self.joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
        }

    def to_json(self, members: list[User] | None = None) -> dict[str, Any]:
        """The GUILD_CREATE payload: everything discord.py reads.

        ``members`` defaults to all of them; without the privileged GUILD_MEMBERS intent
        Discord sends only the bot's own member (and voice participants).
        """
        shown = self.members if members is None else members
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "preferred_locale": self.locale,
            "features": [],
            "roles": [
                Role(self.id, "@everyone", self.everyone_permissions, 0).to_json(),
                *(r.to_json() for r in self.roles),
            ],
            "emojis": [],
            "stickers": [],
            "channels": [c.to_json() for c in self.channels],
            "threads": [],
            "members": [self.member_json(u) for u in shown],
            "member_count": len(self.members),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "large": False,
            "unavailable": False,
            "joined_at": iso(self.joined_at),
        }

    def permissions_of(self, user: User) -> int:
        """The member's server-wide permissions, as an interaction's ``member.permissions``
        reports them (no channel overwrites): the owner and Administrator have all.
        """
        if user is self.owner:
            return int(ALL_PERMISSIONS)
        value = self.everyone_permissions
        for role in self.member_roles.get(user.id, []):
            value |= role.permissions
        return int(ALL_PERMISSIONS) if value & ADMINISTRATOR else value


@dataclass(eq=False)
class Role:
    """A server role; ``permissions`` is Discord's bit field."""

    id: int
    name: str
    permissions: int = 0
    position: int = 1
    managed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str | None = None
    guild: Guild | None = None
    recipient: User | None = None
    parent: Channel | None = None  # a thread's channel
    owner_id: int = 0  # who started the thread
    auto_archive_duration: int = 1440

    @property
    def permissions_channel(self) -> Channel:
        """Where the bot's permissions here are set: a thread has its parent's."""
        return self.parent if self.parent is not None else self

    def to_json(self) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.to_json()],
            }
        assert self.guild is not None
        if self.type == PUBLIC_THREAD and self.parent is not None:
            return self._thread_json()
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.guild.channels.index(self) if self in self.guild.channels else 0,
            "permission_overwrites": [],
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }

    def _thread_json(self) -> dict[str, Any]:
        assert self.guild is not None and self.parent is not None
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": iso(dt.datetime.now(dt.UTC)),
                "locked": False,
            },
        }

    def __repr__(self) -> str:
        return f"<Channel {self.name or 'DM'} {self.id}>"


CDN_URL = "https://cdn.discordapp.test"
MEDIA_URL = "https://media.discordapp.test"


@dataclass(eq=False)
class Attachment:
    """A file on a message: ``description`` is its alt text, ``data`` the bytes uploaded."""

    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None
    channel_id: int = 0
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def path(self) -> str:
        return f"/attachments/{self.channel_id}/{self.id}/{self.filename}"

    @property
    def url(self) -> str:
        """Where Discord's CDN would serve it (not resolvable; see ``FakeDiscord.attachment``)."""
        return CDN_URL + self.path

    @property
    def proxy_url(self) -> str:
        return MEDIA_URL + self.path

    def to_json(self, *, ephemeral: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.proxy_url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.width is not None:
            data |= {"width": self.width, "height": self.height}
        if ephemeral:
            data["ephemeral"] = True
        return data

    def embed_media(self, url_key: str) -> dict[str, Any]:
        """What Discord stores in an embed's image/thumbnail (``url``) or icon (``icon_url``)."""
        if url_key != "url":
            return {url_key: self.url, f"proxy_{url_key}": self.proxy_url}
        media: dict[str, Any] = {
            "url": self.url,
            "proxy_url": self.proxy_url,
            "content_type": self.content_type,
        }
        if self.width is not None:
            media |= {"width": self.width, "height": self.height}
        return media

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.size} B>"


@dataclass(eq=False)
class Message:
    """A stored message; ``history`` holds the state before each edit, oldest first."""

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    # Only this user sees the message (ephemeral interaction responses).
    ephemeral_to: User | None = None
    interaction: Interaction | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    edited_at: dt.datetime | None = None

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_to is not None

    def snapshot(self) -> dict[str, Any]:
        """The visible state, as compared in tests and kept in the edit history."""
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
        }

    def iter_components(self) -> list[dict[str, Any]]:
        """All interactive components (children of action rows), in order."""
        found: list[dict[str, Any]] = []
        for row in self.components:
            found.extend(row.get("components") or [])
        return found

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def attachment(self, filename: str) -> Attachment | None:
        return next((a for a in self.attachments if a.filename == filename), None)

    def embed_image(self, index: int = 0) -> Attachment | None:
        """The attachment embed ``index`` shows as its image (sent as ``attachment://NAME``)."""
        if index >= len(self.embeds):
            return None
        url = (self.embeds[index].get("image") or {}).get("url")
        return next((a for a in self.attachments if a.url == url), None)

    def __repr__(self) -> str:
        return f"<Message {self.id} in {self.channel!r}: {self.content[:40]!r}>"


@dataclass
class Callback:
    """One interaction callback the bot attempted, with the status the fake answered."""

    type: int
    data: dict[str, Any]
    status: int
    error_code: int | None = None


@dataclass(eq=False)
class Interaction:
    """An interaction the fake sent; also the handle tests use to inspect the bot's answer."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    data: dict[str, Any]
    created_at: float
    message: Message | None = None
    callbacks: list[Callback] = field(default_factory=list)
    acked_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)

    @property
    def acked(self) -> bool:
        return self.acked_type is not None

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild


@dataclass
class RequestRecord:
    """One REST call as the bot made it and as the fake answered it."""

    method: str
    path: str
    route: str | None
    query: dict[str, str]
    body: Any
    files: list[str]
    status: int = 0
    response: Any = None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"
