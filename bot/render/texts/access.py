"""Who may do what (a refusal names who may), and times in the server's time zone."""

from __future__ import annotations

DE: dict[str, str] = {
    # "{what} ist {who} vorbehalten." — who: the parts below, joined with "," and "oder".
    "access_refused": "{what} ist {who} vorbehalten.",
    "access_or": "oder",
    "access_who_host": "dem Gastgeber des Tisches ({name})",
    "access_who_organiser": "der Turnierleitung ({name})",
    "access_who_manage": "Mitgliedern mit „Server verwalten“",
    "access_who_role": "Mitgliedern mit der Rolle {role}",
    "access_what_stop_table": "Den Tisch beenden",
    "access_what_remove_bot": "Einen Bot vom Tisch nehmen",
    "access_what_create_tournament": "Ein Turnier anlegen",
    "access_what_run_tournament": "Das Turnier starten, pausieren, beenden oder Spieler ersetzen",
    "access_what_correct_tournament": "Ein Turnierspiel berichtigen",
    "access_what_change_settings": "Die Einstellungen des Bots für diesen Server ändern",
    "pictures_off_here": (
        "Der Tisch spielt hier ohne Bilder: dem Bot fehlt in diesem Kanal „{missing}“."
    ),
    # Times: given and shown in the server's zone, with Discord's own local-time markup.
    "time_shown": "{date}, {clock} Uhr ({zone}; bei dir: {local})",
    "time_bad": "Beginn bitte als JJJJ-MM-TT HH:MM angeben, in der Zeit des Servers ({zone}).",
    "time_gap": (
        "{clock} Uhr gibt es am {date} in {zone} nicht: die Uhr springt da vor "
        "(Sommerzeit). Bitte eine andere Uhrzeit angeben."
    ),
    "time_fold": (
        "{clock} Uhr gibt es am {date} in {zone} zweimal (Ende der Sommerzeit): "
        "das Turnier beginnt beim ersten Mal ({utc})."
    ),
}

EN: dict[str, str] = {
    "access_refused": "Only {who} may {what}.",
    "access_or": "or",
    "access_who_host": "the table's host ({name})",
    "access_who_organiser": "the organiser ({name})",
    "access_who_manage": "members with Manage Server",
    "access_who_role": "members with the role {role}",
    "access_what_stop_table": "stop the table",
    "access_what_remove_bot": "remove a bot from the table",
    "access_what_create_tournament": "create a tournament",
    "access_what_run_tournament": "start, pause or end the tournament or replace players",
    "access_what_correct_tournament": "correct a tournament game",
    "access_what_change_settings": "change the bot's settings for this server",
    "pictures_off_here": (
        "This table plays without pictures here: the bot lacks {missing} in this channel."
    ),
    "time_shown": "{date}, {clock} ({zone}; your time: {local})",
    "time_bad": "Give the start as YYYY-MM-DD HH:MM, in the server's time ({zone}).",
    "time_gap": (
        "{clock} does not exist on {date} in {zone}: the clocks jump forward then "
        "(daylight saving time). Please give another time."
    ),
    "time_fold": (
        "{clock} happens twice on {date} in {zone} (daylight saving time ends): "
        "the tournament starts at the first ({utc})."
    ),
}
