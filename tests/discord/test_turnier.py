"""A tournament of eight through the loopback Discord: register, start, two tables in
threads, play, results, CSV export.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from aiohttp import web

from bot.discord import settings as server
from tests.discord.conftest import World, message_text
from tests.discord.driver import play_turn
from tests.fakediscord import Channel
from tests.fakediscord.server import _json, _Req

PUBLIC_THREAD = 11


def serve_threads(world: World) -> list[Channel]:
    """Teach this fake Discord ``POST /channels/{id}/threads`` (a thread without a message).

    The fake does not model threads yet; a thread is a guild channel with a parent here.
    """
    fake, threads = world.fake, []

    async def create_thread(req: _Req) -> web.Response:
        parent = fake.channels[int(req.params["channel_id"])]
        thread = Channel(
            fake.snowflake(), PUBLIC_THREAD, req.body["name"], guild=parent.guild, parent=parent
        )
        fake.channels[thread.id] = thread
        threads.append(thread)
        fake._dispatch("THREAD_CREATE", {**thread.to_json(), "newly_created": True}, parent.guild)
        return _json(
            {
                "id": str(thread.id),
                "type": PUBLIC_THREAD,
                "guild_id": str(world.guild.id),
                "parent_id": str(parent.id),
                "owner_id": str(fake.bot_user.id),
                "name": thread.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": req.body.get("auto_archive_duration", 1440),
                    "archive_timestamp": "2025-01-01T00:00:00+00:00",
                    "locked": False,
                },
            },
            201,
        )

    fake._handlers["POST /channels/{channel_id}/threads"] = create_thread
    return threads


async def test_a_tournament_of_eight_in_two_threads(make_world: Any) -> None:
    names = ("anna", "ben", "clara", "dirk", "emil", "fiona", "gerd", "hanna")
    world: World = await make_world(names=names)
    threads = serve_threads(world)
    anna, ben, *others = world.users
    ix = await world.run(anna, "turnier erstellen", name="Herbstturnier", runden=1, spiele=4)
    assert "Herbstturnier" in await world.answer_text(ix)
    for user in world.users:
        ix = await world.run(user, "turnier anmelden")
        assert "angemeldet" in await world.answer_text(ix)
    ix = await world.run(anna, "turnier teilnehmer")
    assert "Teilnehmer (8)" in await world.answer_text(ix)
    ix = await world.run(anna, "turnier starten")
    assert "Runde 1" in await world.answer_text(ix)
    await world.settle()  # the hands are out (the request budget may queue them) before
    # the no-shows are replaced: a hand in flight then is flagged by the leak check
    service = world.bot.tournaments
    assert service is not None
    view = await service.overview(1)
    assert len(view.tables) == 2 and len(threads) == 2
    assert {t.channel_id for t in view.tables} == {t.id for t in threads}
    # Eight registered: 2 tables of 4. Six no-shows are replaced by AI substitutes.
    for user in others:
        ix = await world.run(anna, "turnier ersetzen", spieler=user)
        assert "vertreten" in await world.answer_text(ix)
    table_ids = [t.table_id for t in view.tables]
    for table_id in table_ids:
        assert table_id is not None
        while await play_turn(world, table_id):
            pass
    await world.settle()
    await service.idle()
    await world.settle()
    view = await service.overview(1)
    assert view.tournament.status == "finished"
    # Each table played in its thread and got its Spielliste with the Pflichtsolo column.
    for thread in threads:
        texts = [message_text(m) for m in world.fake.channel_messages(thread)]
        assert any("Spielwert" in t for t in texts)
        assert any("Spielliste · Runde 1" in t and "Solo" in t for t in texts)
        # Each game's protocol, in the table's own thread (Discord starts no thread in one).
        assert sum("Protokoll · Tisch" in t for t in texts) == 4
    posted = "\n".join(message_text(m) for m in world.fake.channel_messages(world.channel))
    assert "Runde 1" in posted and "Endstand" in posted
    ix = await world.run(ben, "turnier ergebnis", runde=1)
    text = await world.answer_text(ix)
    assert "anna" in text and "ben" in text and "Tisch 2" in text
    ix = await world.run(ben, "turnier export")
    message = await world.fake.followup(ix)
    assert message.ephemeral_to is ben and message.attachments
    rows = list(csv.reader(io.StringIO(message.attachments[0].data.decode())))
    assert rows[0][:4] == ["rank", "player", "player_id", "points"]
    assert {r[1] for r in rows[1:]} == {"anna", "ben"}  # the others were replaced at once
    assert (
        sum(int(r[3]) for r in rows[1:])
        + sum(p for g in view.results.games for s, p in g.scores if not isinstance(s, int))
        == 0
    )
    doko = next(c for c in world.fake.commands() if c["name"] == "doko")
    group = next(o for o in doko["options"] if o["name"] == "turnier")
    assert group["name_localizations"]["en-US"] == "tournament"
    assert {o["name"] for o in group["options"]} >= {"erstellen", "korrigieren", "beenden"}


async def test_a_tournament_takes_the_servers_bots_and_absence_rule_unless_chosen(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna", "ben"), locales={"ben": "en-GB"})
    anna, ben = world.users
    await server.save(
        world.bot.db, world.guild.id, {"ai_level": "schwer", "disconnect_policy": "verloren"}
    )
    service = world.bot.tournaments
    assert service is not None
    ix = await world.run(anna, "turnier erstellen", name="Herbstturnier", runden=1)
    assert "Bots: schwer · Bei Abwesenheit: Spiel verloren" in await world.answer_text(ix)
    first = (await service.overview(1)).tournament
    assert (first.ai_level, first.disconnect_policy) == ("schwer", "verloren")
    ix = await world.run(ben, "turnier teilnehmer")
    assert "Bots: schwer" in await world.answer_text(ix)  # the overview says it as well

    ix = await world.run(
        anna, "turnier erstellen", name="Winter", runden=1, bots="leicht", bei_abwesenheit="warten"
    )
    assert "Bei Abwesenheit: Tisch wartet" in await world.answer_text(ix)
    second = (await service.overview(2)).tournament
    assert (second.ai_level, second.disconnect_policy) == ("leicht", "warten")
