"""One language per reader, through the loopback Discord: public messages in the guild's
preferred locale (the interactions carry ``guild_locale``), private answers in the user's.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from bot.render.texts import t
from bot.render.turnier import tt
from tests.discord.conftest import World, message_text
from tests.discord.driver import play_turn
from tests.fakediscord import Message

ENGLISH = "en-US"


async def three_bots_and_start(world: World, table_id: int) -> None:
    host = world.users[0]
    for _ in range(3):
        await world.click(host, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(host, world.lobby(), "doko:start:")


async def play_one_game(world: World, table_id: int) -> None:
    while not world.engine.table(table_id).spielliste:
        assert await play_turn(world, table_id)
    await world.settle()


def button_labels(message: Message) -> set[str]:
    return {c.get("label", "") for c in message.iter_components()}


async def test_an_english_guild_gets_english_table_messages_a_german_player_german_dms(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",))  # anna reads German
    world.guild.locale = ENGLISH
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    lobby = world.lobby()
    assert t("en", "btn_join") in button_labels(lobby)
    assert t("en", "seats") in message_text(lobby)
    await three_bots_and_start(world, table_id)
    await play_one_game(world, table_id)
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert finals and t("en", "spielwert") in message_text(finals[0])
    assert t("de", "spielwert") + "\n" not in message_text(finals[0])
    # Her hand is private: in her language.
    dms = world.hand_dms(anna)
    assert any(m.content.startswith("**Tisch ") for m in dms)
    assert not any("**Table " in m.content for m in dms)
    # A refusal only she sees: German.
    ix = await world.run(anna, "tisch")
    assert await world.answer_text(ix) == t("de", "err_table_exists")


async def test_a_german_guild_keeps_german_tables_for_an_english_host(make_world: Any) -> None:
    world: World = await make_world(names=("anna",), locales={"anna": ENGLISH})
    anna = world.users[0]
    await world.open_table(anna, spiele=1)
    lobby = world.lobby()
    assert t("de", "btn_join") in button_labels(lobby)
    assert t("en", "btn_join") not in button_labels(lobby)
    # Her own answers are English: the table exists already.
    ix = await world.run(anna, "tisch")
    assert await world.answer_text(ix) == t("en", "err_table_exists")


async def test_stand_shows_the_round_and_exports_csv_and_json(make_world: Any) -> None:
    world: World = await make_world(names=("anna",), locales={"anna": ENGLISH})
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=3, regeln="ohne_pflichtsolo")
    await three_bots_and_start(world, table_id)
    await play_one_game(world, table_id)
    ix = await world.run(anna, "stand")
    text = await world.answer_text(ix)
    assert t("de", "sl_value") in text and "anna" in text  # public: the guild's German
    ix = await world.run(anna, "stand", dateien=True)
    message = ix.original or await world.fake.followup(ix)
    assert message.ephemeral_to is anna
    assert t("en", "stand_files", table=table_id) in message.content  # private: hers
    files = {a.filename: a.data.decode() for a in message.attachments}
    assert set(files) == {f"spielliste-{table_id}.csv", f"spielliste-{table_id}.json"}
    rows = list(csv.reader(io.StringIO(files[f"spielliste-{table_id}.csv"])))
    assert rows[0][0] == t("en", "sl_number") and "anna" in rows[0]
    assert len(rows) == 2  # one game played
    data = json.loads(files[f"spielliste-{table_id}.json"])
    assert [g["number"] for g in data["games"]] == [1]
    assert data["players"][0] == {"seat": 1, "name": "anna", "bot": False}


async def test_abrechnen_refuses_in_the_users_language_with_seats_from_one(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna", "ben"), locales={"ben": ENGLISH})
    anna, ben = world.users
    cases = [
        ({"vertrag": "normal", "re_plaetze": "1,5"}, "score_bad_seats"),
        ({"vertrag": "normal", "re_plaetze": "x"}, "score_bad_seats"),
        ({"vertrag": "normal", "re_plaetze": "2"}, "score_bad_seat_count"),
        ({"vertrag": "solo_damen", "re_plaetze": "1,2"}, "score_bad_seat_count_solo"),
        ({"vertrag": "normal", "re_plaetze": "1,2", "sonderpunkte": "fux:re"}, "score_bad_special"),
    ]
    for user, lang in ((anna, "de"), (ben, "en")):
        for options, key in cases:
            ix = await world.run(user, "abrechnen", re_augen=130, re_stiche=6, **options)
            assert await world.answer_text(ix) == t(lang, key), options  # type: ignore[arg-type]
        ix = await world.run(
            user, "abrechnen", vertrag="normal", re_plaetze="1,2", re_augen=10, re_stiche=0
        )
        expected = t(lang, "score_bad_tricks", augen=10, tricks=0)  # type: ignore[arg-type]
        assert await world.answer_text(ix) == expected


async def test_tournament_posts_speak_the_guilds_language(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))  # anna reads German
    world.guild.locale = ENGLISH
    anna = world.users[0]
    ix = await world.run(anna, "turnier erstellen", name="Herbst", runden=1, spiele=2)
    text = await world.answer_text(ix)
    # Public: English, the preset by its name, not its key.
    assert text.startswith("Tournament **Herbst**") and "DDV" in text and "ddv" not in text
    ix = await world.run(anna, "turnier anmelden")
    assert await world.answer_text(ix) == tt("de", "registered", name="Herbst")  # private
    ix = await world.run(anna, "turnier teilnehmer")
    assert tt("en", "field", count=1) in await world.answer_text(ix)


# 200 games post 200 table messages in one channel: at Discord's 5 per 5 s that is over
# three minutes, so Discord's limits run 20 times faster here.
@pytest.mark.fake_rate_limits(time_scale=0.05)
async def test_a_long_round_ends_with_its_whole_spielliste_attached(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    games = 200  # the most a table plays: more than a final message can hold
    table_id = await world.open_table(anna, spiele=games, regeln="ohne_pflichtsolo")
    await three_bots_and_start(world, table_id)
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    # Anna steps away: a bot plays her seat, and the round plays itself out.
    table_message = await world.fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(world.fake.channel_messages(world.channel))
                if any(c.startswith("doko:pause:") for c in m.custom_ids)
            ),
            None,
        ),
        5,
        "the game's table message",
    )
    await world.click(anna, table_message, "doko:pause:")
    await world.fake.wait_for(
        lambda: world.engine.find_table(world.guild.id, world.channel.id) is None,
        120,
        "the round's end",
    )
    await world.settle()
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == games
    last = finals[-1]
    assert t("de", "spielliste_file", games=games) in message_text(last)
    # The whole list as a text file, beside the pictures of the game's end and the chart.
    listed = last.attachment(f"spielliste-{table_id}.txt")
    assert listed is not None, [a.filename for a in last.attachments]
    text = listed.data.decode()
    numbers = [int(line.split()[0]) for line in text.splitlines() if line[:4].strip().isdigit()]
    assert numbers == list(range(1, games + 1))
    # The early games' final messages hold their Spielliste themselves.
    assert all(a.filename.endswith(".png") for a in finals[0].attachments)
    assert "```" in message_text(finals[0])
