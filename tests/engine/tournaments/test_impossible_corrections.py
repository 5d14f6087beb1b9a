"""``/doko turnier korrigieren`` takes only points one game can give its four players."""

from __future__ import annotations

import pytest

from bot.engine import EngineError
from bot.render.errors import error_text
from tests.engine.tournaments.conftest import ORGANISER, Site
from tests.engine.tournaments.test_service import create


async def test_points_no_game_gives_are_refused_naming_the_rule(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 4, rounds=1, games_per_round=1)
    await service.begin(tid, ORGANISER)
    await site.play()
    ref = (await service.overview(tid)).results.games[0].ref
    for points, reason in (
        ([2, 1, -1, -2], "impossible_score_shape"),
        ([5, -1, -2, -2], "impossible_score_shape"),
        ([1, 1, 1, 1], "impossible_score_sum"),
    ):
        with pytest.raises(EngineError) as refused:
            await service.correct_seats(tid, ORGANISER, ref, points, "Tippfehler")
        assert refused.value.reason == reason
        assert error_text(refused.value, "de").startswith(("So endet kein Spiel", "Die Punkte"))
    for points in ([3, -1, -1, -1], [-2, 2, 2, -2]):
        entry = await service.correct_seats(tid, ORGANISER, ref, points, "Tippfehler")
        assert [p for _, p in entry.after] == points
    assert [e.reason for e in (await service.overview(tid)).results.audit] == ["Tippfehler"] * 2
    await site.close()
