"""The public table message: lobby, running game, final result. It renders only public state.

Inputs are ``TableInfo`` (whose ``public`` is a ``PublicView`` without any hand) and, at the
end of a game, the engine's game summary, in which every card has been played.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.engine.model import AI_LEVELS, ListEntry, SeatInfo, TableInfo
from bot.render import absence, slow
from bot.render.controls import Button, Control, Controls, TableButton
from bot.render.settings import ddv_difference
from bot.render.terms import (
    call_name,
    card_label,
    contract_name,
    item_name,
    party_name,
    solo_kind_name,
)
from bot.render.texts import Lang, t
from bot.rules.cards import Card
from bot.rules.contracts import Contract
from bot.rules.game import Phase, Redeal, Trick
from bot.rules.presets import rules_summary
from bot.rules.round import SoloKind
from bot.rules.ruleset import Ruleset
from bot.rules.view import ArmutView, PublicView

COLOUR = discord.Colour.dark_green()
FIELD_LIMIT = 1024
Embed = discord.Embed


def seat_label(seat: SeatInfo | None, lang: Lang) -> str:
    if seat is None:
        return t(lang, "seat_free")
    name = seat.name
    if seat.is_ai and seat.ai_level:
        return name
    if seat.away:
        name += t(lang, "away_suffix")
    return name


def seat_name(info: TableInfo, seat: int, lang: Lang = "de") -> str:
    """The name on table seat ``seat``."""
    return seat_label(info.seats[seat], lang)


def player_name(info: TableInfo, game_seat: int, lang: Lang = "de") -> str:
    """The name of who plays game seat ``game_seat`` (at five players not the table seat)."""
    return seat_label(info.player(game_seat), lang)


def sitting_out_line(info: TableInfo, lang: Lang) -> str | None:
    """Who deals and sits this game out at a five-player table."""
    if info.sitting_out is None:
        return None
    return t(lang, "sitting_out_line", name=seat_name(info, info.sitting_out, lang))


def timer_text(info: TableInfo, lang: Lang) -> str:
    if info.turn_timer_s is None:
        return ""
    return t(lang, "timer", seconds=info.turn_timer_s)


def rules_preset_name(rules: Ruleset, lang: Lang) -> str:
    from bot.render.presets import preset_name, preset_of

    # The table size is no part of a preset: five at a DDV table still play DDV rules.
    name = preset_name(preset_of(rules.replace(players=4)), lang)
    return name + t(lang, "five_seats_suffix") if rules.players == 5 else name


def rules_lines(rules: Ruleset, games: int, lang: Lang) -> list[str]:
    """The rules core's summary, headed by the table's preset name, with the table's games."""
    lines = rules_summary(rules.replace(games_per_round=games), lang)
    lines[0] = t(lang, "rules_head", name=rules_preset_name(rules, lang))
    return lines


# -- lobby ----------------------------------------------------------------------------------


def lobby_message(info: TableInfo, lang: Lang) -> tuple[Embed, Controls]:
    host = next((s.name for s in info.seats if s and s.user_id == info.host_id), "?")
    embed = Embed(
        title=t(lang, "lobby_title", table=info.id),
        description=t(
            lang,
            "lobby_desc",
            host=host,
            games=info.games_per_session,
            rules=rules_preset_name(info.rules, lang),
            timer=timer_text(info, lang),
        )
        + "\n"
        + absence.policy_line(info, lang)
        + "".join(f"\n{line}" for line in [slow.lobby_line(info, lang)] if line),
        colour=COLOUR,
    )
    embed.add_field(
        name=t(lang, "seats"),
        value="\n".join(
            t(lang, "seat_line", n=i + 1, name=seat_label(info.seats[i], lang))
            for i in range(info.size)
        ),
        inline=False,
    )
    embed.add_field(
        name=t(lang, "rules_title"),
        value=rules_text(info.rules, info.games_per_session, lang)[:FIELD_LIMIT],
        inline=False,
    )
    full = all(s is not None for s in info.seats)
    controls: list[Control] = [
        Button(TableButton("join"), t(lang, "btn_join"), "success", disabled=full, row=0),
        Button(TableButton("leave"), t(lang, "btn_leave"), row=0),
        Button(TableButton("start"), t(lang, "btn_start"), "primary", row=0),
        Button(TableButton("rules"), t(lang, "btn_rules"), row=0),
    ]
    for level in AI_LEVELS:
        label = t(lang, "btn_add_ai", level=level)
        controls.append(Button(TableButton("addai", level), label, disabled=full, row=1))
    for seat in info.seats:
        if seat is not None and seat.is_ai:
            label = t(lang, "btn_remove_ai", n=seat.seat + 1)
            controls.append(Button(TableButton("removeai", str(seat.seat)), label, row=2))
    return embed, tuple(controls)


def started_lobby(info: TableInfo, lang: Lang) -> Embed:
    embed, _ = lobby_message(info, lang)
    embed.description = t(lang, "started_note")
    return embed


def closed_message(info: TableInfo, lang: Lang) -> Embed:
    embed = Embed(
        title=t(lang, "closed_title", table=info.id),
        description=t(lang, "closed_desc"),
        colour=discord.Colour.dark_grey(),
    )
    if info.spielliste and not add_spielliste(embed, info, lang):
        add_spielliste_note(embed, len(info.spielliste), lang)
    return embed


# -- running game ---------------------------------------------------------------------------


def trick_text(info: TableInfo, leader: int, cards: Sequence[Card], lang: Lang) -> str:
    if not cards:
        return t(lang, "empty_trick")
    return " · ".join(
        f"{player_name(info, (leader + i) % 4, lang)} {card_label(c, lang)}"
        for i, c in enumerate(cards)
    )


def last_trick_text(info: TableInfo, trick: Trick, lang: Lang) -> str:
    winner = player_name(info, trick.winner, lang) if trick.winner is not None else "?"
    return (
        trick_text(info, trick.leader, trick.cards, lang)
        + " "
        + t(lang, "trick_to", name=winner, augen=trick.augen)
    )


def armut_lines(info: TableInfo, armut: ArmutView | None, lang: Lang) -> list[str]:
    """The public part of an Armut: who is poor, who declined, who took, trumps returned."""
    if armut is None:
        return []
    poor = player_name(info, armut.poor, lang)
    lines = [t(lang, "armut_line", name=poor, n=armut.offered)]
    if armut.declined:
        names = ", ".join(player_name(info, s, lang) for s in armut.declined)
        lines.append(t(lang, "armut_declined", names=names))
    if armut.taker is not None:
        lines.append(t(lang, "armut_taken", name=player_name(info, armut.taker, lang), poor=poor))
    if armut.trumps_returned is not None:
        lines.append(t(lang, "armut_returned", n=armut.offered, trumps=armut.trumps_returned))
    return lines


def bock_schweinchen_lines(
    info: TableInfo, bock: int, schweinchen: int | None, lang: Lang
) -> list[str]:
    lines = []
    if bock > 1:
        lines.append(t(lang, "bock_line", n=bock))
    if schweinchen is not None:
        lines.append(t(lang, "schweinchen_line", name=player_name(info, schweinchen, lang)))
    return lines


def redeal_text(info: TableInfo, reason: Redeal | None, seat: int | None, lang: Lang) -> str:
    """Why the cards were dealt again (Schmeißen, an Armut nobody took)."""
    if reason is None or seat is None:
        return t(lang, "redeal_unknown")
    return t(lang, f"redeal_{reason}", name=player_name(info, seat, lang))


def plays_pflichtsoli(rules: Ruleset) -> bool:
    """Whether the table keeps Pflichtsoli; without them every solo is a Lustsolo."""
    return rules.pflichtsolo_enabled and rules.solos_enabled


def solo_line(
    contract: Contract | str, soloist: str, kind: SoloKind | str | None, lang: Lang
) -> str:
    """A solo in words, its soloist named, and Pflicht, Lust or vorgeführt when ``kind`` is
    given (a failed or stille Hochzeit has none).
    """
    line = t(lang, "soloist_line", contract=contract_name(contract, lang), name=soloist)
    return line if kind is None else f"{line} · {solo_kind_name(kind, lang)}"


def shown_kind(info: TableInfo, kind: SoloKind | str | None) -> SoloKind | str | None:
    """The solo kind worth saying: at a table without Pflichtsoli every solo is a Lustsolo."""
    return kind if plays_pflichtsoli(info.rules) else None


def open_pflichtsoli_line(info: TableInfo, lang: Lang) -> str | None:
    """Who still owes the round a Pflichtsolo (by table seat), at a table that keeps them."""
    done = info.pflichtsolo_done
    if done is None or not plays_pflichtsoli(info.rules):
        return None
    owing = [seat_name(info, s, lang) for s in range(len(done)) if not done[s]]
    if not owing:
        return t(lang, "open_pflichtsoli_none")
    names = ", ".join(owing)
    if not info.games_left:  # played on top of the round's games, vorgeführt one by one
        return t(lang, "open_pflichtsoli_due", names=names)
    return t(lang, "open_pflichtsoli", names=names, games=info.games_left)


def contract_text(info: TableInfo, pv: PublicView, lang: Lang) -> str:
    if pv.phase is Phase.VORBEHALT:
        return t(lang, "phase_vorbehalt")
    if pv.phase is Phase.DECLARE:
        if pv.vorgefuehrt is not None:
            return t(lang, "vorgefuehrt_declare", name=player_name(info, pv.vorgefuehrt, lang))
        return t(lang, "phase_declare")
    if pv.phase is Phase.ARMUT:
        return t(lang, "phase_armut")
    contract = pv.contract or Contract.NORMAL
    if contract is Contract.HOCHZEIT and pv.hochzeiter is not None:
        lines = [t(lang, "hochzeit_line", name=player_name(info, pv.hochzeiter, lang))]
        partner = [
            s for s in range(4) if s != pv.hochzeiter and pv.parties[s] is pv.parties[pv.hochzeiter]
        ]
        if pv.clarification_trick is None:
            lines.append(t(lang, "hochzeit_open"))
        elif partner:
            lines.append(t(lang, "hochzeit_partner", name=player_name(info, partner[0], lang)))
        return "\n".join(lines)
    if pv.soloist is not None:
        name = player_name(info, pv.soloist, lang)
        line = solo_line(contract, name, shown_kind(info, pv.solo_kind), lang)
        if pv.vorgefuehrt is not None:
            line += "\n" + t(lang, "vorgefuehrt_line", name=name)
        return line
    return t(lang, "contract_line", contract=contract_name(contract, lang))


def calls_text(info: TableInfo, calls: Sequence[tuple[int, Any]], lang: Lang) -> str:
    if not calls:
        return t(lang, "no_calls")
    return ", ".join(f"{call_name(c, lang)} ({player_name(info, s, lang)})" for s, c in calls)


def seats_text(info: TableInfo, pv: PublicView, lang: Lang) -> str:
    """One line per table seat; at five players the dealer's says he sits out."""
    lines = []
    for table_seat in range(info.size):
        if table_seat not in info.game_seats:
            name = seat_name(info, table_seat, lang)
            lines.append(f"**{name}** · {t(lang, 'sits_out')}")
            continue
        s = info.game_seats.index(table_seat)
        marker = "▶ " if pv.to_act == s else ""
        parts = [f"{marker}**{seat_name(info, table_seat, lang)}**"]
        if pv.phase in (Phase.VORBEHALT, Phase.DECLARE, Phase.ARMUT):
            reserved = pv.reservations[s]
            if reserved is not None:
                parts.append(t(lang, "reserved" if reserved else "healthy"))
        else:
            parts.append(t(lang, "cards_left", n=pv.cards_in_hand[s]))
            party = pv.parties[s]
            if party is not None:
                parts.append(party_name(party))
        lines.append(" · ".join(parts))
    return "\n".join(lines)


def totals_text(info: TableInfo, lang: Lang) -> str:
    return " · ".join(f"{seat_name(info, s, lang)} {info.totals[s]:+d}" for s in range(info.size))


def game_message(
    info: TableInfo, lang: Lang, dm_closed: Sequence[str] = (), redeal: str | None = None
) -> tuple[Embed, Controls]:
    """The running game; ``redeal`` says why this game was dealt again, if it was."""
    pv = info.public
    assert pv is not None and info.game_number is not None and info.game_id is not None
    lines = [redeal] if redeal else []
    out = sitting_out_line(info, lang)
    if out is not None:
        lines.append(out)
    lines.append(contract_text(info, pv, lang))
    pflichtsoli = open_pflichtsoli_line(info, lang)
    if pflichtsoli is not None:
        lines.append(pflichtsoli)
    lines.extend(armut_lines(info, pv.armut, lang))
    lines.extend(bock_schweinchen_lines(info, pv.bock, pv.schweinchen, lang))
    if pv.to_act is not None:
        name = player_name(info, pv.to_act, lang)
        # A slow table's line also says since when and until when.
        lines.extend(slow.turn_lines(info, lang, name) or [t(lang, "turn_line", name=name)])
    lines.extend(absence.waiting_lines(info, lang))
    if dm_closed:
        lines.append(t(lang, "dm_closed_note", names=", ".join(dm_closed)))
    embed = Embed(
        title=t(lang, "table_title", table=info.id, number=info.game_number),
        description="\n".join(lines),
        colour=COLOUR,
    )
    embed.add_field(name=t(lang, "seats"), value=seats_text(info, pv, lang), inline=False)
    if pv.phase is Phase.PLAY:
        embed.add_field(name=t(lang, "calls"), value=calls_text(info, pv.calls, lang), inline=False)
        embed.add_field(
            name=t(lang, "current_trick"),
            value=trick_text(info, pv.current_leader, pv.current_trick, lang),
            inline=False,
        )
        if pv.tricks:
            embed.add_field(
                name=t(lang, "last_trick"),
                value=last_trick_text(info, pv.tricks[-1], lang),
                inline=False,
            )
    if info.spielliste:
        embed.add_field(name=t(lang, "totals"), value=totals_text(info, lang), inline=False)
    embed.set_footer(
        text=t(lang, "footer", table=info.id, number=info.game_number, game_id=info.game_id)
    )
    controls = [
        Button(TableButton("hand"), t(lang, "btn_hand"), "primary"),
        Button(TableButton("rules"), t(lang, "btn_rules")),
    ]
    if info.status == "playing":
        # Step away and back mid-game: an AI keeps the seat warm meanwhile.
        controls.append(Button(TableButton("pause"), t(lang, "btn_pause")))
        controls.append(Button(TableButton("back"), t(lang, "btn_back")))
        controls.extend(absence.waiting_controls(info, lang))
    return embed, tuple(controls)


# -- the end of a game ----------------------------------------------------------------------


def result_lines(result: dict[str, Any], lang: Lang, solo: bool) -> list[str]:
    """The Spielwert item by item, from a ScoreResult dict."""
    lines = []
    for item in (*result["game_points"], *result["special_points"]):
        lines.append(
            f"+{item['points']} {party_name(item['party'])}: {item_name(item['item'], lang)}"
        )
    if solo:
        for item in result.get("ignored_special_points", []):
            lines.append(t(lang, "ignored_special", item=item_name(item["item"], lang)))
    # How the items became the value: the house rules that zero or multiply it.
    for note in result.get("notes", []):
        if note.startswith("bock_x"):
            lines.append(t(lang, "note_bock", n=note.removeprefix("bock_x")))
        else:
            lines.append(t(lang, f"note_{note}"))
    key = "solo_sum" if solo else "spielwert_sum"
    lines.append(t(lang, key, value=result["game_value"]))
    return lines


# -- the Spielliste -------------------------------------------------------------------------

EMBED_LIMIT = 6000  # Discord's limit on all of an embed's text together
MAX_FIELDS = 25
HEAD_WIDTH = 10  # longer names head their column with a letter, named in a legend
SEAT_LETTERS = "ABCDE"


def _plain(name: str) -> str:
    """A name as a code block can hold it (a backtick would end the block)."""
    return name.replace("`", "'")


def spielliste_heads(info: TableInfo, lang: Lang) -> tuple[list[str], str | None]:
    """The seat columns' heads, and the legend naming them when they are letters."""
    names = [seat_name(info, s, lang) for s in range(info.size)]
    if max(len(n) for n in names) <= HEAD_WIDTH:
        return [_plain(n) for n in names], None
    legend = " · ".join(
        f"`{SEAT_LETTERS[s]}` {discord.utils.escape_markdown(n)}" for s, n in enumerate(names)
    )
    return list(SEAT_LETTERS[: info.size]), legend


def spielliste_table(
    info: TableInfo, lang: Lang, entries: Sequence[ListEntry]
) -> tuple[str, list[str], str | None]:
    """The Spielliste's head line, one line per game and the legend of the heads: the game's
    number, each seat's running total, the game's Spielwert.
    """
    heads, legend = spielliste_heads(info, lang)
    width = max(6, *(len(h) + 1 for h in heads))
    number, value = t(lang, "sl_number"), t(lang, "sl_value")
    head = f"{number:>3} " + "".join(f"{h:>{width}}" for h in heads) + f"  {value}"
    rows = [
        f"{e.number:>3} "
        + "".join(f"{tot:>+{width}d}" for tot in e.totals)
        + f"  {e.game_value:>+{len(value)}d}"
        for e in entries
    ]
    return head, rows, legend


def spielliste_block(
    info: TableInfo, lang: Lang, entries: Sequence[ListEntry] = (), limit: int = FIELD_LIMIT
) -> list[str]:
    """The Spielliste as fixed-width blocks of at most ``limit`` characters each, every game
    in one of them, the column heads on top of each, the legend (if any) before the first.
    """
    entries = entries or info.spielliste
    head, rows, legend = spielliste_table(info, lang, entries)
    fence = len("```\n\n```")
    blocks: list[str] = []
    prefix = f"{legend}\n" if legend else ""
    lines: list[str] = [head]
    size = len(prefix) + fence + len(head)
    for row in rows:
        if len(lines) > 1 and size + 1 + len(row) > limit:
            blocks.append(prefix + "```\n" + "\n".join(lines) + "\n```")
            prefix, lines, size = "", [head], fence + len(head)
        lines.append(row)
        size += 1 + len(row)
    blocks.append(prefix + "```\n" + "\n".join(lines) + "\n```")
    return blocks


def spielliste_text(info: TableInfo, lang: Lang, entries: Sequence[ListEntry] = ()) -> str:
    """The whole Spielliste as plain text (a file, when it fits no message)."""
    head, rows, _ = spielliste_table(info, lang, entries or info.spielliste)
    names = [t(lang, "seat_line", n=s + 1, name=seat_name(info, s, lang)) for s in range(info.size)]
    heads, legend = spielliste_heads(info, lang)
    key = [f"{h} = {n}" for h, n in zip(heads, names, strict=True)] if legend else names
    return "\n".join([t(lang, "spielliste"), *key, "", head, *rows]) + "\n"


def add_spielliste(
    embed: Embed, info: TableInfo, lang: Lang, entries: Sequence[ListEntry] = ()
) -> bool:
    """The Spielliste as the embed's last fields, split over as many as it takes; False
    (and nothing added) when all of it does not fit the embed.
    """
    blocks = spielliste_block(info, lang, entries)
    names = [
        t(lang, "spielliste")
        if len(blocks) == 1
        else t(lang, "spielliste_part", n=i + 1, of=len(blocks))
        for i in range(len(blocks))
    ]
    size = sum(len(n) + len(b) for n, b in zip(names, blocks, strict=True))
    if len(embed) + size > EMBED_LIMIT or len(embed.fields) + len(blocks) > MAX_FIELDS:
        return False
    for name, block in zip(names, blocks, strict=True):
        embed.add_field(name=name, value=block, inline=False)
    return True


def add_spielliste_note(embed: Embed, games: int, lang: Lang) -> None:
    """In place of a Spielliste too long for the embed: word that it comes as a file."""
    embed.add_field(name=t(lang, "spielliste"), value=t(lang, "spielliste_file", games=games))


def spielliste_attachment(
    embed: Embed, info: TableInfo, lang: Lang, entries: Sequence[ListEntry] = ()
) -> discord.File | None:
    """The Spielliste as a text file, when ``embed`` (a final or closed message) could not
    hold it and says so.
    """
    entries = entries or info.spielliste
    note = t(lang, "spielliste_file", games=len(entries))
    if not any(field.value == note for field in embed.fields):
        return None
    data = spielliste_text(info, lang, entries).encode()
    return discord.File(io.BytesIO(data), filename=f"spielliste-{info.id}.txt")


def final_entries(info: TableInfo, entry: ListEntry) -> list[ListEntry]:
    """The Spielliste a game's final message shows: up to that game."""
    return [e for e in info.spielliste if e.number <= entry.number] or [entry]


def spielliste_csv(info: TableInfo, lang: Lang) -> str:
    """The round's Spielliste as CSV, headed in the reader's language: per game its number,
    contract, solo kind, soloist and Spielwert, then each seat's points and running total.
    """
    names = [seat_name(info, s, lang) for s in range(info.size)]
    out = io.StringIO()
    writer = csv.writer(out)
    head = [t(lang, key) for key in ("sl_number", "csv_contract", "csv_solo", "csv_soloist")]
    head.append(t(lang, "sl_value"))
    for name in names:
        head += [name, t(lang, "csv_total", name=name)]
    writer.writerow(head)
    for e in info.spielliste:
        soloist = names[e.soloist] if e.soloist is not None else ""
        kind = t(lang, f"csv_solo_{e.solo_kind}") if e.solo_kind else ""
        row: list[object] = [e.number, contract_name(e.contract, lang), kind, soloist]
        row.append(e.game_value)
        for points, total in zip(e.scores, e.totals, strict=True):
            row += [points, total]
        writer.writerow(row)
    return out.getvalue()


def spielliste_json(info: TableInfo) -> str:
    """The round's Spielliste as JSON for programs: stable keys, the rules' own ids, seats
    from 1 as players count them.
    """
    players = [
        {"seat": s + 1, "name": seat.name if seat else None, "bot": bool(seat and seat.is_ai)}
        for s, seat in enumerate(info.seats)
    ]
    games = [
        {
            "number": e.number,
            "contract": e.contract,
            "solo_kind": e.solo_kind,
            "soloist": e.soloist + 1 if e.soloist is not None else None,
            "sitting_out": e.sitting_out + 1 if e.sitting_out is not None else None,
            "game_value": e.game_value,
            "points": list(e.scores),
            "totals": list(e.totals),
        }
        for e in info.spielliste
    ]
    data: dict[str, Any] = {"table": info.id, "games_per_round": info.games_per_session}
    data |= {"players": players, "games": games}
    return json.dumps(data, ensure_ascii=False, indent=1)


def summary_head(info: TableInfo, summary: dict[str, Any], lang: Lang) -> str:
    """What a finished game was, from its summary: the contract in words, the soloist with
    Pflicht, Lust or vorgeführt, the Hochzeit, the Armut and the Bock. ``info`` names the
    summary's game seats (see ``final_message``).
    """
    contract = Contract(summary["contract"] or "normal")
    if summary.get("soloist") is not None and contract.scored_as_solo:
        name = player_name(info, summary["soloist"], lang)
        kind = shown_kind(info, summary.get("solo_kind"))
        head = solo_line(contract, name, kind, lang)
        if summary.get("vorgefuehrt") is not None:
            head += "\n" + t(lang, "vorgefuehrt_line", name=name)
    elif summary.get("hochzeit") is not None:
        hochzeit = summary["hochzeit"]
        head = t(lang, "hochzeit_line", name=player_name(info, hochzeit["hochzeiter"], lang))
        if hochzeit.get("partner") is not None:
            head += "\n" + t(
                lang, "hochzeit_partner", name=player_name(info, hochzeit["partner"], lang)
            )
    else:
        head = t(lang, "contract_line", contract=contract_name(contract, lang))
    armut = summary.get("armut")
    if armut is not None and armut.get("taker") is not None:
        poor = player_name(info, armut["poor"], lang)
        head += "\n" + t(lang, "armut_line", name=poor, n=len(armut["cards"]))
        taker = player_name(info, armut["taker"], lang)
        head += "\n" + t(lang, "armut_taken", name=taker, poor=poor)
    if summary.get("bock", 1) > 1:
        head += "\n" + t(lang, "bock_line", n=summary["bock"])
    return head


def outcome_lines(info: TableInfo, summary: dict[str, Any], lang: Lang) -> list[str]:
    """Who played Re, the Augen and tricks of both parties, and who won."""
    result = summary["result"]
    re_names = ", ".join(player_name(info, s, lang) for s in summary.get("re_seats", []))
    winner = result["winner"]
    return [
        f"Re: {re_names}",
        t(
            lang,
            "result_augen",
            re=result["re_augen"],
            kontra=result["kontra_augen"],
            re_tricks=result["re_tricks"],
            kontra_tricks=result["kontra_tricks"],
        ),
        t(lang, "winner", party=party_name(winner)) if winner != "none" else t(lang, "no_winner"),
    ]


def final_message(
    info: TableInfo,
    summary: dict[str, Any],
    entry: ListEntry,
    game_id: int,
    lang: Lang,
    session_over: bool = False,
) -> tuple[Embed, Controls]:
    """The finished game: Augen, the Spielwert item by item, points and the Spielliste."""
    # The summary speaks of game seats: name them as seated in that game, not the next one.
    info = replace(info, game_seats=entry.seats, sitting_out=entry.sitting_out)
    result = summary["result"]
    contract = Contract(summary["contract"] or "normal")
    lines = [summary_head(info, summary, lang), *outcome_lines(info, summary, lang)]
    out = sitting_out_line(info, lang)
    if out is not None:
        lines.insert(1, out)
    if session_over:
        lines.append(t(lang, "session_over"))
    embed = Embed(
        title=t(lang, "table_title", table=info.id, number=entry.number),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    calls = [(c["seat"], c["call"]) for c in summary.get("calls", [])]
    embed.add_field(name=t(lang, "calls"), value=calls_text(info, calls, lang), inline=False)
    tricks = summary.get("tricks") or []
    if tricks:
        last = tricks[-1]
        trick = Trick(last["leader"], tuple(Card[c] for c in last["cards"]), last["winner"])
        embed.add_field(
            name=t(lang, "last_trick"), value=last_trick_text(info, trick, lang), inline=False
        )
    embed.add_field(
        name=t(lang, "spielwert"),
        value="\n".join(result_lines(result, lang, contract.scored_as_solo)),
        inline=False,
    )
    embed.add_field(
        name=t(lang, "points"),
        value=" · ".join(
            f"{seat_name(info, s, lang)} {p:+d}"
            for s, p in enumerate(entry.scores)
            if s != entry.sitting_out
        ),
        inline=False,
    )
    embed.set_footer(text=t(lang, "footer", table=info.id, number=entry.number, game_id=game_id))
    upto = final_entries(info, entry)
    if not add_spielliste(embed, info, lang, upto):
        # Never a part of it: the whole Spielliste goes along as a file.
        add_spielliste_note(embed, len(upto), lang)
    return embed, (Button(TableButton("rules"), t(lang, "btn_rules")),)


def rules_text(rules: Ruleset, games: int, lang: Lang) -> str:
    """The rules summary for ``/doko regeln``, the Regeln button and the lobby; what
    differs from DDV comes right after the preset's name.
    """
    lines = rules_lines(rules, games, lang)
    differs = ddv_difference(rules.replace(games_per_round=games), lang)
    return "\n".join(lines[:1] + ([differs] if differs else []) + lines[1:])
