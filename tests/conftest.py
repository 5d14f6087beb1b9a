"""Fixtures shared by the store's and the engine's tests: a fresh database of either kind.

``database_target`` runs a test twice: on a new SQLite file and on a new, empty schema of
the PostgreSQL database named by ``DOKO_TEST_POSTGRES_URL`` (``.ci/run`` starts a server
and sets it). Without that variable the PostgreSQL half is skipped on a developer's
machine, but fails under CI (``CI`` set): CI must never pass with PostgreSQL untested.

Tests about SQLite itself (files, pragmas, damaged pages, kill -9 on a file) carry the
``sqlite_only`` mark and take ``tmp_path`` instead.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.postgres import scratch_schema

POSTGRES_URL_VARIABLE = "DOKO_TEST_POSTGRES_URL"
DIALECTS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "sqlite_only: about SQLite itself (its files, pragmas, kill -9 on a file); "
        "runs on SQLite alone",
    )


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def postgres_url() -> str:
    """The test server's URL; skips (fails under CI) when there is none."""
    url = os.environ.get(POSTGRES_URL_VARIABLE, "").strip()
    if url:
        return url
    if in_ci():
        pytest.fail(
            f"{POSTGRES_URL_VARIABLE} is not set: CI must run the store's tests on PostgreSQL "
            "too (.ci/run starts a server and sets it)"
        )
    pytest.skip(
        f"PostgreSQL half: {POSTGRES_URL_VARIABLE} is not set (run .ci/run, or start a "
        "server and set it to postgresql://USER@127.0.0.1:PORT/DB)"
    )


@pytest.fixture
async def postgres_target() -> AsyncIterator[str]:
    """A URL into a new, empty PostgreSQL schema, dropped after the test."""
    async with scratch_schema(postgres_url(), "doko_test") as url:
        yield url


@pytest.fixture(params=DIALECTS)
async def database_target(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[str | Path]:
    """What :func:`db.connect` takes: a new SQLite file, or a URL into a new schema."""
    if request.param == "sqlite":
        yield tmp_path / "doko.sqlite3"
        return
    async with scratch_schema(postgres_url(), "doko_test") as url:
        yield url
