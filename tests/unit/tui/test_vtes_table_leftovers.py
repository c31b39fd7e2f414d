"""What a tester found at the VTES table at 80x24, each fixed (the table in one process,
tests.support.vtes_table; a Pilot, waiting on conditions):

- the footer lists first the keys that answer what the table waits for (``.`` pass, ``A``
  auto-pass…): a long footer cuts its last keys, never those;
- a refusal (✗) the table has moved on from (a move folded since) is marked as said before it,
  muted, until the next key; chat does not outdate it;
- the game log stays at its end when the terminal is resized (a resumed game's log, at once);
- the set-up's progress counts seats against the table's ("4 of 5 players").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.binding import ActiveBinding, Binding
from textual.widgets._footer import FooterKey

from engine.games.vtes.vocab import Phase
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import burst
from tests.support.vtes_table import advance, dealt_vtes, keys_after_a_look, said
from tui.app import Start, VampireApp
from tui.games.vtes.keymap import TABLE_KEYS, answers_first
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.say import PAST
from tui.table_text import work_progress


class AutoPassSession(LocalGameSession):
    """A session that can pass by itself (as `vampire play`'s): ``A`` switches it."""

    auto_pass = True

    def set_auto_pass(self, on: bool) -> None:
        self.auto_pass = on


def _someone_elses_impulse(view: Any) -> bool:
    a = view.action
    return a is not None and a.impulse == 0 and a.actor != 0


def _my_influence(view: Any) -> bool:
    return view.acting == 0 and view.phase == Phase.INFLUENCE and view.action is None


def _app(until: Any, session_class: type[LocalGameSession] = LocalGameSession, auto: bool = False) -> VampireApp:
    local = dealt_vtes(11)
    advance(local, until, limit=60000)
    session = session_class(local, 0, log_path=Path("mina.vtlog"), auto=auto)
    return VampireApp(Start("table", session), name="Mina")


def _footer(app: VampireApp) -> list[tuple[str, int]]:
    """The footer's keys as shown, each with the column it ends at."""
    return [(k.key_display, k.region.right) for k in app.screen.query(FooterKey)]


def test_the_answers_come_first_whatever_the_keys_shown() -> None:
    every = {}
    for binding in TABLE_KEYS:
        assert isinstance(binding, Binding)
        if binding.show and binding.key not in every:
            every[binding.key] = ActiveBinding(None, binding, True, "")  # type: ignore[arg-type]
    ordered = list(answers_first(every))
    assert ordered[:7] == ["b", "full_stop", "s", "m", "P", "V", "A"]
    assert set(ordered) == set(every)
    quiet = {k: b for k, b in every.items() if k in ("n", "p", "colon")}
    assert list(answers_first(quiet)) == ["n", "p", "colon"]  # nothing to answer: the usual order


async def test_at_80x24_pass_and_auto_pass_lead_the_footer_on_your_impulse() -> None:
    app = _app(_someone_elses_impulse, AutoPassSession)
    # Asked every time (with its pass automatic, this seat would pass this window by itself).
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        app.screen.session.set_auto_pass(False)
        app.screen.refresh_table()
        await eventually(lambda: len(_footer(app)) > 3, 10, "the footer", pilot=pilot)
        await eventually(lambda: [k for k, _ in _footer(app)[:2]] == [".", "A"], 10, ". and A first", pilot=pilot)
        keys = _footer(app)
        assert all(right <= 80 for _, right in keys[:2])
        app.screen.key_clock = lambda: 1e9  # long after the screen changed: the key is played
        await pilot.press("A")
        await eventually(lambda: app.screen.session.auto_pass is True, 10, "auto-pass on", pilot=pilot)


async def test_a_refusal_the_table_moved_on_from_is_marked_as_said_before() -> None:
    app = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        session = app.screen.session
        await pilot.press("s")  # no combat: refused, and said why
        await eventually(
            lambda: said(app).startswith("✗ There is no combat to strike in"), 10, "the refusal", pilot=pilot
        )
        refusal = said(app)
        await session.chat("hello")  # chat: the table has not moved on
        await eventually(lambda: len(session.table.notes) and "hello" in session.table.notes[-1].text, 10, "chat")
        await pilot.pause(0.05)
        assert said(app) == refusal and app.screen.query_one("#vt-say").has_class("-illegal")
        notes = len(session.table.notes)
        await session.submit_move({"do": "phase"})  # a move folds: the refusal is of the moment before
        await eventually(lambda: len(session.table.notes) > notes, 10, "the move", pilot=pilot)
        await eventually(lambda: said(app) == PAST + refusal, 10, "the refusal marked as past", pilot=pilot)
        line = app.screen.query_one("#vt-say")
        assert line.has_class("-past") and not line.has_class("-illegal") and line.display
        await pilot.press("escape")  # any key: the turn line comes back
        await eventually(lambda: not line.has_class("-past"), 10, "the turn line back", pilot=pilot)
        assert not said(app).startswith(PAST)


async def test_the_game_log_stays_at_its_end_when_the_terminal_is_resized() -> None:
    app = _app(lambda v: v.turn >= 4 and v.acting == 0)
    async with app.run_test(size=(80, 40)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        log = app.screen.query_one("#log")
        await eventually(lambda: log.max_scroll_y > 10 and log.scroll_y == log.max_scroll_y, 10, "the log's end")
        await pilot.resize_terminal(80, 24)  # only the height changes: the log is shorter
        await eventually(lambda: log.size.height < 8, 10, "the smaller log", pilot=pilot)
        await pilot.pause(0.05)
        assert log.scroll_y == log.max_scroll_y  # (before: five lines short of its end)


class _Table:
    """What :func:`work_progress` reads of a table: 4 of its 5 seats owe a key share."""

    phase = "running"
    seq = 10
    names = ["Mina", "Lisa", "Scott", "Justine", "Richard"]

    def owed(self) -> list[tuple[int, str]]:
        return [(s, "key") for s in (1, 2, 3, 4)]

    def pending(self) -> Any:
        return type("P", (), {"waiting": "shuffling"})()

    def work_steps(self) -> tuple[int, int]:
        return 3, 40


def test_the_set_up_counts_the_players_against_the_table_s_seats() -> None:
    table: Any = _Table()
    progress = work_progress(table, {}, 0)
    assert progress is not None
    assert progress.text == "Shuffling: 4 of 5 players publish their key shares and prove them (3 of 40)"
    table.owed = lambda: [(s, "key") for s in range(5)]
    progress = work_progress(table, {}, 0)
    assert progress is not None and progress.text.startswith("Shuffling: all 5 players, you among them, publish")


async def test_a_refusal_said_before_the_last_move_goes_once_the_phase_changes() -> None:
    """The muted "Before the last move: …" line stays while the turn line says what it said when
    the refusal was outdated, and goes once it changes (another phase): a refusal of a moment long
    gone is stale."""
    app = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        session = app.screen.session
        await pilot.press("s")
        await eventually(lambda: said(app).startswith("✗ There is no combat"), 10, "the refusal", pilot=pilot)
        refusal = said(app)
        await session.submit_move({"do": "phase"})  # a move: the refusal is of the moment before
        await eventually(lambda: said(app) == PAST + refusal, 10, "the refusal marked as past", pilot=pilot)
        await session.submit_move({"do": "phase"})  # the phase after: the turn line changes again
        line = app.screen.query_one("#vt-say")
        await eventually(lambda: not said(app).startswith(PAST), 10, "the stale refusal gone", pilot=pilot)
        assert not line.has_class("-past") and "phase" in said(app)


async def test_keys_typed_in_the_burst_after_the_chat_s_enter_stay_out_of_the_words_sent() -> None:
    """A terminal sends "chi⏎nx" at once: the chat line opens, "hi" is sent, and "nx" lands
    neither in the chat's words nor, typed blind, as game keys."""
    app = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        session = screen.session
        keys_after_a_look(app)  # a key after the line closed would be played: none must reach the table
        chat = screen.query_one("#chat")
        burst(app, "chi\rnx")  # one burst, c included: no pause between them
        await eventually(lambda: any(n.text.endswith(": hi") or "hi" in n.text for n in session.table.notes[-3:]),
                         10, "the chat sent", pilot=pilot)  # fmt: skip
        await pilot.pause(0.1)
        chats = [n.render(list(session.table.names)) for n in session.table.notes if "hi" in n.text]
        assert chats and chats[-1].endswith("hi") and "nx" not in chats[-1], chats
        assert not chat.display and chat.value == "" and session.submitted == []


async def test_a_paste_that_starts_with_a_colon_opens_the_command_line_with_it() -> None:
    from textual import events

    app = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        hand = screen.query_one("#vt-hand")
        await eventually(lambda: hand.has_focus, 10, "the hand", pilot=pilot)
        hand.post_message(events.Paste(":transfer 1 to the first\nmore"))  # as the app gives it to the focus
        cmd = screen.query_one("#vt-cmd")
        await eventually(lambda: cmd.has_focus and cmd.value == "transfer 1 to the first", 10, "the line", pilot=pilot)
        await pilot.press("escape")
        await eventually(lambda: not cmd.has_focus, 10, "the line left", pilot=pilot)
        await pilot.press("colon")
        await eventually(lambda: cmd.has_focus, 10, "the line again", pilot=pilot)
        cmd.post_message(events.Paste(":hunt"))  # into the empty line: the colon is not a word of it
        await eventually(lambda: cmd.value == "hunt", 10, "the pasted command", pilot=pilot)
