"""Closed DMs: marked at the first 50007, told once, cleared when the DMs may work again."""

from __future__ import annotations

from db import Database, closed_dms
from db.closed_dms import ClosedDm

from .conftest import ALICE, BOB, at


async def test_closed_told_and_cleared(store: Database) -> None:
    assert await closed_dms.closed_dms(store) == []
    assert await closed_dms.mark_closed(store, ALICE, at(2026, 3, 1))
    assert not await closed_dms.mark_closed(store, ALICE, at(2026, 3, 2))  # the first stays
    assert await closed_dms.mark_closed(store, BOB, at(2026, 3, 1))
    assert await closed_dms.mark_told(store, ALICE, at(2026, 3, 1, 13))
    assert not await closed_dms.mark_told(store, ALICE, at(2026, 3, 1, 14))  # told once
    assert await closed_dms.closed_dms(store) == [
        ClosedDm(ALICE, at(2026, 3, 1), at(2026, 3, 1, 13)),
        ClosedDm(BOB, at(2026, 3, 1), None),
    ]
    assert await closed_dms.clear(store, ALICE)
    assert not await closed_dms.clear(store, ALICE)
    assert not await closed_dms.mark_told(store, ALICE)  # not closed any more
    assert [c.user_id for c in await closed_dms.closed_dms(store)] == [BOB]
