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
                "OWNER_IDS": "12,abc",
                "LOG_LEVEL": "LOUD",
                "DATABASE_PATH": str(tmp_path / "missing" / "doko.sqlite3"),
            },
            dotenv=None,
        )
    text = str(err.value)
    for fragment in ("DISCORD_TOKEN", "DATABASE_URL", "OWNER_IDS", "LOG_LEVEL", "does not exist"):
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
