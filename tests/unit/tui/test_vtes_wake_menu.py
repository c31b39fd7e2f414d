"""A reaction that wakes one locked minion asks which (rulebook: "This vampire wakes"; the player
picks when a card's target is a choice): Wake with Evening's Freshness with two locked vampires is
offered once per vampire, ``p``'s menu lists both, the command plays it for the selected one (and
asks for one when none is selected), and each way is accepted. It picked one by itself."""

from __future__ import annotations

import pytest

from engine.games.vtes.offers import answers
from engine.games.vtes.vocab import Do
from tests.support.vtes_fight import Fight, _uncontrolled, _vampire, fight_table, in_hand
from tests.support.vtes_sim import act, face_up_by_hand
from tui.games.vtes import key_acts, play_command
from tui.games.vtes.command_words import CommandError, Context

WAKE = "Wake with Evening's Freshness"


def _two_locked() -> tuple[Fight, list[int]]:
    """Ben has Marek and a second vampire, both locked; Lucia bleeds Ben; Ben holds the impulse."""
    f = fight_table(library=((WAKE, 7),))
    t = f.t
    taken = {
        _vampire(t, s, tuple(p)) for s, p in ((f.ana, f.lucia), (f.ben, f.marek), (f.cy, f.nico), (f.dee, f.sasha))
    }
    second = next(c.pos for c in _uncontrolled(t, f.ben) if _vampire(t, f.ben, c.pos) not in taken)
    act(t, f.ben, "move", cards=[list(second)], to="ready")
    face_up_by_hand(t, [tuple(second)])
    act(t, f.ben, "lock", cards=[f.marek, list(second)], cause="effect")
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    return f, list(second)


def test_a_wake_is_offered_for_each_locked_vampire_and_p_asks_which() -> None:
    f, second = _two_locked()
    t = f.t
    view = t.view(f.ben)
    wake = in_hand(t, f.ben, WAKE)
    woken = {tuple(o.act["minion"]) for o in answers(view) if o.do == Do.PLAY and o.card == tuple(wake)}
    assert woken == {tuple(f.marek), tuple(second)}
    card = next(c for c in view.hand if c.as_list() == wake)
    menu = key_acts.play_menu(card, view, f.ben, None, None)
    assert sorted(tuple(a["minion"]) for _, a in menu) == sorted(woken)
    assert len({w for w, _ in menu}) == 2  # each names its vampire
    names = ["Ana", "Ben", "Cy", "Dee"]
    ctx = Context(view, names)
    with pytest.raises(CommandError, match="select it first"):
        play_command.parse_play(WAKE.split(), ctx)
    chosen = play_command.parse_play(WAKE.split(), Context(view, names, (second[0], second[1])))
    assert tuple(chosen["minion"]) == tuple(second) and chosen["wake"] is True
    t.play(f.ben, {**menu[0][1]})
    a = t.state.open_action
    assert a is not None and tuple(menu[0][1]["minion"]) in a.woken
