"""Vampire Queen passes by itself when nothing beats the lead, as VTES does with nothing to play:
the game spec's automatic act is a pass only when a pass is the only legal act, the screen says
"You pass (nothing beats the lead; A: ask every time)", and ``A`` switches it off and on.

The tables are the reproducible in-process ones of :mod:`tests.support.local_session`; the seat's
driver, which makes the automatic act over the network, is played here by the session."""

from __future__ import annotations

from typing import Any

from engine.games import find_game
from tests.support.local_session import LocalGameSession, advance, build_local, queen_only_a_pass
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.games.queen.table import AUTO_PASS_WORDS, TableScreen

SEATS: list[str | None] = [None, "heuristic", "heuristic", "random"]


def _a_play_beats(local: Any) -> bool:
    """My turn in a normal trick that some play of my hand beats."""
    state = local.table.gstate
    trick = state.trick
    if state.phase != "play" or trick is None or trick.hunter or state.turn != 0:
        return False
    return any(act["do"] != "pass" for act in local.table.game.legal_acts(local.seats[0].view()))


def _my_lead(local: Any) -> bool:
    """I lead the trick."""
    state = local.table.gstate
    return state.phase == "play" and state.trick is None and state.turn == 0


class AutoPassSession(LocalGameSession):
    """A frozen table whose seat passes by itself as the seat's driver does (``auto_pass``,
    ``set_auto_pass``): the game spec's automatic act, when it is on."""

    def __init__(self, local: Any, seat: int) -> None:
        super().__init__(local, seat, auto=False)
        self.auto_pass = True

    def set_auto_pass(self, on: bool) -> None:
        self.auto_pass = on


def test_the_queen_spec_passes_by_itself_only_when_a_pass_is_the_only_legal_act() -> None:
    auto_act = find_game("queen").auto_act
    assert auto_act is not None
    stuck = build_local(1, SEATS, {"rounds": 1})
    advance(stuck, 0, queen_only_a_pass)
    assert auto_act(stuck.seats[0].view()) == {"do": "pass"}
    free = build_local(1, SEATS, {"rounds": 1})
    advance(free, 0, _a_play_beats)
    assert auto_act(free.seats[0].view()) is None  # a play beats the lead: the person chooses
    lead = build_local(2, SEATS, {"rounds": 1})  # a deal in which seat 0 leads a trick
    advance(lead, 0, _my_lead)
    assert auto_act(lead.seats[0].view()) is None  # a lead is never passed
    # Another seat's turn: nothing to do by itself.
    assert auto_act(stuck.seats[1].view()) is None


async def test_with_nothing_to_beat_the_lead_the_line_says_you_pass_and_a_asks_every_time() -> None:
    local = build_local(1, SEATS, {"rounds": 1})
    advance(local, 0, queen_only_a_pass)
    session = AutoPassSession(local, 0)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        screen = app.screen
        line = lambda: shown(screen.query_one("#pick"))  # noqa: E731
        await eventually(lambda: line() == AUTO_PASS_WORDS, 10, "the automatic pass said", pilot=pilot)
        # p does not pass a second time: the seat passes by itself.
        assert screen.check_action("pass_turn", ()) is False
        await pilot.press("p")
        await eventually(lambda: "passes by itself" in line(), 10, "why p does nothing", pilot=pilot)
        assert session.submitted == []
        # A: ask me every time; the line is the old hint, and p passes.
        await pilot.press("A")
        await eventually(lambda: session.auto_pass is False, 10, "auto-pass off", pilot=pilot)
        await eventually(lambda: line().startswith("p passes: you cannot beat "), 10, "the hint", pilot=pilot)
        # A again: it passes by itself once more.
        await pilot.press("A")
        await eventually(lambda: line() == AUTO_PASS_WORDS, 10, "the automatic pass again", pilot=pilot)


async def test_after_the_seat_passed_by_itself_the_line_still_says_why() -> None:
    """The seat's driver may pass before the screen draws the turn: the line says so while the
    trick is played on, and no longer speaks of A once the seat asks every time."""
    local = build_local(1, SEATS, {"rounds": 1})
    advance(local, 0, queen_only_a_pass)
    seat = local.seats[0]
    local.submit(seat, "move", seat.move_body({"do": "pass"}))  # as the seat's driver sends it
    trick = local.table.gstate.trick
    assert trick is not None and any(p.seat == 0 and p.passed for p in trick.plays), "the trick goes on"
    session = AutoPassSession(local, 0)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        line = lambda: shown(app.screen.query_one("#pick"))  # noqa: E731
        await eventually(lambda: line() == AUTO_PASS_WORDS, 10, "the pass said", pilot=pilot)
        await pilot.press("A")
        await eventually(lambda: line() != AUTO_PASS_WORDS, 10, "the line without A", pilot=pilot)


async def test_a_on_a_lead_says_what_it_switched_under_the_hand() -> None:
    """A pressed on a turn where nothing is to pass (a lead) says what it switched, in the line
    under the hand (a tester pressed A three times and saw nothing), and the footer lists A."""
    local = build_local(1, SEATS, {"rounds": 1})
    session = AutoPassSession(local, 0)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        line = lambda: shown(app.screen.query_one("#pick"))  # noqa: E731
        await pilot.press("A")
        await eventually(lambda: session.auto_pass is False, 10, "auto-pass off", pilot=pilot)
        await eventually(lambda: line().startswith("✓ Ask me every time"), 10, "what A did", pilot=pilot)
        await pilot.press("A")
        await eventually(lambda: line().startswith("✓ Auto-pass: when nothing beats"), 10, "A again", pilot=pilot)
        assert "A" in {b.binding.key for b in app.screen.active_bindings.values() if b.binding.show}
