"""The tournament service on real SQLite files: rounds, Vorführen, restarts, corrections."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta

import pytest

from bot.engine import EngineError
from bot.rules.round import SoloKind
from bot.tournament import GameRef, Substitute
from tests.engine.tournaments.conftest import CHANNEL, GUILD, ORGANISER, Site


async def create(site: Site, players: int, **options: object) -> int:
    service = site.service
    assert service is not None
    tournament = await service.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser_id=ORGANISER,
        organiser_name="Orga",
        name="Herbstturnier",
        **options,  # type: ignore[arg-type]
    )
    for user_id in range(101, 101 + players):
        await service.register(tournament.id, user_id, f"P{user_id}")
    return tournament.id


async def test_a_player_who_never_declares_a_solo_is_vorgefuehrt_at_the_end(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 4, rounds=1, games_per_round=6)
    site.shy = {104}
    await service.begin(tid, ORGANISER)
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "finished"
    check = await service.table_check(tid, 1, 1)
    assert check.ok, check.problems
    sheet = view.listed[(1, 1)]
    # Three Pflichtsoli (no slot taken), six games of the round, the last one vorgeführt.
    assert [g.solo_kind for g in sheet].count(SoloKind.PFLICHT) == 3
    assert len(sheet) == 9 and sheet[-1].solo_kind is SoloKind.VORGEFUEHRT
    table = view.tables[0]
    assert sheet[-1].soloist is not None and table.seats[sheet[-1].soloist] == 104
    assert all(g.solo_kind is not SoloKind.VORGEFUEHRT for g in sheet[:-1])
    rows = {r.participant: r for r in view.standings()}
    assert rows[104].vorgefuehrt == 1 and rows[104].solos == 1 and rows[104].games == 9
    assert sum(r.points for r in rows.values()) == 0


async def test_rounds_seat_the_field_with_substitutes_and_rank_it(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 6, rounds=2, games_per_round=2)
    with pytest.raises(EngineError) as refused:
        await service.begin(tid, 102)
    assert refused.value.reason == "not_organiser"
    await service.begin(tid, ORGANISER)
    view = await service.overview(tid)
    assert [t.number for t in view.tables] == [1, 2]
    seated = [p for t in view.tables for p in t.seats]
    assert sorted(p for p in seated if isinstance(p, int)) == list(range(101, 107))
    assert sorted(p for p in seated if isinstance(p, Substitute)) == [Substitute(1), Substitute(2)]
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "finished" and view.tournament.current_round == 2
    assert len(site.threads.opened) == 4
    for t in view.tables:
        assert (await service.table_check(tid, t.round_number, t.number)).ok
    rows = view.standings()
    assert {r.participant for r in rows} == set(range(101, 107))  # substitutes are not ranked
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for a, b in itertools.pairwise(rows):
        assert (a.rank == b.rank) == (a.points == b.points)
    text = await service.results_csv(tid)
    assert text.splitlines()[0] == "rank,player,player_id,points,games,won,solos,vorgefuehrt"
    assert len(text.splitlines()) == 7 and "P101" in text


async def test_a_correction_is_kept_in_the_audit_log_and_changes_the_standings(
    site: Site,
) -> None:
    service = await site.open()
    tid = await create(site, 4, rounds=1, games_per_round=1)
    await service.begin(tid, ORGANISER)
    await site.play()
    view = await service.overview(tid)
    game = view.results.games[0]
    new = {p: 0 for p, _ in game.scores}
    with pytest.raises(EngineError) as refused:
        await service.correct(tid, ORGANISER, game.ref, new, "  ")
    assert refused.value.reason == "bad_correction"
    entry = await service.correct(tid, ORGANISER, game.ref, new, "Karten falsch gezählt")
    assert entry.before == game.scores and entry.reason == "Karten falsch gezählt"
    await site.close()
    service = await site.open()
    view = await service.overview(tid)
    assert [a.reason for a in view.results.audit] == ["Karten falsch gezählt"]
    assert view.results.game(GameRef(1, 1, game.ref.game)).scores == tuple(new.items())


async def test_replace_puts_a_substitute_on_the_seat_from_the_running_game(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 4, rounds=2, games_per_round=2)
    await service.begin(tid, ORGANISER)
    for _ in range(10):
        await site.step()
    substitute = await service.replace(tid, ORGANISER, 103)
    assert substitute == Substitute(1)
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "finished"
    assert [e.status for e in view.entrants if e.user_id == 103] == ["replaced"]
    round2 = next(t for t in view.tables if t.round_number == 2)
    assert 103 not in round2.seats and any(isinstance(p, Substitute) for p in round2.seats)
    first = next(g for g in view.results.games if g.ref == GameRef(1, 1, 1))
    assert Substitute(1) in first.players and 103 not in first.players


async def test_a_restart_rearms_the_start_timer_and_running_tables_play_on(site: Site) -> None:
    service = await site.open()
    assert site.engine is not None
    starts = site.engine.clock() + timedelta(seconds=0.6)
    tid = await create(site, 5, rounds=2, games_per_round=2, starts_at=starts)
    await site.close()
    # The timer fires in the new process.
    service = await site.open(seeds=None)
    assert (await service.get(tid)).status == "open"
    await asyncio.sleep(0.8)
    await site.settle()
    view = await service.overview(tid)
    # Five players sit at one five-player table (the dealer sits out), no substitutes.
    assert view.tournament.status == "running" and len(view.tables) == 1
    assert sorted(view.tables[0].seats) == list(range(101, 106))  # type: ignore[type-var]
    for _ in range(30):
        await site.step()
    await site.close()
    service = await site.open()
    assert site.engine is not None
    assert len([t for t in site.engine.open_tables() if t.status == "playing"]) >= 1
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "finished" and view.tournament.current_round == 2
    for t in view.tables:
        assert (await service.table_check(tid, t.round_number, t.number)).ok


async def test_pause_holds_the_next_round_and_end_stops_after_the_round(site: Site) -> None:
    service = await site.open()
    tid = await create(site, 4, rounds=3, games_per_round=1)
    await service.begin(tid, ORGANISER)
    await service.pause(tid, ORGANISER)
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "paused" and view.tournament.current_round == 1
    assert all(t.finished for t in view.tables)
    await service.begin(tid, ORGANISER)  # resumes: round 2 is seated
    assert (await service.get(tid)).current_round == 2
    await service.end(tid, ORGANISER)
    await site.play()
    view = await service.overview(tid)
    assert view.tournament.status == "finished" and view.tournament.current_round == 2
    for t in view.tables:  # every Pflichtsolo was played before the tables closed
        assert (await service.table_check(tid, t.round_number, t.number)).ok


async def test_the_organisers_bots_and_absence_rule_hold_at_every_table(site: Site) -> None:
    service = await site.open()
    tid = await create(
        site, 6, rounds=1, games_per_round=2, ai_level="schwer", disconnect_policy="warten"
    )
    row = (await service.overview(tid)).tournament
    assert (row.ai_level, row.disconnect_policy) == ("schwer", "warten")
    await service.begin(tid, ORGANISER)
    await site.settle()
    assert site.engine is not None
    ids = [t.table_id for t in (await service.overview(tid)).tables]
    assert len(ids) == 2
    tables = [site.engine.table(i) for i in ids if i is not None]
    # Six players at two tables: two substitutes fill the second, at the organiser's level.
    assert {t.ai_level for t in tables} == {"schwer"}
    assert {t.disconnect_policy for t in tables} == {"warten"}
    bots = [s.ai_level for t in tables for s in t.seats if s is not None and s.is_ai]
    assert bots == ["schwer", "schwer"]


async def test_an_unknown_bot_level_or_absence_rule_is_refused(site: Site) -> None:
    await site.open()
    for options, reason in (
        ({"ai_level": "genial"}, "bad_level"),
        ({"disconnect_policy": "egal"}, "bad_policy"),
    ):
        with pytest.raises(EngineError) as refused:
            await create(site, 0, rounds=1, **options)
        assert refused.value.reason == reason
