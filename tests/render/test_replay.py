"""A replay thread's pages: drawn from the stored record, never a card a player kept."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.discord import codec
from bot.render.replay import augen_after, navigation, page_picture, protocol, replay_page
from bot.render.terms import card_label
from bot.rules.game import Deal, Game
from bot.rules.records import game_record_to_dict

NAMES = ["Anna", "Ben", "Clara", "Dirk"]


def page_text(embed: Any) -> str:
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(parts)


def record_of(game: Game, **meta: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(json.dumps(game_record_to_dict(game)))
    players = [{"table_seat": i, "name": n} for i, n in enumerate(NAMES)]
    record["meta"] = {"table": 3, "game": 2, "players": players, **meta}
    return record


def played_game(seed: int, until_tricks: int | None = None) -> Game:
    """Random legal play (no calls); stops after ``until_tricks`` tricks when given."""
    rng = random.Random(seed)
    game = Game(Deal.shuffled(seed, dealer=0))
    while (seat := game.to_act()) is not None:
        if until_tricks is not None and len(game.tricks) >= until_tricks and not game.current:
            break
        actions = [a for a in game.legal_actions(seat) if type(a).__name__ != "Announce"]
        game.apply(rng.choice(actions))
    return game


def suit_symbols(text: str) -> int:
    return sum(text.count(s) for s in "♣♠♥♦")


def test_each_trick_page_shows_that_trick_and_the_overview_shows_no_card() -> None:
    game = played_game(11)
    assert game.result is not None
    proto = protocol(record_of(game), 42)
    assert proto is not None and proto.pages == 13
    for lang in ("de", "en"):
        overview, _ = replay_page(proto, 0, lang)
        assert suit_symbols(page_text(overview)) == 0
        for n, trick in enumerate(game.tricks, start=1):
            embed, _ = replay_page(proto, n, lang)
            text = page_text(embed)
            assert suit_symbols(text) == 4
            for card in trick.cards:
                assert card_label(card, lang) in text
    assert augen_after(proto, 12) == (game.result.re_augen, game.result.kontra_augen)


def test_a_game_that_ended_early_shows_only_the_cards_played() -> None:
    game = played_game(5, until_tricks=3)
    seat = next(s for s in range(4) if game.can_concede(s))
    held = [c for s in range(4) for c in game.hands[s]]
    assert held  # cards nobody played
    record = record_of(game, conceded={"seat": seat})
    proto = protocol(record, 7)
    assert proto is not None and proto.pages == 4  # the overview and three tricks
    pictures = [page_picture(proto, step, "de") for step in range(proto.pages)]
    assert pictures[0] is None and all(p is not None for p in pictures[1:])
    texts = [page_text(replay_page(proto, step, "de")[0]) for step in range(proto.pages)]
    assert sum(suit_symbols(text) for text in texts) == 12  # three tricks, four cards each
    assert "vorzeitig" in texts[0]


def test_a_record_that_does_not_replay_to_an_end_has_no_protocol() -> None:
    game = played_game(5, until_tricks=3)
    assert protocol(record_of(game), 7) is None
    broken = record_of(played_game(11))
    broken["actions"][-1] = {"type": "play", "seat": 0, "card": "XX"}
    assert protocol(broken, 7) is None


def test_the_buttons_step_within_the_pages_and_their_ids_decode() -> None:
    proto = protocol(record_of(played_game(11)), 42)
    assert proto is not None
    first = [(n.step, n.disabled) for n in navigation(proto, 0, "de")]
    assert first == [(1, False), (0, True), (1, False), (12, False)]
    last = [(n.step, n.disabled) for n in navigation(proto, 12, "de")]
    assert last == [(1, False), (11, False), (12, True), (12, True)]
    ids = {codec.replay_id(42, n.step, n.slot) for n in navigation(proto, 5, "de")}
    assert len(ids) == 4  # no two buttons of a message share an id
    for custom_id in ids:
        click = codec.decode_replay(custom_id)
        assert click.game_id == 42 and 0 <= click.step <= 12


def test_odd_replay_ids_are_refused() -> None:
    for custom_id in (
        "protokoll:42:5",
        "protokoll:42:99:next",
        "protokoll:x:1:next",
        "protokoll:42:1:ne:xt",
        "protokoll:042:1:next",
        "doko:42:1:next",
    ):
        try:
            codec.decode_replay(custom_id)
        except codec.CodecError:
            continue
        raise AssertionError(custom_id)
