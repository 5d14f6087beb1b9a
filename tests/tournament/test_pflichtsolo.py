"""Pflichtsolo bookkeeping across a whole round, checked against the rules core."""

from __future__ import annotations

from collections.abc import Callable

from bot.rules.contracts import Contract
from bot.rules.game import Deal, Game, Phase
from bot.rules.round import RoundContext, SoloKind
from bot.tournament.pflichtsolo import GameSlot, ListedGame, TableRound, check_round

NORMAL = ListedGame(Contract.NORMAL)


def pflicht(seat: int) -> ListedGame:
    return ListedGame(Contract.SOLO_DAMEN, SoloKind.PFLICHT, seat)


def lust(seat: int) -> ListedGame:
    return ListedGame(Contract.SOLO_KREUZ, SoloKind.LUST, seat)


def vorgefuehrt(seat: int) -> ListedGame:
    return ListedGame(Contract.SOLO_BUBEN, SoloKind.VORGEFUEHRT, seat)


def play_round(
    size: int, first_dealer: int, choose: Callable[[GameSlot, TableRound], ListedGame]
) -> list[ListedGame]:
    """A whole round: ``choose`` picks each game unless someone is vorgeführt."""
    state = TableRound.start(size, first_dealer)
    spielliste: list[ListedGame] = []
    while not state.finished:
        slot = state.slot()
        game = (
            vorgefuehrt(slot.vorgefuehrt) if slot.vorgefuehrt is not None else choose(slot, state)
        )
        spielliste.append(game)
        state = state.after(game)
        assert len(spielliste) < 40, "the round never ends"
    return spielliste


def core_vorgefuehrt(slot: GameSlot, seed: int) -> int | None:
    """Who the rules core's Game forces to play, as a table seat."""
    game = Game(Deal.shuffled(seed, slot.game_dealer, slot.context))
    if game.vorgefuehrt is None:
        return None
    assert game.phase is Phase.DECLARE  # no Vorbehaltsabfrage for a vorgeführt seat
    return slot.table_seats[game.vorgefuehrt]


def test_a_player_who_never_declares_is_vorgefuehrt_in_the_last_game() -> None:
    """Seats 0-2 play their Pflichtsoli early; seat 3 never does and is vorgeführt at the end."""
    early = {1: pflicht(0), 6: pflicht(1), 11: pflicht(2)}
    spielliste = play_round(4, 1, lambda slot, _: early.get(slot.number, NORMAL))

    # 24 games plus the three re-dealt Pflichtsoli; the vorgeführtes solo takes a slot.
    assert len(spielliste) == 27
    check = check_round(spielliste, first_dealer=1)
    assert check.ok, check.problems
    forced = [(s.number, s.vorgefuehrt) for s in check.slots if s.vorgefuehrt is not None]
    assert forced == [(27, 3)]
    last = check.slots[-1]
    # One Pflichtsolo missing and one game left: TSR 4.2's trigger, seen by RoundContext.
    assert last.context == RoundContext(1, (True, True, True, False))
    assert last.context.vorgefuehrt(last.game_dealer) == 3
    for slot in check.slots:
        assert core_vorgefuehrt(slot, seed=slot.number) == slot.vorgefuehrt
    # The same dealer deals again after a Pflichtsolo.
    assert check.slots[1].dealer == check.slots[0].dealer == 1
    assert check.final.finished


def test_two_owing_players_are_vorgefuehrt_from_the_dealers_left() -> None:
    """With two open Pflichtsoli the last two games are theirs, nearest the dealer's left first."""
    spielliste = play_round(
        4, 0, lambda slot, _: {3: pflicht(2), 4: pflicht(0)}.get(slot.number, NORMAL)
    )
    check = check_round(spielliste)
    assert check.ok, check.problems
    forced = [s for s in check.slots if s.vorgefuehrt is not None]
    assert [s.context.games_left for s in forced] == [2, 1]
    first, second = forced
    # Seats 1 and 3 owe; the one reached first going left from the dealer plays first.
    order = [(first.dealer + k) % 4 for k in range(1, 5)]
    assert first.vorgefuehrt == min((1, 3), key=order.index)
    assert {first.vorgefuehrt, second.vorgefuehrt} == {1, 3}
    for slot in check.slots:
        assert core_vorgefuehrt(slot, seed=slot.number) == slot.vorgefuehrt


def test_the_dealer_himself_can_be_vorgefuehrt() -> None:
    state = TableRound(4, dealer=2, games_left=1, pflichtsolo_done=(True, True, False, True))
    slot = state.slot()
    assert slot.vorgefuehrt == 2
    assert core_vorgefuehrt(slot, seed=1) == 2


def test_a_missed_vorfuehren_and_an_unfinished_round_are_reported() -> None:
    spielliste = [pflicht(0), pflicht(1), pflicht(2), *[NORMAL] * 24]
    reasons = {(p.game, p.reason) for p in check_round(spielliste).problems}
    assert (27, "vorfuehren_missed") in reasons
    assert (None, "round_incomplete") in reasons


def test_lustsolo_before_pflichtsolo_and_a_second_pflichtsolo_are_reported() -> None:
    spielliste = [lust(0), pflicht(1), pflicht(1)]
    reasons = [(p.game, p.reason) for p in check_round(spielliste).problems]
    assert (1, "lustsolo_before_pflichtsolo") in reasons
    assert (3, "second_pflichtsolo") in reasons


def test_inconsistent_lines_are_reported() -> None:
    bad = [
        ListedGame(Contract.NORMAL, SoloKind.PFLICHT, 0),
        ListedGame(Contract.SOLO_PIK),
        ListedGame(Contract.SOLO_PIK, SoloKind.PFLICHT),
        ListedGame(Contract.SOLO_PIK, SoloKind.PFLICHT, 7),
        vorgefuehrt(1),
    ]
    reasons = [p.reason for p in check_round(bad).problems]
    for reason in ("not_a_solo", "solo_kind_missing", "soloist_missing", "no_such_seat", "not_due"):
        assert reason in reasons


def test_games_after_the_round_are_reported() -> None:
    spielliste = [pflicht(s) for s in range(4)] + [NORMAL] * 25
    reasons = [(p.game, p.reason) for p in check_round(spielliste).problems]
    assert reasons == [(29, "after_round_end")]


def test_lustsolo_after_the_pflichtsolo_moves_the_deal_on() -> None:
    spielliste = play_round(
        4, 0, lambda slot, _: {1: pflicht(0), 2: lust(0)}.get(slot.number, NORMAL)
    )
    check = check_round(spielliste)
    assert check.ok, check.problems
    assert [s.dealer for s in check.slots[:3]] == [0, 0, 1]
    assert check.slots[2].context.games_left == 23


def test_five_table_round_every_player_one_pflichtsolo() -> None:
    """Five players, 24 games: the dealer sits out, everyone plays one Pflichtsolo."""

    def choose(slot: GameSlot, state: TableRound) -> ListedGame:
        # Seat 4 never declares; the others take their Pflichtsolo when first able to.
        for seat in slot.table_seats:
            if seat != 4 and not state.pflichtsolo_done[seat]:
                return pflicht(seat)
        return NORMAL

    spielliste = play_round(5, 0, choose)
    check = check_round(spielliste, size=5)
    assert check.ok, check.problems
    assert len(spielliste) == 24 + 4
    for slot in check.slots:
        assert slot.sitting_out == slot.dealer
        assert slot.sitting_out not in slot.table_seats
        assert core_vorgefuehrt(slot, seed=slot.number) == slot.vorgefuehrt
    forced = [s for s in check.slots if s.vorgefuehrt is not None]
    assert [s.vorgefuehrt for s in forced] == [4]
    assert forced[0].number == len(spielliste)
    soloists = [
        g.soloist for g in spielliste if g.solo_kind in (SoloKind.PFLICHT, SoloKind.VORGEFUEHRT)
    ]
    assert sorted(soloists) == [0, 1, 2, 3, 4]  # type: ignore[type-var]


def test_five_table_counts_the_sitting_out_dealers_open_pflichtsolo() -> None:
    """Two open Pflichtsoli, two games left: due now, though one owner sits out."""
    state = TableRound(5, dealer=1, games_left=2, pflichtsolo_done=(True, False, True, False, True))
    slot = state.slot()
    assert slot.sitting_out == 1
    assert slot.vorgefuehrt == 3
    assert slot.context.games_left == 1  # the core sees one game for seat 3's open solo
    assert core_vorgefuehrt(slot, seed=3) == 3
    after = state.after(vorgefuehrt(3)).slot()
    assert after.dealer == 2 and after.vorgefuehrt == 1


def test_five_table_sitting_out_dealer_is_vorgefuehrt_one_game_later() -> None:
    """Documented assumption: a dealer who sits out cannot play; he follows in the next game."""
    state = TableRound(5, dealer=0, games_left=1, pflichtsolo_done=(False, True, True, True, True))
    slot = state.slot()
    assert slot.vorgefuehrt is None
    later = state.after(NORMAL)
    assert later.games_left == 0 and not later.finished
    assert later.slot().vorgefuehrt == 0
    assert later.after(vorgefuehrt(0)).finished
