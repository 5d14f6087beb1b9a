"""Server challenges: every member plays the same N deals alone against three AIs.

A challenge stores its seed; each member's entry is one engine table in their DM (one
human on seat 0, three AIs of the challenge's level), whose deals come from that seed
(``Engine.create_table(deal_base=…)``: deal n alike for everyone, its dealer rotating
from the human on).
The AIs' answers are a function of the deal and the history alone (``ai_turns`` seeds
them from the deal's seed, the action count and the seat; the levels' budgets are playout
counts, never time), so the same history gets the same answer for everyone, after a
restart too. Challenge games are not ranked: a duplicate deal alone against bots is no
game against the server's players. The period's end is a stored timer (``timers`` kind
``challenge_end``); when it fires the challenge ends and its open tables are stopped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.engine.facade import Engine
from bot.engine.model import EngineError, TableInfo, check_level
from bot.rules.ruleset import Ruleset
from bot.tournament.duplicate import Comparison, DealResult, compare
from db import challenges as store
from db import timers
from db.challenges import ChallengeRow as ChallengeRow  # re-exported: the cog names it
from db.challenges import PlayedDeal
from db.errors import NotFoundError

log = logging.getLogger(__name__)

END_TIMER_KIND: Final = "challenge_end"
MAX_DEALS: Final = 48
MAX_DAYS: Final = 31


@dataclass(frozen=True, slots=True)
class ChallengeView:
    """A challenge's standing: the comparison, the members' names, how far each is."""

    challenge: ChallengeRow
    comparison: Comparison
    names: dict[int, str]
    played: tuple[PlayedDeal, ...]
    entrants: int

    def deals_done(self, user_id: int) -> int:
        return sum(1 for p in self.played if p.user_id == user_id)


@dataclass(frozen=True, slots=True)
class ChallengeEnded:
    view: ChallengeView


Listener = Callable[[ChallengeEnded], Awaitable[None]]


def challenge_rules(rules: Ruleset, deals: int) -> Ruleset:
    """A preset as a challenge plays it: no Pflichtsolo and no Bock, whose bookkeeping
    across games would make deal n differ between players; ``deals`` games.
    """
    return rules.replace(pflichtsolo_enabled=False, bock=frozenset(), games_per_round=deals)


class ChallengeService:
    """Creates, plays, compares and ends challenges through ``engine``."""

    def __init__(self, engine: Engine, *, seeds: Callable[[], int] | None = None) -> None:
        self.engine = engine
        self.db = engine.db
        self.seeds = seeds or (lambda: secrets.randbits(62))
        self._listeners: list[Listener] = []
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    async def start(self) -> None:
        """After ``engine.start()``: arm the end timers of this process's open challenges."""
        for timer in await timers.list_timers(self.db):
            if timer.kind != END_TIMER_KIND:
                continue
            try:
                challenge = await store.get_challenge(self.db, int(timer.payload["challenge"]))
            except NotFoundError:
                continue
            if self.engine.owns_guild(challenge.guild_id):
                self._arm(challenge.id, timer.fires_at)

    async def close(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def armed(self, challenge_id: int) -> bool:
        """Whether the challenge's end timer is armed in this process."""
        return challenge_id in self._handles

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        deals: int,
        days: int,
        preset: str,
        rules: Ruleset,
        ai_level: str,
    ) -> ChallengeRow:
        if not 1 <= deals <= MAX_DEALS:
            raise EngineError("bad_deals", f"a challenge has 1 to {MAX_DEALS} deals")
        if not 1 <= days <= MAX_DAYS:
            raise EngineError("bad_days", f"a challenge runs 1 to {MAX_DAYS} days")
        check_level(ai_level)
        now = self.engine.clock()
        ends_at = now + timedelta(days=days)
        async with self.db.transaction():
            challenge = await store.create_challenge(
                self.db,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=creator_id,
                deals=deals,
                seed=self.seeds(),
                preset=preset,
                rules=challenge_rules(rules, deals).to_dict(),
                ai_level=ai_level,
                ends_at=ends_at,
                now=now,
            )
            await timers.add_timer(
                self.db, END_TIMER_KIND, ends_at, payload={"challenge": challenge.id}, now=now
            )
        self._arm(challenge.id, ends_at)
        return challenge

    async def find(self, guild_id: int, challenge_id: int | None = None) -> ChallengeRow:
        """The given challenge of this guild, or the newest open one (else the newest)."""
        if challenge_id is not None:
            try:
                found = await store.get_challenge(self.db, challenge_id)
            except NotFoundError:
                found = None
            if found is None or found.guild_id != guild_id:
                raise EngineError("no_challenge", "there is no such challenge here")
            return found
        listed = await store.list_guild_challenges(self.db, guild_id)
        if not listed:
            raise EngineError("no_challenge", "this server has no challenge")
        return next((c for c in listed if c.status == "open"), listed[0])

    async def play(
        self, challenge: ChallengeRow, user_id: int, name: str, channel_id: int
    ) -> tuple[TableInfo, bool]:
        """Start the member's go in ``channel_id`` (their DM), or find the one running;
        returns the table and whether it was started now. Once only: a member whose table
        closed has played it.
        """
        if challenge.status != "open":
            raise EngineError("challenge_ended", "the challenge has ended")
        async with self._lock:  # one entry per member, however fast they click
            entry = await store.get_entry(self.db, challenge.id, user_id)
            if entry is not None:
                try:
                    info = self.engine.table(entry.table_id)
                except EngineError:
                    raise EngineError("already_played", "you have played this challenge") from None
                return info, False
            info = await self.engine.create_table(
                guild_id=challenge.guild_id,
                channel_id=channel_id,
                host_id=user_id,
                host_name=name,
                rules=Ruleset.from_dict(challenge.rules),
                games=challenge.deals,
                turn_timer_s=None,  # at their own pace
                ai_level=challenge.ai_level,
                deal_base=challenge.seed,
            )
            await store.add_entry(self.db, challenge.id, user_id, info.id, now=self.engine.clock())
        # The human deals the first game: deal n has the same dealer for everyone.
        started = await self.engine.start_game(info.id, user_id, challenge.ai_level, dealer=0)
        return started, True

    async def view(self, challenge: ChallengeRow) -> ChallengeView:
        played = tuple(await store.played_deals(self.db, challenge.id))
        # The seat compared is the human's place from the dealer (the same deal, seat).
        results = [DealResult(p.user_id, p.deal, (p.seat - p.dealer) % 4, p.points) for p in played]
        names = {p.user_id: p.name for p in played}
        entrants = len(await store.list_entries(self.db, challenge.id))
        return ChallengeView(challenge, compare(results), names, played, entrants)

    async def end_due(self, now: datetime | None = None) -> list[ChallengeRow]:
        """End every open challenge of this process whose period is over (by ``now``)."""
        now = now or self.engine.clock()
        ended = []
        for challenge in await store.list_open_challenges(self.db):
            if challenge.ends_at <= now and self.engine.owns_guild(challenge.guild_id):
                ended.append(await self._end(challenge))
        return ended

    def _arm(self, challenge_id: int, fires_at: datetime) -> None:
        old = self._handles.pop(challenge_id, None)
        if old is not None:
            old.cancel()
        # asyncio's timers misbehave past ~49 days; a challenge is at most a month.
        delay = max(0.0, (fires_at - self.engine.clock()).total_seconds())
        loop = asyncio.get_running_loop()
        self._handles[challenge_id] = loop.call_later(delay, self._fire, fires_at)

    def _fire(self, fires_at: datetime) -> None:
        task = asyncio.create_task(self._guarded(self.end_due(fires_at)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(self, work: Awaitable[object]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("ending a challenge failed")

    async def _end(self, challenge: ChallengeRow) -> ChallengeRow:
        """Stop the challenge's open tables, mark it ended, drop its timer, tell."""
        handle = self._handles.pop(challenge.id, None)
        if handle is not None:
            handle.cancel()
        for entry in await store.list_entries(self.db, challenge.id):
            try:
                info = self.engine.table(entry.table_id)
            except EngineError:
                continue  # played to the end
            if info.status != "closed":
                await self.engine.stop_table(entry.table_id, challenge.creator_id, admin=True)
        async with self.db.transaction():
            if not await store.end_challenge(self.db, challenge.id):
                return challenge
            for timer in await timers.list_timers(self.db):
                if timer.kind == END_TIMER_KIND and timer.payload.get("challenge") == challenge.id:
                    await timers.cancel_timer(self.db, timer.id)
        ended = await store.get_challenge(self.db, challenge.id)
        view = await self.view(ended)
        for listener in list(self._listeners):
            try:
                await listener(ChallengeEnded(view))
            except Exception:
                log.exception("a challenge listener failed")
        return ended
