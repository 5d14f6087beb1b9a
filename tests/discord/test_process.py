"""The bot as its own OS process (``python -m bot``): killed mid-trick, restarted, plays on."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import db
from bot.discord.library import apply_discord_overrides
from bot.discord.run import sync_commands
from db import messages
from tests.discord.conftest import message_text, settings_for
from tests.fakediscord import Channel, FakeDiscord, Message, User

REPO = Path(__file__).resolve().parents[2]
TRICK_LINE = re.compile(r"Aktueller Stich: (.*)")


async def start_process(fake: FakeDiscord, db_path: Path) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        **fake.env(),
        "DISCORD_TOKEN": fake.token,
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "INFO",
    }
    before = fake.identifies
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=REPO, env=env, stderr=asyncio.subprocess.PIPE
    )

    def connected() -> bool:
        if process.returncode is not None:
            raise AssertionError(f"the bot exited with {process.returncode}")
        return fake.identifies > before

    await fake.wait_for(connected, 30, "the bot process to connect")
    return process


def my_turn_message(fake: FakeDiscord, user: User) -> Message | None:
    """The newest DM with an enabled card or Gesund button: it is the user's turn."""
    for message in reversed(fake.visible_messages(user, fake.dm_channel(user))):
        for component in message.iter_components():
            cid = component.get("custom_id", "")
            if cid.startswith(("doko:card:", "doko:reserve:")) and not component.get("disabled"):
                return message
    return None


def table_messages(fake: FakeDiscord, channel: Channel) -> list[Message]:
    """The channel's table messages of a running game (they carry "Meine Karten")."""
    return [
        m
        for m in fake.channel_messages(channel)
        if any(c.startswith("doko:hand:") for c in m.custom_ids)
    ]


async def until_stored(
    db_path: Path, table_id: int, table_message: int, user_id: int, hand_message: int
) -> None:
    """Until the bot has stored these as the table's message and the user's hand message."""
    store = await db.connect(db_path)
    try:
        for _ in range(200):
            stored = await messages.table_messages(store, table_id)
            hands = {h.user_id: h.message_id for h in stored.hands}
            table = stored.table.message_id if stored.table is not None else None
            if table == table_message and hands.get(user_id) == hand_message:
                return
            await asyncio.sleep(0.05)
    finally:
        await store.close()
    raise AssertionError(f"message ids not stored: {stored}")


def first_enabled(message: Message, prefix: str) -> str:
    return next(
        c["custom_id"]
        for c in message.iter_components()
        if c["custom_id"].startswith(prefix) and not c.get("disabled")
    )


async def play_until_mid_trick(
    fake: FakeDiscord, user: User, timeout: float = 3
) -> tuple[Message, str]:
    """Play ``user``'s turns until it is their turn in a trick someone has led: that hand DM
    and the trick line it shows.
    """
    while True:
        message = await fake.wait_for(lambda: my_turn_message(fake, user), 10, "a turn")
        trick = TRICK_LINE.search(message.content)
        if trick and "noch keine Karte" not in trick[1]:
            return message, trick[1]
        seen = list(message.custom_ids)
        # A legal card, or Gesund in the Vorbehaltsabfrage (cards come first in the rows).
        click = await fake.click(user, message, first_enabled(message, "doko:"))
        assert (await fake.response(click, timeout=timeout)).status == 200
        await fake.wait_for(
            lambda seen=seen: (m := my_turn_message(fake, user)) and m.custom_ids != seen,
            10,
            "the next turn",
        )


async def test_killed_mid_trick_the_restarted_process_continues(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    anna = fake.add_user("anna")
    guild = fake.add_guild("Stammtisch", owner=anna)
    channel = guild.channels[0]
    db_path = tmp_path / "doko.sqlite3"
    apply_discord_overrides(fake.env())
    await sync_commands(settings_for(fake, db_path), None)
    process = await start_process(fake, db_path)
    try:
        ix = await fake.slash(
            anna, "doko tisch", in_channel=channel, spiele=1, regeln="ohne_pflichtsolo"
        )
        lobby = await fake.followup(ix, timeout=10)
        start = await fake.click(anna, lobby, first_enabled(lobby, "doko:start:"))
        assert (await fake.response(start, timeout=3)).status == 200
        # Play until it is anna's turn in the middle of a trick (someone has led).
        message, before_kill = await play_until_mid_trick(fake, anna)
        card_id = first_enabled(message, "doko:card:")

        # The table message goes out up to a second after the moves it shows; kill only once
        # it and anna's hand DM are stored.
        def posted() -> list[Message]:
            return table_messages(fake, channel)

        [table_message] = await fake.wait_for(posted, 10, "the table message")
        table_id = int(table_message.custom_ids[0].split(":")[2])
        await until_stored(db_path, table_id, table_message.id, anna.id, message.id)
        dms_before = [m.id for m in fake.visible_messages(anna, fake.dm_channel(anna))]
        process.kill()
        await process.wait()

        process = await start_process(fake, db_path)
        # The button on the message sent before the kill still works, at the same version.
        click = await fake.click(anna, message, card_id)
        callback = await fake.response(click, timeout=10)
        assert callback.status == 200 and callback.type == 6

        def trick_continued() -> bool:
            texts = [message_text(m) for m in fake.visible_messages(anna, fake.dm_channel(anna))]
            texts += [message_text(m) for m in fake.channel_messages(channel)]
            return any(before_kill + " · anna" in text for text in texts)

        await fake.wait_for(trick_continued, 10, "the trick to go on from the same state")
        # The restarted process edits the messages it sent before: the same table message
        # (no second one in the channel) and the same hand DM (no new DM).
        await fake.wait_for(
            lambda: before_kill + " · anna" in message_text(table_message),
            10,
            "the table message to show the trick going on",
        )
        assert [m.id for m in table_messages(fake, channel)] == [table_message.id]
        assert before_kill + " · anna" in message_text(message)
        assert [m.id for m in fake.visible_messages(anna, fake.dm_channel(anna))] == dms_before
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 0, stderr.decode()[-3000:]
    assert b"Traceback" not in stderr, stderr.decode()[-3000:]


async def test_a_missing_token_stops_start_up_with_what_to_put_where(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    env["DEV_GUILD_ID"] = "abc"
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    text = stderr.decode()
    assert process.returncode == 2
    assert "DISCORD_TOKEN=" in text and ".env" in text and "DEV_GUILD_ID='abc'" in text
    assert "Traceback" not in text
