"""``python -m bot``: the Discord bot, or a subcommand (replay, score, bench, arena, play)."""

import sys

from bot.cli import main

sys.exit(main())
