"""One bot process per SQLite file: a lock on the sidecar file ``<database>.lock``.

Two unsharded bot processes on one file would each run its own copy of the open tables in
memory and overwrite each other's games. The bot therefore takes an exclusive
``flock(2)`` on the sidecar before it opens the database; a second process is refused
with a message naming the holder (pid, host, since when), which the holder writes into
the file. Sharded processes share the file by design (their table leases keep them
apart): they take a shared lock, so they run side by side but never beside an unsharded
one. PostgreSQL needs none of this: its processes are always coordinated by leases.

``flock`` is kept by the kernel with the open file, on Linux and macOS alike: it goes
away with the holding process however it ends (kill -9 included), so a lock is never
stale, and the sidecar file left behind means nothing by itself. Not for network file
systems, where ``flock`` may be local to one host (SQLite's own locking is not safe there
either).
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from db.errors import StoreError


class DatabaseInUseError(StoreError):
    """Another bot process holds the SQLite file."""


def lock_path(database: str | Path) -> Path:
    """The sidecar file next to the database."""
    return Path(f"{database}.lock")


@dataclass
class ProcessLock:
    """The lock this process holds; released by :meth:`release` or by the process ending."""

    path: Path
    fd: int | None

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file drops the lock
            self.fd = None


def lock_database(database: str | Path, *, shared: bool = False) -> ProcessLock:
    """Hold the database file for this process (``shared``: for one of several shards).

    Raises :class:`DatabaseInUseError` naming the holder when another process has it.
    """
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(f"cannot create the lock file {path}: {exc}") from exc
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_holder(fd)
        os.close(fd)
        raise DatabaseInUseError(
            f"{database} is in use by another bot process ({holder}); two processes on one "
            "SQLite file would each play their own copy of the tables. Stop the other one, "
            "or give this one its own DATABASE_PATH"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    _write_holder(fd, shared)
    return ProcessLock(path, fd)


def _write_holder(fd: int, shared: bool) -> None:
    """Who holds the lock, for the message a second process gets."""
    holder = {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": datetime.now(UTC).isoformat(timespec="seconds"),
        "shared": shared,
    }
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(holder).encode(), 0)


def _read_holder(fd: int) -> str:
    try:
        holder = json.loads(os.pread(fd, 4096, 0) or b"{}")
        return f"pid {holder['pid']} on {holder['host']}, since {holder['since']}" + (
            " (a shard)" if holder.get("shared") else ""
        )
    except (OSError, ValueError, KeyError, TypeError):
        return "holder unknown: it has not written its name yet"
