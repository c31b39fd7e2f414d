"""The moment between pressing an answer key and the table taking it, at the VTES table at 80x24
(a tester, the automatic pass off, under load: "the table waits for you" stayed about 2 s after
``.``, and a second ``.`` was refused naming the next holder of the impulse). The table's answer
is held back by the test (injected, never slept): in that moment the status line and the action
box say the pass is sent, the footer lists no answer key, ``.`` again says the answer is on its way and sends
nothing; once the table takes it, both move on together."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from textual.widgets import Footer

from engine.games.base import Act
from engine.games.vtes.vocab import CombatStep, Poll
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import shown
from tests.support.vtes_table import keys_after_a_look, played_vtes, said
from tui.app import Start, VampireApp
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.action import ActionBox
from tui.games.vtes.widgets.combat import CombatBox
from tui.games.vtes.widgets.referendum import ReferendumBox


class HeldSession(LocalGameSession):
    """A session whose moves reach the table only when the test lets them (:attr:`release`):
    the host's answer held back, as under load."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.release = asyncio.Event()
        self.held: list[Act] = []

    async def submit_move(self, act: Act) -> None:
        self.held.append(act)
        await self.release.wait()
        await super().submit_move(act)


def _my_impulse_in_another_s_action(view: Any) -> bool:
    a = view.action
    return a is not None and a.actor != 0 and a.impulse == 0 and view.innermost is a


def _footer_keys(app: VampireApp) -> list[str]:
    """The keys the footer shows now (its key widgets, as drawn)."""
    footer = app.screen.query_one(Footer)
    return [k.key for k in footer.query("FooterKey") if k.display]


def _held_app() -> tuple[HeldSession, VampireApp]:
    session = HeldSession(played_vtes(_my_impulse_in_another_s_action), 0, log_path=Path("mina.vtlog"), auto=False)
    return session, VampireApp(Start("table", session), name="Mina")


async def _at_my_impulse(app: VampireApp, pilot: Any) -> tuple[Any, Any]:
    """The table screen once the table waits for Mina's answer: the screen and its status line."""
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
    screen = app.screen
    keys_after_a_look(app)
    status = screen.query_one("#waiting")
    await eventually(lambda: "the table waits for you" in shown(status), 10, "the impulse", pilot=pilot)
    return screen, status


async def test_after_a_pass_the_screen_says_it_is_sent_until_the_table_takes_it() -> None:
    session, app = _held_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen, status = await _at_my_impulse(app, pilot)
        await eventually(lambda: "full_stop" in _footer_keys(app), 10, "the footer's pass", pilot=pilot)
        frames = _record_frames(app, status)
        await pilot.press("full_stop")
        await eventually(lambda: len(session.held) == 1, 10, "the pass on its way", pilot=pilot)
        # The moment between: the answer is sent, the table has not taken it; the footer changed
        # in the same call as the status line, not a redraw later.
        assert shown(status).startswith("✓ Sent: Mina passes"), shown(status)
        assert "waits for you" not in shown(status)
        assert "full_stop" not in _footer_keys(app), _footer_keys(app)
        assert not set(_footer_keys(app)) & {"b", "s", "m", "P", "V", "n", "t", "h", "i"}, _footer_keys(app)
        box = shown(screen.query_one(ActionBox))
        assert "you:" not in box and "your answer is sent" in box, box
        await pilot.press("full_stop")
        await eventually(lambda: "on its way" in said(app), 10, "the second pass refused", pilot=pilot)
        assert said(app).startswith("✗ Your answer is on its way"), said(app)
        assert len(session.held) == 1 and session.submitted == []
        # The table takes it: the status line and the footer move on together.
        session.release.set()
        await eventually(lambda: not screen.submitting, 10, "the pass taken", pilot=pilot)
        await eventually(lambda: not shown(status).startswith("✓ Sent"), 10, "the sent line gone", pilot=pilot)
        assert [a["do"] for a in session.submitted] == ["pass"]
        waits_for_me = "waits for you" in shown(status)
        assert ("full_stop" in _footer_keys(app)) == waits_for_me, (shown(status), _footer_keys(app))
        # Every frame drawn since the key: the footer lists the pass exactly when the status line
        # says the table waits for you (never a frame with the old keys under the new line).
        assert any(line.startswith("✓ Sent") for line, _ in frames), frames
        wrong = [(line, keys) for line, keys in frames if ("full_stop" in keys) != ("waits for you" in line)]
        assert not wrong, wrong


def _record_frames(app: VampireApp, status: Any) -> list[tuple[str, list[str]]]:
    """From now on, at each frame the app draws: the status line and the footer's keys."""
    frames: list[tuple[str, list[str]]] = []
    display = app._display

    def recorded(screen: Any, renderable: Any) -> None:
        if renderable is not None and screen is app.screen:
            frames.append((shown(status), _footer_keys(app)))
        display(screen, renderable)

    app._display = recorded  # type: ignore[method-assign]
    return frames


async def test_a_pass_sent_while_the_host_is_away_says_it_goes_out_when_the_table_is_back() -> None:
    """The host quit (the link is lost): a move still leaves this screen, held until the table is
    back; the screen never reads a plain "✓ Sent" then."""
    from tui.messages import SessionUpdate
    from tui.session import SessionEvent

    session, app = _held_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen, status = await _at_my_impulse(app, pilot)
        lost = SessionEvent("connection", text="The connection to the table was lost", ok=False)
        screen.post_message(SessionUpdate(lost))
        await eventually(lambda: screen.host_away, 10, "the link lost", pilot=pilot)
        await pilot.press("full_stop")
        await eventually(lambda: len(session.held) == 1, 10, "the pass on its way", pilot=pilot)
        away = "Sent; the host is away: it goes out when the table is back (Mina passes"
        await eventually(lambda: shown(status).startswith(away), 10, "the status line", pilot=pilot)
        assert "✓ Sent" not in said(app), said(app)
        session.release.set()
        await eventually(lambda: not screen.submitting, 10, "the pass taken", pilot=pilot)


def _my_strike(view: Any) -> bool:

    c = view.combat
    return c is not None and view.innermost is c and c.step == CombatStep.STRIKE and c.impulse == 0


def _my_votes(view: Any) -> bool:

    r = view.referendum
    return r is not None and view.innermost is r and r.step == Poll.VOTING and 0 not in r.done


async def _box_while_sent(until: Any, box_type: type, key: str, keys: tuple[str, ...]) -> None:
    """At ``until``, ``key`` answers the window ``box_type`` shows: while the answer is on its way
    the box lists none of ``keys`` and says it is sent, as the status line does."""
    session = HeldSession(played_vtes(until, limit=60000), 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        keys_after_a_look(app)
        box = screen.query_one(box_type)
        await eventually(lambda: box.has_class("-yours"), 10, "the window waits for Mina", pilot=pilot)
        assert all(k in shown(box) for k in keys), shown(box)
        await pilot.press(key)
        await eventually(lambda: len(session.held) == 1, 10, "the answer on its way", pilot=pilot)
        assert shown(screen.query_one("#waiting")).startswith("✓ Sent"), shown(screen.query_one("#waiting"))
        said_box = shown(box)
        assert "your answer is sent" in said_box and not box.has_class("-yours"), said_box
        assert not any(k in said_box for k in keys), said_box
        session.release.set()
        await eventually(lambda: not screen.submitting, 10, "the answer taken", pilot=pilot)
        await eventually(lambda: "your answer is sent" not in shown(box), 10, "the box moves on", pilot=pilot)


async def test_the_combat_box_lists_no_key_while_the_strike_is_on_its_way() -> None:

    await _box_while_sent(_my_strike, CombatBox, "s", ("s hand strike",))


async def test_the_referendum_box_lists_no_key_while_this_seat_s_answer_is_on_its_way() -> None:

    await _box_while_sent(_my_votes, ReferendumBox, "full_stop", (". done",))


def _my_block_in_another_s_bleed(view: Any) -> bool:
    a = view.action
    return a is not None and a.actor != 0 and view.innermost is a and view.may_block(0)


async def test_while_a_block_is_sent_the_footer_offers_no_bleed() -> None:
    """A tester's block went out on another's turn, and the footer read "b Bleed" while it was on
    its way: b is a block in another's action, never a bleed."""
    session = HeldSession(played_vtes(_my_block_in_another_s_bleed), 0, log_path=Path("mina.vtlog"), auto=False)
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)
        await eventually(lambda: "b" in _footer_keys(app), 10, "the footer's block", pilot=pilot)
        await pilot.press("b")
        await eventually(lambda: len(session.held) == 1, 10, "the block on its way", pilot=pilot)
        await pilot.pause()
        assert "b" not in _footer_keys(app), _footer_keys(app)
        session.release.set()
        await eventually(lambda: not app.screen.submitting, 10, "the block taken", pilot=pilot)
        assert [a["do"] for a in session.submitted] == ["block"], session.submitted
