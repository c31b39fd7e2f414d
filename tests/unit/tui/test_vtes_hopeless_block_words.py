"""A seat whose block could only fail passes by itself, and its screen never says at the same
time that it may block (README "Flow"; shared/rules/vtes-actions.md P1, P3): a tester's screen
read "window A: you may block · … · your seat passes by itself" after the acting Methuselah
raised the stealth above any intercept she could reach, and it passed."""

from __future__ import annotations

import dataclasses

from engine.games.vtes.autopass import auto_pass
from tests.support.vtes_fight import fight_table
from tests.support.vtes_sim import act
from tui.games.vtes.action_text import window_words

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def test_a_seat_that_declines_a_hopeless_block_is_not_told_it_may_block() -> None:
    """Lucia bleeds Ben with stealth 1; Ben holds no card that gives intercept and his vampire
    carries none: his automatic pass declines, and window A does not say "you may block" (it did);
    with the automatic pass off (nothing by itself) it still does."""
    f = fight_table(library=(("Kine Resources Contested", 7),))
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    view = t.view(f.ben)
    a = view.action
    assert a is not None and a.impulse == f.ben
    stealthy = dataclasses.replace(a, stealth=1)
    view = dataclasses.replace(view, windows=(stealthy,))
    assert "you may block" in window_words(view, NAMES, stealthy)
    by_itself = auto_pass(view)
    assert by_itself == {"do": "pass"}
    words = window_words(view, NAMES, stealthy, by_itself)
    assert "you may block" not in words and "Ben may block" not in words, words
    assert "yours would fail" in words
