"""The cyclic garbage collector, paced for a long-running bot process.

CPython 3.11 starts a young collection when the objects made minus those freed pass a
threshold. In a busy bot a finished game's objects die as fast as new ones are made, so that
count stays low while the young generation grows, and each collection of an older generation
walks everything the bot keeps alive. Measured at 1,000 tables (bench discord, 90 s): young
collections of up to 67,000 objects (54 ms), middle ones of up to 104,000 every 2–3 s (up to
93 ms), full ones of 160–310 ms twice a minute, 3–4 s in all, and the slowest
acknowledgements sat on them.

So what lives is kept out of the collector's view (``gc.freeze``, made for this): everything
alive once the bot is set up, and every ``FREEZE_EVERY_S`` whatever survived since, so a
collection only walks the objects of the last moment. Cyclic garbage among frozen objects is
found only when the frozen objects are thawed and collected in full; that is done when they
have grown by ``THAW_GROWTH`` since the last time, so such garbage stays a bounded part of
the memory. (CPython collects in full when its long-lived objects grew by a quarter; a half
here, as the thaws are the longest pauses left, and the frozen objects include the ~260,000
loaded at the start, which never become garbage.)
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import time
from dataclasses import dataclass, field

# Young objects collected at a time (CPython's default: 700). A busy bot makes thousands a
# second that live for a request or two; at 3000 most die before a collection looks at them.
GC_YOUNG_THRESHOLD = 3000
FREEZE_EVERY_S = 1.0
THAW_GROWTH = 0.5


@dataclass
class Collector:
    """Freezes survivors every ``every`` seconds; thaws and collects everything once the
    frozen objects grew by ``growth``. ``thaws`` (each one's pause) is for the benchmarks.
    """

    every: float = FREEZE_EVERY_S
    growth: float = THAW_GROWTH
    kept: int = 0  # frozen objects after the last full collection
    thaws: list[float] = field(default_factory=list)  # each full collection's pause, ms
    _task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    def start(self) -> None:
        """Freeze what the set-up left alive (modules, classes, the AI's tables, the open
        tables), collect young objects less often, and start pacing.
        """
        importlib.import_module("bot.ai")  # else loaded at the first AI move, after the freeze
        gc.collect()
        gc.freeze()
        self.kept = gc.get_freeze_count()
        gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
        self._task = asyncio.get_running_loop().create_task(self._run(), name="doko-gc")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.step()

    def step(self) -> None:
        """Freeze what survived since the last step, or thaw and collect all when the frozen
        objects grew by ``growth``.
        """
        if gc.get_freeze_count() > self.kept * (1 + self.growth):
            started = time.perf_counter()
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            self.kept = gc.get_freeze_count()
            self.thaws.append((time.perf_counter() - started) * 1000)
        else:
            gc.freeze()

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
