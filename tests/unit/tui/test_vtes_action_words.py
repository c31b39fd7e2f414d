"""The VTES command line's action words and the N key, as a tester found them:

- every action word takes its minion after ``with`` (``hunt with Troius``, ``block with Marek``,
  ``action hunt with Troius``), as ``bleed with`` always did;
- ``N`` (end the turn) asks once, when the influence phase or its transfers are still unused, and
  ends the turn when pressed again (a Pilot on the table in one process, waiting on conditions).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.games.vtes.vocab import Phase
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.vtes_fight import fight_table
from tests.support.vtes_sim import act
from tests.support.vtes_table import advance, dealt_vtes, said
from tui.app import Start, VampireApp
from tui.games.vtes.action_text import end_turn_warning
from tui.games.vtes.command_words import Context
from tui.games.vtes.commands import parse
from tui.games.vtes.completion import completions
from tui.games.vtes.table import VtesTableScreen

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def test_every_action_word_takes_its_minion_after_with() -> None:
    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    t = f.t
    view = t.view(f.ana)
    lucia = view.card(tuple(f.lucia))
    assert lucia is not None
    name = lucia.name.split(" (")[0]
    ctx = Context(view, NAMES)
    for line in (f"hunt with {name}", f"action hunt with {name}", f"bleed with {name}", f"bleed 2 with {name}"):
        assert parse(line, ctx)["minion"] == f.lucia, line
    assert parse(f"hunt with {name}", ctx)["kind"] == "hunt"
    assert completions(f"hunt with {name[:3]}", ctx) == [f"hunt with {lucia.name}"]
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    marek = t.view(f.ben).card(tuple(f.marek))
    assert marek is not None
    block = parse(f"block with {marek.name.split(' (')[0]}", Context(t.view(f.ben), NAMES))
    assert block == {"do": "block", "minion": f.marek}


def _my_minion_phase(view: Any) -> bool:
    return view.acting == 0 and view.phase == Phase.MINION and view.action is None and view.combat is None


async def test_end_turn_asks_once_when_the_influence_phase_is_unused() -> None:
    local = dealt_vtes(11)
    advance(local, _my_minion_phase, limit=60000)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        view = session.view()
        turn = view.turn
        assert end_turn_warning(view) is not None
        await pilot.press("N")
        await eventually(lambda: "N again ends the turn" in said(app), 10, "the question", pilot=pilot)
        assert session.view().turn == turn and session.view().acting == 0  # nothing sent
        await pilot.press("N")
        await eventually(lambda: session.view().turn != turn, 20, "the turn ended", pilot=pilot)


def test_an_action_announced_with_a_card_takes_the_numbers_the_menu_offers() -> None:
    """``action bleed MINION with CARD`` bleeds for the card's printed bleed, as the ``a`` menu's
    first line does (a tester's ``with Govern the Unaligned`` bled for 1, not 3; here Computer
    Hacking, which Aksinya may play: 2); a number the command gives stays as given."""
    from dataclasses import replace

    from engine.games.vtes.offers import of
    from engine.games.vtes.vocab import Do
    from tests.support.vtes_sim import held_card

    f = fight_table(seed=1, blood=(4, 1, 1, 1))
    view = f.t.view(f.ana)
    hacking = held_card("Computer Hacking", seat=f.ana)
    view = replace(view, hand=(hacking, *view.hand))
    lucia = view.card(tuple(f.lucia))
    assert lucia is not None
    name = lucia.name.split(" (")[0]
    menu = [o.act for o in of(view, Do.ACTION) if o.act.get("card") == [998, 0]]
    assert menu and menu[0]["amount"] == 2, menu
    act_ = parse(f"action bleed {name} with Computer Hacking", Context(view, NAMES))
    assert act_ == menu[0]
    given = parse(f"action bleed {name} with Computer Hacking amount 3", Context(view, NAMES))
    assert given["amount"] == 3 and given["card"] == [998, 0]
