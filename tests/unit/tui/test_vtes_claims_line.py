"""The VTES screen shows a change by hand to your things that waits for you, with its countdown,
and `y` accepts it (docs/vtes-by-hand.md); once its time has run out on the screen's clock, the
screen says so for the table (a `lapse`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games.vtes.claims import CLAIM_WAIT_MS
from engine.games.vtes.vocab import ClaimStatus, Status
from tests.support.local_session import CLOCK_MS, LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import dealt_vtes, keys_after_a_look
from tui.app import Start, VampireApp
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.claims import ClaimsLine


def _claimed() -> tuple[VampireApp, LocalGameSession]:
    """Mina's screen (seat 0) at a dealt table where the bot of seat 1 has recorded 3 pool off
    Mina's by hand."""
    local = dealt_vtes(11)
    seat = local.seats[1]
    act = {"do": "pool", "seat": 0, "delta": -3, "cause": "the referendum passed"}
    local.submit(seat, "move", seat.move_body(act))
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    return VampireApp(Start("table", session), name="Mina"), session


async def test_a_claim_on_your_pool_shows_its_countdown_and_y_accepts_it() -> None:
    app, session = _claimed()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        line = app.screen.query_one(ClaimsLine)
        await eventually(lambda: "y accept" in shown(line), 10, "the claim shown", pilot=pilot)
        assert " s · y accept · :dispute " in shown(line) and "the referendum passed" in shown(line)
        assert session.view().players[0].pool == 30
        await pilot.press("y")
        await eventually(lambda: session.view().players[0].pool == 27, 10, "the accepted claim", pilot=pilot)
        await eventually(lambda: not line.display, 10, "the line hidden", pilot=pilot)


async def test_the_touched_seats_screen_lapses_a_claim_once_its_time_has_run_out() -> None:
    """The table has been quiet for ten minutes (its time, the latest signed time of a move, is
    ten minutes behind this computer's clock) when the claim arrives: its ``due`` has passed
    already, yet the touched seat's screen counts the whole wait from when it showed the claim,
    and only then says that its time has run out."""
    local = dealt_vtes(11)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        line = app.screen.query_one(ClaimsLine)
        now = [CLOCK_MS + 600_000]
        line.wall_ms = lambda: now[0]
        local.seats[0].clock = lambda: now[0]  # the seat signs the lapse on the same clock
        session.move_of(1, {"do": "pool", "seat": 0, "delta": -3, "cause": "the referendum passed"})
        claim = session.view().claims[-1]
        assert claim.status == ClaimStatus.PENDING and claim.due < now[0]
        await eventually(lambda: shown(line).startswith("30 s · y accept"), 10, "the whole wait shown", pilot=pilot)
        now[0] += CLAIM_WAIT_MS - 1000
        await eventually(lambda: shown(line).startswith("1 s · y accept"), 10, "the countdown", pilot=pilot)
        assert session.view().players[0].pool == 30 and not session.submitted
        now[0] += 1000
        await eventually(lambda: session.view().players[0].pool == 27, 10, "the lapse", pilot=pilot)
        assert session.submitted == [{"do": "lapse", "act": claim.act}]
        assert session.view().claims[-1].how == "took effect when its time ran out before any dispute"


async def test_y_accepts_the_newest_claim_it_is_shown_on_never_an_older_disputed_one() -> None:
    """Mina disputed an oust by hand (100 pool); a newer claim of 3 pool with a long cause comes:
    the line shows the new one first, its countdown within 80 columns, and not the disputed one
    (the log says it); ``y`` accepts the new one, and the oust still takes no effect."""
    local = dealt_vtes(11)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        line = app.screen.query_one(ClaimsLine)
        session.move_of(1, {"do": "pool", "seat": 0, "delta": -100, "cause": "judge ruling"})
        old = session.view().claims[-1].act
        session.move_of(0, {"do": "dispute", "act": old})
        cause = "Banishment, as the referendum passed two rounds ago by far"
        session.move_of(1, {"do": "pool", "seat": 0, "delta": -3, "cause": cause})
        new = session.view().claims[-1].act
        await eventually(lambda: f":dispute {new}" in shown(line), 10, "the new claim shown", pilot=pilot)
        text = shown(line)
        assert f"act {old}" not in text, text
        first = text.splitlines()[0]
        assert first.startswith("30 s · y accept") and len(first) <= 78, first
        await pilot.press("y")
        await eventually(lambda: session.view().players[0].pool == 27, 10, "the new claim accepted", pilot=pilot)
        (held,) = [c for c in session.view().claims if c.act == old]
        assert held.status == ClaimStatus.PENDING and session.view().players[0].status == Status.IN
        await eventually(lambda: not line.display, 10, "nothing left to count down", pilot=pilot)


@pytest.mark.parametrize(("size", "others"), [((80, 24), False), ((100, 30), True)], ids=["80x24", "100x30"])
async def test_claims_for_you_come_first_then_yours_and_others_only_on_a_free_line(size, others) -> None:
    """Ana (seat 1) claims 3 of Ben's pool (seat 2, not Mina's), then 1 of Mina's; Mina claims 1
    of Ana's. Mina's line shows the claim waiting for her first, then her own; Ana's claim on Ben
    takes a line only on a screen taller than 80×24, and neither asks nor is Mina's."""
    local = dealt_vtes(11)
    local.bots[1] = local.bots[2] = None  # a bot accepts a claim on it at once: these are people
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=size) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 10, "the table", pilot=pilot)
        keys_after_a_look(app)
        line = app.screen.query_one(ClaimsLine)
        session.move_of(1, {"do": "pool", "seat": 2, "delta": -3, "cause": "between others"})
        between = session.view().claims[-1].act
        session.move_of(1, {"do": "pool", "seat": 0, "delta": -1, "cause": "asks Mina"})
        asks = session.view().claims[-1].act
        session.move_of(0, {"do": "pool", "seat": 1, "delta": -1, "cause": "Mina's own"})
        own = session.view().claims[-1].act
        await eventually(lambda: f":retract {own}" in shown(line), 10, "Mina's own claim shown", pilot=pilot)
        rows = shown(line).splitlines()
        assert rows[0].endswith("(asks Mina)") and f":dispute {asks}" in rows[0], rows
        assert f":retract {own}" in rows[1], rows
        assert (f"act {between}" in shown(line)) is others, rows
        assert len(rows) == (3 if others else 2), rows
