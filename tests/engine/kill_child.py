"""Child process for the kill test: plays a human seat and reports every acknowledged action.

Usage: python kill_child.py DB_FILE. Prints "ack <table> <game> <seq>" after each
``Engine.act`` returned, i.e. after the engine acknowledged the action.
"""

from __future__ import annotations

import asyncio
import random
import sys

import db
from bot.engine import Engine
from bot.rules.game import Announce
from tests.engine.conftest import RandomAI, seed_counter


async def main(path: str) -> None:
    store = await db.connect(path)
    engine = Engine(store, ai=RandomAI(), seeds=seed_counter(), ai_in_thread=False)
    await engine.start()
    info = await engine.create_table(
        guild_id=1, channel_id=1, host_id=7, host_name="Seven", games=24
    )
    info = await engine.start_game(info.id, 7)
    rng = random.Random(1)
    while True:
        await engine.idle()
        info = engine.table(info.id)
        view = engine.view_for(info.id, 7)
        if view.to_act != view.seat:
            continue
        action = rng.choice([a for a in view.legal if not isinstance(a, Announce)])
        info = await engine.act(info.id, 7, action, info.version)
        seq = len(engine.record(info.id)["actions"])
        print(f"ack {info.id} {info.game_id} {seq}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
