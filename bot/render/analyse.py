"""What a player reads of the Spielanalyse and of the coach's Tipp (both private)."""

from __future__ import annotations

from bot.engine.analyse import PLAYOUTS, Analysis, HouseOption, Tip
from bot.engine.model import ListEntry, TableInfo
from bot.render.controls import Button, Controls, TableButton
from bot.render.terms import call_name, card_label, contract_name
from bot.render.texts import Lang, t
from bot.rules.calls import Call
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    Announce,
    ArmutOffer,
    Declare,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)


def number(value: float, lang: Lang) -> str:
    """One decimal, with the reader's decimal sign (never "-0.0": a tiny loss reads 0.0)."""
    text = f"{value:.1f}"
    if text == "-0.0":
        text = "0.0"
    return text.replace(".", ",") if lang == "de" else text


def place(position: int, lang: Lang) -> str:
    """Where in the trick the player was: "you led" … "you played last"."""
    return t(lang, f"analyse_place_{position}")


def count(value: int, lang: Lang) -> str:
    """A whole number with the reader's thousands sign."""
    text = f"{value:,}"
    return text.replace(",", ".") if lang == "de" else text


def percent(share: float) -> str:
    return str(round(share * 100))


def analyse_controls(
    info: TableInfo, entry: ListEntry, game_id: int, user_id: int, lang: Lang
) -> Controls:
    """The result's "Spielanalyse" button, for a human who played in that game."""
    seat = info.seat_of(user_id)
    if seat is None or seat == entry.sitting_out or seat not in entry.seats:
        return ()
    return (Button(TableButton("analyse", str(game_id)), t(lang, "btn_analyse"), "primary"),)


def _choice(choice: Card | Call | Contract | HouseOption | Action, lang: Lang) -> str:
    """A card, call, contract, house-rule choice, answer or cards returned in the reader's
    words.
    """
    if isinstance(choice, ReturnCards):
        return _cards(choice.cards, lang)
    if isinstance(choice, Call):
        return call_name(choice, lang)
    if isinstance(choice, Contract):
        return contract_name(choice, lang)
    if isinstance(choice, HouseOption):
        return t(lang, "phase_armut" if choice is HouseOption.ARMUT else "btn_schmeissen")
    if isinstance(choice, Card):
        return card_label(choice, lang)
    return action_name(choice, lang)


def analysis_text(analysis: Analysis, lang: Lang) -> str:
    """The Spielanalyse: the game's figure, the mistakes, the calls that would have paid."""
    lines = [t(lang, "analyse_head")]
    if analysis.decisions == 0:
        lines.append(t(lang, "analyse_nothing"))
        return "\n".join(lines)
    lines.append(
        t(
            lang,
            "analyse_figure",
            points=number(analysis.given_away, lang),
            agreed=analysis.agreed,
            decisions=analysis.decisions,
        )
    )
    if analysis.mistakes:
        lines.append(t(lang, "analyse_mistakes"))
    for m in analysis.mistakes:
        loss = number(m.loss, lang)
        if m.kind == "armut" and isinstance(m.played, TakeArmut):
            key = "analyse_armut_taken" if m.played.take else "analyse_armut_declined"
            lines.append(t(lang, key, loss=loss))
        elif m.kind in ("contract", "armut"):  # the Vorbehalt, or the cards given back
            assert m.suggested is not None
            lines.append(
                t(
                    lang,
                    "analyse_contract" if m.kind == "contract" else "analyse_armut_return",
                    played=_choice(m.played, lang),
                    suggested=_choice(m.suggested, lang),
                    loss=loss,
                )
            )
        elif m.kind == "call":
            lines.append(
                t(
                    lang,
                    "analyse_call",
                    trick=m.trick,
                    position=place(m.position, lang),
                    call=_choice(m.played, lang),
                    loss=loss,
                )
            )
        else:
            assert m.suggested is not None
            lines.append(
                t(
                    lang,
                    "analyse_card",
                    trick=m.trick,
                    position=place(m.position, lang),
                    played=_choice(m.played, lang),
                    suggested=_choice(m.suggested, lang),
                    loss=loss,
                )
            )
    if analysis.missed_calls:
        lines.append(t(lang, "analyse_missed"))
    for c in analysis.missed_calls:
        lines.append(
            t(
                lang,
                "analyse_missed_call",
                call=call_name(c.call, lang),
                trick=c.trick,
                position=place(c.position, lang),
                win=percent(c.win),
                gain=number(c.gain, lang),
            )
        )
    if not analysis.mistakes and not analysis.missed_calls:
        lines.append(t(lang, "analyse_clean"))
    if not analysis.complete:
        lines.append(t(lang, "analyse_incomplete"))
    lines.append(t(lang, "analyse_note", worlds=count(PLAYOUTS, lang)))
    return "\n".join(lines)


def tipp_button(lang: Lang) -> Button:
    """The coach's button on a coached table's hand."""
    return Button(TableButton("tipp"), t(lang, "btn_tipp"), "success")


def action_name(action: Action, lang: Lang) -> str:
    """An action as a few words: what a Tipp names."""
    match action:
        case Play(card=card):
            return card_label(card, lang)
        case Announce(call=call):
            return call_name(call, lang)
        case Reserve(reserve=reserve):
            return t(lang, "btn_vorbehalt" if reserve else "btn_gesund")
        case Declare(contract=contract):
            return contract_name(contract, lang)
        case Schmeissen():
            return t(lang, "btn_schmeissen")
        case ArmutOffer(cards=cards):
            return t(lang, "btn_armut", n=len(cards))
        case TakeArmut(take=take):
            return t(lang, "btn_take_armut" if take else "btn_decline_armut")
        case ReturnCards(cards=cards):
            return t(lang, "tipp_return", cards=_cards(cards, lang))
    return ""


def _cards(cards: tuple[Card, ...], lang: Lang) -> str:
    return " ".join(card_label(c, lang) for c in cards)


def tip_text(tip: Tip, lang: Lang) -> str:
    """The coach's suggestion and why, in few words."""
    name = action_name(tip.action, lang)
    match tip.reason:
        case "best_card":
            assert tip.expected is not None and tip.runner_up is not None
            assert tip.runner_up_expected is not None
            return t(
                lang,
                "tipp_best_card",
                card=name,
                expected=number(tip.expected, lang),
                runner_up=card_label(tip.runner_up, lang),
                runner_up_expected=number(tip.runner_up_expected, lang),
            )
        case "only_card":
            return t(lang, "tipp_only_card", card=name)
        case "contract" if isinstance(tip.action, ReturnCards):
            assert isinstance(tip.other, ReturnCards) and tip.expected is not None
            assert tip.runner_up_expected is not None
            return t(
                lang,
                "tipp_return_best",
                cards=_cards(tip.action.cards, lang),
                expected=number(tip.expected, lang),
                other=_cards(tip.other.cards, lang),
                other_expected=number(tip.runner_up_expected, lang),
            )
        case "contract":
            assert tip.other is not None
            assert tip.expected is not None and tip.runner_up_expected is not None
            plan = name if tip.contract is None else _choice(tip.contract, lang)
            return t(
                lang,
                "tipp_contract",
                choice=f"**{name}**"
                if name == plan
                else t(lang, "tipp_plan", action=name, plan=plan),
                expected=number(tip.expected, lang),
                other=_choice(tip.other, lang),
                other_expected=number(tip.runner_up_expected, lang),
            )
        case "call_pays":
            assert tip.win is not None
            return t(lang, "tipp_call", call=name, win=percent(tip.win))
        case _:
            return t(lang, "tipp_rule_of_thumb", action=name)
