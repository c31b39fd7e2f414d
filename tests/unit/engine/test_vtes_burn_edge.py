"""The Edge burned for a card's text (rulebook, "Requirements for Playing Cards": "the Methuselah
must control the Edge to burn it for a cost"): its holder burns it naming a face-up card of its own
whose text speaks of the Edge (Emily Carson: "During your discard phase, Emily can burn the Edge to
unlock"); the Edge then belongs to nobody, narrated with the card's name, and the card's effect is
applied where the table reads it (Emily unlocks; Victoria's Methuselah gains 2 pool), at the time
its text says. Refused, with a sentence and no change, when the seat does not hold the Edge or names
a card that is not its own, face down, or silent about the Edge, or the card's effect may not be had
now (another phase, another's turn, not ready, nothing to unlock). It is no offer (the bots never
burn it so) and answers nothing the table waits for. The log replays to the same state.

Every crypt is twelve Emily Carson (contested copies turned face up by hand)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.games.base import Act, IllegalMove, MalformedAct
from engine.games.vtes import VTES
from engine.games.vtes.claims import ANSWERS_NOTHING
from engine.games.vtes.vocab import Do
from engine.sim import SimTable
from tests.support.vtes_sim import (
    CHOSEN_LIBRARY,
    copy_table,
    first_vampire,
    logged,
    minion_phase_table,
    one_vampire_table,
    replayed,
)

NAMES = ("Ana", "Ben", "Cy", "Dee")
"""The names :func:`~tests.support.vtes_sim.logged` renders seats 0 to 3 with."""


def _emily_table(phase: str = "discard") -> tuple[SimTable, int, int]:
    """Four seats of Emily Carson in Ana's ``phase``, Ana's Emily locked; Ana holds the Edge.
    Returns the table, Ana and Ben (her prey)."""
    t = one_vampire_table("Emily Carson", CHOSEN_LIBRARY, seed=3, phase=phase)
    ana = t.state.acting
    t.state = replace(t.state, edge=ana)
    t.play(ana, {"do": "lock", "cards": [first_vampire(t, ana)]})
    return t, ana, t.view(ana).players[ana].prey


def _refused(t: SimTable, seat: int, act: Act) -> str:
    before = t.state
    with pytest.raises(IllegalMove) as err:
        t.play(seat, act)
    assert t.state == before
    return str(err.value)


def test_the_holder_burns_the_edge_for_its_own_card_and_nobody_has_it() -> None:
    t, ana, _ = _emily_table()
    emily = first_vampire(t, ana)
    pool = [p.pool for p in t.state.players]
    done: list[tuple[int, Act]] = []
    said = logged(t, done, ana, {"do": "burn_edge", "by": emily})
    assert t.state.edge == -1 and t.view(ana).edge == -1
    assert said == (
        f"{NAMES[ana]} burns the Edge for Emily Carson (G5)",
        "Emily Carson (G5) unlocks (the Edge burned for it)",
    )
    assert not t.state.cards[t.state.cards.index(_card(t, emily))].locked
    assert pool == [p.pool for p in t.state.players]


def _card(t: SimTable, pos: list[int]) -> Any:
    return next(c for c in t.state.cards if list(c.pos) == pos)


def test_emily_is_refused_outside_her_methuselah_s_discard_phase_and_when_unlocked() -> None:
    t, ana, _ = _emily_table("minion")
    emily = first_vampire(t, ana)
    said = _refused(t, ana, {"do": "burn_edge", "by": emily})
    assert said == (
        "Emily Carson (G5)'s Methuselah may burn the Edge for it during your discard phase, and this is the minion phase"
    )
    t, ana, ben = _emily_table()
    t.state = replace(t.state, edge=ben)
    said = _refused(t, ben, {"do": "burn_edge", "by": first_vampire(t, ben)})
    assert (
        said
        == f"Emily Carson (G5)'s Methuselah may burn the Edge for it during your discard phase, and this is {{s{ana}}}'s turn"
    )
    t, ana, _ = _emily_table()
    t.play(ana, {"do": "unlock", "cards": [emily := first_vampire(t, ana)]})
    said = _refused(t, ana, {"do": "burn_edge", "by": emily})
    assert said == "Emily Carson (G5) is not locked: burning the Edge to unlock it would do nothing"


def test_victoria_s_methuselah_gains_2_pool_in_her_master_phase_while_she_is_ready() -> None:
    t = one_vampire_table("Victoria (G2)", CHOSEN_LIBRARY, seed=3, phase="master")
    ana = t.state.acting
    t.state = replace(t.state, edge=ana)
    pool = t.state.players[ana].pool
    said = logged(t, [], ana, {"do": "burn_edge", "by": first_vampire(t, ana)})
    assert said[-1] == f"Victoria (G2): {NAMES[ana]} burns the Edge and gains 2 pool", said
    assert t.state.players[ana].pool == pool + 2 and t.state.edge == -1


def test_the_log_replays_to_the_same_state() -> None:
    t, ana, ben = _emily_table()
    start = copy_table(t)
    done: list[tuple[int, Act]] = []
    logged(t, done, ana, {"do": "burn_edge", "by": first_vampire(t, ana)})
    logged(t, done, ana, {"do": "phase"})
    assert replayed(start, done, ops=True).state == t.state


def test_a_seat_without_the_edge_is_refused() -> None:
    t, ana, ben = _emily_table()
    said = _refused(t, ben, {"do": "burn_edge", "by": first_vampire(t, ben)})
    assert said == f"only the Methuselah who controls the Edge may burn it, and {{s{ana}}} has it"
    t.state = replace(t.state, edge=-1)
    said = _refused(t, ana, {"do": "burn_edge", "by": first_vampire(t, ana)})
    assert said == "only the Methuselah who controls the Edge may burn it, and nobody has it"


def test_another_methuselahs_card_is_refused() -> None:
    t, ana, ben = _emily_table()
    said = _refused(t, ana, {"do": "burn_edge", "by": first_vampire(t, ben)})
    assert said.startswith("the card that lets you burn the Edge must be a card you control, and Emily Carson")
    assert said.endswith(f"is {{s{ben}}}'s: only its Methuselah may use it")


def test_a_face_down_card_is_refused() -> None:
    t, ana, _ = _emily_table()
    hand = next(c.pos for c in t.state.cards if c.owner == ana and c.zone == "hand")
    said = _refused(t, ana, {"do": "burn_edge", "by": list(hand)})
    assert said == "the card that lets you burn the Edge must be face up"


def test_a_card_whose_text_says_nothing_of_the_edge_is_refused() -> None:
    t = minion_phase_table()
    ana = t.state.acting
    t.state = replace(t.state, edge=ana)
    vampire = first_vampire(t, ana)
    name = next(c.name for c in t.view(ana).cards if c.as_list() == vampire)
    said = _refused(t, ana, {"do": "burn_edge", "by": vampire})
    assert said == f"{name} says nothing of the Edge: name the card of yours whose text lets you burn it"


def test_the_act_needs_its_card() -> None:
    t, ana, _ = _emily_table()
    with pytest.raises(MalformedAct, match="the burn_edge act needs 'by'"):
        t.play(ana, {"do": "burn_edge"})


def test_it_is_never_offered_and_answers_no_wait() -> None:
    t, ana, _ = _emily_table()
    assert all(a["do"] != Do.BURN_EDGE for a in VTES.legal_acts(t.view(ana)))
    assert Do.BURN_EDGE in ANSWERS_NOTHING
    position = t.pending().position
    t.play(ana, {"do": "burn_edge", "by": first_vampire(t, ana)})
    assert t.pending().position == position  # the acting Methuselah's turn still waits on her
