"""Discord's rate limits in the loopback Discord: a global bucket, per-route buckets, and the
invalid-request counter behind Cloudflare's temporary bans.

What Discord documents (developers/topics/rate-limits) and the fake models:

* A bot may make 50 requests a second in total, all its shards and processes together (the
  global bucket is keyed by the bot token). Interaction routes do not count against it:
  ``POST /interactions/{id}/{token}/callback`` and ``/webhooks/{application_id}/{token}…``.
* Every route has its own bucket, keyed by the route template and its top-level resource
  (``channel_id``, ``guild_id``, ``webhook_id`` + ``webhook_token``). Every response names it:
  ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``. A 429 carries Discord's body
  (``message``, ``retry_after``, ``global``, ``code``), ``Retry-After``, ``X-RateLimit-Scope``
  (``user`` or ``global``), ``X-RateLimit-Global`` for the global one, and ``Via`` (without it
  discord.py takes the 429 for a Cloudflare ban and does not retry).
* 10,000 responses with 401, 403 or 429 (not those with scope ``shared``) in 10 minutes get a
  client banned for a while: :meth:`RateLimits.invalid_requests` counts them in a sliding
  window.

Discord does not publish its per-route figures ("rate limits should not be hard coded");
those in :data:`ROUTE_LIMITS` are commonly observed ones, and where nobody reports one they
are guesses, marked so. A bucket is a fixed window that starts with its first request, which
is how Discord's ``Reset-After`` behaves.

API (kept stable; ``bench discord`` counts through it)::

    fake = FakeDiscord(rate_limits=True)        # enforce; False (default): count only,
                                                # no X-RateLimit headers (the fake as it was)
    fake = FakeDiscord(rate_limits=RateLimits(global_per_second=10, routes={...}))
    RateLimits(time_scale=0.05)                 # the same limits, windows 20 times shorter
    limits = fake.ratelimits
    limits.enabled                              # switch at run time, too
    limits.requests[route]                      # requests per route key, e.g.
                                                #   "POST /channels/{channel_id}/messages"
    limits.limited[route]                       # 429s this limiter sent, per route
    limits.exhausted[route]                     # buckets used up (Remaining 0): the
                                                #   client waits for the reset
    limits.global_limited                       # of those, global ones
    limits.injected                             # 429s a test injected (fail_next & co.)
    limits.invalid_requests()                   # 401/403/429 in the last 10 minutes
    limits.summary()                            # all of it as a plain dict

The clock is the fake's (``FakeDiscord.now``; ``advance_clock`` moves it, and so empties
buckets early); a standalone ``RateLimits`` takes any ``clock``.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

GLOBAL_PER_SECOND = 50
INVALID_WINDOW = 600.0  # seconds: the sliding 10 minutes
INVALID_LIMIT = 10_000
INVALID_STATUSES = frozenset({401, 403, 429})
# The parameters Discord keys a route's bucket by, besides the route itself; an interaction
# callback is keyed by its interaction (discord.py treats it as a webhook id and token).
MAJOR_PARAMETERS = (
    "channel_id",
    "guild_id",
    "webhook_id",
    "webhook_token",
    "interaction_id",
    "interaction_token",
)


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds, per top-level resource (or bot-wide)."""

    limit: int
    per: float
    why: str = ""


# Route key ("METHOD /template") -> its bucket. Sources: Discord's rate-limit docs
# and community reports; "guess" where nothing is reported.
ROUTE_LIMITS: dict[str, RouteLimit] = {
    "POST /channels/{channel_id}/messages": RouteLimit(5, 5.0, "observed: 5 per 5 s per channel"),
    "PATCH /channels/{channel_id}/messages/{message_id}": RouteLimit(
        5, 5.0, "observed: edits ≈5 per 5 s per channel"
    ),
    "DELETE /channels/{channel_id}/messages/{message_id}": RouteLimit(
        5, 1.0, "observed: 5 per 1 s per channel"
    ),
    "GET /channels/{channel_id}/messages/{message_id}": RouteLimit(5, 1.0, "guess"),
    # Keyed by the parent channel, as every channel route (channel_id is its major parameter).
    "POST /channels/{channel_id}/messages/{message_id}/threads": RouteLimit(
        5, 5.0, "guess: as sending in the channel"
    ),
    "GET /channels/{channel_id}": RouteLimit(5, 1.0, "guess"),
    "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me": RouteLimit(
        1, 0.25, "observed: 1 per 0.25 s per channel"
    ),
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me": RouteLimit(
        1, 0.25, "observed: as adding one"
    ),
    # Create DM has no major parameter: one bucket for the whole bot. Discord warns that
    # opening many DMs quickly gets a bot limited (resources/user "Create DM").
    "POST /users/@me/channels": RouteLimit(10, 10.0, "guess: bot-wide"),
    "POST /webhooks/{webhook_id}/{webhook_token}": RouteLimit(
        5, 2.0, "observed for webhooks: 5 per 2 s per token"
    ),
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": RouteLimit(
        5, 2.0, "guess: as webhook sends"
    ),
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": RouteLimit(
        5, 2.0, "guess: as webhook sends"
    ),
    "PUT /applications/{application_id}/commands": RouteLimit(5, 20.0, "guess"),
    "PUT /applications/{application_id}/guilds/{guild_id}/commands": RouteLimit(5, 20.0, "guess"),
}
# Every other route: a generous bucket (a guess), so every response still carries headers.
DEFAULT_LIMIT = RouteLimit(50, 1.0, "guess: any other route")


def exempt_from_global(template: str) -> bool:
    """Interaction callbacks and interaction webhooks do not count against the global limit."""
    return template.startswith(("/interactions/", "/webhooks/"))


@dataclass
class _Window:
    started: float
    count: int = 0


@dataclass
class Decision:
    """What the limiter says about one request: let through (``limited`` False) or 429."""

    headers: dict[str, str]
    limited: bool = False
    is_global: bool = False
    retry_after: float = 0.0

    def body(self) -> dict[str, Any]:
        """Discord's 429 body."""
        return {
            "message": "You are being rate limited.",
            "retry_after": round(self.retry_after, 3),
            "global": self.is_global,
            "code": 0,
        }


def limited_headers(
    retry_after: float, *, is_global: bool, bucket: str, limit: int, now_wall: float
) -> dict[str, str]:
    """The headers of a 429 (also what an injected one carries)."""
    headers = {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{now_wall + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if is_global else "user",
        # discord.py treats a 429 without Via as a Cloudflare ban and does not retry.
        "Via": "1.1 google",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    return headers


def bucket_hash(route: str) -> str:
    """An opaque, stable bucket id per route, as Discord's ``X-RateLimit-Bucket``."""
    return hashlib.sha256(route.encode()).hexdigest()[:32]


@dataclass
class RateLimits:
    """The buckets and counters of one fake Discord (every connection of every process)."""

    enabled: bool = True
    global_per_second: int = GLOBAL_PER_SECOND
    routes: Mapping[str, RouteLimit] = field(default_factory=lambda: dict(ROUTE_LIMITS))
    clock: Callable[[], float] = time.monotonic
    # Every window (the global second too) times this: a test of many games may run Discord's
    # limits faster (0.05: a 5 per 5 s bucket allows 5 per 0.25 s), counts unchanged.
    time_scale: float = 1.0
    requests: Counter[str] = field(default_factory=Counter)
    limited: Counter[str] = field(default_factory=Counter)
    exhausted: Counter[str] = field(default_factory=Counter)
    global_limited: int = 0
    injected: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    _buckets: dict[tuple[str, str], _Window] = field(default_factory=dict)
    _global: dict[str, _Window] = field(default_factory=dict)
    _invalid: deque[float] = field(default_factory=deque)

    def limit_of(self, route: str) -> RouteLimit:
        return self.routes.get(route, DEFAULT_LIMIT)

    def admit(
        self, route: str, template: str, params: Mapping[str, str], token: str | None
    ) -> Decision:
        """Count one request to ``route`` ("METHOD /template") and say whether it may pass.

        ``token`` is the bot token the request authenticates with (the global bucket's key).
        A refused request uses up nothing (Discord does not count a 429 against a bucket).
        """
        now = self.clock()
        wall = time.time()
        self.requests[route] += 1
        if not self.enabled:
            return Decision({})  # counted only: no headers, nothing for a client to wait on
        rule = self.limit_of(route)
        per, second = rule.per * self.time_scale, self.time_scale
        major = "+".join(params[p] for p in MAJOR_PARAMETERS if p in params)
        key = (route, major)
        window = self._buckets.get(key)
        if window is None or now >= window.started + per:
            window = self._buckets[key] = _Window(now)
        bucket = bucket_hash(route)
        if not exempt_from_global(template) and token is not None:
            glob = self._global.get(token)
            if glob is None or now >= glob.started + second:
                glob = self._global[token] = _Window(now)
            if glob.count >= self.global_per_second:
                retry = glob.started + second - now
                self.limited[route] += 1
                self.global_limited += 1
                headers = limited_headers(
                    retry, is_global=True, bucket=bucket, limit=rule.limit, now_wall=wall
                )
                return Decision(headers, limited=True, is_global=True, retry_after=retry)
        reset_after = window.started + per - now
        if window.count >= rule.limit:
            self.limited[route] += 1
            headers = limited_headers(
                reset_after, is_global=False, bucket=bucket, limit=rule.limit, now_wall=wall
            )
            return Decision(headers, limited=True, retry_after=reset_after)
        window.count += 1
        if window.count == rule.limit:
            self.exhausted[route] += 1  # a client that obeys the headers waits now
        if not exempt_from_global(template) and token is not None:
            self._global[token].count += 1
        headers = {
            "X-RateLimit-Limit": str(rule.limit),
            "X-RateLimit-Remaining": str(max(0, rule.limit - window.count)),
            "X-RateLimit-Reset": f"{wall + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }
        return Decision(headers)

    def note_response(self, status: int, scope: str | None = None) -> None:
        """Count the answer's status; 401/403/429 (not scope ``shared``) are invalid."""
        self.statuses[status] += 1
        if status in INVALID_STATUSES and scope != "shared":
            self._invalid.append(self.clock())

    def invalid_requests(self, window: float = INVALID_WINDOW) -> int:
        """401, 403 and 429 answers in the last ``window`` seconds (Discord bans at 10,000)."""
        now = self.clock()
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW:
            self._invalid.popleft()
        return sum(1 for at in self._invalid if at > now - window)

    def total_limited(self) -> int:
        """429s in all: the limiter's and injected ones."""
        return sum(self.limited.values()) + self.injected

    def summary(self) -> dict[str, Any]:
        """Every counter as plain data (benchmarks print it)."""
        return {
            "enabled": self.enabled,
            "requests": dict(self.requests),
            "limited": dict(self.limited),
            "exhausted": dict(self.exhausted),
            "global_limited": self.global_limited,
            "injected": self.injected,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "invalid_requests": self.invalid_requests(),
        }
