"""A finished game's protocol, page by page, for its replay thread.

Page 0 is the overview: what was played, the Vorbehalte, every call with the cards its caller
still held, the Augen of both parties, the Spielwert item by item and each player's points
(the end-of-game result's own lines: ``bot.render.table``). Pages 1 … n are the tricks: who
led, the cards in playing order, who won it with how many Augen, the calls made then.

Everything comes from the stored ``doko-game/1`` record (its ``meta`` names the players), so
a page renders the same after a restart. Only played cards show: the deal's hands never
do, nor the cards of an Armut, so a game that ended early shows no card a player kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.model import SeatInfo, TableInfo
from bot.render.pictures import Picture, trick_picture
from bot.render.table import (
    last_trick_text,
    outcome_lines,
    player_name,
    result_lines,
    summary_head,
)
from bot.render.terms import call_name, contract_name
from bot.render.texts import Lang, t
from bot.rules.actions import Declare, Reserve
from bot.rules.calls import Party
from bot.rules.contracts import Contract
from bot.rules.game import Game, Trick
from bot.rules.records import (
    RecordError,
    game_record_from_dict,
    game_summary,
    replay_record,
)
from bot.rules.ruleset import Ruleset

COLOUR = discord.Colour.blurple()


@dataclass(frozen=True)
class Protocol:
    """A finished game, replayed from its record: what every page is drawn from."""

    game_id: int
    info: TableInfo  # names the game seats (as the record's meta does)
    game: Game
    summary: dict[str, Any]
    conceded: int | None  # the seat whose party gave the game up, if any

    @property
    def pages(self) -> int:
        """The overview and one page per trick."""
        return 1 + len(self.game.tricks)


@dataclass(frozen=True, slots=True)
class Nav:
    """One button under a page: its label, the page it shows, and whether it is off."""

    label: str
    step: int
    slot: str
    disabled: bool


def protocol(record: dict[str, Any], game_id: int) -> Protocol | None:
    """The protocol of a finished game's record; None for one that does not replay to an end."""
    try:
        game, error = replay_record(game_record_from_dict(record))
    except RecordError:
        return None
    meta = record.get("meta") or {}
    conceded = (meta.get("conceded") or {}).get("seat")
    if conceded is not None and not game.finished:
        game.concede(conceded)  # a front end's decision, kept in meta (see Game.concede)
    if error is not None or not game.finished or game.result is None:
        return None
    players = meta.get("players") or []
    names = [str(p.get("name", "?")) for p in players][:4]
    names += [f"{i + 1}" for i in range(len(names), 4)]
    info = TableInfo(
        id=int(meta.get("table", 0)),
        guild_id=0,
        channel_id=0,
        host_id=0,
        rules=Ruleset.from_dict(record.get("rules") or {}),
        status="closed",
        version=0,
        turn_timer_s=None,
        games_per_session=0,
        seats=tuple(SeatInfo(seat, None, name, None) for seat, name in enumerate(names)),
        game_number=int(meta.get("game", 0)) or None,
        game_id=game_id,
        games_left=None,
        pflichtsolo_done=None,
        public=None,
    )
    return Protocol(game_id, info, game, game_summary(game), conceded)


def clamp(proto: Protocol, step: int) -> int:
    return max(0, min(step, proto.pages - 1))


def thread_name(proto: Protocol, lang: Lang) -> str:
    return t(lang, "rp_thread", table=proto.info.id, number=proto.info.game_number or "?")


def replay_page(proto: Protocol, step: int, lang: Lang) -> tuple[discord.Embed, list[Nav]]:
    """Page ``step`` (0: the overview; clamped) and the buttons under it."""
    step = clamp(proto, step)
    embed = _overview(proto, lang) if step == 0 else _trick_page(proto, step, lang)
    embed.set_footer(text=t(lang, "rp_footer", page=step + 1, pages=proto.pages))
    return embed, navigation(proto, step, lang)


def navigation(proto: Protocol, step: int, lang: Lang) -> list[Nav]:
    """First trick, back, next, last trick; a button leading nowhere is off."""
    last = proto.pages - 1
    return [
        Nav(t(lang, "rp_first"), min(1, last), "first", step == min(1, last)),
        Nav(t(lang, "rp_back"), max(0, step - 1), "back", step == 0),
        Nav(t(lang, "rp_next"), min(last, step + 1), "next", step == last),
        Nav(t(lang, "rp_last"), last, "last", step == last),
    ]


def page_picture(proto: Protocol, step: int, lang: Lang) -> Picture | None:
    """The trick picture of a trick's page, as the table draws its tricks; None on page 0."""
    step = clamp(proto, step)
    if step == 0:
        return None
    trick = proto.game.tricks[step - 1]
    names = [player_name(proto.info, g, lang) for g in range(4)]
    winner = names[trick.winner] if trick.winner is not None else "?"
    head = t(lang, "rp_pic_head", n=step, name=winner, augen=trick.augen)
    return trick_picture(trick, names, head, lang)


# -- the pages ------------------------------------------------------------------------------


def _title(proto: Protocol, lang: Lang) -> str:
    number = proto.info.game_number or "?"
    return t(lang, "rp_title", table=proto.info.id, number=number)


def _overview(proto: Protocol, lang: Lang) -> discord.Embed:
    info, summary = proto.info, proto.summary
    result = summary["result"]
    lines = [summary_head(info, summary, lang), *outcome_lines(info, summary, lang)]
    if proto.conceded is not None:
        lines.append(t(lang, "rp_conceded", name=player_name(info, proto.conceded, lang)))
    embed = discord.Embed(title=_title(proto, lang), description="\n".join(lines), colour=COLOUR)
    embed.add_field(name=t(lang, "rp_vorbehalte"), value=vorbehalte_text(proto, lang), inline=False)
    calls = [_call_line(proto, i, lang) for i in range(len(proto.game.calls))]
    embed.add_field(
        name=t(lang, "rp_calls"), value="\n".join(calls) or t(lang, "no_calls"), inline=False
    )
    contract = Contract(summary["contract"] or "normal")
    embed.add_field(
        name=t(lang, "spielwert"),
        value="\n".join(result_lines(result, lang, contract.scored_as_solo)),
        inline=False,
    )
    embed.add_field(name=t(lang, "points"), value=points_text(proto, lang), inline=False)
    return embed


def _trick_page(proto: Protocol, step: int, lang: Lang) -> discord.Embed:
    info, game = proto.info, proto.game
    trick: Trick = game.tricks[step - 1]
    lines = [
        t(lang, "rp_trick_of", n=step, total=len(game.tricks)),
        t(lang, "rp_led", name=player_name(info, trick.leader, lang)),
        last_trick_text(info, trick, lang),
    ]
    embed = discord.Embed(title=_title(proto, lang), description="\n".join(lines), colour=COLOUR)
    calls = [
        _call_line(proto, i, lang)
        for i, (_, _, n) in enumerate(game.calls)
        if game.rules.hand_size - n + 1 == step
    ]
    if calls:
        embed.add_field(name=t(lang, "rp_calls_here"), value="\n".join(calls), inline=False)
    re, kontra = augen_after(proto, step)
    embed.add_field(
        name=t(lang, "rp_standing"), value=t(lang, "rp_augen", re=re, kontra=kontra), inline=False
    )
    return embed


def augen_after(proto: Protocol, step: int) -> tuple[int, int]:
    """Augen of Re and Kontra from the first ``step`` tricks (by the parties as they ended)."""
    re = kontra = 0
    for trick in proto.game.tricks[:step]:
        if trick.winner is not None and proto.game.parties[trick.winner] is Party.RE:
            re += trick.augen
        else:
            kontra += trick.augen
    return re, kontra


def _call_line(proto: Protocol, index: int, lang: Lang) -> str:
    seat, call, n = proto.game.calls[index]
    name = player_name(proto.info, seat, lang)
    return t(lang, "rp_call", call=call_name(call, lang), name=name, n=n)


def vorbehalte_text(proto: Protocol, lang: Lang) -> str:
    """Each seat's answer in the Vorbehaltsabfrage, and what was played after a Vorbehalt.

    Only the contract that was played is named: a Vorbehalt that a higher one overrode
    would tell about a hand.
    """
    said = []
    for action in proto.game.actions:
        if isinstance(action, Reserve):
            key = "rp_vorbehalt" if action.reserve else "rp_gesund"
            said.append(t(lang, key, name=player_name(proto.info, action.seat, lang)))
    played = proto.summary.get("contract")
    declared = any(isinstance(a, Declare) for a in proto.game.actions)
    if declared and played:
        said.append(t(lang, "rp_played", contract=contract_name(played, lang)))
    return "\n".join(said) or t(lang, "rp_no_vorbehalte")


def points_text(proto: Protocol, lang: Lang) -> str:
    """Each player's points of this game (the result's scores, by game seat)."""
    scores = proto.summary["result"]["scores"]
    return " · ".join(
        f"{player_name(proto.info, seat, lang)} {points:+d}" for seat, points in enumerate(scores)
    )
