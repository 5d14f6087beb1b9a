"""Opening the store: a SQLite file or a ``postgresql://`` URL, its schema brought up to date.

The top of the store's imports: :mod:`db.database` (the base and SQLite) and :mod:`db.postgres`
know nothing of choosing between them or of migrations, :mod:`db.migrate` nothing of
opening; this module puts them together.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from db import migrate
from db.database import Database, Synchronous, open_sqlite
from db.errors import StoreError
from db.postgres import open_postgres

#: The SQLite file when neither ``DATABASE_URL`` nor ``DATABASE_PATH`` is set.
DEFAULT_PATH: Final = "doko.sqlite3"

_POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(_POSTGRES_SCHEMES)


async def open_database(target: str | Path, *, synchronous: Synchronous = "FULL") -> Database:
    """Open the store at ``target`` (a SQLite path or a ``postgresql://`` URL); no migrations."""
    if is_postgres_url(target):
        return await open_postgres(str(target), synchronous=synchronous)
    return await open_sqlite(target, synchronous=synchronous)


async def connect(
    target: str | Path, *, upgrade: bool = True, synchronous: Synchronous = "FULL"
) -> Database:
    """Open the store at ``target`` with its schema up to date.

    ``target`` is a SQLite file (created if missing) or a ``postgresql://`` URL of an
    existing database (``?search_path=NAME`` picks a schema other than ``public``).
    With ``upgrade`` pending migrations are applied; without, an outdated schema raises
    :class:`~db.errors.SchemaOutdatedError`. A newer schema than this code knows raises
    :class:`~db.errors.SchemaTooNewError`, a damaged or foreign database
    :class:`~db.errors.CorruptDatabaseError` / :class:`~db.errors.ForeignDatabaseError`;
    the database is left as it was in each case.

    ``synchronous`` is SQLite's pragma; on PostgreSQL ``NORMAL`` turns
    ``synchronous_commit`` off for this connection (a server crash may lose the last
    commits, but never leaves them half-done), ``FULL`` keeps the server's setting.
    """
    db = await open_database(target, synchronous=synchronous)
    try:
        if upgrade:
            await migrate.upgrade(db)
        else:
            await migrate.require_current(db)
    except BaseException:
        await db.close()
        raise
    return db


def target_from_env(environ: Mapping[str, str] | None = None) -> str:
    """``DATABASE_URL`` when set, else ``DATABASE_PATH``, else ``doko.sqlite3``."""
    env = os.environ if environ is None else environ
    url = env.get("DATABASE_URL", "").strip()
    if url:
        if not is_postgres_url(url):
            raise StoreError(
                f"DATABASE_URL must start with postgresql:// (got {url.split(':', 1)[0]}:…); "
                "for SQLite set DATABASE_PATH instead"
            )
        return url
    return env.get("DATABASE_PATH", "").strip() or DEFAULT_PATH


async def connect_from_env(
    environ: Mapping[str, str] | None = None,
    *,
    upgrade: bool = True,
    synchronous: Synchronous = "FULL",
) -> Database:
    """:func:`connect` to the store the environment names (see :func:`target_from_env`)."""
    return await connect(target_from_env(environ), upgrade=upgrade, synchronous=synchronous)
