"""db.sessions on SQLite and PostgreSQL: sessions and the round context."""

from __future__ import annotations

import pytest

import db
from db import Database

from .conftest import Table, at


async def test_sessions_and_round_context(store: Database, table: Table) -> None:
    session = table.session
    assert session.games_left == 24 and session.pflichtsolo_done == (False,) * 4
    assert session.status == "active" and session.finished_at is None
    assert await db.sessions.get_active_session(store, table.table.id) == session
    updated = await db.sessions.update_round_context(
        store, session.id, games_left=23, pflichtsolo_done=[False, True, False, False], dealer=1
    )
    assert (updated.games_left, updated.pflichtsolo_done, updated.dealer) == (
        23,
        (False, True, False, False),
        1,
    )
    assert await db.sessions.get_session(store, session.id) == updated
    finished = await db.sessions.finish_session(store, session.id, now=at(2025, 6, 1))
    assert finished.status == "finished" and finished.finished_at == at(2025, 6, 1)
    assert await db.sessions.get_active_session(store, table.table.id) is None
    with pytest.raises(ValueError, match="one flag per seat"):
        await db.sessions.update_round_context(
            store, session.id, games_left=1, pflichtsolo_done=[True], dealer=0
        )
    with pytest.raises(db.NotFoundError):
        await db.sessions.get_session(store, 999)
