"""Pictures through the loopback Discord: the hand DM and the table message carry them as
files with alt texts, the final message and the end of the round too, /doko stand its chart;
with pictures off, none. (The session-wide leak check reads the alt texts as well.)
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.discord.pictures import edit_files, picture_key
from bot.render.pictures import Picture
from bot.rules.game import Phase
from tests.discord.conftest import World, message_text
from tests.discord.driver import play_game, play_turn
from tests.fakediscord import Message


def png_size(message: Message, filename: str) -> tuple[int, int]:
    attachment = message.attachment(filename)
    assert attachment is not None, (filename, message.attachments)
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG"
    return image.size


async def one_human_table(world: World, games: int) -> int:
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=games, regeln="ohne_pflichtsolo")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    return table_id


def table_message(world: World, table_id: int) -> Message:
    return next(
        m
        for m in reversed(world.fake.channel_messages(world.channel))
        if any(c.startswith(f"doko:hand:{table_id}:") for c in m.custom_ids)
    )


async def play_until_cards_lie(world: World, table_id: int) -> None:
    """Anna acts until the play has begun and a card lies on the table."""
    for _ in range(40):
        pv = world.engine.table(table_id).public
        if pv is not None and pv.phase is Phase.PLAY and (pv.current_trick or pv.tricks):
            return
        assert await play_turn(world, table_id)
    raise AssertionError("no card was played")


async def test_hand_table_final_and_stand_carry_pictures(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    anna = world.users[0]
    table_id = await one_human_table(world, games=2)
    await play_until_cards_lie(world, table_id)
    await world.settle()

    # The hand DM: the picture with the card buttons, its alt text naming her cards.
    hand = await world.current_hand(anna, table_id)
    assert hand.attachment("hand.png") is not None
    width, height = png_size(hand, "hand.png")
    assert width >= 100 and 80 <= height <= 200
    alt = hand.attachment("hand.png").description or ""  # type: ignore[union-attr]
    assert alt.startswith("Deine Karten (")
    assert any(c.startswith(f"doko:card:{table_id}:") for c in hand.custom_ids)
    assert "Spiel" in hand.content  # the text stays

    # The table message: the trick picture as the embed's image, with alt text.
    table = table_message(world, table_id)
    shown = table.embed_image(0)
    assert shown is not None and shown.filename == "tisch.png"
    assert (shown.description or "").startswith("Aktueller Stich")
    png_size(table, "tisch.png")

    await play_game(world, table_id)
    await world.settle()
    # The final message: the last trick and the Spielwert as its picture.
    finals = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ]
    assert len(finals) == 1
    final = finals[0].embed_image(0)
    assert final is not None and final.filename == "ende.png"
    assert "Letzter Stich" in (final.description or "")

    # /doko stand: the Spielliste and its chart.
    ix = await world.run(anna, "stand")
    answer = await world.fake.wait_for(lambda: ix.original or next(iter(ix.followups), None), 3)
    chart = answer.embed_image(0)
    assert chart is not None and chart.filename == "spielliste.png"
    assert "Stand nach 1 Spielen" in (chart.description or "")

    # The end of the round: the final message carries the chart too.
    await play_game(world, table_id)
    await world.settle()
    last = [
        m for m in world.fake.channel_messages(world.channel) if "Spielwert" in message_text(m)
    ][-1]
    assert last.embed_image(0) is not None and last.embed_image(1) is not None
    assert last.embed_image(1).filename == "spielliste.png"  # type: ignore[union-attr]


async def test_the_table_picture_is_not_uploaded_again_when_nothing_changed(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",))
    table_id = await one_human_table(world, games=1)
    await play_until_cards_lie(world, table_id)
    await world.settle()
    table = table_message(world, table_id)
    before = len(world.fake.requests)
    cog: Any = world.bot.get_cog("Doko")
    state = cog.presenter.tables[table_id]
    state.job.mark()  # a render of the same state: the same payload key, no request
    await world.settle()
    edits = [
        r for r in world.fake.requests[before:] if r.method == "PATCH" and str(table.id) in r.path
    ]
    assert edits == []


async def test_pictures_off_sends_none(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    cog: Any = world.bot.get_cog("Doko")
    cog.presenter.pictures.enabled = False  # as PICTURES=off sets it
    anna = world.users[0]
    table_id = await one_human_table(world, games=1)
    await play_until_cards_lie(world, table_id)
    await world.settle()
    hand = await world.current_hand(anna, table_id)
    assert hand.attachments == [] and hand.custom_ids
    table = table_message(world, table_id)
    assert table.attachments == [] and table.embed_image(0) is None


def test_an_edit_uploads_a_picture_only_when_it_changed() -> None:
    first = Picture("hand.png", b"\x89PNG one", "Deine Karten (1): Herz-Zehn.")
    second = Picture("hand.png", b"\x89PNG two", "Deine Karten (1): Kreuz-Dame.")
    shown = picture_key(("text", None, None), [first])
    assert edit_files([first], True, shown) == {}  # kept: no upload, the file stays
    changed = edit_files([second], True, shown)
    assert [f.filename for f in changed["attachments"]] == ["hand.png"]
    assert changed["attachments"][0].description == second.alt
    assert edit_files([], True, shown) == {"attachments": []}  # the old picture goes
    assert [f.filename for f in edit_files([first], True, ())["attachments"]] == ["hand.png"]
    assert edit_files([second], False, shown) == {}  # PICTURES=off: never any
