"""The Spielanalyse a finished game's result offers each human, and the coach's Tipp: both
private answers to a button, computed by the engine in a worker thread.
"""

from __future__ import annotations

from bot.discord.forwarding import Reply
from bot.engine.facade import Engine
from bot.engine.model import EngineError, TableInfo
from bot.render.analyse import analysis_text, tip_text
from bot.render.errors import error_text
from bot.render.texts import t


async def open_analysis(engine: Engine, reply: Reply, table_id: int, game_id: int) -> None:
    """Answer the result's "Spielanalyse" button with the player's own analysis."""
    await reply.defer()
    analysis = await engine.analyses.of_user(table_id, game_id, reply.user_id)
    if analysis is None:
        await reply.say(t(reply.lang, "analyse_unavailable"))
        return
    await reply.say(analysis_text(analysis, reply.lang))


async def give_tip(engine: Engine, reply: Reply, info: TableInfo) -> None:
    """Answer a coached hand's "Tipp" button: the AI's suggestion for this decision."""
    if not info.coach:
        await reply.say(t(reply.lang, "tipp_off"))
        return
    try:
        view = engine.view_for(info.id, reply.user_id)
    except EngineError as error:
        await reply.say(error_text(error, reply.lang))
        return
    if not view.legal or (view.to_act is not None and view.to_act != view.seat):
        await reply.say(t(reply.lang, "tipp_wait"))
        return
    await reply.defer()
    suggestion = await engine.analyses.tip(view, info.version)
    await reply.say(tip_text(suggestion, reply.lang))
