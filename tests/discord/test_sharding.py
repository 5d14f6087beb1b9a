"""Two bot processes on two shards sharing one PostgreSQL: each plays its guild's table to the
end; one is killed mid-trick and restarted, its table goes on, the other's is never touched.
Clicks in DMs reach shard 0 only: a player at a shard-1 table plays it through forwarding.

Needs PostgreSQL (``DOKO_TEST_POSTGRES_URL``): skipped locally without it, failed under CI.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO

import discord.gateway
import discord.http
import pytest

import db
from bot.discord.library import apply_discord_overrides
from bot.discord.run import sync_commands
from bot.render.table import rules_text
from bot.render.terms import OPTION_OF_CALL
from bot.render.texts import t
from bot.rules.calls import Call
from bot.rules.ruleset import Ruleset
from db import leases
from db.postgres import scratch_schema
from tests.conftest import postgres_url
from tests.discord.conftest import bad_requests, message_text, settings_for
from tests.discord.test_process import (
    REPO,
    first_enabled,
    my_turn_message,
    play_until_mid_trick,
)
from tests.fakediscord import Channel, FakeDiscord, Interaction, Message, RequestRecord, User

LEASE_S = 3  # a killed process's table is taken over within about this long


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """A loopback Discord with two shards (replaces the unsharded one of conftest.py)."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    # Discord's rate limits on: one global bucket for both processes (the same token).
    async with FakeDiscord(shard_count=2, rate_limits=True) as server:
        yield server
        limits = server.ratelimits
        assert not limits.limited, f"429s: {dict(limits.limited)}, global {limits.global_limited}"


class Bot:
    """One ``python -m bot`` process running one shard; its log goes to a file."""

    def __init__(self, fake: FakeDiscord, shard: int, url: str, log_dir: Path) -> None:
        self.fake, self.shard, self.url = fake, shard, url
        self.log_path = log_dir / f"shard{shard}.log"
        self.process: asyncio.subprocess.Process | None = None
        self._log: IO[bytes] | None = None

    async def start(self) -> None:
        env = {
            **os.environ,
            **self.fake.env(),
            "DISCORD_TOKEN": self.fake.token,
            "DATABASE_URL": self.url,
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(self.shard),
            "TABLE_LEASE_SECONDS": str(LEASE_S),
            "LOG_LEVEL": "INFO",
        }
        before = self.fake.identifies
        self._log = self.log_path.open("ab")
        self.process = process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=REPO, env=env, stderr=self._log
        )

        def connected() -> bool:
            if process.returncode is not None:
                raise AssertionError(f"shard {self.shard} exited: {self.log()[-3000:]}")
            return self.fake.identifies > before

        await self.fake.wait_for(connected, 30, f"the process of shard {self.shard} to connect")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        await self.process.wait()

    async def stop(self) -> int | None:
        """SIGTERM, as systemd stops it; returns the exit code."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(self.process.wait(), 20)
        if self._log is not None:
            self._log.close()
        return self.process.returncode


async def until(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    """Poll an async predicate (database state) until it holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


async def open_table(fake: FakeDiscord, user: User, guild_channel: Channel) -> Message:
    ix = await fake.slash(
        user, "doko tisch", in_channel=guild_channel, spiele=1, regeln="ohne_pflichtsolo"
    )
    return await fake.followup(ix, timeout=10)


async def start_table(
    fake: FakeDiscord, store: db.Database, user: User, lobby: Message, channel: Channel
) -> db.TableRow:
    """Click Starten on the lobby; the table's stored row."""
    start = await fake.click(user, lobby, first_enabled(lobby, "doko:start:"))
    assert (await fake.response(start, timeout=5)).status == 200
    assert channel.guild is not None
    row = await db.tables.find_open_table(store, channel.guild.id, channel.id)
    assert row is not None
    return row


async def lease_owner(store: db.Database, table_id: int) -> str:
    lease = await leases.get(store, table_id)
    assert lease is not None
    return lease.owner_id


async def click_and_wait(fake: FakeDiscord, user: User, message: Message, custom_id: str) -> None:
    seen = list(message.custom_ids)
    click = await fake.click(user, message, custom_id)
    assert (await fake.response(click, timeout=5)).status == 200
    await fake.wait_for(lambda: message.custom_ids != seen, 10, f"{custom_id} to take effect")


async def play_on(
    fake: FakeDiscord,
    user: User,
    store: db.Database,
    table_id: int,
    turn: Callable[[FakeDiscord, User], Message | None] = my_turn_message,
) -> None:
    """The human clicks a legal card (or Gesund) whenever it is their turn, until the end."""
    seen: list[str] = []
    while (await db.tables.get_table(store, table_id)).status != "closed":
        message = turn(fake, user)
        if message is None or message.custom_ids == seen:
            await asyncio.sleep(0.05)
            continue
        seen = list(message.custom_ids)
        click = await fake.click(user, message, first_enabled(message, "doko:"))
        await fake.response(click, timeout=5)


@asynccontextmanager
async def two_shards(
    fake: FakeDiscord, tmp_path: Path, schema: str
) -> AsyncIterator[tuple[db.Database, list[Bot], list[int | None]]]:
    """Two ``python -m bot`` processes, shards 0 and 1, on a scratch PostgreSQL schema.

    Yields the store, the bots and the list their exit codes go to; on the way out both are
    stopped, and every run must have ended with 0 and without a traceback.
    """
    apply_discord_overrides(fake.env())
    await sync_commands(settings_for(fake, tmp_path / "unused.sqlite3"), None)
    async with scratch_schema(postgres_url(), schema) as url:
        store = await db.connect(url)  # migrates the schema before the bots meet it
        bots = [Bot(fake, 0, url, tmp_path), Bot(fake, 1, url, tmp_path)]
        codes: list[int | None] = []
        try:
            for bot in bots:
                await bot.start()
            yield store, bots, codes
        finally:
            codes += [await bot.stop() for bot in bots]
            await store.close()
    assert codes and all(code == 0 for code in codes), [bot.log()[-3000:] for bot in bots]
    for bot in bots:
        # A killed run's log ends abruptly; no run may show a traceback.
        assert "Traceback" not in bot.log(), bot.log()[-3000:]


async def test_two_shards_one_killed_mid_trick_both_tables_end(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    anna, bert = fake.add_user("anna"), fake.add_user("bert")
    guild_a = fake.guild_on_shard("Stammtisch", 0, owner=anna)
    guild_b = fake.guild_on_shard("Vereinsheim", 1, owner=bert)
    channel_a, channel_b = guild_a.channels[0], guild_b.channels[0]
    async with two_shards(fake, tmp_path, "doko_shards") as (store, bots, _):
        # Vereinsheim (shard 1): bert opens a table, gives his seat up and starts it;
        # four AIs play it out on the second process.
        lobby_b = await open_table(fake, bert, channel_b)
        await click_and_wait(fake, bert, lobby_b, first_enabled(lobby_b, "doko:leave:"))
        row_b = await start_table(fake, store, bert, lobby_b, channel_b)
        owner_b = await lease_owner(store, row_b.id)
        assert owner_b.startswith("shards 1/2 ")

        # Stammtisch (shard 0): anna plays with three AIs until the middle of a trick.
        lobby_a = await open_table(fake, anna, channel_a)
        row_a = await start_table(fake, store, anna, lobby_a, channel_a)
        first_owner = await lease_owner(store, row_a.id)
        assert first_owner.startswith("shards 0/2 ")
        message, trick_text = await play_until_mid_trick(fake, anna, timeout=5)

        await bots[0].kill()
        await bots[0].start()

        table_a, table_b = row_a.id, row_b.id

        async def taken_over() -> bool:
            lease = await leases.get(store, table_a)
            assert lease is not None and lease.owner_id.startswith("shards 0/2 ")
            return lease.owner_id != first_owner

        # The dead process's lease runs out first: nobody acts on the table meanwhile.
        await until(taken_over, LEASE_S + 10, "the restarted process to claim its table")
        await fake.wait_for(lambda: "took over table" in bots[0].log(), 5, "the table to be loaded")
        click = await fake.click(anna, message, first_enabled(message, "doko:card:"))
        callback = await fake.response(click, timeout=10)
        assert callback.status == 200 and callback.type == 6
        await fake.wait_for(
            lambda: any(
                trick_text + " · anna" in message_text(m)
                for m in fake.visible_messages(anna, fake.dm_channel(anna))
                + fake.channel_messages(channel_a)
            ),
            10,
            "the trick to go on from the same state",
        )
        await asyncio.wait_for(play_on(fake, anna, store, table_a), 30)

        async def b_closed() -> bool:
            return (await db.tables.get_table(store, table_b)).status == "closed"

        await until(b_closed, 30, "the Vereinsheim table to end")
        # Shard 0's processes never claimed the other table: its last holder is the
        # process of shard 1 that opened it.
        final_b = await leases.get(store, row_b.id)
        assert final_b is not None and final_b.owner_id == owner_b
        for channel in (channel_a, channel_b):
            await fake.wait_for(
                lambda channel=channel: any(
                    "Die Runde ist zu Ende" in message_text(m)
                    for m in fake.channel_messages(channel)
                ),
                10,
                f"the end of the round in {channel.name}",
            )
        assert f"table {row_b.id}" not in bots[0].log()


def dm_hand(fake: FakeDiscord, user: User) -> Message | None:
    """The DM hand message when it is the user's turn; not an ephemeral hand that
    ``/doko karten`` showed (it is a snapshot, as in a channel).
    """
    for message in reversed(fake.visible_messages(user, fake.dm_channel(user))):
        if message.ephemeral:
            continue
        for component in message.iter_components():
            cid = component.get("custom_id", "")
            if cid.startswith(("doko:card:", "doko:reserve:")) and not component.get("disabled"):
                return message
    return None


def enabled(message: Message, prefix: str) -> str | None:
    return next(
        (
            c["custom_id"]
            for c in message.iter_components()
            if c["custom_id"].startswith(prefix) and not c.get("disabled")
        ),
        None,
    )


async def forward_states(store: db.Database) -> list[str]:
    rows = await store.fetchall("SELECT state FROM forwarded_interactions ORDER BY id")
    return [str(r["state"]) for r in rows]


async def test_a_human_plays_a_shard_1_table_by_dm_buttons_forwarded_from_shard_0(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bert = fake.add_user("bert")
    guild = fake.guild_on_shard("Vereinsheim", 1, owner=bert)
    channel = guild.channels[0]
    async with two_shards(fake, tmp_path, "doko_forward") as (store, bots, _):
        lobby = await open_table(fake, bert, channel)
        row = await start_table(fake, store, bert, lobby, channel)
        owner = await lease_owner(store, row.id)
        assert owner.startswith("shards 1/2 ")

        # A double click on the DM hand: both reach shard 0 and are acknowledged at once
        # (deferred update); shard 1 applies one, the other is stale and says so.
        message = await fake.wait_for(lambda: dm_hand(fake, bert), 15, "bert's turn")
        custom_id = first_enabled(message, "doko:")
        seen = list(message.custom_ids)
        clicks = [await fake.click(bert, message, custom_id) for _ in range(2)]
        for click in clicks:
            callback = await fake.response(click, timeout=5)
            assert callback.status == 200 and callback.type == 6
        refusal = await fake.wait_for(
            lambda: next((m for c in clicks for m in c.followups), None), 10, "the refusal"
        )
        # Outdated, and the current hand with it.
        assert refusal.ephemeral_to is bert
        assert message_text(refusal).startswith(t("de", "input_outdated_hand"))

        async def both_handled() -> bool:
            return await forward_states(store) == ["done", "done"]

        await until(both_handled, 10, "both clicks to be handled")
        assert sum(len(c.followups) for c in clicks) == 1

        # /doko karten in the DM: shard 0 receives it, shard 1 shows the hand.
        ix = await fake.slash(bert, "doko karten")
        assert (await fake.response(ix, timeout=5)).type == 5
        hand = await fake.followup(ix, timeout=10)
        assert hand.ephemeral_to is bert
        assert any(c.startswith(f"doko:card:{row.id}:") for c in hand.custom_ids)

        # /doko regeln and /doko stand in the DM: answered by shard 1 with its table's.
        ix = await fake.slash(bert, "doko regeln")
        assert (await fake.response(ix, timeout=5)).type == 5
        answer = await fake.followup(ix, timeout=10)
        rules = Ruleset.from_dict(row.rules)
        assert answer.ephemeral_to is bert
        # The same embed as the command used where the table runs.
        assert [(e["title"], e["description"]) for e in answer.embeds] == [
            (t("de", "rules_title"), rules_text(rules, 1, "de"))
        ]
        ix = await fake.slash(bert, "doko stand")
        assert (await fake.response(ix, timeout=5)).type == 5
        answer = await fake.followup(ix, timeout=10)
        assert answer.ephemeral_to is bert
        assert [(e["title"], e["description"]) for e in answer.embeds] == [
            (f"Spielliste · Tisch {row.id}", t("de", "stand_empty"))
        ]

        # /doko ansage in the DM, with a call the hand offers at bert's next turn.
        def next_turn() -> Message | None:
            hand = dm_hand(fake, bert)
            return hand if hand is not None and hand.custom_ids != seen else None

        message = await fake.wait_for(next_turn, 15, "bert's next turn")
        call_id = enabled(message, f"doko:call:{row.id}:")
        if call_id is not None:
            option = OPTION_OF_CALL[Call(call_id.split(":")[5])]  # "no90" is "keine90"
            ix = await fake.slash(bert, "doko ansage", ansage=option)
            assert (await fake.response(ix, timeout=5)).type == 5
            answer = await fake.followup(ix, timeout=10)
            assert answer.ephemeral_to is bert
            assert message_text(answer).startswith(t("de", "called", call=""))

        # The rest of the game, every card by a DM button.
        await asyncio.wait_for(play_on(fake, bert, store, row.id, dm_hand), 60)
        await fake.wait_for(
            lambda: any(
                "Die Runde ist zu Ende" in message_text(m) for m in fake.channel_messages(channel)
            ),
            10,
            "the end of the round",
        )

        async def all_handled() -> bool:
            return "pending" not in await forward_states(store)

        await until(all_handled, 10, "every forwarded interaction to be handled")
        states = await forward_states(store)
        assert len(states) >= 12 and set(states) == {"done"}, states
        final = await leases.get(store, row.id)
        assert final is not None and final.owner_id == owner  # shard 1 all along
        assert "forwarded click" in bots[0].log()
        assert bad_requests(fake) == []


async def test_a_dm_click_while_the_tables_process_is_down_is_answered_then_works_again(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    bert = fake.add_user("bert")
    guild = fake.guild_on_shard("Vereinsheim", 1, owner=bert)
    channel = guild.channels[0]
    async with two_shards(fake, tmp_path, "doko_forward") as (store, bots, codes):
        lobby = await open_table(fake, bert, channel)
        await start_table(fake, store, bert, lobby, channel)
        message = await fake.wait_for(lambda: dm_hand(fake, bert), 15, "bert's turn")
        custom_id = first_enabled(message, "doko:")

        # Shard 1's process stops (it gives its lease up); nobody runs the table now.
        codes.append(await bots[1].stop())
        # The first click's token runs out before anyone answers: nothing breaks.
        expired = await fake.click(bert, message, custom_id)
        assert (await fake.response(expired, timeout=5)).type == 6
        fake.advance_clock(16 * 60)
        click = await fake.click(bert, message, custom_id)
        callback = await fake.response(click, timeout=5)
        assert callback.status == 200 and callback.type == 6  # stored, so acknowledged
        answer = await fake.followup(click, timeout=2 * LEASE_S + 15)
        assert answer.ephemeral_to is bert and message_text(answer) == t("de", "unowned")

        async def both_orphaned() -> bool:
            return await forward_states(store) == ["orphaned", "orphaned"]

        await until(both_orphaned, 10, "both clicks to be answered")
        assert expired.followups == []
        await fake.wait_for(
            lambda: "answer refused" in bots[0].log(), 10, "the refused answer to be logged"
        )

        # Back up: the same button works again, forwarded to the restarted process.
        await bots[1].start()
        seen = list(message.custom_ids)
        click = await fake.click(bert, message, custom_id)
        assert (await fake.response(click, timeout=5)).type == 6

        async def applied() -> bool:
            return await forward_states(store) == ["orphaned", "orphaned", "done"]

        await until(applied, 15, "the restarted process to apply the click")
        await fake.wait_for(
            lambda: (m := dm_hand(fake, bert)) is None or m.custom_ids != seen,
            10,
            "bert's hand to move on",
        )
        assert click.followups == []  # no refusal: it was applied


EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


async def test_a_forwarded_click_edits_the_clicked_hand_through_its_webhook(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """As unsharded: the hand DM shows the click's outcome through the interaction (exempt
    from the global limit), not as a channel message edit of the hand job.
    """
    bert = fake.add_user("bert")
    guild = fake.guild_on_shard("Vereinsheim", 1, owner=bert)
    channel = guild.channels[0]
    dm = fake.dm_channel(bert)
    async with two_shards(fake, tmp_path, "doko_forward_edit") as (store, _, _):
        lobby = await open_table(fake, bert, channel)
        row = await start_table(fake, store, bert, lobby, channel)
        message = await fake.wait_for(lambda: dm_hand(fake, bert), 15, "bert's turn")
        for turn in range(3):
            custom_id = first_enabled(message, "doko:")
            seen = list(message.custom_ids)
            before = len(fake.requests)
            click = await fake.click(bert, message, custom_id)
            assert (await fake.response(click, timeout=5)).type == 6

            def answer(click: Interaction = click) -> RequestRecord | None:
                return next(
                    (
                        r
                        for r in fake.requests_to(EDIT_ORIGINAL)
                        if f"/{click.token}/" in r.path and r.status == 200
                    ),
                    None,
                )

            edit = await fake.wait_for(answer, 10, f"the answer to click {turn}")
            assert message.custom_ids != seen and custom_id not in message.custom_ids
            # The edit showed the new state: the clicked card or button is gone.
            shown = [c["custom_id"] for r in edit.body["components"] for c in r["components"]]
            assert custom_id not in shown
            upto = fake.requests.index(edit)
            channel_edits = [
                r
                for r in fake.requests[before:upto]
                if r.method == "PATCH" and r.path == f"/channels/{dm.id}/messages/{message.id}"
            ]
            assert channel_edits == [], f"click {turn}: the hand job edited the DM"
            assert not click.followups  # no refusal, no second message
            message = await fake.wait_for(lambda: dm_hand(fake, bert), 15, "bert's next turn")
        assert any(c.startswith(f"doko:card:{row.id}:") for c in message.custom_ids)
        assert bad_requests(fake) == []


async def test_a_forwarded_click_that_ends_a_game_leaves_one_hand_for_the_next(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The last game's DM shows its result and the next game's hand comes once: as a
    followup of the click through its webhook (as unsharded) when the AIs ended the game
    within the answer's wait, else as a DM of the hand job, never both.
    """
    bert = fake.add_user("bert")
    guild = fake.guild_on_shard("Vereinsheim", 1, owner=bert)
    channel = guild.channels[0]
    dm = fake.dm_channel(bert)
    async with two_shards(fake, tmp_path, "doko_forward_next") as (store, _, _):
        ix = await fake.slash(
            bert, "doko tisch", in_channel=channel, spiele=2, regeln="ohne_pflichtsolo"
        )
        lobby = await fake.followup(ix, timeout=10)
        row = await start_table(fake, store, bert, lobby, channel)
        first = await fake.wait_for(lambda: dm_hand(fake, bert), 15, "bert's first hand")
        seen: list[str] = []

        def next_game_hand() -> Message | None:
            hand = dm_hand(fake, bert)
            return hand if hand is not None and hand is not first else None

        async def play_first_game() -> Message:
            nonlocal seen
            while (hand := next_game_hand()) is None:
                message = dm_hand(fake, bert)
                if message is None or message.custom_ids == seen:
                    await asyncio.sleep(0.05)
                    continue
                seen = list(message.custom_ids)
                click = await fake.click(bert, message, first_enabled(message, "doko:"))
                await fake.response(click, timeout=5)
            return hand

        second = await asyncio.wait_for(play_first_game(), 60)
        await asyncio.sleep(1.0)  # a second hand, if one were sent, would be out by now
        followups = [m for i in fake.interactions.values() for m in i.followups]
        as_followup = any(m is second for m in followups)
        sent_by_job = fake.requests_to(rf"^POST /channels/{dm.id}/messages$")[1:]
        assert len(sent_by_job) == (0 if as_followup else 1), "the next hand came twice"
        assert not second.ephemeral and second.channel is dm
        assert next_game_hand() is second
        # The first game's DM shows how it ended, without buttons to play.
        assert not any(c.startswith(f"doko:card:{row.id}:") for c in first.custom_ids)
        assert bad_requests(fake) == []
