"""``python -m db status|upgrade|check [--path P]``: inspect, migrate or verify the store.

The path defaults to ``DATABASE_PATH`` from the environment, else ``doko.sqlite3``.
Exit status: 0 fine, 1 something to do or damage found, 2 the file cannot be used.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from db import migrate
from db.database import open_database
from db.errors import StoreError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m db", description=__doc__.splitlines()[0])
    parser.add_argument(
        "command",
        choices=["status", "upgrade", "check"],
        help="status: schema version and pending migrations; upgrade: apply them; "
        "check: run SQLite's integrity check",
    )
    parser.add_argument(
        "--path",
        default=os.environ.get("DATABASE_PATH", "doko.sqlite3"),
        help="the SQLite file (default: $DATABASE_PATH or doko.sqlite3)",
    )
    return parser


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")


async def _run(command: str, path: str) -> int:
    if command != "upgrade" and not Path(path).exists():
        _say(f"{path}: no database (`python -m db upgrade --path {path}` creates it)")
        return 1
    db = await open_database(path)
    try:
        status = await migrate.schema_status(db)
        if command == "status":
            _say(f"{path}: schema version {status.current}, this doko knows {status.latest}")
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
            _say(f"{path}: schema version {await db.schema_version()} (up to date)")
            return 0
        problems = await db.integrity_check()
        _say(f"{path}: integrity check: {'; '.join(problems)}")
        return 0 if problems == ["ok"] else 1
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_run(args.command, args.path))
    except StoreError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
