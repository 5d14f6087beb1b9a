"""What is played, how each hand ended, and the Spielliste."""

from __future__ import annotations

DE: dict[str, str] = {
    "sl_number": "Nr",
    "sl_value": "Wert",
    "spielliste_part": "Spielliste, Teil {n} von {of}",
    "spielliste_file": "Die Spielliste ({games} Spiele) ist zu lang für eine Nachricht: "
    "sie hängt als Datei an.",
    "stand_files": "Die Spielliste von Tisch {table} als CSV- und JSON-Datei.",
    "score_bad_seats": "Re-Plätze bitte als Zahlen von 1 bis 4 angeben, z. B. 1,3.",
    "score_bad_seat_count_solo": "Im Solo steht nur der Solist bei Re: genau ein Platz.",
    "score_bad_seat_count": "Re hat zwei verschiedene Plätze, z. B. 1,3.",
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
}

EN: dict[str, str] = {
    "sl_number": "No",
    "sl_value": "Value",
    "spielliste_part": "Spielliste, part {n} of {of}",
    "spielliste_file": "The Spielliste ({games} games) is too long for a message: "
    "it comes as a file.",
    "stand_files": "The Spielliste of table {table} as CSV and JSON files.",
    "score_bad_seats": "Give the Re seats as numbers from 1 to 4, e.g. 1,3.",
    "score_bad_seat_count_solo": "In a solo only the soloist is Re: exactly one seat.",
    "score_bad_seat_count": "Re has two different seats, e.g. 1,3.",
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
}
