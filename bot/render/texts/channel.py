"""Permissions the bot lacks in a channel, named for the player who opened a table."""

from __future__ import annotations

DE: dict[str, str] = {
    "err_channel_access": (
        "Der Bot kann in diesem Kanal nicht posten: gib ihm hier {missing}, "
        "dann versuche es noch einmal."
    ),
    "perm_view_channel": "Kanal ansehen",
    "perm_send_messages": "Nachrichten senden",
    "perm_embed_links": "Links einbetten",
    "perm_attach_files": "Dateien anhängen",
    "perm_create_public_threads": "Öffentliche Threads erstellen",
    "perm_send_messages_in_threads": "Nachrichten in Threads senden",
}

EN: dict[str, str] = {
    "err_channel_access": (
        "The bot cannot post in this channel: give it {missing} here, then try again."
    ),
    "perm_view_channel": "View Channel",
    "perm_send_messages": "Send Messages",
    "perm_embed_links": "Embed Links",
    "perm_attach_files": "Attach Files",
    "perm_create_public_threads": "Create Public Threads",
    "perm_send_messages_in_threads": "Send Messages in Threads",
}
