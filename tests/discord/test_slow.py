"""Slow tables through the loopback Discord, on a clock of the test's own: the table message
says whose move since when, the player is reminded by DM at half time and an hour before
the end (once each, across a restart), and then the table's disconnect policy acts.

Reminders are asked of the engine when the clock says (``remind_turn``, what their timers
call), and the deadline's end is the engine's own ``expire_turn``, as in ``test_absence``;
a reminder that fell due while the bot was down goes out by its own timer on start.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.engine.facade import Engine
from db import timers
from tests.discord.conftest import World, message_text, seed_list, start_bot, stop_bot
from tests.discord.test_absence import turn_in_play

DAY = 86400


class Clock:
    """The engine's clock: it moves only when the test says."""

    def __init__(self) -> None:
        self.now = datetime(2031, 3, 3, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    kwdefaults = Engine.__init__.__kwdefaults__
    assert kwdefaults is not None
    monkeypatch.setitem(kwdefaults, "clock", clock)
    return clock


def stamp(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


async def open_slow(world: World, policy: str, tempo: int = DAY) -> int:
    anna, ben = world.users[:2]
    table_id = await world.open_table(
        anna, spiele=2, regeln="ohne_pflichtsolo", bedenkzeit=tempo, bei_abwesenheit=policy
    )
    await world.click(ben, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).seats[1] is not None, 3, "ben seated"
    )
    lobby = message_text(world.lobby())
    assert "Langsamer Tisch: 1 Tag Bedenkzeit pro Zug" in lobby
    assert "Halbzeit und eine Stunde vor Ablauf" in lobby
    await world.click(anna, world.lobby(), "doko:start:")
    return table_id


def sent_to(world: World, user: Any, text: str) -> list[Any]:
    """Every DM to ``user`` with ``text``, also those deleted since."""
    dm = world.fake.dm_channel(user)
    return [m for m in world.fake.messages if m.channel is dm and text in (m.content or "")]


async def test_a_slow_table_reminds_twice_across_a_restart_then_waits(
    make_world: Any, clock: Clock
) -> None:
    world: World = await make_world(
        names=("anna", "ben"), seeds=seed_list(1, 2, 3, 4), locales={"ben": "en-US"}
    )
    anna, ben = world.users[:2]
    table_id = await open_slow(world, "warten")
    info = await turn_in_play(world, table_id, ben.id)
    due = clock.now + timedelta(days=1)
    assert info.turn_due == due and info.turn_since == clock.now
    # The table message (German here) says whose move, since when, until when.
    expected = f"**ben** ist am Zug (begonnen {stamp(clock.now)}); die Zeit läuft ab {stamp(due)}"
    await world.fake.wait_for(
        lambda: any(
            expected in message_text(m) for m in world.fake.channel_messages(world.channel)
        ),
        5,
        "the table message with ben's move",
    )
    # Before half time nothing is due.
    clock.advance(hours=11)
    await world.engine.remind_turn(table_id)
    await world.settle()
    assert not sent_to(world, ben, "Reminder")

    clock.advance(hours=1, minutes=1)
    await world.engine.remind_turn(table_id)
    first = await world.fake.wait_for(
        lambda: sent_to(world, ben, "Reminder: it is your move"), 5, "the half-time reminder"
    )
    text = first[0].content
    assert f"table {table_id} (game 1)" in text and stamp(due) in text
    assert "then: the table waits" in text
    assert f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/" in text
    assert not sent_to(world, anna, "Erinnerung")  # only the player to move
    await world.engine.remind_turn(table_id)  # asked again: sent already
    await world.settle()
    assert len(sent_to(world, ben, "Reminder")) == 1
    stored = [x for x in await timers.list_timers(world.bot.db) if x.table_id == table_id]
    assert [x.payload.get("reminded") for x in stored] == [1]

    # Down for a while: the last reminder falls due meanwhile and goes out on start, once;
    # the first is not sent again.
    await world.settle()
    await stop_bot(world.bot, world.task)
    clock.advance(hours=11)  # 23 h 1 min into the move
    world.bot, world.task = await start_bot(world.fake, world.db_path, seed_list())
    # A player's language is known from their interactions (kept in memory, as for the
    # hand DMs): until ben's next one, the restarted bot writes German.
    last = await world.fake.wait_for(
        lambda: sent_to(world, ben, "Letzte Erinnerung"), 5, "the last reminder after the restart"
    )
    assert "danach gilt: Tisch wartet" in last[0].content
    assert stamp(due) in last[0].content
    await world.engine.remind_turn(table_id)
    await world.settle()
    assert len(sent_to(world, ben, "Reminder: it is your move")) == 1
    assert len(sent_to(world, ben, "Letzte Erinnerung")) == 1
    # The reminder took the turn's ping's place: one notification out at a time.
    dm = world.fake.dm_channel(ben)
    out = [m for m in world.fake.visible_messages(ben, dm) if "rinnerung" in m.content]
    assert len(out) == 1

    # The time runs out: the table's policy (warten) acts.
    clock.advance(minutes=59)  # 24 h into the move
    info = world.engine.table(table_id)
    assert await world.engine.expire_turn(table_id, info.version)
    await world.settle()
    waiting = world.engine.table(table_id).waiting
    assert waiting is not None and waiting.since == due
    await world.fake.wait_for(
        lambda: any(
            "Wartet auf **ben**" in message_text(m)
            for m in world.fake.channel_messages(world.channel)
        ),
        5,
        "the waiting table",
    )
    # No reminder after the deadline.
    assert len(sent_to(world, ben, "Reminder")) + len(sent_to(world, ben, "Erinnerung")) == 2


async def test_meine_tische_lists_the_players_moves_first_in_their_language(
    make_world: Any, clock: Clock
) -> None:
    world: World = await make_world(
        names=("anna", "ben"), seeds=seed_list(1, 2, 3, 4), locales={"ben": "en-US"}
    )
    anna, ben = world.users[:2]
    # Ben's own lobby in another channel, opened first: the older table.
    other = world.fake.add_channel(world.guild, "doko-2")
    ix = await world.fake.slash(ben, "doko tisch", in_channel=other, spiele=1)
    await world.fake.followup(ix)
    lobby = world.engine.find_table(world.guild.id, other.id)
    assert lobby is not None
    table_id = await open_slow(world, "bot")
    info = await turn_in_play(world, table_id, ben.id)
    await world.settle()
    due = info.turn_due
    assert due is not None and lobby.id < table_id

    ix = await world.run(ben, "meine-tische")
    text = await world.answer_text(ix)
    assert ix.original.flags & 64  # ephemeral: only ben sees where he plays
    move, others = text.split("**Your other tables**")
    assert move.startswith("**Your move**")
    link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/"
    assert f"[Table {table_id}]({link}" in move and "game 1" in move
    assert f"began {stamp(clock.now)}" in move and f"time runs out {stamp(due)}" in move
    assert f"Table {lobby.id}" in others and "lobby" in others and f"<#{other.id}>" in others
    assert f"Table {table_id}" not in others

    # Anna sits at the slow table, it is not her move; her lobby-less list is German.
    text = await world.answer_text(await world.run(anna, "meine-tische"))
    assert "**Du bist am Zug**" not in text
    assert text.startswith("**Deine anderen Tische**") and f"Tisch {table_id}" in text
    assert f"Tisch {lobby.id}" not in text  # not hers
