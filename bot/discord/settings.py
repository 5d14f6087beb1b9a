"""A server's defaults for new tables (``/doko einstellungen``): read, checked, changed.

The defaults live in the store (``db.guilds``); :func:`load` turns the stored row into the
:class:`~bot.render.settings.ServerDefaults` a table starts from, DDV when the stored rules
cannot be read. Who may change them decides :mod:`bot.discord.access` (a server admin; the
bot-admin role itself only Manage Server); everyone may look.

The settings message is ephemeral and holds one page of controls at a time. Their custom
ids are ``dokoset:<page>:<key>``, with ``:ask`` for a button that opens a modal and ``:1``
or ``:0`` for a toggle (the value it sets: a double click does not switch back), so a click
needs nothing kept in memory: the page to show again and the setting to change are in the
id, the current values in the store. Every change is stored first and then shown: the
clicked message is edited to the new state.
"""

from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Awaitable, Callable
from dataclasses import fields
from typing import Any, Final

import discord

from bot.discord import access
from bot.discord.presenter import Presenter
from bot.engine.slow import TEMPOS
from bot.render.presets import PRESETS
from bot.render.settings import (
    PAGES,
    Ask,
    Page,
    Pick,
    RolePick,
    Row,
    ServerDefaults,
    Toggle,
    page_rows,
    settings_embed,
)
from bot.render.texts import Lang, t
from bot.rules.ruleset import DDV, Ruleset, RulesetError
from db import Database, GuildSettings, guilds

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
PREFIX: Final = "dokoset"
MAX_GAMES: Final = 200  # as /doko tisch spiele
TIMER_RANGE: Final = (5, 3600)  # as /doko tisch zugzeit
MODAL_TIMEOUT_S: Final = 600.0
_BUTTON_STYLE = {"on": 3, "off": 2, "ask": 1}  # success, secondary, primary


class SettingError(ValueError):
    """A value that cannot be stored; ``key`` and ``values`` make its text."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


# -- the store ------------------------------------------------------------------------------


def defaults_of(row: GuildSettings) -> ServerDefaults:
    """The defaults a stored guild row means; unreadable rules are DDV (and logged)."""
    unreadable = False
    try:
        rules = Ruleset.from_dict(row.default_rules)
    except (RulesetError, TypeError) as error:
        log.warning(
            "guild %s: stored default rules unreadable (%s); using DDV", row.guild_id, error
        )
        rules, unreadable = DDV, True
    return ServerDefaults(
        rules=rules,
        turn_timer_s=row.turn_timer_s,
        ai_level=row.ai_level,
        public_language=row.public_language,
        notify_delay_s=row.notify_delay_s,
        admin_role_id=row.admin_role_id,
        time_zone=row.time_zone,
        rules_unreadable=unreadable,
        disconnect_policy=row.disconnect_policy,
        replay_thread=row.replay_thread,
        tempo_s=row.tempo_s,
    )


async def load(db: Database, guild_id: int) -> ServerDefaults:
    return defaults_of(await guilds.get_guild_settings(db, guild_id))


async def save(db: Database, guild_id: int, changes: dict[str, Any]) -> ServerDefaults:
    """Store ``changes`` (``set_guild_settings`` arguments) and return the new defaults."""
    return defaults_of(await guilds.set_guild_settings(db, guild_id, **changes))


# -- one change -----------------------------------------------------------------------------

_RULE_KEYS: Final = frozenset(f.name for f in fields(Ruleset))


def change(defaults: ServerDefaults, key: str, values: list[str]) -> dict[str, Any]:
    """What picking ``values`` in control ``key`` changes, as ``set_guild_settings`` arguments
    (a toggle's value is ``1`` or ``0``). Raises :class:`SettingError` for a bad value.
    """
    rules = defaults.rules
    if key == "preset":
        preset = PRESETS.get(values[0]) if values else None
        if preset is None:
            raise SettingError("err_bad_action")
        # A preset sets every rule; the table size is no part of it.
        return _rules(preset.replace(players=rules.players))
    if key == "players":
        return _rules(rules.replace(players=_number(values, 4, 5)))
    if key == "armut_max_trumps":
        return _rules(rules.replace(armut_max_trumps=_number(values, 0, 6)))
    if key == "games_per_round":
        return _rules(rules.replace(games_per_round=_number(values, 1, MAX_GAMES)))
    if key in _RULE_KEYS:
        current = getattr(rules, key)
        if isinstance(current, bool):
            if values not in (["0"], ["1"]):
                raise SettingError("err_bad_action")
            return _rules(rules.replace(**{key: values == ["1"]}))
        data = rules.to_dict()
        data[key] = values if isinstance(current, frozenset) else (values[0] if values else "")
        try:
            return _rules(Ruleset.from_dict(data))
        except RulesetError:
            raise SettingError("err_bad_action") from None
    if key == "turn_timer_s":  # the time per move: seconds, or a slow table's tempo
        if values in (["off"], ["0"]):
            return {"turn_timer_s": None, "tempo_s": None}
        if len(values) == 1 and values[0].startswith("slow:"):
            tempo = values[0].removeprefix("slow:")
            if not tempo.isdigit() or int(tempo) not in TEMPOS:
                raise SettingError("err_bad_action")
            return {"tempo_s": int(tempo)}
        return {"turn_timer_s": _number(values, *TIMER_RANGE), "tempo_s": None}
    if key == "ai_level":
        if values not in (["leicht"], ["mittel"], ["schwer"]):
            raise SettingError("err_bad_action")
        return {"ai_level": values[0]}
    if key == "disconnect_policy":
        if values not in (["bot"], ["warten"], ["verloren"]):
            raise SettingError("err_bad_action")
        return {"disconnect_policy": values[0]}
    if key == "replay_thread":
        if values not in (["0"], ["1"]):
            raise SettingError("err_bad_action")
        return {"replay_thread": values == ["1"]}
    if key == "public_language":
        if values not in (["server"], ["de"], ["en"]):
            raise SettingError("err_bad_action")
        return {"public_language": values[0]}
    if key == "notify_delay_s":
        return {"notify_delay_s": None if values == ["off"] else _number(values, 0, 3600)}
    if key == "admin_role_id":
        return {"admin_role_id": _number(values, 1, 2**63 - 1) if values else None}
    if key == "time_zone":
        return {"time_zone": zone(values[0] if values else "")}
    raise SettingError("err_bad_action")


def _rules(rules: Ruleset) -> dict[str, Any]:
    return {"default_rules": rules.to_dict()}


def _number(values: list[str], low: int, high: int) -> int:
    text = values[0].strip() if len(values) == 1 else ""
    if not text.isdecimal() or not low <= int(text) <= high:
        raise SettingError("set_bad_number", text=text, low=low, high=high)
    return int(text)


def zone(name: str) -> str:
    """An IANA time zone name as ``zoneinfo`` knows it; SettingError for any other text."""
    name = name.strip()
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise SettingError("set_bad_zone", text=name) from None
    return name


# -- the message ----------------------------------------------------------------------------


def custom_id(page: Page, key: str, extra: str = "") -> str:
    """``extra``: ``ask`` (opens a modal), ``1``/``0`` (a toggle's value), or nothing."""
    return f"{PREFIX}:{page}:{key}" + (f":{extra}" if extra else "")


def parse_id(text: str) -> tuple[Page, str, str] | None:
    """(page, key, extra) of a settings custom id (see :func:`custom_id`); None for any
    other id.
    """
    fields = text.split(":")
    if len(fields) not in (3, 4) or fields[0] != PREFIX or fields[1] not in PAGES:
        return None
    extra = fields[3] if len(fields) == 4 else ""
    if extra not in ("", "ask", "0", "1"):
        return None
    page: Page = next(p for p in PAGES if p == fields[1])
    return page, fields[2], extra


def is_settings_id(text: str) -> bool:
    return text.startswith(PREFIX + ":")


class RawView(discord.ui.View):
    """Components as JSON, like :class:`bot.discord.components.Components`: clicks are
    routed by custom id, so no item objects and nothing in the bot's view store.
    """

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._json = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self._json

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


def _component(
    page: Page, control: Pick | Toggle | Ask | RolePick, enabled: bool, role_enabled: bool
) -> dict[str, Any]:
    locked = not enabled and control.key != "page"  # looking through the pages is for all
    match control:
        case Pick():
            return {
                "type": 3,
                "custom_id": custom_id(page, control.key),
                "placeholder": control.placeholder[:150],
                "min_values": control.low,
                "max_values": control.high,
                "disabled": locked,
                "options": [
                    {"label": o.label[:100], "value": o.value, "default": o.default}
                    for o in control.options
                ],
            }
        case Toggle():
            return {
                "type": 2,
                "style": _BUTTON_STYLE["on" if control.on else "off"],
                "label": control.label[:80],
                "custom_id": custom_id(page, control.key, "0" if control.on else "1"),
                "disabled": locked or control.disabled,
            }
        case Ask():
            return {
                "type": 2,
                "style": _BUTTON_STYLE["ask"],
                "label": control.label[:80],
                "custom_id": custom_id(page, control.key, "ask"),
                "disabled": locked,
            }
        case RolePick():
            role: dict[str, Any] = {
                "type": 6,
                "custom_id": custom_id(page, control.key),
                "placeholder": control.placeholder[:150],
                "min_values": 0,
                "max_values": 1,
                "disabled": not role_enabled,
            }
            if control.current is not None:
                role["default_values"] = [{"id": str(control.current), "type": "role"}]
            return role


def view_of(
    page: Page, rows: tuple[Row, ...], enabled: bool, role_enabled: bool | None = None
) -> RawView:
    role = enabled if role_enabled is None else role_enabled
    return RawView(
        [
            {"type": 1, "components": [_component(page, c, enabled, role) for c in row]}
            for row in rows
        ]
    )


def message(
    page: Page, defaults: ServerDefaults, lang: Lang, member: access.Member
) -> tuple[discord.Embed, RawView]:
    """The settings message on ``page``, its controls on as far as ``member`` may use them."""
    enabled = access.change_defaults(member) is None
    role_enabled = access.choose_admin_role(member) is None
    embed = settings_embed(defaults, lang, may_change=enabled)
    return embed, view_of(page, page_rows(page, defaults, lang), enabled, role_enabled)


# -- modals ---------------------------------------------------------------------------------

_MODALS: Final = {
    "games_per_round": ("set_modal_games", "set_modal_games_label", 3),
    "turn_timer_s": ("set_modal_timer", "set_modal_timer_label", 4),
    "time_zone": ("set_modal_zone", "set_modal_zone_label", 64),
}


def current_text(key: str, defaults: ServerDefaults) -> str:
    """What the modal for ``key`` shows to begin with."""
    if key == "games_per_round":
        return str(defaults.rules.games_per_round)
    if key == "turn_timer_s":
        return str(defaults.turn_timer_s or 0)
    return defaults.time_zone


# What a modal's answer goes to: (interaction, page, key, the text typed).
OnAnswer = Callable[[Interaction, Page, str, str], Awaitable[None]]


class AskModal(discord.ui.Modal):
    """One text field for ``key``; the answer goes to ``on_answer(interaction, text)``."""

    def __init__(
        self, page: Page, key: str, defaults: ServerDefaults, lang: Lang, on_answer: OnAnswer
    ) -> None:
        title, label, length = _MODALS[key]
        # Kept in the bot's modal store until answered: not for ever if it never is.
        super().__init__(
            title=t(lang, title), custom_id=f"{custom_id(page, key)}:modal", timeout=MODAL_TIMEOUT_S
        )
        self.page, self.key, self.on_answer = page, key, on_answer
        self.field: discord.ui.TextInput[AskModal] = discord.ui.TextInput(
            default=current_text(key, defaults), max_length=length, required=True
        )
        self.add_item(discord.ui.Label(text=t(lang, label), component=self.field))

    async def on_submit(self, interaction: Interaction) -> None:
        await self.on_answer(interaction, self.page, self.key, self.field.value)


def ask_modal(
    page: Page, key: str, defaults: ServerDefaults, lang: Lang, on_answer: OnAnswer
) -> AskModal | None:
    """The modal that asks for ``key``; None when nothing is asked that way."""
    if key not in _MODALS:
        return None
    return AskModal(page, key, defaults, lang, on_answer)


# -- what the message-sync service keeps at hand --------------------------------------------


def remember(presenter: Presenter, guild_id: int, defaults: ServerDefaults) -> None:
    """The server's public language and ping default, for the presenter and its pings."""
    if defaults.public_language == "server":
        presenter.fixed_langs.pop(guild_id, None)
    else:
        presenter.fixed_langs[guild_id] = defaults.public_language
    presenter.notify_defaults[guild_id] = defaults.notify_delay_s


async def remember_all(db: Database, presenter: Presenter) -> None:
    """At the start: every known server's choices (another process's changes count from a
    table opened here or a restart on).
    """
    for row in await guilds.list_guild_settings(db):
        remember(presenter, row.guild_id, defaults_of(row))
