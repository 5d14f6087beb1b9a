"""Answers to clicks and commands, and the reasons an action is refused."""

from __future__ import annotations

DE: dict[str, str] = {
    "joined": "Du sitzt an Tisch {table}.",
    "left": "Du hast Tisch {table} verlassen.",
    "left_game": "Ein Bot spielt für dich weiter; »Zurück an den Tisch« holt dich zurück.",
    "back_in_game": "Willkommen zurück: du spielst wieder selbst.",
    "ai_removed": "Der Bot hat Platz {n} verlassen.",
    "ai_added": "Bot ({level}) sitzt jetzt an Tisch {table}.",
    "started": "Das Spiel beginnt!",
    "dm_sent": "Deine Karten kommen per DM.",
    "dm_closed": (
        "Ich kann dir keine DM schicken. Deine Karten siehst du über »Meine Karten« "
        "an der Tischnachricht oder mit /doko karten."
    ),
    "played": "Gespielt: {card}",
    "called": "Angesagt: {call}",
    "table_created": "Tisch {table} ist eröffnet.",
    "table_stopped": "Tisch {table} ist geschlossen.",
    "no_table_here": "In diesem Kanal gibt es keinen offenen Tisch. Eröffne einen mit /doko tisch.",
    "guild_only": "Das geht nur in einem Server-Kanal.",
    "export_ready": "Spiel #{game_id} als doko-game/1:",
    "export_running": "Ein laufendes Spiel kann nicht exportiert werden – erst nach dem Ende.",
    "export_none": "Hier wurde noch kein Spiel zu Ende gespielt.",
    "export_unknown": "Ein beendetes Spiel #{game_id} gibt es in diesem Server nicht.",
    "stand_title": "Spielliste · Tisch {table}",
    "stand_empty": "Noch kein Spiel beendet.",
    "rules_title": "Regeln",
    "score_title": "Abrechnung",
    "score_seats": "Re: {seats}",
    "seat_short": "Platz {n}",
    "help_title": "Doppelkopf-Hilfe",
    "help_body": (
        "**/doko tisch** – Tisch in diesem Kanal eröffnen (Regeln, Spiele, Zugzeit, "
        "4 oder 5 Plätze: zu fünft setzt der Geber jedes Spiel aus)\n"
        "**/doko karten** – deine Karten noch einmal zeigen\n"
        "**/doko ansage** – Re, Kontra, keine 90/60/30, schwarz\n"
        "**/doko stand** – Spielliste dieses Tisches\n"
        "**/doko rangliste** – Rangliste des Servers\n"
        "**/doko statistik** – Zahlen eines Spielers\n"
        "**/doko regeln** – Regeln dieses Tisches\n"
        "**/doko export** – ein beendetes Spiel als doko-game/1-Datei\n"
        "**/doko abrechnen** – ein Spiel mit echten Karten abrechnen\n"
        "**/doko stopp** – Tisch beenden (Gastgeber oder Admins)\n"
        "**/doko benachrichtigung** – wann dich der Bot an deinen Zug erinnert "
        "(aus, sofort, nach 20 oder 60 Sekunden)\n"
        "**/doko einstellungen** – die Standards dieses Servers für neue Tische: Regeln, "
        "Zugzeit, Bots, Sprache, Bot-Admin-Rolle, Zeitzone (ändern: Server verwalten)\n"
        "**/doko turnier** – Pflichtsolo-Turniere anlegen, anmelden, spielen\n"
        "**/doko herausforderung** – dieselben Karten für alle, allein gegen drei Bots, "
        "verglichen mit allen auf demselben Platz\n"
        "**/doko meine-tische** – deine offenen Tische, wo du am Zug bist zuerst\n\n"
        "Nach jedem Spiel zeigt »Spielanalyse« am Ergebnis nur dir, wo die KI mehr erwartet "
        "hätte. `/doko tisch protokoll:` öffnet je Spiel einen Thread mit dem Protokoll, "
        "`coach:` gibt Tipps (solche Spiele zählen nicht für die Rangliste).\n\n"
        "Deine Karten kommen per DM als Knöpfe; nur spielbare Karten sind aktiv, Trümpfe "
        "sind blau. Sind deine DMs zu, öffnet »Meine Karten« an der Tischnachricht dieselbe "
        "Ansicht nur für dich."
    ),
    "stale": "Dieser Knopf ist veraltet – der Tisch hat sich inzwischen geändert. "
    "Nimm die aktuelle Nachricht.",
    "not_for_you": "Das ist nicht dein Knopf.",
    "refused": "Geht nicht: {reason}",
    "busy": "Einen Moment, der Tisch antwortet gerade nicht. Versuch es gleich noch einmal.",
    "err_no_table": "Dieser Tisch ist nicht mehr offen.",
    "unowned": "Der Bot-Prozess dieses Tisches antwortet gerade nicht, deine Aktion wurde nicht "
    "ausgeführt. Versuch es gleich noch einmal.",
    "err_no_game": "An diesem Tisch läuft gerade kein Spiel.",
    "err_not_seated": "Du sitzt nicht an diesem Tisch.",
    "err_already_seated": "Du sitzt schon an diesem Tisch.",
    "err_already_away": "Für dich spielt schon ein Bot.",
    "err_game_running": "Das Spiel läuft schon – das geht nur vor dem Start.",
    "err_table_exists": "In diesem Kanal gibt es schon einen Tisch.",
    "err_table_full": "Alle Plätze sind besetzt.",
    "err_sitting_out": "Du gibst und setzt in diesem Spiel aus.",
    "err_seat_taken": "Dieser Platz ist besetzt.",
    "err_bad_seat": "Diesen Platz gibt es an diesem Tisch nicht.",
    "err_bad_level": "Bots gibt es als leicht, mittel und schwer.",
    "err_bad_games": "Eine Runde hat mindestens ein Spiel.",
    "err_bad_timer": "Die Zugzeit muss mindestens 5 Sekunden sein.",
    "err_not_ai_seat": "Auf diesem Platz sitzt kein Bot.",
    "err_not_host": "Nur der Gastgeber oder Server-Admins können den Tisch beenden.",
    "err_stale_version": "Dieser Knopf ist veraltet – nimm die aktuelle Nachricht.",
    "err_bad_action": "Diese Aktion verstehe ich nicht.",
    "err_not_your_seat": "Dieser Knopf gehört zu einem anderen Platz.",
    "err_not_owner": "Dieser Tisch läuft gerade auf einem anderen Teil des Bots. "
    "Versuch es gleich noch einmal.",
    "err_game_finished": "Das Spiel ist vorbei.",
    "err_wrong_phase": "Das geht in diesem Abschnitt des Spiels nicht.",
    "err_not_your_turn": "Du bist nicht am Zug.",
    "err_nothing_to_reserve": "Du hast nichts, was du als Vorbehalt ansagen könntest.",
    "err_hochzeit_needs_both_alten": "Eine Hochzeit braucht beide Kreuz-Damen.",
    "err_not_declarable": "Dieses Spiel kannst du hier nicht ansagen.",
    "err_card_not_in_hand": "Diese Karte hast du nicht auf der Hand.",
    "err_must_follow_suit": "Du musst bedienen: {led} ist ausgespielt, und du hast {what}.",
    "err_must_follow_suit_plain": "Du musst bedienen.",
    "err_vorbehalt_open": "Ansagen gehen erst nach der Vorbehaltsabfrage.",
    "err_hochzeit_not_clarified": "Ansagen gehen erst, wenn der Klärungsstich der Hochzeit "
    "entschieden ist.",
    "err_party_unknown": "Deine Partei steht noch nicht fest.",
    "err_wrong_party": "Das ist die Ansage der anderen Partei.",
    "err_absagen_disabled": "Absagen sind an diesem Tisch abgeschaltet.",
    "err_erstansage_too_late": "Zu spät für Re/Kontra: dafür brauchst du noch mindestens "
    "{need} Karten auf der Hand (TSR 6.2).",
    "err_erwiderung_too_late": "Zu spät für eine Erwiderung (TSR 6.4).",
    "err_implied_ansage_too_late": "Diese Absage schlösse ein Re/Kontra ein, das jetzt nur "
    "noch als Erwiderung ginge – und eine Erwiderung ist nie eine Absage (TSR 6.4).",
    "err_absage_after_late_reply": "Nach einer späten Erwiderung darf deine Partei keine "
    "Absagen mehr machen (TSR 6.4).",
    "err_absage_too_late": "Zu spät für diese Absage: dafür brauchst du noch mindestens "
    "{need} Karten auf der Hand (TSR 6.3).",
    "err_unknown": "Das geht gerade nicht ({reason}).",
    "phase_armut": "Armut",
    "armut_line": "Armut von {name} ({n} Trümpfe)",
    "armut_declined": "Nicht genommen von: {names}",
    "armut_taken": "Genommen von {name} – Re: {poor} und {name}",
    "armut_returned": "Zurückgegeben: {n} Karten, davon {trumps} Trumpf/Trümpfe",
    "armut_take_prompt": "{name} bietet eine Armut an ({n} Trümpfe). Nimmst du sie?",
    "armut_return_prompt": "Gib {n} Karten an {name} zurück (Trümpfe erlaubt).",
    "armut_offer_prompt": "Du kannst deine Trümpfe als Armut anbieten.",
    "armut_received": "Bekommen: {cards}",
    "schmeissen_prompt": "Du darfst diese Hand **schmeißen** (neu geben).",
    "schweinchen_line": "Schweinchen: {name} (beide Karo-Asse sind die höchsten Trümpfe)",
    "bock_line": "Bock ×{n}",
    "redeal_schmeissen": "Neu gegeben: {name} hat geschmissen.",
    "redeal_armut_declined": "Neu gegeben: niemand hat die Armut von {name} genommen.",
    "redeal_unknown": "Neu gegeben.",
    "rules_head": "Regeln: {name}",
    "rules_games": "An diesem Tisch: {games} Spiele.",
    "err_schmeissen_not_allowed": "Diese Hand darf an diesem Tisch nicht geschmissen werden.",
    "err_armut_not_allowed": "Eine Armut geht hier nicht (abgeschaltet oder zu viele Trümpfe).",
    "err_armut_must_offer_trumps": "Eine Armut bietet genau alle Trümpfe der Hand an.",
    "err_armut_taken": "Die Armut ist schon genommen.",
    "err_armut_not_taken": "Karten gibt nur zurück, wer die Armut genommen hat.",
    "err_armut_return_count": "Gib genau so viele Karten zurück, wie du bekommen hast.",
    "trump": "Trumpf",
    "suit_0": "Kreuz",
    "suit_1": "Pik",
    "suit_2": "Herz",
    "suit_3": "Karo",
}

EN: dict[str, str] = {
    "joined": "You sit at table {table}.",
    "left": "You left table {table}.",
    "left_game": "A bot plays for you; “Back to the table” brings you back.",
    "back_in_game": "Welcome back: you play yourself again.",
    "ai_removed": "The bot left seat {n}.",
    "ai_added": "A bot ({level}) sits at table {table} now.",
    "started": "The game begins!",
    "dm_sent": "Your cards come by DM.",
    "dm_closed": (
        "I cannot send you a DM. Open your cards with “My cards” on the table message "
        "or with /doko cards."
    ),
    "played": "Played: {card}",
    "called": "Called: {call}",
    "table_created": "Table {table} is open.",
    "table_stopped": "Table {table} is closed.",
    "no_table_here": "There is no open table in this channel. Open one with /doko table.",
    "guild_only": "This only works in a server channel.",
    "export_ready": "Game #{game_id} as doko-game/1:",
    "export_running": "A running game cannot be exported – only after it has ended.",
    "export_none": "No game has been finished here yet.",
    "export_unknown": "There is no finished game #{game_id} in this server.",
    "stand_title": "Spielliste · table {table}",
    "stand_empty": "No game finished yet.",
    "rules_title": "Rules",
    "score_title": "Score",
    "score_seats": "Re: {seats}",
    "seat_short": "seat {n}",
    "help_title": "Doppelkopf help",
    "help_body": (
        "**/doko table** – open a table in this channel (rules, games, turn timer, "
        "4 or 5 seats: with five the dealer sits out each game)\n"
        "**/doko cards** – show your cards again\n"
        "**/doko call** – Re, Kontra, no 90/60/30, schwarz\n"
        "**/doko standings** – this table's Spielliste\n"
        "**/doko leaderboard** – the server's leaderboard\n"
        "**/doko stats** – a player's figures\n"
        "**/doko rules** – this table's rules\n"
        "**/doko export** – a finished game as a doko-game/1 file\n"
        "**/doko score** – score a game played with real cards\n"
        "**/doko stop** – end the table (host or admins)\n"
        "**/doko notify** – when the bot reminds you that it is your turn "
        "(off, at once, after 20 or 60 seconds)\n"
        "**/doko settings** – this server's defaults for new tables: rules, turn timer, "
        "bots, language, bot admin role, time zone (to change: Manage Server)\n"
        "**/doko tournament** – create, join and play Pflichtsolo tournaments\n"
        "**/doko challenge** – the same cards for everyone, alone against three bots, "
        "compared with everyone in the same seat\n"
        "**/doko my-tables** – your open tables, your moves first\n\n"
        "After each game, “Spielanalyse” on the result shows you alone where the AI would "
        "have expected more. `/doko table protocol:` opens a thread with each game's "
        "protocol, `coach:` gives tips (such games do not count on the leaderboard).\n\n"
        "Your cards come by DM as buttons; only playable cards are enabled, trumps are "
        "blue. If your DMs are closed, “My cards” on the table message opens the same view "
        "just for you."
    ),
    "stale": "This button is outdated – the table has changed since. Use the current message.",
    "not_for_you": "This is not your button.",
    "refused": "Not possible: {reason}",
    "busy": "One moment, the table is not answering right now. Try again shortly.",
    "err_no_table": "This table is not open any more.",
    "unowned": "The bot process running this table is not answering right now; your action was "
    "not carried out. Try again shortly.",
    "err_no_game": "No game is running at this table.",
    "err_not_seated": "You do not sit at this table.",
    "err_already_seated": "You already sit at this table.",
    "err_already_away": "A bot already plays for you.",
    "err_game_running": "The game is running – this is only possible before the start.",
    "err_table_exists": "This channel already has a table.",
    "err_table_full": "All seats are taken.",
    "err_sitting_out": "You deal and sit this game out.",
    "err_seat_taken": "That seat is taken.",
    "err_bad_seat": "This table has no such seat.",
    "err_bad_level": "Bots come as leicht, mittel and schwer.",
    "err_bad_games": "A round has at least one game.",
    "err_bad_timer": "The turn timer must be at least 5 seconds.",
    "err_not_ai_seat": "There is no bot on that seat.",
    "err_not_host": "Only the host or a server admin can stop the table.",
    "err_stale_version": "This button is outdated – use the current message.",
    "err_bad_action": "I do not understand this action.",
    "err_not_your_seat": "This button belongs to another seat.",
    "err_not_owner": "Another part of the bot runs this table right now. Try again in a moment.",
    "err_game_finished": "The game is over.",
    "err_wrong_phase": "That is not possible in this part of the game.",
    "err_not_your_turn": "It is not your turn.",
    "err_nothing_to_reserve": "You have nothing you could declare as a Vorbehalt.",
    "err_hochzeit_needs_both_alten": "A Hochzeit needs both Kreuz-Damen (queens of clubs).",
    "err_not_declarable": "You cannot declare that game here.",
    "err_card_not_in_hand": "You do not hold that card.",
    "err_must_follow_suit": "You must follow suit: {led} was led and you hold {what}.",
    "err_must_follow_suit_plain": "You must follow suit.",
    "err_vorbehalt_open": "Calls are only possible after the Vorbehaltsabfrage.",
    "err_hochzeit_not_clarified": "Calls are only possible once the Hochzeit's Klärungsstich "
    "(deciding trick) is complete.",
    "err_party_unknown": "Your party is not decided yet.",
    "err_wrong_party": "That is the other party's call.",
    "err_absagen_disabled": "Absagen are switched off at this table.",
    "err_erstansage_too_late": "Too late for Re/Kontra: you must still hold at least {need} "
    "cards (TSR 6.2).",
    "err_erwiderung_too_late": "Too late for a reply to the opponents' call (TSR 6.4).",
    "err_implied_ansage_too_late": "This Absage would imply a Re/Kontra that is only possible "
    "as a reply now – and a reply is never an Absage (TSR 6.4).",
    "err_absage_after_late_reply": "After a late reply your party may make no Absagen (TSR 6.4).",
    "err_absage_too_late": "Too late for this Absage: you must still hold at least {need} "
    "cards (TSR 6.3).",
    "err_unknown": "That is not possible right now ({reason}).",
    "phase_armut": "Armut (a poor hand)",
    "armut_line": "Armut of {name} ({n} trumps)",
    "armut_declined": "Declined by: {names}",
    "armut_taken": "Taken by {name} – Re: {poor} and {name}",
    "armut_returned": "Returned: {n} cards, {trumps} of them trumps",
    "armut_take_prompt": "{name} offers an Armut ({n} trumps). Do you take it?",
    "armut_return_prompt": "Give {n} cards back to {name} (trumps allowed).",
    "armut_offer_prompt": "You may offer your trumps as an Armut.",
    "armut_received": "Received: {cards}",
    "schmeissen_prompt": "You may throw this hand in (**Schmeißen**, redeal).",
    "schweinchen_line": "Schweinchen: {name} (both Karo-Asse are the highest trumps)",
    "bock_line": "Bock ×{n}",
    "redeal_schmeissen": "Redeal: {name} threw the hand in (Schmeißen).",
    "redeal_armut_declined": "Redeal: nobody took {name}'s Armut.",
    "redeal_unknown": "Redeal.",
    "rules_head": "Rules: {name}",
    "rules_games": "At this table: {games} games.",
    "err_schmeissen_not_allowed": "This hand may not be thrown in under this table's rules.",
    "err_armut_not_allowed": "No Armut here (switched off, or too many trumps).",
    "err_armut_must_offer_trumps": "An Armut offers exactly all trumps of the hand.",
    "err_armut_taken": "The Armut has been taken already.",
    "err_armut_not_taken": "Only the player who took the Armut returns cards.",
    "err_armut_return_count": "Return exactly as many cards as you received.",
    "trump": "trump",
    "suit_0": "Kreuz (clubs)",
    "suit_1": "Pik (spades)",
    "suit_2": "Herz (hearts)",
    "suit_3": "Karo (diamonds)",
}
