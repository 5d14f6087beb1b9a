"""Pure tournament planning: seating across rounds and tables, Pflichtsolo bookkeeping, standings.

Standard library only, no I/O: the engine persists what these functions return.
"""

from bot.tournament.participants import Participant, PlayerId, Substitute, is_substitute
from bot.tournament.pflichtsolo import (
    GameSlot,
    ListedGame,
    RoundCheck,
    RoundProblem,
    TableRound,
    check_round,
)
from bot.tournament.seating import (
    GameSeating,
    PlanningError,
    RoundPlan,
    TableAssignment,
    fill_with_substitutes,
    pair_meetings,
    plan_round,
    table_sizes,
)
from bot.tournament.standings import (
    AuditEntry,
    CorrectionError,
    GameRef,
    GameScore,
    StandingRow,
    TournamentResults,
    apply_correction,
    results_csv,
    round_standings,
    standings,
    table_standings,
    tournament_points,
)

__all__ = [
    "AuditEntry",
    "CorrectionError",
    "GameRef",
    "GameScore",
    "GameSeating",
    "GameSlot",
    "ListedGame",
    "Participant",
    "PlanningError",
    "PlayerId",
    "RoundCheck",
    "RoundPlan",
    "RoundProblem",
    "StandingRow",
    "Substitute",
    "TableAssignment",
    "TableRound",
    "TournamentResults",
    "apply_correction",
    "check_round",
    "fill_with_substitutes",
    "is_substitute",
    "pair_meetings",
    "plan_round",
    "results_csv",
    "round_standings",
    "standings",
    "table_sizes",
    "table_standings",
    "tournament_points",
]
