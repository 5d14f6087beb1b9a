"""Table leases: one owner at a time, taken over only after expiry, renewed, released."""

from __future__ import annotations

from datetime import timedelta

from db import Database, leases
from tests.db.conftest import Table, at

TTL = timedelta(seconds=30)
NOW = at(2026, 3, 1)


async def test_a_free_table_is_claimed_and_another_owner_is_refused(
    store: Database, table: Table
) -> None:
    table_id = table.table.id
    assert await leases.get(store, table_id) is None
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=NOW)
    assert not await leases.claim(store, table_id, "b", ttl=TTL, now=NOW + timedelta(seconds=29))
    # Claiming again is renewing for the holder.
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=NOW + timedelta(seconds=20))
    lease = await leases.get(store, table_id)
    assert lease is not None and lease.owner_id == "a"
    assert lease.expires_at == NOW + timedelta(seconds=50)


async def test_an_expired_lease_goes_to_the_next_claimer_and_renewal_reports_it_lost(
    store: Database, table: Table
) -> None:
    table_id = table.table.id
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=NOW)
    later = NOW + timedelta(seconds=31)
    assert await leases.claim(store, table_id, "b", ttl=TTL, now=later)
    assert await leases.renew(store, [table_id], "a", ttl=TTL, now=later) == {table_id}
    assert await leases.renew(store, [table_id], "b", ttl=TTL, now=later) == set()
    lease = await leases.get(store, table_id)
    assert lease is not None and lease.owner_id == "b"


async def test_a_released_lease_is_free_at_once_and_only_its_owner_releases(
    store: Database, table: Table
) -> None:
    table_id = table.table.id
    assert await leases.claim(store, table_id, "a", ttl=TTL, now=NOW)
    await leases.release(store, table_id, "b")
    assert not await leases.claim(store, table_id, "b", ttl=TTL, now=NOW)
    await leases.release(store, table_id, "a")
    released = await leases.get(store, table_id)
    assert released is not None and released.owner_id == "a" and released.expires_at < NOW
    assert await leases.claim(store, table_id, "b", ttl=TTL, now=NOW)
