"""Child process of the kill test: stores actions and finished games until it is killed.

Run as ``python -m tests.db.crash_child PATH``. After each commit it prints what is now
durable, one line each, flushed at once: ``action GAME SEQ`` or ``finished GAME``. The
parent SIGKILLs it at an arbitrary moment and checks the file against those lines.
"""

from __future__ import annotations

import asyncio
import sys

import db

ACTIONS_PER_GAME = 12
PLAYERS = (101, 102, 103, 104)


def report(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def run(path: str) -> None:
    store = await db.connect(path)
    for player in PLAYERS:
        await db.players.upsert_player(store, player, f"Spieler {player}")
    table = await db.tables.create_table(
        store, guild_id=1, channel_id=1, host_id=PLAYERS[0], rules={}, games_per_session=10**6
    )
    session = await db.sessions.create_session(store, table.id, games_per_round=10**6, dealer=0)
    number = 0
    while True:
        number += 1
        game = await db.games.create_game(
            store, session.id, number=number, ruleset={}, deal={"hands": []}, seed=number, dealer=0
        )
        for seq in range(ACTIONS_PER_GAME):
            await db.actions.append_action(store, game.id, seq, {"seat": seq % 4, "play": "H10"})
            report(f"action {game.id} {seq}")
        re_won = number % 2 == 0
        results = [
            db.SeatResult(
                seat=seat,
                party="re" if seat in (0, 2) else "kontra",
                augen=120,
                points=(1 if re_won else -1) * (1 if seat in (0, 2) else -1),
                contract="normal",
                is_solo=False,
                won=(seat in (0, 2)) == re_won,
                player_id=PLAYERS[seat],
            )
            for seat in range(4)
        ]
        async with store.transaction():
            await db.results.finish_game(store, game.id, results, {"format": "doko-game/1"})
            await db.sessions.update_round_context(
                store, session.id, games_left=10**6 - number, pflichtsolo_done=[False] * 4, dealer=0
            )
        report(f"finished {game.id}")


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1]))
