"""The shared async engine: the one place where front ends meet the rules core and the store."""

from bot.engine.facade import Engine
from bot.engine.model import (
    AI_LEVELS,
    AIPlayer,
    EngineError,
    Event,
    GameOver,
    ListEntry,
    SeatInfo,
    SessionOver,
    TableChanged,
    TableInfo,
    TrickTaken,
    ViewChanged,
    YourTurn,
)

__all__ = [
    "AI_LEVELS",
    "AIPlayer",
    "Engine",
    "EngineError",
    "Event",
    "GameOver",
    "ListEntry",
    "SeatInfo",
    "SessionOver",
    "TableChanged",
    "TableInfo",
    "TrickTaken",
    "ViewChanged",
    "YourTurn",
]
