"""One hand DM per player and game, also when the player's own click ends a game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.engine import EngineError
from bot.rules.game import Phase
from tests.discord.conftest import GAME_MARKER, World, message_text, seed_list
from tests.discord.driver import default_choice, hand_for, human_to_act


async def click_and_wait(world: World, table_id: int, busy: bool) -> bool:
    """Anna's next action (the driver's default choice); False once the table has closed.

    ``busy``: her last card of a game lands while her hand job is under way (as under load):
    the job holds her hand's lock and waits for its turn to render until the click has been
    applied (and the next game dealt).
    """
    found = await human_to_act(world, table_id)
    if found is None:
        return False
    user, _ = found
    message = await hand_for(world, user, table_id)
    info = world.engine.table(table_id)
    custom_id, values = default_choice(message, info)
    presenter: Any = world.bot.get_cog("Doko").presenter  # type: ignore[union-attr]

    def applied() -> bool:
        try:
            now = world.engine.table(table_id)
        except EngineError:
            return True  # the session is over
        if now.status == "closed" or now.game_id != info.game_id:
            return True
        # A finished game is dealt again at once: wait for the next deal.
        pv = now.public
        return now.version > info.version and pv is not None and pv.phase is not Phase.FINISHED

    async def act() -> None:
        if values is None:
            ix = await world.fake.click(user, message, custom_id)
        else:
            ix = await world.fake.select(user, message, custom_id, values)
        assert (await world.fake.response(ix, timeout=3)).status == 200
        await world.fake.wait_for(applied, 3, f"{custom_id} to be applied")

    if busy and len(message.custom_ids) == 1:  # her last card: it may end the game
        await presenter.idle()  # no hand job is half-way: the one marked below is first
        async with presenter._render_turn:  # every message job waits for this turn
            presenter.mark_hand(presenter.tables[table_id], user.id)
            await act()
    else:
        await act()
    return True


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "hand-job-busy"])
async def test_a_two_game_session_has_one_hand_dm_per_game(make_world: Any, busy: bool) -> None:
    # With these seeds anna's own card ends game 1, so her click answer and the hand job
    # both see the next game.
    world: World = await make_world(names=("anna",), seeds=seed_list(1, 2, 3))
    anna = world.users[0]
    table_id = await world.open_table(anna, spiele=2, regeln="ohne_pflichtsolo")
    for _ in range(3):
        await world.click(anna, world.lobby(), "doko:addai:")
    await world.fake.wait_for(
        lambda: all(s is not None for s in world.engine.table(table_id).seats), 3, "three bots"
    )
    await world.click(anna, world.lobby(), "doko:start:")
    while await click_and_wait(world, table_id, busy):
        pass
    await world.settle()
    assert world.engine.find_table(world.guild.id, world.channel.id) is None  # session over

    dms = world.hand_dms(anna)
    games = [GAME_MARKER.search(message_text(m)) for m in dms]
    assert all(games), [message_text(m) for m in dms]
    per_game = Counter(int(g[1]) for g in games if g is not None)
    assert len(per_game) == 2 and set(per_game.values()) == {1}, per_game
    # The click that ended game 1 left its DM saying so, without buttons.
    first = dms[0]
    assert "Das Spiel ist vorbei" in first.content
    assert [c.split(":")[1] for c in first.custom_ids] == ["analyse"]  # its one button left
