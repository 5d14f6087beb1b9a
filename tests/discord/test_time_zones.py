"""Tournament start times are given and shown in the server's time zone, stored in UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bot.engine import EngineError
from db import guilds
from tests.discord.conftest import World


async def test_a_start_in_berlin_time_is_stored_in_utc_and_shown_in_the_servers_zone(
    make_world: Any,
) -> None:
    world: World = await make_world(names=("anna", "ben"))
    anna, ben = world.users
    service = world.bot.tournaments
    # No zone set: Europe/Berlin. 19:00 in winter (CET, UTC+1) is 18:00 UTC.
    ix = await world.run(
        anna, "turnier erstellen", name="Winter", runden=1, beginn="2031-03-01 19:00"
    )
    text = await world.answer_text(ix)
    stored = (await service.find(world.guild.id)).starts_at
    assert stored == datetime(2031, 3, 1, 18, 0, tzinfo=UTC)
    assert "01.03.2031, 19:00 Uhr (Europe/Berlin" in text
    assert f"<t:{int(stored.timestamp())}:f>" in text  # each reader's own local time too

    # The server moves to New York: the same stored time reads 13:00 there.
    await guilds.set_guild_settings(world.bot.db, world.guild.id, time_zone="America/New_York")
    ix = await world.run(ben, "turnier teilnehmer")
    assert "01.03.2031, 13:00 Uhr (America/New_York" in await world.answer_text(ix)
    # And a time given now is New York time: 19:00 EDT (UTC-4) is 23:00 UTC.
    ix = await world.run(
        anna, "turnier erstellen", name="Sommer", runden=1, beginn="2031-07-01 19:00"
    )
    assert "01.07.2031, 19:00 Uhr (America/New_York" in await world.answer_text(ix)
    second = await service.find(world.guild.id)
    assert second.name == "Sommer"
    assert second.starts_at == datetime(2031, 7, 1, 23, 0, tzinfo=UTC)


async def test_daylight_saving_gap_is_refused_and_fold_takes_the_first(make_world: Any) -> None:
    world: World = await make_world(names=("anna",), locales={"anna": "en-US"})
    anna = world.users[0]
    service = world.bot.tournaments
    # 02:30 on 30 March 2031 never happens in Berlin: the clocks jump from 02:00 to 03:00.
    ix = await world.run(
        anna, "turnier erstellen", name="Lücke", runden=1, beginn="2031-03-30 02:30"
    )
    text = await world.answer_text(ix)
    assert "02:30 does not exist on 2031-03-30 in Europe/Berlin" in text
    with pytest.raises(EngineError):
        await service.find(world.guild.id)  # nothing was created
    # 02:30 on 26 October 2031 happens twice: the first, still summer time (UTC+2).
    ix = await world.run(
        anna, "turnier erstellen", name="Falte", runden=1, beginn="2031-10-26 02:30"
    )
    text = await world.answer_text(ix)
    assert (await service.find(world.guild.id)).starts_at == datetime(
        2031, 10, 26, 0, 30, tzinfo=UTC
    )
    assert "zweimal" in text and "UTC+02:00" in text  # public: the server's language
    # A bad format names the zone the time is read in.
    ix = await world.run(anna, "turnier erstellen", name="X", runden=1, beginn="morgen")
    assert "YYYY-MM-DD HH:MM" in await world.answer_text(ix)
    assert "Europe/Berlin" in await world.answer_text(ix)
