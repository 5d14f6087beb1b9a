"""A player's private hand: text plus card buttons, the same in a DM and in an ephemeral message.

Layout (at most 5 rows × 5): the hand in rows 0–2 (12 cards: 5 + 5 + 2), sorted as the view
sorts (trumps high to low, then the suits); trumps blue, plain suits grey; only legal cards
enabled. Row 3 holds what else the player may do now: Gesund / Vorbehalt, the select for
Hochzeit or a solo, or the calls legal right now (at most five: Re/Kontra and four Absagen).
"""

from __future__ import annotations

import discord

from bot.engine.model import TableInfo
from bot.render.buttons import DokoButton, DokoSelect
from bot.render.table import last_trick_text, seat_name, trick_text
from bot.render.terms import call_name, card_label, contract_name, party_name
from bot.render.texts import Lang, t
from bot.rules.contracts import Contract
from bot.rules.game import Announce, Declare, Phase, Play, Reserve
from bot.rules.view import PlayerView

CARDS_PER_ROW = 5


def hand_content(info: TableInfo, view: PlayerView, lang: Lang) -> str:
    seat = view.seat
    lines = [
        t(
            lang,
            "hand_head",
            table=info.id,
            number=info.game_number,
            game_id=info.game_id,
            seat=seat + 1,
        )
    ]
    if view.phase is Phase.VORBEHALT:
        lines.append(t(lang, "phase_vorbehalt"))
    elif view.phase is Phase.DECLARE:
        lines.append(t(lang, "phase_declare"))
    else:
        contract = view.contract or Contract.NORMAL
        if view.soloist is not None:
            lines.append(
                t(
                    lang,
                    "soloist_line",
                    contract=contract_name(contract, lang),
                    name=seat_name(info, view.soloist, lang),
                )
            )
        elif contract is Contract.HOCHZEIT and view.hochzeiter is not None:
            lines.append(t(lang, "hochzeit_line", name=seat_name(info, view.hochzeiter, lang)))
        else:
            lines.append(t(lang, "contract_line", contract=contract_name(contract, lang)))
        party = view.own_party
        lines.append(
            t(lang, "your_party", party=party_name(party))
            if party is not None
            else t(lang, "your_party_unknown")
        )
    if view.phase is Phase.FINISHED:
        lines.append(t(lang, "game_over_hand"))
    elif view.to_act == seat:
        lines.append(t(lang, "your_turn"))
    elif view.to_act is not None:
        lines.append(t(lang, "turn_line", name=seat_name(info, view.to_act, lang)))
    if view.phase is Phase.PLAY:
        calls = ", ".join(
            f"{call_name(c, lang)} ({seat_name(info, s, lang)})" for s, c in view.calls
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
    elif view.phase is Phase.DECLARE and view.to_act == seat:
        lines.append(t(lang, "declare_prompt"))
    lines.append(t(lang, "your_cards") if view.hand else t(lang, "no_cards"))
    return "\n".join(lines)


def hand_view(info: TableInfo, view: PlayerView, lang: Lang) -> discord.ui.View:
    table_id, version = info.id, info.version
    order = (view.contract or Contract.NORMAL).order
    playable = {a.card for a in view.legal if isinstance(a, Play)}
    ui = discord.ui.View(timeout=None)
    copies: dict[str, int] = {}
    for index, card in enumerate(view.hand):
        copy = copies.get(card.code, 0)
        copies[card.code] = copy + 1
        ui.add_item(
            DokoButton.make(
                "card",
                table_id,
                version,
                card.code,
                str(copy),
                label=card_label(card, lang),
                style=discord.ButtonStyle.primary
                if order.is_trump(card)
                else discord.ButtonStyle.secondary,
                disabled=card not in playable,
                row=index // CARDS_PER_ROW,
            )
        )
    row = 3
    reserves = [a for a in view.legal if isinstance(a, Reserve)]
    declares = [a for a in view.legal if isinstance(a, Declare)]
    calls = [a for a in view.legal if isinstance(a, Announce)]
    for action in reserves:
        ui.add_item(
            DokoButton.make(
                "reserve",
                table_id,
                version,
                "1" if action.reserve else "0",
                label=t(lang, "btn_vorbehalt" if action.reserve else "btn_gesund"),
                style=discord.ButtonStyle.danger if action.reserve else discord.ButtonStyle.success,
                row=row,
            )
        )
    if declares:
        options = [
            discord.SelectOption(label=contract_name(a.contract, lang), value=str(a.contract))
            for a in declares
        ]
        ui.add_item(DokoSelect.make(table_id, version, options, t(lang, "select_declare"), row=row))
    for announce in calls:
        ui.add_item(
            DokoButton.make(
                "call",
                table_id,
                version,
                str(announce.call),
                label=call_name(announce.call, lang),
                style=discord.ButtonStyle.danger,
                row=row,
            )
        )
    return ui


def hand_message(info: TableInfo, view: PlayerView, lang: Lang) -> tuple[str, discord.ui.View]:
    return hand_content(info, view, lang), hand_view(info, view, lang)
