"""``python -m db COMMAND [--path P | --url U]``: inspect, migrate, verify or repair the store.

The commands: ``status``, ``upgrade``, ``check`` and ``rebuild-ratings`` (replay every
finished game into the per-server ratings, as the upgrade to schema version 14 does).

Without either option the store is ``DATABASE_URL`` (PostgreSQL) when set, else
``DATABASE_PATH``, else ``doko.sqlite3``. ``check`` is SQLite's integrity check.
Exit status: 0 fine, 1 something to do or damage found, 2 the store cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from db import migrate, ratings
from db.connect import is_postgres_url, open_database, target_from_env
from db.errors import StoreError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m db", description=__doc__.splitlines()[0])
    parser.add_argument(
        "command",
        choices=["status", "upgrade", "check", "rebuild-ratings"],
        help="status: schema version and pending migrations; upgrade: apply them; "
        "check: run SQLite's integrity check; rebuild-ratings: replay every finished game "
        "into the per-server ratings",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--path", help="a SQLite file")
    where.add_argument("--url", help="a PostgreSQL database (postgresql://USER@HOST:PORT/NAME)")
    return parser


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")


async def _run(command: str, target: str) -> int:
    postgres = is_postgres_url(target)
    if command != "upgrade" and not postgres and not Path(target).exists():
        _say(f"{target}: no database (`python -m db upgrade --path {target}` creates it)")
        return 1
    db = await open_database(target)
    where = db.path  # the URL without its password
    try:
        status = await migrate.schema_status(db)
        if command == "status":
            _say(f"{where}: schema version {status.current}, this doko knows {status.latest}")
            if status.too_new:
                _say("the database is newer than this doko: upgrade doko before using it")
                return 2
            for migration in status.pending:
                _say(f"pending: {migration.version:04d}_{migration.name}")
            return 1 if status.pending else 0
        if command == "upgrade":
            applied = await migrate.upgrade(db)
            for migration in applied:
                _say(f"applied: {migration.version:04d}_{migration.name}")
            _say(f"{where}: schema version {await db.schema_version()} (up to date)")
            return 0
        if command == "rebuild-ratings":
            await migrate.require_current(db)
            _say(f"{where}: ratings replayed from {await ratings.rebuild(db)} games")
            return 0
        problems = await db.integrity_check()
        _say(f"{where}: integrity check: {'; '.join(problems)}")
        return 0 if problems == ["ok"] else 1
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        if args.url is not None and not is_postgres_url(args.url):
            raise StoreError("--url must start with postgresql:// (for a file use --path)")
        target = args.url or args.path or target_from_env()
        return asyncio.run(_run(args.command, target))
    except StoreError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
