"""Game value of a playout's end, through the rules core's own scoring, cached."""

from __future__ import annotations

from functools import cache

import numpy as np

from bot.ai.playout import Bools, Ints
from bot.rules.contracts import Contract
from bot.rules.ruleset import Ruleset
from bot.rules.scoring import TOTAL_AUGEN, ScoreFacts, score


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


_UNSCORED = np.iinfo(np.int64).min
_SPAN = TOTAL_AUGEN + 1
# Per (Re level, Kontra level, ruleset): the value of every (solo, 0/some/all tricks, Augen)
# end, filled in as ends turn up.
_tables: dict[tuple[int, int, Ruleset], Ints] = {}


def values(
    solo: Bools,
    re_level: int,
    kontra_level: int,
    re_augen: Ints,
    re_tricks: Ints,
    ruleset: Ruleset,
) -> Ints:
    """``re_value`` of each game of a batch, from a table of the ends scored so far."""
    total = ruleset.tricks
    # 0, some or all tricks: all the scoring can tell apart.
    tricks = np.where(re_tricks == 0, 0, np.where(re_tricks == total, 2, 1))
    key = (solo * 3 + tricks) * _SPAN + re_augen
    table = _tables.get((re_level, kontra_level, ruleset))
    if table is None:
        table = _tables[re_level, kontra_level, ruleset] = np.full(6 * _SPAN, _UNSCORED)
    out = table.take(key)
    new = out == _UNSCORED
    if new.any():
        counts = (0, 1, total)
        for k in np.unique(key[new]).tolist():
            table[k] = re_value(
                k >= 3 * _SPAN, re_level, kontra_level, k % _SPAN, counts[k // _SPAN % 3], ruleset
            )
        out = table.take(key)
    return out
