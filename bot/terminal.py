"""``python -m bot play``: a Doppelkopf session in the terminal against AI players.

It drives exactly the engine the Discord bot uses, with a SQLite file of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import db
from bot.cli import call_text
from bot.engine import (
    AI_LEVELS,
    Engine,
    EngineError,
    Event,
    GameOver,
    SessionOver,
    TableChanged,
    TableInfo,
    TrickTaken,
)
from bot.render.errors import error_text
from bot.render.table import (
    contract_text,
    open_pflichtsoli_line,
    outcome_lines,
    plays_pflichtsoli,
    result_lines,
    solo_line,
    summary_head,
)
from bot.render.terms import contract_name
from bot.render.texts import t
from bot.rules.cards import NotationError, parse_card
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
from bot.rules.records import action_to_dict
from bot.rules.ruleset import Ruleset, RulesetError
from bot.rules.view import PlayerView
from db import StoreError

HUMAN = 1
MAX_GAMES = 200  # as many as /doko tisch allows
EXIT_INPUT = 2
# The human's table seat is 0; the others by where they sit, clockwise.
NAMES = {
    4: ["Du", "Links", "Gegenüber", "Rechts"],
    5: ["Du", "Links", "Links gegenüber", "Rechts gegenüber", "Rechts"],
}
SUITS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def card_text(code: str) -> str:
    return f"{SUITS[code[0]]}{code[1:]}"


def describe(action: Action) -> str:
    match action:
        case Reserve():
            return "Vorbehalt" if action.reserve else "gesund"
        case Declare():
            return contract_name(action.contract, "de")
        case Play():
            return card_text(action.card.code)
        case Announce():
            return call_text(action.call)
        case Schmeissen():
            return "schmeißen"
        case ArmutOffer():
            return f"Armut anbieten ({len(action.cards)} Trümpfe)"
        case TakeArmut():
            return "Armut nehmen" if action.take else "nicht nehmen"
        case ReturnCards():
            return " ".join(card_text(c.code) for c in action.cards)


def plain(text: str) -> str:
    """A Discord text for the terminal: without the bold marks."""
    return text.replace("**", "")


def contract_words(view: PlayerView, names: list[str]) -> str:
    """What is played, as this seat knows it, in words (never a record code)."""
    if view.contract is None:
        if view.vorgefuehrt is not None:
            return t("de", "solo_vorgefuehrt")  # no Vorbehaltsabfrage: the solo comes first
        return t("de", "phase_vorbehalt" if view.phase is Phase.VORBEHALT else "phase_declare")
    if view.soloist is None:
        return contract_name(view.contract, "de")
    kind = view.solo_kind if plays_pflichtsoli(view.ruleset) else None
    return solo_line(view.contract, names[view.soloist], kind, "de")


def render_view(view: PlayerView, names: list[str], sitting_out: str | None = None) -> list[str]:
    """``names`` by game seat; ``sitting_out``: the dealer sitting out at five players."""
    lines = []
    party = f", du bist {view.own_party}" if view.own_party else ""
    dealer = f"{sitting_out} (setzt aus)" if sitting_out else names[view.dealer]
    lines.append(f"Spiel: {contract_words(view, names)}{party}   Geber: {dealer}")
    if view.vorgefuehrt == view.seat:
        key = "vorgefuehrt_you" if view.contract is None else "vorgefuehrt_you_play"
        lines.append(plain(t("de", key)))
    if view.calls:
        said = ", ".join(f"{names[s]}: {call_text(c)}" for s, c in view.calls)
        lines.append(f"Ansagen: {said}")
    if view.tricks:
        last = view.tricks[-1]
        cards = " ".join(
            f"{names[s]} {card_text(c.code)}" for s, c in zip(last.seats, last.cards, strict=True)
        )
        lines.append(f"Letzter Stich: {cards} → {names[last.winner or 0]}")
    seats = [(view.current_leader + i) % 4 for i in range(len(view.current_trick))]
    trick = " ".join(
        f"{names[s]} {card_text(c.code)}" for s, c in zip(seats, view.current_trick, strict=True)
    )
    lines.append(f"Stich {len(view.tricks) + 1}: {trick or '(leer)'}")
    order = (view.contract or Contract.NORMAL).order
    hand = " ".join(("*" if order.is_trump(c) else "") + card_text(c.code) for c in view.hand)
    lines.append(f"Deine Karten (* = Trumpf): {hand}")
    return lines


def parse_choice(text: str, legal: list[Action]) -> Action | None:
    """A number from the menu, or what is written there (``H10``, ``re``, ``gesund`` …)."""
    text = text.strip().lower()
    returns = [a for a in legal if isinstance(a, ReturnCards)]
    if returns:
        # Cards to give back are typed, not picked from a menu of every combination.
        wanted = sorted(text.upper().replace(",", " ").split())
        return next((a for a in returns if sorted(c.code for c in a.cards) == wanted), None)
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    for action in legal:
        words = {describe(action).lower(), str(action_to_dict(action).get("play", "")).lower()}
        if isinstance(action, Announce):
            words.add(str(action.call))
        if isinstance(action, Reserve):
            words.add("v" if action.reserve else "g")
        if isinstance(action, Declare):
            words.add(str(action.contract))  # the record's code (solo_kreuz) may be typed too
        if text in words:
            return action
    return None


class Terminal:
    def __init__(
        self,
        engine: Engine,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
    ) -> None:
        self.engine = engine
        self.ask = ask
        self.say = say
        self.names = NAMES[4]  # by table seat
        self._sat_out: int | None = None  # the game the human was last told he sits out
        self._dealt: int | None = None  # the game whose deal was announced
        self._told: tuple[int, Phase] | None = None  # the game and stage last told about
        engine.subscribe(self.on_event)

    def named(self, info: TableInfo) -> TableInfo:
        """The table with the terminal's names for its seats (Du, Links, …)."""
        seats = tuple(
            None if s is None else replace(s, name=self.names[s.seat], away=False)
            for s in info.seats
        )
        return replace(info, seats=seats)

    def tell_game(self, info: TableInfo) -> None:
        """A line when a game is dealt (who still owes a Pflichtsolo) and when it is known
        what is played: the contract in words, the soloist, Pflicht, Lust or vorgeführt.
        """
        pv = info.public
        if pv is None or info.game_id is None or info.status != "playing":
            return
        named = self.named(info)
        if self._dealt != info.game_id:
            self._dealt = info.game_id
            owing = open_pflichtsoli_line(named, "de")
            self.say(f"\nSpiel {info.game_number} wird gegeben." + (f" {owing}" if owing else ""))
        # Said once the contract is known, and before that when a vorgeführt seat must name
        # its solo.
        if pv.phase is Phase.DECLARE and pv.vorgefuehrt is not None:
            stage = Phase.DECLARE
        elif pv.phase in (Phase.PLAY, Phase.FINISHED) and pv.contract is not None:
            stage = Phase.PLAY
        else:
            return
        if self._told == (info.game_id, stage):
            return
        self._told = (info.game_id, stage)
        if stage is Phase.DECLARE and info.game_seat_of(HUMAN) == pv.vorgefuehrt:
            return  # the human's own turn says it (render_view)
        for line in contract_text(named, pv, "de").splitlines():
            self.say(plain(line))

    async def on_event(self, event: Event) -> None:
        match event:
            case TableChanged(table=info):
                self.names = NAMES[info.size]
                out = info.sitting_out
                if out is not None and info.seat_of(HUMAN) == out and self._sat_out != info.game_id:
                    self._sat_out = info.game_id
                    self.say(f"\nSpiel {info.game_number}: du gibst und setzt aus (0 Punkte).")
                self.tell_game(info)
            case TrickTaken():
                info = self.engine.table(event.table_id)  # the game seats of this game
                winner = self.names[info.game_seats[event.winner]]
                self.say(f"  Stich {event.trick_number} an {winner} ({event.augen} Augen)")
            case GameOver():
                # Sent before the next deal: the table still names this game's seats.
                self.say("\n".join(self.game_over_lines(self.engine.table(event.table_id), event)))
            case SessionOver():
                self.say("Die Runde ist zu Ende.")
            case _:
                pass

    def game_over_lines(self, info: TableInfo, event: GameOver) -> list[str]:
        """The end of a game as the table message says it: what was played, Augen, who won,
        the Spielwert item by item, everyone's points and the Spielliste.
        """
        entry, summary = event.entry, event.summary
        named = replace(self.named(info), game_seats=entry.seats, sitting_out=entry.sitting_out)
        solo = Contract(summary["contract"] or "normal").scored_as_solo
        lines = [f"Spiel {entry.number} ist vorbei: " + summary_head(named, summary, "de")]
        lines += outcome_lines(named, summary, "de")
        lines.append(f"{t('de', 'spielwert')}:")
        lines += [f"  {line}" for line in result_lines(summary["result"], "de", solo)]
        points = "  ".join(
            f"{self.names[s]} {p:+d}" for s, p in enumerate(entry.scores) if s != entry.sitting_out
        )
        lines.append(f"Punkte: {points}")
        totals = "  ".join(f"{self.names[s]} {total:+d}" for s, total in enumerate(entry.totals))
        lines.append(f"Spielliste: {totals}")
        return [plain(line) for line in lines]

    async def run(self, table_id: int) -> int:
        while True:
            await self.engine.idle()
            try:
                info = self.engine.table(table_id)
            except EngineError:
                return 0
            if info.status != "playing":
                return 0
            if info.game_seat_of(HUMAN) is None:  # five players: the dealer sits out
                await asyncio.sleep(0)
                continue
            view = self.engine.view_for(table_id, HUMAN)
            if view.to_act != view.seat:
                await asyncio.sleep(0)
                continue
            self.say("")
            players = [self.names[seat] for seat in info.game_seats]  # by game seat
            dealer = None if info.sitting_out is None else self.names[info.sitting_out]
            self.say("\n".join(render_view(view, players, dealer)))
            legal = list(view.legal)
            returns = [a for a in legal if isinstance(a, ReturnCards)]
            if returns:
                n = len(returns[0].cards)
                self.say(f"Gib {n} Karten zurück: die Codes eingeben, z. B. {returns[0].cards[0]}")
            else:
                menu = "  ".join(f"[{i}] {describe(a)}" for i, a in enumerate(legal, start=1))
                self.say(menu)
            try:
                text = await ask_in_thread(self.ask, "Deine Wahl: ")
            except EOFError:
                self.say("Ende der Eingabe: das Spiel bleibt gespeichert.")
                return 0
            if text.strip().lower() in ("q", "quit", "ende"):
                return 0
            choice = parse_choice(text, legal) or typed_card(text, view.seat)
            if choice is None:
                self.say(f"'{text.strip()}' steht nicht zur Wahl: Nummer oder Karte (z. B. H10).")
                continue
            try:
                await self.engine.act(table_id, HUMAN, choice, info.version)
            except EngineError as err:
                # A card the rules refuse: the rules core's reason, in words.
                self.say(f"Nicht erlaubt: {plain(error_text(err, 'de'))}")


def typed_card(text: str, seat: int) -> Play | None:
    """A card code that is not on the menu: played anyway, so the rules say why not."""
    try:
        return Play(seat, parse_card(text))
    except NotationError:
        return None


async def ask_in_thread(ask: Callable[[str], str], prompt: str) -> str:
    """``ask(prompt)`` in a daemon thread: Ctrl-C ends the program at once, where a thread
    of the default executor (``asyncio.to_thread``) would be waited for until Enter.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result or "")

    def read() -> None:
        try:
            result, error = ask(prompt), None
        except BaseException as err:  # EOFError above all; handed to the waiting task
            result, error = None, err
        # RuntimeError: the loop closed meanwhile (Ctrl-C), nobody waits any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=read, name="terminal-input", daemon=True).start()
    return await answer


async def play(args: argparse.Namespace, ask: Callable[[str], str] = input) -> int:
    path = Path(args.db) if args.db else Path(tempfile.mkdtemp()) / "play.sqlite3"
    store = await db.connect(path)
    engine = Engine(store)
    await engine.start()
    try:
        rules = Ruleset.from_dict(args.rules)
        if args.players is not None:
            rules = rules.replace(players=args.players)
        terminal = Terminal(engine, ask=ask)  # listening before the first deal
        table = engine.find_table(0, 0)
        if table is None:
            table = await engine.create_table(
                guild_id=0,
                channel_id=0,
                host_id=HUMAN,
                host_name="Du",
                rules=rules,
                games=args.games,
            )
            for seat in range(1, rules.players):
                table = await engine.add_ai(table.id, HUMAN, args.level, seat)
            table = await engine.start_game(table.id, HUMAN)
        return await terminal.run(table.id)
    finally:
        await engine.close()
        await store.close()


def games_count(text: str) -> int:
    """``--games``: a whole number of games a session can have."""
    try:
        games = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= games <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"a session has 1 to {MAX_GAMES} games, not {games}")
    return games


def rule_overrides(text: str) -> dict[str, object]:
    """``--rules``: a JSON object of rule overrides."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise argparse.ArgumentTypeError(f"not JSON: {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError('a JSON object of rule overrides, like {"bock": true}')
    return value


def main(argv: list[str]) -> int:
    """Bad input ends with one ``error:`` line and exit status 2, Ctrl-C at once with 130."""
    parser = argparse.ArgumentParser(prog="python -m bot play")
    parser.add_argument(
        "--games", type=games_count, default=24, help=f"games in the session (1–{MAX_GAMES})"
    )
    parser.add_argument("--level", choices=AI_LEVELS, default="leicht", help="the AI players")
    parser.add_argument("--db", help="SQLite file to keep the session in (resumes it)")
    parser.add_argument("--rules", type=rule_overrides, default={}, help="rule overrides as JSON")
    parser.add_argument(
        "--players",
        type=int,
        choices=(4, 5),
        help="players at the table (5: the dealer sits out each game and scores 0)",
    )
    args = parser.parse_args(argv)
    try:
        return asyncio.run(play(args))
    except (RulesetError, StoreError, EngineError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        # The engine and the store are closed by now; only the input thread still waits
        # for a line. Ending the interpreter normally would wait for it or abort on the
        # stdin lock it holds: leave at once.
        print("\nAbgebrochen: das Spiel bleibt gespeichert.", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
