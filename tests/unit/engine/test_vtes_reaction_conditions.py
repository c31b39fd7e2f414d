"""A reaction's "Only usable …" sentence is checked as it is played, as where it is offered
(rulebook, "Requirements for Playing Cards"): Speak with Spirits ("[ani] +1 intercept. Only usable
during a bleed action.") is neither offered nor accepted during a hunt, and the refusal quotes the
card. Every crypt is twelve Aisha (Animalism at basic, no Spiritus)."""

from __future__ import annotations

import pytest

from engine.games.base import IllegalMove
from engine.games.vtes.card_report import find
from engine.games.vtes.reaction_conditions import Moment, unmet
from engine.games.vtes.vocab import ActionKind
from engine.sim import SimTable
from tests.support.vtes_sim import act, copy_table, one_vampire_table
from tests.support.vtes_sim import card_plays as plays
from tests.support.vtes_sim import first_vampire as vampire


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Aisha", (("Speak with Spirits", 3), ("Deep Ecology", 2)), seed=3)


def _moment(kind: ActionKind, at_you: bool = False, blocking: bool = False) -> Moment:
    return Moment.of(kind, (1,) if at_you else (), None, 1 if blocking else None, True, False, 1)


def test_a_reaction_only_usable_during_a_bleed_is_refused_during_a_hunt_with_its_sentence(start: SimTable) -> None:
    t = copy_table(start)
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    act(t, ana, "action", kind="hunt", minion=vampire(t, ana))
    act(t, ana, "pass")  # Ana's impulse: Ben, her prey, may block the hunt
    assert t.state.open_action is not None and t.state.open_action.impulse == ben
    assert plays(t, ben, "Speak with Spirits") == []
    card = next(c.as_list() for c in t.view(ben).hand if c.name == "Speak with Spirits")
    before = t.state
    with pytest.raises(IllegalMove) as refused:
        act(t, ben, "play", card=card, minion=vampire(t, ben))
    assert 'Speak with Spirits says "Only usable during a bleed action", and this action does not meet it' in str(
        refused.value
    )
    assert "hunts" in str(refused.value)
    assert t.state == before


def test_the_sentence_is_met_during_a_bleed_and_one_level_that_fits_is_enough() -> None:
    spirits, ecology = find("Speak with Spirits"), find("Deep Ecology")
    assert spirits is not None and ecology is not None
    assert unmet(spirits.info.text, _moment(ActionKind.BLEED)) is None
    # [spi] "+1 intercept." has no condition: the card may be played at that level during a hunt
    assert unmet(spirits.info.text, _moment(ActionKind.HUNT)) is None
    # Deep Ecology's [for] "Reduce a bleed against you by 2." has none either
    assert unmet(ecology.info.text, _moment(ActionKind.HUNT)) is None


def test_a_condition_on_the_whole_card_is_checked_whatever_the_level() -> None:
    eyes = find("Eyes of the Wild")  # "Only usable by a locked Gangrel." (the Gangrel: its requirement)
    obedience = find("Obedience")  # "Only usable if this vampire is about to enter combat with …"
    assert eyes is not None and obedience is not None
    assert unmet(obedience.info.text, _moment(ActionKind.BLEED, blocking=True)) is None
    cannot = Moment.of(ActionKind.BLEED, (1,), None, None, False, False, 1)
    assert unmet(obedience.info.text, cannot) == (
        "only usable if this vampire is about to enter combat with an acting younger vampire"
    )
