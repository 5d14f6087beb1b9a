"""Server challenges through the loopback Discord: the same deals for everyone.

Three members play a challenge of 4 deals in different orders and at different times,
with a bot restart in between: identical histories get identical AI answers, everyone
holds the same hands in the same seat, and the comparison is each result against the mean
of its field.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bot.engine import TableInfo
from db import challenges, games, results, sessions
from tests.discord.conftest import World, message_text, start_bot, stop_bot
from tests.discord.driver import enabled_cards, play_game, play_turn
from tests.fakediscord import Message, User


async def last_card(
    world: World, user: User, message: Message, info: TableInfo
) -> tuple[str, list[str] | None] | None:
    """Another way to play: the last card allowed (the default plays the first)."""
    cards = enabled_cards(message)
    return (cards[-1], None) if cards else None


async def records_of(world: World, table_id: int) -> list[tuple[dict[str, Any], int]]:
    """The table's finished games in order: the record and the human's points."""
    session = await sessions.get_active_session(world.bot.db, table_id)
    listed = []
    if session is None:
        rows = await world.bot.db.fetchall(
            "SELECT id FROM sessions WHERE table_id = ?", (table_id,)
        )
        session_ids = [r["id"] for r in rows]
    else:
        session_ids = [session.id]
    for session_id in session_ids:
        for game in await games.list_games(world.bot.db, session_id):
            if game.status == "finished" and game.record is not None:
                seats = await results.get_results(world.bot.db, game.id)
                human = next(r.points for r in seats if r.player_id is not None)
                listed.append((game.record, human))
    return listed


async def test_three_members_play_the_same_deals(make_world: Any) -> None:
    world: World = await make_world()
    anna, ben, clara, dirk = world.users
    ix = await world.run(anna, "herausforderung erstellen", spiele=4, tage=1, bots="leicht")
    assert "Herausforderung 1" in await world.answer_text(ix)
    ix = await world.run(ben, "herausforderung erstellen", spiele=4)
    assert "anlegen" in await world.answer_text(ix)  # only an admin creates one

    async def begin(user: User) -> int:
        ix = await world.run(user, "herausforderung spielen")
        assert "Herausforderung 1" in await world.answer_text(ix)
        entry = await challenges.get_entry(world.bot.db, 1, user.id)
        assert entry is not None
        return entry.table_id

    # Ben plays two deals and a card of the third, then the bot restarts.
    ben_table = await begin(ben)
    await play_game(world, ben_table)
    await play_game(world, ben_table)
    assert await play_turn(world, ben_table)
    await world.settle()
    # Clara plays all four meanwhile; nothing of them shows in the server's channel.
    clara_table = await begin(clara)
    while await play_turn(world, clara_table):
        pass
    await world.settle()
    await stop_bot(world.bot, world.task)
    world.bot, world.task = await start_bot(world.fake, world.db_path)
    assert world.bot.challenges.armed(1)  # the end timer survived the restart
    ix = await world.run(ben, "herausforderung spielen")
    assert "weiter" in await world.answer_text(ix)
    while await play_turn(world, ben_table):
        pass
    # Dirk plays later, and differently.
    dirk_table = await begin(dirk)
    while await play_turn(world, dirk_table, last_card):
        pass
    await world.settle()
    ix = await world.run(clara, "herausforderung spielen")
    assert "schon gespielt" in await world.answer_text(ix)

    played = {
        u.id: await records_of(world, t)
        for u, t in ((ben, ben_table), (clara, clara_table), (dirk, dirk_table))
    }
    assert all(len(p) == 4 for p in played.values())
    for deal in range(4):
        hands = {str(p[deal][0]["hands"]) for p in played.values()}
        dealers = {p[deal][0]["dealer"] for p in played.values()}
        assert len(hands) == 1 and len(dealers) == 1  # the same deal, the same seat
        # Ben (across the restart) and Clara played alike: the AIs answered alike.
        assert played[ben.id][deal][0]["actions"] == played[clara.id][deal][0]["actions"]
    # Not counted in the server's leaderboard.
    assert await world.engine.leaderboard(world.guild.id) == []

    ix = await world.run(dirk, "herausforderung stand")
    text = await world.answer_text(ix)
    assert "Deine Spiele" in text and "Bestes Spiel" not in text

    service = world.bot.challenges
    challenge = await service.find(world.guild.id)
    view = await service.view(challenge)
    for deal in range(4):
        points = [p[deal][1] for p in played.values()]
        mean = Fraction(sum(points), 3)
        for user_id, p in played.items():
            mine = next(c for c in view.comparison.of(user_id) if c.result.deal == deal)
            assert (mine.result.points, mine.field_mean, mine.field_size) == (p[deal][1], mean, 3)
    for standing in view.comparison.standings:
        own = played[standing.player]
        expected = sum(
            own[d][1] - Fraction(sum(p[d][1] for p in played.values()), 3) for d in range(4)
        )
        assert standing.difference == expected and standing.deals == 4

    # The period ends: the summary goes to the channel where it was created.
    await service.end_due(challenge.ends_at)
    summary = world.fake.channel_messages(world.channel)[-1]
    text = message_text(summary)
    assert "Endstand" in text and "Bestes Spiel" in text and "ben" in text
    ix = await world.run(anna, "herausforderung spielen")
    assert "beendet" in await world.answer_text(ix)
