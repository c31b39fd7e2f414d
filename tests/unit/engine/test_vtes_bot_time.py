"""VTES bots and the tournament time limit (shared/rules/vtes.md, "Tournament rules"): time needs
two players' calls, so a bot agrees once another player has called it (else a person at a table of
bots could never end on time), and never calls it first."""

from __future__ import annotations

from engine.games.vtes.vocab import End, Step
from tests.support.vtes_table import advance, build_vtes


def test_bots_agree_when_a_person_calls_time_and_the_game_ends_on_time() -> None:
    local = build_vtes(seed=3, seats=4, options={"ruleset": "tournament"})
    seat = local.seats[0]
    advance(local, lambda view: view.turn >= 3)
    assert not seat.view().time_calls  # the bots never called it by themselves
    local.submit(seat, "move", seat.move_body({"do": "time"}))
    advance(local, lambda view: view.time_called or view.step == Step.OVER, limit=200)
    view = seat.view()
    assert view.time_called and len(view.time_calls) >= 2
    local.run()
    state = local.table.gstate
    assert state.step == Step.OVER and state.end == End.TIME
