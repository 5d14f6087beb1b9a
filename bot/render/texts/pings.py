"""A ping on your turn (``/doko benachrichtigung``)."""

from __future__ import annotations

DE: dict[str, str] = {
    "ping_turn": "Du bist dran an Tisch {table}.",
    "notify_off": "Aus: der Bot schreibt dich nicht an, wenn du dran bist.",
    "notify_now": "Sofort: der Bot schreibt dich an, sobald du dran bist.",
    "notify_after": (
        "Nach {seconds} s: der Bot schreibt dich an, wenn du so lange dran bist, ohne zu spielen."
    ),
    "notify_how": "Per DM mit einem Link zum Tisch; sind deine DMs zu, im Kanal des Tisches.",
}

EN: dict[str, str] = {
    "ping_turn": "Your turn at table {table}.",
    "notify_off": "Off: the bot does not ping you when it is your turn.",
    "notify_now": "At once: the bot pings you as soon as it is your turn.",
    "notify_after": "After {seconds} s: the bot pings you when your turn has waited that long.",
    "notify_how": "By DM with a link to the table; if your DMs are closed, in the table's channel.",
}
