"""The status line at a VTES table at 80x24 while protocol work runs and this seat's answer is
the window's (a tester under load never saw "Settling…": the progress line, "Opening cards: …
(1 of 3)", took the status line, and it never said the table waits for you either). Where this
seat's answer stands comes first, the progress after it. The table is frozen (``auto=False``):
the test makes its entries (never sleeps), so each moment stays on screen until it moves on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from engine.games.base import Act
from engine.games.vtes.offers import offers
from engine.local import LocalGame
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.positions import once_per_run
from tests.support.tui import shown
from tests.support.vtes_table import advance, dealt_vtes, keys_after_a_look, played_vtes
from tui.app import Start, VampireApp
from tui.games.vtes import key_acts
from tui.games.vtes.table import VtesTableScreen
from tui.session import SessionEvent
from tui.table_text import work_progress


def _settling_while_cards_open() -> LocalGame:
    """Seed 13's table at the first moment the innermost window's answer is Mina's (seat 0) in
    her view while the table still runs protocol work (cards opened), so it does not wait for
    her move yet."""
    local = dealt_vtes(13)
    table = local.seats[0].table

    def settling(view: Any) -> bool:
        return key_acts.answer_due(view, 0) and work_progress(table, None, 0) is not None and not table.owes_move(0)

    advance(local, settling, limit=30000)
    return local


def _app() -> tuple[VampireApp, LocalGameSession]:
    local = once_per_run("vtes-settling-while-cards-open-13", _settling_while_cards_open)
    return VampireApp(Start("table", s := LocalGameSession(local, 0, auto=False)), name="Mina"), s


async def test_settling_shows_before_the_progress_of_the_work_it_waits_on() -> None:
    app, session = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        status = screen.query_one("#waiting")
        await eventually(lambda: shown(status).startswith("Settling…"), 10, "the settling state", pilot=pilot)
        assert "Opening cards (" in shown(status) and screen.query_one("#work").display, shown(status)
        assert "waits for you" not in shown(status)
        # The work done: the table waits for Mina, and the line says her answer, no progress.
        local = session.local
        while not session.table.owes_move(0):
            assert local.step(), "the table never came to wait for Mina"
        screen.refresh_table()
        await eventually(lambda: not shown(status).startswith("Settling"), 10, "the answer due", pilot=pilot)
        assert "Opening cards" not in shown(status) and ". lets it through" in shown(status), shown(status)


class AckedLateSession(LocalGameSession):
    """A session whose move is folded at once but acknowledged only when the test lets it
    (:attr:`release`), the table's work after it already under way (as a host's answer can come
    after the entries that follow the move)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.release = asyncio.Event()
        self.held: list[Act] = []

    async def submit_move(self, act: Act) -> None:
        await super().submit_move(act)
        while work_progress(self.table, None, self.seat) is None and self.local.step():
            pass
        self._emit(SessionEvent("entry", seq=self.table.seq - 1))
        self.held.append(act)
        await self.release.wait()


def _my_master_phase_with_a_master_card(view: Any) -> bool:
    from engine.games.vtes.offers import offers
    from engine.games.vtes.vocab import Phase

    return (
        view.acting == 0
        and view.phase == Phase.MASTER
        and not view.windows
        and any(o.do == "play" and "Master" in view.card(o.card).types for o in offers(view))
    )


async def test_a_move_sent_while_the_work_after_it_runs_says_sent_before_the_progress() -> None:
    """Mina plays a master card; the table has taken it and opens her replacement card before
    her screen hears back: the status line says her move is sent first, the work after it,
    never only the work."""
    local = played_vtes(_my_master_phase_with_a_master_card, seed=13)
    session = AckedLateSession(local, 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        keys_after_a_look(app)
        view = session.view()
        card = next(view.card(o.card) for o in offers(view) if o.do == "play" and "Master" in view.card(o.card).types)
        hand = screen.query_one("#vt-hand")
        hand.focus()
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        status = screen.query_one("#waiting")
        await pilot.press("p", "p")
        await eventually(lambda: len(session.held) == 1, 10, "the play taken, not yet answered", pilot=pilot)
        await eventually(lambda: screen.query_one("#work").display, 10, "the work under way", pilot=pilot)
        assert shown(status).startswith("✓ Sent"), shown(status)
        work = work_progress(session.table, None, 0)
        assert work is not None and work.brief.split(" (")[0] in shown(status), shown(status)
        session.release.set()
        await eventually(lambda: not screen.submitting, 10, "the play answered", pilot=pilot)
