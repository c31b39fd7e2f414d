"""``:burn edge for CARD`` at 80×24 (docs/vtes-by-hand.md, "Burning the Edge for a card"): the
command line makes the ``burn_edge`` act, the engine checks it, and a refusal shows the engine's
sentence under the table with nothing sent (the table in one process, a Pilot, waiting on
conditions). Mina's vampires say nothing of the Edge, so the table refuses it whoever holds it."""

from __future__ import annotations

from tests.support.poll import eventually
from tests.support.vtes_table import influence_app, keys_after_a_look, said
from tui.games.vtes.table import VtesTableScreen


async def test_burn_edge_for_a_card_shows_the_engines_sentence_at_80x24() -> None:
    app, session = influence_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        view = session.view()
        mine = next(c for c in view.cards if c.controller == 0 and c.zone.in_play and c.crypt and c.name)
        sent = len(session.submitted)
        await pilot.press("colon", *f"burn edge for {mine.name.split(' (')[0]}", "enter")
        await eventually(lambda: "✗" in said(app), 10, "the refusal", pilot=pilot)
        expected = (
            f"{mine.name} says nothing of the Edge"
            if view.edge == 0
            else "only the Methuselah who controls the Edge may burn it"
        )
        assert expected in said(app), said(app)
        assert len(session.submitted) == sent and session.view().edge == view.edge
