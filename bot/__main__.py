"""``python -m bot``: the Discord bot, or a subcommand (play, arena, sync, replay, score, bench)."""

import sys

from bot.cli import main

sys.exit(main())
