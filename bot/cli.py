"""Command-line entry points: ``python -m bot play|arena|sync|replay|score|bench``.

Without a subcommand ``python -m bot`` runs the Discord bot. Errors in input files end with
exit status 2 and one line that says what is wrong, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from bot.render.terms import call_name, item_name
from bot.rules.game import Game
from bot.rules.records import (
    RecordError,
    game_record_from_dict,
    game_summary,
    replay_record,
    score_facts_from_dict,
    score_sheet,
)
from bot.rules.scoring import ScoreResult

EXIT_INPUT = 2


def item_text(item: str) -> str:
    return item_name(item, "de")


def call_text(call: str) -> str:
    return call_name(call, "de")


def _load_json(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{path} is not valid JSON: {err.msg} (line {err.lineno})") from None
    except RecursionError:
        raise RecordError(f"{path} is nested too deeply to be a record") from None
    except ValueError:  # json reads every number; Python refuses to turn a huge one into int
        limit = sys.get_int_max_str_digits()
        raise RecordError(f"{path} has a number of more than {limit} digits") from None


def _fail(message: str, as_json: bool, extra: dict[str, Any] | None = None) -> int:
    if as_json:
        print(json.dumps({"error": {"action_index": None, "reason": message, **(extra or {})}}))
    print(f"error: {message}", file=sys.stderr)
    return EXIT_INPUT


def render_result(result: ScoreResult) -> list[str]:
    lines = [
        f"Augen: Re {result.re_augen}, Kontra {result.kontra_augen}"
        f"  (Stiche {result.re_tricks}:{result.kontra_tricks})",
        "Ansagen: "
        + "; ".join(
            f"{str(p).capitalize()} {' + '.join(call_text(c) for c in calls) or '-'}"
            for p, calls in result.calls.items()
        ),
        f"Ziel: Re {result.re_needed}, Kontra {result.kontra_needed}",
        f"Gewinner: {str(result.winner).capitalize() if result.winner else 'keiner'}",
        "Spielwert:",
    ]
    for it in result.game_points:
        lines.append(f"  {item_text(it.item):<36} {str(it.party).capitalize():<7} +{it.points}")
    for it in result.special_points:
        lines.append(f"  {item_text(it.item):<36} {str(it.party).capitalize():<7} +{it.points}")
    for it in result.ignored_specials:
        lines.append(f"  ({item_text(it.item)} zählt im Solo nicht)")
    for note in result.notes:
        lines.append(f"  note: {note}")
    lines.append(
        f"  {'= Wert für Re' if not result.solo else '= Wert des Solos'}: {result.game_value:+d}"
    )
    lines.append("Punkte: " + "  ".join(f"Platz {s}: {p:+d}" for s, p in enumerate(result.scores)))
    return lines


def render_game(game: Game) -> list[str]:
    lines = [f"Geber: Platz {game.dealer}"]
    if game.contract is not None:
        what = str(game.contract)
        if game.soloist is not None:
            what += f" (Platz {game.soloist}"
            what += f", {game.solo_kind})" if game.solo_kind else ")"
        lines.append(f"Spiel: {what}")
        re = [s for s in range(4) if game.parties[s] is not None and str(game.parties[s]) == "re"]
        lines.append(f"Re: {', '.join(f'Platz {s}' for s in re)}")
    if game.hochzeit is not None:
        h = game.hochzeit
        lines.append(
            f"Hochzeit: Platz {h.hochzeiter}, Klärungsstich {h.clarification_trick or '-'}, "
            f"Partner {'Platz ' + str(h.partner) if h.partner is not None else '-'}"
        )
    calls_by_trick: dict[int, list[str]] = {}
    for seat, call, n in game.calls:
        trick_no = game.rules.hand_size - n + 1
        calls_by_trick.setdefault(trick_no, []).append(
            f"Platz {seat} sagt {call_text(call)} ({n} Karten)"
        )
    for i, trick in enumerate(game.tricks, start=1):
        played = "  ".join(
            f"{s}:{c.code:<3}" for s, c in zip(trick.seats, trick.cards, strict=True)
        )
        lines.append(f"Stich {i:>2}: {played}  → Platz {trick.winner} ({trick.augen} Augen)")
        for text in calls_by_trick.pop(i, []):
            lines.append(f"          {text}")
    for trick_no in sorted(calls_by_trick):
        for text in calls_by_trick[trick_no]:
            lines.append(f"          {text}")
    if game.result is not None:
        lines.extend(render_result(game.result))
    else:
        lines.append(f"Nicht beendet: Platz {game.to_act()} ist dran ({game.phase}).")
    return lines


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = game_record_from_dict(_load_json(args.file))
    except RecordError as err:
        return _fail(str(err), args.json)
    game, error = replay_record(record)
    if error is not None:
        if args.json:
            print(json.dumps({"error": error.to_dict()}))
        print(
            f"error: action {error.action_index} ({error.reason}): {error.message}",
            file=sys.stderr,
        )
        return EXIT_INPUT
    if args.json:
        print(json.dumps(game_summary(game)))
    else:
        print("\n".join(render_game(game)))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    try:
        data = _load_json(args.file)
        _, notes = score_facts_from_dict(data)
        result = score_sheet(data)
    except RecordError as err:
        return _fail(str(err), args.json)
    if args.json:
        out = result.to_dict()
        out["notes"] = [*notes, *out["notes"]]
        print(json.dumps(out))
    else:
        print("\n".join(render_result(result)))
        for note in notes:
            print(f"note: {note}")
    return 0


def _delegate(module: str, argv: list[str]) -> int:
    main = importlib.import_module(module).main
    code: int = main(argv)
    return code


BENCHES = {
    "rules": "bot.benchmarks.rules",
    "ai": "bot.benchmarks.ai",
    "db": "db.bench",
    "engine": "bot.benchmarks.engine",
    "discord": "bot.benchmarks.discord",
    "pictures": "bot.benchmarks.pictures",
    "soak": "bot.benchmarks.soak",  # minutes long: not in "all"
}


def cmd_bench(args: argparse.Namespace) -> int:
    names = [n for n in BENCHES if n != "soak"] if args.what == "all" else [args.what]
    status = 0
    for name in names:
        try:
            importlib.import_module(BENCHES[name])
        except ModuleNotFoundError:
            if args.what != "all":
                return _fail(f"no benchmark named {name!r} in this version", False)
            continue
        status |= _delegate(BENCHES[name], args.rest)
    return status


HANDED_ON = {
    "play": "play a game against the AIs in the terminal",
    "arena": "let AIs play many games against each other and compare them",
    "sync": "sync the slash commands now: sync [guild id]",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="doko: Doppelkopf tables. Without a subcommand: run the Discord bot.",
    )
    sub = parser.add_subparsers(dest="command", metavar="command")
    # Handed on before parsing (main): listed here so that --help names every subcommand.
    for name, text in HANDED_ON.items():
        sub.add_parser(name, help=text, add_help=False)
    p = sub.add_parser("replay", help="check and print a doko-game/1 record")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser("score", help="score a doko-score/1 sheet")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_score)
    p = sub.add_parser("bench", help="benchmarks: rules, ai, db, engine or all")
    p.add_argument("what", choices=[*BENCHES, "all"])
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("arena", "play"):
        modules = {"arena": "bot.arena", "play": "bot.terminal"}
        return _delegate(modules[argv[0]], argv[1:])
    if argv and argv[0] == "sync":
        from bot.discord.run import sync_main

        return sync_main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return _delegate("bot.discord.run", [])
    code: int = args.func(args)
    return code
