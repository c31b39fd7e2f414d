"""The hand's cursor follows the arrow keys while the screen is redrawn under them, and a redraw
keeps the card highlighted by identity, not by its place in the list (a tester saw arrow keys
"lost" while the table redrew, then ``p`` played the card under the unmoved cursor). The table in
one process, a Pilot waiting on conditions."""

from __future__ import annotations

import dataclasses
from typing import Any

from tests.support.poll import eventually
from tests.support.vtes_table import app_when
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.hand import HandList


def _five_cards(view: Any) -> bool:
    return view.step == "play" and len(view.hand) >= 5


async def test_arrow_keys_move_the_hand_cursor_across_redraws_and_a_redraw_keeps_the_card() -> None:
    app, session = app_when(_five_cards)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table", pilot=pilot)
        hand = app.screen.query_one(HandList)
        await eventually(lambda: hand.view is not None and len(hand.options) >= 5, 10, "the hand", pilot=pilot)
        hand.focus()
        hand.highlighted = 0
        await pilot.pause()
        view = hand.view
        assert view is not None
        for step in range(1, 4):
            await pilot.press("down")
            # the screen redraws under the keys: new labels (a narrower list), then the same view
            hand.show(
                dataclasses.replace(view, hand=tuple(dataclasses.replace(c, name=f"{c.name} ") for c in view.hand))
            )
            hand.show(view)
            await pilot.pause()
            assert hand.highlighted == step, (hand.highlighted, step)
        chosen = hand.highlighted_card()
        assert chosen is not None
        # a card before it leaves the hand (played): the highlight stays on the same card
        hand.show(dataclasses.replace(view, hand=view.hand[1:]))
        await pilot.pause()
        assert hand.highlighted_card() is not None and hand.highlighted_card().pos == chosen.pos


async def test_after_a_play_the_highlight_goes_to_a_neighbour_not_the_card_drawn_in_its_place() -> None:
    """The highlighted card leaves the hand (played) and a card is drawn into the place it had in
    the list: the highlight goes to the card that followed it, not to the new card (a second ``p``
    from the hand tried the card just drawn)."""
    app, session = app_when(_five_cards)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table", pilot=pilot)
        hand = app.screen.query_one(HandList)
        await eventually(lambda: hand.view is not None and len(hand.options) >= 5, 10, "the hand", pilot=pilot)
        view = hand.view
        assert view is not None
        hand.highlighted = 1
        await pilot.pause()
        played, after = view.hand[1], view.hand[2]
        drawn = dataclasses.replace(played, pos=(played.pos[0], 999), name="Drawn Card")
        hand.show(dataclasses.replace(view, hand=(view.hand[0], drawn, *view.hand[2:])))
        await pilot.pause()
        shown = hand.highlighted_card()
        assert shown is not None and shown.pos == after.pos, (shown, after)
