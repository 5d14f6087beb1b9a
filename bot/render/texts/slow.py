"""Slow tables: the time per move, the reminders by DM, ``/doko meine-tische``."""

from __future__ import annotations

DE: dict[str, str] = {
    "tempo_hours": "{n} Stunden",
    "tempo_hour": "1 Stunde",
    "tempo_days": "{n} Tage",
    "tempo_day": "1 Tag",
    "slow_lobby_line": (
        "🐢 Langsamer Tisch: {tempo} Bedenkzeit pro Zug, Erinnerung per DM zur Halbzeit "
        "und eine Stunde vor Ablauf."
    ),
    "slow_lobby_line_half": (
        "🐢 Langsamer Tisch: {tempo} Bedenkzeit pro Zug, Erinnerung per DM zur Halbzeit."
    ),
    "slow_turn_line": (
        "⏳ **{name}** ist am Zug (begonnen {since}); die Zeit läuft ab {due} ({at})."
    ),
    "slow_reminder": (
        "⏰ Erinnerung: Du bist am Zug an Tisch {table} (Spiel {game}). "
        "Deine Zeit läuft ab {due}, danach gilt: {policy}."
    ),
    "slow_reminder_last": (
        "⏰ Letzte Erinnerung: Du bist am Zug an Tisch {table} (Spiel {game}). "
        "Deine Zeit läuft ab {due}, danach gilt: {policy}."
    ),
    "set_tempo_pick": "Langsamer Tisch: {tempo} pro Zug, mit Erinnerungen",
    "my_tables_none": "Du sitzt an keinem offenen Tisch.",
    "my_tables_turn_head": "**Du bist am Zug**",
    "my_tables_other_head": "**Deine anderen Tische**",
    "my_tables_table": "Tisch {table}",
    "my_tables_game": "Spiel {game}",
    "my_tables_lobby": "Lobby",
    "my_tables_since": "begonnen {since}",
    "my_tables_due": "Zeit läuft ab {due}",
    "my_tables_no_link": "(die Tischnachricht kommt noch)",
    "my_tables_more": "… und {n} weitere.",
    "err_bad_tempo": "Ein langsamer Tisch gibt mindestens eine Stunde pro Zug.",
    "help_slow_title": "Langsame Tische",
    "help_slow": (
        "`/doko tisch bedenkzeit:` gibt jedem Zug Stunden oder Tage (statt der Zugzeit). "
        "Du wirst per DM zur Halbzeit und eine Stunde vor Ablauf erinnert; danach gilt "
        "„Bei Abwesenheit“. `/doko meine-tische` zeigt alle deine Tische, wo du am Zug bist "
        "zuerst."
    ),
}

EN: dict[str, str] = {
    "tempo_hours": "{n} hours",
    "tempo_hour": "1 hour",
    "tempo_days": "{n} days",
    "tempo_day": "1 day",
    "slow_lobby_line": (
        "🐢 Slow table: {tempo} per move, reminders by DM at half time and an hour "
        "before the time runs out."
    ),
    "slow_lobby_line_half": "🐢 Slow table: {tempo} per move, a reminder by DM at half time.",
    "slow_turn_line": "⏳ **{name}** to move (began {since}); the time runs out {due} ({at}).",
    "slow_reminder": (
        "⏰ Reminder: it is your move at table {table} (game {game}). "
        "Your time runs out {due}; then: {policy}."
    ),
    "slow_reminder_last": (
        "⏰ Last reminder: it is your move at table {table} (game {game}). "
        "Your time runs out {due}; then: {policy}."
    ),
    "set_tempo_pick": "Slow table: {tempo} per move, with reminders",
    "my_tables_none": "You sit at no open table.",
    "my_tables_turn_head": "**Your move**",
    "my_tables_other_head": "**Your other tables**",
    "my_tables_table": "Table {table}",
    "my_tables_game": "game {game}",
    "my_tables_lobby": "lobby",
    "my_tables_since": "began {since}",
    "my_tables_due": "time runs out {due}",
    "my_tables_no_link": "(the table message is on its way)",
    "my_tables_more": "… and {n} more.",
    "err_bad_tempo": "A slow table gives at least an hour per move.",
    "help_slow_title": "Slow tables",
    "help_slow": (
        "`/doko table time_per_move:` gives each move hours or days (in place of the turn "
        "timer). You are reminded by DM at half time and an hour before the time runs out; "
        "then the table's “when away” choice applies. `/doko my-tables` lists all your "
        "tables, your moves first."
    ),
}
