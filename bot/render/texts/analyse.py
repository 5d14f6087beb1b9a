"""Spielanalyse after a game and the coach's Tipp on a coached table."""

from __future__ import annotations

DE: dict[str, str] = {
    "btn_analyse": "Spielanalyse",
    "btn_tipp": "Tipp",
    "analyse_head": "**Spielanalyse** – dein Spiel aus deiner Sicht, von der KI bewertet",
    "analyse_figure": (
        "**Verschenkt: {points} Punkte** (erwartet) · {agreed} von {decisions} "
        "Entscheidungen wie die KI"
    ),
    "analyse_clean": (
        "Keine Entscheidung, bei der die KI einen halben Punkt oder mehr besser erwartet. "
        "Gut gespielt!"
    ),
    "analyse_mistakes": "Hier erwartet die KI mehr:",
    "analyse_card": (
        "• Stich {trick} ({position}): du {played}, die KI {suggested} "
        "(erwartet {loss} Punkte besser)"
    ),
    "analyse_contract": (
        "• Vorbehalt: du wähltest {played}, die KI {suggested} (erwartet {loss} Punkte besser)"
    ),
    "analyse_armut_taken": (
        "• Armut: du nahmst sie, die KI hätte abgelehnt (erwartet {loss} Punkte besser)"
    ),
    "analyse_armut_declined": (
        "• Armut: du nahmst sie nicht, die KI hätte sie genommen (erwartet {loss} Punkte besser)"
    ),
    "analyse_armut_return": (
        "• Armut: du gabst {played} zurück, die KI {suggested} (erwartet {loss} Punkte besser)"
    ),
    "analyse_call": (
        "• Stich {trick} ({position}): deine Ansage {call} – ohne sie erwartet {loss} Punkte besser"
    ),
    "analyse_missed": "Ansagen, die rechtzeitig gewesen wären und sich gelohnt hätten:",
    "analyse_missed_call": (
        "• {call} in Stich {trick} ({position}): deine Seite gewinnt damit "
        "in {win} % der Verteilungen, erwartet {gain} Punkte mehr"
    ),
    "analyse_nothing": "In diesem Spiel gab es für dich keine Karte zu wählen.",
    "analyse_note": (
        "-# Jede Entscheidung ist aus deiner damaligen Sicht bewertet: {worlds} mögliche "
        "Verteilungen der Karten, die du nicht kanntest, je zu Ende gespielt."
    ),
    "analyse_incomplete": "-# Das Rechenbudget reichte nicht für alle Entscheidungen.",
    "analyse_unavailable": (
        "Eine Spielanalyse gibt es nur für ein beendetes Spiel, in dem du selbst gespielt hast."
    ),
    "tipp_best_card": (
        "Tipp: **{card}** – erwartet {expected} Punkte für dich; die nächstbeste Karte, "
        "{runner_up}, erwartet {runner_up_expected}."
    ),
    "tipp_only_card": "Tipp: **{card}** – die einzige Karte, die du spielen darfst.",
    "tipp_plan": "**{action}** ({plan})",
    "tipp_contract": (
        "Tipp: {choice} – erwartet {expected} Punkte für dich; {other} erwartet {other_expected}."
    ),
    "tipp_call": (
        "Tipp: **{call}** ansagen – deine Seite gewinnt damit in etwa {win} % der "
        "möglichen Verteilungen."
    ),
    "tipp_rule_of_thumb": "Tipp: **{action}** – nach der Faustregel der KI für dein Blatt.",
    "tipp_wait": "Einen Tipp gibt es, wenn du am Zug bist.",
    "tipp_off": "An diesem Tisch ist der Coach aus.",
    "tipp_return": "diese Karten zurückgeben: {cards}",
    "tipp_return_best": (
        "Tipp: **{cards}** zurückgeben – erwartet {expected} Punkte für dich; {other} "
        "zurückzugeben erwartet {other_expected}."
    ),
    "analyse_place_1": "du kamst raus",
    "analyse_place_2": "du an 2. Stelle",
    "analyse_place_3": "du an 3. Stelle",
    "analyse_place_4": "du an 4. Stelle",
}

EN: dict[str, str] = {
    "btn_analyse": "Spielanalyse (review)",
    "btn_tipp": "Tip",
    "analyse_head": "**Spielanalyse** – your game as you saw it, rated by the AI",
    "analyse_figure": (
        "**Given away: {points} points** (expected) · {agreed} of {decisions} decisions "
        "as the AI would"
    ),
    "analyse_clean": (
        "No decision where the AI expects half a point or more from another choice. Well played!"
    ),
    "analyse_mistakes": "Where the AI expects more:",
    "analyse_card": (
        "• Trick {trick} ({position}): you played {played}, the AI {suggested} "
        "({loss} points better in expectation)"
    ),
    "analyse_contract": (
        "• Vorbehalt: you chose {played}, the AI {suggested} ({loss} points better in expectation)"
    ),
    "analyse_armut_taken": (
        "• Armut: you took it, the AI would have declined ({loss} points better in expectation)"
    ),
    "analyse_armut_declined": (
        "• Armut: you declined it, the AI would have taken it ({loss} points better in expectation)"
    ),
    "analyse_armut_return": (
        "• Armut: you gave back {played}, the AI {suggested} ({loss} points better in expectation)"
    ),
    "analyse_call": (
        "• Trick {trick} ({position}): your call {call} – without it "
        "{loss} points better in expectation"
    ),
    "analyse_missed": "Calls that were in time and would have paid:",
    "analyse_missed_call": (
        "• {call} in trick {trick} ({position}): your side wins with it in {win} % of "
        "the deals, {gain} points more in expectation"
    ),
    "analyse_nothing": "You had no card to choose in this game.",
    "analyse_note": (
        "-# Each decision is rated as you saw it then: {worlds} possible deals of the cards "
        "you did not know, each played to the end."
    ),
    "analyse_incomplete": "-# The computing budget did not cover every decision.",
    "analyse_unavailable": (
        "A Spielanalyse is only available for a finished game you played in yourself."
    ),
    "tipp_best_card": (
        "Tip: **{card}** – {expected} points expected for you; the next best card, "
        "{runner_up}, {runner_up_expected}."
    ),
    "tipp_only_card": "Tip: **{card}** – the only card you may play.",
    "tipp_plan": "**{action}**: {plan}",
    "tipp_contract": (
        "Tip: {choice} – {expected} points expected for you; {other}, {other_expected}."
    ),
    "tipp_call": "Tip: announce **{call}** – your side wins in about {win} % of possible deals.",
    "tipp_rule_of_thumb": "Tip: **{action}** – the AI's rule of thumb for your hand.",
    "tipp_wait": "A tip is available when it is your turn.",
    "tipp_off": "The coach is off at this table.",
    "tipp_return": "return these cards: {cards}",
    "tipp_return_best": (
        "Tip: give back **{cards}** – {expected} points expected for you; giving back "
        "{other}, {other_expected}."
    ),
    "analyse_place_1": "you led",
    "analyse_place_2": "you played second",
    "analyse_place_3": "you played third",
    "analyse_place_4": "you played last",
}
