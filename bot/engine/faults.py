"""Storage faults: how the engine meets a store that refuses to write for a while.

A disk that is full, an I/O error, a lock held past the busy timeout, a lost PostgreSQL
connection: the change is not applied (memory never runs ahead of the store), a player's
request is refused with the reason ``store_failed`` ("could not save, nothing changed, try
again"), and the engine's own work (AI turns, turn timers, booking a finished game) is
retried after a pause until the store takes it again.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Final, ParamSpec, TypeVar

from bot.engine.model import EngineError
from db.errors import StoreError

log = logging.getLogger(__name__)

STORE_FAILED: Final = "store_failed"

# The engine's own work waits this long after a failed write, doubling up to the last.
FIRST_RETRY_S: Final = 0.25
LAST_RETRY_S: Final = 8.0

_P = ParamSpec("_P")
_R = TypeVar("_R")


def retry_pause(failures: int) -> float:
    """Seconds to wait after ``failures`` failed writes in a row (1, 2, …)."""
    return min(LAST_RETRY_S, FIRST_RETRY_S * 2.0 ** max(0, failures - 1))


def store_failed(error: StoreError) -> EngineError:
    """The refusal a player gets when the store did not take their change."""
    return EngineError(STORE_FAILED, f"the change was not stored: {error}")


def refuse_store_faults(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R]]:
    """A facade method whose store error reaches the front end as ``store_failed``."""

    @functools.wraps(method)
    async def refusing(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return await method(*args, **kwargs)
        except StoreError as error:
            log.warning("%s: not stored: %s", method.__name__, error)
            raise store_failed(error) from error

    return refusing
