"""The places where the bot steps around discord.py's public API, each for a reason.

Kept together so a discord.py upgrade is checked in one spot: ``tests/discord/test_library.py``
fails when one of these attributes moves.

* Pointing discord.py at another Discord (the loopback Discord of the tests): discord.py has
  no setting for its REST base and gateway URL, only the class attributes read here.
* Answering a forwarded interaction: another process acknowledged it, so this one holds only
  its application id and token. discord.py builds an interaction's followup webhook from the
  client's connection state (``Webhook.partial`` makes an incoming webhook, which may not
  send ephemeral messages). Its clicked message is edited as the interaction's original
  response, which ``Webhook.edit_message`` reaches only by an id: "@original" is passed
  as one (:func:`edit_original`).
* Releasing a handled interaction: it and its ``response`` point at each other, so the
  interaction, its parsed message (an object per button) and its users outlived the click
  until a garbage collection found them (bench discord, 200 tables: ~11,000 such objects in
  3 s, most moved into older generations by then). Without the cycle, reference counting
  frees them as soon as the last user drops them.
* Closing an upload (:class:`Upload`): ``discord.File.close()`` puts the buffer's own
  ``close`` back into the buffer's ``__dict__``, a cycle that kept every picture sent until
  a collection found it (bench discord, 1,000 tables: about 4,200 in 10 s, half of what the
  full collections found besides the pings' timers).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Mapping
from typing import Any, cast

import discord
import discord.gateway
import discord.http
import yarl

log = logging.getLogger(__name__)

API_BASE_ENV = "DOKO_DISCORD_API_BASE"
GATEWAY_URL_ENV = "DOKO_DISCORD_GATEWAY_URL"
APPLICATION_WEBHOOK = 3  # Discord's webhook type of an interaction's followups


def apply_discord_overrides(environ: Mapping[str, str] | None = None) -> None:
    """Honour the two test overrides; unset, discord.py talks to Discord."""
    env = os.environ if environ is None else environ
    api, gateway = env.get(API_BASE_ENV), env.get(GATEWAY_URL_ENV)
    if api:
        discord.http.Route.BASE = api
        log.info("REST calls go to %s", api)
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        log.info("gateway is %s", gateway)


def interaction_webhook(client: discord.Client, application_id: int, token: str) -> discord.Webhook:
    """The followup webhook of an interaction that another process acknowledged: what
    ``Interaction.followup`` builds.
    """
    data: Any = {"id": application_id, "type": APPLICATION_WEBHOOK, "token": token}
    return discord.Webhook.from_state(data=data, state=client._connection)


# Discord's name of an interaction's original response in the webhook's message routes.
# ``Webhook.edit_message`` types its id as an int but only puts it into the path (quoted,
# "%40original", as discord.js sends it too); ``Interaction.edit_original_response`` needs
# the interaction, which only the process that received it has.
ORIGINAL_RESPONSE = cast(int, "@original")


async def edit_original(webhook: discord.Webhook, **fields: Any) -> discord.WebhookMessage:
    """Edit the original response of the interaction ``webhook`` belongs to (for a click:
    the clicked message), as ``Interaction.edit_original_response`` does: through
    ``PATCH /webhooks/{application}/{token}/messages/@original``.
    """
    return await webhook.edit_message(ORIGINAL_RESPONSE, **fields)


def release_interaction(interaction: discord.Interaction[Any]) -> None:
    """Break the reference cycle between a handled interaction and its ``response``. Only
    edit_original_response is used on a kept interaction (an ephemeral hand), and it does
    not need the response object.
    """
    with contextlib.suppress(AttributeError):
        delattr(interaction, "_cs_response")  # discord.py's cache slot of ``response``


class Upload(discord.File):
    """A ``discord.File`` whose buffer goes with its last reference once it is closed:
    the instance attribute ``close`` is dropped, the class's method stays.
    """

    __slots__ = ()

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)
