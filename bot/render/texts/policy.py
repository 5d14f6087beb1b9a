"""What a player's absence means at a table (the disconnect policy, ``bei_abwesenheit``)."""

from __future__ import annotations

DE: dict[str, str] = {
    "policy_bot": "Bot spielt",
    "policy_warten": "Tisch wartet",
    "policy_verloren": "Spiel verloren",
    "policy_line": "Bei Abwesenheit: {policy}",
    "set_policy": "Bei Abwesenheit",
    "policy_help_bot": "Läuft die Zugzeit ab, spielt ein Bot den Zug.",
    "policy_help_warten": (
        "Läuft die Zugzeit ab, wartet der Tisch, bis du zurück bist oder der Gastgeber entscheidet."
    ),
    "policy_help_verloren": (
        "Läuft die Zugzeit ab, wartet der Tisch noch 2 Minuten; dann ist das Spiel für deine "
        "Partei verloren."
    ),
    "waiting_line": "⏸ Wartet auf **{name}** (seit {since}).",
    "waiting_forfeit": (
        "Ist {name} bis {at} nicht zurück, ist das Spiel für die Partei von {name} verloren."
    ),
    "waiting_host": "Der Gastgeber kann einen Bot übernehmen lassen oder das Spiel werten.",
    "btn_take_over": "Bot übernimmt",
    "btn_score_lost": "Spiel werten",
    "taken_over": "Ein Bot spielt jetzt für {name}, bis {name} zurück an den Tisch kommt.",
    "scored_lost": "Das Spiel ist gewertet: verloren für die Partei von {name}.",
    "err_cannot_concede": "Noch steht nicht fest, wer zu wem gehört: das Spiel kann noch "
    "nicht gewertet werden.",
    "err_not_waiting": "Der Tisch wartet auf niemanden (mehr).",
    "err_bad_policy": "Bei Abwesenheit geht nur: Bot spielt, Tisch wartet oder Spiel verloren.",
    "access_what_decide_absence": "Entscheiden, wie es ohne einen abwesenden Spieler weitergeht",
}

EN: dict[str, str] = {
    "policy_bot": "a bot plays",
    "policy_warten": "the table waits",
    "policy_verloren": "the game is lost",
    "policy_line": "When a player is away: {policy}",
    "set_policy": "When a player is away",
    "policy_help_bot": "When the turn timer runs out, a bot plays the move.",
    "policy_help_warten": (
        "When the turn timer runs out, the table waits until you are back or the host decides."
    ),
    "policy_help_verloren": (
        "When the turn timer runs out, the table waits 2 more minutes; then the game is lost "
        "for your party."
    ),
    "waiting_line": "⏸ Waiting for **{name}** (since {since}).",
    "waiting_forfeit": "If {name} is not back by {at}, the game is lost for {name}'s party.",
    "waiting_host": "The host can let a bot take over or score the game.",
    "btn_take_over": "Bot takes over",
    "btn_score_lost": "Score the game",
    "taken_over": "A bot now plays for {name} until {name} comes back to the table.",
    "scored_lost": "The game is scored: lost for {name}'s party.",
    "err_cannot_concede": "The parties are not known yet: the game cannot be scored yet.",
    "err_not_waiting": "The table is not waiting for anyone (any more).",
    "err_bad_policy": "When a player is away: a bot plays, the table waits, or the game is lost.",
    "access_what_decide_absence": "decide how the table goes on without an absent player",
}
