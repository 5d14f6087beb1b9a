"""The table's process answers a forwarded click through its webhook; the receiver stores the
click before acknowledging it, so the answer may come first and meet 10015 Unknown Webhook.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord import forwarding
from bot.discord.forwarding import WebhookReply
from db.forwards import ForwardRow


def _row(created_at: datetime) -> ForwardRow:
    return ForwardRow(
        id=1, table_id=7, kind="click", custom_id="doko:card:7:3:0:H10:0", args=(), user_id=42,
        locale="de", application_id=99, token="t", channel_id=5, message_id=6,
        created_at=created_at, state="pending",
    )  # fmt: skip


def _not_found(code: int) -> discord.NotFound:
    response = SimpleNamespace(status=404, reason="Not Found")
    return discord.NotFound(response, {"code": code, "message": "unknown"})  # type: ignore[arg-type]


class Webhook:
    """Refuses the first ``refusals`` answers with ``code``, then takes them."""

    def __init__(self, refusals: int, code: int) -> None:
        self.refusals, self.code = refusals, code
        self.attempts = 0
        self.sent: list[str] = []
        self.uploads: list[bytes] = []  # what each try's attachments held

    async def send(self, content: str, **kwargs: Any) -> None:
        self.attempts += 1
        if self.attempts <= self.refusals:
            raise _not_found(self.code)
        self.sent.append(content)

    async def edit_message(self, message_id: object, **kwargs: Any) -> None:
        assert message_id == "@original"
        self.attempts += 1
        self.uploads += [file.fp.read() for file in kwargs.get("attachments", [])]
        if self.attempts <= self.refusals:
            raise _not_found(self.code)
        self.sent.append(kwargs["content"])


def _reply(webhook: Webhook, created_at: datetime | None = None) -> WebhookReply:
    reply = WebhookReply.__new__(WebhookReply)
    reply.row = _row(created_at or datetime.now(UTC))
    reply._webhook = webhook  # type: ignore[assignment]
    reply.presenter = SimpleNamespace()  # type: ignore[assignment]
    return reply


@pytest.fixture(autouse=True)
def no_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forwarding, "ANSWER_RETRIES_S", (0.0, 0.0, 0.0, 0.0))


async def test_an_answer_before_the_acknowledgement_is_sent_again() -> None:
    webhook = Webhook(refusals=2, code=forwarding.UNKNOWN_WEBHOOK)
    await _reply(webhook).say("Das ist nicht deine Karte.")
    assert webhook.sent == ["Das ist nicht deine Karte."] and webhook.attempts == 3


async def test_a_webhook_that_never_appears_gives_up_quietly() -> None:
    webhook = Webhook(refusals=99, code=forwarding.UNKNOWN_WEBHOOK)
    await _reply(webhook).say("x")
    assert webhook.sent == [] and webhook.attempts == len(forwarding.ANSWER_RETRIES_S) + 1


async def test_other_refusals_are_not_repeated() -> None:
    webhook = Webhook(refusals=1, code=10008)  # Unknown Message: retrying cannot help
    await _reply(webhook).say("x")
    assert webhook.sent == [] and webhook.attempts == 1


async def test_the_clicked_hand_is_edited_again_with_its_picture_each_time() -> None:
    webhook = Webhook(refusals=2, code=forwarding.UNKNOWN_WEBHOOK)
    picture = discord.File(io.BytesIO(b"PNG"), filename="hand.png")
    await _reply(webhook).edit_original(content="Deine Karten", attachments=[picture])
    assert webhook.sent == ["Deine Karten"]
    assert webhook.uploads == [b"PNG"] * 3  # a sent file is read to its end: copies


async def test_a_refused_hand_edit_raises_for_the_hand_job_to_show_it() -> None:
    webhook = Webhook(refusals=1, code=10008)
    with pytest.raises(discord.NotFound):
        await _reply(webhook).edit_original(content="x")
    assert webhook.attempts == 1


async def test_a_dead_token_drops_only_the_answer() -> None:
    webhook = Webhook(refusals=0, code=0)
    old = datetime.now(UTC) - forwarding.TOKEN_LIFETIME - timedelta(seconds=1)
    await _reply(webhook, old).acted(SimpleNamespace())  # type: ignore[arg-type]
    assert webhook.attempts == 0 and not forwarding._answering
