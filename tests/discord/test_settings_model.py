"""bot.discord.settings without Discord: what each control changes, the stored row read
back (broken rules are DDV), and the custom ids.
"""

from __future__ import annotations

import logging

import pytest

from bot.discord import settings as server
from bot.render.presets import PRESETS
from bot.render.settings import PAGES, ServerDefaults, page_rows
from bot.rules.ruleset import DDV, BockTrigger, DulleTie, Ruleset, SchmeissenReason
from db import GuildSettings

BASE = ServerDefaults(rules=DDV.replace(players=5))


def rules_after(key: str, values: list[str], defaults: ServerDefaults = BASE) -> Ruleset:
    changes = server.change(defaults, key, values)
    return Ruleset.from_dict(changes["default_rules"])


def test_rule_controls_change_one_flag() -> None:
    assert rules_after("schweinchen", ["1"]).schweinchen  # a toggle sets what it showed
    on = ServerDefaults(rules=DDV.replace(schweinchen=True))
    assert not rules_after("schweinchen", ["0"], on).schweinchen
    assert rules_after("schweinchen", ["1"], on).schweinchen  # a double click stays on
    assert rules_after("dulle_tie", ["second_wins"]).dulle_tie is DulleTie.SECOND_WINS
    assert rules_after("schmeissen", ["neunen", "koenige"]).schmeissen == {
        SchmeissenReason.NEUNEN,
        SchmeissenReason.KOENIGE,
    }
    assert rules_after("bock", []).bock == frozenset()
    assert rules_after("bock", ["tie_120"]).bock == {BockTrigger.TIE_120}
    assert rules_after("armut_max_trumps", ["2"]).armut_max_trumps == 2
    assert rules_after("games_per_round", [" 8 "]).games_per_round == 8
    assert rules_after("players", ["4"]).players == 4
    # A preset sets every rule but keeps the table size.
    assert rules_after("preset", ["stammtisch"]) == PRESETS["stammtisch"].replace(players=5)


def test_table_and_server_controls() -> None:
    # One select for the time per move: seconds end a slow tempo, a slow tempo replaces them.
    assert server.change(BASE, "turn_timer_s", ["off"]) == {"turn_timer_s": None, "tempo_s": None}
    assert server.change(BASE, "turn_timer_s", ["0"]) == {"turn_timer_s": None, "tempo_s": None}
    assert server.change(BASE, "turn_timer_s", ["90"]) == {"turn_timer_s": 90, "tempo_s": None}
    assert server.change(BASE, "turn_timer_s", ["slow:86400"]) == {"tempo_s": 86400}
    with pytest.raises(server.SettingError):
        server.change(BASE, "turn_timer_s", ["slow:60"])  # not one of the slow tempos
    assert server.change(BASE, "ai_level", ["schwer"]) == {"ai_level": "schwer"}
    assert server.change(BASE, "public_language", ["en"]) == {"public_language": "en"}
    assert server.change(BASE, "notify_delay_s", ["off"]) == {"notify_delay_s": None}
    assert server.change(BASE, "notify_delay_s", ["0"]) == {"notify_delay_s": 0}
    assert server.change(BASE, "admin_role_id", ["77"]) == {"admin_role_id": 77}
    assert server.change(BASE, "admin_role_id", []) == {"admin_role_id": None}
    assert server.change(BASE, "time_zone", ["America/Chicago"]) == {"time_zone": "America/Chicago"}


@pytest.mark.parametrize(
    ("key", "values", "text"),
    [
        ("games_per_round", ["0"], "set_bad_number"),
        ("games_per_round", ["zwölf"], "set_bad_number"),
        ("turn_timer_s", ["3"], "set_bad_number"),
        ("armut_max_trumps", ["7"], "set_bad_number"),
        ("time_zone", ["Mars/Olympus"], "set_bad_zone"),
        ("time_zone", ["../etc/passwd"], "set_bad_zone"),
        ("ai_level", ["meister"], "err_bad_action"),
        ("dulle_tie", ["third_wins"], "err_bad_action"),
        ("schmeissen", ["achten"], "err_bad_action"),
        ("preset", ["gibtsnicht"], "err_bad_action"),
        ("unknown", ["1"], "err_bad_action"),
        ("armut", [], "err_bad_action"),
    ],
)
def test_bad_values_are_refused(key: str, values: list[str], text: str) -> None:
    with pytest.raises(server.SettingError) as refused:
        server.change(BASE, key, values)
    assert refused.value.key == text


def test_a_stored_row_and_broken_rules(caplog: pytest.LogCaptureFixture) -> None:
    row = GuildSettings(1, "x", {"armut": True}, 5, "UTC", 30, "leicht", "en", None)
    defaults = server.defaults_of(row)
    assert defaults == ServerDefaults(
        rules=DDV.replace(armut=True),
        turn_timer_s=30,
        ai_level="leicht",
        public_language="en",
        notify_delay_s=None,
        admin_role_id=5,
        time_zone="UTC",
    )
    broken = GuildSettings(1, "x", {"armut": "ja"})
    with caplog.at_level(logging.WARNING):
        fallen_back = server.defaults_of(broken)
    assert fallen_back.rules == DDV and fallen_back.rules_unreadable
    assert "unreadable" in caplog.text


def test_every_custom_id_reads_back_and_fits(lang: str) -> None:
    for page in PAGES:
        for defaults in (BASE, ServerDefaults(admin_role_id=2**62)):
            view = server.view_of(page, page_rows(page, defaults, lang), True)  # type: ignore[arg-type]
            for row in view.to_components():
                for component in row["components"]:
                    custom_id = component["custom_id"]
                    assert len(custom_id) <= 100 and server.is_settings_id(custom_id)
                    parsed = server.parse_id(custom_id)
                    assert parsed is not None and parsed[0] == page
    assert server.parse_id("doko:join:1:2") is None
    assert server.parse_id("dokoset:nirgends:armut") is None
    assert server.parse_id("dokoset:sonder:armut:2") is None
    assert server.parse_id("dokoset:sonder:armut:1") == ("sonder", "armut", "1")


@pytest.fixture(params=["de", "en"])
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)
