"""Tournament texts in German (the default) and English: field, seating, standings, sheets."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from zoneinfo import ZoneInfo

from discord import Embed
from discord.utils import escape_markdown

from bot.engine.model import EngineError
from bot.engine.tournaments import Overview, SeatedTable, TournamentRow
from bot.render import texts
from bot.render.errors import error_text
from bot.render.presets import preset_name
from bot.render.texts import Lang
from bot.render.times import time_text, zone_of
from bot.rules.round import SoloKind
from bot.tournament import GameScore, Participant, StandingRow, Substitute

DESCRIPTION_LIMIT = 4000
FIELD_LIMIT = 1000
EMBED_LIMIT = 6000  # Discord's limit on all of an embed's text together
MAX_SHEETS = 23  # of an embed's 25 fields: the rest are the audit log and a note on the rest

DE: dict[str, str] = {
    "created": "Turnier **{name}** (Nr. {id}) ist eröffnet: {rounds} Runden à {games} Spiele, "
    "Regeln: {preset}.{start}\n{seats}\nAnmelden mit `/doko turnier anmelden`.",
    "seats": "Bots: {level} · Bei Abwesenheit: {policy}",
    "starts_at": " Beginn: {when}.",
    "registered": "Du bist für **{name}** angemeldet.",
    "withdrawn": "Du bist von **{name}** abgemeldet.",
    "started": "**{name}** läuft: Runde {round} ist gesetzt.",
    "resumed": "**{name}** geht weiter.",
    "paused": "**{name}** pausiert: laufende Tische spielen ihre Runde zu Ende, "
    "die nächste Runde beginnt erst mit `/doko turnier starten`.",
    "replaced": "{player} wird in **{name}** von {sub} vertreten.",
    "replaced_later": "{player} ist aus dem Feld genommen; ab der nächsten Runde spielt ein "
    "Ersatz-Bot.",
    "corrected": "Spiel {game} an Tisch {table} (Runde {round}) berichtigt: {before} → {after}. "
    "Grund: {reason}",
    "ending": "**{name}** endet nach dieser Runde: offene Pflichtsoli werden noch vorgeführt.",
    "export_ready": "Ergebnis von **{name}** als CSV.",
    "title": "Turnier · {name}",
    "status_open": "Anmeldung offen",
    "status_running": "Runde {round} von {rounds} läuft",
    "status_paused": "pausiert nach Runde {round} von {rounds}",
    "status_ending": "endet mit Runde {round}",
    "status_finished": "beendet",
    "overview": "{status} · {rounds} Runden à {games} Spiele · Regeln: {preset}{start}",
    "field": "Teilnehmer ({count})",
    "field_empty": "Noch niemand angemeldet.",
    "round_title": "{name} · Runde {round}",
    "table_line": "**Tisch {table}** {channel}: {players}",
    "standings": "Stand",
    "standings_final": "Endstand",
    "standings_none": "Noch kein Spiel beendet.",
    "standing_line": "{rank}. {name} {points:+d} ({games} Sp., {solos} Soli, {vorg} vorgef.)",
    "sheet_title": "Spielliste · Runde {round} · Tisch {table}",
    "sheet_head": "P = Pflichtsolo, V = vorgeführt, L = Lustsolo",
    "round_problems": "Pflichtsolo-Prüfung: {problems}",
    "substitute": "Bot {n} (Ersatz)",
    "audit": "Berichtigungen",
    "more_tables": "{n} weitere Tische passen nicht in diese Nachricht.",
    "bad_points": "Punkte bitte als Liste in Sitzreihenfolge, z. B. 3,-1,-1,-1.",
    "err_no_tournament": "Hier gibt es kein solches Turnier.",
    "err_not_organiser": "Das darf nur die Turnierleitung (oder ein Admin).",
    "err_already_registered": "Du bist schon angemeldet.",
    "err_not_registered": "Nicht angemeldet.",
    "err_registration_closed": "Das Turnier ist vorbei.",
    "err_replaced": "Die Turnierleitung hat dich ersetzt.",
    "err_not_running": "Das Turnier läuft nicht.",
    "err_bad_seating": "Gesetzt wird gemischt oder nach Stand.",
    "err_already_started": "Das Turnier läuft schon.",
    "err_too_few_players": "Es hat sich noch niemand angemeldet.",
    "err_finished": "Das Turnier ist schon beendet.",
    "err_bad_rounds": "Ein Turnier hat 1 bis 20 Runden.",
    "err_bad_games": "Eine Runde hat 1 bis 100 Spiele.",
    "err_bad_name": "Der Name braucht 1 bis 80 Zeichen.",
    "err_bad_start_time": "Der Beginn muss in der Zukunft liegen.",
    "err_bad_correction": "Diese Berichtigung geht nicht.",
    "err_no_such_table": "Diesen Tisch gibt es nicht.",
    "err_planning": "Die Runde lässt sich nicht setzen.",
    "err_no_channels": "Für die Tische kann kein Thread geöffnet werden.",
    # Spielliste and one language per reader (issue 18)
    "sheet_number": "Nr",
    "sheet_solo": "Solo",
    "sheet_part": "{title} · Teil {n} von {of}",
    "thread_name": "{name} · Runde {round} · Tisch {table}",
    "err_correction_no_game": "Runde {round}, Tisch {table} hat kein Spiel {game}.",
    "err_correction_count": "Bitte genau {n} Punktzahlen angeben, eine je Platz in "
    "Sitzreihenfolge.",
    "err_correction_unchanged": "Die Punkte sind dieselben wie bisher: nichts zu berichtigen.",
    "err_correction_reason": "Eine Berichtigung braucht einen Grund.",
}

EN: dict[str, str] = {
    "created": "Tournament **{name}** (no. {id}) is open: {rounds} rounds of {games} games, "
    "rules: {preset}.{start}\n{seats}\nRegister with `/doko tournament register`.",
    "seats": "Bots: {level} · When a player is away: {policy}",
    "starts_at": " Start: {when}.",
    "registered": "You are registered for **{name}**.",
    "withdrawn": "You have withdrawn from **{name}**.",
    "started": "**{name}** is on: round {round} is seated.",
    "resumed": "**{name}** goes on.",
    "paused": "**{name}** is paused: running tables finish their round, the next round "
    "waits for `/doko tournament start`.",
    "replaced": "{player} is replaced by {sub} in **{name}**.",
    "replaced_later": "{player} has left the field; a substitute bot plays from the next round.",
    "corrected": "Game {game} at table {table} (round {round}) corrected: {before} → {after}. "
    "Reason: {reason}",
    "ending": "**{name}** ends after this round: open Pflichtsoli are still vorgeführt.",
    "export_ready": "Results of **{name}** as CSV.",
    "title": "Tournament · {name}",
    "status_open": "registration open",
    "status_running": "round {round} of {rounds} running",
    "status_paused": "paused after round {round} of {rounds}",
    "status_ending": "ends with round {round}",
    "status_finished": "finished",
    "overview": "{status} · {rounds} rounds of {games} games · rules: {preset}{start}",
    "field": "Players ({count})",
    "field_empty": "Nobody has registered yet.",
    "round_title": "{name} · round {round}",
    "table_line": "**Table {table}** {channel}: {players}",
    "standings": "Standings",
    "standings_final": "Final standings",
    "standings_none": "No game has finished yet.",
    "standing_line": "{rank}. {name} {points:+d} ({games} games, {solos} solos, {vorg} vorgef.)",
    "sheet_title": "Spielliste · round {round} · table {table}",
    "sheet_head": "P = Pflichtsolo, V = vorgeführt, L = Lustsolo",
    "round_problems": "Pflichtsolo check: {problems}",
    "substitute": "Bot {n} (substitute)",
    "audit": "Corrections",
    "more_tables": "{n} more tables do not fit in this message.",
    "bad_points": "Give the points as a list in seat order, e.g. 3,-1,-1,-1.",
    "err_no_tournament": "There is no such tournament here.",
    "err_not_organiser": "Only the organiser (or an admin) may do that.",
    "err_already_registered": "You are registered already.",
    "err_not_registered": "Not registered.",
    "err_registration_closed": "The tournament is over.",
    "err_replaced": "The organiser has replaced you.",
    "err_not_running": "The tournament is not running.",
    "err_bad_seating": "Seating is mixed or by standing.",
    "err_already_started": "The tournament is running already.",
    "err_too_few_players": "Nobody has registered yet.",
    "err_finished": "The tournament is over already.",
    "err_bad_rounds": "A tournament has 1 to 20 rounds.",
    "err_bad_games": "A round has 1 to 100 games.",
    "err_bad_name": "The name needs 1 to 80 characters.",
    "err_bad_start_time": "The start must lie in the future.",
    "err_bad_correction": "That correction does not work.",
    "err_no_such_table": "There is no such table.",
    "err_planning": "The round cannot be seated.",
    "err_no_channels": "No thread can be opened for the tables.",
    # Spielliste and one language per reader (issue 18)
    "sheet_number": "No",
    "sheet_solo": "Solo",
    "sheet_part": "{title} · part {n} of {of}",
    "thread_name": "{name} · round {round} · table {table}",
    "err_correction_no_game": "Round {round}, table {table} has no game {game}.",
    "err_correction_count": "Give exactly {n} scores, one per seat in seat order.",
    "err_correction_unchanged": "The points are the same as before: nothing to correct.",
    "err_correction_reason": "A correction needs a reason.",
}

TEXTS: dict[Lang, dict[str, str]] = {"de": DE, "en": EN}
SOLO_MARK = {SoloKind.PFLICHT: "P", SoloKind.VORGEFUEHRT: "V", SoloKind.LUST: "L"}


def tt(lang: Lang, key: str, **values: object) -> str:
    template = TEXTS[lang].get(key) or DE[key]
    return template.format(**values) if values else template


# The tournament service explains a refused correction in English: the cases a player can
# cause get their own text, the rest the plain one (never the English detail).
CORRECTION_DETAILS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"no game at round (?P<round>\d+), table (?P<table>\d+), game (?P<game>\d+)"),
        "err_correction_no_game",
    ),
    (re.compile(r"give (?P<n>\d+) scores"), "err_correction_count"),
    (re.compile(r"the scores are unchanged"), "err_correction_unchanged"),
    (re.compile(r"needs a reason"), "err_correction_reason"),
)


def turnier_error(error: EngineError, lang: Lang) -> str:
    """A refusal of the tournament service in the reader's language."""
    if error.reason == "bad_correction":
        for pattern, key in CORRECTION_DETAILS:
            found = pattern.search(str(error))
            if found:
                return tt(lang, key, **found.groupdict())
    key = f"err_{error.reason}"
    if key in DE:
        return tt(lang, key)
    return error_text(error, lang)


def name_of(participant: Participant, names: Mapping[Participant, str], lang: Lang) -> str:
    if isinstance(participant, Substitute):
        return tt(lang, "substitute", n=participant.number)
    return names.get(participant, str(participant))


def _clip(lines: Sequence[str], limit: int) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def status_text(view: Overview, lang: Lang) -> str:
    t = view.tournament
    return tt(lang, f"status_{t.status}", round=t.current_round, rounds=t.rounds)


def standings_lines(
    rows: Sequence[StandingRow], names: Mapping[Participant, str], lang: Lang
) -> list[str]:
    return [
        tt(
            lang,
            "standing_line",
            rank=r.rank,
            name=name_of(r.participant, names, lang),
            points=r.points,
            games=r.games,
            solos=r.solos,
            vorg=r.vorgefuehrt,
        )
        for r in rows
    ]


def tables_lines(
    tables: Sequence[SeatedTable], names: Mapping[Participant, str], lang: Lang
) -> list[str]:
    return [
        tt(
            lang,
            "table_line",
            table=table.number,
            channel=f"<#{table.channel_id}>",
            players=", ".join(name_of(p, names, lang) for p in table.seats),
        )
        for table in tables
    ]


def seats_text(tournament: TournamentRow, lang: Lang) -> str:
    """Who fills empty seats and stands in at its tables, and what an absence means there."""
    return tt(
        lang,
        "seats",
        level=texts.t(lang, f"ai_{tournament.ai_level}"),
        policy=texts.t(lang, f"policy_{tournament.disconnect_policy}"),
    )


def overview_embed(view: Overview, lang: Lang, zone: ZoneInfo | None = None) -> Embed:
    """The tournament's state and field; its start in the server's ``zone``."""
    t = view.tournament
    start = (
        ""
        if t.starts_at is None
        else tt(lang, "starts_at", when=time_text(t.starts_at, zone or zone_of(None), lang))
    )
    embed = Embed(title=tt(lang, "title", name=t.name))
    embed.description = tt(
        lang,
        "overview",
        status=status_text(view, lang),
        rounds=t.rounds,
        games=t.games_per_round,
        preset=preset_name(t.preset, lang),
        start=start,
    )
    embed.description += f"\n{seats_text(t, lang)}"
    field = view.field
    embed.add_field(
        name=tt(lang, "field", count=len(field)),
        value=_clip([e.display_name for e in field], FIELD_LIMIT) or tt(lang, "field_empty"),
        inline=False,
    )
    return embed


def round_embed(
    name: str,
    round_number: int,
    tables: Sequence[SeatedTable],
    names: Mapping[Participant, str],
    lang: Lang,
) -> Embed:
    embed = Embed(title=tt(lang, "round_title", name=name, round=round_number))
    embed.description = _clip(tables_lines(tables, names, lang), DESCRIPTION_LIMIT)
    return embed


def results_embed(view: Overview, lang: Lang, round_number: int | None = None) -> Embed:
    """The standings (of the tournament or one round), the round's tables, the audit log."""
    t = view.tournament
    final = t.status == "finished" and round_number is None
    title = tt(lang, "standings_final" if final else "standings")
    if round_number is not None:
        title += f" · {tt(lang, 'round_title', name=t.name, round=round_number)}"
    else:
        title += f" · {t.name}"
    embed = Embed(title=title)
    rows = view.standings(round_number)
    embed.description = _clip(standings_lines(rows, view.names, lang), DESCRIPTION_LIMIT) or tt(
        lang, "standings_none"
    )
    audit = _clip(
        [
            f"R{a.ref.round_number} T{a.ref.table} #{a.ref.game}: {a.reason}"
            for a in view.results.audit
        ],
        FIELD_LIMIT,
    )
    if round_number is not None:
        tables = [x for x in view.tables if x.round_number == round_number]
        # The sheets that fit, leaving room for the audit log and a note on the rest.
        room = EMBED_LIMIT - len(embed) - len(tt(lang, "audit")) - len(audit) - 100
        for shown, table in enumerate(tables):
            name = tt(lang, "sheet_title", round=round_number, table=table.number)
            games = view.table_games(round_number, table.number)
            fields = sheet_fields(name, table, games, view.names, lang)
            room -= sum(len(n) + len(v) for n, v in fields)
            if room < 0 or len(embed.fields) + len(fields) > MAX_SHEETS:
                # Whole sheets only: a table's sheet is never cut (its thread has it all).
                more = tt(lang, "more_tables", n=len(tables) - shown)
                embed.add_field(name="…", value=more, inline=False)
                break
            for field_name, value in fields:
                embed.add_field(name=field_name, value=value, inline=False)
    if audit:
        embed.add_field(name=tt(lang, "audit"), value=audit, inline=False)
    return embed


HEAD_WIDTH = 10  # longer names head their column with a letter, named in a legend
SEAT_LETTERS = "ABCDE"


def sheet_block(
    table: SeatedTable, games: Sequence[GameScore], names: Mapping[Participant, str], lang: Lang
) -> list[str]:
    """A table's Spielliste with running totals and the separate Pflichtsolo column, every
    game of the round in one of the blocks (each at most FIELD_LIMIT long, headed alike).
    """
    full = [name_of(p, names, lang) for p in table.seats]
    letters = max(len(n) for n in full) > HEAD_WIDTH
    heads = list(SEAT_LETTERS[: len(full)]) if letters else [n.replace("`", "'") for n in full]
    width = max(6, *(len(h) + 1 for h in heads))
    number, solo = tt(lang, "sheet_number"), tt(lang, "sheet_solo")
    head = f"{number:>3}" + "".join(f"{h:>{width}}" for h in heads) + f"  {solo}"
    # Columns are seats: a substitute who took a seat over scores in that seat's column.
    totals = [0] * len(table.seats)
    rows = []
    for game in games:
        order = [p for p, _ in game.scores]
        for seat, (_, points) in enumerate(game.scores):
            totals[seat] += points
        mark = ""
        if game.solo_kind is not None and game.soloist in order:
            index = order.index(game.soloist)
            mark = SOLO_MARK[game.solo_kind] + (heads[index] if letters else str(index + 1))
        rows.append(
            f"{game.ref.game:>3}" + "".join(f"{x:>+{width}d}" for x in totals) + f"  {mark}"
        )
    legend = ""
    if letters:
        legend = " · ".join(f"`{h}` {escape_markdown(n)}" for h, n in zip(heads, full, strict=True))
        legend += "\n"
    top = [tt(lang, "sheet_head"), head]
    blocks: list[str] = []
    lines: list[str] = []
    for row in [*rows, None]:
        text = "```\n" + "\n".join([*top, *lines]) + "\n```"
        if row is None or (lines and len(legend) + len(text) + len(row) + 1 > FIELD_LIMIT):
            blocks.append(legend + text)
            legend, top, lines = "", [head], []
        if row is not None:
            lines.append(row)
    return blocks


def sheet_fields(
    title: str,
    table: SeatedTable,
    games: Sequence[GameScore],
    names: Mapping[Participant, str],
    lang: Lang,
) -> list[tuple[str, str]]:
    """A table's sheet as embed fields: the title on the first, its parts numbered."""
    blocks = sheet_block(table, games, names, lang)
    if len(blocks) == 1:
        return [(title, blocks[0])]
    return [
        (tt(lang, "sheet_part", title=title, n=i + 1, of=len(blocks)), block)
        for i, block in enumerate(blocks)
    ]


def sheet_embed(
    table: SeatedTable,
    games: Sequence[GameScore],
    names: Mapping[Participant, str],
    problems: Sequence[str],
    lang: Lang,
) -> Embed:
    """A finished table's sheet: all its games, over several fields when it is long."""
    title = tt(lang, "sheet_title", round=table.round_number, table=table.number)
    embed = Embed(title=title)
    fields = sheet_fields(title, table, games, names, lang)
    if len(fields) == 1:
        embed.description = fields[0][1]
    else:
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
    if problems:
        embed.add_field(
            name="⚠",
            value=_clip([tt(lang, "round_problems", problems="; ".join(problems))], FIELD_LIMIT),
        )
    return embed


# English names and descriptions of the /doko turnier commands, for the command translator.
COMMAND_EN: dict[str, str] = {
    "turnier": "tournament",
    "erstellen": "create",
    "anmelden": "register",
    "abmelden": "withdraw",
    "teilnehmer": "players",
    "starten": "start",
    "pause": "pause",
    "ergebnis": "results",
    "ersetzen": "replace",
    "korrigieren": "correct",
    "beenden": "end",
    "name": "name",
    "runden": "rounds",
    "beginn": "start",
    "sitzordnung": "seating",
    "runde": "round",
    "tisch": "table",
    "punkte": "points",
    "grund": "reason",
    "Turniere mit Pflichtsolo": "Tournaments with Pflichtsolo",
    "Ein Turnier anlegen": "Create a tournament",
    "Name des Turniers": "The tournament's name",
    "Anzahl der Runden": "Number of rounds",
    "Spiele pro Runde und Tisch (DDV: 24)": "Games per round and table (DDV: 24)",
    "Beginn als JJJJ-MM-TT HH:MM in der Zeit des Servers; leer: Start von Hand": (
        "Start as YYYY-MM-DD HH:MM in the server's time; empty: start by hand"
    ),
    "Wie ab Runde 2 gesetzt wird": "How rounds 2 and later are seated",
    "Möglichst viele Gegner": "As many different opponents as possible",
    "Nach Tabellenstand": "By standing",
    "Für das Turnier anmelden": "Register for the tournament",
    "Turnier-Nummer (Standard: das aktuelle)": "Tournament number (default: the current one)",
    "Vom Turnier abmelden": "Withdraw from the tournament",
    "Das Teilnehmerfeld zeigen": "Show the field",
    "Das Turnier jetzt starten oder fortsetzen": "Start or resume the tournament now",
    "Nach dieser Runde anhalten": "Pause after this round",
    "Stand und Ergebnisse": "Standings and results",
    "Nur diese Runde, mit den Spiellisten der Tische": "Only this round, with the tables' sheets",
    "Das Ergebnis als CSV-Datei": "The results as a CSV file",
    "Einen Spieler durch einen Ersatz-Bot ersetzen": "Replace a player by a substitute bot",
    "Wer ersetzt wird": "Who is replaced",
    "Ein Spiel berichtigen (mit Grund)": "Correct a game (with a reason)",
    "Runde": "Round",
    "Tisch": "Table",
    "Spiel-Nummer in der Spielliste des Tisches": "Game number in the table's Spielliste",
    "Neue Punkte in Sitzreihenfolge, z. B. 3,-1,-1,-1": "New points in seat order, e.g. 3,-1,-1,-1",
    "Grund der Berichtigung (kommt ins Protokoll)": "Reason for the correction (kept in the log)",
    "Das Turnier nach dieser Runde beenden": "End the tournament after this round",
}
