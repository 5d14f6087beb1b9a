"""Refusals in the player's language: the engine's stable reason codes, explained."""

from __future__ import annotations

import re

from bot.engine.model import EngineError
from bot.render.terms import card_label
from bot.render.texts import TEXTS, Lang, t
from bot.rules.cards import Card, Suit

_FOLLOW = re.compile(r"does not follow (?P<led>[A-Z0-9]+): seat \d must play (?P<what>\w+)")
_NEED = re.compile(r"at least (?P<need>\d+) cards")


def error_text(error: EngineError, lang: Lang) -> str:
    reason = error.reason
    message = str(error)
    if reason == "must_follow_suit":
        match = _FOLLOW.search(message)
        if match is None:
            return t(lang, "err_must_follow_suit_plain")
        what = match["what"]
        what_text = (
            t(lang, "trump") if what == "trump" else t(lang, f"suit_{int(Suit[what.upper()])}")
        )
        return t(
            lang, "err_must_follow_suit", led=card_label(Card[match["led"]], lang), what=what_text
        )
    if reason in ("erstansage_too_late", "absage_too_late"):
        match = _NEED.search(message)
        return t(lang, f"err_{reason}", need=match["need"] if match else "?")
    key = f"err_{reason}"
    if key in TEXTS["de"]:
        return t(lang, key)
    return t(lang, "err_unknown", reason=reason)
