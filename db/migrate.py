"""Numbered SQL migrations (``db/migrations/NNNN_name.sql``), applied in order, each atomic.

The schema version is the number of the last migration applied; on SQLite it is kept in
``PRAGMA user_version``, on PostgreSQL in the table ``doko_schema_version``. The same files
run on both (see :mod:`db.postgres` for the one rewrite PostgreSQL gets). Migrations only
go forward, and a file once shipped never changes: a database at any earlier version
upgrades by running the files after its version.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Final

from db import ratings
from db.database import Database
from db.errors import MigrationError, SchemaOutdatedError, SchemaTooNewError

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

# What SQL alone cannot fill in, done right after the migration's file by Python: the
# per-server ratings are OpenSkill replayed over the stored games.
FOLLOW_UPS: Final[dict[int, Callable[[Database], Awaitable[object]]]] = {
    14: ratings.rebuild_before_unranked
}


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file."""

    version: int
    name: str
    sql: str


@dataclass(frozen=True, slots=True)
class SchemaStatus:
    """Where a database stands against the migrations this code ships."""

    current: int
    latest: int
    pending: tuple[Migration, ...]

    @property
    def too_new(self) -> bool:
        """The database was written by a newer doko than this one."""
        return self.current > self.latest


def load_migrations() -> tuple[Migration, ...]:
    """Read the shipped migrations in order; their numbers must run 1, 2, 3 … without gaps."""
    found: list[Migration] = []
    for entry in resources.files("db").joinpath("migrations").iterdir():
        match = _FILE_NAME.match(entry.name)
        if match is None:
            if entry.name.endswith(".sql"):
                raise MigrationError(f"migration file name {entry.name!r} is not NNNN_name.sql")
            continue
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migrations must be numbered 1, 2, 3 …; {expected:04d} missing")
    return tuple(found)


def _too_new_message(db: Database, current: int, latest: int) -> str:
    return (
        f"{db.path} has schema version {current}, but this version of doko only knows "
        f"migrations up to {latest}. It was written by a newer doko: upgrade doko, or use a "
        f"backup made before the upgrade. The database was not changed."
    )


async def schema_status(
    db: Database, migrations: tuple[Migration, ...] | None = None
) -> SchemaStatus:
    """Compare the database's schema version with the shipped migrations."""
    migrations = load_migrations() if migrations is None else migrations
    current = await db.schema_version()
    latest = migrations[-1].version if migrations else 0
    pending = tuple(m for m in migrations if m.version > current)
    return SchemaStatus(current, latest, pending)


async def upgrade(
    db: Database,
    *,
    target: int | None = None,
    migrations: tuple[Migration, ...] | None = None,
) -> tuple[Migration, ...]:
    """Apply every pending migration (up to ``target``); returns the ones applied.

    Raises :class:`SchemaTooNewError` when the database is newer than the code.
    """
    status = await schema_status(db, migrations)
    if status.too_new:
        raise SchemaTooNewError(_too_new_message(db, status.current, status.latest))
    applied: list[Migration] = []
    for migration in status.pending:
        if target is not None and migration.version > target:
            break
        log.info("%s: applying migration %04d_%s", db.path, migration.version, migration.name)
        if await db.apply_migration(migration.version, migration.name, migration.sql):
            applied.append(migration)
            follow_up = FOLLOW_UPS.get(migration.version)
            if follow_up is not None:
                await follow_up(db)
    return tuple(applied)


async def require_current(db: Database) -> None:
    """Raise unless the schema is exactly the one this code was written for."""
    status = await schema_status(db)
    if status.too_new:
        raise SchemaTooNewError(_too_new_message(db, status.current, status.latest))
    if status.pending:
        raise SchemaOutdatedError(
            f"{db.path} has schema version {status.current}, this doko needs "
            f"{status.latest}: run `python -m db upgrade`"
        )
