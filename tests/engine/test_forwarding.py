"""The forward queue between two engines on one database: the receiver stores, only the lease
holder applies, each interaction once; one nobody runs is answered by a sweeping process.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.engine.forwarding import Forwarder
from db import forwards
from db.forwards import ForwardRow
from tests.engine.test_sharding import EVEN_GUILD, HOST, ODD_GUILD, running, shard

APP = 900_000_000_000_000_001


class Calls:
    def __init__(self, fail: bool = False) -> None:
        self.rows: list[ForwardRow] = []
        self.fail = fail

    async def __call__(self, row: ForwardRow) -> None:
        self.rows.append(row)
        if self.fail:
            raise RuntimeError("the handler broke")


async def forward(
    forwarder: Forwarder, table_id: int, custom_id: str = "doko:card:1:2:H10:0"
) -> bool:
    return await forwarder.forward(
        table_id,
        kind="click",
        custom_id=custom_id,
        user_id=HOST,
        locale="de",
        application_id=APP,
        token="tok",
        channel_id=5,
        message_id=6,
    )


async def test_only_the_tables_process_applies_a_forwarded_click_once(db_path: str | Path) -> None:
    async with (
        running(db_path, "zero", shard(0)) as zero,
        running(db_path, "one", shard(1)) as one,
    ):
        info = await one.create_table(guild_id=ODD_GUILD, channel_id=1, host_id=HOST, host_name="H")
        await one.start_game(info.id, HOST)
        receiver = Forwarder(zero, "zero", grace=timedelta(0))
        owner = Forwarder(one, "one", grace=timedelta(0))
        received, applied = Calls(), Calls()
        receiver.handler, owner.handler = received, applied
        receiver.unowned_handler = owner.unowned_handler = Calls()
        assert not receiver.runs(info.id) and owner.runs(info.id)
        assert await receiver.remote_table_of(HOST) == info.id
        assert await owner.remote_table_of(HOST) is None  # it runs the table itself

        assert await forward(receiver, info.id, "doko:card:1:2:H10:0")
        assert await forward(receiver, info.id, "doko:card:1:2:SA:1")
        assert await receiver.poll() == 0  # not its table
        assert await receiver.sweep() == 0  # its owner is alive
        assert await owner.poll() == 2
        assert [r.custom_id for r in applied.rows] == ["doko:card:1:2:H10:0", "doko:card:1:2:SA:1"]
        assert applied.rows[0].message_id == 6 and applied.rows[0].token == "tok"
        assert await owner.poll() == 0  # handled: never twice
        assert received.rows == []
        handled = await forwards.get(one.db, applied.rows[0].id)
        assert handled.state == "done" and handled.token == ""


async def test_a_failing_handler_marks_the_click_failed_instead_of_retrying(
    db_path: str | Path,
) -> None:
    async with running(db_path, "one", shard(1)) as one:
        info = await one.create_table(guild_id=ODD_GUILD, channel_id=1, host_id=HOST, host_name="H")
        owner = Forwarder(one, "one", grace=timedelta(0))
        owner.handler = broken = Calls(fail=True)
        assert await forward(owner, info.id)
        assert await owner.poll() == 1
        assert await owner.poll() == 0
        assert (await forwards.get(one.db, broken.rows[0].id)).state == "failed"


async def test_a_click_for_a_table_nobody_runs_is_answered_by_one_sweeper(
    db_path: str | Path,
) -> None:
    async with running(db_path, "zero", shard(0)) as zero, running(db_path, "two", shard(0)) as two:
        async with running(db_path, "one", shard(1)) as one:
            info = await one.create_table(
                guild_id=ODD_GUILD, channel_id=1, host_id=HOST, host_name="H"
            )
            await one.start_game(info.id, HOST)
        # Shard 1's process stopped (its lease released) and no other has started.
        first, second = (
            Forwarder(e, n, grace=timedelta(0)) for e, n in ((zero, "zero"), (two, "two"))
        )
        answered = Calls()
        first.unowned_handler = second.unowned_handler = answered
        assert await forward(first, info.id)
        assert await first.sweep() + await second.sweep() == 1
        assert len(answered.rows) == 1 and answered.rows[0].token == "tok"
        assert (await forwards.get(zero.db, answered.rows[0].id)).state == "orphaned"
        # The grace period lets a restarting owner claim its table first.
        patient = Forwarder(zero, "zero", grace=timedelta(hours=1))
        patient.unowned_handler = answered
        assert await forward(patient, info.id)
        assert await patient.sweep() == 0


async def test_nothing_is_forwarded_for_a_closed_or_unknown_table(db_path: str | Path) -> None:
    async with running(db_path, "zero", shard(0)) as zero:
        info = await zero.create_table(
            guild_id=EVEN_GUILD, channel_id=1, host_id=HOST, host_name="H"
        )
        await zero.stop_table(info.id, HOST)
        forwarder = Forwarder(zero, "zero", grace=timedelta(0))
        assert not await forward(forwarder, info.id)
        assert not await forward(forwarder, info.id + 100)
