"""What a player's absence means at a table (the disconnect policy, ``bei_abwesenheit``)."""

from __future__ import annotations

DE: dict[str, str] = {
    "policy_bot": "Bot spielt",
    "policy_warten": "Tisch wartet",
    "policy_verloren": "Spiel verloren",
    "policy_line": "Bei Abwesenheit: {policy}",
    "set_policy": "Bei Abwesenheit",
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
    "err_not_waiting": "Der Tisch wartet gerade auf niemanden.",
    "err_bad_policy": "Bei Abwesenheit geht nur: Bot spielt, Tisch wartet oder Spiel verloren.",
    "access_what_decide_absence": "Die Entscheidung über einen abwesenden Spieler",
}

EN: dict[str, str] = {
    "policy_bot": "a bot plays",
    "policy_warten": "the table waits",
    "policy_verloren": "the game is lost",
    "policy_line": "When a player is away: {policy}",
    "set_policy": "When a player is away",
    "waiting_line": "⏸ Waiting for **{name}** (since {since}).",
    "waiting_forfeit": "If {name} is not back by {at}, the game is lost for {name}'s party.",
    "waiting_host": "The host can let a bot take over or score the game.",
    "btn_take_over": "Bot takes over",
    "btn_score_lost": "Score the game",
    "taken_over": "A bot now plays for {name} until {name} comes back to the table.",
    "scored_lost": "The game is scored: lost for {name}'s party.",
    "err_cannot_concede": "The parties are not known yet: the game cannot be scored yet.",
    "err_not_waiting": "The table is not waiting for anyone now.",
    "err_bad_policy": "When a player is away: a bot plays, the table waits, or the game is lost.",
    "access_what_decide_absence": "decide about an absent player",
}
