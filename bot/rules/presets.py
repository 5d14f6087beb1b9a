"""Rule presets a table starts from, and a short rules summary for the table to show.

``ddv`` is the DDV tournament set (the default), ``stammtisch`` the most common kitchen-table
set of the rule pages, ``online`` the defaults of the online site the rules digest calls seed
002. A host may change single flags on top of any preset.
"""

from __future__ import annotations

from typing import Literal

from bot.rules.ruleset import (
    DDV,
    BockStacking,
    BockTrigger,
    DulleTie,
    NoWinnerScore,
    Ruleset,
    SchmeissenReason,
)

Language = Literal["de", "en"]

PRESETS: dict[str, Ruleset] = {
    "ddv": DDV,
    "stammtisch": Ruleset(
        dulle_tie=DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK,
        pflichtsolo_enabled=False,
        schweinchen=True,
        armut=True,
        schmeissen=frozenset({SchmeissenReason.NEUNEN}),
        bock=frozenset({BockTrigger.TIE_120, BockTrigger.LOST_SOLO}),
        stammtisch_scoring=True,
    ),
    "online": Ruleset(
        games_per_round=4,
        absagen_enabled=False,
        solos_enabled=False,
        pflichtsolo_enabled=False,
        stille_hochzeit_enabled=False,
        winner_floor_zero=True,
    ),
}

PRESET_NAMES: dict[str, dict[Language, str]] = {
    "ddv": {"de": "DDV-Turnier", "en": "DDV tournament"},
    "stammtisch": {"de": "Stammtisch", "en": "Kitchen table (Stammtisch)"},
    "online": {"de": "Online", "en": "Online"},
}


def preset_of(ruleset: Ruleset) -> str | None:
    """The key of the preset equal to ``ruleset``, or None for a custom set."""
    return next((key for key, preset in PRESETS.items() if preset == ruleset), None)


_DULLE: dict[DulleTie, dict[Language, str]] = {
    DulleTie.FIRST_WINS: {
        "de": "Zwei Dullen in einem Stich: die erste sticht.",
        "en": "Two Dullen in one trick: the first wins.",
    },
    DulleTie.SECOND_WINS: {
        "de": "Zwei Dullen in einem Stich: die zweite sticht die erste.",
        "en": "Two Dullen in one trick: the second wins.",
    },
    DulleTie.SECOND_WINS_EXCEPT_LAST_TRICK: {
        "de": "Zwei Dullen: die zweite sticht die erste, außer im letzten Stich.",
        "en": "Two Dullen: the second wins, except in the last trick.",
    },
    DulleTie.SECOND_WINS_ONLY_LAST_TRICK: {
        "de": "Zwei Dullen: die zweite sticht die erste nur im letzten Stich.",
        "en": "Two Dullen: the second wins only in the last trick.",
    },
}

_SCHMEISSEN: dict[SchmeissenReason, dict[Language, str]] = {
    SchmeissenReason.NEUNEN: {"de": "5 Neunen", "en": "5 nines"},
    SchmeissenReason.KOENIGE: {"de": "5 Könige", "en": "5 kings"},
    SchmeissenReason.NEUNEN_KOENIGE: {"de": "7 Neunen und Könige", "en": "7 nines and kings"},
    SchmeissenReason.WENIG_TRUMPF: {"de": "höchstens 1 Trumpf", "en": "at most 1 trump"},
}

_BOCK: dict[BockTrigger, dict[Language, str]] = {
    BockTrigger.TIE_120: {"de": "120:120", "en": "120:120"},
    BockTrigger.LOST_CALL: {"de": "verlorenes Re/Kontra", "en": "a lost Re/Kontra"},
    BockTrigger.RE_AND_KONTRA: {"de": "Re und Kontra", "en": "both Re and Kontra"},
    BockTrigger.SOLO: {"de": "jedes Solo", "en": "any solo"},
    BockTrigger.LOST_SOLO: {"de": "verlorenes Solo", "en": "a lost solo"},
    BockTrigger.ZERO_GAME: {"de": "Spiel mit 0 Punkten", "en": "a game worth 0"},
}


def rules_summary(ruleset: Ruleset, language: Language = "de") -> list[str]:
    """One line per rule group, in German or English, for the table message and /doko regeln."""
    de = language == "de"

    def t(german: str, english: str) -> str:
        return german if de else english

    r = ruleset
    key = preset_of(r)
    lines = [
        t("Regeln: ", "Rules: ")
        + (PRESET_NAMES[key][language] if key else t("eigene Regeln", "custom rules"))
    ]
    n = r.hand_size
    lines.append(
        t(f"{4 * n} Karten, {n} Stiche", f"{4 * n} cards, {n} tricks")
        + ("" if r.with_nines else t(" (ohne Neunen)", " (without nines)"))
        + t(f"; {r.players} Spieler", f"; {r.players} players")
        + (t(", der Geber setzt aus", ", the dealer sits out") if r.players == 5 else "")
        + (
            t("; 1 Spiel je Runde.", "; 1 game a round.")
            if r.games_per_round == 1
            else t(
                f"; {r.games_per_round} Spiele je Runde.", f"; {r.games_per_round} games a round."
            )
        )
    )
    lines.append(_DULLE[r.dulle_tie][language])
    if r.schweinchen:
        lines.append(
            t(
                "Schweinchen: beide Karo-Asse in einer Hand sind die höchsten Trümpfe "
                "(auch im Karo-Solo); sie zeigen sich mit dem ersten Karo-Ass.",
                "Schweinchen: both Karo-Asse in one hand are the highest trumps (Karo solo "
                "too); they show with the first Karo-Ass played.",
            )
        )
    if r.solos_enabled:
        lines.append(
            t("Soli erlaubt", "Solos allowed")
            + (
                t(", ein Pflichtsolo je Runde.", ", one Pflichtsolo per round.")
                if r.pflichtsolo_enabled
                else t(", kein Pflichtsolo.", ", no Pflichtsolo.")
            )
        )
    else:
        lines.append(t("Keine Soli.", "No solos."))
    lines.append(
        t("Stille Hochzeit wie ein Solo.", "Stille Hochzeit scored as a solo.")
        if r.stille_hochzeit_enabled
        else t(
            "Keine stille Hochzeit: beide Kreuz-Damen sind immer eine Hochzeit.",
            "No stille Hochzeit: both Kreuz-Damen always make a Hochzeit.",
        )
    )
    if r.armut:
        k = r.armut_max_trumps
        lines.append(
            t(
                f"Armut mit höchstens {k} Trümpfen: wer sie nimmt, gibt ebenso viele Karten "
                "zurück und spielt mit; nimmt keiner, wird neu gegeben.",
                f"Armut with at most {k} trumps: the taker returns as many cards and is the "
                "partner; if nobody takes it, the cards are dealt again.",
            )
        )
    if r.schmeissen:
        reasons = ", ".join(_SCHMEISSEN[x][language] for x in SchmeissenReason if x in r.schmeissen)
        lines.append(t(f"Schmeißen bei: {reasons}.", f"Throw in (redeal) with: {reasons}."))
    lines.append(
        t("Absagen (keine 90 …) erlaubt.", "Absagen (keine 90 …) allowed.")
        if r.absagen_enabled
        else t("Nur Re und Kontra, keine Absagen.", "Only Re and Kontra, no Absagen.")
    )
    lines.append(
        t(
            "Zählung: Re und Kontra verdoppeln den Spielwert.",
            "Scoring: Re and Kontra double the game value.",
        )
        if r.stammtisch_scoring
        else t("Zählung nach DDV: Re und Kontra je +2.", "DDV scoring: Re and Kontra +2 each.")
    )
    if r.winner_floor_zero:
        lines.append(t("Gewinner nie unter null.", "A winner never scores below zero."))
    if r.no_winner_score is NoWinnerScore.ZERO:
        lines.append(t("Ohne Gewinner zählt das Spiel 0.", "A game without a winner scores 0."))
    if r.bock:
        events = ", ".join(_BOCK[x][language] for x in BockTrigger if x in r.bock)
        stack = (
            t("Bockrunden addieren sich (×4 …)", "Bockrunden stack (×4 …)")
            if r.bock_stacking is BockStacking.STACK
            else t("Bockrunden werden angehängt", "Bockrunden queue up")
        )
        lines.append(
            t(
                f"Bockrunde ({r.bock_round_games} Spiele doppelt) nach: {events}; {stack}.",
                f"Bockrunde ({r.bock_round_games} games count double) after: {events}; {stack}.",
            )
        )
    return lines
