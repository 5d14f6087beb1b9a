"""Fixtures of the render tests; the helpers they use are in helpers.py."""

from __future__ import annotations

import pytest

from bot.render.texts import Lang


@pytest.fixture(params=["de", "en"])
def lang(request: pytest.FixtureRequest) -> Lang:
    """Each test taking ``lang`` runs once in German and once in English."""
    value: Lang = request.param
    return value
