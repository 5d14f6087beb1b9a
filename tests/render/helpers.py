"""Helpers for the render tests: real games from the rules core, the engine's public snapshot
of their table, and Discord's message limits (tests/fakediscord checks them the way Discord
reports them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.engine.model import ListEntry, SeatInfo, TableInfo
from bot.rules.cards import Card
from bot.rules.game import Action, Announce, Deal, Game, Phase, Reserve
from bot.rules.ruleset import DDV, Ruleset
from bot.rules.view import public_view
from tests.fakediscord.limits import check_message

# Long names on purpose: the renders must stay in Discord's limits with real-world names.
NAMES = (
    "Anneliese Übermuth",
    "Bernhard von Kreuzberg",
    "Cäcilie Schwarzwälder",
    "Dietrich Doppelkopf",
    "Eleonore Fünfte",
)


def seats(size: int = 4, ai: Sequence[int] = ()) -> tuple[SeatInfo, ...]:
    """A full table: humans with user ids 100 + seat, AIs (``leicht``) on the seats in ``ai``."""
    return tuple(
        SeatInfo(s, None, f"Bot {s + 1}", "leicht")
        if s in ai
        else SeatInfo(s, 100 + s, NAMES[s], None)
        for s in range(size)
    )


def table_info(
    game: Game | None,
    *,
    size: int = 4,
    rules: Ruleset = DDV,
    spielliste: tuple[ListEntry, ...] = (),
    game_seats: tuple[int, int, int, int] = (0, 1, 2, 3),
    number: int = 1,
) -> TableInfo:
    """The engine's public snapshot of a table playing ``game`` (``public_view``, no hand)."""
    sitting_out = next((s for s in range(size) if s not in game_seats), None)
    return TableInfo(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=100,
        rules=rules.replace(players=size) if rules.players != size else rules,
        status="playing" if game is not None else "lobby",
        version=31,
        turn_timer_s=30,
        games_per_session=24,
        seats=seats(size),
        game_number=number if game is not None else None,
        game_id=4711 if game is not None else None,
        games_left=24 - number,
        pflichtsolo_done=(False,) * size,
        public=public_view(game) if game is not None else None,
        spielliste=spielliste,
        game_seats=game_seats,
        sitting_out=sitting_out,
    )


Chooser = Callable[[Game, int, list[Action]], Action]


def gesund_and_random(rng: random.Random) -> Chooser:
    """Everyone says gesund, then plays a random legal card; no calls."""

    def choose(game: Game, seat: int, options: list[Action]) -> Action:
        healthy = [a for a in options if isinstance(a, Reserve) and not a.reserve]
        return healthy[0] if healthy else rng.choice(options)

    return choose


def drive(
    game: Game,
    choose: Chooser,
    *,
    until: Callable[[Game], bool] = lambda g: g.finished,
    calls: Callable[[Game], Announce | None] = lambda g: None,
) -> Game:
    """Apply ``choose``'s pick of the legal actions (calls left out) until ``until`` holds;
    ``calls`` may make an Announce before each turn.
    """
    while not game.finished and not until(game):
        call = calls(game)
        if call is not None:
            game.apply(call)
            continue
        seat = game.to_act()
        assert seat is not None
        options = [a for a in game.legal_actions(seat) if not isinstance(a, Announce)]
        game.apply(choose(game, seat, options))
    return game


def first_legal_call(game: Game) -> Announce | None:
    """The first seat's first legal call in play, if any (Re, Kontra, then Absagen)."""
    if game.phase is not Phase.PLAY:
        return None
    for seat in range(4):
        calls = [a for a in game.legal_actions(seat) if isinstance(a, Announce)]
        if calls:
            return calls[0]
    return None


def played_cards(game: Game) -> list[Card]:
    return [c for trick in game.tricks for c in trick.cards] + list(game.current)


def entry_for(
    game: Game,
    number: int,
    before: ListEntry | None,
    size: int = 4,
    seating: tuple[int, int, int, int] = (0, 1, 2, 3),
) -> ListEntry:
    """The Spielliste line of a finished ``game`` as the engine writes one: a column per table
    seat, the one sitting out scores 0, running totals.
    """
    result = game.result
    assert result is not None
    scores = [0] * size
    for seat, table_seat in enumerate(seating):
        scores[table_seat] = result.scores[seat]
    prior = before.totals if before else (0,) * size
    return ListEntry(
        number=number,
        contract=str(game.contract),
        solo_kind=str(game.solo_kind) if game.solo_kind else None,
        soloist=None if game.soloist is None else seating[game.soloist],
        game_value=result.game_value,
        scores=tuple(scores),
        totals=tuple(a + b for a, b in zip(prior, scores, strict=True)),
        seats=seating,
        sitting_out=next((s for s in range(size) if s not in seating), None),
    )


def five_seating(number: int) -> tuple[int, int, int, int]:
    """At five, game ``number``'s dealer sits out; the other four play in table order."""
    out = (number - 1) % 5
    four = [s for s in range(5) if s != out]
    return (four[0], four[1], four[2], four[3])


def session(games: int, size: int = 4, seed: int = 1) -> list[tuple[Game, ListEntry]]:
    """``games`` random finished games with their Spielliste lines, calls included."""
    rng = random.Random(seed)
    out: list[tuple[Game, ListEntry]] = []
    before: ListEntry | None = None
    for number in range(1, games + 1):
        game = Game(Deal.shuffled(rng.randrange(2**32), dealer=number % 4))
        drive(game, gesund_and_random(rng), calls=lambda g: _sometimes(g, rng))
        seating = five_seating(number) if size == 5 else (0, 1, 2, 3)
        before = entry_for(game, number, before, size, seating)
        out.append((game, before))
    return out


def _sometimes(game: Game, rng: random.Random) -> Announce | None:
    return first_legal_call(game) if rng.random() < 0.2 else None


def visible_text(embed: discord.Embed) -> str:
    """Every string of an embed a reader sees."""
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    parts.append(data.get("footer", {}).get("text", ""))
    parts.append(data.get("author", {}).get("name", ""))
    return "\n".join(p for p in parts if p)


def limit_errors(
    *, content: str | None = None, embeds: Sequence[discord.Embed] = (), view: Any = None
) -> list[Any]:
    """Discord's objections to a message (content ≤ 2000, embeds ≤ 6000 and ≤ 25 fields,
    field values 1–1024 …): [] when Discord would take it.
    """
    body: dict[str, Any] = {"embeds": [e.to_dict() for e in embeds]}
    if content is not None:
        body["content"] = content
    if view is not None:
        body["components"] = view.to_components()
    errors = check_message(body)
    for i, embed in enumerate(body["embeds"]):
        for j, field in enumerate(embed.get("fields", [])):
            # Discord rejects an empty field name or value; the limits module has no rule for it.
            if not field["name"].strip() or not field["value"].strip():
                errors.append((("embeds", i, "fields", j), "EMPTY", "field must not be empty"))
    return errors
