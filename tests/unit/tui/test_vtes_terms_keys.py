"""The caller of a referendum chooses its terms by key at 80x24 (shared/rules/vtes-actions.md 7.1,
P7; engine/games/vtes/referendum_terms.py): ``V`` in the footer as the terms wait, its menu lists
the terms the table applies for Kine Resources Contested, and the one picked is recorded in the
table's words; ``:terms N`` picks the same from the command line. The table in one process
(tests.support.vtes_table), every library the seven cards of FIGHT_LIBRARY (two Kine Resources
Contested); seat 0 played by a bot until its own referendum waits for its terms; a Pilot waits on
conditions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.games.vtes.decks import bundled_decks
from engine.games.vtes.vocab import Poll
from engine.local import LocalGame
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.vtes_fight import FIGHT_LIBRARY
from tests.support.vtes_sim import deck_of
from tests.support.vtes_table import advance, build_vtes, keys_after_a_look
from tui.app import Start, VampireApp
from tui.games.vtes.command_words import Context
from tui.games.vtes.fight_commands import parse_line
from tui.games.vtes.menus import AnnounceMenu, terms_choices_words
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.command_line import CommandLine

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def _terms_due(view: Any) -> bool:
    r = view.referendum
    return r is not None and r.step == Poll.TERMS and r.caller == 0


def _at_the_terms() -> LocalGame:
    decks = [deck_of(d, *FIGHT_LIBRARY) for d in bundled_decks()[:4]]
    local = build_vtes(3, decks=decks, options={"library_size": False})
    advance(local, _terms_due)
    return local


def _footer_keys(app: Any) -> list[str]:
    from textual.widgets._footer import FooterKey

    return [k.key_display for k in app.screen.query(FooterKey)]


def test_terms_n_picks_the_nth_terms_the_menu_lists() -> None:
    local = _at_the_terms()
    view = local.seats[0].view()
    listed = terms_choices_words(view, NAMES)
    assert listed and listed[0][0].startswith("1. Kine Resources Contested: ")
    assert parse_line("terms 2", Context(view, NAMES)) == listed[1][1]
    assert parse_line("terms Ben burns 4", Context(view, NAMES)) == {"do": "terms", "text": "Ben burns 4"}


async def test_at_80x24_the_caller_chooses_the_terms_from_v_and_the_table_words_them() -> None:
    local = _at_the_terms()
    app = VampireApp(Start("table", LocalGameSession(local, 0, log_path=Path("ana.vtlog"))), name="Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)
        await eventually(lambda: "V" in _footer_keys(app), 10, "V in the footer", pilot=pilot)
        await pilot.press("V")
        await eventually(lambda: isinstance(app.screen, AnnounceMenu), 10, "the terms menu", pilot=pilot)
        first = app.screen.choices[0][0]
        assert first.startswith("1. Kine Resources Contested: ")
        await pilot.press("enter")

        def recorded() -> bool:
            r = app.screen.session.view().referendum
            return r is not None and r.step != Poll.TERMS

        await eventually(recorded, 20, "the terms recorded", pilot=pilot)
        r = app.screen.session.view().referendum
        assert r.table and r.terms.startswith("Kine Resources Contested: ") and "points allocated" in r.terms


async def test_v_fills_in_the_side_the_terms_favour_against_when_they_burn_your_pool() -> None:
    """Terms the table applies that burn this seat's pool: ``V`` fills in "vote against" and says
    why, naming the other side too (a vote "for" filled in would burn one's own pool on Enter)."""
    local = _at_the_terms()
    session = LocalGameSession(local, 0, log_path=Path("ana.vtlog"))
    app = VampireApp(Start("table", session), name="Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)
        table = app.screen
        assert isinstance(table, VtesTableScreen)
        me = session.table.names[0]
        await eventually(lambda: "V" in _footer_keys(app), 10, "V in the footer", pilot=pilot)
        await pilot.press("V")
        await eventually(lambda: isinstance(app.screen, AnnounceMenu), 10, "the terms menu", pilot=pilot)
        burns_me = next(i for i, (text, _) in enumerate(app.screen.choices) if f": {me} burns 3," in text)
        await pilot.press(*["down"] * burns_me, "enter")

        def voting_or_impulse() -> bool:
            r = session.view().referendum
            return r is not None and not table.submitting and (r.step == Poll.VOTING or r.impulse == 0)

        for _ in range(10):  # the caller passes its impulses before the polling
            await eventually(voting_or_impulse, 30, "the polling, or the impulse", pilot=pilot)
            if session.view().referendum.step == Poll.VOTING:
                break
            await pilot.press("full_stop")
            await eventually(lambda: session.view().referendum.impulse != 0, 10, "the pass taken", pilot=pilot)
        said: list[str] = []
        say = table.say
        table.say = lambda text, illegal, todo=False, guarding=True: (  # type: ignore[method-assign]
            said.append(text),
            say(text, illegal, todo, guarding),
        )
        await pilot.press("V")
        await eventually(lambda: bool(said), 10, "the vote's line", pilot=pilot)
        assert table.query_one("#vt-cmd", CommandLine).value == "vote against calling"
        assert "Enter votes against (the terms burn 3 of your pool), or change it to for" in said[-1]
