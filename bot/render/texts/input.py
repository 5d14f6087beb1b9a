"""Input that cannot be taken: outdated buttons, options outside their range, score sheets of
games that cannot have happened, and the last-resort answer when a handler fails.
"""

from __future__ import annotations

DE: dict[str, str] = {
    "input_outdated": "Dieser Knopf ist veraltet und gilt nicht mehr.",
    "input_outdated_hand": "Dieser Knopf ist veraltet. Hier sind deine aktuellen Karten:",
    "input_failed": "Da ist etwas schiefgegangen, es hat sich nichts geändert. "
    "Versuch es bitte noch einmal.",
    "input_range": "**{option}** geht von {low} bis {high}, nicht {value}.",
    "input_length": "**{option}** hat {low} bis {high} Zeichen, nicht {value}.",
    "input_choice": "**{option}** kennt „{value}“ nicht. Zur Wahl: {names}.",
    # Score sheets (/doko abrechnen): the rule the entries break.
    "impossible_augen_tricks": "Augen und Stiche passen nicht zusammen: {party} hat {augen} "
    "Augen; so viele Stiche ({tricks}) enthalten {low} bis {high} Augen.",
    "impossible_fuechse": "{count} Füchse kann es nicht geben: im Spiel sind nur zwei Karo-Asse.",
    "impossible_karlchen": "{count}-mal Karlchen kann es nicht geben: nur der letzte Stich "
    "bringt einen Karlchen.",
    "impossible_no_trick": "{party} hat keinen Stich gemacht und kann daher keinen "
    "Sonderpunkt haben.",
    "impossible_doppelkopf_tricks": "{count} Doppelköpfe für {party} gehen nicht: mehr "
    "Doppelköpfe als Stiche ({tricks}).",
    "impossible_doppelkopf_augen": "Doppelköpfe für {party}: {count}. Jeder ist ein Stich mit "
    "mindestens 40 Augen, zusammen also {need}, {party} hat aber nur {augen}.",
    "impossible_fuchs_augen": "Füchse gefangen von {party}: {count}. Das sind schon {need} "
    "Augen, {party} hat aber nur {augen}.",
    # Tournament corrections (/doko turnier korrigieren): points no game gives.
    "err_impossible_score_count": "Ein Spiel hat vier Spieler: bitte vier Punktzahlen.",
    "err_impossible_score_sum": "Die Punkte eines Spiels ergeben zusammen 0.",
    "err_impossible_score_shape": "So endet kein Spiel: zwei gewinnen, was zwei verlieren "
    "(z. B. 2,2,-2,-2), oder ein Solist bekommt das Dreifache (z. B. 3,-1,-1,-1).",
}

EN: dict[str, str] = {
    "input_outdated": "This button is outdated and no longer counts.",
    "input_outdated_hand": "This button is outdated. Here are your current cards:",
    "input_failed": "Something went wrong; nothing has changed. Please try again.",
    "input_range": "**{option}** goes from {low} to {high}, not {value}.",
    "input_length": "**{option}** takes {low} to {high} characters, not {value}.",
    "input_choice": "**{option}** has no “{value}”. Choose from: {names}.",
    "impossible_augen_tricks": "Augen and tricks do not fit together: {party} has {augen} "
    "Augen; that many tricks ({tricks}) hold {low} to {high} Augen.",
    "impossible_fuechse": "There cannot be {count} Füchse: the deck has only two Karo-Asse "
    "(aces of diamonds).",
    "impossible_karlchen": "There cannot be {count} Karlchen: only the last trick earns one.",
    "impossible_no_trick": "{party} took no trick, so it cannot have a Sonderpunkt.",
    "impossible_doppelkopf_tricks": "{count} Doppelköpfe for {party} cannot be: more "
    "Doppelköpfe than tricks ({tricks}).",
    "impossible_doppelkopf_augen": "Doppelköpfe for {party}: {count}. Each is a trick of at "
    "least 40 Augen, {need} in all, but {party} has only {augen}.",
    "impossible_fuchs_augen": "Füchse caught by {party}: {count}. That alone is {need} Augen, "
    "but {party} has only {augen}.",
    "err_impossible_score_count": "A game has four players: give four scores.",
    "err_impossible_score_sum": "The points of a game add up to 0.",
    "err_impossible_score_shape": "No game ends like this: two win what two lose "
    "(e.g. 2,2,-2,-2), or a soloist gets three times as much (e.g. 3,-1,-1,-1).",
}
