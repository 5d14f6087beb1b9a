"""A ping on your turn, through the loopback Discord: one new message per waiting turn, gone
when the turn passes; "sofort" at once, "aus" never; a channel mention for closed DMs; none
for AI seats or a paused player.

The delays are the players' real settings (20 s unless chosen) run at a hundredth of their
length (``Pings.time_scale``), except where a test shows that a ping comes without waiting.
"""

from __future__ import annotations

import asyncio
import gc
import re
import time
import weakref
from dataclasses import replace
from typing import Any

import pytest

import bot.ai
from bot.discord.pings import turn_of
from bot.engine import TableInfo, ai_turns
from bot.rules.calls import Call
from db import messages
from tests.discord.conftest import World, message_text, start_bot, stop_bot
from tests.discord.driver import human_to_act, play_turn
from tests.fakediscord import Message, User
from tests.fakediscord.models import DM

REAL_STRATEGY = bot.ai.get_strategy
FAST = 0.01  # 20 s -> 0.2 s
SCALED_DEFAULT_S = 20 * FAST
PING = re.compile(r"(?:<@(\d+)> )?Du bist dran an Tisch (\d+)\.(?: (\S+))?$")


def all_pings(world: World) -> list[Message]:
    """Every ping the bot sent, deleted ones included, oldest first."""
    return [
        m for m in world.fake.messages if m.author is world.fake.bot_user and PING.match(m.content)
    ]


def live_pings(world: World, user: User) -> list[Message]:
    """The pings ``user`` sees now, in their DM or the table's channel."""
    return [
        m
        for m in all_pings(world)
        if not m.deleted
        and (
            (m.channel.type == DM and m.channel.recipient is user)
            or m.content.startswith(f"<@{user.id}>")
        )
    ]


def table_message(world: World, table_id: int) -> Message:
    """The table message of the running game (it carries the "Meine Karten" button)."""
    for message in reversed(world.fake.channel_messages(world.channel)):
        if any(c.startswith(f"doko:hand:{table_id}:") for c in message.custom_ids):
            return message
    raise AssertionError("no table message")


def requests_for(world: World, ping: Message) -> list[str]:
    """The REST calls that touched ``ping``: its send, then what else was done to it."""
    sent = [
        f"{r.method} send"
        for r in world.fake.requests
        if r.method == "POST"
        and r.path == f"/channels/{ping.channel.id}/messages"
        and isinstance(r.response, dict)
        and r.response.get("id") == str(ping.id)
    ]
    touched = [
        r.method
        for r in world.fake.requests
        if r.path == f"/channels/{ping.channel.id}/messages/{ping.id}"
    ]
    return sent + touched


async def deleted(world: World, ping: Message) -> None:
    await world.fake.wait_for(lambda: ping.deleted, 3, "the ping to be deleted")


async def start_table(world: World, host: User, *others: User) -> int:
    """A one-game table: ``host`` and ``others`` seated, AIs in the empty seats, started."""
    table_id = await world.open_table(host, spiele=1, regeln="ohne_pflichtsolo")
    for user in others:
        await world.click(user, world.lobby(), "doko:join:")
    await world.fake.wait_for(
        lambda: all(world.engine.table(table_id).seat_of(u.id) is not None for u in others),
        3,
        "the others seated",
    )
    await world.click(host, world.lobby(), "doko:start:")
    return table_id


async def choose(world: World, user: User, wann: str) -> str:
    ix = await world.run(user, "benachrichtigung", wann=wann)
    return await world.answer_text(ix)


async def live_ping(world: World, user: User) -> Message:
    """The user's ping, once there is one (the last turn's deleted)."""
    found = await world.fake.wait_for(
        lambda: (pings := live_pings(world, user)) and len(pings) == 1 and pings,
        5,
        f"a ping for {user}",
    )
    return found[0]


async def test_a_waiting_turn_gets_one_ping_dm_that_goes_when_played(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    world.bot.presenter.pings.time_scale = FAST
    table_id = await start_table(world, anna)
    pinged: list[Message] = []
    for turn in range(3):
        found = await human_to_act(world, table_id)
        assert found is not None and found[0] is anna
        ping = await live_ping(world, anna)
        pinged.append(ping)
        seen = all_pings(world).index(ping)
        # A new DM (it notifies), with a link to the running game's table message.
        assert ping.channel is world.fake.dm_channel(anna) and not ping.history
        match = PING.match(ping.content)
        assert match is not None and match[1] is None and int(match[2]) == table_id
        shown = table_message(world, table_id)
        assert (
            match[3]
            == f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{shown.id}"
        )
        # The last turn's ping is gone: never more than one in the DM.
        assert live_pings(world, anna) == [ping], turn
        # Waiting on does not ping again within the turn.
        await asyncio.sleep(3 * SCALED_DEFAULT_S)
        assert all_pings(world)[seen:] == [ping]
        assert await play_turn(world, table_id)
        await deleted(world, ping)
    # A ping costs its send and its delete, nothing else (no edit, no second send). The
    # fourth turn's may be on its way already.
    assert all_pings(world)[:3] == pinged
    assert all(requests_for(world, p) == ["POST send", "DELETE"] for p in pinged)


async def test_a_turn_played_before_its_ping_leaves_no_garbage(make_world: Any) -> None:
    # Most turns end before their delay: what waited for it goes with the turn, without a
    # garbage collection (a cancelled sleeping task was a reference cycle holding the turn).
    world: World = await make_world(names=("anna",))
    pings = world.bot.presenter.pings
    table_id = await start_table(world, world.users[0])
    gone: list[weakref.ref[Any]] = []
    gc.disable()
    try:
        for _ in range(4):
            assert await human_to_act(world, table_id) is not None
            turn = await world.fake.wait_for(lambda: pings.turns.get(table_id), 3, "a turn")
            await asyncio.sleep(0.05)  # its delay known, its timer armed
            assert turn.timer is not None or turn.task is not None
            gone.append(weakref.ref(turn))
            del turn
            assert await play_turn(world, table_id)
        await asyncio.sleep(0.1)  # the last cancellation run through
        assert [ref() for ref in gone[:-1]] == [None] * 3
    finally:
        gc.enable()
    assert all_pings(world) == []  # 20 s each: none was due


async def test_a_ping_waits_until_the_hand_shows_the_turn(make_world: Any) -> None:
    # Under load a hand DM reaches its player late: the ping counts from when it shows the
    # turn (the player's whole delay), not from the turn's start, and does not come ahead
    # of it.
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    pings = world.bot.presenter.pings
    pings.time_scale = 0.1  # 20 s -> 2 s; a hand never shown is pinged 2 s after that
    table_id = await start_table(world, anna)
    found = await human_to_act(world, table_id)
    assert found is not None and found[0] is anna
    turn = await world.fake.wait_for(lambda: pings.turns.get(table_id), 3, "her turn")
    began = asyncio.get_running_loop().time()
    hands = world.bot.presenter.tables[table_id].hands
    await world.fake.wait_for(
        lambda: anna.id in hands and hands[anna.id].shown is not None,
        3,
        "the hand job to show the turn",
    )
    hand = hands[anna.id]
    hand.shown = (turn.version - 1, "de")  # as if its edit were still waiting for a turn
    assert not pings.shown(turn)
    arrived = False
    pings.shown = lambda _turn: arrived  # type: ignore[method-assign]  # the test says when
    await asyncio.sleep(began + 3.0 - asyncio.get_running_loop().time())  # past her delay
    assert live_pings(world, anna) == []
    arrived = True  # a second after the delay: only 1 s of it would be left
    await asyncio.sleep(1.3)
    assert live_pings(world, anna) == []  # she has had 1.3 s of her 2 s
    ping = await live_ping(world, anna)
    assert PING.match(ping.content) is not None
    assert all_pings(world) == [ping]


async def test_a_ping_waits_for_a_first_hand_however_late(make_world: Any) -> None:
    # A game's first hand DM is a new message, which notifies by itself: held up by the
    # budget longer than the wait a stale hand gets, it is still waited for, then the whole
    # delay; a ping ahead of it would be noise and two requests.
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    pings = world.bot.presenter.pings
    pings.time_scale = 0.1  # 20 s -> 2 s; a stale hand is pinged 2 s after that
    table_id = await start_table(world, anna)
    found = await human_to_act(world, table_id)
    assert found is not None and found[0] is anna
    await world.fake.wait_for(lambda: pings.turns.get(table_id), 3, "her turn")
    began = asyncio.get_running_loop().time()
    arrived = False
    pings.shown = lambda _turn: arrived  # type: ignore[method-assign]  # the test says when
    pings.hand_on_its_way = lambda _turn: not arrived  # type: ignore[method-assign]
    await asyncio.sleep(began + 4.5 - asyncio.get_running_loop().time())  # past both waits
    assert live_pings(world, anna) == []
    arrived = True
    await asyncio.sleep(1.3)
    assert live_pings(world, anna) == []  # she has had 1.3 s of her 2 s
    ping = await live_ping(world, anna)
    assert PING.match(ping.content) is not None


async def test_sofort_pings_at_once(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    assert "Sofort" in await choose(world, anna, "sofort")
    # Unscaled: a ping that comes during the test comes without the 20 s default.
    world.bot.presenter.pings.time_scale = 1.0
    table_id = await start_table(world, anna)
    pinged: list[Message] = []
    for _ in range(2):
        found = await human_to_act(world, table_id)
        assert found is not None
        ping = await live_ping(world, anna)
        assert ping.channel is world.fake.dm_channel(anna) and ping not in pinged
        pinged.append(ping)
        assert await play_turn(world, table_id)
        await deleted(world, ping)
    assert all_pings(world)[:2] == pinged  # one per turn


async def test_aus_never_pings(make_world: Any) -> None:
    world: World = await make_world(names=("anna", "ben"))
    anna, ben = world.users
    assert "Aus" in await choose(world, ben, "aus")
    world.bot.presenter.pings.time_scale = FAST
    table_id = await start_table(world, anna, ben)
    turns = {anna.name: 0, ben.name: 0}
    while min(turns.values()) < 2:
        found = await human_to_act(world, table_id)
        assert found is not None
        user, _ = found
        turns[user.name] += 1
        if user is anna:  # the default delay: her pings come
            ping = await live_ping(world, anna)
            assert await play_turn(world, table_id)
            await deleted(world, ping)
        else:
            await asyncio.sleep(3 * SCALED_DEFAULT_S)  # ben's would have come by now
            assert await play_turn(world, table_id)
    # Anna's, one per turn (the next turn's may be on its way); none ever for ben.
    assert all(p.channel is world.fake.dm_channel(anna) for p in all_pings(world))
    assert len(all_pings(world)) >= turns[anna.name]
    # Asked without a choice, the command says what is set.
    assert "Aus" in await world.answer_text(await world.run(ben, "benachrichtigung"))


async def test_the_command_speaks_english_too(make_world: Any) -> None:
    world: World = await make_world(names=("eve",), locales={"eve": "en-US"})
    eve = world.users[0]
    doko = next(c for c in world.fake.commands() if c["name"] == "doko")
    command = next(o for o in doko["options"] if o["name"] == "benachrichtigung")
    assert command["name_localizations"]["en-US"] == "notify"
    (option,) = command["options"]
    assert option["name_localizations"]["en-GB"] == "when" and not option.get("required")
    names = [c["name_localizations"]["en-US"] for c in option["choices"]]
    assert names == ["off", "at once", "after 20 s", "after 60 s"]
    assert await world.engine.notify_delay(eve.id) == 20  # the default, until chosen
    shown = await world.answer_text(await world.run(eve, "benachrichtigung"))
    assert shown.startswith("After 20 s")
    text = await choose(world, eve, "60")
    assert text.startswith("After 60 s: the bot pings you") and "By DM" in text
    assert await world.engine.notify_delay(eve.id) == 60


async def test_closed_dms_get_a_mention_in_the_table_channel(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    world.fake.close_dms(anna)
    world.bot.presenter.pings.time_scale = FAST
    table_id = await start_table(world, anna)
    await human_to_act(world, table_id)
    ping = await live_ping(world, anna)
    assert ping.channel is world.channel and ping.content.startswith(f"<@{anna.id}> ")
    # It mentions anna and nobody else (no @everyone, no roles).
    (send,) = [
        r
        for r in world.fake.requests
        if r.method == "POST"
        and isinstance(r.response, dict)
        and r.response.get("id") == str(ping.id)
    ]
    mentions = send.body["allowed_mentions"]
    assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [anna.id]
    assert await play_turn(world, table_id)  # through the ephemeral hand
    await world.fake.wait_for(lambda: ping.deleted, 3, "the ping to be deleted")
    # The DM was tried once, for the hand; the ping never tried it.
    assert sum(r.status == 403 for r in world.fake.requests) == 1


class SlowSeats:
    """An AI that thinks ``seconds`` (in its thread) before each move of the game seats in
    ``seats``: long enough for a ping to go out if one were wrongly due.
    """

    def __init__(self, level: str, seats: set[int], seconds: float) -> None:
        self.real = REAL_STRATEGY(level)
        self.seats, self.seconds = seats, seconds

    def choose(self, view: Any, rng: Any) -> Any:
        if view.seat in self.seats:
            time.sleep(self.seconds)
        return self.real.choose(view, rng)


async def test_no_ping_for_a_paused_player_or_an_ai(
    make_world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow: set[int] = set()
    monkeypatch.setattr(bot.ai, "get_strategy", lambda level: SlowSeats(level, slow, 1.5))
    monkeypatch.setattr(ai_turns, "QUICK_LEVELS", frozenset())  # every level in a thread
    world: World = await make_world(names=("anna", "ben"))
    anna, ben = world.users
    # At once: the seat the AI plays for ben would be pinged with every move of it.
    assert "Sofort" in await choose(world, ben, "sofort")
    world.bot.presenter.pings.time_scale = FAST
    table_id = await start_table(world, anna, ben)
    await world.fake.wait_for(
        lambda: world.engine.game_seat(table_id, ben.id) is not None, 3, "the deal"
    )
    ben_seat = world.engine.game_seat(table_id, ben.id)
    assert ben_seat is not None
    slow.add(ben_seat)
    message = await world.fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(world.fake.channel_messages(world.channel))
                if any(c.startswith(f"doko:pause:{table_id}:") for c in m.custom_ids)
            ),
            None,
        ),
        5,
        "the table message",
    )
    ix = await world.click(ben, message, f"doko:pause:{table_id}:")
    await world.fake.wait_for(lambda: ix.followups, 3, "the answer")
    assert "Bot spielt für dich" in message_text(ix.followups[0])
    # A ping ben got while his turn waited goes with his turn, to the AI standing in.
    await world.fake.wait_for(lambda: not live_pings(world, ben), 3, "ben's ping to go")
    before = len([p for p in all_pings(world) if p.channel is not world.fake.dm_channel(anna)])
    for _ in range(3):
        found = await human_to_act(world, table_id)  # anna: ben's seat is the AI's now
        assert found is not None and found[0] is anna
        ping = await live_ping(world, anna)
        assert await play_turn(world, table_id)
        await deleted(world, ping)
    # The AIs, ben's stand-in among them, played every other move and got no ping.
    assert (
        len([p for p in all_pings(world) if p.channel is not world.fake.dm_channel(anna)]) == before
    )
    assert not live_pings(world, ben)


async def test_a_turn_is_the_player_to_act_and_what_their_move_changes(make_world: Any) -> None:
    """Another player's call leaves the turn (and its ping) alone; one's own move ends it;
    a seat an AI plays has no turn to ping.
    """
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await start_table(world, anna)
    found = await human_to_act(world, table_id)
    assert found is not None
    info = found[1]
    pv = info.public
    assert pv is not None and pv.to_act is not None
    turn = turn_of(info)
    assert turn is not None and turn[0] == anna.id
    other = (pv.to_act + 1) % 4

    def with_calls(*calls: tuple[int, Call]) -> TableInfo:
        return replace(info, version=info.version + 1, public=replace(pv, calls=calls))

    assert turn_of(with_calls((other, Call.RE))) == turn
    own = turn_of(with_calls((pv.to_act, Call.RE)))
    assert own is not None and own[0] == anna.id and own != turn
    played = replace(info, public=replace(pv, current_trick=(*pv.current_trick, "CQ")))
    assert turn_of(played) != turn  # a card (here: any) makes it another turn
    seats = list(info.seats)
    seat = info.player(pv.to_act)
    assert seat is not None
    seats[seats.index(seat)] = replace(seat, ai_level="leicht", away=True)
    assert turn_of(replace(info, seats=tuple(seats))) is None  # paused: an AI plays
    assert turn_of(replace(info, status="closed")) is None


async def test_a_turn_waiting_across_a_restart_is_pinged(make_world: Any) -> None:
    """A new process sees no event for a turn that waits already: its start-up refresh
    starts the ping.
    """
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    pings = world.bot.presenter.pings
    pings.time_scale = FAST
    table_id = await start_table(world, anna)
    found = await human_to_act(world, table_id)
    assert found is not None and found[0] is anna
    first = await live_ping(world, anna)
    await stored_as(world, [(anna.id, first.id)])
    # What a restarted process knows of pings: only what the store says.
    pings.close()
    await world.bot.presenter.refresh_all()
    assert table_id in pings.turns
    await world.fake.wait_for(
        lambda: len([p for p in all_pings(world) if p is not first]) == 1, 3, "a new ping"
    )
    await deleted(world, first)  # the stopped process's ping: no second one for the turn
    assert live_pings(world, anna) == [p for p in all_pings(world) if p is not first]


def request_index(world: World, method: str, message: Message) -> int:
    """Where in the REST log the first ``method`` request on ``message`` came."""
    for i, r in enumerate(world.fake.requests):
        if method == "POST" and r.method == "POST":
            if isinstance(r.response, dict) and r.response.get("id") == str(message.id):
                return i
        elif r.method == method and r.path.endswith(f"/messages/{message.id}"):
            return i
    raise AssertionError(f"no {method} of {message}")


async def stored_pings(world: World) -> list[tuple[int, int]]:
    return [(p.user_id, p.message_id) for p in await messages.pings(world.bot.db)]


async def stored_as(world: World, expected: list[tuple[int, int]]) -> None:
    """Until the store holds exactly ``expected`` (the row is written after the send)."""
    for _ in range(300):
        if sorted(await stored_pings(world)) == sorted(expected):
            return
        await asyncio.sleep(0.01)
    assert sorted(await stored_pings(world)) == sorted(expected)


async def test_pings_left_by_a_stopped_process_go_at_the_next_start(make_world: Any) -> None:
    """A ping is in the store while it is out; the next process deletes what the last one
    left (its tables' and closed tables'), and only then pings the turn that still waits.
    """
    world: World = await make_world(names=("anna", "ben"))
    anna, ben = world.users
    for user in (anna, ben):  # at once: the restarted process pings without a scaled delay
        assert "Sofort" in await choose(world, user, "sofort")
    first = await start_table(world, anna)
    # Ben at a table of his own in a second channel; it closes while nobody knows his ping.
    channel = world.fake.add_channel(world.guild, "zweiter-tisch")
    ix = await world.fake.slash(ben, "doko tisch", in_channel=channel, spiele=1)
    assert (await world.fake.response(ix, timeout=3)).status == 200
    await world.fake.followup(ix)
    info = world.engine.find_table(world.guild.id, channel.id)
    assert info is not None
    second = info.id
    lobby = next(
        m
        for m in reversed(world.fake.channel_messages(channel))
        if any(c.startswith("doko:start:") for c in m.custom_ids)
    )
    await world.click(ben, lobby, "doko:start:")
    for table_id in (first, second):
        assert await human_to_act(world, table_id) is not None
    anna_ping, ben_ping = await live_ping(world, anna), await live_ping(world, ben)
    await stored_as(world, [(anna.id, anna_ping.id), (ben.id, ben_ping.id)])
    # Another process's ping (a table this one does not run) is not this start's to delete.
    await world.bot.presenter.pings.sweep(set())
    assert not anna_ping.deleted and not ben_ping.deleted

    # Killed: the process forgets its pings without deleting them; ben's table closes
    # meanwhile (another process, or the last moments of this one).
    world.bot.presenter.pings.close()
    await world.engine.stop_table(second, ben.id)
    await world.settle()
    assert not ben_ping.deleted
    await stop_bot(world.bot, world.task)
    world.bot, world.task = await start_bot(world.fake, world.db_path)

    await deleted(world, anna_ping)
    await deleted(world, ben_ping)
    now = await live_ping(world, anna)  # anna's turn still waits: exactly one ping again
    assert now is not anna_ping and live_pings(world, anna) == [now]
    assert not live_pings(world, ben)
    # The old ping went before the new one came; each cost its send and its delete.
    assert request_index(world, "DELETE", anna_ping) < request_index(world, "POST", now)
    assert requests_for(world, anna_ping) == ["POST send", "DELETE"]
    assert requests_for(world, ben_ping) == ["POST send", "DELETE"]
    await stored_as(world, [(anna.id, now.id)])
    # Played: the new ping goes, from Discord and from the store.
    assert await play_turn(world, first)
    await deleted(world, now)
    for _ in range(300):  # the row goes right after the message
        if now.id not in [message_id for _, message_id in await stored_pings(world)]:
            break
        await asyncio.sleep(0.01)
    assert now.id not in [message_id for _, message_id in await stored_pings(world)]


async def test_a_stored_ping_already_gone_is_forgotten_at_the_start(make_world: Any) -> None:
    """A 404 is an old ping deleted already; a slow delete holds the new ping back."""
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    assert "Sofort" in await choose(world, anna, "sofort")
    table_id = await start_table(world, anna)
    assert await human_to_act(world, table_id) is not None
    ping = await live_ping(world, anna)
    await stored_as(world, [(anna.id, ping.id)])
    world.bot.presenter.pings.close()
    ping.deleted = True  # removed on Discord's side meanwhile: the delete finds nothing
    # Rate limited: the delete waits and is tried again, the new ping waits for it.
    world.fake.rate_limit_next(f"DELETE .*/messages/{ping.id}$", 0.3)
    await stop_bot(world.bot, world.task)
    world.bot, world.task = await start_bot(world.fake, world.db_path)
    now = await live_ping(world, anna)
    await stored_as(world, [(anna.id, now.id)])
    deletes = [
        (i, r.status)
        for i, r in enumerate(world.fake.requests)
        if r.method == "DELETE" and r.path.endswith(f"/messages/{ping.id}")
    ]
    assert [status for _, status in deletes] == [429, 404]
    assert deletes[-1][0] < request_index(world, "POST", now)
