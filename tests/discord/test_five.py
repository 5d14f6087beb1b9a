"""A five-player table through the loopback Discord: the dealer sits out each game."""

from __future__ import annotations

import json
from typing import Any

from tests.discord.conftest import GAME_MARKER, World, message_text, seed_list
from tests.discord.driver import play_turn


async def test_one_human_and_four_ais_at_a_five_player_table(make_world: Any) -> None:
    # Seed 5 draws seat 4 as the first dealer, so anna (seat 0) sits out game 2, not the last.
    world: World = await make_world(names=("anna",), seeds=seed_list(5, 11, 12, 13, 14, 15))
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=5, regeln="ohne_pflichtsolo", plaetze=5)
    lobby = world.lobby()
    assert "Platz 5: frei" in message_text(lobby) and "5 Plätze" in message_text(lobby)
    for _ in range(4):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "four bots"
    )
    info = world.engine.table(table_id)
    assert info.size == 5
    await world.settle()
    # Full: no more joining or bots.
    full = world.lobby()
    for component in full.iter_components():
        if component.get("custom_id", "").startswith(("doko:join:", "doko:addai:")):
            assert component.get("disabled"), component
    await world.click(anna, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).sitting_out == 4, 3, "the first deal"
    )
    while await play_turn(world, table_id):
        pass
    await world.settle()
    assert world.engine.find_table(world.guild.id, world.channel.id) is None  # session over

    finals = [
        message_text(m)
        for m in world.fake.channel_messages(world.channel)
        if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 5
    # Five games, five dealers: everyone sat out once, and the table said who.
    out_lines = [line for text in finals for line in text.splitlines() if "setzt in" in line]
    assert len(out_lines) == 5 and sum("anna" in line for line in out_lines) == 1
    # The Spielliste has a column per table seat.
    block = finals[-1].split("Spielliste", 1)[1]
    rows = [line.split() for line in block.splitlines() if line[:4].strip().isdigit()]
    assert len(rows) == 5 and all(len(row) == 1 + 5 + 1 for row in rows)  # #, totals, value
    assert sum(int(total) for total in rows[-1][1:6]) == 0
    assert "Danke fürs Spielen" in finals[-1]

    # anna's DMs: one per game, a hand in each game she played and a note without cards
    # for the one she dealt; once each game is over, its result.
    dms = world.hand_dms(anna)
    games = [GAME_MARKER.search(message_text(m))[1] for m in dms]  # type: ignore[index]
    assert len(games) == len(set(games)) == 5, [message_text(m) for m in dms]
    assert all("Das Spiel ist vorbei." in m.content for m in dms)
    notes = [m for m in dms if "Du hast ausgesetzt: 0 Punkte" in message_text(m)]
    assert len(notes) == 1 and not notes[0].custom_ids

    # Sitting out is no game played: four games in the leaderboard.
    ix = await world.run(anna, "rangliste")
    assert "4 Spiele" in await world.answer_text(ix)
    # The export names the four who played the last game (and who sat out).
    ix = await world.run(anna, "export")
    message = await world.fake.followup(ix)
    record = json.loads(message.attachments[0].data)
    meta = record["meta"]
    assert len(meta["players"]) == 4 and len(record["hands"]) == 4
    seats = [p["table_seat"] for p in meta["players"]] + [meta["sitting_out"]["table_seat"]]
    assert sorted(seats) == [0, 1, 2, 3, 4]
    assert "anna" in [p["name"] for p in meta["players"]] + [meta["sitting_out"]["name"]]
