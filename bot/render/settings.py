"""What a server admin reads in ``/doko einstellungen``, and which rules a table plays that
differ from DDV.

:class:`ServerDefaults` is what a new table starts from. The settings message shows all of
it, grouped (rules, table, server), and the controls of one page at a time: Discord allows
five rows, so a select of pages comes first and the chosen page's controls follow. The
controls are plain values (:class:`Choice`, :class:`Pick`, :class:`Toggle`,
:class:`Ask`, :class:`RolePick`); the Discord side gives them custom ids and reads the
answers (``bot/discord/settings.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from discord import Colour, Embed

from bot.engine.model import AI_LEVELS
from bot.render.absence import policies, policy_text
from bot.render.presets import PRESETS, preset_name, preset_of
from bot.render.slow import tempo_choices, tempo_value
from bot.render.texts import Lang, t
from bot.rules.ruleset import (
    DDV,
    BockStacking,
    BockTrigger,
    DulleTie,
    NoWinnerScore,
    Ruleset,
    SchmeissenReason,
)

Page = Literal["vorlage", "spiel", "sonder", "wertung", "tisch", "server", "zeitzone"]
PAGES: Final[tuple[Page, ...]] = (
    "vorlage",
    "spiel",
    "sonder",
    "wertung",
    "tisch",
    "server",
    "zeitzone",
)
PublicLanguage = Literal["server", "de", "en"]
LANGUAGES: Final[tuple[PublicLanguage, ...]] = ("server", "de", "en")
# Turn timers and ping delays offered in the selects (seconds); any other timer by modal.
TIMERS: Final = (15, 30, 60, 120, 300)
NOTIFY_DELAYS: Final = (0, 10, 20, 30, 60, 120)
# The booleans that are a button each, by page (five to a row).
TOGGLES: Final[dict[Page, tuple[str, ...]]] = {
    "spiel": (
        "with_nines",
        "solos_enabled",
        "pflichtsolo_enabled",
        "stille_hochzeit_enabled",
        "absagen_enabled",
    ),
    "sonder": ("schweinchen", "armut"),
    "wertung": ("stammtisch_scoring", "winner_floor_zero"),
}
# Common zones of the players this bot has (at most 25: one select); others by modal.
ZONES: Final = (
    "Europe/Berlin",
    "Europe/Vienna",
    "Europe/Zurich",
    "Europe/Amsterdam",
    "Europe/Brussels",
    "Europe/Luxembourg",
    "Europe/Paris",
    "Europe/London",
    "Europe/Copenhagen",
    "Europe/Stockholm",
    "Europe/Warsaw",
    "Europe/Prague",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Lisbon",
    "Europe/Athens",
    "Europe/Istanbul",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Australia/Sydney",
    "UTC",
)
COLOUR = Colour.dark_green()


@dataclass(frozen=True, slots=True)
class ServerDefaults:
    """A server's defaults for new tables, and who may change them."""

    rules: Ruleset = DDV  # games_per_round is one of its flags
    turn_timer_s: int | None = None
    ai_level: str = "mittel"
    public_language: PublicLanguage = "server"
    notify_delay_s: int | None = 20  # None: never ping
    admin_role_id: int | None = None
    time_zone: str = "Europe/Berlin"
    rules_unreadable: bool = False  # the stored rules were broken: DDV shown instead
    disconnect_policy: str = "bot"  # what an expired turn timer does: bot, warten, verloren
    replay_thread: bool = False  # a replay thread for each finished game (bot/discord/replay.py)
    tempo_s: int | None = None  # a slow table's time per move, in place of the turn timer


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str
    default: bool = False


@dataclass(frozen=True, slots=True)
class Pick:
    """A string select of ``key``; ``low``..``high`` options may be chosen."""

    key: str
    placeholder: str
    options: tuple[Choice, ...]
    low: int = 1
    high: int = 1


@dataclass(frozen=True, slots=True)
class Toggle:
    """A button that switches the boolean rule ``key``."""

    key: str
    label: str
    on: bool
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Ask:
    """A button that opens a modal asking for ``key`` (a number or a zone name)."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class RolePick:
    """A role select for the bot-admin role (none chosen: no role)."""

    key: str
    placeholder: str
    current: int | None


Control = Pick | Toggle | Ask | RolePick
Row = tuple[Control, ...]  # a select alone, or up to five buttons


# -- the message ----------------------------------------------------------------------------


def on_off(value: bool, lang: Lang) -> str:
    return t(lang, "set_on" if value else "set_off")


def armut_max(lang: Lang, key: str, n: int) -> str:
    """The Armut's trump limit (one Trumpf, else Trümpfe)."""
    return t(lang, f"{key}_1") if n == 1 else t(lang, key, n=n)


def timer_value(seconds: int | None, lang: Lang) -> str:
    return t(lang, "set_timer_none") if seconds is None else t(lang, "set_timer_s", seconds=seconds)


def notify_value(seconds: int | None, lang: Lang) -> str:
    if seconds is None:
        return t(lang, "set_notify_off")
    return (
        t(lang, "set_notify_now") if seconds == 0 else t(lang, "set_notify_after", seconds=seconds)
    )


def role_value(role_id: int | None, lang: Lang) -> str:
    return t(lang, "set_role_none") if role_id is None else f"<@&{role_id}>"


def rules_preset(rules: Ruleset, lang: Lang) -> str:
    return preset_name(preset_of(rules.replace(players=4)), lang)


def _set_names(
    values: frozenset[str], order: tuple[str, ...], prefix: str, lang: Lang, joiner: str = ", "
) -> str:
    picked = [t(lang, f"{prefix}_{v}") for v in order if v in values]
    return joiner.join(picked) if picked else t(lang, "set_none")


def rules_block(r: Ruleset, lang: Lang) -> str:
    """Every rule flag with its value, one line per group."""
    toggles = [*TOGGLES["spiel"], *TOGGLES["sonder"], *TOGGLES["wertung"]]
    flags = ", ".join(f"{t(lang, f'flag_{k}')}: {on_off(getattr(r, k), lang)}" for k in toggles)
    schmeissen = _set_names(frozenset(r.schmeissen), tuple(SchmeissenReason), "schmeissen", lang)
    bock = _set_names(frozenset(r.bock), tuple(BockTrigger), "bock", lang)
    lines = [
        f"{t(lang, 'set_preset')}: **{rules_preset(r, lang)}** · "
        f"{t(lang, 'set_players_5' if r.players == 5 else 'set_players_4')} · "
        f"{t(lang, 'set_games')}: {r.games_per_round}",
        f"{t(lang, 'set_dulle')}: {t(lang, f'dulle_{r.dulle_tie}')}",
        flags,
        armut_max(lang, "set_armut_max", r.armut_max_trumps),
        f"{t(lang, 'set_schmeissen')}: {schmeissen}",
        f"{t(lang, 'set_no_winner')}: {t(lang, f'no_winner_{r.no_winner_score}')}",
        f"{t(lang, 'set_bock')}: {bock}"
        + (
            f" · {t(lang, 'set_bock_stacking')} {t(lang, f'bock_{r.bock_stacking}')}"
            if r.bock
            else ""
        ),
    ]
    diff = ddv_difference(r, lang)
    if diff is not None:
        lines.append(diff)
    return "\n".join(lines)


def settings_embed(s: ServerDefaults, lang: Lang, *, may_change: bool) -> Embed:
    """The server's defaults, grouped; who may change them."""
    role = (
        t(lang, "set_who_role", role=role_value(s.admin_role_id, lang)) if s.admin_role_id else ""
    )
    intro = [t(lang, "set_intro"), t(lang, "set_who", role=role)]
    if not may_change:
        intro.append(t(lang, "set_look_only"))
    if s.rules_unreadable:
        intro.append(t(lang, "set_bad_rules"))
    embed = Embed(title=t(lang, "set_title"), description="\n".join(intro), colour=COLOUR)
    embed.add_field(name=t(lang, "set_group_rules"), value=rules_block(s.rules, lang), inline=False)
    embed.add_field(
        name=t(lang, "set_group_table"),
        value="\n".join(
            (
                f"{t(lang, 'set_timer')}: {timer_value(s.turn_timer_s, lang)}",
                f"{t(lang, 'set_ai')}: {t(lang, f'ai_{s.ai_level}')}",
                f"{t(lang, 'set_policy')}: {policy_text(s.disconnect_policy, lang)}",
                f"{t(lang, 'set_replay')}: {on_off(s.replay_thread, lang)}",
            )
        ),
        inline=False,
    )
    embed.add_field(
        name=t(lang, "set_group_server"),
        value="\n".join(
            (
                f"{t(lang, 'set_language')}: {t(lang, f'set_language_{s.public_language}')}",
                f"{t(lang, 'set_notify')}: {notify_value(s.notify_delay_s, lang)}",
                f"{t(lang, 'set_role')}: {role_value(s.admin_role_id, lang)}",
                f"{t(lang, 'set_zone')}: {s.time_zone}",
            )
        ),
        inline=False,
    )
    return embed


# -- the controls of a page -----------------------------------------------------------------


def _pick(
    key: str, placeholder: str, options: Sequence[tuple[str, str]], current: set[str]
) -> Pick:
    return Pick(key, placeholder, tuple(Choice(v, label, v in current) for v, label in options))


def page_rows(page: Page, s: ServerDefaults, lang: Lang) -> tuple[Row, ...]:
    """The page select, then the page's controls: at most five rows in all."""
    pages = _pick("page", t(lang, "set_page"), [(p, t(lang, f"page_{p}")) for p in PAGES], {page})
    return ((pages,), *_ROWS[page](s, lang))


def _vorlage(s: ServerDefaults, lang: Lang) -> list[Row]:
    r = s.rules
    current = preset_of(r.replace(players=4))
    presets = [(key, preset_name(key, lang)) for key in PRESETS]
    players = [("4", t(lang, "set_players_4")), ("5", t(lang, "set_players_5"))]
    return [
        (_pick("preset", t(lang, "set_preset_pick"), presets, {current}),),
        (_pick("players", t(lang, "set_players"), players, {str(r.players)}),),
    ]


def _toggles(page: Page, r: Ruleset, lang: Lang) -> Row:
    out = []
    for key in TOGGLES[page]:
        on = bool(getattr(r, key))
        # Without solos there is no Pflichtsolo to switch.
        disabled = key == "pflichtsolo_enabled" and not r.solos_enabled
        label = f"{t(lang, f'flag_{key}')}: {on_off(on, lang)}"
        out.append(Toggle(key, label, on, disabled))
    return tuple(out)


def _spiel(s: ServerDefaults, lang: Lang) -> list[Row]:
    r = s.rules
    dulle = [(d.value, t(lang, f"dulle_{d}")) for d in DulleTie]
    return [
        (_pick("dulle_tie", t(lang, "set_dulle"), dulle, {r.dulle_tie.value}),),
        _toggles("spiel", r, lang),
        (Ask("games_per_round", t(lang, "set_games_button", games=r.games_per_round)),),
    ]


def _sonder(s: ServerDefaults, lang: Lang) -> list[Row]:
    r = s.rules
    trumps = [(str(n), armut_max(lang, "set_armut_max", n)) for n in range(7)]
    reasons = [(x.value, t(lang, f"schmeissen_{x}")) for x in SchmeissenReason]
    schmeissen = _pick(
        "schmeissen", t(lang, "set_schmeissen_pick"), reasons, {x.value for x in r.schmeissen}
    )
    return [
        _toggles("sonder", r, lang),
        (_pick("armut_max_trumps", t(lang, "set_armut_pick"), trumps, {str(r.armut_max_trumps)}),),
        (Pick(schmeissen.key, schmeissen.placeholder, schmeissen.options, 0, len(reasons)),),
    ]


def _wertung(s: ServerDefaults, lang: Lang) -> list[Row]:
    r = s.rules
    no_winner = [
        (x.value, f"{t(lang, 'set_no_winner')}: {t(lang, f'no_winner_{x}')}") for x in NoWinnerScore
    ]
    triggers = [(x.value, t(lang, f"bock_{x}")) for x in BockTrigger]
    stacking = [
        (x.value, f"{t(lang, 'set_bock_stacking')} {t(lang, f'bock_{x}')}") for x in BockStacking
    ]
    bock = _pick("bock", t(lang, "set_bock_pick"), triggers, {x.value for x in r.bock})
    return [
        _toggles("wertung", r, lang),
        (_pick("no_winner_score", t(lang, "set_no_winner"), no_winner, {r.no_winner_score.value}),),
        (Pick(bock.key, bock.placeholder, bock.options, 0, len(triggers)),),
        (_pick("bock_stacking", t(lang, "set_bock_stacking"), stacking, {r.bock_stacking.value}),),
    ]


def _tisch(s: ServerDefaults, lang: Lang) -> list[Row]:
    seconds = sorted({*TIMERS, *([s.turn_timer_s] if s.turn_timer_s else [])})
    timers = [("off", t(lang, "set_timer_none"))]
    timers += [(str(n), t(lang, "set_timer_s", seconds=n)) for n in seconds]
    current = "off" if s.turn_timer_s is None else str(s.turn_timer_s)
    # One select for the time a move may take: seconds, or a slow table's hours and days.
    timers += tempo_choices(lang)
    current = current if s.tempo_s is None else f"slow:{s.tempo_s}"
    levels = [(level, t(lang, "set_ai_level", level=t(lang, f"ai_{level}"))) for level in AI_LEVELS]
    return [
        (_pick("turn_timer_s", t(lang, "set_timer"), timers, {current}),),
        (
            Ask("turn_timer_s", t(lang, "set_timer_button")),
            Toggle(
                "replay_thread",
                f"{t(lang, 'set_replay')}: {on_off(s.replay_thread, lang)}",
                s.replay_thread,
            ),
        ),
        (_pick("ai_level", t(lang, "set_ai"), levels, {s.ai_level}),),
        (_pick("disconnect_policy", t(lang, "set_policy"), policies(lang), {s.disconnect_policy}),),
    ]


def _server(s: ServerDefaults, lang: Lang) -> list[Row]:
    languages = [
        (x, f"{t(lang, 'set_language')}: {t(lang, f'set_language_{x}')}") for x in LANGUAGES
    ]
    delays = sorted({*NOTIFY_DELAYS, *([s.notify_delay_s] if s.notify_delay_s else [])})
    notify = [("off", f"{t(lang, 'set_notify')}: {t(lang, 'set_notify_off')}")]
    notify += [(str(n), f"{t(lang, 'set_notify')}: {notify_value(n, lang)}") for n in delays]
    current = "off" if s.notify_delay_s is None else str(s.notify_delay_s)
    return [
        (_pick("public_language", t(lang, "set_language"), languages, {s.public_language}),),
        (_pick("notify_delay_s", t(lang, "set_notify"), notify, {current}),),
        (RolePick("admin_role_id", t(lang, "set_role_pick"), s.admin_role_id),),
    ]


def _zeitzone(s: ServerDefaults, lang: Lang) -> list[Row]:
    zones = list(ZONES) if s.time_zone in ZONES else [s.time_zone, *ZONES[:-1]]
    return [
        (_pick("time_zone", t(lang, "set_zone_pick"), [(z, z) for z in zones], {s.time_zone}),),
        (Ask("time_zone", t(lang, "set_zone_button")),),
    ]


_ROWS = {
    "vorlage": _vorlage,
    "spiel": _spiel,
    "sonder": _sonder,
    "wertung": _wertung,
    "tisch": _tisch,
    "server": _server,
    "zeitzone": _zeitzone,
}


# -- the table: which rules differ from DDV -------------------------------------------------


def ddv_differences(r: Ruleset, lang: Lang) -> list[str]:
    """Short names of what differs from the DDV rules, in the order of docs/rules.md."""
    out: list[str] = []
    if r.dulle_tie is not DulleTie.FIRST_WINS:
        out.append(t(lang, f"diff_dulle_{r.dulle_tie}"))
    if not r.with_nines:
        out.append(t(lang, "diff_no_nines"))
    if not r.absagen_enabled:
        out.append(t(lang, "diff_no_absagen"))
    if not r.solos_enabled:
        out.append(t(lang, "diff_no_solos"))
    elif not r.pflichtsolo_enabled:
        out.append(t(lang, "diff_no_pflichtsolo"))
    if r.winner_floor_zero:
        out.append(t(lang, "diff_floor"))
    if r.games_per_round != DDV.games_per_round:
        one = r.games_per_round == 1
        out.append(t(lang, "diff_games_one" if one else "diff_games", games=r.games_per_round))
    if r.schweinchen:
        out.append(t(lang, "diff_schweinchen"))
    if r.armut:
        out.append(armut_max(lang, "diff_armut", r.armut_max_trumps))
    if r.schmeissen:
        reasons = _set_names(
            frozenset(r.schmeissen), tuple(SchmeissenReason), "schmeissen", lang, t(lang, "set_or")
        )
        out.append(t(lang, "diff_schmeissen", reasons=reasons))
    if not r.stille_hochzeit_enabled:
        out.append(t(lang, "diff_no_stille"))
    if r.no_winner_score is NoWinnerScore.ZERO:
        out.append(t(lang, "diff_no_winner_zero"))
    if r.bock:
        events = _set_names(frozenset(r.bock), tuple(BockTrigger), "bock", lang, t(lang, "set_or"))
        out.append(t(lang, "diff_bock", events=events))
        if r.bock_stacking is BockStacking.QUEUE:
            out.append(t(lang, "diff_bock_queue"))
    if r.stammtisch_scoring:
        out.append(t(lang, "diff_stammtisch"))
    if r.players == 5:
        out.append(t(lang, "diff_five"))
    return out


def ddv_difference(r: Ruleset, lang: Lang) -> str | None:
    """The line "Abweichend von DDV: …" for the table message (None for pure DDV)."""
    names = ddv_differences(r, lang)
    return t(lang, "ddv_diff", rules=", ".join(names)) if names else None


# -- what a change did ----------------------------------------------------------------------


def saved_text(key: str, s: ServerDefaults, lang: Lang) -> str:
    """The acknowledgement of a change of ``key``: the setting as it now is."""
    r = s.rules
    named: dict[str, tuple[str, str]] = {
        "preset": ("set_preset", rules_preset(r, lang)),
        "players": ("set_players", str(r.players)),
        "dulle_tie": ("set_dulle", t(lang, f"dulle_{r.dulle_tie}")),
        "games_per_round": ("set_games", str(r.games_per_round)),
        "armut_max_trumps": ("flag_armut", armut_max(lang, "set_armut_max", r.armut_max_trumps)),
        "schmeissen": (
            "set_schmeissen",
            _set_names(frozenset(r.schmeissen), tuple(SchmeissenReason), "schmeissen", lang),
        ),
        "no_winner_score": ("set_no_winner", t(lang, f"no_winner_{r.no_winner_score}")),
        "bock": ("set_bock", _set_names(frozenset(r.bock), tuple(BockTrigger), "bock", lang)),
        "bock_stacking": ("set_bock_stacking", t(lang, f"bock_{r.bock_stacking}")),
        "turn_timer_s": (
            "set_timer",
            tempo_value(s.tempo_s, lang) or timer_value(s.turn_timer_s, lang),
        ),
        "ai_level": ("set_ai", t(lang, f"ai_{s.ai_level}")),
        "disconnect_policy": ("set_policy", policy_text(s.disconnect_policy, lang)),
        "replay_thread": ("set_replay", on_off(s.replay_thread, lang)),
        "public_language": ("set_language", t(lang, f"set_language_{s.public_language}")),
        "notify_delay_s": ("set_notify", notify_value(s.notify_delay_s, lang)),
        "admin_role_id": ("set_role", role_value(s.admin_role_id, lang)),
        "time_zone": ("set_zone", s.time_zone),
    }
    for keys in TOGGLES.values():
        for flag in keys:
            named[flag] = (f"flag_{flag}", on_off(getattr(r, flag), lang))
    name, value = named.get(key, ("set_title", ""))
    return t(lang, "set_saved", what=f"{t(lang, name)}: {value}")
