"""A refusal the table sends back once a move is on its way (the window moved on while ``.`` was
pressed) names its seats like every other refusal: "Ben holds the impulse…", never "{s1} holds
the impulse…" (the table in one process, tests.support.vtes_table; a Pilot, waiting on conditions).
"""

from __future__ import annotations

from pathlib import Path

from engine.games.base import Act, IllegalMove
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.vtes_table import dealt_vtes
from tui.app import Start, VampireApp
from tui.errors import with_seat_names
from tui.games.vtes.table import VtesTableScreen


class LateRefusal(LocalGameSession):
    """A session whose table refuses every move once sent (its own check passed: the table moved on)."""

    async def submit_move(self, act: Act) -> None:
        raise IllegalMove("{s1} holds the impulse: you may pass when it reaches you (5.1)")


def test_seat_placeholders_are_named_and_other_braces_kept() -> None:
    assert with_seat_names("{s0} and {s2}: {x}", ["Ana", "Ben", "Cy"]) == "Ana and Cy: {x}"
    assert with_seat_names("{s4} left", ["Ana"]) == "seat 5 left"


async def test_a_refusal_after_sending_names_the_seat() -> None:
    session = LateRefusal(dealt_vtes(11), 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, VtesTableScreen)
        screen.submit({"do": "pass"})
        shown = lambda: [n.message for n in app._notifications if n.title == "Move refused"]  # noqa: E731
        await eventually(lambda: bool(shown()), 10, "the refusal", pilot=pilot)
        name = session.table.names[1]
        assert shown()[-1].startswith(f"{name} holds the impulse") and "{s" not in shown()[-1]
