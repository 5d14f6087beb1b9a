"""/doko rangliste by period and page and by rating, /doko statistik with its chart, through
the loopback Discord. The games are stored straight into the bot's store, with their times:
enough players for two pages, and games last month and this month.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord

import db
from bot.engine.rangliste import MIN_RATED_GAMES, PAGE_SIZE
from tests.discord.conftest import World, message_text
from tests.fakediscord import Message

EXTRA = 21  # players besides the four fake users: 25 in all, two pages
CHART = Path("/tmp/rangliste_verlauf.png")


def now() -> datetime:
    return datetime.now(UTC)


def last_month() -> datetime:
    """The middle of the month before this one."""
    first = now().replace(day=1, hour=12, minute=0, second=0, microsecond=0)
    return (first - timedelta(days=1)).replace(day=15)


async def seed(
    world: World,
    games: Sequence[tuple[tuple[int, int, int, int], datetime, int]],
    *,
    calls: bool = False,
) -> None:
    """Finished games on the world's server: four players each, Re (the first two) winning
    ``value`` points (losing when negative), at the given time.
    """
    store = world.bot.db
    table = await db.tables.create_table(
        store,
        guild_id=world.guild.id,
        channel_id=world.channel.id + 1,  # another channel: the engine runs no table there
        host_id=world.users[0].id,
        rules={},
        games_per_session=10_000,
        turn_timer_s=None,
        status="closed",
    )
    session = await db.sessions.create_session(store, table.id, games_per_round=10_000, dealer=0)
    for number, (players, when, value) in enumerate(games, start=1):
        game = await db.games.create_game(
            store, session.id, number=number, ruleset={}, deal={}, seed=number, dealer=0
        )
        results = [
            db.SeatResult(
                seat=seat,
                party="re" if seat < 2 else "kontra",
                augen=130 if (seat < 2) == (value > 0) else 110,
                points=value if seat < 2 else -value,
                contract="normal",
                is_solo=False,
                won=(seat < 2) == (value > 0),
                player_id=player,
                called=calls and seat == 0,
            )
            for seat, player in enumerate(players)
        ]
        await db.results.finish_game(store, game.id, results, {}, now=when)


async def players(world: World) -> list[int]:
    """The four fake users and EXTRA more players, stored with their names."""
    ids = [u.id for u in world.users]
    for n in range(1, EXTRA + 1):
        ids.append(800_000 + n)
        await db.players.upsert_player(world.bot.db, 800_000 + n, f"Spieler {n:02d}")
    for user in world.users:
        await db.players.upsert_player(world.bot.db, user.id, user.name)
    return ids


async def answer(world: World, ix: Any) -> Message:
    return await world.fake.followup(ix)


def page_buttons(message: Message) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for c in message.iter_components() if c["custom_id"].startswith("rang:")}


async def test_the_leaderboard_has_pages_and_periods(make_world: Any) -> None:
    world: World = await make_world()
    anna = world.users[0]
    ids = await players(world)
    # Last month: everyone plays, in fours (the last four overlap); this month, only the
    # four fake users, anna and ben winning 5.
    fours = [tuple(ids[i : i + 4]) for i in range(0, 24, 4)] + [tuple(ids[21:25])]
    await seed(world, [(f, last_month(), 1) for f in fours])  # type: ignore[misc]
    await seed(world, [(tuple(ids[:4]), now(), 5)])  # type: ignore[list-item]

    ix = await world.run(anna, "rangliste")
    message = await answer(world, ix)
    text = message_text(message)
    assert "Rangliste · alle Spiele" in text and "Seite 1 von 2 · 25 Spieler" in text
    lines = [line for line in message.embeds[0]["description"].splitlines() if line]
    assert len(lines) == PAGE_SIZE and lines[0].startswith("1. anna – +6 Punkte")
    buttons = page_buttons(message)
    assert buttons["Zurück"]["disabled"] and not buttons["Weiter"]["disabled"]

    # Next: the same message shows page 2, the last five; Back comes alive, Next goes dead.
    await world.click(anna, message, buttons["Weiter"]["custom_id"])
    text = message_text(message)
    assert "Seite 2 von 2" in text and "1. anna" not in text
    second = message.embeds[0]["description"].splitlines()
    assert len(second) == 25 - PAGE_SIZE and not set(second) & set(lines)
    buttons = page_buttons(message)
    assert not buttons["Zurück"]["disabled"] and buttons["Weiter"]["disabled"]
    await world.click(anna, message, buttons["Zurück"]["custom_id"])
    assert "Seite 1 von 2" in message_text(message)

    # This month: the four of this month only, one page, no buttons.
    ix = await world.run(anna, "rangliste", zeitraum="monat")
    month = await answer(world, ix)
    text = message_text(month)
    assert "Seite 1 von 1 · 4 Spieler" in text and "+5 Punkte (1 Spiele" in text
    assert page_buttons(month) == {}
    # Last month, chosen by its number: all 25, anna at +1 there.
    typed = last_month().strftime("%m.%Y")
    ix = await world.run(anna, "rangliste", monat=typed)
    text = message_text(await answer(world, ix))
    assert "25 Spieler" in text and "anna – +1 Punkte (1 Spiele, 1 gewonnen)" in text
    ix = await world.run(anna, "rangliste", zeitraum="letzter_monat", seite=2)
    assert "Seite 2 von 2" in message_text(await answer(world, ix))
    # A month nobody can read is refused privately, with the format.
    ix = await world.run(anna, "rangliste", monat="13.2026")
    assert "MM.JJJJ" in await world.answer_text(ix)

    # The list moved on since page 1 was shown: its old button shows page 2 as it is now.
    await seed(world, [(tuple(ids[21:25]), now(), 50)])  # type: ignore[list-item]
    await world.click(anna, message, page_buttons(message)["Weiter"]["custom_id"])
    fresh = await answer(world, await world.run(anna, "rangliste", seite=2))
    assert message.embeds[0]["description"] == fresh.embeds[0]["description"]
    assert message.embeds[0]["description"] != "\n".join(second)
    top = await answer(world, await world.run(anna, "rangliste"))
    assert "1. Spieler 18 – +52 Punkte" in message_text(top)

    # A page button this release cannot read (another release's id): a private hint.
    old = discord.ui.View(timeout=None)
    old.add_item(discord.ui.Button(label="Weiter", custom_id="rang:punkte:alles:1"))
    await world.bot.get_partial_messageable(world.channel.id).send("Rangliste", view=old)
    sent = await world.fake.wait_for(
        lambda: next(
            (
                m
                for m in world.fake.channel_messages(world.channel)
                if "rang:punkte:alles:1" in m.custom_ids
            ),
            None,
        ),
        3,
        "the old button",
    )
    ix = await world.click(anna, sent, "rang:punkte:alles:1")
    assert "alten Rangliste" in await world.answer_text(ix)


async def test_the_rating_list_needs_enough_games(make_world: Any) -> None:
    world: World = await make_world()
    anna, ben, clara, dirk = (u.id for u in world.users)
    await players(world)
    # anna and ben play MIN_RATED_GAMES games, clara and dirk one fewer (an extra player
    # takes the last one): anna and clara win more often than ben and dirk.
    four = (anna, clara, ben, dirk)
    values = itertools.cycle((1, 1, -1))
    games = [(four, last_month(), next(values)) for _ in range(MIN_RATED_GAMES - 1)]
    games.append(((anna, 800_001, ben, 800_002), now(), 1))
    await seed(world, games)  # type: ignore[arg-type]

    ix = await world.run(world.users[0], "rangliste", nach="rating")
    text = message_text(await answer(world, ix))
    assert "Wertungsliste" in text and f"mindestens {MIN_RATED_GAMES} Spielen" in text
    lines = [line for line in text.splitlines() if " – Wertung " in line]
    assert [line.split(" – ")[0] for line in lines] == ["1. anna", "2. ben"]
    assert f"({MIN_RATED_GAMES} Spiele)" in lines[0]
    figures = [int(line.split("Wertung ")[1].split(" ")[0]) for line in lines]
    assert figures[0] > figures[1]
    # The help explains the figure and the minimum, in German and English.
    ix = await world.run(world.users[0], "hilfe")
    help_text = await world.answer_text(ix)
    assert "1000 + 40 × (μ − 3σ)" in help_text and f"ab {MIN_RATED_GAMES} Spielen" in help_text


async def test_statistik_shows_the_period_and_the_running_points(make_world: Any) -> None:
    world: World = await make_world()
    anna = world.users[0]
    ids = await players(world)
    four = tuple(ids[:4])
    # Last month anna wins 3, loses 1, wins 2 (with an Ansage each); this month she loses 4.
    await seed(
        world,
        [(four, last_month(), 3), (four, last_month(), -1), (four, last_month(), 2)],  # type: ignore[list-item]
        calls=True,
    )
    await seed(world, [((ids[2], ids[3], anna.id, ids[1]), now(), 4)])

    ix = await world.run(anna, "statistik")
    message = await answer(world, ix)
    text = message_text(message)
    assert "Statistik: anna · alle Spiele" in text
    assert "+0 Punkte in 4 Spielen (+0,0 pro Spiel)" in text
    assert "Gewonnen: 2 von 4 (50 %)" in text and "Re in 75 % der Spiele, Kontra in 25 %" in text
    assert "Ansagen: in 3 Spielen angesagt, 2 davon gewonnen (67 %)" in text
    assert f"in der Wertungsliste ab {MIN_RATED_GAMES} Spielen (bisher 4)" in text
    chart = message.embed_image(0)
    assert chart is not None and chart.filename == "verlauf.png"
    assert chart.data.startswith(b"\x89PNG")
    assert "Punkteverlauf von anna über 4 Spiele" in (chart.description or "")
    assert "zuletzt +0, höchstens +4, tiefstens +0" in (chart.description or "")
    CHART.write_bytes(chart.data)

    ix = await world.run(anna, "statistik", zeitraum="monat")
    text = message_text(await answer(world, ix))
    assert "-4 Punkte in 1 Spielen" in text and "Ansagen: in keinem Spiel" in text
    assert "Die Wertung zählt immer alle Spiele" in text
    # Someone without games this month, and pictures off: text only.
    cog: Any = world.bot.get_cog("Doko")
    cog.presenter.pictures.enabled = False
    ix = await world.run(anna, "statistik", monat=last_month().strftime("%Y-%m"))
    message = await answer(world, ix)
    assert "+4 Punkte in 3 Spielen" in message_text(message) and message.attachments == []
    ix = await world.run(anna, "statistik", spieler=world.users[1], zeitraum="saison")
    assert "ben" in message_text(await answer(world, ix))
