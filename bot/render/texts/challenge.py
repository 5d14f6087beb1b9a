"""Server challenges (``/doko herausforderung``): the same deals for everyone."""

from __future__ import annotations

DE: dict[str, str] = {
    "access_what_create_challenge": "Eine Herausforderung anlegen",
    "ch_created": (
        "**Herausforderung {id}** ist eröffnet: {deals} Spiele ({rules}) gegen drei Bots "
        "({level}), bis {ends}. Alle spielen dieselben Karten auf demselben Platz und werden "
        "mit allen verglichen, die dieselbe Hand hatten. Mitspielen: `/doko herausforderung "
        "spielen` (einmal, im eigenen Tempo, in deinen Direktnachrichten)."
    ),
    "ch_started": (
        "Herausforderung {id}: dein erstes Spiel liegt in deinen Direktnachrichten. Du kannst "
        "jederzeit Pause machen und mit `/doko herausforderung spielen` weitermachen."
    ),
    "ch_resumed": (
        "Herausforderung {id}: weiter geht es in deinen Direktnachrichten (Spiel {deal} von "
        "{deals})."
    ),
    "ch_no_dm": (
        "Ich kann dir keine Direktnachricht schicken. Erlaube Direktnachrichten von "
        "Servermitgliedern und versuche es noch einmal."
    ),
    "err_no_challenge": "Auf diesem Server gibt es keine solche Herausforderung.",
    "err_challenge_ended": "Diese Herausforderung ist beendet.",
    "err_already_played": "Du hast diese Herausforderung schon gespielt.",
    "err_bad_deals": "Eine Herausforderung hat 1 bis 48 Spiele.",
    "err_bad_days": "Eine Herausforderung läuft 1 bis 31 Tage.",
    "ch_err_table_exists": (
        "Du spielst gerade eine andere Herausforderung dieses Servers: spiele sie erst zu Ende."
    ),
    "ch_title": "Herausforderung {id} · {deals} Spiele",
    "ch_title_final": "Herausforderung {id} · Endstand",
    "ch_about": "{rules}, Bots: {level}. {state}",
    "ch_open_until": "Läuft bis {ends}.",
    "ch_ended_at": "Beendet am {ends}.",
    "ch_nobody": "Noch hat niemand ein Spiel beendet.",
    "ch_line": "{rank}. {name}: {diff} gegen das Feld ({points} Punkte, {done}/{deals} Spiele)",
    "ch_standings": "Stand",
    "ch_explain": (
        "Je Spiel zählt der Unterschied deiner Punkte zum Schnitt aller, die dieselbe Hand "
        "auf demselben Platz hatten."
    ),
    "ch_best": "Bestes Spiel",
    "ch_worst": "Schwächstes Spiel",
    "ch_deal_line": (
        "{name}, Spiel {deal} ({seat}): {points} Punkte, Feld {mean} ({field} Spieler), {diff}"
    ),
    "ch_your_deals": "Deine Spiele",
    "ch_own_line": "Spiel {deal} ({seat}): {points} Punkte, Feld {mean}, {diff}",
    "ch_seat_0": "Vorhand",
    "ch_seat_1": "Mittelhand",
    "ch_seat_2": "Hinterhand",
    "ch_seat_3": "Geber",
}

EN: dict[str, str] = {
    "access_what_create_challenge": "create a challenge",
    "ch_created": (
        "**Challenge {id}** is open: {deals} games ({rules}) against three bots ({level}), "
        "until {ends}. Everyone plays the same cards in the same seat and is compared with "
        "everyone who held the same hand. To take part: `/doko challenge play` "
        "(once, at your own pace, in your direct messages)."
    ),
    "ch_started": (
        "Challenge {id}: your first game is in your direct messages. Take a break whenever "
        "you like and go on with `/doko challenge play`."
    ),
    "ch_resumed": "Challenge {id}: carry on in your direct messages (game {deal} of {deals}).",
    "ch_no_dm": (
        "I cannot send you a direct message. Allow direct messages from server members and "
        "try again."
    ),
    "err_no_challenge": "This server has no such challenge.",
    "err_challenge_ended": "This challenge has ended.",
    "err_already_played": "You have already played this challenge.",
    "err_bad_deals": "A challenge has 1 to 48 games.",
    "err_bad_days": "A challenge runs for 1 to 31 days.",
    "ch_err_table_exists": (
        "You are playing another challenge of this server: finish that one first."
    ),
    "ch_title": "Challenge {id} · {deals} games",
    "ch_title_final": "Challenge {id} · final standings",
    "ch_about": "{rules}, bots: {level}. {state}",
    "ch_open_until": "Open until {ends}.",
    "ch_ended_at": "Ended on {ends}.",
    "ch_nobody": "Nobody has finished a game yet.",
    "ch_line": "{rank}. {name}: {diff} against the field ({points} points, {done}/{deals} games)",
    "ch_standings": "Standings",
    "ch_explain": (
        "Each game counts the difference between your points and the average of everyone "
        "who held the same hand in the same seat."
    ),
    "ch_best": "Best game",
    "ch_worst": "Weakest game",
    "ch_deal_line": (
        "{name}, game {deal} ({seat}): {points} points, field {mean} ({field} players), {diff}"
    ),
    "ch_your_deals": "Your games",
    "ch_own_line": "Game {deal} ({seat}): {points} points, field {mean}, {diff}",
    "ch_seat_0": "first hand (Vorhand)",
    "ch_seat_1": "second hand (Mittelhand)",
    "ch_seat_2": "third hand (Hinterhand)",
    "ch_seat_3": "dealer",
}
