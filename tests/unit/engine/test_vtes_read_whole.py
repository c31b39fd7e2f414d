"""Cards whose every sentence the table now reads and applies (``vampire cards NAME`` says "applied
fully"): each has its own test of the numbers it changes in its window."""

from __future__ import annotations

import pytest

from engine.games.vtes.card_record import Coverage
from engine.games.vtes.card_report import find


@pytest.mark.parametrize(
    "name",
    [
        "Shroud of Night",  # test_vtes_stealth_conditions.py
        "Voter Captivation",  # test_vtes_voter_captivation.py
        "Change of Target",  # test_vtes_same_action_again.py
        "Obedience",
        "Eagle's Sight",  # test_vtes_eagles_sight.py
        "Awe",  # test_vtes_awe.py
        "Mirror Walk",  # test_vtes_mirror_walk.py
        "Deep Ecology",  # test_vtes_deep_ecology.py
        "Perfect Paragon",  # test_vtes_perfect_paragon.py
    ],
)
def test_the_card_is_applied_fully(name: str) -> None:
    rec = find(name)
    assert rec is not None and rec.coverage == Coverage.FULLY, rec.by_hand if rec else name
