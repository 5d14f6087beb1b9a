"""The bot's garbage-collector pacing (bot/discord/collector.py): survivors are frozen out of
the collector's view, and cyclic garbage among them is still found once they have grown.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from bot.discord.collector import GC_YOUNG_THRESHOLD, Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """Two objects that refer to each other, nothing else to them once returned: only the
    cyclic collector can free them.
    """
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def clean_gc() -> Iterator[None]:
    """Whatever a test freezes or tunes is undone: the test process is shared."""
    threshold = gc.get_threshold()
    gc.collect()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    gc.collect()


def test_a_step_freezes_what_survived_so_collections_no_longer_walk_it(clean_gc: None) -> None:
    node = Node()
    collector = Collector(kept=10**9)  # far from a thaw
    collector.step()
    assert gc.get_freeze_count() > 0
    assert not any(o is node for o in gc.get_objects())  # out of every generation


def test_frozen_cyclic_garbage_waits_for_the_thaw(clean_gc: None) -> None:
    garbage = cycle()
    collector = Collector(kept=10**9)
    collector.step()  # frozen while it was garbage already
    gc.collect()
    assert garbage() is not None  # no collection looks at frozen objects
    collector.step()  # grown too little: frozen again, no thaw
    assert garbage() is not None and collector.thaws == []

    collector.kept = 0  # as if everything frozen now had come since the last thaw
    collector.step()
    assert garbage() is None
    assert len(collector.thaws) == 1
    assert collector.kept == gc.get_freeze_count()  # what lives is frozen again


def test_a_thaw_comes_when_the_frozen_objects_grew_by_the_growth(clean_gc: None) -> None:
    collector = Collector(growth=0.5)
    collector.step()
    collector.kept = int(gc.get_freeze_count() / 1.5) + 1  # grown by just under a half
    collector.step()
    assert collector.thaws == []
    collector.kept = int(gc.get_freeze_count() / 1.5) - 1000  # by more than a half
    collector.step()
    assert len(collector.thaws) == 1


async def test_started_it_freezes_the_set_up_and_paces_until_closed(clean_gc: None) -> None:
    collector = Collector(every=0.01)
    collector.start()
    try:
        assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD
        assert collector.kept == gc.get_freeze_count() > 0
        garbage = cycle()
        await asyncio.sleep(0.05)  # a few steps: the garbage is frozen, not collected
        gc.collect()
        assert garbage() is not None
    finally:
        collector.close()
    await asyncio.sleep(0)
    assert collector._task is None
