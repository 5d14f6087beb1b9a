"""One bot process per SQLite file: the sidecar lock, refused with the holder's name."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from db.errors import StoreError
from db.process_lock import DatabaseInUseError, lock_database, lock_path

pytestmark = pytest.mark.sqlite_only


def test_a_second_holder_is_refused_with_the_first_ones_name(tmp_path: Path) -> None:
    database = tmp_path / "doko.sqlite3"
    first = lock_database(database)
    try:
        # flock belongs to the open file: a second open, even in this process, is refused.
        with pytest.raises(DatabaseInUseError) as refused:
            lock_database(database)
        text = str(refused.value)
        assert f"pid {os.getpid()} on {socket.gethostname()}, since 20" in text
        assert str(database) in text and "DATABASE_PATH" in text
    finally:
        first.release()
    again = lock_database(database)  # released: free at once
    again.release()
    assert lock_path(database).exists()  # left behind, and meaningless without a holder


def test_shards_share_the_file_but_never_with_an_unsharded_process(tmp_path: Path) -> None:
    database = tmp_path / "doko.sqlite3"
    one, two = lock_database(database, shared=True), lock_database(database, shared=True)
    try:
        with pytest.raises(DatabaseInUseError) as refused:
            lock_database(database)
        assert "(a shard)" in str(refused.value)
    finally:
        one.release()
        two.release()
    alone = lock_database(database)
    try:
        with pytest.raises(DatabaseInUseError):
            lock_database(database, shared=True)
    finally:
        alone.release()


def test_a_missing_directory_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot create the lock file"):
        lock_database(tmp_path / "nowhere" / "doko.sqlite3")
