"""A player's private hand: text plus card buttons, the same in a DM and in an ephemeral message.

Layout (at most 5 rows × 5): the hand in rows 0–2 (12 cards: 5 + 5 + 2), sorted as the view
sorts (trumps high to low in the card order the seat knows, Schweinchen included, then the
suits); trumps blue, plain suits grey; only legal cards enabled. The next row holds what else
the player may do now: Gesund / Vorbehalt / Schmeißen, the select for Hochzeit or a solo and
the Armut button, Armut nehmen / Nicht nehmen, or the calls legal right now (at most five).
An Armut taker holds up to 18 cards (rows 0–3); the select of the cards to return (one
option per card, exactly as many to pick as were taken) goes in the row after them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, assert_never

from bot.engine.model import ListEntry, TableInfo
from bot.render.analyse import tipp_button
from bot.render.controls import Button, CardOption, Control, Controls, DeclareOption, Select
from bot.render.table import (
    armut_lines,
    bock_schweinchen_lines,
    last_trick_text,
    outcome_lines,
    player_name,
    result_lines,
    shown_kind,
    sitting_out_line,
    solo_line,
    summary_head,
    trick_text,
)
from bot.render.terms import call_name, card_label, contract_name, party_name
from bot.render.texts import Lang, t
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    Announce,
    ArmutOffer,
    Declare,
    Phase,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)
from bot.rules.view import PlayerView

CARDS_PER_ROW = 5
ACTION_ROW = 3  # the first row after a 12-card hand


def returning(view: PlayerView) -> int:
    """How many cards this seat must give back now (0 unless it took an Armut)."""
    armut = view.armut
    if view.phase is Phase.ARMUT and armut is not None and armut.taker == view.seat:
        return armut.offered if view.to_act == view.seat else 0
    return 0


def hand_content(info: TableInfo, view: PlayerView, lang: Lang) -> str:
    seat = view.seat
    lines = [
        t(
            lang,
            "hand_head",
            table=info.id,
            number=info.game_number,
            game_id=info.game_id,
            seat=info.game_seats[seat] + 1,  # the table seat, as the lobby numbers them
        )
    ]
    out = sitting_out_line(info, lang)
    if out is not None:
        lines.append(out)
    if view.phase is Phase.VORBEHALT:
        lines.append(t(lang, "phase_vorbehalt"))
    elif view.phase is Phase.DECLARE:
        if view.vorgefuehrt == seat:
            lines.append(t(lang, "vorgefuehrt_you"))
        elif view.vorgefuehrt is not None:
            name = player_name(info, view.vorgefuehrt, lang)
            lines.append(t(lang, "vorgefuehrt_declare", name=name))
        else:
            lines.append(t(lang, "phase_declare"))
    elif view.phase is Phase.ARMUT:
        lines.append(t(lang, "phase_armut"))
    else:
        contract = view.contract or Contract.NORMAL
        if view.soloist is not None:
            name = player_name(info, view.soloist, lang)
            lines.append(solo_line(contract, name, shown_kind(info, view.solo_kind), lang))
            if view.vorgefuehrt == seat:
                lines.append(t(lang, "vorgefuehrt_you_play"))
            elif view.vorgefuehrt is not None:
                lines.append(t(lang, "vorgefuehrt_line", name=name))
        elif contract is Contract.HOCHZEIT and view.hochzeiter is not None:
            lines.append(t(lang, "hochzeit_line", name=player_name(info, view.hochzeiter, lang)))
        else:
            lines.append(t(lang, "contract_line", contract=contract_name(contract, lang)))
        party = view.own_party
        lines.append(
            t(lang, "your_party", party=party_name(party))
            if party is not None
            else t(lang, "your_party_unknown")
        )
    lines.extend(armut_lines(info, view.armut, lang))
    lines.extend(bock_schweinchen_lines(info, view.bock, view.schweinchen, lang))
    if view.received:
        cards = " ".join(card_label(c, lang) for c in view.received)
        lines.append(t(lang, "armut_received", cards=cards))
    if view.phase is Phase.FINISHED:
        lines.append(t(lang, "game_over_hand"))
    elif view.to_act == seat:
        lines.append(t(lang, "your_turn"))
    elif view.to_act is not None:
        lines.append(t(lang, "turn_line", name=player_name(info, view.to_act, lang)))
    if view.phase is Phase.PLAY:
        calls = ", ".join(
            f"{call_name(c, lang)} ({player_name(info, s, lang)})" for s, c in view.calls
        )
        lines.append(f"{t(lang, 'calls')}: {calls or t(lang, 'no_calls')}")
        lines.append(
            f"{t(lang, 'current_trick')}: "
            + trick_text(info, view.current_leader, view.current_trick, lang)
        )
        if view.tricks:
            lines.append(
                f"{t(lang, 'last_trick')}: " + last_trick_text(info, view.tricks[-1], lang)
            )
    if view.phase is Phase.VORBEHALT and view.to_act == seat:
        lines.append(t(lang, "vorbehalt_prompt"))
        if any(isinstance(a, Schmeissen) for a in view.legal):
            lines.append(t(lang, "schmeissen_prompt"))
    elif view.phase is Phase.DECLARE and view.to_act == seat:
        if any(isinstance(a, Declare) for a in view.legal):
            # A vorgeführt seat (or one without the Alten) may name only a solo.
            key = "declare_prompt" if _hochzeit_offered(view) else "declare_solo_prompt"
            lines.append(t(lang, key))
        if any(isinstance(a, ArmutOffer) for a in view.legal):
            lines.append(t(lang, "armut_offer_prompt"))
    elif view.phase is Phase.ARMUT and view.to_act == seat and view.armut is not None:
        poor = player_name(info, view.armut.poor, lang)
        if returning(view):
            lines.append(t(lang, "armut_return_prompt", n=view.armut.offered, name=poor))
        else:
            lines.append(t(lang, "armut_take_prompt", n=view.armut.offered, name=poor))
    lines.append(t(lang, "your_cards") if view.hand else t(lang, "no_cards"))
    return "\n".join(lines)


def _hochzeit_offered(view: PlayerView) -> bool:
    return any(isinstance(a, Declare) and a.contract is Contract.HOCHZEIT for a in view.legal)


def hand_controls(view: PlayerView, lang: Lang) -> Controls:
    order = view.order  # as this seat knows it: Schweinchen are trumps above the Dullen
    playable = {a.card: a for a in view.legal if isinstance(a, Play)}
    controls: list[Control] = []
    copies: dict[Card, int] = {}
    for index, card in enumerate(view.hand):
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        controls.append(
            Button(
                playable.get(card) or Play(view.seat, card),
                card_label(card, lang),
                style="primary" if order.is_trump(card) else "secondary",
                disabled=card not in playable,
                row=index // CARDS_PER_ROW,
                copy=copy,
            )
        )
    row = max(ACTION_ROW, -(-len(view.hand) // CARDS_PER_ROW))
    give_back = returning(view)
    if give_back:
        controls.append(_return_select(view, give_back, lang, row))
        return tuple(controls)
    offer = next((a for a in view.legal if isinstance(a, ArmutOffer)), None)
    declares = [a for a in view.legal if isinstance(a, Declare)]
    buttons = [b for b in (_action_button(a, lang, row) for a in view.legal) if b is not None]
    buttons.sort(key=_button_rank)
    controls.extend(buttons)
    if declares:
        options = tuple(DeclareOption(contract_name(a.contract, lang), a) for a in declares)
        select_row = row + 1 if offer is not None else row
        placeholder = "select_declare" if _hochzeit_offered(view) else "select_declare_solo"
        controls.append(Select("declare", view.seat, t(lang, placeholder), options, row=select_row))
    return tuple(controls)


def _action_button(action: Action, lang: Lang, row: int) -> Button | None:
    """The button of a legal action other than a card; None for a card or a select's."""
    match action:
        case Reserve(reserve=reserve):
            label = t(lang, "btn_vorbehalt" if reserve else "btn_gesund")
            return Button(action, label, "danger" if reserve else "success", row=row)
        case Schmeissen():
            return Button(action, t(lang, "btn_schmeissen"), "danger", row=row)
        case ArmutOffer(cards=cards):
            # A button takes a row slot of its own; the select (if any) the whole next row.
            return Button(action, t(lang, "btn_armut", n=len(cards)), "danger", row=row)
        case TakeArmut(take=take):
            label = t(lang, "btn_take_armut" if take else "btn_decline_armut")
            return Button(action, label, "success" if take else "secondary", row=row)
        case Announce(call=call):
            return Button(action, call_name(call, lang), "danger", row=row)
        case Play() | Declare() | ReturnCards():
            return None
        case _:
            assert_never(action)


# Left to right: Gesund/Vorbehalt, Schmeißen, Armut, taking the Armut, then the calls.
_RANK = {Reserve: 0, Schmeissen: 1, ArmutOffer: 2, TakeArmut: 3, Announce: 4}


def _button_rank(button: Button) -> int:
    return _RANK[type(button.target)]


def _return_select(view: PlayerView, count: int, lang: Lang, row: int) -> Select:
    """One option per card of the hand (≤ 18 < 25), both copies of a card distinct options;
    exactly ``count`` must be picked.
    """
    options = []
    copies: dict[Card, int] = {}
    for card in view.hand:
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        options.append(CardOption(card_label(card, lang), card, copy))
    placeholder = t(lang, "select_return", n=count)
    return Select("return", view.seat, placeholder, tuple(options), count=count, row=row)


def hand_message(info: TableInfo, view: PlayerView, lang: Lang) -> tuple[str, Controls]:
    controls = hand_controls(view, lang)
    if info.coach and view.legal and view.to_act in (None, view.seat):
        controls = with_tipp(controls, lang)
    return hand_content(info, view, lang), controls


def with_tipp(controls: Controls, lang: Lang) -> Controls:
    """A coached table's hand: the Tipp button in the last row with room (5 per row)."""
    width = [0] * 5
    for c in controls:
        if c.row is not None:
            width[c.row] += 1 if isinstance(c, Button) else 5
    row = next((r for r in (4, ACTION_ROW) if width[r] < 5), None)
    return (*controls, tipp_button(lang)._replace(row=row))


def sitting_out_message(info: TableInfo, lang: Lang) -> tuple[str, Controls]:
    """The DM of the dealer at a five-player table: he sits this game out, so no hand."""
    assert info.sitting_out is not None
    content = "\n".join(
        [
            t(
                lang,
                "hand_head",
                table=info.id,
                number=info.game_number,
                game_id=info.game_id,
                seat=info.sitting_out + 1,
            ),
            t(lang, "you_sit_out"),
        ]
    )
    return content, ()


def game_over_message(info: TableInfo, user_id: int, lang: Lang) -> str:
    """A hand message whose game is over (no cards, no buttons): ``info`` is of that game.

    The next game's hand goes out as a new message, so each game keeps exactly one.
    """
    seat = info.seat_of(user_id)
    assert seat is not None
    return "\n".join(
        [
            t(
                lang,
                "hand_head",
                table=info.id,
                number=info.game_number,
                game_id=info.game_id,
                seat=seat + 1,
            ),
            t(lang, "game_over_hand"),
        ]
    )


def hand_result_message(
    info: TableInfo,
    summary: dict[str, Any],
    entry: ListEntry,
    game_id: int,
    user_id: int,
    lang: Lang,
) -> str:
    """The hand message of a finished game, for every seated human: what was played, who
    won with how many Augen, the Spielwert item by item and the player's own points. It has
    no buttons; the next game's hand is a new message.
    """
    # The summary speaks of game seats: name them as seated in that game.
    info = replace(info, game_seats=entry.seats, sitting_out=entry.sitting_out)
    seat = info.seat_of(user_id)
    assert seat is not None
    result = summary["result"]
    solo = Contract(summary["contract"] or "normal").scored_as_solo
    lines = [
        t(lang, "hand_head", table=info.id, number=entry.number, game_id=game_id, seat=seat + 1),
        t(lang, "game_over_hand"),
        summary_head(info, summary, lang),
    ]
    out = sitting_out_line(info, lang)
    if out is not None:
        lines.append(out)
    lines += [
        *outcome_lines(info, summary, lang),
        f"{t(lang, 'spielwert')}:",
        *result_lines(result, lang, solo),
    ]
    total = entry.totals[seat]
    if seat == entry.sitting_out:
        lines.append(t(lang, "hand_result_sat_out", total=total))
    else:
        party = "re" if entry.seats.index(seat) in summary.get("re_seats", []) else "kontra"
        points = entry.scores[seat]
        lines.append(
            t(lang, "hand_result_you", party=party_name(party), points=points, total=total)
        )
    return "\n".join(lines)
