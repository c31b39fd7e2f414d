"""What the VTES narration tells a player, in the order things happen (engine.games.vtes.rules,
engine.games.vtes.game.describe_act): the end of a turn, a card turned face up by a move."""

from __future__ import annotations

from engine.games.base import Note
from engine.games.vtes.cards import card_base
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


def test_a_face_down_card_a_move_turns_face_up_is_named_once_it_is_public() -> None:
    t = minion_phase_table()
    me = t.state.acting
    top = t.state.players[me].crypt[0]  # never seen, even by its owner
    before = len(t.notes)
    act(t, me, "move", cards=[list(top)], to="ash")
    said = [n.render(NAMES) for n in t.notes[before:]]
    assert said[0] == f"{NAMES[me]} moves a face-down vampire to the ash heap", said  # face down as it moves
    card = next(c for c in t.state.cards if c.pos == top)
    name = card_base().info(card.card).name  # type: ignore[union-attr]
    assert f"{name} turns face up in {NAMES[me]}'s ash heap" in said, said
