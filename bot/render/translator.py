"""English names and descriptions of the slash commands, through discord.py's translator.

The commands are declared in German; Discord shows these English strings to en-US/en-GB users.
"""

from __future__ import annotations

from discord import Locale, app_commands

ENGLISH_LOCALES = (Locale.american_english, Locale.british_english)

EN: dict[str, str] = {
    # command and option names (lower case, no spaces: Discord's rules for names)
    "doko": "doko",
    "tisch": "table",
    "karten": "cards",
    "ansage": "call",
    "stand": "standings",
    "rangliste": "leaderboard",
    "statistik": "stats",
    "regeln": "rules",
    "export": "export",
    "abrechnen": "score",
    "stopp": "stop",
    "hilfe": "help",
    "spiele": "games",
    "zugzeit": "turn_timer",
    "plaetze": "seats",
    "spieler": "player",
    "spiel": "game",
    "vertrag": "contract",
    "re_plaetze": "re_seats",
    "re_ansage": "re_call",
    "kontra_ansage": "kontra_call",
    "re_augen": "re_augen",
    "re_stiche": "re_tricks",
    "sonderpunkte": "bonus_points",
    "dateien": "files",
    # descriptions
    "Doppelkopf am Tisch": "Doppelkopf at the table",
    "Einen Tisch in diesem Kanal eröffnen": "Open a table in this channel",
    "Regelsatz": "Rule set",
    "Spiele in dieser Runde (Standard: wie der Regelsatz, meist 24)": (
        "Games in this round (default: as the rule set says, mostly 24)"
    ),
    "Sekunden pro Zug, danach spielt ein Bot (leer: keine Zugzeit)": (
        "Seconds per turn, then a bot plays (empty: no timer)"
    ),
    "Plätze am Tisch: 4, oder 5 (der Geber setzt jedes Spiel aus)": (
        "Seats at the table: 4, or 5 (the dealer sits out each game)"
    ),
    "Deine Karten noch einmal zeigen": "Show your cards again",
    "Eine Ansage oder Absage machen": "Make a call (Ansage or Absage)",
    "Re, Kontra, keine 90/60/30 oder schwarz": "Re, Kontra, no 90/60/30 or schwarz",
    "Die Spielliste dieses Tisches": "This table's Spielliste",
    "Als CSV- und JSON-Datei, nur für dich": "As CSV and JSON files, only for you",
    "Die Rangliste dieses Servers": "This server's leaderboard",
    "Die Zahlen eines Spielers": "A player's figures",
    "Wessen Statistik (Standard: deine)": "Whose figures (default: yours)",
    "Die Regeln dieses Tisches": "This table's rules",
    "Ein beendetes Spiel als doko-game/1-Datei": "A finished game as a doko-game/1 file",
    "Spiel-Nummer (#…) aus der Tischnachricht; Standard: das letzte": (
        "Game number (#…) from the table message; default: the last one"
    ),
    "Ein Spiel mit echten Karten abrechnen": "Score a game played with real cards",
    "Spielart": "Contract",
    "Plätze der Re-Partei, z. B. 1,3 (im Solo nur der Solist)": (
        "Seats of the Re party, e.g. 1,3 (in a solo only the soloist)"
    ),
    "Höchste Ansage von Re": "Re's highest call",
    "Höchste Ansage von Kontra": "Kontra's highest call",
    "Augen der Re-Partei (0–240)": "Augen of the Re party (0–240)",
    "Stiche der Re-Partei": "Tricks of the Re party",
    "z. B. fuchs:re, doppelkopf:kontra, karlchen:re": (
        "e.g. fuchs:re, doppelkopf:kontra, karlchen:re"
    ),
    "Den Tisch beenden (Gastgeber oder Admins)": "End the table (host or admins)",
    "Wie der Bot funktioniert": "How the bot works",
    # choice names
    "DDV-Turnier": "DDV tournament",
    "DDV-Turnierregeln": "DDV tournament rules",
    "DDV ohne Pflichtsolo": "DDV without Pflichtsolo",
    "DDV ohne Neunen": "DDV without nines",
    "DDV ohne Soli": "DDV without solos",
    "Normalspiel": "Normal game",
    "Kreuzsolo": "Kreuz solo (clubs)",
    "Piksolo": "Pik solo (spades)",
    "Herzsolo": "Herz solo (hearts)",
    "Karosolo": "Karo solo (diamonds)",
    "Damensolo": "Damen solo (queens)",
    "Bubensolo": "Buben solo (jacks)",
    "Fleischloser": "Fleischloser (no trumps)",
    "Stille Hochzeit": "Stille Hochzeit",
    "Hochzeit ohne Partner (Solo)": "Hochzeit without partner (solo)",
    "Keine 90": "No 90",
    "Keine 60": "No 60",
    "Keine 30": "No 30",
    # a ping on your turn (/doko benachrichtigung)
    "benachrichtigung": "notify",
    "wann": "when",
    "Ob und wann der Bot dich anschreibt, wenn du dran bist": (
        "Whether and when the bot pings you when it is your turn"
    ),
    "Aus, sofort, oder nach so vielen Sekunden (leer: zeigen, was gilt)": (
        "Off, at once, or after this many seconds (empty: show what is set)"
    ),
    "aus": "off",
    "sofort": "at once",
    "nach 20 s": "after 20 s",
    "nach 60 s": "after 60 s",
    # a server's defaults (/doko einstellungen), and /doko tisch starting from them
    "einstellungen": "settings",
    "Die Standards dieses Servers für neue Tische": "This server's defaults for new tables",
    "bots": "bots",
    "Regelsatz (Standard: wie in /doko einstellungen)": "Rule set (default: as in /doko settings)",
    "Sekunden pro Zug, danach spielt ein Bot (Standard: wie in /doko einstellungen)": (
        "Seconds per turn, then a bot plays (default: as in /doko settings)"
    ),
    "Stufe der Bots an freien Plätzen (Standard: wie in /doko einstellungen)": (
        "Level of the bots in empty seats (default: as in /doko settings)"
    ),
    "leicht": "easy (leicht)",
    "mittel": "medium (mittel)",
    "schwer": "hard (schwer)",
    # the leaderboard and a player's figures by period (/doko rangliste, /doko statistik)
    "zeitraum": "period",
    "monat": "month",
    "nach": "by",
    "seite": "page",
    "Welche Spiele zählen (Standard: alle)": "Which games count (default: all)",
    "Ein bestimmter Monat, z. B. 11.2026": "A chosen month, e.g. 11.2026",
    "Nach Punkten (Standard) oder nach Wertung": "By points (default) or by rating",
    "Welche Seite (20 Spieler je Seite)": "Which page (20 players a page)",
    "Alle Spiele": "All games",
    "Dieser Monat": "This month",
    "Diese Saison (Vierteljahr)": "This season (quarter)",
    "Letzter Monat": "Last month",
    "Punkte": "Points",
    "Wertung": "Rating",
    # what a player's absence means at a table (/doko tisch bei_abwesenheit)
    "bei_abwesenheit": "when_away",
    # a slow table's time per move (/doko tisch bedenkzeit, bot/engine/slow.py)
    "bedenkzeit": "time_per_move",
    "Langsamer Tisch: Zeit pro Zug mit Erinnerungen, gilt statt der Zugzeit": (
        "Slow table: time per move with reminders, in place of the turn timer"
    ),
    "1 Stunde": "1 hour",
    "12 Stunden": "12 hours",
    "1 Tag": "1 day",
    "3 Tage": "3 days",
    "meine-tische": "my-tables",
    "Deine offenen Tische auf allen Servern, wo du am Zug bist zuerst": (
        "Your open tables on every server, your moves first"
    ),
    "Läuft die Zugzeit ab: Bot spielt, Tisch wartet oder Spiel verloren": (
        "When the turn timer runs out: a bot plays, the table waits, or the game is lost"
    ),
    "Bot spielt": "a bot plays (Bot spielt)",
    "Tisch wartet": "the table waits (Tisch wartet)",
    "Spiel verloren": "game lost (Spiel verloren)",
    # a replay thread per finished game (/doko tisch protokoll)
    "protokoll": "protocol",
    "Nach jedem Spiel ein Thread mit dem Protokoll (Standard: wie in /doko einstellungen)": (
        "After each game a thread with its protocol (default: as in /doko einstellungen)"
    ),
    # the coach's Tipp on a table's hands (/doko tisch coach)
    "coach": "coach",
    "Tipp-Knopf mit dem Vorschlag der KI; die Spiele zählen nicht für die Rangliste": (
        "A Tip button with the AI's suggestion; the games do not count on the leaderboard"
    ),
}


def command_word(text: str, lang: str) -> str:
    """A command, option or choice name as the reader's Discord shows it."""
    return EN.get(text, text) if lang == "en" else text


class DokoTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in ENGLISH_LOCALES:
            return None
        return EN.get(string.message)
