"""Migrations on SQLite and PostgreSQL: fresh databases, upgrades from version 1, refusals;
damaged and foreign files on SQLite.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

import db
from db import Database, migrate
from db.__main__ import main as db_main
from db.connect import open_database
from db.database import APPLICATION_ID
from db.migrate import Migration
from db.postgres import VERSION_TABLE, scratch_schema

from ..conftest import postgres_url
from .conftest import ALICE, BOB, CARLA, DIETER, GUILD

Target = str | Path

# What a schema looks like on PostgreSQL, without the schema's own name: columns, then
# constraints and indexes by their definitions.
PG_COLUMNS = """
SELECT table_name, column_name, data_type, is_nullable, is_identity, column_default
FROM information_schema.columns WHERE table_schema = current_schema()
ORDER BY table_name, ordinal_position
"""
PG_CONSTRAINTS = """
SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)
FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
WHERE n.nspname = current_schema() ORDER BY 1, 2
"""
PG_INDEXES = """
SELECT tablename, indexname, replace(indexdef, current_schema() || '.', '')
FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1, 2
"""
PG_TABLES = """
SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
ORDER BY table_name
"""


def schema_of(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL"))


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def schema_at(target: Target) -> list[tuple[object, ...]]:
    """The tables, columns and indexes at ``target`` (either dialect), without opening it
    through migrations.
    """
    if not db.is_postgres_url(target):
        return [tuple(row) for row in schema_of(Path(target))]
    store = await open_database(target)
    try:
        rows = []
        for query in (PG_COLUMNS, PG_CONSTRAINTS, PG_INDEXES):
            rows += [tuple(row) for row in await store.fetchall(query)]  # type: ignore[call-overload]
        return rows
    finally:
        await store.close()


async def table_names(store: Database) -> list[str]:
    if store.dialect == "sqlite":
        rows = await store.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        return sorted(r["name"] for r in rows)
    return [
        r["table_name"] for r in await store.fetchall(PG_TABLES) if r["table_name"] != VERSION_TABLE
    ]


async def set_schema_version(target: Target, version: int) -> None:
    """Pretend a (newer) doko wrote the database: the dialect's version mark only."""
    if not db.is_postgres_url(target):
        with sqlite3.connect(target) as conn:
            conn.execute(f"PRAGMA user_version = {version}")
        return
    store = await open_database(target)
    try:
        await store.execute(
            f"INSERT INTO {VERSION_TABLE} (version, name) VALUES (?, 'from_the_future')",
            (version,),
        )
    finally:
        await store.close()


async def version_at(target: Target) -> int:
    store = await open_database(target)
    try:
        return await store.schema_version()
    finally:
        await store.close()


@asynccontextmanager
async def another_target(like: Target, tmp_path: Path) -> AsyncIterator[Target]:
    """A second new database of the same kind as ``like``."""
    if not db.is_postgres_url(like):
        yield tmp_path / "another.sqlite3"
        return
    async with scratch_schema(postgres_url(), "doko_test") as url:
        yield url


async def test_fresh_database_gets_every_migration(database_target: Target) -> None:
    store = await db.connect(database_target)
    try:
        status = await migrate.schema_status(store)
        assert status.current == status.latest == migrate.load_migrations()[-1].version >= 2
        assert not status.pending
    finally:
        await store.close()
    # Opening again applies nothing and changes nothing.
    before = await schema_at(database_target)
    store = await db.connect(database_target)
    await store.close()
    assert await schema_at(database_target) == before


@pytest.mark.sqlite_only
async def test_sqlite_file_settings(tmp_path: Path) -> None:
    store = await db.connect(tmp_path / "new.sqlite3")
    try:
        assert await store.fetchval("PRAGMA journal_mode") == "wal"
        assert await store.fetchval("PRAGMA foreign_keys") == 1
        assert await store.fetchval("PRAGMA application_id") == APPLICATION_ID
        assert await store.integrity_check() == ["ok"]
    finally:
        await store.close()


async def test_postgres_keeps_versions_in_a_table_and_ids_as_identities(
    postgres_target: str,
) -> None:
    store = await db.connect(postgres_target)
    try:
        rows = await store.fetchall(f"SELECT version, name FROM {VERSION_TABLE} ORDER BY version")
        assert [(r["version"], r["name"]) for r in rows] == [
            (m.version, m.name) for m in migrate.load_migrations()
        ]
        # Every `id INTEGER PRIMARY KEY` of the migrations became an identity column.
        columns = await store.fetchall(
            "SELECT table_name, is_identity FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND column_name = 'id'"
        )
        assert {"games", "sessions", "tables", "timers"} <= {r["table_name"] for r in columns}
        assert all(r["is_identity"] == "YES" for r in columns)
        with pytest.raises(db.StoreError, match="SQLite's"):
            await store.integrity_check()
    finally:
        await store.close()


def test_migration_files_are_numbered_once_each() -> None:
    migrations = migrate.load_migrations()
    versions = [m.version for m in migrations]
    assert versions == sorted(set(versions)) and versions[:12] == list(range(1, 13))
    assert migrations[0].name == "base"


async def _make_version_1(target: Target) -> None:
    """A database as doko with only migration 0001 wrote it, with two finished games."""
    store = await open_database(target)
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
            # TRUE/FALSE, not 1/0: PostgreSQL's BOOLEAN takes no integers.
            "INSERT INTO game_results VALUES"
            " (1, 0, 11, NULL, 're', 130, 2, 'normal', FALSE, TRUE),"
            " (1, 1, 12, NULL, 'kontra', 60, -2, 'normal', FALSE, FALSE),"
            " (1, 2, 13, NULL, 're', 0, 2, 'normal', FALSE, TRUE),"
            " (1, 3, 14, NULL, 'kontra', 50, -2, 'normal', FALSE, FALSE),"
            " (2, 0, 11, NULL, 'kontra', 60, 1, 'solo_damen', TRUE, TRUE),"
            " (2, 1, 12, NULL, 're', 100, -3, 'solo_damen', TRUE, FALSE),"
            " (2, 2, 13, NULL, 'kontra', 40, 1, 'solo_damen', TRUE, TRUE),"
            " (2, 3, 14, NULL, 'kontra', 40, 1, 'solo_damen', TRUE, TRUE)",
        ]
        async with store.transaction():
            for statement in sql:
                await store.execute(statement)
    finally:
        await store.close()


async def test_version_1_upgrades_with_its_data(database_target: Target, tmp_path: Path) -> None:
    old = database_target
    await _make_version_1(old)
    assert await version_at(old) == 1

    store = await db.connect(old)
    try:
        assert await store.schema_version() == migrate.load_migrations()[-1].version
        table = await db.tables.get_table(store, 1)
        assert table.version == 3 and table.status == "playing"
        standings = await db.standings.guild_standings(store, GUILD)
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
        assert {
            r.player_id: r.points for r in await db.standings.guild_standings(store, GUILD, march_2)
        } == {
            ALICE: 1,
            CARLA: 1,
            DIETER: 1,
            BOB: -3,
        }
        if store.dialect == "sqlite":
            assert await store.integrity_check() == ["ok"]
    finally:
        await store.close()

    async with another_target(old, tmp_path) as fresh:
        await (await db.connect(fresh)).close()
        assert await schema_at(old) == await schema_at(fresh)


async def test_outdated_schema_without_upgrade_is_refused(database_target: Target) -> None:
    await _make_version_1(database_target)
    with pytest.raises(db.SchemaOutdatedError, match="python -m db upgrade"):
        await db.connect(database_target, upgrade=False)
    assert await version_at(database_target) == 1


async def test_newer_schema_is_refused_and_left_alone(database_target: Target) -> None:
    await (await db.connect(database_target)).close()
    await set_schema_version(database_target, 99)
    before = await schema_at(database_target)
    with pytest.raises(db.SchemaTooNewError, match=r"schema version 99.*newer doko"):
        await db.connect(database_target)
    assert await version_at(database_target) == 99
    assert await schema_at(database_target) == before


@pytest.mark.sqlite_only
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


@pytest.mark.sqlite_only
async def test_damaged_pages_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "doko.sqlite3"
    store = await db.connect(path)
    await db.players.upsert_player(store, ALICE, "Alice")
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
            await db.players.get_player(store, ALICE)
            assert await store.integrity_check() == ["ok"]
        finally:
            await store.close()


@pytest.mark.sqlite_only
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


async def test_foreign_postgres_schema_is_refused(postgres_target: str) -> None:
    store = await open_database(postgres_target)
    try:
        await store.execute("CREATE TABLE notes (body TEXT)")
        await store.execute("INSERT INTO notes VALUES ('keep me')")
    finally:
        await store.close()
    with pytest.raises(db.ForeignDatabaseError, match=r"another application \(notes\)"):
        await db.connect(postgres_target)
    conn = await asyncpg.connect(postgres_target)
    try:
        assert await conn.fetchval("SELECT string_agg(body, ',') FROM notes") == "keep me"
        assert await conn.fetchval(f"SELECT to_regclass('{VERSION_TABLE}')") is None
    finally:
        await conn.close()


@pytest.mark.sqlite_only
async def test_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(db.StoreError, match="does not exist"):
        await db.connect(tmp_path / "nowhere" / "doko.sqlite3")


async def test_failing_migration_leaves_the_previous_version(database_target: Target) -> None:
    store = await open_database(database_target)
    try:
        good = Migration(1, "one", "CREATE TABLE a (x INTEGER);")
        bad = Migration(2, "two", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
        with pytest.raises(db.MigrationError, match="0002_two failed"):
            await migrate.upgrade(store, migrations=(good, bad))
        assert await store.schema_version() == 1
        assert await table_names(store) == ["a"]
    finally:
        await store.close()


@pytest.mark.sqlite_only
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


async def test_cli_status_upgrade_on_postgres(
    postgres_target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The CLI runs its own event loop, so it goes to a thread here.
    async def cli(*argv: str) -> int:
        return await asyncio.to_thread(db_main, list(argv))

    assert await cli("status", "--url", postgres_target) == 1
    assert "pending: 0001_base" in capsys.readouterr().out
    assert await cli("upgrade", "--url", postgres_target) == 0
    assert "applied: 0001_base" in capsys.readouterr().out
    assert await cli("status", "--url", postgres_target) == 0
    assert await cli("upgrade", "--url", postgres_target) == 0
    assert "applied" not in capsys.readouterr().out
    assert await cli("check", "--url", postgres_target) == 2
    assert "pg_amcheck" in capsys.readouterr().err
    await set_schema_version(postgres_target, 42)
    assert await cli("status", "--url", postgres_target) == 2
    assert await cli("upgrade", "--url", postgres_target) == 2
    assert "newer doko" in capsys.readouterr().err
    assert await cli("status", "--url", "mysql://nobody@127.0.0.1/doko") == 2
