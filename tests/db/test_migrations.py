"""Migrations: fresh files, upgrades from version 1, refusals, damaged and foreign files."""

from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import pytest

import db
from db import migrate
from db.__main__ import main as db_main
from db.database import APPLICATION_ID, open_database
from db.migrate import Migration

from .conftest import ALICE, BOB, CARLA, DIETER, GUILD


def schema_of(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    store = await db.connect(path)
    try:
        status = await migrate.schema_status(store)
        assert status.current == status.latest == len(migrate.load_migrations()) >= 2
        assert not status.pending
        assert await store.fetchval("PRAGMA journal_mode") == "wal"
        assert await store.fetchval("PRAGMA foreign_keys") == 1
        assert await store.fetchval("PRAGMA application_id") == APPLICATION_ID
        assert await store.integrity_check() == ["ok"]
    finally:
        await store.close()
    # Opening again applies nothing and changes nothing.
    before = schema_of(path)
    store = await db.connect(path)
    await store.close()
    assert schema_of(path) == before


def test_migration_files_are_numbered_without_gaps() -> None:
    migrations = migrate.load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "base"


async def _make_version_1(path: Path) -> None:
    """A database as doko with only migration 0001 wrote it, with two finished games."""
    store = await open_database(path)
    try:
        assert [m.version for m in await migrate.upgrade(store, target=1)] == [1]
        sql = [
            "INSERT INTO players VALUES (11, 'Alice', 0, 0), (12, 'Bob', 0, 0),"
            " (13, 'Carla', 0, 0), (14, 'Dieter', 0, 0)",
            f"INSERT INTO guilds VALUES ({GUILD}, 'Stammtisch', 'de', '{{}}', 0, 0)",
            f"INSERT INTO tables VALUES (1, {GUILD}, 5, 11, '{{}}', 'playing', NULL, 24, 3, 0, 0)",
            "INSERT INTO sessions VALUES (1, 1, 24, 22, '[false,false,false,false]', 2,"
            " 'active', 0, NULL)",
            # Game 1 on 2025-03-01 (Re 11+13 won 2), game 2 on 2025-03-02 (solo by 12 lost 1).
            "INSERT INTO games VALUES (1, 1, 1, '{}', '{}', '7', 0, NULL, 'finished',"
            " 1740830400000, 1740830400000, '{}')",
            "INSERT INTO games VALUES (2, 1, 2, '{}', '{}', '8', 1, NULL, 'finished',"
            " 1740916800000, 1740916800000, '{}')",
            "INSERT INTO game_results VALUES"
            " (1, 0, 11, NULL, 're', 130, 2, 'normal', 0, 1),"
            " (1, 1, 12, NULL, 'kontra', 60, -2, 'normal', 0, 0),"
            " (1, 2, 13, NULL, 're', 0, 2, 'normal', 0, 1),"
            " (1, 3, 14, NULL, 'kontra', 50, -2, 'normal', 0, 0),"
            " (2, 0, 11, NULL, 'kontra', 60, 1, 'solo_damen', 1, 1),"
            " (2, 1, 12, NULL, 're', 100, -3, 'solo_damen', 1, 0),"
            " (2, 2, 13, NULL, 'kontra', 40, 1, 'solo_damen', 1, 1),"
            " (2, 3, 14, NULL, 'kontra', 40, 1, 'solo_damen', 1, 1)",
        ]
        async with store.transaction():
            for statement in sql:
                await store.execute(statement)
    finally:
        await store.close()


async def test_version_1_upgrades_with_its_data(tmp_path: Path) -> None:
    old = tmp_path / "v1.sqlite3"
    await _make_version_1(old)
    assert user_version(old) == 1

    store = await db.connect(old)
    try:
        assert await store.schema_version() == migrate.load_migrations()[-1].version
        table = await db.get_table(store, 1)
        assert table.version == 3 and table.status == "playing"
        standings = await db.guild_standings(store, GUILD)
        by_player = {row.player_id: row for row in standings}
        assert {p: r.points for p, r in by_player.items()} == {
            ALICE: 3,
            CARLA: 3,
            DIETER: -1,
            BOB: -5,
        }
        assert [r.rank for r in standings] == [1, 1, 3, 4]
        assert by_player[BOB].solos == 1 and by_player[BOB].solos_won == 0
        assert by_player[ALICE].re_games == 1 and by_player[ALICE].wins == 2
        march_2 = db.Period.season(date(2025, 3, 2), date(2025, 3, 31))
        assert {r.player_id: r.points for r in await db.guild_standings(store, GUILD, march_2)} == {
            ALICE: 1,
            CARLA: 1,
            DIETER: 1,
            BOB: -3,
        }
        assert await store.integrity_check() == ["ok"]
    finally:
        await store.close()

    fresh = tmp_path / "fresh.sqlite3"
    await (await db.connect(fresh)).close()
    assert schema_of(old) == schema_of(fresh)


async def test_outdated_schema_without_upgrade_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    await _make_version_1(path)
    with pytest.raises(db.SchemaOutdatedError, match="python -m db upgrade"):
        await db.connect(path, upgrade=False)
    assert user_version(path) == 1


async def test_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    await (await db.connect(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    before = schema_of(path)
    with pytest.raises(db.SchemaTooNewError, match=r"schema version 99.*newer doko"):
        await db.connect(path)
    assert user_version(path) == 99
    assert schema_of(path) == before


@pytest.mark.parametrize(
    "content",
    [b"hello, this is not a database\n" * 100, b"SQLite format 3\x00" + b"\xff" * 4080],
    ids=["text", "damaged-header"],
)
async def test_file_that_is_no_database_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "doko.sqlite3"
    path.write_bytes(content)
    with pytest.raises(db.CorruptDatabaseError, match="damaged or not a SQLite database"):
        await db.connect(path)
    assert path.read_bytes() == content


async def test_damaged_pages_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "doko.sqlite3"
    store = await db.connect(path)
    await db.upsert_player(store, ALICE, "Alice")
    await store.close()
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    # Scribble over every page but the first (the schema survives, the tables do not).
    for offset in range(page_size, len(data), page_size):
        data[offset : offset + 64] = b"\xa5" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(db.CorruptDatabaseError):
        store = await db.connect(path)
        try:
            await db.get_player(store, ALICE)
            assert await store.integrity_check() == ["ok"]
        finally:
            await store.close()


async def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("INSERT INTO notes VALUES ('keep me')")
    with pytest.raises(db.ForeignDatabaseError, match="another application"):
        await db.connect(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
        assert conn.execute("PRAGMA user_version").fetchone() == (0,)


async def test_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(db.StoreError, match="does not exist"):
        await db.connect(tmp_path / "nowhere" / "doko.sqlite3")


async def test_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    store = await open_database(tmp_path / "doko.sqlite3")
    try:
        good = Migration(1, "one", "CREATE TABLE a (x INTEGER);")
        bad = Migration(2, "two", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
        with pytest.raises(db.MigrationError, match="0002_two failed"):
            await migrate.upgrade(store, migrations=(good, bad))
        assert await store.schema_version() == 1
        names = [r["name"] for r in await store.fetchall("SELECT name FROM sqlite_master")]
        assert names == ["a"]
    finally:
        await store.close()


def test_cli_status_upgrade_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "cli.sqlite3")
    assert db_main(["status", "--path", path]) == 1
    assert db_main(["upgrade", "--path", path]) == 0
    assert "applied: 0001_base" in capsys.readouterr().out
    assert db_main(["status", "--path", path]) == 0
    assert db_main(["check", "--path", path]) == 0
    assert "integrity check: ok" in capsys.readouterr().out
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 42")
    assert db_main(["status", "--path", path]) == 2
    assert db_main(["upgrade", "--path", path]) == 2
    assert "newer doko" in capsys.readouterr().err
