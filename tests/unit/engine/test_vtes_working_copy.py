"""The working copy a VTES act mutates (engine/games/vtes/work.py) carries every field of the
state: one it does not touch comes out as it went in, a field added to the state included
(STYLE.md: a working copy is made from the state's own fields, never field by field by hand)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.base import IllegalMove
from engine.games.vtes import VTES, bundled_decks
from engine.games.vtes.simulate import vtes_table
from engine.games.vtes.state import VtesState
from engine.games.vtes.work import Work


@dataclass(frozen=True)
class GrownState(VtesState):
    """The state with one field more, as a later version might add (``dataclasses.replace`` and
    ``fields`` see it; a copy listing fields by hand would drop it)."""

    added: Any = None


def grown(state: VtesState, added: Any) -> GrownState:
    return GrownState(**{f.name: getattr(state, f.name) for f in fields(state)}, added=added)


@pytest.fixture(scope="module")
def played() -> list[VtesState]:
    """The states of a dealt three-seat table while its first Methuselahs go through their phases
    and end their turns (no hidden card is opened: every act is a phase or an end of turn)."""
    table = vtes_table(bundled_decks()[:3], {}, seed=5)
    states = [table.state]
    for _ in range(12):
        acting = table.state.acting
        try:
            table.play(acting, {"do": "phase"})
        except IllegalMove:
            table.play(acting, {"do": "end_turn"})
        table.run_ops()
        states.append(table.state)
    return states


def test_the_working_copy_declares_every_field_of_the_state():
    hints = get_type_hints(Work)
    assert [f.name for f in fields(VtesState) if f.name not in hints] == []


def test_a_state_frozen_untouched_from_its_working_copy_is_the_same_state(played):
    assert len({s.turn for s in played}) > 1, "the play goes past a turn"
    for state in played:
        assert Work(state).freeze() == state


def test_every_field_an_act_does_not_touch_comes_out_as_it_went_in(played):
    state = played[0]
    after, _ = VTES.apply(state, state.acting, {"do": "phase"}, {})
    changed = {f.name for f in fields(VtesState) if getattr(after, f.name) != getattr(state, f.name)}
    assert changed <= {"phase", "acts", "answers", "transfers", "queue", "cards", "players", "edge_used"}, changed
    assert {"phase", "acts", "answers"} <= changed  # a phase answers the table (PROTOCOL.md 6.5)


@settings(max_examples=25, deadline=None)
@given(
    added=st.one_of(st.integers(), st.text(max_size=8), st.tuples(st.integers(), st.booleans())),
    at=st.integers(min_value=0, max_value=12),
)
def test_a_field_added_to_the_state_survives_every_act_operation_and_abandon(played, added, at):
    state = grown(played[at], added)
    for after in (
        Work(state).freeze(),
        VTES.apply(state, state.acting, {"do": "end_turn"}, {})[0],
        VTES.abandon(state, (state.acting + 1) % state.seats)[0],
    ):
        assert type(after) is GrownState and after.added == added
