"""Settings: every problem named with its fix; .env read; the database chosen."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings, read_dotenv

TOKEN = "abc.def.ghi"


def test_defaults_use_sqlite(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, dotenv=None)
    assert settings.database_url is None
    assert str(settings.database_target) == "doko.sqlite3"
    assert settings.log_level == "INFO"


def test_database_url_picks_postgresql_and_hides_the_password() -> None:
    url = "postgresql://doko:secret@127.0.0.1:5432/doko"
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url}, dotenv=None)
    assert settings.database_target == url
    assert "secret" not in settings.database_shown


def test_every_problem_is_named_with_its_fix(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_settings(
            {
                "DATABASE_URL": "mysql://x",
                "DEV_GUILD_ID": "12x",
                "LOG_LEVEL": "LOUD",
                "DATABASE_PATH": str(tmp_path / "missing" / "doko.sqlite3"),
            },
            dotenv=None,
        )
    text = str(err.value)
    for fragment in (
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "does not exist",
    ):
        assert fragment in text


def test_dotenv_is_read_and_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text('# comment\nDISCORD_TOKEN="from.dot.env"\nexport LOG_LEVEL=debug\n')
    assert read_dotenv(env) == {"DISCORD_TOKEN": "from.dot.env", "LOG_LEVEL": "debug"}
    settings = load_settings({"LOG_LEVEL": "WARNING"}, dotenv=env)
    assert settings.token == "from.dot.env" and settings.log_level == "WARNING"
    env.write_text("no equals sign here\n")
    with pytest.raises(ConfigError, match="line 1"):
        read_dotenv(env)


def test_no_shard_settings_means_one_unsharded_process() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, dotenv=None)
    assert not settings.sharded and settings.shard_ids is None
    assert settings.owns_guild(123 << 22)


def test_shard_settings_pick_the_guilds_of_this_process() -> None:
    settings = load_settings(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": "postgresql://doko@127.0.0.1/doko",
            "SHARD_IDS": "2, 0",
            "SHARD_COUNT": "3",
            "TABLE_LEASE_SECONDS": "10",
        },
        dotenv=None,
    )
    assert settings.sharded and settings.shard_ids == (0, 2) and settings.shard_count == 3
    assert settings.lease_seconds == 10
    # Discord's formula: (guild_id >> 22) % shard_count.
    assert [settings.owns_guild(n << 22) for n in range(6)] == [True, False, True] * 2


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_COUNT is missing"),
        ({"SHARD_COUNT": "2"}, "SHARD_IDS is missing"),
        ({"SHARD_IDS": "2", "SHARD_COUNT": "2"}, "SHARD_IDS contains '2'"),
        ({"SHARD_IDS": "0,x", "SHARD_COUNT": "2"}, "SHARD_IDS contains 'x'"),
        ({"SHARD_IDS": "1,1", "SHARD_COUNT": "2"}, "lists 1 twice"),
        ({"SHARD_IDS": "0", "SHARD_COUNT": "0"}, "SHARD_COUNT='0'"),
        ({"TABLE_LEASE_SECONDS": "soon"}, "TABLE_LEASE_SECONDS='soon'"),
    ],
)
def test_bad_shard_settings_say_what_to_put(values: dict[str, str], fragment: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://doko@127.0.0.1/doko", **values}
    with pytest.raises(ConfigError) as err:
        load_settings(env, dotenv=None)
    assert fragment in str(err.value)


def test_sharding_needs_a_shared_database() -> None:
    with pytest.raises(ConfigError) as err:
        load_settings({"DISCORD_TOKEN": TOKEN, "SHARD_IDS": "0", "SHARD_COUNT": "2"}, dotenv=None)
    assert "DATABASE_URL" in str(err.value)


def test_unreachable_discord_is_one_clear_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_PATH": str(tmp_path / "doko.sqlite3"),
        # a closed port on loopback: the connection is refused at once
        "DOKO_DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
    }
    env.pop("DATABASE_URL", None)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert "cannot reach Discord" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_pictures_are_on_unless_switched_off() -> None:
    assert load_settings({"DISCORD_TOKEN": TOKEN}, dotenv=None).pictures is True
    off = load_settings({"DISCORD_TOKEN": TOKEN, "PICTURES": "off"}, dotenv=None)
    assert off.pictures is False
    with pytest.raises(ConfigError, match="PICTURES='sometimes'"):
        load_settings({"DISCORD_TOKEN": TOKEN, "PICTURES": "sometimes"}, dotenv=None)
