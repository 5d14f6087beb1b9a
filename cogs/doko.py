"""``/doko …`` and every button: parse the interaction, call one engine method, render, answer.

A game action (a card, a call, a Vorbehalt button) is checked against the in-memory table
(seat, version), stored by the engine and only then acknowledged; rendering and message edits
come after. Lobby buttons and table creation are acknowledged at once and confirmed by the
lobby message. Refusals are ephemeral and name the rule.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import Engine
from bot.engine.model import EngineError, Event, TableInfo
from bot.render.buttons import Click, parse_click
from bot.render.errors import error_text
from bot.render.hand import game_over_message, return_cards
from bot.render.presets import PRESETS, preset_name
from bot.render.table import lobby_message, result_lines, rules_text, spielliste_block
from bot.render.terms import CALL_OPTIONS, OPTION_OF_CALL, call_name, contract_name
from bot.render.texts import Lang, lang_of, t
from bot.rules.contracts import Contract
from bot.rules.game import Action, Announce, armut_trumps
from bot.rules.records import SCORE_FORMAT, RecordError, action_from_dict, score_sheet
from cogs.forwarding import InteractionReply, Reply, WebhookReply, forward_click, forward_command
from cogs.presenter import Presenter, payload_key
from db import get_game, get_rating, get_session, get_table, guild_standings, player_standing
from db.errors import NotFoundError
from db.forwards import ForwardRow

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
# A click's answer (the hand) waits at most this long for the AIs' replies (the table message
# waits as long, TABLE_EDIT_DELAY).
ANSWER_WAITS_FOR_AIS_S = 0.3
GAME_ACTIONS = ("card", "reserve", "call", "declare", "schmeissen", "armut", "takearmut", "return")
LOBBY_ACTIONS = ("join", "leave", "addai", "removeai", "pause", "back", "start")

# The rules core's presets (DDV-Turnier, Stammtisch, Online), then the single-flag DDV variants.
PRESET_CHOICES = [app_commands.Choice(name=preset_name(key, "de"), value=key) for key in PRESETS]
CONTRACT_CHOICES = [
    app_commands.Choice(name=contract_name(c, "de"), value=str(c)) for c in Contract
]
RE_CALLS = [
    app_commands.Choice(name=call_name(CALL_OPTIONS[o], "de"), value=str(CALL_OPTIONS[o]))
    for o in ("re", "keine90", "keine60", "keine30", "schwarz")
]
KONTRA_CALLS = [
    app_commands.Choice(name=call_name(CALL_OPTIONS[o], "de"), value=str(CALL_OPTIONS[o]))
    for o in ("kontra", "keine90", "keine60", "keine30", "schwarz")
]


def _lang(interaction: Interaction) -> Lang:
    return lang_of(interaction.locale)


async def _say(interaction: Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def _stand_text(info: TableInfo, lang: Lang) -> str:
    return spielliste_block(info, lang) if info.spielliste else t(lang, "stand_empty")


MESSAGE_LIMIT = 2000  # characters of a message's content (an embed allows more)


def _fit(text: str) -> str:
    """Plain message content within Discord's limit; a long Spielliste keeps its start."""
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


class Doko(commands.GroupCog, group_name="doko", group_description="Doppelkopf am Tisch"):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.presenter = Presenter(bot)
        self._ready_once = False
        self._unsubscribe: Callable[[], None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.component_handler = self.on_click
        engine = getattr(self.bot, "engine", None)
        if engine is not None:
            # Straight from the engine, not through the bot's dispatch (a task per event):
            # the presenter only marks messages as changed.
            self._unsubscribe = engine.subscribe(self._on_engine_event)
        forwarder = getattr(self.bot, "forwarder", None)
        if forwarder is not None:
            forwarder.handler = self.on_forwarded
            forwarder.unowned_handler = self.on_unowned

    async def cog_unload(self) -> None:
        self.bot.component_handler = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        forwarder = getattr(self.bot, "forwarder", None)
        if forwarder is not None:
            forwarder.handler = forwarder.unowned_handler = None
        self.presenter.close()

    async def _on_engine_event(self, event: Event) -> None:
        self.presenter.on_event(event)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self._ready_once:
            self._ready_once = True
            await self.presenter.refresh_all()

    # -- helpers --------------------------------------------------------------------------

    def _seen(self, interaction: Interaction) -> Lang:
        lang = _lang(interaction)
        self.presenter.note_locale(interaction.user.id, lang)
        return lang

    def _table_here(self, interaction: Interaction) -> TableInfo | None:
        if interaction.guild_id is not None and interaction.channel_id is not None:
            info: TableInfo | None = self.bot.engine.find_table(
                interaction.guild_id, interaction.channel_id
            )
            if info is not None:
                return info
        for info in self.bot.engine.open_tables():
            if info.seat_of(interaction.user.id) is not None and info.status == "playing":
                return info
        return None

    async def _send_hand(self, interaction: Interaction, info: TableInfo, lang: Lang) -> None:
        """The private hand as an ephemeral message (the DM view, re-openable any time)."""
        if info.seat_of(interaction.user.id) is None:
            await _say(interaction, t(lang, "err_not_seated"))
            return
        try:
            now, content, ui, key = self.presenter.render_hand(info.id, interaction.user.id, lang)
        except EngineError as error:
            await _say(interaction, error_text(error, lang))
            return
        await interaction.response.send_message(content, view=ui, ephemeral=True)
        assert now.game_id is not None
        self.presenter.remember_ephemeral(interaction.user.id, interaction, now.game_id, key)

    # -- slash commands -------------------------------------------------------------------

    @app_commands.command(name="tisch", description="Einen Tisch in diesem Kanal eröffnen")
    @app_commands.describe(
        regeln="Regelsatz",
        spiele="Spiele in dieser Runde (Standard: wie der Regelsatz, meist 24)",
        zugzeit="Sekunden pro Zug, danach spielt ein Bot (leer: keine Zugzeit)",
        plaetze="Plätze am Tisch: 4, oder 5 (der Geber setzt jedes Spiel aus)",
    )
    @app_commands.choices(regeln=PRESET_CHOICES)
    async def tisch(
        self,
        interaction: Interaction,
        regeln: str = "ddv",
        spiele: app_commands.Range[int, 1, 200] | None = None,
        zugzeit: app_commands.Range[int, 5, 3600] | None = None,
        plaetze: app_commands.Range[int, 4, 5] | None = None,
    ) -> None:
        lang = self._seen(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            await _say(interaction, t(lang, "guild_only"))
            return
        if self.bot.engine.find_table(interaction.guild_id, interaction.channel_id):
            await _say(interaction, t(lang, "err_table_exists"))
            return
        # The lobby is no game action: a "thinking" answer at once, the lobby message (after
        # the table is stored) is the confirmation.
        await interaction.response.defer()
        rules = PRESETS.get(regeln, PRESETS["ddv"])
        if plaetze is not None:
            rules = rules.replace(players=plaetze)
        try:
            info = await self.bot.engine.create_table(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                rules=rules,
                games=spiele or rules.games_per_round,
                turn_timer_s=zugzeit,
            )
        except EngineError as error:
            await _say(interaction, error_text(error, lang))
            return
        embed, view = lobby_message(info, lang)
        message = await interaction.followup.send(embed=embed, view=view, wait=True)
        await self.presenter.register_table_message(
            info, message.id, lang, payload_key(None, embed, view)
        )

    @app_commands.command(name="karten", description="Deine Karten noch einmal zeigen")
    async def karten(self, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        info = self._table_here(interaction)
        if info is None:
            # In a DM, for a table another process runs: that process shows the hand.
            if not await forward_command(self.bot, interaction, "karten"):
                await _say(interaction, t(lang, "no_table_here"))
            return
        await self._send_hand(interaction, info, lang)

    @app_commands.command(name="ansage", description="Eine Ansage oder Absage machen")
    @app_commands.describe(ansage="Re, Kontra, keine 90/60/30 oder schwarz")
    async def ansage(self, interaction: Interaction, ansage: str) -> None:
        lang = self._seen(interaction)
        info = self._table_here(interaction)
        option = ansage.strip().lower().replace(" ", "")
        call = CALL_OPTIONS.get(option)
        if call is None:  # not one of the options, wherever it was typed
            await _say(interaction, t(lang, "err_bad_action"))
            return
        if info is None:
            # In a DM, for a table another process runs: that process makes the call.
            if not await forward_command(self.bot, interaction, "ansage", (option,)):
                await _say(interaction, t(lang, "no_table_here"))
            return
        try:
            move = _action(self.bot.engine, info.id, interaction.user.id, {"call": str(call)})
            await self.bot.engine.act(info.id, interaction.user.id, move)
        except EngineError as error:
            await _say(interaction, error_text(error, lang))
            return
        # Answered once the call is stored.
        await _say(interaction, t(lang, "called", call=call_name(call, lang)))

    @ansage.autocomplete("ansage")
    async def ansage_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        info = self._table_here(interaction)
        lang = _lang(interaction)
        if info is None:
            if interaction.guild_id is not None:
                return []
            # A DM: the table may run in another process, which checks the call.
            return [
                app_commands.Choice(name=call_name(call, lang), value=option)
                for option, call in CALL_OPTIONS.items()
                if option.startswith(current.lower())
            ]
        try:
            view = self.bot.engine.view_for(info.id, interaction.user.id)
        except EngineError:
            return []
        return [
            app_commands.Choice(name=call_name(a.call, lang), value=OPTION_OF_CALL[a.call])
            for a in view.legal
            if isinstance(a, Announce) and OPTION_OF_CALL[a.call].startswith(current.lower())
        ]

    @app_commands.command(name="stand", description="Die Spielliste dieses Tisches")
    async def stand(self, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        info = self._table_here(interaction)
        if info is None:
            # In a DM, for a table another process runs: that process shows its Spielliste.
            if not await forward_command(self.bot, interaction, "stand"):
                await _say(interaction, t(lang, "no_table_here"))
            return
        embed = discord.Embed(title=t(lang, "stand_title", table=info.id))
        embed.description = _stand_text(info, lang)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="rangliste", description="Die Rangliste dieses Servers")
    async def rangliste(self, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        if interaction.guild_id is None:
            await _say(interaction, t(lang, "guild_only"))
            return
        await interaction.response.defer()
        rows = await guild_standings(self.bot.db, interaction.guild_id, limit=20)
        embed = discord.Embed(title=t(lang, "leaderboard"))
        embed.description = "\n".join(
            t(
                lang,
                "leaderboard_line",
                rank=r.rank,
                name=r.display_name or r.player_id,
                points=r.points,
                games=r.games,
                wins=r.wins,
            )
            for r in rows
        ) or t(lang, "no_standings")
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="statistik", description="Die Zahlen eines Spielers")
    @app_commands.describe(spieler="Wessen Statistik (Standard: deine)")
    async def statistik(
        self, interaction: Interaction, spieler: discord.User | None = None
    ) -> None:
        lang = self._seen(interaction)
        if interaction.guild_id is None:
            await _say(interaction, t(lang, "guild_only"))
            return
        who = spieler or interaction.user
        await interaction.response.defer()
        row = await player_standing(self.bot.db, interaction.guild_id, who.id)
        embed = discord.Embed(title=t(lang, "stats_title", name=who.display_name))
        if row is None:
            embed.description = t(lang, "stats_none", name=who.display_name)
        else:
            rating = await get_rating(self.bot.db, who.id)
            embed.description = t(
                lang,
                "stats_body",
                rank=row.rank,
                points=row.points,
                games=row.games,
                wins=row.wins,
                win_rate=round(100 * row.wins / row.games) if row.games else 0,
                re_games=row.re_games,
                solos=row.solos,
                solos_won=row.solos_won,
                mu=rating.mu,
                sigma=rating.sigma,
            )
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="regeln", description="Die Regeln dieses Tisches")
    async def regeln(self, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        info = self._table_here(interaction)
        # In a DM, for a table another process runs: that process names its rules.
        if info is None and await forward_command(self.bot, interaction, "regeln"):
            return
        rules = info.rules if info else PRESETS["ddv"]
        games = info.games_per_session if info else rules.games_per_round
        embed = discord.Embed(
            title=t(lang, "rules_title"), description=rules_text(rules, games, lang)
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="export", description="Ein beendetes Spiel als doko-game/1-Datei")
    @app_commands.describe(spiel="Spiel-Nummer (#…) aus der Tischnachricht; Standard: das letzte")
    async def export(self, interaction: Interaction, spiel: int | None = None) -> None:
        lang = self._seen(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            await _say(interaction, t(lang, "guild_only"))
            return
        game_id = spiel or self.presenter.last_game_by_channel.get(interaction.channel_id)
        if game_id is None:
            await _say(interaction, t(lang, "export_none"))
            return
        await interaction.response.defer(ephemeral=True)
        record = await self._finished_record(interaction.guild_id, game_id)
        if record is None:
            await interaction.followup.send(
                t(lang, "export_unknown", game_id=game_id), ephemeral=True
            )
            return
        data = json.dumps(record, indent=1).encode()
        await interaction.followup.send(
            t(lang, "export_ready", game_id=game_id),
            file=discord.File(io.BytesIO(data), filename=f"doko-spiel-{game_id}.json"),
            ephemeral=True,
        )

    async def _finished_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None:
        """A finished game of this guild; running games are never exported (hands!)."""
        try:
            game = await get_game(self.bot.db, game_id)
            session = await get_session(self.bot.db, game.session_id)
            table = await get_table(self.bot.db, session.table_id)
        except NotFoundError:
            return None
        if table.guild_id != guild_id or game.status != "finished" or game.record is None:
            return None
        return game.record

    @app_commands.command(name="abrechnen", description="Ein Spiel mit echten Karten abrechnen")
    @app_commands.describe(
        vertrag="Spielart",
        re_plaetze="Plätze der Re-Partei, z. B. 1,3 (im Solo nur der Solist)",
        re_augen="Augen der Re-Partei (0–240)",
        re_stiche="Stiche der Re-Partei",
        re_ansage="Höchste Ansage von Re",
        kontra_ansage="Höchste Ansage von Kontra",
        sonderpunkte="z. B. fuchs:re, doppelkopf:kontra, karlchen:re",
    )
    @app_commands.choices(vertrag=CONTRACT_CHOICES, re_ansage=RE_CALLS, kontra_ansage=KONTRA_CALLS)
    async def abrechnen(
        self,
        interaction: Interaction,
        vertrag: str,
        re_plaetze: str,
        re_augen: app_commands.Range[int, 0, 240],
        re_stiche: app_commands.Range[int, 0, 12],
        re_ansage: str | None = None,
        kontra_ansage: str | None = None,
        sonderpunkte: str | None = None,
    ) -> None:
        lang = self._seen(interaction)
        try:
            seats = [int(s) - 1 for s in re_plaetze.replace(" ", "").split(",") if s]
            specials = []
            for part in (sonderpunkte or "").split(","):
                if part.strip():
                    kind, _, party = part.strip().partition(":")
                    specials.append({"kind": kind.strip().lower(), "party": party.strip().lower()})
        except ValueError:
            await _say(interaction, t(lang, "score_bad", error=re_plaetze))
            return
        sheet: dict[str, Any] = {
            "format": SCORE_FORMAT,
            "contract": vertrag,
            "re_seats": seats,
            "calls": {"re": re_ansage, "kontra": kontra_ansage},
            "re_augen": re_augen,
            "re_tricks": re_stiche,
            "special": specials,
        }
        try:
            result = score_sheet(sheet).to_dict()
        except RecordError as error:
            await _say(interaction, t(lang, "score_bad", error=error))
            return
        contract = Contract(vertrag)
        lines = [
            t(lang, "contract_line", contract=contract_name(contract, lang)),
            t(lang, "score_seats", seats=", ".join(t(lang, "seat_short", n=s + 1) for s in seats)),
            t(
                lang,
                "result_augen",
                re=result["re_augen"],
                kontra=result["kontra_augen"],
                re_tricks=result["re_tricks"],
                kontra_tricks=result["kontra_tricks"],
            ),
            t(lang, "winner", party=str(result["winner"]).capitalize())
            if result["winner"] != "none"
            else t(lang, "no_winner"),
        ]
        embed = discord.Embed(title=t(lang, "score_title"), description="\n".join(lines))
        embed.add_field(
            name=t(lang, "spielwert"),
            value="\n".join(result_lines(result, lang, contract.scored_as_solo)),
            inline=False,
        )
        embed.add_field(
            name=t(lang, "points"),
            value=" · ".join(
                f"{t(lang, 'seat_short', n=s + 1)} {p:+d}" for s, p in enumerate(result["scores"])
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="stopp", description="Den Tisch beenden (Gastgeber oder Admins)")
    async def stopp(self, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        info = self._table_here(interaction) if interaction.guild_id else None
        if info is None or info.channel_id != interaction.channel_id:
            await _say(interaction, t(lang, "no_table_here"))
            return
        perms = interaction.permissions
        admin = perms.administrator or perms.manage_guild
        try:
            await self.bot.engine.stop_table(info.id, interaction.user.id, admin=admin)
        except EngineError as error:
            await _say(interaction, error_text(error, lang))
            return
        await _say(interaction, t(lang, "table_stopped", table=info.id))

    @app_commands.command(name="hilfe", description="Wie der Bot funktioniert")
    async def hilfe(self, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        embed = discord.Embed(title=t(lang, "help_title"), description=t(lang, "help_body"))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- buttons --------------------------------------------------------------------------

    async def on_click(self, click: Click, interaction: Interaction) -> None:
        lang = self._seen(interaction)
        engine = self.bot.engine
        try:
            info: TableInfo = engine.table(click.table_id)
        except EngineError as error:
            # Another process may run the table (DMs reach shard 0 only): it answers then.
            if click.what in GAME_ACTIONS and await forward_click(self.bot, click, interaction):
                return
            await _say(interaction, error_text(error, lang))
            return
        if click.what == "rules":
            await _say(interaction, rules_text(info.rules, info.games_per_session, lang))
        elif click.what == "hand":
            await self._send_hand(interaction, info, lang)
        elif click.what in LOBBY_ACTIONS:
            await self._lobby_click(click, interaction, info, lang)
        elif click.what in GAME_ACTIONS:
            await self._game_click(click, interaction, info, lang)

    async def _lobby_click(
        self, click: Click, interaction: Interaction, info: TableInfo, lang: Lang
    ) -> None:
        # Lobby buttons act on the table as it is now: a join after someone else's join is
        # what the player meant; doubles are refused by the engine (already seated, running).
        # Not game actions: acknowledged at once (nothing shows), the lobby message edited
        # after the engine stored the change is the confirmation.
        engine, user = self.bot.engine, interaction.user
        await interaction.response.defer()
        try:
            match click.what:
                case "join" | "back":
                    info = await engine.join(info.id, user.id, user.display_name)
                case "leave" | "pause":
                    info = await engine.leave(info.id, user.id)
                case "addai":
                    info = await engine.add_ai(info.id, user.id, click.args[0])
                case "removeai":
                    info = await engine.remove_ai(info.id, user.id, int(click.args[0]))
                case _:
                    info = await engine.start_game(info.id, user.id)
        except EngineError as error:
            await _say(interaction, error_text(error, lang))
            return
        if info.status == "lobby" and interaction.message is not None:
            state = self.presenter.tables.get(info.id)
            table_lang = state.lang if state else lang
            embed, view = lobby_message(info, table_lang)
            await interaction.edit_original_response(embed=embed, view=view)
            await self.presenter.register_table_message(
                info, interaction.message.id, table_lang, payload_key(None, embed, view)
            )
        elif click.what in ("leave", "pause") and info.status == "playing":
            await interaction.followup.send(t(lang, "left_game"), ephemeral=True)
        elif click.what == "back" and info.status == "playing":
            await interaction.followup.send(t(lang, "back_in_game"), ephemeral=True)

    async def _game_click(
        self, click: Click, interaction: Interaction, info: TableInfo, lang: Lang
    ) -> None:
        user_id = interaction.user.id
        if not await self._apply_click(click, user_id, info, lang, InteractionReply(interaction)):
            return
        # The AIs answer within milliseconds: one edit shows the card and their replies, by
        # this answer or by the hand job that the player's turn wakes meanwhile, not two.
        await self.bot.engine.settle(info.id, ANSWER_WAITS_FOR_AIS_S)
        # Under the hand's lock: a newer state the hand job renders goes out after this one.
        async with self.presenter.user(user_id).hand_lock:
            message = interaction.message
            ephemeral = message is not None and message.flags.ephemeral
            if (
                message is not None
                and not ephemeral
                and self.presenter.shows(info.id, user_id, message.id, lang)
            ):
                return  # the hand job showed this state in this DM already
            try:
                now: TableInfo | None
                now, content, ui, key = self.presenter.render_hand(info.id, user_id, lang)
            except EngineError:
                now = None  # the table closed with this action (the last game of the session)
            if now is None or now.status != "playing" or now.game_id is None:
                await interaction.edit_original_response(
                    content=game_over_message(info, user_id, lang), view=None
                )
                return
            if now.game_id != info.game_id and not ephemeral:
                # The game this DM showed is over (this click or the AIs after it ended it).
                # The hand job sends the next game's hand as a new DM, so the old game's DM
                # only says it is over: one hand message per game, never two for the next.
                await interaction.edit_original_response(
                    content=game_over_message(info, user_id, lang), view=None
                )
                return
            await interaction.edit_original_response(content=content, view=ui)
            if ephemeral:
                self.presenter.remember_ephemeral(user_id, interaction, now.game_id, key)
            elif message is not None:
                await self.presenter.adopt_hand(
                    info.id,
                    user_id,
                    now.game_id,
                    message.channel.id,
                    message.id,
                    key,
                    (now.version, lang),
                )

    async def _apply_click(
        self, click: Click, user_id: int, info: TableInfo, lang: Lang, reply: Reply
    ) -> bool:
        """Check and apply a game click, received here or by another process; a refusal is
        answered ephemerally with the rule. True when the action was taken."""
        if info.seat_of(user_id) is None:
            await reply.say(t(lang, "err_not_seated"))
            return False
        if click.version != info.version:
            await reply.say(t(lang, "stale"))
            return False
        match click.what:
            case "card":
                move: dict[str, Any] = {"play": click.args[0]}
            case "reserve":
                move = {"reserve": click.args[0] == "1"}
            case "call":
                move = {"call": click.args[0]}
            case "schmeissen":
                move = {"schmeissen": True}
            case "armut":
                # An Armut offers exactly the hand's trumps: the engine checks them again.
                hand = self.bot.engine.view_for(info.id, user_id).hand
                move = {"armut": [c.code for c in armut_trumps(hand)]}
            case "takearmut":
                move = {"take_armut": click.args[0] == "1"}
            case "return":
                move = {"return": return_cards(click.values)}
            case _:
                move = {"declare": click.values[0] if click.values else ""}
        # Acknowledged as soon as the action is in the database (the engine's group commit,
        # a few ms), before the engine books a finished game: a crash after the answer
        # loses nothing the player was told.
        try:
            action = _action(self.bot.engine, info.id, user_id, move)
            await self.bot.engine.act(
                info.id, user_id, action, version=click.version, on_stored=reply.defer
            )
        except EngineError as error:
            text = t(lang, "stale") if error.reason == "stale_version" else error_text(error, lang)
            await reply.say(text)
            return False
        return True

    # -- interactions another bot process received for this process's tables ------------

    async def on_forwarded(self, row: ForwardRow) -> None:
        reply = WebhookReply(self.bot, row)
        lang = lang_of(row.locale)
        self.presenter.note_locale(row.user_id, lang)
        try:
            info: TableInfo = self.bot.engine.table(row.table_id)
        except EngineError as error:
            await reply.say(error_text(error, lang))
            return
        match row.kind:
            case "click":
                click = parse_click(row.custom_id, row.args)
                if click is None or click.what not in GAME_ACTIONS or click.table_id != info.id:
                    await reply.say(t(lang, "err_bad_action"))
                    return
                await self._adopt_dm_hand(info, row)
                await self._apply_click(click, row.user_id, info, lang, reply)
            case "karten":
                if info.seat_of(row.user_id) is None:
                    await reply.say(t(lang, "err_not_seated"))
                    return
                try:
                    _, content, ui, _ = self.presenter.render_hand(info.id, row.user_id, lang)
                except EngineError as error:
                    await reply.say(error_text(error, lang))
                    return
                await reply.send(content, ui)
            case "ansage":
                call = CALL_OPTIONS.get(row.args[0] if row.args else "")
                if call is None:
                    await reply.say(t(lang, "err_bad_action"))
                    return
                try:
                    move = _action(self.bot.engine, info.id, row.user_id, {"call": str(call)})
                    await self.bot.engine.act(info.id, row.user_id, move)
                except EngineError as error:
                    await reply.say(error_text(error, lang))
                    return
                await reply.say(t(lang, "called", call=call_name(call, lang)))
            case "stand":
                title = t(lang, "stand_title", table=info.id)
                await reply.say(_fit(f"**{title}**\n{_stand_text(info, lang)}"))
            case "regeln":
                text = rules_text(info.rules, info.games_per_session, lang)
                await reply.say(_fit(f"**{t(lang, 'rules_title')}**\n{text}"))

    async def _adopt_dm_hand(self, info: TableInfo, row: ForwardRow) -> None:
        """The clicked DM is the user's hand message of this game, unless one is known: so
        this process edits it rather than sending another (it forgets them on a restart)."""
        state = self.presenter.tables.get(info.id)
        if state is None or info.game_id is None or row.channel_id is None:
            return
        known = state.hands.get(row.user_id)
        if row.message_id is not None and (known is None or known.game_id != info.game_id):
            await self.presenter.adopt_hand(
                info.id, row.user_id, info.game_id, row.channel_id, row.message_id, ()
            )

    async def on_unowned(self, row: ForwardRow) -> None:
        """A forwarded interaction nobody will apply: say so instead of leaving it silent."""
        lang = lang_of(row.locale)
        try:
            closed = (await get_table(self.bot.db, row.table_id)).status == "closed"
        except NotFoundError:
            closed = True
        await WebhookReply(self.bot, row).say(t(lang, "err_no_table" if closed else "unowned"))


def _action(engine: Engine, table_id: int, user_id: int, move: dict[str, Any]) -> Action:
    """The move as the engine takes it, with the user's game seat (0 when they play none:
    the engine then refuses them as not seated or sitting out)."""
    seat = engine.game_seat(table_id, user_id)
    try:
        return action_from_dict({**move, "seat": 0 if seat is None else seat}, 0)
    except RecordError as err:
        raise EngineError("bad_action", str(err)) from None


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Doko(bot))
