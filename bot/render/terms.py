"""Names of cards, contracts, calls and Spielwert items in both languages."""

from __future__ import annotations

import re

from bot.render.texts import Lang, t
from bot.rules.calls import Call, Party
from bot.rules.cards import Card, Rank
from bot.rules.contracts import Contract
from bot.rules.game import Announce
from bot.rules.round import SoloKind
from bot.rules.view import PlayerView

SUIT_SYMBOL = ("♣", "♠", "♥", "♦")
RANK_LETTER: dict[Lang, tuple[str, ...]] = {
    "de": ("A", "10", "K", "D", "B", "9"),
    "en": ("A", "10", "K", "Q", "J", "9"),
}
# Every way a card label can appear in a message, for tests that look for leaked cards.
CARD_LABEL_RE = re.compile(r"([♣♠♥♦])(10|A|K|D|B|Q|J|9)")


# Every card's label, by language and card number: hands label up to 12 cards per render.
_LABELS: dict[Lang, tuple[str, ...]] = {
    lang: tuple(SUIT_SYMBOL[c.suit] + letters[c.rank] for c in Card)
    for lang, letters in RANK_LETTER.items()
}


def card_label(card: Card, lang: Lang) -> str:
    return _LABELS[lang][card]


def parse_card_label(symbol: str, rank: str) -> Card:
    """The card a label names (either language's rank letters)."""
    letters = {"A": 0, "10": 1, "K": 2, "D": 3, "Q": 3, "B": 4, "J": 4, "9": 5}
    return Card.of(SUIT_SYMBOL.index(symbol), Rank(letters[rank]))  # type: ignore[arg-type]


CONTRACT_NAMES: dict[Lang, dict[Contract, str]] = {
    "de": {
        Contract.NORMAL: "Normalspiel",
        Contract.HOCHZEIT: "Hochzeit",
        Contract.HOCHZEIT_FAILED: "Hochzeit ohne Partner (Solo)",
        Contract.STILLE_HOCHZEIT: "Stille Hochzeit",
        Contract.SOLO_KREUZ: "Kreuzsolo",
        Contract.SOLO_PIK: "Piksolo",
        Contract.SOLO_HERZ: "Herzsolo",
        Contract.SOLO_KARO: "Karosolo",
        Contract.SOLO_DAMEN: "Damensolo",
        Contract.SOLO_BUBEN: "Bubensolo",
        Contract.SOLO_FLEISCHLOS: "Fleischloser",
    },
    "en": {
        Contract.NORMAL: "Normal game",
        Contract.HOCHZEIT: "Hochzeit",
        Contract.HOCHZEIT_FAILED: "Hochzeit without partner (solo)",
        Contract.STILLE_HOCHZEIT: "Stille Hochzeit",
        Contract.SOLO_KREUZ: "Kreuz solo (clubs)",
        Contract.SOLO_PIK: "Pik solo (spades)",
        Contract.SOLO_HERZ: "Herz solo (hearts)",
        Contract.SOLO_KARO: "Karo solo (diamonds)",
        Contract.SOLO_DAMEN: "Damen solo (queens)",
        Contract.SOLO_BUBEN: "Buben solo (jacks)",
        Contract.SOLO_FLEISCHLOS: "Fleischloser (no trumps)",
    },
}

CALL_NAMES: dict[Lang, dict[Call, str]] = {
    "de": {
        Call.RE: "Re",
        Call.KONTRA: "Kontra",
        Call.NO90: "Keine 90",
        Call.NO60: "Keine 60",
        Call.NO30: "Keine 30",
        Call.SCHWARZ: "Schwarz",
    },
    "en": {
        Call.RE: "Re",
        Call.KONTRA: "Kontra",
        Call.NO90: "No 90",
        Call.NO60: "No 60",
        Call.NO30: "No 30",
        Call.SCHWARZ: "Schwarz",
    },
}
# Slash-command values: what players type, mapped to the rules' call codes.
CALL_OPTIONS: dict[str, Call] = {
    "re": Call.RE,
    "kontra": Call.KONTRA,
    "keine90": Call.NO90,
    "keine60": Call.NO60,
    "keine30": Call.NO30,
    "schwarz": Call.SCHWARZ,
}
OPTION_OF_CALL = {call: option for option, call in CALL_OPTIONS.items()}


def legal_calls(view: PlayerView) -> list[Call]:
    """The calls this seat may make now, for the command's suggestions."""
    return [a.call for a in view.legal if isinstance(a, Announce)]


ITEM_NAMES: dict[Lang, dict[str, str]] = {
    "de": {
        "won": "gewonnen",
        "under_90": "unter 90 gespielt",
        "under_60": "unter 60 gespielt",
        "under_30": "unter 30 gespielt",
        "schwarz": "schwarz gespielt",
        "re_announced": "Re angesagt",
        "kontra_announced": "Kontra angesagt",
        "gegen_die_alten": "gegen die Alten",
        "doppelkopf": "Doppelkopf",
        "fuchs": "Fuchs gefangen",
        "karlchen": "Karlchen",
        "absage": "{party}-Absage {call}",
        "reached": "{line} Augen gegen {call} erreicht",
    },
    "en": {
        "won": "won",
        "under_90": "loser under 90",
        "under_60": "loser under 60",
        "under_30": "loser under 30",
        "schwarz": "loser schwarz (no trick)",
        "re_announced": "Re announced",
        "kontra_announced": "Kontra announced",
        "gegen_die_alten": "gegen die Alten (against the queens)",
        "doppelkopf": "Doppelkopf (trick of 40+ Augen)",
        "fuchs": "Fuchs caught",
        "karlchen": "Karlchen (last trick)",
        "absage": "{party} Absage {call}",
        "reached": "{line} Augen reached against {call}",
    },
}


def contract_name(contract: Contract | str, lang: Lang) -> str:
    return CONTRACT_NAMES[lang][Contract(contract)]


def solo_kind_name(kind: SoloKind | str, lang: Lang) -> str:
    """Pflichtsolo, Lustsolo or a vorgeführtes Pflichtsolo, in words."""
    return t(lang, f"solo_{SoloKind(kind)}")


def call_name(call: Call | str, lang: Lang) -> str:
    return CALL_NAMES[lang][Call(call)]


def party_name(party: Party | str) -> str:
    return str(party).capitalize()


def item_name(item: str, lang: Lang) -> str:
    """A Spielwert item id (``won``, ``re_no90``, ``reached_120_against_no90``…) as text."""
    names = ITEM_NAMES[lang]
    if item in names and item not in ("absage", "reached"):
        return names[item]
    if item.startswith("reached_"):
        _, line, _, call = item.split("_", 3)
        return names["reached"].format(line=line, call=call_name(call, lang))
    party, call = item.split("_", 1)
    return names["absage"].format(party=party_name(party), call=call_name(call, lang))
