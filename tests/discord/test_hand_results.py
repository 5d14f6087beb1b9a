"""Every hand ends well: after a game, each human's hand message of it shows the result."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.render.texts import Lang, lang_of, t
from tests.discord.conftest import GAME_MARKER, World, message_text, seed_list
from tests.discord.driver import play_game, play_turn
from tests.fakediscord import Message


def game_of(message: Message) -> int | None:
    found = GAME_MARKER.search(message_text(message))
    return int(found[1]) if found else None


def enabled_components(message: Message) -> list[dict[str, Any]]:
    return [c for c in message.iter_components() if not c.get("disabled")]


def winner(text: str, lang: Lang) -> str | None:
    """The party a result text says won ("none" if neither), in ``lang``."""
    found = [p for p in ("Re", "Kontra") if t(lang, "winner", party=p) in text]
    if t(lang, "no_winner") in text:
        found.append("none")
    assert len(found) == 1, text
    return found[0]


def own_result_shown(text: str, lang: Lang, points: int, total: int) -> bool:
    return any(
        t(lang, "hand_result_you", party=party, points=points, total=total) in text
        for party in ("Re", "Kontra")
    )


AUGEN = re.compile(r"Re (\d+) Augen · Kontra (\d+) Augen \(Stiche (\d+):(\d+)\)")


def augen_line(public: str, lang: Lang) -> str:
    """The Augen line of the table's (German) final message, said in ``lang``."""
    found = AUGEN.search(public)
    assert found is not None, public
    re_augen, kontra, re_tricks, kontra_tricks = found.groups()
    return t(
        lang,
        "result_augen",
        re=re_augen,
        kontra=kontra,
        re_tricks=re_tricks,
        kontra_tricks=kontra_tricks,
    )


def final_table_text(world: World) -> str:
    finals = [
        message_text(m)
        for m in world.fake.channel_messages(world.channel)
        if not m.ephemeral and t("de", "spielwert") in message_text(m)
    ]
    assert len(finals) == 1, finals
    return finals[0]


async def start(world: World, table_id: int) -> int:
    """Start the table once every seat is taken; the first game's id."""
    anna = world.users[0]
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "four seats"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    game_id = world.engine.table(table_id).game_id
    assert game_id is not None
    return game_id


async def test_after_a_game_every_hand_dm_shows_the_result(make_world: Any) -> None:
    world: World = await make_world(locales={"ben": "en-GB"})
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    for user in world.users[1:]:
        await world.click(user, world.lobby(), "doko:join:")
    first_game = await start(world, table_id)
    await play_game(world, table_id)
    await world.settle()
    info = world.engine.table(table_id)
    assert len(info.spielliste) == 1 and info.game_id != first_game
    entry = info.spielliste[0]
    public = final_table_text(world)

    for user in world.users:
        lang = lang_of(user.locale)
        dms = world.hand_dms(user)
        # One hand message per game: the finished game's, edited to its end, then the next.
        assert [game_of(m) for m in dms] == [first_game, info.game_id], dms
        done, running = dms
        seat = info.seat_of(user.id)
        assert seat is not None
        assert t(lang, "game_over_hand") in done.content
        assert winner(done.content, lang) == winner(public, "de")
        assert augen_line(public, lang) in done.content
        assert f"{t(lang, 'spielwert')}:" in done.content
        assert own_result_shown(done.content, lang, entry.scores[seat], entry.totals[seat])
        # One button is left: the player's own Spielanalyse of that game.
        [only] = done.custom_ids
        assert only.startswith(f"doko:analyse:{table_id}:") and only.endswith(f":{first_game}")
        # The next game's hand is a new message with its buttons and no result.
        assert running.custom_ids and t(lang, "game_over_hand") not in running.content
        assert not any(c.startswith("doko:tipp:") for c in running.custom_ids)  # no coach


async def test_the_result_opens_the_players_own_spielanalyse(make_world: Any) -> None:
    """Anna (German) and Ben (English) open their Spielanalyse from the finished hand DM."""
    world: World = await make_world(names=("anna", "ben"), locales={"ben": "en-GB"})
    anna, ben = world.users
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo")
    await world.click(ben, world.lobby(), "doko:join:")
    for _ in range(2):
        await world.click(anna, world.lobby(), "doko:addai:")
    game_id = await start(world, table_id)
    await play_game(world, table_id)
    await world.settle()
    for user in (anna, ben):
        lang = lang_of(user.locale)
        [done] = [m for m in world.hand_dms(user) if game_of(m) == game_id]
        await world.click(user, done, "doko:analyse:")
        dm = world.fake.dm_channel(user)

        def answer(lang: Lang = lang, dm: Any = dm, user: Any = user) -> Message | None:
            found = [
                m
                for m in world.fake.visible_messages(user, dm)
                if m.ephemeral and t(lang, "analyse_head") in m.content
            ]
            return found[-1] if found else None

        await world.fake.wait_for(lambda: answer() is not None, 10, "the Spielanalyse")
        text = answer()
        assert text is not None
        body = text.content
        # The game's figure and the note on how it was rated, in the reader's language.
        assert t(lang, "analyse_figure", points="", agreed="", decisions="")[:8] in body
        assert t(lang, "analyse_note", worlds="2.400" if lang == "de" else "2,400") in body
        assert not text.custom_ids
    # No AI seat got a Spielanalyse button: only the humans' hand messages have one.
    ids = [c for m in world.fake.channel_messages(world.channel) for c in m.custom_ids]
    assert not any(c.startswith("doko:analyse:") for c in ids)


def last_player(public: str) -> str:
    """Who played the last card of the finished game, from the table's "Letzter Stich"."""
    trick = public.split(t("de", "last_trick") + "\n", 1)[1].splitlines()[0]
    last_card = trick.split(" → ")[0].split(" · ")[-1]
    return last_card.rsplit(" ", 1)[0]


# With seed 4 ben plays the game's last card himself, with seed 1 somebody else does.
@pytest.mark.parametrize(("seed", "last"), [(1, "anna"), (4, "ben")])
async def test_without_dms_the_open_hand_shows_the_result(
    make_world: Any, seed: int, last: str
) -> None:
    """Ben's DMs are closed: his hand is the ephemeral one "Meine Karten" opens."""
    world: World = await make_world(names=("anna", "ben"), seeds=seed_list(seed, seed + 1))
    anna, ben = world.users
    world.fake.close_dms(ben)
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    await world.click(ben, world.lobby(), "doko:join:")
    for _ in range(2):
        await world.click(anna, world.lobby(), "doko:addai:")
    first_game = await start(world, table_id)
    await play_game(world, table_id)
    await world.settle()
    public = final_table_text(world)
    assert last_player(public) == last, public
    entry = world.engine.table(table_id).spielliste[0]
    seat = world.engine.table(table_id).seat_of(ben.id)
    assert seat is not None
    opened = [m for m in world.fake.visible_messages(ben, world.channel) if m.ephemeral_to is ben]
    hands = [m for m in opened if game_of(m) == first_game]
    assert hands, [message_text(m) for m in opened]
    hand = hands[-1]  # the one "Meine Karten" opened last: its token still lives
    assert t("de", "game_over_hand") in hand.content
    assert augen_line(public, "de") in hand.content
    assert own_result_shown(hand.content, "de", entry.scores[seat], entry.totals[seat])
    assert winner(hand.content, "de") == winner(public, "de")
    [only] = hand.custom_ids
    assert only.startswith(f"doko:analyse:{table_id}:") and only.endswith(f":{first_game}")


async def test_a_round_of_vorgefuehrte_pflichtsoli_is_said_in_words(make_world: Any) -> None:
    # One game in the round, four open Pflichtsoli: all four are vorgeführt in turn.
    world: World = await make_world(names=("anna",), seeds=seed_list(1, 2, 3, 4, 5))
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=1)
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await start(world, table_id)
    while await play_turn(world, table_id):
        pass
    await world.settle()
    public = [m for m in world.fake.channel_messages(world.channel) if not m.ephemeral]
    finals = [message_text(m) for m in public if t("de", "spielwert") in message_text(m)]
    assert len(finals) == 4
    assert all(" · Pflichtsolo, vorgeführt" in text for text in finals)
    assert all("Vorgeführt: **" in text for text in finals)
    # anna heard it in her own hand, and no message ever showed a record code.
    # Her hand messages: one per game (an ephemeral answer to a button clicked while the
    # table moved on, "veraltet", is no hand message).
    dms = world.hand_dms(anna)
    assert len(dms) == 4 and all(t("de", "game_over_hand") in m.content for m in dms)
    assert any(t("de", "vorgefuehrt_you") in every_state(m) for m in dms)
    seen = "\n".join(every_state(m) for m in [*public, *dms])
    assert "solo_" not in seen and "vorgefuehrt" not in seen


def every_state(message: Message) -> str:
    """Everything a message showed a reader, its earlier states included."""
    texts = [message_text(message)]
    for state in message.history:
        texts.append(state["content"] or "")
        for embed in state["embeds"]:
            texts += [embed.get("title", ""), embed.get("description", "")]
            texts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        for row in state["components"]:
            texts += [str(c.get("label", "")) for c in row.get("components") or []]
            texts += [
                str(o["label"]) for c in row.get("components") or [] for o in c.get("options") or []
            ]
    return "\n".join(texts)
