"""What the VTES narration tells a player, in the order things happen (engine.games.vtes.rules,
engine.games.vtes.game.describe_act): the end of a turn, a card turned face up by a move."""

from __future__ import annotations

from engine.games.base import Note
from tests.support.vtes_sim import act, minion_phase_table

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def lines(notes: tuple[Note, ...]) -> list[str]:
    return [n.render(NAMES) for n in notes]


def test_ending_the_turn_names_no_phase_after_the_turn_has_ended() -> None:
    t = minion_phase_table()
    me = t.state.acting
    said = lines(act(t, me, "end_turn"))
    assert said[0] == f"{NAMES[me]} ends the turn"
    assert not any(line.endswith(" phase") or ": influence phase" in line for line in said), said
    assert any(line.startswith("Turn ") for line in said), said
