"""What a bot process measures of itself for the benchmarks, written as JSON when it stops.

Off unless ``DOKO_STATS_FILE`` names a file (``bench discord`` and ``bench soak`` set it).
Per click: when the handler started, when its action was stored (the acknowledgement goes
out then) and when the acknowledgement's request returned, as wall-clock times, so the
benchmark can put them beside the times it saw (the interaction created, the callback
arrived). Besides: garbage-collection pauses, the group commit's figures, the global request
budget's turns and waits by priority, the process's peak memory.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import time
from array import array
from pathlib import Path
from typing import Any

STATS_FILE_ENV = "DOKO_STATS_FILE"


class ProcessStats:
    """Ack phases per interaction and garbage-collection pauses of this process."""

    def __init__(self, path: Path) -> None:
        self.path = path
        # Acknowledgements on their way: interaction id -> [handler, stored]; once acked,
        # their three times go into flat arrays (a dict of lists took ~4 MB at 15,000
        # clicks, which bench discord counted as the bot's memory per table).
        self._acking: dict[int, list[float]] = {}
        self._acked_ids = array("q")
        self._acked_times = array("d")  # handler, stored, acked for each id in turn
        self.gc_pauses_ms: list[float] = []  # collections of the older generations
        self.gc_full_pauses_ms: list[float] = []  # of those, the full ones (generation 2)
        self.gc_young_ms = 0.0  # all young collections together
        self.gc_young_max_ms = 0.0  # the longest of them
        self._gc_started = 0.0
        gc.callbacks.append(self._on_gc)

    @classmethod
    def from_env(cls) -> ProcessStats | None:
        where = os.environ.get(STATS_FILE_ENV)
        return cls(Path(where)) if where else None

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            pause = (time.perf_counter() - self._gc_started) * 1000
            if info.get("generation", 0) >= 1:
                self.gc_pauses_ms.append(pause)
                if info.get("generation", 0) == 2:
                    self.gc_full_pauses_ms.append(pause)
            else:  # many and short
                self.gc_young_ms += pause
                self.gc_young_max_ms = max(self.gc_young_max_ms, pause)

    def handler(self, interaction_id: int) -> None:
        self._acking[interaction_id] = [time.time()]

    def mark(self, interaction_id: int) -> None:
        """The next phase of the interaction's acknowledgement ended (stored, acked)."""
        times = self._acking.get(interaction_id)
        if times is None:
            return
        times.append(time.time())
        if len(times) == 3:
            del self._acking[interaction_id]
            self._acked_ids.append(interaction_id)
            self._acked_times.extend(times)

    @property
    def acks(self) -> dict[int, list[float]]:
        """Interaction id -> its times so far: [handler, stored, acked]."""
        done = self._acked_times
        acks = {ix: list(done[3 * i : 3 * i + 3]) for i, ix in enumerate(self._acked_ids)}
        return acks | self._acking

    def write(self, extra: dict[str, Any]) -> None:
        if self._on_gc in gc.callbacks:  # written before (a bot closed twice)
            gc.callbacks.remove(self._on_gc)
        figures = {
            "acks": {str(k): v for k, v in self.acks.items()},
            "gc_pauses_ms": self.gc_pauses_ms,
            "gc_full_pauses_ms": self.gc_full_pauses_ms,
            "gc_young_ms": self.gc_young_ms,
            "gc_young_max_ms": self.gc_young_max_ms,
            "max_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            **extra,
        }
        self.path.write_text(json.dumps(figures))
