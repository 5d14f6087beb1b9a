"""Labels and alt texts drawn into the pictures (``bot/render/pictures.py``)."""

from __future__ import annotations

DE: dict[str, str] = {
    "pic_hand_alt": "Deine Karten ({n}): {cards}.",
    "pic_playable": "Spielbar: {cards}.",
    "pic_trick": "Aktueller Stich",
    "pic_trick_alt": "Aktueller Stich: {plays}.",
    "pic_trick_empty": "Aktueller Stich: noch keine Karte.",
    "pic_ahead": "vorn",
    "pic_ahead_alt": "Vorn liegt {name}.",
    "pic_turn": "am Zug",
    "pic_turn_alt": "Am Zug: {name}.",
    "pic_last": "Letzter Stich",
    "pic_last_to": "Letzter Stich an {name} ({augen} Augen)",
    "pic_last_alt": "Letzter Stich: {plays}; an {name} ({augen} Augen).",
    "pic_result_alt": "Ergebnis: {lines}",
    "pic_chart_title": "Spielliste: Stand nach jedem Spiel",
    "pic_chart_game": "Spiel",
    "pic_chart_alt": "Spielliste als Linien, Stand nach {n} Spielen: {totals}.",
}

EN: dict[str, str] = {
    "pic_hand_alt": "Your cards ({n}): {cards}.",
    "pic_playable": "Playable: {cards}.",
    "pic_trick": "Current trick",
    "pic_trick_alt": "Current trick: {plays}.",
    "pic_trick_empty": "Current trick: no card yet.",
    "pic_ahead": "ahead",
    "pic_ahead_alt": "{name} is ahead.",
    "pic_turn": "to play",
    "pic_turn_alt": "To play: {name}.",
    "pic_last": "Last trick",
    "pic_last_to": "Last trick to {name} ({augen} Augen)",
    "pic_last_alt": "Last trick: {plays}; to {name} ({augen} Augen).",
    "pic_result_alt": "Result: {lines}",
    "pic_chart_title": "Spielliste: totals after each game",
    "pic_chart_game": "Game",
    "pic_chart_alt": "Spielliste as lines, totals after {n} games: {totals}.",
}
