"""A loopback Discord for end-to-end tests of the bot (REST + gateway on 127.0.0.1)."""

from .attachments import ATTACHMENT_SIZE_LIMIT
from .models import Attachment, Callback, Channel, Guild, Interaction, Message, RequestRecord, User
from .overrides import API_BASE_ENV, GATEWAY_URL_ENV, apply_overrides
from .server import FakeDiscord, FakeDiscordError

__all__ = [
    "API_BASE_ENV",
    "ATTACHMENT_SIZE_LIMIT",
    "GATEWAY_URL_ENV",
    "Attachment",
    "Callback",
    "Channel",
    "FakeDiscord",
    "FakeDiscordError",
    "Guild",
    "Interaction",
    "Message",
    "RequestRecord",
    "User",
    "apply_overrides",
]
