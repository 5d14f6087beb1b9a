"""The texts players read, in German (the default) and English.

``t(lang, key, **values)`` formats one text; a key missing in English falls back to German.
Doppelkopf terms (Re, Kontra, Hochzeit, Vorbehalt, Augen, Spielliste …) stay German in both.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["de", "en"]


def lang_of(locale: object) -> Lang:
    """English for any ``en-*`` locale, German for everything else."""
    return "en" if str(locale or "").lower().startswith("en") else "de"


DE: dict[str, str] = {
    # buttons
    "btn_join": "Beitreten",
    "btn_leave": "Verlassen",
    "btn_add_ai": "Bot hinzufügen ({level})",
    "btn_remove_ai": "Bot von Platz {n} entfernen",
    "btn_pause": "Pause (ein Bot spielt)",
    "btn_back": "Zurück an den Tisch",
    "btn_start": "Starten",
    "btn_rules": "Regeln",
    "btn_hand": "Meine Karten",
    "btn_gesund": "Gesund",
    "btn_vorbehalt": "Vorbehalt",
    "select_declare": "Vorbehalt: Hochzeit oder Solo wählen",
    "select_declare_solo": "Vorbehalt: Solo wählen",
    "btn_schmeissen": "Schmeißen",
    "btn_armut": "Armut anbieten ({n} Trümpfe)",
    "btn_take_armut": "Armut nehmen",
    "btn_decline_armut": "Nicht nehmen",
    "select_return": "{n} Karten zurückgeben",
    # lobby and table
    "lobby_title": "Doppelkopf · Tisch {table}",
    "lobby_desc": (
        "Gastgeber: {host}\n{games} Spiele · Regeln: {rules}{timer}\n"
        "Beitreten, Bots hinzufügen, dann **Starten** (freie Plätze übernehmen Bots)."
    ),
    "timer": " · Zugzeit {seconds} s",
    "seats": "Plätze",
    "seat_free": "frei",
    "seat_line": "Platz {n}: {name}",
    "sitting_out_line": "{name} gibt und setzt in diesem Spiel aus (0 Punkte).",
    "sits_out": "setzt aus (gibt)",
    "five_seats_suffix": " · 5 Plätze (der Geber setzt aus)",
    "you_sit_out": "Du gibst und **setzt in diesem Spiel aus** (0 Punkte). "
    "Im nächsten Spiel bekommst du wieder Karten.",
    "ai_suffix": " (Bot {level})",
    "away_suffix": " (abwesend, Bot spielt)",
    "table_title": "Doppelkopf · Tisch {table} · Spiel {number}",
    "footer": "Tisch {table} · Spiel {number} (#{game_id})",
    "started_note": "Die Runde läuft – das Spiel steht in der neuesten Tischnachricht.",
    "closed_title": "Doppelkopf · Tisch {table} geschlossen",
    "closed_desc": "Der Tisch ist geschlossen.",
    "phase_vorbehalt": "Vorbehaltsabfrage",
    "phase_declare": "Vorbehalte werden angesagt",
    "contract_line": "Spiel: {contract}",
    "soloist_line": "{contract} von {name}",
    "hochzeit_line": "Hochzeit von {name}",
    "hochzeit_partner": "Partner: {name}",
    "hochzeit_open": "Der erste fremde Stich entscheidet den Partner.",
    "turn_line": "Am Zug: **{name}**",
    "your_turn": "**Du bist am Zug.**",
    "cards_left": "{n} Karten",
    "reserved": "Vorbehalt",
    "healthy": "gesund",
    "calls": "Ansagen",
    "no_calls": "keine",
    "current_trick": "Aktueller Stich",
    "last_trick": "Letzter Stich",
    "trick_to": "→ {name} ({augen} Augen)",
    "empty_trick": "noch keine Karte",
    "totals": "Stand",
    "dm_closed_note": "DMs geschlossen: {names} – bitte »Meine Karten« benutzen.",
    "result": "Ergebnis",
    "result_augen": "Re {re} Augen · Kontra {kontra} Augen (Stiche {re_tricks}:{kontra_tricks})",
    "winner": "{party} gewinnt.",
    "no_winner": "Keine Partei hat ihr Ziel erreicht.",
    "spielwert": "Spielwert",
    "spielwert_sum": "= Spielwert {value:+d}",
    "solo_sum": "= Wert des Solos {value:+d} (×3 für den Solisten)",
    "ignored_special": "({item} zählt im Solo nicht)",
    "note_no_winner_zero": "(kein Gewinner: das Spiel zählt nichts)",
    "note_winner_floor_zero": "(die Gewinner fallen nicht unter null)",
    "note_re_announced_doubles": "×2 (Re angesagt)",
    "note_kontra_announced_doubles": "×2 (Kontra angesagt)",
    "note_bock": "×{n} (Bock)",
    "points": "Punkte",
    "spielliste": "Spielliste",
    "session_over": "Die Runde ist zu Ende. Danke fürs Spielen!",
    # private hand
    "hand_head": "**Tisch {table} · Spiel {number} (#{game_id})** – Platz {seat}",
    "your_party": "Deine Partei: {party}",
    "your_party_unknown": "Deine Partei ist noch offen.",
    "your_cards": "Deine Karten (Trumpf blau):",
    "no_cards": "Du hast keine Karten mehr.",
    "vorbehalt_prompt": "Vorbehaltsabfrage: **Gesund** oder **Vorbehalt**?",
    "declare_prompt": "Dein Vorbehalt: wähle Hochzeit oder ein Solo.",
    "declare_solo_prompt": "Dein Vorbehalt: wähle dein Solo.",
    "calls_prompt": "Ansagen, die du jetzt machen kannst, stehen unter den Karten.",
    "game_over_hand": "Das Spiel ist vorbei.",
    # answers
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
    "no_standings": "Noch keine Ergebnisse in diesem Server.",
    "leaderboard": "Rangliste",
    "leaderboard_line": "{rank}. {name} – {points:+d} Punkte ({games} Spiele, {wins} gewonnen)",
    "stats_title": "Statistik: {name}",
    "stats_none": "{name} hat in diesem Server noch kein Spiel beendet.",
    "stats_body": (
        "Platz {rank} der Rangliste\n{points:+d} Punkte in {games} Spielen\n"
        "{wins} gewonnen ({win_rate} %)\nRe-Spiele: {re_games}\n"
        "Soli: {solos} ({solos_won} gewonnen)\nWertung: {mu:.1f} ± {sigma:.1f}"
    ),
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
        "(aus, sofort, nach 20 oder 60 Sekunden)\n\n"
        "Deine Karten kommen per DM als Knöpfe; nur spielbare Karten sind aktiv, Trümpfe "
        "sind blau. Sind deine DMs zu, öffnet »Meine Karten« an der Tischnachricht dieselbe "
        "Ansicht nur für dich."
    ),
    # refusals
    "stale": "Dieser Knopf ist veraltet – der Tisch hat sich inzwischen geändert. "
    "Nimm die aktuelle Nachricht.",
    "not_for_you": "Das ist nicht dein Knopf.",
    "refused": "Geht nicht: {reason}",
    "busy": "Einen Moment, der Tisch antwortet gerade nicht. Versuch es gleich noch einmal.",
    # engine reasons
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
    # Spielliste and one language per reader (issue 18)
    "sl_number": "Nr",
    "sl_value": "Wert",
    "spielliste_part": "Spielliste, Teil {n} von {of}",
    "spielliste_file": "Die Spielliste ({games} Spiele) ist zu lang für eine Nachricht: "
    "sie hängt als Datei an.",
    "stand_files": "Die Spielliste von Tisch {table} als CSV- und JSON-Datei.",
    "score_bad_seats": "Re-Plätze bitte als Zahlen von 1 bis 4 angeben, z. B. 1,3.",
    "score_bad_seat_count_solo": "Im Solo steht nur der Solist bei Re: genau ein Platz.",
    "score_bad_seat_count": "Re hat zwei verschiedene Plätze, z. B. 1,3.",
    "score_bad_tricks": "Augen und Stiche passen nicht zusammen ({augen} Augen in {tricks} "
    "Stichen).",
    "score_bad_special": "Sonderpunkte bitte als Art:Partei angeben, z. B. fuchs:re "
    "(Arten: fuchs, doppelkopf, karlchen; Parteien: re, kontra).",
    "score_bad_other": "Diese Angaben ergeben keine Abrechnung.",
    "csv_contract": "Spiel",
    "csv_solo": "Solo-Art",
    "csv_soloist": "Solist",
    "csv_total": "{name} gesamt",
    "csv_solo_pflicht": "Pflichtsolo",
    "csv_solo_lust": "Lustsolo",
    "csv_solo_vorgefuehrt": "vorgeführt",
    # what is played, and every hand's end (issue 18: hands-end)
    "solo_pflicht": "Pflichtsolo",
    "solo_lust": "Lustsolo",
    "solo_vorgefuehrt": "Pflichtsolo, vorgeführt",
    "vorgefuehrt_declare": "**{name}** ist vorgeführt und sagt jetzt das Pflichtsolo an "
    "(keine Vorbehaltsabfrage).",
    "vorgefuehrt_line": "Vorgeführt: **{name}**. Die offenen Pflichtsoli füllen die restlichen "
    "Spiele der Runde, also ist das Pflichtsolo jetzt fällig.",
    "vorgefuehrt_you": "**Du bist vorgeführt:** die offenen Pflichtsoli füllen die restlichen "
    "Spiele der Runde, darum spielst du jetzt dein Pflichtsolo (ohne Vorbehaltsabfrage, "
    "keine Hochzeit).",
    "vorgefuehrt_you_play": "Du bist vorgeführt: das ist dein Pflichtsolo.",
    "open_pflichtsoli": "Offene Pflichtsoli: {names} · Spiele der Runde übrig: {games}",
    "open_pflichtsoli_due": "Offene Pflichtsoli: {names} · die Spiele der Runde sind gespielt, "
    "die offenen werden vorgeführt",
    "open_pflichtsoli_none": "Alle Pflichtsoli der Runde sind gespielt.",
    "hand_result_you": "Du warst {party}: **{points:+d} Punkte** (Stand {total:+d}).",
    "hand_result_sat_out": "Du hast ausgesetzt: 0 Punkte (Stand {total:+d}).",
    # a ping on your turn (/doko benachrichtigung)
    "ping_turn": "Du bist dran an Tisch {table}.",
    "notify_off": "Aus: der Bot schreibt dich nicht an, wenn du dran bist.",
    "notify_now": "Sofort: der Bot schreibt dich an, sobald du dran bist.",
    "notify_after": (
        "Nach {seconds} s: der Bot schreibt dich an, wenn du so lange dran bist, ohne zu spielen."
    ),
    "notify_how": "Per DM mit einem Link zum Tisch; sind deine DMs zu, im Kanal des Tisches.",
    # Pictures (bot/render/pictures.py): drawn labels and alt texts.
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
    # Set-up on Discord: permissions the bot lacks in a channel.
    "err_channel_access": (
        "Der Bot kann in diesem Kanal nicht posten: gib ihm hier {missing}, "
        "dann versuche es noch einmal."
    ),
    "perm_view_channel": "Kanal ansehen",
    "perm_send_messages": "Nachrichten senden",
    "perm_embed_links": "Links einbetten",
    "perm_attach_files": "Dateien anhängen",
    "perm_create_public_threads": "Öffentliche Threads erstellen",
    "perm_send_messages_in_threads": "Nachrichten in Threads senden",
}

EN: dict[str, str] = {
    "btn_join": "Join",
    "btn_leave": "Leave",
    "btn_add_ai": "Add bot ({level})",
    "btn_remove_ai": "Remove bot from seat {n}",
    "btn_pause": "Pause (a bot plays)",
    "btn_back": "Back to the table",
    "btn_start": "Start",
    "btn_rules": "Rules",
    "btn_hand": "My cards",
    "btn_gesund": "Gesund (no reservation)",
    "btn_vorbehalt": "Vorbehalt",
    "select_declare": "Vorbehalt: choose Hochzeit or a solo",
    "select_declare_solo": "Vorbehalt: choose a solo",
    "btn_schmeissen": "Schmeißen (throw in, redeal)",
    "btn_armut": "Offer an Armut ({n} trumps)",
    "btn_take_armut": "Take the Armut",
    "btn_decline_armut": "Decline",
    "select_return": "Return {n} cards",
    "lobby_title": "Doppelkopf · Table {table}",
    "lobby_desc": (
        "Host: {host}\n{games} games · Rules: {rules}{timer}\n"
        "Join, add bots, then **Start** (bots take the empty seats)."
    ),
    "timer": " · turn timer {seconds} s",
    "seats": "Seats",
    "seat_free": "free",
    "seat_line": "Seat {n}: {name}",
    "sitting_out_line": "{name} deals and sits this game out (0 points).",
    "sits_out": "sits out (deals)",
    "five_seats_suffix": " · 5 seats (the dealer sits out)",
    "you_sit_out": "You deal and **sit this game out** (0 points). "
    "You get cards again in the next game.",
    "ai_suffix": " (bot {level})",
    "away_suffix": " (away, a bot plays)",
    "table_title": "Doppelkopf · Table {table} · Game {number}",
    "footer": "Table {table} · Game {number} (#{game_id})",
    "started_note": "The round is on – the game is in the newest table message.",
    "closed_title": "Doppelkopf · Table {table} closed",
    "closed_desc": "The table is closed.",
    "phase_vorbehalt": "Vorbehaltsabfrage (reservations)",
    "phase_declare": "Reservations are being declared",
    "contract_line": "Game: {contract}",
    "soloist_line": "{contract} by {name}",
    "hochzeit_line": "Hochzeit by {name}",
    "hochzeit_partner": "Partner: {name}",
    "hochzeit_open": "The first trick won by someone else decides the partner.",
    "turn_line": "To play: **{name}**",
    "your_turn": "**Your turn.**",
    "cards_left": "{n} cards",
    "reserved": "Vorbehalt",
    "healthy": "gesund",
    "calls": "Calls",
    "no_calls": "none",
    "current_trick": "Current trick",
    "last_trick": "Last trick",
    "trick_to": "→ {name} ({augen} Augen)",
    "empty_trick": "no card yet",
    "totals": "Score",
    "dm_closed_note": "DMs closed: {names} – please use “My cards”.",
    "result": "Result",
    "result_augen": "Re {re} Augen · Kontra {kontra} Augen (tricks {re_tricks}:{kontra_tricks})",
    "winner": "{party} wins.",
    "no_winner": "Neither party reached its target.",
    "spielwert": "Spielwert (game value)",
    "spielwert_sum": "= game value {value:+d}",
    "solo_sum": "= solo value {value:+d} (×3 for the soloist)",
    "ignored_special": "({item} does not count in a solo)",
    "note_no_winner_zero": "(no winner: the game scores nothing)",
    "note_winner_floor_zero": "(the winners never drop below zero)",
    "note_re_announced_doubles": "×2 (Re announced)",
    "note_kontra_announced_doubles": "×2 (Kontra announced)",
    "note_bock": "×{n} (Bock)",
    "points": "Points",
    "spielliste": "Spielliste",
    "session_over": "The round is over. Thanks for playing!",
    "hand_head": "**Table {table} · Game {number} (#{game_id})** – seat {seat}",
    "your_party": "Your party: {party}",
    "your_party_unknown": "Your party is not known yet.",
    "your_cards": "Your cards (trumps in blue):",
    "no_cards": "You have no cards left.",
    "vorbehalt_prompt": "Vorbehaltsabfrage: **Gesund** or **Vorbehalt**?",
    "declare_prompt": "Your Vorbehalt: choose Hochzeit or a solo.",
    "declare_solo_prompt": "Your Vorbehalt: choose your solo.",
    "calls_prompt": "The calls you can make now are below your cards.",
    "game_over_hand": "The game is over.",
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
    "no_standings": "No results in this server yet.",
    "leaderboard": "Leaderboard",
    "leaderboard_line": "{rank}. {name} – {points:+d} points ({games} games, {wins} won)",
    "stats_title": "Statistics: {name}",
    "stats_none": "{name} has not finished a game in this server yet.",
    "stats_body": (
        "Rank {rank} on the leaderboard\n{points:+d} points in {games} games\n"
        "{wins} won ({win_rate} %)\nRe games: {re_games}\n"
        "Solos: {solos} ({solos_won} won)\nRating: {mu:.1f} ± {sigma:.1f}"
    ),
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
        "(off, at once, after 20 or 60 seconds)\n\n"
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
    # Spielliste and one language per reader (issue 18)
    "sl_number": "No",
    "sl_value": "Value",
    "spielliste_part": "Spielliste, part {n} of {of}",
    "spielliste_file": "The Spielliste ({games} games) is too long for a message: "
    "it comes as a file.",
    "stand_files": "The Spielliste of table {table} as CSV and JSON files.",
    "score_bad_seats": "Give the Re seats as numbers from 1 to 4, e.g. 1,3.",
    "score_bad_seat_count_solo": "In a solo only the soloist is Re: exactly one seat.",
    "score_bad_seat_count": "Re has two different seats, e.g. 1,3.",
    "score_bad_tricks": "Augen and tricks do not fit together ({augen} Augen in {tricks} tricks).",
    "score_bad_special": "Give Sonderpunkte as kind:party, e.g. fuchs:re "
    "(kinds: fuchs, doppelkopf, karlchen; parties: re, kontra).",
    "score_bad_other": "These entries make no score sheet.",
    "csv_contract": "Contract",
    "csv_solo": "Solo kind",
    "csv_soloist": "Soloist",
    "csv_total": "{name} total",
    "csv_solo_pflicht": "Pflichtsolo (compulsory)",
    "csv_solo_lust": "Lustsolo (voluntary)",
    "csv_solo_vorgefuehrt": "vorgeführt (forced at the end)",
    # what is played, and every hand's end (issue 18: hands-end)
    "solo_pflicht": "Pflichtsolo (compulsory solo)",
    "solo_lust": "Lustsolo (voluntary solo)",
    "solo_vorgefuehrt": "Pflichtsolo, vorgeführt (forced)",
    "vorgefuehrt_declare": "**{name}** is vorgeführt and now names the Pflichtsolo "
    "(no Vorbehaltsabfrage).",
    "vorgefuehrt_line": "Vorgeführt: **{name}**. The open Pflichtsoli fill the round's "
    "remaining games, so the Pflichtsolo is due now.",
    "vorgefuehrt_you": "**You are vorgeführt:** the open Pflichtsoli fill the round's remaining "
    "games, so you play your Pflichtsolo now (no Vorbehaltsabfrage, no Hochzeit).",
    "vorgefuehrt_you_play": "You are vorgeführt: this is your Pflichtsolo.",
    "open_pflichtsoli": "Open Pflichtsoli: {names} · games of the round left: {games}",
    "open_pflichtsoli_due": "Open Pflichtsoli: {names} · the round's games are played, the open "
    "ones are vorgeführt",
    "open_pflichtsoli_none": "Every Pflichtsolo of the round has been played.",
    "hand_result_you": "You were {party}: **{points:+d} points** (total {total:+d}).",
    "hand_result_sat_out": "You sat this game out: 0 points (total {total:+d}).",
    # a ping on your turn (/doko benachrichtigung)
    "ping_turn": "Your turn at table {table}.",
    "notify_off": "Off: the bot does not ping you when it is your turn.",
    "notify_now": "At once: the bot pings you as soon as it is your turn.",
    "notify_after": "After {seconds} s: the bot pings you when your turn has waited that long.",
    "notify_how": "By DM with a link to the table; if your DMs are closed, in the table's channel.",
    # Pictures (bot/render/pictures.py): drawn labels and alt texts.
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
    # Set-up on Discord: permissions the bot lacks in a channel.
    "err_channel_access": (
        "The bot cannot post in this channel: give it {missing} here, then try again."
    ),
    "perm_view_channel": "View Channel",
    "perm_send_messages": "Send Messages",
    "perm_embed_links": "Embed Links",
    "perm_attach_files": "Attach Files",
    "perm_create_public_threads": "Create Public Threads",
    "perm_send_messages_in_threads": "Send Messages in Threads",
}

TEXTS: dict[Lang, dict[str, str]] = {"de": DE, "en": EN}


def t(lang: Lang, key: str, **values: object) -> str:
    template = TEXTS[lang].get(key) or DE[key]
    return template.format(**values) if values else template
