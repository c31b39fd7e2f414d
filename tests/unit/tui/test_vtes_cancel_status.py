"""The status line while a card played inside an action waits for answers (the default table
rule cancels=all; engine.games.vtes.cancels): the seat whose answer it waits for reads the card and its
keys, not that the table waits for it, although the action's impulse is another's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from engine.games.vtes.state import Answer
from engine.sim import SimTable
from tests.support.vtes_sim import card_plays, one_vampire_table
from tests.support.vtes_sim import first_vampire as vampire
from tui.games.vtes.status_text import YOUR_TURN, vtes_status

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@dataclass
class _Table:
    """What the status line reads of the table: the names, whom it waits for, a move owed."""

    names: list[str]
    waited: list[int]

    def owes_move(self, seat: int | None) -> bool:
        return seat in self.waited

    def waiting_on(self) -> list[int]:
        return self.waited


def test_the_seat_asked_reads_the_card_and_its_keys_not_that_the_table_waits_for_it() -> None:
    library = (("Threats", 2), ("Direct Intervention", 2), ("Deflection", 3))
    t = one_vampire_table("Arika", library, seed=5, kind=SimTable)  # the window stays open
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    t.play(ana, {"do": "action", "kind": "bleed", "minion": vampire(t, ana), "target": ben})
    t.play(ana, card_plays(t, ana, "Threats")[0])
    t.run_ops()
    answer = t.state.innermost
    assert isinstance(answer, Answer) and answer.loop.holder == ben and t.state.open_action.impulse == ana
    names = [""] * 4
    for i, name in enumerate(NAMES):
        names[t.state.seating[(t.state.seating.index(ana) + i) % 4]] = name
    status = vtes_status(YOUR_TURN, t.view(ben), cast(Any, _Table(names, [ben])), ben)
    assert status is not None and status.text is not None
    assert "Ana's Threats: p cancels (Direct Intervention), . lets it through." in status.text, status.text
    assert status.text.startswith("The table waits for you"), status.text  # never "Waiting for" its own name
