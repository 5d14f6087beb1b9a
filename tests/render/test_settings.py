"""The settings message (``/doko einstellungen``) and the "differs from DDV" line, in both
languages, within Discord's limits.
"""

from __future__ import annotations

import pytest

from bot.render.presets import PRESETS
from bot.render.settings import (
    PAGES,
    Pick,
    RolePick,
    ServerDefaults,
    ddv_difference,
    ddv_differences,
    page_rows,
    saved_text,
    settings_embed,
)
from bot.render.texts import Lang
from bot.rules.ruleset import DDV, BockStacking, BockTrigger, NoWinnerScore, SchmeissenReason

SAMPLES = [
    ServerDefaults(),
    ServerDefaults(
        rules=PRESETS["stammtisch"].replace(players=5, games_per_round=8),
        turn_timer_s=45,  # not one of the offered timers
        ai_level="schwer",
        public_language="en",
        notify_delay_s=None,
        admin_role_id=123,
        time_zone="Pacific/Auckland",  # not one of the offered zones
    ),
    ServerDefaults(
        rules=DDV.replace(
            schmeissen=frozenset(SchmeissenReason),
            bock=frozenset(BockTrigger),
            bock_stacking=BockStacking.QUEUE,
            no_winner_score=NoWinnerScore.ZERO,
        ),
        rules_unreadable=True,
    ),
]


def test_pure_ddv_differs_in_nothing(lang: Lang) -> None:
    assert ddv_differences(DDV, lang) == []
    assert ddv_difference(DDV, lang) is None
    # The table size is no rule of DDV's, but players see it differs.
    assert ddv_differences(DDV.replace(players=5), lang) == [
        {"de": "5 Spieler", "en": "5 players"}[lang]
    ]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "de",
            "Abweichend von DDV: zweite Dulle sticht (außer im letzten Stich), kein Pflichtsolo, "
            "Schweinchen, Armut (höchstens 3 Trümpfe), Schmeißen bei 5 Neunen, "
            "Bockrunden nach 120:120 Augen oder verlorenem Solo, Stammtisch-Zählung",
        ),
        (
            "en",
            "Differs from DDV: second Dulle wins (except in the last trick), no Pflichtsolo, "
            "Schweinchen (Karo-Asse high), Armut (at most 3 trumps), throw in with 5 nines, "
            "Bockrunden after a 120:120 tie or a lost solo, Stammtisch scoring",
        ),
    ],
)
def test_the_stammtisch_preset_names_what_differs(lang: Lang, expected: str) -> None:
    assert ddv_difference(PRESETS["stammtisch"], lang) == expected


def test_every_flag_that_differs_is_named(lang: Lang) -> None:
    """Each rule flag set away from DDV on its own adds one name (or more) to the line."""
    changed = {
        "dulle_tie": PRESETS["stammtisch"].dulle_tie,
        "with_nines": False,
        "absagen_enabled": False,
        "solos_enabled": False,
        "pflichtsolo_enabled": False,
        "winner_floor_zero": True,
        "games_per_round": 12,
        "schweinchen": True,
        "armut": True,
        "schmeissen": frozenset({SchmeissenReason.KOENIGE}),
        "stille_hochzeit_enabled": False,
        "no_winner_score": NoWinnerScore.ZERO,
        "bock": frozenset({BockTrigger.SOLO}),
        "stammtisch_scoring": True,
        "players": 5,
    }
    for flag, value in changed.items():
        assert ddv_differences(DDV.replace(**{flag: value}), lang), flag


@pytest.mark.parametrize("defaults", SAMPLES)
@pytest.mark.parametrize("page", PAGES)
def test_every_page_fits_discords_limits(defaults: ServerDefaults, page: str, lang: Lang) -> None:
    rows = page_rows(page, defaults, lang)  # type: ignore[arg-type]
    assert len(rows) <= 5
    for row in rows:
        selects = [c for c in row if isinstance(c, Pick | RolePick)]
        assert (len(row) == 1) if selects else (1 <= len(row) <= 5)
        for control in selects:
            if isinstance(control, Pick):
                assert 1 <= len(control.options) <= 25
                assert all(1 <= len(o.label) <= 100 for o in control.options)
                chosen = [o for o in control.options if o.default]
                # The current value is shown as chosen (a set may be empty; custom rules
                # are no preset).
                assert len(chosen) <= control.high
                assert control.low == 0 or control.key == "preset" or chosen, control.key


@pytest.mark.parametrize("defaults", SAMPLES)
def test_the_message_shows_every_value_within_embed_limits(
    defaults: ServerDefaults, lang: Lang
) -> None:
    for may in (True, False):
        embed = settings_embed(defaults, lang, may_change=may)
        data = embed.to_dict()
        shown = [data["description"], *(f["value"] for f in data["fields"])]
        assert not any("{" in text for text in shown)
        assert all(len(f["value"]) <= 1024 for f in data["fields"])
        assert len(embed) <= 6000
    text = str(settings_embed(defaults, lang, may_change=True).to_dict())
    assert defaults.time_zone in text
    if defaults.admin_role_id:
        assert f"<@&{defaults.admin_role_id}>" in text  # a mention, never the raw number


def test_german_and_english_messages(lang: Lang) -> None:
    looking = settings_embed(SAMPLES[1], lang, may_change=False).to_dict()
    if lang == "de":
        assert looking["title"] == "Einstellungen dieses Servers"
        assert "ansehen, aber nicht ändern" in looking["description"]
        assert "**Server verwalten** darf oder die Rolle <@&123> hat" in looking["description"]
    else:
        assert looking["title"] == "This server's settings"
        assert "look at the settings but not change" in looking["description"]
        assert "**Manage Server** or the role <@&123>" in looking["description"]


@pytest.mark.parametrize(
    "key",
    [
        "preset",
        "players",
        "dulle_tie",
        "with_nines",
        "schweinchen",
        "games_per_round",
        "armut_max_trumps",
        "schmeissen",
        "bock",
        "bock_stacking",
        "no_winner_score",
        "turn_timer_s",
        "ai_level",
        "public_language",
        "notify_delay_s",
        "admin_role_id",
        "time_zone",
    ],
)
def test_each_change_is_acknowledged_with_its_new_value(key: str, lang: Lang) -> None:
    text = saved_text(key, SAMPLES[1], lang)
    assert text.startswith({"de": "Gespeichert: ", "en": "Saved: "}[lang])
    assert "{" not in text and text.rstrip(".").split(": ", 2)[2]
