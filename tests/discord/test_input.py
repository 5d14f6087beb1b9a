"""Every interaction is answered, whatever it carries: custom ids the codec cannot read,
option values outside what the commands declare (an outdated client's definitions), score
sheets of games that cannot have happened, and handlers that fail.

The codec's properties are checked by hypothesis; the ids and values the bot is sent
end-to-end are drawn by the same strategies (fixed seed), then clicked one by one.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord import codec
from bot.render.controls import TABLE_KINDS, TableButton
from bot.render.texts import t
from bot.rules.calls import Call
from bot.rules.cards import Card
from bot.rules.game import Action, Announce, Play, Reserve, Schmeissen, TakeArmut
from tests.discord.conftest import World

ENGLISH = "en-GB"
KINDS = [*TABLE_KINDS, "card", "reserve", "call", "schmeissen", "armut", "takearmut"]
KINDS += ["declare", "return"]

# -- the codec ------------------------------------------------------------------------------

numbers = st.integers(min_value=0, max_value=10**19 - 1)
seats = st.integers(min_value=0, max_value=3)
actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(Play, seats, st.sampled_from(list(Card))),
    st.builds(Reserve, seats, st.booleans()),
    st.builds(Announce, seats, st.sampled_from(list(Call))),
    st.builds(Schmeissen, seats),
    st.builds(TakeArmut, seats, st.booleans()),
)
buttons = st.one_of(
    st.sampled_from(
        [TableButton(k) for k in TABLE_KINDS if k not in ("addai", "removeai", "analyse")]
    ),
    st.builds(TableButton, st.just("addai"), st.sampled_from(["leicht", "mittel", "stark"])),
    st.builds(TableButton, st.just("removeai"), st.integers(0, 4).map(str)),
    st.builds(TableButton, st.just("analyse"), st.integers(1, 10**6).map(str)),
)
# Numbers as the bot never writes them: other scripts' digits, signs, spaces, leading zeros.
unwritten = st.sampled_from(["１", "٣", "7\n", " 7", "+7", "0x7", "7.0", "07", "-0"])
field = st.one_of(
    st.sampled_from(["", "0", "1", "2", "3", "4", "01", "-1", "x", "H10", "h10", "re"]),
    unwritten,
    numbers.map(str),
    st.text(max_size=12),
)


@st.composite
def near_misses(draw: st.DrawFn) -> str:
    """An id the bot writes with one field replaced, dropped or added."""
    target = draw(st.one_of(actions, buttons))
    fields = codec.button_id(draw(numbers), draw(numbers), target, draw(st.sampled_from([0, 1])))
    parts = fields.split(":")
    at = draw(st.integers(1, len(parts)))
    match draw(st.sampled_from(["replace", "drop", "add"])):
        case "replace" if at < len(parts):
            parts[at] = draw(st.one_of(unwritten, field))
        case "drop" if at < len(parts):
            del parts[at]
        case _:
            parts.insert(at, draw(field))
    return ":".join(parts)


@st.composite
def custom_ids(draw: st.DrawFn) -> str:
    """Ids as a client may send them: well-formed, near misses, and anything at all."""
    kind = draw(st.one_of(st.sampled_from(KINDS), st.text(max_size=10)))
    fields = draw(st.lists(field, max_size=7))
    made = ":".join([draw(st.sampled_from(["doko", "Doko", "", "doko "])), kind, *fields])
    return draw(
        st.one_of(st.just(made), st.text(max_size=110), st.just(made + "\n"), near_misses())
    )


@given(custom_ids(), st.lists(st.text(max_size=8), max_size=3))
@settings(max_examples=600, deadline=None)
def test_decode_reads_an_id_or_refuses_it_with_a_reason(custom_id: str, values: list[str]) -> None:
    try:
        click = codec.decode(custom_id, values)
    except codec.CodecError as refused:
        assert refused.reason
        return
    assert isinstance(click, codec.Click)


@given(st.one_of(custom_ids(), near_misses()))
@settings(max_examples=1000, deadline=None)
def test_only_the_ids_the_bot_writes_decode(custom_id: str) -> None:
    """A button id that decodes is exactly what button_id writes for it: no other spelling
    (a trailing newline, another script's digits, a leading zero) is read as a click.
    """
    try:
        click = codec.decode(custom_id)
    except codec.CodecError:
        return
    written = {codec.button_id(click.table_id, click.version, click.target, c) for c in (0, 1)}
    assert custom_id in written


@given(numbers, st.one_of(actions, buttons), st.sampled_from([2, 3]), unwritten)
@settings(max_examples=300, deadline=None)
def test_a_number_spelt_otherwise_is_refused(
    number: int, target: TableButton | Action, at: int, spelling: str
) -> None:
    """The table id or version in any spelling but the bot's own ("１", "07", " 7") is no
    click: int() would read several of them.
    """
    parts = codec.button_id(number, number, target).split(":")
    parts[at] = spelling
    with pytest.raises(codec.CodecError):
        codec.decode(":".join(parts))


@given(numbers, numbers, st.one_of(actions, buttons), st.sampled_from([0, 1]))
@settings(max_examples=400, deadline=None)
def test_every_button_round_trips(
    table_id: int, version: int, target: TableButton | Action, copy: int
) -> None:
    custom_id = codec.button_id(table_id, version, target, copy)
    assert len(custom_id) <= codec.MAX_ID
    assert codec.decode(custom_id) == codec.Click(table_id, version, target)


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "doko",
        "doko:card:x:y",
        "doko:card:7:31",
        "doko:removeai:7:31:abc",
        "doko:addai:7:31:" + "x" * 41,
        "doko:join:7:31\n",
        "doko:join:٧:31",
        "doko:addai:7:31:stärker",
    ],
)
def test_the_ids_of_the_issue_are_refused(custom_id: str) -> None:
    with pytest.raises(codec.CodecError):
        codec.decode(custom_id)


# -- end to end -----------------------------------------------------------------------------


def drawn(strategy: st.SearchStrategy[Any], n: int) -> list[Any]:
    """``n`` examples of a strategy, the same on every run."""
    found: list[Any] = []

    @given(strategy)
    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


async def playing_world(make_world: Any, **options: Any) -> tuple[World, int]:
    world: World = await make_world(names=("anna", "ben"), locales={"ben": ENGLISH}, **options)
    anna = world.users[0]
    table_id = await world.open_table(anna)
    await world.click(anna, table_message(world), "doko:start:")
    await world.settle()
    assert world.engine.table(table_id).status == "playing"
    return world, table_id


def table_message(world: World) -> Any:
    """A message of the bot in the table's channel: what a forged click is sent on."""
    return world.fake.channel_messages(world.channel)[-1]


def no_failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_every_click_is_answered_whatever_its_id(
    make_world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Ids of the issue and drawn ones, with the real table's id and version among them:
    each gets an answer within Discord's 3 s, and no handler fails.
    """
    world, table_id = await playing_world(make_world)
    anna, ben = world.users
    info = world.engine.table(table_id)
    real = [
        f"doko:{kind}:{table_id}:{info.version}:{arg}"
        for kind in KINDS
        for arg in ("", "0", "abc", "2:H10", "0:H10:1", "0:SA:7", "9" * 30, "0:1")
    ]
    ids = ["", "doko", "doko:card:x:y", f"doko:card:{table_id}:{info.version}"]
    ids += [f"doko:removeai:{table_id}:{info.version}:abc", f"doko:join:{table_id}:0\n"]
    ids += real[::3] + drawn(custom_ids(), 60)
    message = table_message(world)
    for n, custom_id in enumerate(ids):
        user = (anna, ben)[n % 2]
        values = ["H10:0"] if custom_id.startswith("doko:return") else None
        ix = await world.fake.forged_click(user, message, custom_id, values)
        callback = await world.fake.response(ix, timeout=3)
        assert callback.status == 200, (custom_id, callback)
    await world.settle()
    assert not no_failures(caplog)


async def test_an_unreadable_button_is_outdated_and_shows_the_hand(make_world: Any) -> None:
    world, _ = await playing_world(make_world)
    anna, ben = world.users
    ix = await world.fake.forged_click(anna, table_message(world), "doko:card:x:y")
    text = await world.answer_text(ix)
    assert text.startswith(t("de", "input_outdated_hand"))
    hand = ix.original or ix.followups[0]
    assert any(c.startswith("doko:") for c in hand.custom_ids)  # the hand's own buttons
    # Ben is not at the table: only that it is outdated.
    ix = await world.fake.forged_click(ben, table_message(world), "doko")
    assert await world.answer_text(ix) == t("en", "input_outdated")


async def test_a_stale_card_is_outdated_and_shows_the_current_hand(make_world: Any) -> None:
    world, table_id = await playing_world(make_world)
    anna = world.users[0]
    info = world.engine.table(table_id)
    game_seat = info.game_seat_of(anna.id)
    assert game_seat is not None
    card = world.engine.view_for(table_id, anna.id).hand[0]
    old = codec.button_id(table_id, max(info.version - 1, 0), Play(game_seat, card))
    ix = await world.fake.forged_click(anna, table_message(world), old)
    text = await world.answer_text(ix)
    assert text.startswith(t("de", "input_outdated_hand"))


def outdated_definitions(world: World) -> None:
    """As if Discord still held an old definition of every command: no ranges, no choices
    (what a stale client or a hand-made request sends).
    """

    def loosen(options: list[dict[str, Any]]) -> None:
        for option in options:
            for key in ("min_value", "max_value", "min_length", "max_length", "choices"):
                option.pop(key, None)
            loosen(option.get("options") or [])

    for command in [
        *world.fake.global_commands,
        *world.fake.guild_commands.get(world.guild.id, []),
    ]:
        loosen(command.get("options") or [])


def preset_names() -> str:
    from cogs.doko import PRESET_CHOICES

    return ", ".join(c.name for c in PRESET_CHOICES)


@pytest.mark.parametrize(
    ("options", "key", "values"),
    [
        ({"plaetze": 3}, "input_range", {"option": "plaetze", "low": 4, "high": 5, "value": 3}),
        ({"plaetze": 9}, "input_range", {"option": "plaetze", "low": 4, "high": 5, "value": 9}),
        ({"spiele": 0}, "input_range", {"option": "spiele", "low": 1, "high": 200, "value": 0}),
        (
            {"spiele": 10**9},
            "input_range",
            {"option": "spiele", "low": 1, "high": 200, "value": 10**9},
        ),
        ({"zugzeit": 1}, "input_range", {"option": "zugzeit", "low": 5, "high": 3600, "value": 1}),
        ({"regeln": "ramsch"}, "input_choice", {"option": "regeln", "value": "ramsch"}),
    ],
)
async def test_tisch_options_outside_their_definition_are_refused_with_what_is_allowed(
    make_world: Any, options: dict[str, Any], key: str, values: dict[str, Any]
) -> None:
    """An outdated client's /doko tisch: refused with the range or the list, no table."""
    world: World = await make_world(names=("anna",))
    outdated_definitions(world)
    ix = await world.run(world.users[0], "tisch", **options)
    if key == "input_choice":
        values = {**values, "names": preset_names()}
    assert await world.answer_text(ix) == t("de", key, **values)
    assert world.engine.find_table(world.guild.id, world.channel.id) is None


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "spiele": st.integers(-(2**53), 2**53),
            "zugzeit": st.integers(-(2**53), 2**53),
            "plaetze": st.integers(-(2**53), 2**53),
            "regeln": st.text(max_size=30),
        },
    )
)
@settings(max_examples=300, deadline=None)
def test_the_tisch_check_refuses_exactly_what_the_command_does_not_declare(
    values: dict[str, Any],
) -> None:
    from bot.discord.options import problem
    from cogs.doko import PRESETS, Doko

    command: Any = Doko.tisch
    text = problem(command, values, "de")
    fits = (
        1 <= values.get("spiele", 1) <= 200
        and 5 <= values.get("zugzeit", 5) <= 3600
        and 4 <= values.get("plaetze", 4) <= 5
        and values.get("regeln", "ddv") in PRESETS
    )
    assert (text is None) == fits, (values, text)


async def test_an_unknown_preset_lists_the_presets(make_world: Any) -> None:
    world: World = await make_world(names=("anna",))
    outdated_definitions(world)
    ix = await world.run(world.users[0], "tisch", regeln="ramsch")
    text = await world.answer_text(ix)
    assert "„ramsch“" in text and "DDV" in text and "Stammtisch" in text


async def test_an_english_reader_gets_the_option_and_presets_as_their_discord_names_them(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna",))
    world.users[0].locale = "en-US"
    outdated_definitions(world)
    ix = await world.run(world.users[0], "tisch", regeln="ramsch")
    text = await world.answer_text(ix)
    assert text.startswith("**rules** has no “ramsch”"), text
    assert "DDV tournament" in text and "DDV-Turnier" not in text


async def test_abrechnen_refuses_impossible_games_naming_the_rule(make_world: Any) -> None:
    world: World = await make_world(names=("anna", "ben"), locales={"ben": ENGLISH})
    anna, ben = world.users
    base = {"vertrag": "normal", "re_plaetze": "1,3", "re_augen": 158, "re_stiche": 10}
    cases = [
        ({"sonderpunkte": "fuchs:re, fuchs:re, fuchs:kontra"}, "impossible_fuechse", {"count": 3}),
        ({"sonderpunkte": "karlchen:re, karlchen:kontra"}, "impossible_karlchen", {"count": 2}),
        (
            {"re_augen": 240, "re_stiche": 12, "sonderpunkte": "fuchs:kontra"},
            "impossible_no_trick",
            {"party": "Kontra"},
        ),
        (
            {"re_augen": 82, "re_stiche": 2, "sonderpunkte": "doppelkopf:re," * 3},
            "impossible_doppelkopf_tricks",
            {"party": "Re", "count": 3, "tricks": 2},
        ),
        (
            {"re_augen": 79, "re_stiche": 3, "sonderpunkte": "doppelkopf:re, doppelkopf:re"},
            "impossible_doppelkopf_augen",
            {"party": "Re", "count": 2, "need": 80, "augen": 79},
        ),
    ]
    for user, lang in ((anna, "de"), (ben, "en")):
        for options, key, values in cases:
            ix = await world.run(user, "abrechnen", **{**base, **options})
            assert await world.answer_text(ix) == t(lang, key, **values), options  # type: ignore[arg-type]


async def test_a_failing_command_is_answered_and_logged(
    make_world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _ = await playing_world(make_world)
    cog: Any = world.bot.get_cog("TableHandlers")

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cog, "show_stand", broken)
    ix = await world.run(world.users[0], "stand")
    assert await world.answer_text(ix) == t("de", "input_failed")
    assert any("a bug" in (r.exc_text or str(r.exc_info)) for r in caplog.records)


async def test_a_failing_click_is_answered_and_logged(
    make_world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, table_id = await playing_world(make_world)
    cog: Any = world.bot.get_cog("TableHandlers")

    async def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(cog, "show_hand", broken)
    info = world.engine.table(table_id)
    custom_id = codec.button_id(table_id, info.version, TableButton("hand"))
    ix = await world.fake.forged_click(world.users[1], table_message(world), custom_id)
    assert await world.answer_text(ix) == t("en", "input_failed")
    assert "a click failed" in caplog.text


async def test_drawn_option_values_are_all_answered(
    make_world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """An outdated client's /doko tisch and /doko abrechnen with drawn values: every one is
    answered within Discord's 3 s and no handler fails.
    """
    world: World = await make_world(names=("anna",))
    outdated_definitions(world)
    anna = world.users[0]
    big = st.integers(-(2**53), 2**53)
    tisch = st.fixed_dictionaries(
        {},
        optional={
            "spiele": st.one_of(big, st.integers(0, 201)),
            "zugzeit": st.one_of(big, st.integers(0, 3601)),
            "plaetze": st.one_of(big, st.integers(2, 9)),
            "regeln": st.one_of(st.sampled_from(["ddv", "online", "ramsch", ""]), st.text()),
        },
    )
    words = st.one_of(
        st.sampled_from(["1,3", "2", "1,5", "", "fuchs:re", "karlchen:re,karlchen:re"]),
        st.text(max_size=40),
        st.just("9" * 5000),
    )
    abrechnen = st.fixed_dictionaries(
        {
            "vertrag": st.one_of(st.sampled_from(["normal", "solo_damen"]), st.text(max_size=20)),
            "re_plaetze": words,
            "re_augen": st.one_of(big, st.integers(0, 240)),
            "re_stiche": st.one_of(big, st.integers(0, 12)),
        },
        optional={
            "re_ansage": st.one_of(st.sampled_from(["re", "no90", "kontra"]), st.text()),
            "sonderpunkte": words,
        },
    )
    cases = [("tisch", o) for o in drawn(tisch, 25)]
    cases += [("abrechnen", o) for o in drawn(abrechnen, 40)]
    for command, options in cases:
        ix = await world.fake.slash(anna, f"doko {command}", in_channel=world.channel, **options)
        callback = await world.fake.response(ix, timeout=3)
        assert callback.status == 200, (command, options, callback)
        assert await world.answer_text(ix)  # not left "thinking"
        info = world.engine.find_table(world.guild.id, world.channel.id)
        if info is not None:  # a valid drawing opened a table: close it for the next
            await world.engine.stop_table(info.id, anna.id, admin=True)
    assert not no_failures(caplog)


async def test_a_button_of_a_closed_table_shows_the_hand_of_the_current_one(
    make_world: Any,
) -> None:
    world, table_id = await playing_world(make_world)
    anna, ben = world.users
    gone = codec.button_id(table_id + 1000, 3, Play(0, Card.H10))
    ix = await world.fake.forged_click(anna, table_message(world), gone)
    assert (await world.answer_text(ix)).startswith(t("de", "input_outdated_hand"))
    ix = await world.fake.forged_click(ben, table_message(world), gone)
    assert await world.answer_text(ix) == t("en", "err_no_table")


async def test_a_failing_forwarded_click_is_answered(
    make_world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click another process forwarded: a failure is answered on its webhook, then left to
    the forwarder, which logs it and marks the row failed.
    """
    from datetime import UTC, datetime

    from bot.discord.forwarding import WebhookReply, answering_failures
    from db.forwards import ForwardRow

    world: World = await make_world(names=("anna",))
    said: list[str] = []

    async def say(_reply: WebhookReply, text: str) -> None:
        said.append(text)

    async def broken(_row: ForwardRow) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(WebhookReply, "say", say)
    row = ForwardRow(
        id=1, table_id=7, kind="click", custom_id="doko:card:7:3:0:H10:0", args=(), user_id=42,
        locale="en-GB", application_id=99, token="t", channel_id=5, message_id=6,
        created_at=datetime.now(UTC), state="pending",
    )  # fmt: skip
    with pytest.raises(RuntimeError):
        await answering_failures(world.bot, broken)(row)
    assert said == [t("en", "input_failed")]
