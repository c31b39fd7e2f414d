"""A contest at the VTES table at 80x24 (rulebook, "Contested Cards"; engine/games/vtes/contests.py):
the person sees her vampire face down and contested, ``Y`` in the footer while her unlock phase
waits for the contest, and pays or yields it from ``Y``'s menu; ``n`` says why the phase does not
end first. The table in one process (tests.support.vtes_table), every crypt twelve Volker; Ana
(seat 0, the person) and the bot after her each bring one into play; a Pilot waits on conditions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck
from engine.games.vtes.vocab import Phase, Zone
from engine.local import LocalGame
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.vtes_fight import FIGHT_LIBRARY
from tests.support.vtes_sim import deck_of
from tests.support.vtes_table import advance, build_vtes, keys_after_a_look, said
from tui.app import Start, VampireApp
from tui.games.vtes.command_words import CommandError, Context
from tui.games.vtes.fight_commands import parse_line
from tui.games.vtes.menus import AnnounceMenu
from tui.games.vtes.present import board_rows, turn_line
from tui.games.vtes.table import VtesTableScreen

VOLKER = "Volker, The Puppet Prince"


def _contested_table() -> tuple[LocalGame, list[int]]:
    found = card_base().lookup(VOLKER)
    assert found is not None
    deck = deck_of(Deck("volker", ((found.id, 12),), ()), *FIGHT_LIBRARY)
    local = build_vtes(3, decks=[deck] * 4, options={"library_size": False})
    advance(local, lambda v: v.acting == 0 and v.phase == Phase.UNLOCK)
    ana = local.seats[0]
    other = local.seats[1]
    placed = []
    for seat in (ana, other):
        view = seat.view()
        mine = next(c for c in view.uncontrolled(seat.index) if c.known)
        local.submit(seat, "move", seat.move_body({"do": "move", "cards": [mine.as_list()], "to": "ready"}))
        local.run()
        placed.append(mine.pos)
    return local, [list(p) for p in placed]


def _app(local: LocalGame) -> VampireApp:
    session = LocalGameSession(local, 0, log_path=Path("ana.vtlog"))
    return VampireApp(Start("table", session), name="Ana")


def _zone(app: Any, pos: list[int]) -> Zone:
    view = app.screen.session.view()
    card = view.card(tuple(pos))
    return card.zone if card is not None else Zone.REMOVED


def _footer_keys(app: Any) -> list[str]:
    from textual.widgets._footer import FooterKey

    return [k.key_display for k in app.screen.query(FooterKey)]


async def _to_the_menu(app: Any, pilot: Any) -> None:
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
    keys_after_a_look(app)
    await eventually(lambda: "Y" in _footer_keys(app), 10, "Y in the footer", pilot=pilot)
    await pilot.press("n")  # the unlock phase does not end: the engine's sentence says why
    await eventually(lambda: "pay the contest's cost or yield" in said(app), 10, "why n waits", pilot=pilot)
    await pilot.press("Y")
    await eventually(lambda: isinstance(app.screen, AnnounceMenu), 10, "the contest menu", pilot=pilot)


async def test_at_80x24_the_person_sees_the_contest_and_yields_by_key() -> None:
    local, (mine, _theirs) = _contested_table()
    app = _app(local)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        view = app.screen.session.view()
        rows = [r.text.plain.strip() for r in board_rows(view, list(app.screen.session.table.names))]
        assert any(r.startswith("contested: Volker") for r in rows), rows
        assert f"{VOLKER}: contested, Y pays or yields" in said(app)
        await _to_the_menu(app, pilot)
        menu = app.screen
        assert [w for w, _ in menu.choices][:2] == [
            f"Pay 1 pool to keep contesting {VOLKER}",
            f"Yield {VOLKER}: it is burned",
        ]
        await pilot.press("down", "enter")
        await eventually(lambda: _zone(app, mine) == Zone.ASH, 20, "Volker yielded and burned", pilot=pilot)
        await eventually(lambda: "Y" not in _footer_keys(app), 10, "Y gone", pilot=pilot)


async def test_at_80x24_the_person_pays_for_the_contest_by_key_and_moves_on() -> None:
    local, (mine, _theirs) = _contested_table()
    app = _app(local)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        pool = app.screen.session.view().players[0].pool
        await _to_the_menu(app, pilot)
        await pilot.press("enter")
        await eventually(lambda: app.screen.session.view().players[0].pool == pool - 1, 20, "1 pool paid", pilot=pilot)
        assert _zone(app, mine) == Zone.CONTESTED
        await pilot.press("n")
        await eventually(lambda: app.screen.session.view().phase == Phase.MASTER, 20, "the master phase", pilot=pilot)


def test_the_contest_and_yield_commands_name_a_contest_of_yours() -> None:
    local, (mine, theirs) = _contested_table()
    view = local.seats[0].view()
    ctx = Context(view, ["Ana", "Ben", "Cy", "Dee"])
    assert parse_line("yield", ctx) == {"do": "yield", "card": mine}
    assert parse_line("contest volker", ctx) == {"do": "contest", "card": mine}
    with pytest.raises(CommandError, match="is in contest, face down and out of play"):
        parse_line("bleed volker", ctx)
    ben = Context(local.seats[1].view(), ["Ana", "Ben", "Cy", "Dee"])  # not Ben's unlock phase
    with pytest.raises(CommandError, match="None of your cards or titles waits for its contest"):
        parse_line("contest", ben)
    assert theirs != mine


def test_the_board_says_a_vampires_title_is_contested_then_yielded() -> None:
    from engine.games.vtes.simulate import vtes_table
    from tests.support.vtes_sim import act

    base = card_base()
    ids = tuple(sorted((base.lookup(n).id, 6) for n in ("Lodin (Olaf Holte)", "Kevin Jackson")))  # type: ignore[union-attr]
    for seed in range(1, 40):
        t = vtes_table(
            [deck_of(Deck("chicago", ids, ()), *FIGHT_LIBRARY) for _ in range(4)], {"library_size": False}, seed
        )
        ana, ben = t.state.seating[:2]
        lodin = [c for c in t.view(ana).uncontrolled(ana) if c.name.startswith("Lodin")]
        kevin = [c for c in t.view(ben).uncontrolled(ben) if c.name.startswith("Kevin")]
        if lodin and kevin:
            break
    act(t, ana, "move", cards=[lodin[0].as_list()], to="ready")
    act(t, ben, "move", cards=[kevin[0].as_list()], to="ready")
    rows = [r.text.plain.strip() for r in board_rows(t.view(ana), ["Ana", "Ben", "Cy", "Dee"])]
    # Before the name, as a contested card's "contested: ": a narrow panel cuts the blood, not this.
    assert any(r.startswith("title contested: Lodin") for r in rows), rows
    assert "Lodin: contested, Y pays or yields" in turn_line(t.view(ana), ["Ana", "Ben", "Cy", "Dee"])
    act(t, ana, "yield", card=lodin[0].as_list())
    rows = [r.text.plain.strip() for r in board_rows(t.view(ana), ["Ana", "Ben", "Cy", "Dee"])]
    assert any(r.startswith("title yielded: Lodin") for r in rows), rows
