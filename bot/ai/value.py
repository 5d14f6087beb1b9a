"""Game value of a playout's end, through the rules core's own scoring, cached."""

from __future__ import annotations

from functools import cache

from bot.rules.contracts import Contract
from bot.rules.ruleset import Ruleset
from bot.rules.scoring import ScoreFacts, score


@cache
def re_value(
    solo: bool, re_level: int, kontra_level: int, re_augen: int, re_tricks: int, ruleset: Ruleset
) -> int:
    """Re's game value (per Re player; a soloist gets 3×) without the Sonderpunkte earned in play.

    Only 0, some and all tricks matter beyond the Augen, so callers may pass any middle count.
    """
    facts = ScoreFacts(
        contract=Contract.STILLE_HOCHZEIT if solo else Contract.NORMAL,
        re_seats=(0,) if solo else (0, 1),
        re_level=re_level,
        kontra_level=kontra_level,
        re_augen=re_augen,
        re_tricks=re_tricks,
        ruleset=ruleset,
    )
    return score(facts).game_value


def tricks_class(re_tricks: int, total: int) -> int:
    """Collapse a trick count to 0, 1 or ``total``: all the scoring can tell apart."""
    if re_tricks == 0 or re_tricks == total:
        return re_tricks
    return 1
