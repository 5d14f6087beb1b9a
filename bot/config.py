"""Settings from the environment and an optional ``.env`` file, validated up front.

The environment wins over ``.env``. Every problem is collected and reported together, each
with what to put where, so a misconfigured bot stops with one clear message, not a traceback.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from db import is_postgres_url
from db.postgres import redact

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_DATABASE = "doko.sqlite3"


class ConfigError(Exception):
    """One or more settings are missing or malformed; the message lists each fix."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    owner_ids: frozenset[int]
    dev_guild_id: int | None
    log_level: str
    database_url: str | None = None  # PostgreSQL for several processes; None: the SQLite file

    @property
    def database_target(self) -> str | Path:
        return self.database_url or self.database_path

    @property
    def database_shown(self) -> str:
        """Where the data lives, for messages: never with a password."""
        if self.database_url:
            return f"DATABASE_URL={redact(self.database_url)}"
        return f"DATABASE_PATH={self.database_path}"

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments are skipped, quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{path}, line {number}: expected KEY=value, got {raw!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip().removeprefix("export ").strip()] = value
    return values


def _snowflake(text: str) -> int | None:
    return int(text) if text.isdigit() and 0 < int(text) < 2**64 else None


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
) -> Settings:
    """Read and check every setting; raise ConfigError naming each problem and its fix."""
    source = read_dotenv(dotenv) if dotenv is not None else {}
    source.update(os.environ if environ is None else environ)
    where = "in the environment or in .env (see .env.example)"
    problems: list[str] = []

    token = source.get("DISCORD_TOKEN", "").strip()
    if not token:
        problems.append(
            "DISCORD_TOKEN is not set: put DISCORD_TOKEN=<the token from the Discord developer "
            f"portal, Bot → Reset Token> {where}"
        )
    elif any(c.isspace() for c in token):
        problems.append(f"DISCORD_TOKEN contains spaces: copy the token again {where}")

    database = Path(source.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE)
    if database.exists() and database.is_dir():
        problems.append(
            f"DATABASE_PATH={database} is a directory: give a file name such as "
            f"DATABASE_PATH={DEFAULT_DATABASE} {where}"
        )
    elif not database.parent.is_dir() and str(database.parent) != "":
        problems.append(
            f"DATABASE_PATH={database}: the directory {database.parent} does not exist; "
            f"create it or set another DATABASE_PATH {where}"
        )

    url = source.get("DATABASE_URL", "").strip() or None
    if url is not None and not is_postgres_url(url):
        problems.append(
            "DATABASE_URL must be a PostgreSQL URL such as "
            f"postgresql://doko@127.0.0.1:5432/doko (or unset, for SQLite at DATABASE_PATH) {where}"
        )

    owners: set[int] = set()
    for part in source.get("OWNER_IDS", "").replace(" ", "").split(","):
        if not part:
            continue
        owner = _snowflake(part)
        if owner is None:
            problems.append(
                f"OWNER_IDS contains {part!r}: list Discord user ids (numbers), comma-separated, "
                f"e.g. OWNER_IDS=123456789012345678 {where}"
            )
        else:
            owners.add(owner)

    guild_text = source.get("DEV_GUILD_ID", "").strip()
    dev_guild = _snowflake(guild_text) if guild_text else None
    if guild_text and dev_guild is None:
        problems.append(
            f"DEV_GUILD_ID={guild_text!r} is not a guild id: put the server's numeric id "
            f"(or nothing) {where}"
        )

    level = (source.get("LOG_LEVEL", "").strip() or "INFO").upper()
    if level not in LOG_LEVELS:
        problems.append(f"LOG_LEVEL={level!r}: use one of {', '.join(LOG_LEVELS)} {where}")

    if problems:
        raise ConfigError("\n".join(problems))
    return Settings(token, database, frozenset(owners), dev_guild, level, url)
