"""``p`` is a filter of the seat's offers while an action is the innermost window
(:func:`tui.games.vtes.key_acts.not_offered_in_action`): a card the table does not offer there (a
combat card, a master card) is not played by the key, and the sentence names the command that
plays it by hand; a card it offers is played."""

from __future__ import annotations

from engine.games.vtes.offers import offers
from tests.support.vtes_fight import fight_table
from tests.support.vtes_sim import act
from tui.games.vtes.key_acts import not_offered_in_action


def test_p_plays_in_an_action_only_what_the_seat_is_offered_there() -> None:
    f = fight_table()
    view = f.t.view(f.ana)
    grapple = next(c for c in view.hand if c.name.startswith("Immortal Grapple"))
    assert not_offered_in_action(view, grapple) is None  # no action open: p is not held back here
    act(f.t, f.ana, "action", kind="bleed", minion=f.lucia)
    view = f.t.view(f.ana)
    said = not_offered_in_action(view, grapple)
    assert said is not None and said.startswith("✗ Immortal Grapple is not offered in this action")
    assert ":play Immortal Grapple plays it by hand" in said
    offered = {o.card for o in offers(view) if o.card is not None}
    for card in view.hand:
        assert (not_offered_in_action(view, card) is None) == (card.pos in offered), card.name
