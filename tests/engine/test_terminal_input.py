"""The terminal client on bad input: one ``error:`` line and exit status 2, never a
traceback; a card the rules refuse is answered with the rules' reason; Ctrl-C leaves at once.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import Engine
from bot.rules.game import Phase, Play
from bot.terminal import HUMAN, Terminal, main, typed_card


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--games", "0"], "a session has 1 to 200 games, not 0"),
        (["--games", "1000000000"], "a session has 1 to 200 games"),
        (["--games", "zwei"], "not a whole number"),
        (["--rules", "{bad"], "not JSON"),
        (["--rules", "[1]"], "a JSON object of rule overrides"),
    ],
)
def test_bad_arguments_end_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("python -m bot play: error:") and fragment in last


def test_bad_database_files_end_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("Einkaufsliste\n" * 100)
    cases = [
        (tmp_path / "missing" / "play.sqlite3", "does not exist"),
        (not_sqlite, "not a SQLite database"),
        (tmp_path, "is a directory"),
    ]
    for path, fragment in cases:
        assert main(["--db", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and fragment in err and "Traceback" not in err
        assert err.count("\n") == 1


def test_unknown_rule_ends_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", '{"ramsch": true}']) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: unknown rule 'ramsch'") and err.count("\n") == 1


async def test_a_refused_card_is_answered_with_the_rules_reason(engine: Engine) -> None:
    """A card of the hand that may not be played now: the rules say why, in words."""
    info = await engine.create_table(
        guild_id=0, channel_id=0, host_id=HUMAN, host_name="Du", games=1
    )
    info = await engine.start_game(info.id, HUMAN)
    tried: list[str] = []

    def ask(_prompt: str) -> str:
        view = engine.view_for(info.id, HUMAN)
        legal = {a.card for a in view.legal if isinstance(a, Play)}
        refused = [c for c in view.hand if c not in legal]
        if view.phase is Phase.PLAY and refused and not tried:
            tried.append(refused[0].code)
            return refused[0].code.lower()
        return "1"

    out: list[str] = []
    terminal = Terminal(engine, ask=ask, say=out.append)
    assert await terminal.run(info.id) == 0
    assert tried, "no turn where a card of the hand was refused"
    text = "\n".join(out)
    assert "Nicht erlaubt: Du musst bedienen" in text
    assert "steht nicht zur Wahl" not in text


def test_a_card_that_is_no_card_is_still_not_on_the_menu() -> None:
    assert typed_card("H10", 2) is not None
    assert typed_card("quatsch", 2) is None


def test_ctrl_c_leaves_at_once_while_waiting_for_input(tmp_path: Path) -> None:
    """Ctrl-C at the prompt ends the program without waiting for Enter (stdin stays open)."""
    path = str(tmp_path / "p.db")
    proc = subprocess.Popen(
        # faulthandler: a hang is told with every thread's stack (SIGABRT below)
        [sys.executable, "-X", "faulthandler", "-m", "bot", "play", "--games", "1", "--db", path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    seen = ""
    while "Deine Wahl" not in seen:
        char = proc.stdout.read(1)
        assert char, f"the client ended before asking: {proc.stderr.read()}"
        seen += char
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=60)  # without the fix it waits for a line forever
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=10)
        pytest.fail(f"Ctrl-C did not end the client; its threads:\n{err[-6000:]}")
    finally:
        proc.kill()
        assert proc.stdin is not None
        proc.stdin.close()
    err = proc.stderr.read()
    assert code == 130
    assert "Traceback" not in err and "Fatal Python error" not in err
    assert "Abgebrochen" in err
