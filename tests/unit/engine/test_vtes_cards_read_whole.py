"""Cards the table applies whole (coverage "fully", no kept by-hand reason): each card's own test
file checks what it does; this one that its record reads every clause of it."""

from __future__ import annotations

import pytest

from engine.games.vtes.card_record import Coverage
from engine.games.vtes.card_report import find


@pytest.mark.parametrize(
    "name",
    [
        "Consanguineous Boon",
        "The Unmasking",
        "Delaying Tactics",
        "Archon Investigation",
        "Spirit's Touch",
        "Bum's Rush",
    ],
)
def test_the_card_is_read_whole(name: str) -> None:
    rec = find(name)
    assert rec is not None and rec.coverage == Coverage.FULLY and not rec.note
