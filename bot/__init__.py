"""doko: a Discord bot that runs Doppelkopf tables."""
