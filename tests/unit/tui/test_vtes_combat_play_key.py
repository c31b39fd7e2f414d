"""``p`` on a combat card in a combat of one's minion plays what the table applies: where the
card's levels differ and the minion may play both, it asks which (basic or superior), each way the
act the engine offers for that level; a minion with the basic level only plays it at once; a card
of no level plays as the seat is offered it (shared/rules/vtes-actions.md 5, P5)."""

from __future__ import annotations

from engine.games.vtes import VTES
from tests.support.vtes_sim import copy_table, one_vampire_table, to_combat_step
from tui.games.vtes.key_acts import play_act, play_menu

LIBRARY = (("Torn Signpost", 1), ("Carrion Crows", 1), ("Immortal Grapple", 2), ("Taste of Vitae", 2))


def _before_range(vampire: str):
    t = copy_table(one_vampire_table(vampire, LIBRARY, seed=5))
    ana, _ = to_combat_step(t, [], "before_range")
    view = t.view(ana)
    return t, ana, view, next(c for c in view.hand if c.name == "Torn Signpost")


def test_p_asks_basic_or_superior_where_the_levels_differ() -> None:
    t, ana, view, signpost = _before_range("Fish (G4)")  # ANI POT
    menu = play_menu(signpost, view, ana, None, None)
    assert [w.split(":")[0] for w, _ in menu] == ["basic", "superior"]
    assert [a["strength"] for _, a in menu] == [2, 3]
    legal = VTES.legal_acts(view)
    assert all(a in legal for _, a in menu)  # each way is an act the engine offers
    assert play_act(signpost, view, ana, None, None)["strength"] == 3


def test_p_plays_the_only_level_a_minion_has_at_once() -> None:
    t, ana, view, signpost = _before_range("Darva Felispa (G3)")  # ani pot
    assert play_menu(signpost, view, ana, None, None) == []
    chosen = play_act(signpost, view, ana, None, None)
    assert chosen["do"] == "play" and chosen["strength"] == 2
    t.play(ana, chosen)
    c = t.state.open_combat
    assert c is not None and c.strength_of(c.acting) == 2
