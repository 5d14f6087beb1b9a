"""House rules through the loopback Discord: Armut both ways, a Schmeißen redeal, the summary.

Deals are seeded (the engine draws one seed for the first dealer, then one per deal) and the
seeds are found by playing the Vorbehaltsabfrage with the leicht AI's own rules of thumb, so
the human's hand qualifies and the AIs answer as the test needs.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from typing import Any

from bot.ai.heuristic import HeuristicStrategy
from bot.discord import codec
from bot.engine import EngineError
from bot.render.errors import error_text
from bot.render.table import game_message
from bot.rules.cards import Rank
from bot.rules.game import (
    ArmutOffer,
    Deal,
    Game,
    Phase,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
    armut_trumps,
)
from bot.rules.presets import PRESETS
from bot.rules.round import RoundContext
from bot.rules.view import player_view
from tests.discord.conftest import World, message_text, seed_list
from tests.discord.driver import play_game
from tests.fakediscord import Message, User

STAMMTISCH = PRESETS["stammtisch"]
ANNA = 0  # the host takes the first seat; the three bots the others


def dealer_seed(dealer: int) -> int:
    """A seed whose first-dealer draw is ``dealer``."""
    return next(s for s in range(100) if random.Random(s).randrange(4) == dealer)


def armut_deal(dealer: int, anna_poor: bool) -> int:
    """A deal seed where anna offers an Armut an AI takes, or an AI offers one anna takes."""
    ai = HeuristicStrategy()
    for seed in range(20000):
        hands = Deal.shuffled(seed, ruleset=STAMMTISCH).hands
        if anna_poor and len(armut_trumps(hands[ANNA])) > 3:
            continue
        if not anna_poor and all(len(armut_trumps(h)) > 3 for h in hands[1:]):
            continue
        deal = Deal.shuffled(seed, dealer, RoundContext(1, (False,) * 4), STAMMTISCH)
        game = Game(deal)
        while game.phase in (Phase.VORBEHALT, Phase.DECLARE, Phase.ARMUT):
            seat = game.to_act()
            assert seat is not None
            view = player_view(game, seat)
            if seat != ANNA:
                game.apply(ai.choose(view, random.Random(0)))
            elif game.phase is Phase.VORBEHALT:
                game.apply(Reserve(ANNA, anna_poor))
            elif game.phase is Phase.DECLARE:
                game.apply(next(a for a in view.legal if isinstance(a, ArmutOffer)))
            elif game.armut is not None and game.armut.taker is None:
                game.apply(TakeArmut(ANNA, True))
            else:
                n = len(game.armut.cards) if game.armut else 0
                game.apply(ReturnCards(ANNA, tuple(sorted(view.hand[-n:]))))
        armut = game.armut
        if (
            game.phase is Phase.PLAY
            and armut is not None
            and armut.taker is not None
            and (armut.poor == ANNA) == anna_poor
            and (armut.taker == ANNA) != anna_poor
        ):
            return seed
    raise AssertionError("no fitting deal")


def schmeissen_deal() -> int:
    """A deal seed that gives anna five nines (Schmeißen under the Stammtisch rules)."""
    return next(
        s
        for s in range(50000)
        if sum(c.rank is Rank.NEUN for c in Deal.shuffled(s, ruleset=STAMMTISCH).hands[ANNA]) >= 5
    )


async def stammtisch_table(world: World, seeds: tuple[int, ...] = ()) -> int:
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=1, regeln="stammtisch")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    return table_id


def channel_texts(world: World) -> list[str]:
    return [message_text(m) for m in world.fake.channel_messages(world.channel)]


def sent_texts(world: World) -> str:
    """Everything the bot sent or edited, as JSON text (messages edited later included)."""
    return "\n".join(json.dumps(r.body, ensure_ascii=False) for r in world.fake.requests if r.body)


Choice = tuple[str, list[str] | None] | None


def armut_policy(table_id: int, offer: bool, seen: list[str]) -> Callable[..., Any]:
    """Anna's Armut decisions by button and select; card play is left to the driver."""

    async def policy(world: World, user: User, message: Message, info: Any) -> Choice:
        v = info.version
        view = world.engine.view_for(table_id, user.id)
        ids = message.custom_ids
        if view.phase is Phase.VORBEHALT:
            seen.append("vorbehalt")
            return codec.button_id(table_id, v, Reserve(view.seat, offer)), None
        if view.phase is Phase.DECLARE:
            armut = next(a for a in view.legal if isinstance(a, ArmutOffer))
            assert codec.button_id(table_id, v, armut) in ids, ids
            seen.append("armut")
            return codec.button_id(table_id, v, armut), None
        if view.phase is Phase.ARMUT:
            armut = view.armut
            assert armut is not None
            if armut.taker is None:
                answers = {codec.button_id(table_id, v, TakeArmut(view.seat, x)) for x in (0, 1)}
                assert answers <= set(ids), ids
                seen.append("take")
                return codec.button_id(table_id, v, TakeArmut(view.seat, True)), None
            select_id = codec.select_id(table_id, v, "return", view.seat)
            select = message.component(select_id)
            assert select is not None, message_text(message)
            assert select["min_values"] == select["max_values"] == armut.offered
            assert len(select["options"]) == len(view.hand) == 12 + armut.offered
            seen.append("return")
            # The plain cards at the end of the sorted hand: the cheapest ones.
            values = [o["value"] for o in select["options"][-armut.offered :]]
            return select_id, values
        return None

    return policy


async def test_a_human_offers_an_armut_an_ai_takes_it_and_returns_cards(make_world: Any) -> None:
    dealer = 3
    world: World = await make_world(
        names=("anna",), seeds=seed_list(dealer_seed(dealer), armut_deal(dealer, True))
    )
    table_id = await stammtisch_table(world)
    seen: list[str] = []
    await play_game(world, table_id, armut_policy(table_id, True, seen))
    await world.settle()
    assert seen[:2] == ["vorbehalt", "armut"], seen
    public = sent_texts(world)
    assert "Armut von anna" in public and re.search(r"Genommen von Bot \d \(leicht\)", public)
    assert "Zurückgegeben: " in public
    # anna saw the cards she got back, and the game was played to its end.
    assert "Bekommen: " in sent_texts(world)
    finals = [t for t in channel_texts(world) if "= Spielwert" in t]
    assert len(finals) == 1 and "Armut von anna" in finals[0], channel_texts(world)
    assert world.engine.find_table(world.guild.id, world.channel.id) is None


async def test_an_ai_offers_an_armut_and_the_human_takes_it_with_a_select(
    make_world: Any,
) -> None:
    dealer = 3
    world: World = await make_world(
        names=("anna",), seeds=seed_list(dealer_seed(dealer), armut_deal(dealer, False))
    )
    table_id = await stammtisch_table(world)
    seen: list[str] = []
    await play_game(world, table_id, armut_policy(table_id, False, seen))
    await world.settle()
    assert "take" in seen and "return" in seen, seen
    sent = sent_texts(world)
    assert "bietet eine Armut an" in sent and re.search(r"Karten an Bot \d \(leicht\) zurück", sent)
    assert "Bekommen: " in sent
    finals = [t for t in channel_texts(world) if "= Spielwert" in t]
    assert len(finals) == 1 and "Genommen von anna" in finals[0], channel_texts(world)


async def test_schmeissen_deals_again_and_the_table_says_why(make_world: Any) -> None:
    dealer = 3  # anna, left of the dealer, speaks first
    world: World = await make_world(
        names=("anna",), seeds=seed_list(dealer_seed(dealer), schmeissen_deal())
    )
    anna = world.users[0]
    table_id = await stammtisch_table(world)
    message = await world.current_hand(anna, table_id)
    info = world.engine.table(table_id)
    assert "schmeißen" in message_text(message)
    seat = world.engine.view_for(table_id, anna.id).seat
    ix = await world.click(anna, message, codec.button_id(table_id, info.version, Schmeissen(seat)))
    assert not ix.followups
    # The table message of game 2, not the engine's game number: that counts up before the
    # redeal is stored and shown, so a settle right after it could find nothing to wait for.
    await world.fake.wait_for(
        lambda: [t for t in channel_texts(world) if "Spiel 2" in t], 3, "the redeal"
    )
    await world.settle()
    again = [t for t in channel_texts(world) if "Spiel 2" in t]
    assert again and "Neu gegeben: anna hat geschmissen." in again[-1], again
    # The thrown-in hand's DM says so too, without a card or button left to click.
    thrown, new = world.hand_dms(anna)
    assert "(#1)" in message_text(thrown) and "(#2)" in message_text(new)
    assert "Neu gegeben: anna hat geschmissen." in message_text(thrown)
    assert not thrown.custom_ids and new.custom_ids
    info = world.engine.table(table_id)
    assert info.public is not None and info.public.phase is Phase.VORBEHALT
    assert info.spielliste == () and info.public.dealer == dealer  # nobody scored, same dealer
    # A Bock game says so on the table message (rendered from the public view).
    bock = dataclasses.replace(info, public=dataclasses.replace(info.public, bock=2))
    embed, _ = game_message(bock, "de")
    assert "Bock ×2" in (embed.description or "")


def test_the_new_refusals_are_translated() -> None:
    for reason in (
        "schmeissen_not_allowed",
        "armut_not_allowed",
        "armut_must_offer_trumps",
        "armut_taken",
        "armut_not_taken",
        "armut_return_count",
    ):
        de = error_text(EngineError(reason, "x"), "de")
        en = error_text(EngineError(reason, "x"), "en")
        assert reason not in de and reason not in en and de != en


async def test_the_rules_summary_at_creation_on_request_and_in_english(make_world: Any) -> None:
    world: World = await make_world(names=("anna", "eve"), locales={"eve": "en-US"})
    anna, eve = world.users
    await world.open_table(anna, regeln="stammtisch")
    lobby = message_text(world.lobby())
    assert "Regeln: Stammtisch" in lobby
    assert "Schweinchen" in lobby and "Schmeißen bei: 5 Neunen" in lobby
    assert "Armut mit höchstens 3 Trümpfen" in lobby and "24 Spiele je Runde" in lobby
    ix = await world.run(eve, "regeln")
    text = await world.answer_text(ix)
    assert "Rules: Kitchen table (Stammtisch)" in text and "Re and Kontra double" in text
    ix = await world.click(anna, world.lobby(), "doko:rules:")
    assert "Bockrunde" in await world.answer_text(ix)


async def test_the_online_preset_has_four_games_and_no_absagen(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    table_id = await world.open_table(world.users[0], regeln="online")
    assert world.engine.table(table_id).games_per_session == 4
    lobby = message_text(world.lobby())
    assert "Regeln: Online" in lobby and "Nur Re und Kontra" in lobby
