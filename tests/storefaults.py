"""A fault-injecting SQLite store: the real file and driver, with writes refused on demand.

:func:`faulty_sqlite` opens the store through :func:`db.connect` with every SQLite
connection made by a :class:`sqlite3.Connection` subclass (``sqlite3.connect``'s public
``factory`` argument, passed through ``aiosqlite.connect``). While :class:`Faults` says so,
that connection refuses writes the way SQLite does when the disk is full (``SQLITE_FULL``
at ``COMMIT``: in WAL mode a transaction's pages reach the file only then), on an I/O
error (``SQLITE_IOERR`` at the statement) or when the write lock stays taken
(``SQLITE_BUSY``). Reads go through: a full disk still lets the bot read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from unittest import mock

import aiosqlite

import db
from db.database import Database

Kind = Literal["full", "ioerror", "locked"]

_ERRORS: dict[Kind, tuple[int, str, str]] = {
    "full": (13, "SQLITE_FULL", "database or disk is full"),
    "ioerror": (10, "SQLITE_IOERR", "disk I/O error"),
    "locked": (5, "SQLITE_BUSY", "database is locked"),
}
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def sqlite_error(kind: Kind) -> sqlite3.OperationalError:
    """The driver's error for ``kind``, with SQLite's result code as the driver sets it."""
    code, name, text = _ERRORS[kind]
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = code
    error.sqlite_errorname = name
    return error


@dataclass
class _Rule:
    kind: Kind
    left: int | None  # None: until freed
    skip: int
    match: str | None


@dataclass
class Faults:
    """What the connection refuses now: all writes (``fill`` until ``free``), or the next
    few that match (``refuse``). ``refused`` counts the writes refused so far.
    """

    rules: list[_Rule] = field(default_factory=list)
    refused: int = 0
    kinds: list[Kind] = field(default_factory=list)  # of each refusal, in order

    def fill(self, kind: Kind = "full") -> None:
        self.rules.append(_Rule(kind, None, 0, None))

    def free(self) -> None:
        self.rules.clear()

    def refuse(
        self, count: int = 1, *, kind: Kind = "full", skip: int = 0, match: str | None = None
    ) -> None:
        """Refuse ``count`` writes (containing ``match``, if given) after ``skip`` of them."""
        self.rules.append(_Rule(kind, count, skip, match))

    @property
    def armed(self) -> bool:
        return bool(self.rules)

    def hit(self, sql: str) -> Kind | None:
        """The error this write gets, if it is refused (each refusal counts)."""
        for rule in self.rules:
            if rule.match is not None and rule.match not in sql:
                continue
            if rule.skip > 0:
                rule.skip -= 1
                continue
            if rule.left is not None:
                rule.left -= 1
                if rule.left == 0:
                    self.rules.remove(rule)
            self.refused += 1
            self.kinds.append(rule.kind)
            return rule.kind
        return None


def _is_write(sql: str) -> bool:
    return sql.lstrip().upper().startswith(_WRITES)


def _connection_class(faults: Faults) -> type[sqlite3.Connection]:
    class FaultyConnection(sqlite3.Connection):
        """Refuses writes as ``faults`` says; a disk-full write fails at its COMMIT."""

        doomed: Kind | None = None  # the open transaction wrote to a full disk

        def _check(self, sql: str) -> None:
            verb = sql.lstrip().upper()
            if verb.startswith("COMMIT") and self.doomed is not None:
                doomed, self.doomed = self.doomed, None
                raise sqlite_error(doomed)  # the transaction stays open: the caller rolls back
            if verb.startswith("ROLLBACK"):
                self.doomed = None
            kind = faults.hit(sql) if _is_write(sql) else None
            if kind is None:
                return
            if kind == "full" and self.in_transaction:
                self.doomed = kind
                return
            raise sqlite_error(kind)

        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            self._check(sql)
            return super().execute(sql, *args)

        def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
            self._check(sql)
            return super().executemany(sql, *args)

        def rollback(self) -> None:
            self.doomed = None
            super().rollback()

    return FaultyConnection


@contextmanager
def faulty_connections(faults: Faults) -> Iterator[None]:
    """Within: every SQLite store opened refuses writes as ``faults`` says."""
    real = aiosqlite.connect
    factory = _connection_class(faults)

    def connect(database: Any, **kwargs: Any) -> aiosqlite.Connection:
        return real(database, factory=factory, **kwargs)

    with mock.patch.object(aiosqlite, "connect", connect):
        yield


@asynccontextmanager
async def faulty_sqlite(path: Path, faults: Faults) -> AsyncIterator[Database]:
    """The store in ``path`` (migrated), refusing writes as ``faults`` says."""
    with faulty_connections(faults):
        store = await db.connect(path)
    try:
        yield store
    finally:
        await store.close()
