"""Snapshots (pytest-textual-snapshot, SVG in snapshots/test_vtes_snapshots/) of the VTES table
screen at 80×24 and 120×40: on your turn (your influence phase, with vampires in play) and on
someone else's turn; and one pilot check that the board, the hand and the card text show what the
seat's view holds.

Every state is reproducible: keys, secrets, decks, bots and the clock come from fixed seeds, so
names, fingerprints and cards never change. Update with ``pytest tests/unit/tui/test_vtes_snapshots.py
--snapshot-update`` after checking the change.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension
from textual._doc import take_svg_screenshot

from engine.games.vtes.vocab import Phase, Zone
from tests.support.local_session import NAMES, LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import accept_as, played_vtes
from tui.app import Start, VampireApp
from tui.games.vtes.table import VtesTableScreen


class SnapshotsDir(SVGImageExtension):
    """Keep the SVGs in tests/unit/tui/snapshots/<test module>/."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(Path(test_location.filepath).parent / "snapshots" / test_location.basename)


@pytest.fixture
def snap(snapshot: Any) -> Callable[..., bool]:
    def compare(app: VampireApp, size: tuple[int, int]) -> bool:
        svg = take_svg_screenshot(app=app, terminal_size=size)
        return snapshot.use_extension(SnapshotsDir) == svg

    return compare


def _my_influence_with_vampires(view: Any) -> bool:
    return (
        view.acting == 0
        and view.phase == Phase.INFLUENCE
        and view.transfers >= 2
        and len(view.controlled(0, Zone.READY)) >= 1
    )


def _someone_elses_minion_phase(view: Any) -> bool:
    return view.acting != 0 and view.phase == Phase.MINION and len(view.controlled(0, Zone.READY)) >= 1


def _table_app(until: Callable[[Any], bool]) -> VampireApp:
    local = played_vtes(until)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    return VampireApp(Start("table", session), name="Mina")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_vtes_your_turn(snap, size: tuple[int, int]) -> None:
    assert snap(_table_app(_my_influence_with_vampires), size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_vtes_someone_elses_turn(snap, size: tuple[int, int]) -> None:
    assert snap(_table_app(_someone_elses_minion_phase), size)


async def test_the_screen_shows_the_seat_s_view() -> None:
    app = _table_app(_my_influence_with_vampires)
    async with app.run_test(size=(120, 40)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        view = screen.session.view()
        players = shown(screen.query_one("#vt-players"))
        for seat in range(view.seats):
            assert NAMES[seat] in players
        assert "influence phase" in players and "predator" in players  # the wide layout
        assert f"{view.transfers} transfers left" in shown(screen.query_one("#vt-say"))
        # Your hand, the highlighted card's text; the rulings on a key.
        first = view.hand[0]
        assert first.name == screen.query_one("#vt-card").border_title
        await pilot.press("r")
        assert screen.query_one("#vt-card").border_title == f"Rulings: {first.name}"
        # Another Methuselah's uncontrolled region is face down; yours face up.
        board = screen.query_one("#vt-board")
        prompts = [str(board.get_option_at_index(i).prompt) for i in range(board.option_count)]
        assert any("face-down vampire" in p for p in prompts)
        mine = view.uncontrolled(0)
        assert all(any(c.name in p for p in prompts) for c in mine)


def _ousted_app() -> VampireApp:
    """Seat 0 ousted its prey (by a pool change), and the table has settled."""
    local = played_vtes(_my_influence_with_vampires)
    seat = local.seats[0]
    view = seat.view()
    prey = view.players[0].prey
    act = {"do": "pool", "seat": prey, "delta": -view.players[prey].pool, "cause": "bleed"}
    local.submit(seat, "move", seat.move_body(act))
    accept_as(local, prey)  # the ousted one's answer (a bot takes no pool on words)
    while local.step():
        pass
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    return VampireApp(Start("table", session), name="Mina")


def test_vtes_ousted(snap) -> None:
    assert snap(_ousted_app(), (80, 24))


async def test_an_ousted_methuselah_is_marked_and_a_spectator_sees_no_hidden_card() -> None:
    from engine.games.vtes.view import build_view
    from tui.games.vtes.present import board_rows, methuselah_lines

    app = _ousted_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        players = shown(app.screen.query_one("#vt-players"))
        assert "ousted" in players and "1" in players
        table = app.screen.session.table
    # A spectator's view of the same table: no hand, every uncontrolled card face down.
    spectator = build_view(table.gstate, None, {})
    rows = [str(r.text) for r in board_rows(spectator, list(table.names))]
    hidden = [c for c in table.gstate.cards if c.zone == Zone.UNCONTROLLED and not c.card]
    # Each seat's face-down cards in one row ("○ 3 face-down vampires"), every one counted.
    counts = [int(m.group(1)) for r in rows if (m := re.search(r"(\d+) face-down", r))]
    assert sum(counts) == len(hidden) > 0 and len(counts) <= len(table.names)
    assert "(you)" not in str(methuselah_lines(spectator, list(table.names)))


async def test_a_hand_of_seven_is_whole_at_80x24_beside_the_board_the_card_and_the_log() -> None:
    """At the smallest size the app allows, every card of a 7-card hand is on screen (its line
    inside the hand panel, the panel inside the screen, nothing scrolled out), with the
    highlighted card's name and type under it, and the board and the game log still shown."""
    app = _table_app(_my_influence_with_vampires)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        view = screen.session.view()
        assert len(view.hand) == 7
        hand = screen.query_one("#vt-hand")
        await eventually(lambda: hand.option_count == 7, 10, "the hand filled", pilot=pilot)
        await pilot.pause()
        inside = screen.region
        assert inside.contains_region(hand.region)
        assert hand.max_scroll_y == 0 and hand.scroll_y == 0
        lines = hand.scrollable_content_region
        assert lines.height >= 7
        for i, card in enumerate(view.hand):
            text = hand.render_line(i).text
            assert card.name[:18] in text, (i, card.name, text)
            assert screen.get_widget_at(lines.x, lines.y + i)[0] is hand
        # The highlighted card's essentials: its name (the panel's title) and its type line, then its
        # text, visible under the hand.
        panel = screen.query_one("#vt-card")
        assert inside.contains_region(panel.region) and panel.scrollable_content_region.height >= 2
        first = view.hand[0]
        words = shown(screen.query_one("#vt-card-text")).splitlines()
        assert panel.border_title == first.name and first.types[0] in words[0]
        # The board and the log keep their room.
        for wid, rows in (("#vt-board", 4), ("#log", 3)):
            widget = screen.query_one(wid)
            assert inside.contains_region(widget.region) and widget.scrollable_content_region.height >= rows, wid
        # And the whole text is a key away.
        await pilot.press("e")
        await eventually(lambda: type(app.screen).__name__ == "CardBox", 5, "the card box", pilot=pilot)
        assert first.name in shown(app.screen.query_one("#vt-box-text"))
        await pilot.press("escape")
        await eventually(lambda: app.screen is screen, 5, "back at the table", pilot=pilot)
