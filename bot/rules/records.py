"""The JSON documents: game records (``doko-game/1``) and score sheets (``doko-score/1``).

Parsing is strict: an unknown key, card or call is a ``RecordError`` with a message that says
what is wrong and where, so a malformed file never turns into a traceback or a silent guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, assert_never

from bot.rules.calls import ABSAGEN, Call, Party, basic_call
from bot.rules.cards import Card, NotationError, parse_card
from bot.rules.contracts import Contract
from bot.rules.game import (
    Action,
    Announce,
    ArmutOffer,
    Deal,
    Declare,
    Game,
    IllegalActionError,
    Play,
    Reserve,
    ReturnCards,
    Schmeissen,
    TakeArmut,
)
from bot.rules.round import RoundContext
from bot.rules.ruleset import Ruleset, RulesetError
from bot.rules.scoring import (
    ImpossibleGame,
    ScoreFacts,
    ScoreResult,
    Sonderpunkt,
    check_possible,
    score,
)

GAME_FORMAT = "doko-game/1"
SCORE_FORMAT = "doko-score/1"


class RecordError(ValueError):
    """A document that is not a valid record or score sheet."""


class ImpossibleSheet(RecordError):
    """A well-formed score sheet of a game that cannot have happened; ``problem`` names the
    broken rule (for texts in the reader's language).
    """

    def __init__(self, problem: ImpossibleGame) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True, slots=True)
class GameRecord:
    deal: Deal
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class ReplayError:
    action_index: int
    reason: str  # machine-readable code
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "action_index": self.action_index,
            "reason": f"{self.reason}: {self.message}",
            "code": self.reason,
        }


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise RecordError(message)


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    _expect(
        isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi,
        f"{what} must be a whole number from {lo} to {hi}, not {value!r}",
    )
    return int(value)


def _card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except NotationError as err:
        raise RecordError(f"{where}: {err}") from None


def _rules(data: dict[str, Any]) -> Ruleset:
    try:
        rules = data.get("rules")
        return Ruleset.from_dict({} if rules is None else rules)
    except RulesetError as err:
        raise RecordError(f"rules: {err}") from None


def _check_keys(obj: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(obj) - allowed)
    _expect(not unknown, f"{where}: unknown key(s) {', '.join(map(repr, unknown))}")


# -- game records ---------------------------------------------------------------------------


def round_from_dict(value: Any) -> RoundContext | None:
    if value is None:
        return None
    _expect(isinstance(value, dict), "round must be an object")
    _check_keys(value, {"games_left", "pflichtsolo_done"}, "round")
    games_left = _int(value.get("games_left"), "round.games_left", 0, 1000)
    done = value.get("pflichtsolo_done")
    _expect(
        isinstance(done, list) and len(done) == 4 and all(isinstance(d, bool) for d in done),
        "round.pflichtsolo_done must be a list of four true/false values",
    )
    return RoundContext(games_left, (done[0], done[1], done[2], done[3]))


def round_to_dict(ctx: RoundContext) -> dict[str, Any]:
    return {"games_left": ctx.games_left, "pflichtsolo_done": list(ctx.pflichtsolo_done)}


ACTION_KINDS = ("reserve", "declare", "play", "call", "schmeissen", "armut", "take_armut", "return")


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    _expect(isinstance(value, list), f"{where} must be a list of cards")
    return tuple(_card(c, f"{where}[{i}]") for i, c in enumerate(value))


def action_from_dict(obj: Any, index: int) -> Action:
    where = f"actions[{index}]"
    _expect(isinstance(obj, dict), f"{where} must be an object")
    seat = _int(obj.get("seat"), f"{where}.seat", 0, 3)
    kinds = [k for k in ACTION_KINDS if k in obj]
    _expect(
        len(kinds) == 1,
        f"{where} must have exactly one of {', '.join(map(repr, ACTION_KINDS))}",
    )
    _check_keys(obj, {"seat", kinds[0]}, where)
    value = obj[kinds[0]]
    match kinds[0]:
        case "reserve":
            _expect(isinstance(value, bool), f"{where}.reserve must be true or false")
            return Reserve(seat, value)
        case "declare":
            allowed = {c.value for c in Contract if c.is_declared_solo} | {"hochzeit"}
            _expect(
                isinstance(value, str) and value in allowed,
                f"{where}.declare must be one of {', '.join(sorted(allowed))}, not {value!r}",
            )
            return Declare(seat, Contract(value))
        case "play":
            return Play(seat, _card(value, f"{where}.play"))
        case "schmeissen":
            _expect(value is True, f"{where}.schmeissen must be true")
            return Schmeissen(seat)
        case "armut":
            return ArmutOffer(seat, _cards(value, f"{where}.armut"))
        case "take_armut":
            _expect(isinstance(value, bool), f"{where}.take_armut must be true or false")
            return TakeArmut(seat, value)
        case "return":
            return ReturnCards(seat, _cards(value, f"{where}.return"))
        case _:
            calls = {c.value for c in Call}
            _expect(
                isinstance(value, str) and value in calls,
                f"{where}.call must be one of {', '.join(c.value for c in Call)}, not {value!r}",
            )
            return Announce(seat, Call(value))


def action_to_dict(action: Action) -> dict[str, Any]:
    match action:
        case Reserve():
            return {"seat": action.seat, "reserve": action.reserve}
        case Declare():
            return {"seat": action.seat, "declare": str(action.contract)}
        case Play():
            return {"seat": action.seat, "play": action.card.code}
        case Announce():
            return {"seat": action.seat, "call": str(action.call)}
        case Schmeissen():
            return {"seat": action.seat, "schmeissen": True}
        case ArmutOffer():
            return {"seat": action.seat, "armut": [c.code for c in action.cards]}
        case TakeArmut():
            return {"seat": action.seat, "take_armut": action.take}
        case ReturnCards():
            return {"seat": action.seat, "return": [c.code for c in action.cards]}
        case _:
            assert_never(action)


def deal_from_dict(data: dict[str, Any]) -> Deal:
    rules = _rules(data)
    dealer = _int(data.get("dealer"), "dealer", 0, 3)
    hands_raw: list[Any] = data.get("hands")  # type: ignore[assignment]
    _expect(
        isinstance(hands_raw, list)
        and len(hands_raw) == 4
        and all(isinstance(h, list) for h in hands_raw),
        "hands must be a list of four lists of cards",
    )
    hands = tuple(
        tuple(_card(c, f"hands[{s}][{i}]") for i, c in enumerate(h))
        for s, h in enumerate(hands_raw)
    )
    seed = data.get("seed")
    _expect(
        seed is None or (isinstance(seed, int) and not isinstance(seed, bool)),
        "seed must be a number",
    )
    bock = _int(data.get("bock", 1), "bock", 1, 1 << 20)
    try:
        return Deal(hands, dealer, round_from_dict(data.get("round")), rules, seed, bock)
    except ValueError as err:
        raise RecordError(f"hands: {err}") from None


def game_record_from_dict(data: Any) -> GameRecord:
    """Parse a ``doko-game/1`` document (not yet checked against the rules)."""
    _expect(isinstance(data, dict), "a game record must be a JSON object")
    _expect(
        data.get("format") == GAME_FORMAT,
        f"format must be {GAME_FORMAT!r}, not {data.get('format')!r}",
    )
    _check_keys(
        data,
        {"format", "rules", "dealer", "round", "bock", "hands", "actions", "seed", "meta"},
        "record",
    )
    deal = deal_from_dict(data)
    raw = data.get("actions", [])
    _expect(isinstance(raw, list), "actions must be a list")
    return GameRecord(deal, tuple(action_from_dict(a, i) for i, a in enumerate(raw)))


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": GAME_FORMAT,
        "rules": deal.ruleset.to_dict(),
        "dealer": deal.dealer,
    }
    if deal.round is not None:
        out["round"] = round_to_dict(deal.round)
    if deal.bock != 1:
        out["bock"] = deal.bock
    out["hands"] = [[c.code for c in h] for h in deal.hands]
    if deal.seed is not None:
        out["seed"] = deal.seed
    return out


def game_record_to_dict(game: Game) -> dict[str, Any]:
    out = deal_to_dict(game.deal)
    out["actions"] = [action_to_dict(a) for a in game.actions]
    return out


def replay_record(record: GameRecord) -> tuple[Game, ReplayError | None]:
    """Apply the record's actions one by one; stop at the first illegal one."""
    game = Game(record.deal)
    for index, action in enumerate(record.actions):
        try:
            game.apply(action)
        except IllegalActionError as err:
            return game, ReplayError(index, err.reason, str(err))
    return game, None


def game_summary(game: Game) -> dict[str, Any]:
    """The ``replay --json`` object: what the rules decided, trick by trick."""
    h = game.hochzeit
    out: dict[str, Any] = {
        "contract": str(game.contract) if game.contract else None,
        "re_seats": [s for s in range(4) if game.parties[s] is Party.RE],
        "soloist": game.soloist,
        "solo_kind": str(game.solo_kind) if game.solo_kind else None,
        "vorgefuehrt": game.vorgefuehrt,
        "hochzeit": None
        if h is None
        else {
            "hochzeiter": h.hochzeiter,
            "clarification_trick": h.clarification_trick,
            "partner": h.partner,
        },
        "calls": [{"seat": s, "call": str(c), "cards_in_hand": n} for s, c, n in game.calls],
        "tricks": [
            {
                "leader": t.leader,
                "cards": [c.code for c in t.cards],
                "winner": t.winner,
                "augen": t.augen,
            }
            for t in game.tricks
        ],
        "finished": game.finished,
        "result": game.result.to_dict() if game.result else None,
    }
    # House rules: present only when they happened, so DDV summaries stay as they were.
    if game.deal.bock != 1:
        out["bock"] = game.deal.bock
    if game.redeal is not None:
        out["redeal"] = str(game.redeal)
    if game.schweinchen is not None:
        out["schweinchen"] = game.schweinchen
    a = game.armut
    if a is not None:
        out["armut"] = {
            "poor": a.poor,
            "cards": [c.code for c in a.cards],
            "declined": list(a.declined),
            "taker": a.taker,
            "returned": None if a.returned is None else [c.code for c in a.returned],
        }
    if game.finished and game.result is not None:
        triggers = game.bock_triggers()
        if triggers:
            out["bock_triggers"] = [str(t) for t in triggers]
    if game.contract is None:
        out["re_seats"] = []
    if not game.finished:
        out["current_trick"] = {
            "leader": game.leader,
            "cards": [c.code for c in game.current],
        }
        out["next"] = {"seat": game.to_act(), "phase": str(game.phase)}
    else:
        out["next_dealer"] = game.next_dealer()
        nxt = game.next_round()
        if nxt is not None:
            out["next_round"] = round_to_dict(nxt)
    return out


# -- score sheets ---------------------------------------------------------------------------


def score_facts_from_dict(data: Any) -> tuple[ScoreFacts, list[str]]:
    """Parse a ``doko-score/1`` sheet into scoring facts, with notes on what was ignored."""
    _expect(isinstance(data, dict), "a score sheet must be a JSON object")
    _expect(
        data.get("format") == SCORE_FORMAT,
        f"format must be {SCORE_FORMAT!r}, not {data.get('format')!r}",
    )
    _check_keys(
        data,
        {
            "format",
            "rules",
            "contract",
            "re_seats",
            "calls",
            "re_augen",
            "re_tricks",
            "kontra_augen",
            "kontra_tricks",
            "special",
            "bock",
            "meta",
        },
        "score sheet",
    )
    rules = _rules(data)
    contract_raw = data.get("contract", "normal")
    _expect(
        isinstance(contract_raw, str) and contract_raw in {c.value for c in Contract},
        f"contract must be one of {', '.join(c.value for c in Contract)}, not {contract_raw!r}",
    )
    contract = Contract(contract_raw)
    seats = data.get("re_seats")
    n_re = 1 if contract.scored_as_solo else 2
    _expect(
        isinstance(seats, list)
        and len(seats) == n_re
        and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 3 for s in seats)
        and len(set(seats)) == n_re,
        f"re_seats must list {n_re} distinct seat(s) 0..3 for a {contract} game",
    )
    calls = data.get("calls")
    calls = {} if calls is None else calls
    _expect(isinstance(calls, dict), 'calls must be an object {"re": ..., "kontra": ...}')
    _check_keys(calls, {"re", "kontra"}, "calls")
    levels: dict[Party, int] = {}
    for party in Party:
        value = calls.get(str(party))
        if value is None:
            levels[party] = -1
            continue
        allowed = [basic_call(party), *ABSAGEN]
        _expect(
            isinstance(value, str) and value in {c.value for c in allowed},
            f"calls.{party} must be null or one of {', '.join(c.value for c in allowed)}, "
            f"not {value!r}",
        )
        call = Call(value)
        _expect(
            rules.absagen_enabled or call.level == 0,
            f"calls.{party}: Absagen are switched off by the rules",
        )
        levels[party] = call.level
    tricks_total = rules.tricks
    re_augen = _int(data.get("re_augen"), "re_augen", 0, 240)
    re_tricks = _int(data.get("re_tricks"), "re_tricks", 0, tricks_total)
    if "kontra_augen" in data:
        _expect(
            _int(data["kontra_augen"], "kontra_augen", 0, 240) == 240 - re_augen,
            "re_augen and kontra_augen must add up to 240",
        )
    if "kontra_tricks" in data:
        _expect(
            _int(data["kontra_tricks"], "kontra_tricks", 0, tricks_total)
            == tricks_total - re_tricks,
            f"re_tricks and kontra_tricks must add up to {tricks_total}",
        )
    specials_raw = data.get("special")
    specials_raw = [] if specials_raw is None else specials_raw
    _expect(isinstance(specials_raw, list), "special must be a list")
    specials: list[tuple[Sonderpunkt, Party]] = []
    kinds = {Sonderpunkt.FUCHS, Sonderpunkt.DOPPELKOPF, Sonderpunkt.KARLCHEN}
    for i, entry in enumerate(specials_raw):
        where = f"special[{i}]"
        _expect(isinstance(entry, dict), f"{where} must be an object {{kind, party}}")
        _check_keys(entry, {"kind", "party"}, where)
        kind = entry.get("kind")
        if kind == Sonderpunkt.GEGEN_DIE_ALTEN:
            raise RecordError(f"{where}: 'gegen_die_alten' is derived from the result, not entered")
        _expect(
            isinstance(kind, str) and kind in {k.value for k in kinds},
            f"{where}.kind must be one of fuchs, doppelkopf, karlchen, not {kind!r}",
        )
        party = entry.get("party")
        _expect(
            isinstance(party, str) and party in ("re", "kontra"),
            f"{where}.party must be 're' or 'kontra'",
        )
        specials.append((Sonderpunkt(kind), Party(party)))
    notes: list[str] = []
    if specials and contract.scored_as_solo:
        notes.append(f"Sonderpunkte do not count in a {contract} game: ignored")
    facts = ScoreFacts(
        contract=contract,
        re_seats=tuple(seats),
        re_level=levels[Party.RE],
        kontra_level=levels[Party.KONTRA],
        re_augen=re_augen,
        re_tricks=re_tricks,
        specials=tuple(specials),
        ruleset=rules,
        bock=_int(data.get("bock", 1), "bock", 1, 1 << 20),
    )
    try:
        check_possible(facts)
    except ImpossibleGame as problem:
        raise ImpossibleSheet(problem) from None
    return facts, notes


def score_sheet(data: Any) -> ScoreResult:
    facts, _ = score_facts_from_dict(data)
    try:
        return score(facts)
    except ValueError as err:
        raise RecordError(str(err)) from None
