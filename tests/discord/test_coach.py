"""The coach: a table opened with it shows a Tipp button on the hand; its games are unranked."""

from __future__ import annotations

from typing import Any

from bot.engine.model import TableInfo
from bot.render.texts import lang_of, t
from tests.discord.conftest import World
from tests.discord.driver import play_game
from tests.fakediscord import Message, User


async def test_a_coached_table_gives_tips_and_its_game_is_unranked(make_world: Any) -> None:
    world: World = await make_world(names=("anna", "ben"), locales={"ben": "en-GB"})
    anna, ben = world.users
    table_id = await world.open_table(anna, spiele=1, regeln="ohne_pflichtsolo", coach=True)
    await world.click(ben, world.lobby(), "doko:join:")
    for _ in range(2):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.click(anna, world.lobby(), "doko:start:")
    tips: dict[str, list[str]] = {"anna": [], "ben": []}

    async def ask_first(
        world: World, user: User, message: Message, info: TableInfo
    ) -> tuple[str, list[str] | None] | None:
        """Ask the coach before each of the first turns, then play as the driver does."""
        if len(tips[user.name]) < 4:
            ix = await world.click(user, message, f"doko:tipp:{table_id}:")
            await world.fake.wait_for(lambda: bool(ix.followups), 10, "the Tipp")
            tips[user.name].append(ix.followups[-1].content)
            assert ix.followups[-1].ephemeral
        return None

    await world.fake.wait_for(
        lambda: world.engine.table(table_id).public is not None, 3, "the first deal"
    )
    assert world.engine.table(table_id).coach
    await play_game(world, table_id, ask_first)
    await world.settle()
    for user in (anna, ben):
        lang = lang_of(user.locale)
        said = tips[user.name]
        assert 1 <= len(said) <= 4, said
        # Each names a choice in bold and why, in the reader's own language.
        head = "Tipp: " if lang == "de" else "Tip: "
        assert all(text.startswith(head) and "**" in text and " – " in text for text in said)
        assert t(lang, "btn_tipp") in ("Tipp", "Tip")
    # Played with help: not on the server's leaderboard.
    assert await world.engine.leaderboard(world.guild.id, 10) == []
