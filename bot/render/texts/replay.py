"""A finished game's replay thread: the protocol's pages and buttons, and why a table has
no thread.
"""

from __future__ import annotations

DE: dict[str, str] = {
    "rp_thread": "Protokoll · Tisch {table} · Spiel {number}",
    "rp_title": "Protokoll · Tisch {table} · Spiel {number}",
    "rp_footer": "Seite {page} von {pages} · Seite 1 ist die Übersicht, dann Stich für Stich",
    "rp_first": "⏮ Erster Stich",
    "rp_back": "◀ Zurück",
    "rp_next": "Weiter ▶",
    "rp_last": "Letzter Stich ⏭",
    "rp_vorbehalte": "Vorbehalte",
    "rp_gesund": "{name}: gesund",
    "rp_vorbehalt": "{name}: Vorbehalt",
    "rp_played": "Gespielt: {contract}",
    "rp_no_vorbehalte": "keine Vorbehaltsabfrage",
    "rp_calls": "Ansagen (Karten auf der Hand)",
    "rp_calls_here": "Ansagen zu diesem Stich",
    "rp_call": "{call} von {name}, mit {n} Karten auf der Hand",
    "rp_trick_of": "**Stich {n} von {total}**",
    "rp_led": "Aufgespielt hat {name}.",
    "rp_standing": "Stand nach diesem Stich",
    "rp_augen": "Re {re} Augen · Kontra {kontra} Augen",
    "rp_conceded": "Das Spiel endete vorzeitig: verloren für die Partei von {name}.",
    "rp_pic_head": "Stich {n} an {name} ({augen} Augen)",
    "rp_pic_alt": "Gespielt: {plays}; an {name} ({augen} Augen).",
    "rp_gone": "Dieses Protokoll gibt es nicht mehr.",
    "rp_no_thread": (
        "Zu diesem Tisch öffne ich keine Protokoll-Threads: mir fehlt hier {missing}. "
        "Der Tisch spielt normal weiter; das Spiel gibt es mit /doko export als Datei."
    ),
    "set_replay": "Protokoll-Thread je Spiel",
}

EN: dict[str, str] = {
    "rp_thread": "Protocol · Table {table} · Game {number}",
    "rp_title": "Protocol · Table {table} · Game {number}",
    "rp_footer": "Page {page} of {pages} · page 1 is the overview, then trick by trick",
    "rp_first": "⏮ First trick",
    "rp_back": "◀ Back",
    "rp_next": "Next ▶",
    "rp_last": "Last trick ⏭",
    "rp_vorbehalte": "Vorbehalte (reservations)",
    "rp_gesund": "{name}: gesund (no Vorbehalt)",
    "rp_vorbehalt": "{name}: Vorbehalt (a reservation)",
    "rp_played": "Played: {contract}",
    "rp_no_vorbehalte": "no Vorbehalt round",
    "rp_calls": "Calls (cards in hand)",
    "rp_calls_here": "Calls at this trick",
    "rp_call": "{call} by {name}, holding {n} cards",
    "rp_trick_of": "**Trick {n} of {total}**",
    "rp_led": "{name} led.",
    "rp_standing": "After this trick",
    "rp_augen": "Re has {re} Augen · Kontra has {kontra} Augen",
    "rp_conceded": "The game ended early: lost for {name}'s party.",
    "rp_pic_head": "Trick {n} to {name} ({augen} Augen)",
    "rp_pic_alt": "Played: {plays}; to {name} ({augen} Augen).",
    "rp_gone": "This protocol is no longer available.",
    "rp_no_thread": (
        "I open no protocol threads for this table: I lack {missing} here. The table plays "
        "on as usual; /doko export gives each game as a file."
    ),
    "set_replay": "Protocol thread per game",
}
