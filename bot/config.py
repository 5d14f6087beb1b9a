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
DEFAULT_LEASE_SECONDS = 30.0
SWITCH_ON = ("on", "true", "yes", "1")
SWITCH_OFF = ("off", "false", "no", "0")


class ConfigError(Exception):
    """One or more settings are missing or malformed; the message lists each fix."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    database_url: str | None = None  # PostgreSQL for several processes; None: the SQLite file
    # Sharding: the shards this process runs out of how many. Both None: one unsharded process.
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    # How long a table's claim lasts without renewal: a killed process's tables wait this long.
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    # Card, trick and Spielliste pictures on the messages; off: text and buttons only.
    pictures: bool = True

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process's shards receive the guild's events (Discord's shard formula)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

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

    shard_ids, shard_count = _shards(source, where, problems)
    if shard_count is not None and url is None:
        problems.append(
            "SHARD_COUNT is set but DATABASE_URL is not: several processes must share one "
            f"PostgreSQL database, set DATABASE_URL=postgresql://… {where}"
        )

    lease_text = source.get("TABLE_LEASE_SECONDS", "").strip()
    lease = DEFAULT_LEASE_SECONDS
    if lease_text:
        try:
            lease = float(lease_text)
        except ValueError:
            lease = -1.0
        if not 1.0 <= lease <= 3600.0:
            problems.append(
                f"TABLE_LEASE_SECONDS={lease_text!r}: give seconds between 1 and 3600 "
                f"(default {DEFAULT_LEASE_SECONDS:g}) {where}"
            )

    pictures_text = source.get("PICTURES", "").strip().lower() or "on"
    pictures = pictures_text in SWITCH_ON
    if pictures_text not in SWITCH_ON + SWITCH_OFF:
        problems.append(f"PICTURES={pictures_text!r}: use on or off (default on) {where}")

    if problems:
        raise ConfigError("\n".join(problems))
    return Settings(
        token,
        database,
        dev_guild,
        level,
        url,
        shard_ids,
        shard_count,
        lease,
        pictures,
    )


def _shards(
    source: Mapping[str, str], where: str, problems: list[str]
) -> tuple[tuple[int, ...] | None, int | None]:
    """``SHARD_IDS``/``SHARD_COUNT``: both absent (unsharded) or both valid together."""
    ids_text = source.get("SHARD_IDS", "").replace(" ", "").strip(",")
    count_text = source.get("SHARD_COUNT", "").strip()
    if not ids_text and not count_text:
        return None, None
    example = "e.g. SHARD_COUNT=2 and SHARD_IDS=0 for the first process, SHARD_IDS=1 for the second"
    if not count_text or not ids_text:
        missing = "SHARD_COUNT" if not count_text else "SHARD_IDS"
        problems.append(f"set SHARD_IDS and SHARD_COUNT together ({missing} is missing), {example}")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        problems.append(f"SHARD_COUNT={count_text!r}: give the total number of shards, {example}")
        return None, None
    count = int(count_text)
    ids: list[int] = []
    for part in ids_text.split(","):
        if not part.isdigit() or int(part) >= count:
            problems.append(
                f"SHARD_IDS contains {part!r}: list shard numbers from 0 to {count - 1}, "
                f"comma-separated, {example} {where}"
            )
        elif int(part) in ids:
            problems.append(f"SHARD_IDS lists {part} twice {where}")
        else:
            ids.append(int(part))
    return tuple(sorted(ids)), count
