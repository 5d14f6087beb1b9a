"""Uploads: multipart bodies, which files a message ends up with, and Discord's file limits.

discord.py sends files as ``multipart/form-data`` (``discord/http.py``
``handle_message_parameters``, ``discord/webhook/async_.py``
``interaction_message_response_params``): a ``payload_json`` part holds the JSON body, whose
``attachments: [{id, filename, description}]`` name the ``files[N]`` parts by ``N``; on edits
the list also carries the attachments to keep, by their snowflake. The payload itself is
validated against the OpenAPI spec like any JSON body (that is where ``description`` ≤ 1024
and ``attachments`` ≤ 10 items come from); this module checks what the spec cannot express.
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from .limits import FieldErrors
from .models import Attachment

# Interactions carry this as attachment_size_limit; a bot in an unboosted guild has the
# same limit for channel messages, so the fake applies it to every upload.
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
ATTACHMENT_SCHEME = "attachment://"
_FILE_PART = re.compile(r"files\[(\d+)\]")
# Where an embed may show an uploaded file through attachment://NAME.
_EMBED_MEDIA = (
    ("image", "url"),
    ("thumbnail", "url"),
    ("author", "icon_url"),
    ("footer", "icon_url"),
)


@dataclass(frozen=True)
class Upload:
    """One ``files[N]`` part as it arrived, before a message takes it."""

    index: int
    filename: str
    content_type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


class BadPayload(ValueError):
    """``payload_json`` is not JSON."""


async def read_multipart(request: web.Request) -> tuple[Any, list[Upload]]:
    """The ``payload_json`` (None without one) and the uploaded files, in part order.

    A file part named ``files[N]`` is upload ``N``; a file part under another name (Discord
    also accepts ``file``) gets the next free index, as Discord numbers unnamed uploads.
    """
    payload: Any = None
    uploads: list[Upload] = []
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader):
            continue
        raw = bytes(await part.read())
        if part.name == "payload_json":
            try:
                payload = json.loads(raw)
            except ValueError:
                raise BadPayload("payload_json is not JSON") from None
        elif part.filename is not None:
            named = _FILE_PART.fullmatch(part.name or "")
            taken = {u.index for u in uploads}
            index = (
                int(named[1])
                if named
                else next(i for i in range(len(uploads) + 1) if i not in taken)
            )
            declared = part.headers.get("Content-Type", "application/octet-stream")
            uploads.append(
                Upload(index, part.filename, _content_type(part.filename, declared), raw)
            )
    return payload, uploads


def _content_type(filename: str, declared: str) -> str:
    # discord.py declares every file application/octet-stream; Discord detects the real type.
    if declared != "application/octet-stream":
        return declared
    return mimetypes.guess_type(filename)[0] or declared


def too_large(uploads: list[Upload], limit: int = ATTACHMENT_SIZE_LIMIT) -> bool:
    """Whether the files of one request exceed the upload limit together."""
    return sum(u.size for u in uploads) > limit


def resolve(
    body: dict[str, Any],
    uploads: list[Upload],
    kept: list[Attachment],
    *,
    channel_id: int,
    new_id: Callable[[], int],
) -> tuple[list[Attachment], FieldErrors]:
    """The attachments a message has after this request, or the errors that refuse it.

    Without an ``attachments`` list the message keeps ``kept`` and gains every upload (an edit
    without ``attachments`` keeps the old files). With one, it names every file to keep or
    add: an upload by its part index ``N``, a kept file by its id; a file not named goes.
    Uploads the list does not name are still attached, after the named ones.
    """
    errors: FieldErrors = []
    by_index = {u.index: u for u in uploads}
    listed = body.get("attachments")
    result: list[Attachment] = []
    used: set[int] = set()
    if listed is None:
        result = list(kept)
    else:
        for i, entry in enumerate(listed):
            try:
                entry_id = int(entry["id"])
            except (KeyError, TypeError, ValueError):
                entry_id = -1  # the spec check reports the malformed id; here it names nothing
            old = next((a for a in kept if a.id == entry_id), None)
            if entry_id in by_index and entry_id not in used:
                used.add(entry_id)
                result.append(_attach(by_index[entry_id], entry, channel_id, new_id()))
            elif old is not None and old not in result:
                result.append(old)
            elif old is None:
                # Discord's answer to an id that names no upload (observed, not documented).
                errors.append(
                    (("attachments", i), "ATTACHMENT_NOT_FOUND", "Attachment data not found")
                )
    for upload in uploads:
        if upload.index not in used:
            result.append(_attach(upload, {}, channel_id, new_id()))
    if len(result) > MAX_ATTACHMENTS:
        errors.append(
            (
                ("attachments",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ATTACHMENTS} or fewer in length.",
            )
        )
    return result, errors


def _attach(
    upload: Upload, entry: dict[str, Any], channel_id: int, attachment_id: int
) -> Attachment:
    filename = entry.get("filename") or upload.filename
    attachment = Attachment(
        attachment_id,
        filename,
        upload.content_type,
        upload.data,
        description=entry.get("description"),
        channel_id=channel_id,
    )
    attachment.width, attachment.height = image_size(upload.data) or (None, None)
    return attachment


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG or GIF (Discord reports them for images), else None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    return None


def link_embeds(
    embeds: list[dict[str, Any]], attachments: list[Attachment]
) -> tuple[list[dict[str, Any]], FieldErrors]:
    """Embeds with ``attachment://NAME`` replaced by that file's URL, as Discord stores them.

    A name that is not among the message's attachments is refused: Discord would show no
    picture, which a test should notice rather than pass over.
    """
    errors: FieldErrors = []
    by_name = {a.filename: a for a in attachments}
    linked: list[dict[str, Any]] = []
    for i, embed in enumerate(embeds):
        embed = dict(embed)
        for key, url_key in _EMBED_MEDIA:
            media = embed.get(key)
            url = media.get(url_key) if isinstance(media, dict) else None
            if not isinstance(url, str) or not url.startswith(ATTACHMENT_SCHEME):
                continue
            attachment = by_name.get(url.removeprefix(ATTACHMENT_SCHEME))
            if attachment is None:
                errors.append(
                    (
                        ("embeds", i, key, url_key),
                        "ATTACHMENT_NOT_FOUND",
                        f"{url} names no attachment of this message",
                    )
                )
                continue
            assert isinstance(media, dict)
            embed[key] = {**media, **attachment.embed_media(url_key)}
        linked.append(embed)
    return linked, errors
