"""The connection: one long-lived connection per process and its transactions.

Repository functions speak to a :class:`Database` only through ``execute``/``fetch*`` with
``?`` placeholders and ``async with db.transaction()``; nothing outside ``db/`` touches a
driver. Two dialects sit behind that interface:

* SQLite (aiosqlite, here): the embedded default, one file.
* PostgreSQL (asyncpg, :mod:`db.postgres`): the shared store for several bot processes.

:func:`db.connect.connect` picks one by its target: a ``postgresql://`` URL or a file path.
Whatever differs between the two (placeholders, generated ids, where the schema version
lives, file checks, pragmas) is handled in the dialect's class, never in the repository
modules.
"""

from __future__ import annotations

import abc
import asyncio
import logging
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, Final, Literal, Protocol, TypeVar

import aiosqlite

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
Dialect = Literal["sqlite", "postgresql"]

_T = TypeVar("_T")

# sqlite3 extended result codes (primary code in the low byte) that mean "damaged file".
_SQLITE_CORRUPT: Final = 11
_SQLITE_NOTADB: Final = 26


class _PriorityLock:
    """An asyncio lock whose urgent waiters go first (first come, first served within each).

    The engine's group commit is urgent: a player's click is acknowledged only once its
    action is stored, and it must not queue behind a burst of lobby and bookkeeping writes.
    """

    def __init__(self) -> None:
        self._held = False
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._normal: deque[asyncio.Future[None]] = deque()

    async def acquire(self, urgent: bool = False) -> None:
        if not self._held and not self._urgent and not self._normal:
            self._held = True
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._urgent if urgent else self._normal
        queue.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed over just as it was cancelled: pass it on
            elif waiter in queue:
                queue.remove(waiter)
            raise

    def release(self) -> None:
        for queue in (self._urgent, self._normal):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)  # the lock passes straight to this waiter
                    return
        self._held = False

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    @asynccontextmanager
    async def urgent(self) -> AsyncIterator[None]:
        await self.acquire(urgent=True)
        try:
            yield
        finally:
            self.release()


class _BatchRefused(Exception):
    """A statement of ``execute_batch`` changed no row: roll the batch back."""


class BatchFailed(Exception):
    """``commit_batches``: a batch was refused (a statement changed no row) or failed
    (``cause``); it was rolled back, and nothing after it was taken.
    """

    def __init__(self, items: Sequence[Any], cause: BaseException | None) -> None:
        super().__init__(f"a batch of {len(items)} was not stored: {cause or 'refused'}")
        self.items = items
        self.cause = cause


#: How many batches ``commit_batches`` commits before it lets other writers have a turn.
BATCHES_PER_TURN: Final = 16


class Row(Protocol):
    """A result row, read by column name (``row["id"]``)."""

    def __getitem__(self, key: str, /) -> Any: ...


Params = Sequence[Any]


class Database(abc.ABC):
    """One connection to the store. Create it with :func:`db.connect`.

    Statements and transactions are serialised per connection: a transaction belongs to
    the task that opened it, and another task's statement waits until it ends. Both
    dialects behave alike here, so the engine sees the same order of writes on either.
    """

    dialect: ClassVar[Dialect]

    def __init__(self, where: str) -> None:
        #: The file, or the URL without its password: for messages and logs.
        self.path = where
        # The drivers serialise statements, but not transactions: without this lock a
        # statement of task B would land inside task A's open transaction.
        self._lock = _PriorityLock()
        self._owner: asyncio.Task[Any] | None = None

    # -- what each dialect provides --------------------------------------------------------

    @abc.abstractmethod
    def _translate(self, exc: BaseException) -> StoreError | None:
        """The store's error for a driver error, or None when ``exc`` is no driver error."""

    @abc.abstractmethod
    async def _execute(self, sql: str, params: Params) -> int: ...

    @abc.abstractmethod
    async def _executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    @abc.abstractmethod
    async def _fetchall(self, sql: str, params: Params) -> list[Row]: ...

    @abc.abstractmethod
    async def _begin(self) -> None: ...

    @abc.abstractmethod
    async def _commit_statement(self) -> None: ...

    @abc.abstractmethod
    async def _rollback(self) -> None:
        """Roll an open transaction back; logs instead of raising."""

    async def _abandon_begin(self) -> None:
        """After a cancelled ``_begin``: roll back the transaction it may still open."""
        await self._rollback()

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied (0 for a new, empty database)."""

    @abc.abstractmethod
    async def apply_migration(self, version: int, name: str, sql: str) -> bool:
        """Run one migration's SQL and record its version, all in one transaction.

        Returns False when the database already was at ``version`` or later (another
        process applied it in the meantime), True when this call applied it.
        """

    @abc.abstractmethod
    async def integrity_check(self) -> list[str]:
        """``["ok"]`` for a sound database, else the problems found."""

    @abc.abstractmethod
    async def _close(self) -> None: ...

    # -- statements ---------------------------------------------------------------------

    async def _run(self, op: Callable[[], Awaitable[_T]], urgent: bool = False) -> _T:
        try:
            if self._owner is not None and self._owner is asyncio.current_task():
                return await op()
            async with self._lock.urgent() if urgent else self._lock:
                return await op()
        except Exception as exc:
            error = self._translate(exc)
            if error is None:
                raise
            raise error from exc

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        return await self._run(lambda: self._execute(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for many parameter rows (bulk inserts)."""
        await self._run(lambda: self._executemany(sql, rows))

    async def execute_batch(self, sql: str, rows: Sequence[Params]) -> bool:
        """Run ``sql`` once per row in a transaction of its own, kept only if every run
        changed exactly one row: True then, else rolled back (nothing stored) and False.
        """
        assert not self.in_transaction, "execute_batch is a transaction of its own"
        try:
            async with self.transaction(urgent=True):
                for params in rows:
                    if await self.execute(sql, params) != 1:
                        raise _BatchRefused
        except _BatchRefused:
            return False
        return True

    async def commit_batches(
        self,
        sql: str,
        take: Callable[[], Sequence[_T]],
        params: Callable[[_T], Params],
        stored: Callable[[Sequence[_T]], None],
    ) -> None:
        """Commit what ``take`` hands out, batch after batch, until it hands out nothing
        (or ``BATCHES_PER_TURN`` batches): each batch is an ``execute_batch`` (whole or not
        at all) of ``params(item)`` per item, and ``stored`` gets each committed batch on
        the event loop. A refused or failed batch raises :class:`BatchFailed`.

        ``take`` and ``params`` may run in another thread (SQLite's): ``take`` should only
        pop from a queue the event loop appends to.
        """
        for _ in range(BATCHES_PER_TURN):
            items = take()
            if not items:
                return
            try:
                ok = await self.execute_batch(sql, [params(item) for item in items])
            except Exception as exc:
                raise BatchFailed(items, exc) from exc
            if not ok:
                raise BatchFailed(items, None)
            stored(items)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a query and return every row."""
        return await self._run(lambda: self._fetchall(sql, params))

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
    async def transaction(self, *, urgent: bool = False) -> AsyncIterator[None]:
        """``BEGIN`` … ``COMMIT``, or ``ROLLBACK`` when the block raises.

        Inside a transaction of the same task it joins the outer one, so a repository
        function can run on its own or as part of the caller's unit of work. On SQLite it
        is ``BEGIN IMMEDIATE``, which takes the write lock up front: a second process waits
        (busy timeout) instead of failing half-way with a lock upgrade error.
        """
        if self.in_transaction:
            yield
            return
        async with self._lock.urgent() if urgent else self._lock:
            self._owner = asyncio.current_task()
            try:
                try:
                    await self._begin()
                except asyncio.CancelledError:
                    # The driver may still run BEGIN after the caller gave up (it may be
                    # waiting for another process's lock): end that transaction too, or
                    # this connection would keep the write lock and lock everyone out.
                    await self._abandon_begin()
                    raise
                except Exception as exc:
                    error = self._translate(exc)
                    if error is None:
                        raise
                    raise error from exc
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
        commit = asyncio.ensure_future(self._commit_statement())
        try:
            await asyncio.shield(commit)
        except asyncio.CancelledError:
            await commit
            raise
        except Exception as exc:
            error = self._translate(exc)
            if error is None:
                raise
            await self._rollback()
            raise error from exc

    async def close(self) -> None:
        """Close the connection (waits for a running transaction of another task)."""
        async with self._lock:
            await self._close()


class SQLiteDatabase(Database):
    """The store in one SQLite file (WAL, ``synchronous`` FULL by default)."""

    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__(path)
        self._conn = conn

    def _translate(self, exc: BaseException) -> StoreError | None:
        if not isinstance(exc, sqlite3.Error):
            return None
        return _translate_sqlite(exc, self.path)

    async def _execute(self, sql: str, params: Params) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def _executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(sql, rows)

    async def execute_batch(self, sql: str, rows: Sequence[Params]) -> bool:
        # One call into aiosqlite's thread for the whole transaction, not one per statement:
        # every call is a round trip through the event loop, and on a busy bot each costs
        # milliseconds (the engine's group commit waits for this before acknowledging).
        assert not self.in_transaction, "execute_batch is a transaction of its own"
        return await self._in_thread(lambda conn: _commit_batch(conn, sql, rows), urgent=True)

    async def commit_batches(
        self,
        sql: str,
        take: Callable[[], Sequence[_T]],
        params: Callable[[_T], Params],
        stored: Callable[[Sequence[_T]], None],
    ) -> None:
        # All in the database thread: what arrives while a batch is being committed goes
        # into the next commit at once, not after a round trip through a busy event loop,
        # and each batch's waiters are woken by one callback.
        assert not self.in_transaction, "commit_batches makes transactions of its own"
        loop = asyncio.get_running_loop()

        def run(conn: sqlite3.Connection) -> BatchFailed | None:
            for _ in range(BATCHES_PER_TURN):
                items = take()
                if not items:
                    break
                try:
                    ok = _commit_batch(conn, sql, [params(item) for item in items])
                except Exception as exc:
                    return BatchFailed(items, self._translate(exc) or exc)
                if not ok:
                    return BatchFailed(items, None)
                loop.call_soon_threadsafe(stored, items)
            return None

        failed = await self._in_thread(run, urgent=True)
        if failed is not None:
            raise failed

    async def _in_thread(self, fn: Callable[[sqlite3.Connection], _T], urgent: bool) -> _T:
        """Run ``fn(connection)`` in aiosqlite's thread, as one call (one lock turn)."""
        # ``_execute`` queues a function on aiosqlite's thread; the public methods use it too.
        return await self._run(
            lambda: self._conn._execute(fn, self._conn._conn),  # type: ignore[no-untyped-call]
            urgent=urgent,
        )

    async def _fetchall(self, sql: str, params: Params) -> list[Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def _begin(self) -> None:
        await self._conn.execute("BEGIN IMMEDIATE")

    async def _commit_statement(self) -> None:
        await self._conn.execute("COMMIT")

    async def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                await self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rollback failed on %s", self.path)

    async def _abandon_begin(self) -> None:
        # Queued behind the BEGIN in aiosqlite's thread, so it runs after it whenever that
        # ends; checking ``in_transaction`` from here could look before BEGIN has run.
        def end(conn: sqlite3.Connection) -> None:
            if conn.in_transaction:
                conn.rollback()

        done = asyncio.ensure_future(self._conn._execute(end, self._conn._conn))  # type: ignore[no-untyped-call]
        try:
            await asyncio.shield(done)
        except asyncio.CancelledError:
            await done
            raise
        except (sqlite3.Error, ValueError):  # ValueError: aiosqlite's connection is closed
            log.exception("rollback failed on %s", self.path)

    # -- schema version: PRAGMA user_version ----------------------------------------------

    async def schema_version(self) -> int:
        return int(await self.fetchval("PRAGMA user_version"))

    async def apply_migration(self, version: int, name: str, sql: str) -> bool:
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
        return True

    async def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``: ``["ok"]`` for a sound file, else the problems found."""
        return [str(row[0]) for row in await self.fetchall("PRAGMA integrity_check")]  # type: ignore[index]

    async def _close(self) -> None:
        await self._conn.close()


def _commit_batch(conn: sqlite3.Connection, sql: str, rows: Sequence[Params]) -> bool:
    """``sql`` once per row in a transaction of its own (in the database thread): committed
    if every run changed exactly one row, else rolled back and False.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        changed = conn.executemany(sql, rows).rowcount
        if changed != len(rows):
            conn.execute("ROLLBACK")
            return False
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return True


def _translate_sqlite(exc: sqlite3.Error, where: str) -> StoreError:
    """Map a driver error to the store's own errors, keeping the driver's text."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if isinstance(exc, sqlite3.IntegrityError):
        return ConstraintError(str(exc))
    if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return CorruptDatabaseError(f"{where} is damaged or not a SQLite database: {exc}")
    return StoreError(f"{where}: {exc}")


async def _check_file(conn: aiosqlite.Connection, path: str) -> None:
    """Refuse damaged files and other applications' databases before touching them."""
    try:
        app_id = (await (await conn.execute("PRAGMA application_id")).fetchone() or (0,))[0]
        rows = await conn.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        )
    except sqlite3.Error as exc:
        raise _translate_sqlite(exc, path) from exc
    if app_id == APPLICATION_ID:
        return
    if app_id != 0 or rows:
        raise ForeignDatabaseError(
            f"{path} is a SQLite database of another application "
            f"(application_id={app_id}, {len(list(rows))} tables); refusing to use it"
        )


async def open_sqlite(path: str | Path, *, synchronous: Synchronous = "FULL") -> SQLiteDatabase:
    """Open (or create) the SQLite file and set the connection up; no migrations."""
    where = str(path)
    parent = Path(path).parent
    if not parent.is_dir():
        raise StoreError(f"cannot create {where}: directory {parent} does not exist")
    if Path(path).is_dir():  # refused before aiosqlite starts a thread it would leave behind
        raise StoreError(f"{where} is a directory, not a database file")
    try:
        conn = await aiosqlite.connect(where, isolation_level=None)
    except sqlite3.Error as exc:
        raise _translate_sqlite(exc, where) from exc
    try:
        conn.row_factory = sqlite3.Row
        # First: even the file check's reads can meet a lock another process holds for a
        # moment (its last connection closing and checkpointing, a WAL recovery).
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await _check_file(conn, where)
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
            raise _translate_sqlite(exc, where) from exc
        raise
    return SQLiteDatabase(conn, where)
