"""What testers met at the VTES table at 80x24, each fixed (the table in one process,
tests.support.vtes_table, frozen: the bots wait; a Pilot, waiting on conditions, never sleeping):

- a window this seat passes by itself (its automatic pass on, nothing to block or play) is never
  shown as waiting for it: the status line and the action box say that the seat passes by itself,
  and ``.`` says so too rather than naming another seat;
- letters typed at once after the command line closes are not game keys: none makes an act (each
  is refused with a line that says why), until a moment without keys has passed (the screen's key
  clock, set by the test); a key typed in that moment and handled late (the program was busy with
  the command's act) is judged by when it was typed;
- ``b`` during a bleed this seat can never block says why, not "you may block when it reaches you";
- ``a`` only ever announces an action (a seat stalled in this seat's own turn or not): ``E`` ends
  a long wait;
- ``e`` just after a play reads the card played, as its note says;
- a burst typed at terminal speed (every key queued before the first is handled) reaches the
  command line whole.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual import events

from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.offers import offers
from engine.games.vtes.vocab import Phase
from tests.support.local_session import LocalGameSession
from tests.support.poll import eventually
from tests.support.tui import burst, shown
from tests.support.vtes_table import advance, dealt_vtes, keys_after_a_look, said
from tui.app import Start, VampireApp
from tui.games.vtes import status_line
from tui.games.vtes.key_guard import KEY_GUARD_S
from tui.games.vtes.table import VtesTableScreen
from tui.games.vtes.widgets.action import ActionBox
from tui.key_wait import EVENT_CLOCK


class AutoPassSession(LocalGameSession):
    """A session whose seat passes by itself (as `vampire play`'s): ``A`` switches it."""

    auto_pass = True

    def set_auto_pass(self, on: bool) -> None:
        self.auto_pass = on


class Clock:
    """The screen's key clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _app(
    until: Any, session_class: type[LocalGameSession] = LocalGameSession, seed: int = 11
) -> tuple[VampireApp, Any]:
    local = dealt_vtes(seed)
    advance(local, until, limit=60000)
    session = session_class(local, 0, log_path=Path("mina.vtlog"), auto=False)
    return VampireApp(Start("table", session), name="Mina"), session


def _my_impulse_passed_by_itself(view: Any) -> bool:
    a = view.action
    return a is not None and a.impulse == 0 and a.actor != 0 and auto_pass(view) is not None


async def test_a_window_this_seat_passes_by_itself_is_never_shown_as_waiting_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    statuses: list[str] = []
    real = status_line.vtes_status

    def recorded(*args: Any, **kwargs: Any) -> Any:
        status = real(*args, **kwargs)
        if status is not None and status.text is not None:
            statuses.append(status.text)
        return status

    monkeypatch.setattr(status_line, "vtes_status", recorded)
    app, _ = _app(_my_impulse_passed_by_itself, AutoPassSession)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        box = app.screen.query_one(ActionBox)
        await eventually(lambda: "passes by itself" in shown(box), 10, "the action box", pilot=pilot)
        assert not box.has_class("-yours") and "you:" not in shown(box)
        waiting = shown(app.screen.query_one("#waiting"))
        assert "passes by itself" in waiting, waiting
        assert statuses and not any("waits for you" in s or "Your impulse" in s for s in statuses), statuses
        app.screen.key_clock = lambda: 1e9  # long after the screen changed
        await pilot.press("full_stop")
        await eventually(lambda: said(app).startswith("✗ Your seat passes by itself"), 10, "why not", pilot=pilot)
        assert app.screen.session.submitted == []
        # A: asked every time: now the window waits for the player, and says so.
        await pilot.press("A")
        await eventually(lambda: "Your impulse" in shown(app.screen.query_one("#waiting")), 10, "asked", pilot=pilot)
        assert box.has_class("-yours") and "you:" in shown(box)


def _my_influence(view: Any) -> bool:
    return view.acting == 0 and view.phase == Phase.INFLUENCE and view.action is None and view.transfers > 0


async def _pool_change_made(app: Any, session: Any, pilot: Any) -> Clock:
    """On the table screen, ``:pool +1 for test`` entered and taken; the screen's key clock, for
    the test to move."""
    await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
    clock = Clock()
    app.screen.key_clock = clock
    await pilot.press("colon", *[("space" if c == " " else c) for c in "pool +1 for test"], "enter")
    await eventually(lambda: len(session.submitted) == 1, 10, "the pool change sent", pilot=pilot)
    await eventually(lambda: not app.screen.submitting, 10, "the pool change taken", pilot=pilot)
    return clock


async def _a_key_after_a_moment_is_taken(session: Any, pilot: Any, clock: Clock) -> None:
    """A moment without keys: the next one (t, a transfer) is played again."""
    clock.now += KEY_GUARD_S * 2
    await pilot.press("t")
    await eventually(lambda: len(session.submitted) == 2, 10, "the transfer", pilot=pilot)
    assert session.submitted[1]["do"] == "transfer"


async def test_letters_typed_at_once_after_the_command_line_closes_make_no_act() -> None:
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        clock = await _pool_change_made(app, session, pilot)
        # Typed on as if the line were still open: n (next phase), t (transfer), d (draw)… in a burst.
        for c in "vote for card":
            await pilot.press("space" if c == " " else c)
            clock.now += KEY_GUARD_S / 2  # each key soon after the last: the burst stays refused
        await pilot.pause(0.05)
        assert session.submitted == [session.submitted[0]], session.submitted
        assert session.submitted[0]["do"] == "pool"
        # One line for the whole burst.
        assert re.fullmatch(r"✗ Not played: the command line just closed\.", said(app)), said(app)
        await _a_key_after_a_moment_is_taken(session, pilot, clock)


async def test_a_key_typed_just_after_the_command_line_closed_is_refused_however_late_it_is_handled() -> None:
    """The program was busy after the command (its act signed, written, drawn): the key typed a
    moment after the line closed waited in the queue and came after the guard's time had passed on
    the clock. It is judged by when it was typed: refused; a key typed after the moment is taken."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        clock = await _pool_change_made(app, session, pilot)
        busy = KEY_GUARD_S * 2  # the program was busy this long after the line closed
        clock.now += busy
        late = events.Key("n", "n")  # typed KEY_GUARD_S / 2 after the line closed, handled only now
        late.time = EVENT_CLOCK() - (busy - KEY_GUARD_S / 2)
        app.post_message(late)
        await eventually(lambda: said(app).startswith("✗"), 10, "the refusal", pilot=pilot)
        assert said(app) == "✗ Not played: the command line just closed.", said(app)
        assert [a["do"] for a in session.submitted] == ["pool"], session.submitted
        await _a_key_after_a_moment_is_taken(session, pilot, clock)


async def test_a_burst_typed_at_terminal_speed_goes_whole_to_the_command_line() -> None:
    """``:``, a command, Enter and more letters in one burst, as a terminal delivers them (every
    key queued before the first is handled): the command line takes every letter of the command,
    makes its act once, and the letters after Enter are not game keys."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        app.screen.key_clock = Clock()  # the burst takes no time
        burst(app, ":pool +1 for test\rntd vote for card")
        await eventually(lambda: len(session.submitted) == 1, 10, "the pool change sent", pilot=pilot)
        await eventually(lambda: not app.screen.submitting, 10, "the pool change taken", pilot=pilot)
        await pilot.pause(0.05)
        assert len(session.submitted) == 1, session.submitted  # nothing of "ntd vote for card"
        assert session.submitted[0]["do"] == "pool" and session.submitted[0]["cause"] == "test", session.submitted
        assert not app.screen.query_one("#vt-cmd").has_focus


async def test_a_command_refused_in_a_burst_keeps_its_refusal_under_the_board() -> None:
    """A command typed and entered in one burst and refused: the refusal stays under the board
    (the completions of the last letters typed, which come later, do not cover it)."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        app.screen.key_clock = Clock()
        burst(app, ":transfer 99\r")
        await eventually(lambda: said(app).startswith("✗"), 10, "the refusal", pilot=pilot)
        for _ in range(3):
            await pilot.pause()
        assert said(app).startswith("✗"), said(app)
        assert session.submitted == []


def _a_bleed_i_cannot_block(view: Any) -> bool:
    a = view.action
    return a is not None and a.actor != 0 and a.impulse != 0 and 0 not in view.blockers()


async def test_b_says_why_a_seat_that_can_never_block_a_bleed_does_not() -> None:
    app, session = _app(_a_bleed_i_cannot_block)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        app.screen.key_clock = lambda: 1e9
        await pilot.press("b")
        await eventually(lambda: said(app).startswith("✗"), 10, "the refusal", pilot=pilot)
        assert "reaches you" not in said(app) and "may block this action (4.2)" in said(app), said(app)
        by_key = said(app)
        # The command says it in the same words: both are the engine's sentence.
        await pilot.press("colon", *"block", "enter")
        await eventually(
            lambda: said(app).startswith("✗") and said(app) != "", 10, "the command's refusal", pilot=pilot
        )
        assert said(app) == by_key
        assert session.submitted == []
        box = shown(app.screen.query_one(ActionBox))
        assert "you may block" not in box and "or you" not in box, box


async def _refusal_of(app: Any, pilot: Any, *keys: str) -> str:
    """The line a refused key (or command line) leaves under the board."""
    app.screen.say("", False)
    await pilot.press(*keys)
    await eventually(lambda: said(app).startswith("✗"), 10, "the refusal", pilot=pilot)
    return said(app)


@pytest.mark.parametrize(("key", "command"), [("s", "strike"), ("full_stop", "pass"), ("m", "maneuver"), ("V", "vote")])
async def test_a_refusal_reads_the_same_by_key_and_by_command(key: str, command: str) -> None:
    """A key refused now and the command of the same act say the same sentence: both are the
    engine's (or the command reader's) sentence for that act."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        keys_after_a_look(app)  # each key after a look at the screen: no guard
        by_key = await _refusal_of(app, pilot, key)
        typed = ["space" if c == " " else c for c in command]
        by_command = await _refusal_of(app, pilot, "colon", *typed, "enter")
        assert by_key == by_command, (by_key, by_command)
        assert session.submitted == []


def _my_influence_phase(view: Any) -> bool:
    return view.acting == 0 and view.phase == Phase.INFLUENCE and view.action is None


async def test_a_with_no_action_to_announce_says_why_in_the_engine_s_words() -> None:
    """``a`` only ever announces an action: in the seat's own influence phase it says why none can
    be announced (the engine's sentence, P2), never what a vote to end a wait would do."""
    app, session = _app(_my_influence_phase)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        app.screen.key_clock = lambda: 1e9
        await pilot.press("a")
        await eventually(lambda: said(app).startswith("✗"), 10, "a sentence", pilot=pilot)
        assert "announced in your minion phase, and this is your influence phase" in said(app), said(app)
        assert not any("wait" in str(n.message) for n in app._notifications)
        assert session.submitted == []


def _my_minion_phase_with_an_action(view: Any) -> bool:
    return (
        view.acting == 0
        and view.phase == Phase.MINION
        and not view.windows
        and any(o.do == "action" for o in offers(view))
    )


async def test_a_announces_and_e_ends_the_wait_while_a_seat_is_stalled_in_my_own_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat has kept the table waiting while it is this seat's minion phase: ``a`` still opens
    the announce menu (no vote), ``E`` votes to end the wait, and the footer lists both."""
    from tui.games.vtes.menus import AnnounceMenu
    from tui.screens.table import TableFrame

    monkeypatch.setattr(TableFrame, "_stalled_seat", lambda self: 1)
    votes: list[int] = []

    app, session = _app(_my_minion_phase_with_an_action)

    async def vote(seat: int) -> None:
        votes.append(seat)

    monkeypatch.setattr(session, "vote_abandon", vote)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        screen.key_clock = lambda: 1e9

        def footer() -> dict[str, str]:
            return {k: b.binding.action for k, b in screen.active_bindings.items() if b.enabled and b.binding.show}

        await eventually(lambda: footer().get("a") == "announce" and footer().get("E") == "abandon", 10, "the footer")
        await pilot.press("a")
        await eventually(lambda: isinstance(app.screen, AnnounceMenu), 10, "the announce menu", pilot=pilot)
        assert votes == []
        await pilot.press("escape")
        await eventually(lambda: app.screen is screen, 10, "the table again", pilot=pilot)
        await pilot.press("E")
        await eventually(lambda: votes == [1], 10, "the vote", pilot=pilot)
        assert session.submitted == []


def _leaves_a_note(c: Any) -> bool:
    """A master card the table does not apply whole: its play leaves a note of what is left."""
    from engine.games.vtes.card_record import Coverage, record

    rec = record(c.card) if c is not None and c.card else None
    return c is not None and "Master" in c.types and (rec is None or rec.coverage != Coverage.FULLY)


def _my_master_phase_with_a_master_card(view: Any) -> bool:
    return (
        view.acting == 0
        and view.phase == Phase.MASTER
        and not view.windows
        and any(o.do == "play" and _leaves_a_note(view.card(o.card)) for o in offers(view))
    )


async def test_e_just_after_a_play_reads_the_card_played_as_its_note_says() -> None:
    """While the note after a play says what is left to do with the card ("e reads it"), e shows
    the card played (gone from the hand), not the hand card highlighted next."""
    from tui.games.vtes.menus import CardBox

    app, session = _app(_my_master_phase_with_a_master_card, seed=13)  # a game where one is in hand
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        keys_after_a_look(app)
        view = session.view()
        card = next(view.card(o.card) for o in offers(view) if o.do == "play" and _leaves_a_note(view.card(o.card)))
        hand = screen.query_one("#vt-hand")
        hand.focus()
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        await pilot.press("p", "p")  # the first names the card, the second plays it
        await eventually(lambda: "is played" in said(app), 10, "the after-play note", pilot=pilot)
        await eventually(lambda: not screen.submitting, 10, "the play taken", pilot=pilot)
        await pilot.press("e")
        await eventually(lambda: isinstance(app.screen, CardBox), 10, "the card's box", pilot=pilot)
        assert app.screen.text.plain.startswith(card.name), (app.screen.text.plain[:60], card.name)


async def test_a_second_p_at_once_plays_the_card_the_first_named() -> None:
    """``p`` names the card it would play ("p again plays it"): the second ``p``, however soon,
    answers that line and plays it (a tester's was refused as "typed just after"); any other
    letter typed at once after the line is still refused."""
    app, session = _app(_my_master_phase_with_a_master_card, seed=13)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        view = session.view()
        card = next(view.card(o.card) for o in offers(view) if o.do == "play" and _leaves_a_note(view.card(o.card)))
        hand = screen.query_one("#vt-hand")
        hand.focus()
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        await pilot.pause()
        clock = Clock()
        screen.key_clock = clock  # from now on no time passes between keys
        await pilot.press("p")
        await eventually(lambda: "p again plays it" in said(app), 10, "the card named", pilot=pilot)
        await pilot.press("t")
        await eventually(lambda: said(app).startswith("✗ Not played: typed just after “p plays"), 10, "t", pilot=pilot)
        await pilot.press("p")
        await eventually(lambda: "is played" in said(app), 10, "the card played", pilot=pilot)
        assert [a["do"] for a in session.submitted] == ["play"], session.submitted


def _my_impulse_with_a_card_not_offered(view: Any) -> bool:
    from tui.games.vtes.key_acts import not_offered_in_action

    a = view.action
    return (
        a is not None
        and a.impulse == 0
        and view.innermost is a
        and any(not_offered_in_action(view, c) is not None for c in view.hand)
    )


async def test_p_away_from_the_hand_says_at_once_that_a_card_not_offered_is_not_played() -> None:
    """With the table focused, ``p`` names the card before playing it ("p again plays it"), but
    a card the action does not offer is refused at once with the sentence that names the command
    (a tester read "p again plays it", then "not offered in this action" on the second p)."""
    from tui.games.vtes.key_acts import not_offered_in_action

    app, session = _app(_my_impulse_with_a_card_not_offered)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        keys_after_a_look(app)
        view = session.view()
        card = next(c for c in view.hand if not_offered_in_action(view, c) is not None)
        hand = screen.query_one("#vt-hand")
        hand.highlighted = hand.get_option_index(f"h-{card.pos[0]}-{card.pos[1]}")
        await pilot.pause()
        await pilot.press("tab")  # away from the hand
        await pilot.press("p")
        await eventually(lambda: "is not offered in this action" in said(app), 10, "the refusal", pilot=pilot)
        assert "p again plays it" not in said(app) and not session.submitted


async def test_a_word_typed_just_after_a_refused_key_moves_nothing_and_says_so() -> None:
    """``V`` refused (no vote to cast), then "vote against edge" typed at once as if a line had
    opened (a tester's ``d`` drew a card and ``e`` opened a box): the letters are not game keys,
    one line says so with the refusal they followed, and a key after a moment acts again."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        clock = Clock()
        app.screen.key_clock = clock
        screen = app.screen
        await pilot.press("V")
        await eventually(lambda: said(app).startswith("✗"), 10, "the refusal", pilot=pilot)
        refused = said(app).removeprefix("✗ ")
        for c in "vote against edge":
            clock.now += KEY_GUARD_S / 2
            await pilot.press("space" if c == " " else c)
        await pilot.pause(0.05)
        assert session.submitted == [] and app.screen is screen, session.submitted
        assert re.fullmatch(r"✗ Not (played|opened): typed just after “(.*)”\.", said(app)), said(app)
        # The refusal quoted without its own full stop: one stop ends the line (never ".”.").
        assert said(app).endswith(f"“{refused.removesuffix('.')}”.") and ".”." not in said(app), (said(app), refused)
        clock.now += KEY_GUARD_S * 2
        await pilot.press("t")
        await eventually(lambda: len(session.submitted) == 1, 10, "the transfer", pilot=pilot)
        assert session.submitted[0]["do"] == "transfer"


async def test_keys_dropped_after_the_chat_line_went_out_are_said_once() -> None:
    """``c``, a line, Enter and ``n`` in one burst: ``n`` is neither chat nor a game key, and the
    line under the board says so (before, it was lost without a word)."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        app.screen.key_clock = Clock()
        burst(app, "chello table\rn")
        await eventually(lambda: "Not taken" in said(app), 10, "the dropped keys said", pilot=pilot)
        assert said(app) == "✗ Not taken: keys typed just after the chat line went out; type them again."
        assert session.submitted == []


async def test_a_guarded_key_that_plays_nothing_is_not_said_to_be_not_played() -> None:
    """``L`` (the whole log) just after the command line closed: refused as not opened, never
    "not played" (it plays nothing)."""
    app, session = _app(_my_influence)
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        screen = app.screen
        screen.key_clock = Clock()
        await pilot.press("colon", "escape", "L")
        await eventually(lambda: said(app).startswith("✗"), 10, "the guard's line", pilot=pilot)
        assert said(app) == "✗ Not opened: the command line just closed.", said(app)
        assert app.screen is screen


async def test_a_window_is_not_said_to_pass_by_itself_before_the_table_waits_for_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seat's driver passes by itself only once the table waits for its move (a draw's shares
    come first, and the card drawn may be one to play): until then the screen never says that it
    passes by itself (a tester read it, then "The combat waits for you" for 10 s)."""
    from engine.table.table import Table

    app, session = _app(_my_impulse_passed_by_itself, AutoPassSession)
    waits = {"move": False}
    real = Table.owes_move
    monkeypatch.setattr(Table, "owes_move", lambda self, seat: waits["move"] and real(self, seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        box = app.screen.query_one(ActionBox)
        await eventually(lambda: "impulse" in shown(box), 10, "the action box", pilot=pilot)
        assert "passes by itself" not in shown(box)
        assert "passes by itself" not in shown(app.screen.query_one("#waiting"))
        waits["move"] = True
        app.screen.refresh_table()
        await eventually(lambda: "passes by itself" in shown(box), 10, "the automatic pass said", pilot=pilot)


async def test_while_a_draw_settles_the_status_line_never_says_the_table_waits_for_you(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The impulse is this seat's in its view, but the table does not wait for its move yet (a
    draw's shares come first): the status line says the table is settling, the third state, and
    "waits for you" only once the table truly waits for this seat's move."""
    from engine.table.table import Table
    from tui.games.vtes.action_text import SETTLING

    app, session = _app(_my_impulse_passed_by_itself)  # asks every time: no automatic pass
    waits = {"move": False}
    real = Table.owes_move
    monkeypatch.setattr(Table, "owes_move", lambda self, seat: waits["move"] and real(self, seat))
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table screen", pilot=pilot)
        status = app.screen.query_one("#waiting")
        await eventually(lambda: "Settling" in shown(status), 10, "the settling state", pilot=pilot)
        assert shown(status).startswith(SETTLING.split(" (")[0]) and "waits for you" not in shown(status)
        waits["move"] = True
        app.screen.refresh_table()
        await eventually(lambda: "the table waits for you" in shown(status), 10, "the wait said", pilot=pilot)
