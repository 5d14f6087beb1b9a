"""The connection: one long-lived aiosqlite connection per process and its transactions.

Repository functions speak to a :class:`Database` only through ``execute``/``fetch*`` with
``?`` placeholders and ``async with db.transaction()``; nothing outside this module touches
aiosqlite. The few places where SQLite differs from other databases (schema version in
``PRAGMA user_version``, file checks, pragmas) live here, behind :attr:`Database.dialect`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, Literal, Protocol, TypeVar

import aiosqlite

from db import migrate
from db.errors import (
    ConstraintError,
    CorruptDatabaseError,
    ForeignDatabaseError,
    MigrationError,
    StoreError,
)

log = logging.getLogger(__name__)

#: Written into the SQLite header by the first migration, so a doko file is recognisable
#: and another application's database is refused instead of being migrated over ("doko").
APPLICATION_ID: Final = 0x646F6B6F

#: How long a writer waits for another process's write lock before giving up.
BUSY_TIMEOUT_MS: Final = 5000

Synchronous = Literal["FULL", "NORMAL"]

_T = TypeVar("_T")

# sqlite3 extended result codes (primary code in the low byte) that mean "damaged file".
_SQLITE_CORRUPT: Final = 11
_SQLITE_NOTADB: Final = 26


class Row(Protocol):
    """A result row, read by column name (``row["id"]``)."""

    def __getitem__(self, key: str, /) -> Any: ...


Params = Sequence[Any]


def _translate(exc: sqlite3.Error, where: str) -> StoreError:
    """Map a driver error to the store's own errors, keeping the driver's text."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintError(str(exc))
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return CorruptDatabaseError(f"{where} is damaged or not a SQLite database: {exc}")
    return StoreError(f"{where}: {exc}")


class Database:
    """One connection to the store. Create it with :func:`db.connect`."""

    dialect: Final = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        # aiosqlite serialises statements, but not transactions: without this lock a
        # statement of task B would land inside task A's open transaction.
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None

    # -- statements ---------------------------------------------------------------------

    async def _run(self, op: Callable[[], Awaitable[_T]]) -> _T:
        try:
            if self._owner is not None and self._owner is asyncio.current_task():
                return await op()
            async with self._lock:
                return await op()
        except sqlite3.Error as exc:
            raise _translate(exc, self.path) from exc

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

        async def op() -> int:
            cursor = await self._conn.execute(sql, params)
            return cursor.rowcount

        return await self._run(op)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for many parameter rows (bulk inserts)."""

        async def op() -> None:
            await self._conn.executemany(sql, rows)

        await self._run(op)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return every row."""

        async def op() -> list[Row]:
            return list(await self._conn.execute_fetchall(sql, params))

        return await self._run(op)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """Run a query expected to give at most one row."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        """Run a query and return the first column of the first row (None if no row)."""
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]  # type: ignore[index]

    # -- transactions -------------------------------------------------------------------

    @property
    def in_transaction(self) -> bool:
        """True while the current task holds an open transaction."""
        return self._owner is not None and self._owner is asyncio.current_task()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, or ``ROLLBACK`` when the block raises.

        Inside a transaction of the same task it joins the outer one, so a repository
        function can run on its own or as part of the caller's unit of work. IMMEDIATE
        takes the write lock up front: a second process waits (busy timeout) instead of
        failing half-way with a lock upgrade error.
        """
        if self.in_transaction:
            yield
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                try:
                    await self._conn.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as exc:
                    raise _translate(exc, self.path) from exc
                try:
                    yield
                except BaseException:
                    await self._rollback()
                    raise
                await self._commit()
            finally:
                self._owner = None

    async def _commit(self) -> None:
        # A cancelled caller must not leave the outcome unknown: let COMMIT finish.
        commit = asyncio.ensure_future(self._conn.execute("COMMIT"))
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            await commit
            raise
        except sqlite3.Error as exc:
            await self._rollback()
            raise _translate(exc, self.path) from exc

    async def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                await self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rollback failed on %s", self.path)

    # -- schema version (dialect-specific) -----------------------------------------------

    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for a new, empty database)."""
        return int(await self.fetchval("PRAGMA user_version"))

    async def apply_migration(self, version: int, name: str, sql: str) -> None:
        """Run one migration's SQL and record its version, all in one transaction."""
        # executescript() runs the file as-is; BEGIN/COMMIT around it make it atomic, and
        # user_version and application_id live in the header page, so they roll back too.
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{sql}\n;\n"
            f"PRAGMA application_id = {APPLICATION_ID};\n"
            f"PRAGMA user_version = {int(version)};\n"
            "COMMIT;\n"
        )
        async with self._lock:
            try:
                await self._conn.executescript(script)
            except sqlite3.Error as exc:
                await self._rollback()
                raise MigrationError(f"migration {version:04d}_{name} failed: {exc}") from exc

    async def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: ``["ok"]`` for a sound file, else the problems found."""
        return [str(row[0]) for row in await self.fetchall("PRAGMA integrity_check")]  # type: ignore[index]

    async def close(self) -> None:
        """Close the connection (waits for a running transaction of another task)."""
        async with self._lock:
            await self._conn.close()


async def _check_file(conn: aiosqlite.Connection, path: str) -> None:
    """Refuse damaged files and other applications' databases before touching them."""
    try:
        app_id = (await (await conn.execute("PRAGMA application_id")).fetchone() or (0,))[0]
        rows = await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        )
    except sqlite3.Error as exc:
        raise _translate(exc, path) from exc
    if app_id == APPLICATION_ID:
        return
    if app_id != 0 or rows:
        raise ForeignDatabaseError(
            f"{path} is a SQLite database of another application "
            f"(application_id={app_id}, {len(list(rows))} tables); refusing to use it"
        )


async def open_database(path: str | Path, *, synchronous: Synchronous = "FULL") -> Database:
    """Open (or create) the file and set the connection up; no migrations."""
    where = str(path)
    parent = Path(path).parent
    if not parent.is_dir():
        raise StoreError(f"cannot create {where}: directory {parent} does not exist")
    try:
        conn = await aiosqlite.connect(where, isolation_level=None)
    except sqlite3.Error as exc:
        raise _translate(exc, where) from exc
    try:
        conn.row_factory = sqlite3.Row
        await _check_file(conn, where)
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = (await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone() or ("",))[0]
        if str(mode).lower() != "wal":
            log.warning("%s: journal mode is %s, not WAL", where, mode)
        # FULL: an acknowledged action survives power loss too, not just a crash of this
        # process; NORMAL is only safe against the latter.
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException as exc:
        await conn.close()
        if isinstance(exc, sqlite3.Error):
            raise _translate(exc, where) from exc
        raise
    return Database(conn, where)


async def connect(
    path: str | Path, *, upgrade: bool = True, synchronous: Synchronous = "FULL"
) -> Database:
    """Open the store at ``path`` (created if missing) with its schema up to date.

    With ``upgrade`` pending migrations are applied; without, an outdated schema raises
    :class:`~db.errors.SchemaOutdatedError`. A newer schema than this code knows raises
    :class:`~db.errors.SchemaTooNewError`, a damaged or foreign file
    :class:`~db.errors.CorruptDatabaseError` / :class:`~db.errors.ForeignDatabaseError`;
    the file is left as it was in each case.
    """
    db = await open_database(path, synchronous=synchronous)
    try:
        if upgrade:
            await migrate.upgrade(db)
        else:
            await migrate.require_current(db)
    except BaseException:
        await db.close()
        raise
    return db
