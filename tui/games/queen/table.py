"""The Vampire Queen table: seats, the trick, the game log, your hand, chat, and the table's work.

The screen reads the session's table and view after every :class:`tui.messages.SessionUpdate` and
acts only through the session's coroutines, awaited in workers. A pick is checked against the
seat's own copy of the table (``session.check_move``) as it changes, so an illegal pick says why
before Enter and is never sent.
"""

from __future__ import annotations

import time
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, ProgressBar, Static

from engine.games.base import Act, IllegalMove
from engine.games.queen import card_word, set_words
from engine.games.queen.picks import pick_to_act
from tui.errors import explain
from tui.errors import sentence as _sentence
from tui.events import as_session_event
from tui.games.queen.present import seat_rows
from tui.games.queen.widgets.gamelog import GameLog
from tui.games.queen.widgets.hand import HandCard, HandView
from tui.games.queen.widgets.seats import SeatList
from tui.games.queen.widgets.trick import TrickView
from tui.messages import SessionUpdate
from tui.session import TableSession
from tui.table_text import head_text, waiting_text, work_progress
from tui.widgets.common.too_small import TooSmallNotice

#: Seconds a seat may keep the table waiting before the others are offered an abandon vote.
ABANDON_AFTER = 60


def pick_act(keys: tuple[Any, ...]) -> Act:
    """The act for the hand's picked keys (positions, and ``("H", 15)``/``("H", 20)`` for a
    hunter): :func:`engine.games.queen.picks.pick_to_act`. Raises IllegalMove as it does."""
    hunters = [k[1] for k in keys if k[0] == "H"]
    return pick_to_act([k for k in keys if k[0] != "H"], hunters)


class TableScreen(Screen[None]):
    """One seat at a Vampire Queen table."""

    BINDINGS = [
        Binding("enter", "play", "Play"),
        Binding("p", "pass_turn", "Pass"),
        Binding("c", "chat", "Chat"),
        Binding("a", "abandon", "Vote abandon"),
        Binding("l", "focus_log", "Log", show=False),
        Binding("escape", "back_to_hand", "Hand", show=False),
        Binding("f1", "app.help", "Help"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__()
        self.session = session
        self._unsubscribe: Any = None
        self._notes_seen = 0
        self._rounds_shown = 0
        self._ended_shown = False
        self._work_totals: dict[int, int] = {}
        self._pick_act: Act | None = None
        self._submitting = False
        self._last_change = time.monotonic()
        self._last_head = b""
        self._fault_shown = False
        self._stalled: tuple[int, ...] = ()
        self._link_lost = False

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        yield Static(id="title")
        with Horizontal(id="top"):
            yield SeatList(id="seats")
            yield TrickView(id="trick")
        yield GameLog(id="log")
        with Horizontal(id="status"):
            yield Label(id="waiting")
            yield ProgressBar(id="work", show_eta=False, show_percentage=False)
        yield HandView(id="hand")
        yield Static(id="pick")
        yield Input(id="chat", placeholder="Say something to the table (Enter sends, Esc closes)", max_length=500)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#seats").border_title = "Seats"
        self.query_one("#trick").border_title = "Trick"
        self.query_one("#log").border_title = "Game log"
        self.query_one("#chat").display = False
        self._unsubscribe = self.session.subscribe(self._on_session_event)
        self.query_one(HandView).focus()
        self.set_interval(1.0, self._tick)
        self.refresh_table()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_session_event(self, event: Any) -> None:
        # Called by the session, possibly from another thread: post_message is thread-safe.
        self.post_message(SessionUpdate(as_session_event(event)))

    # -- session events ----------------------------------------------------------------------------

    @on(SessionUpdate)
    def _session_update(self, message: SessionUpdate) -> None:
        event = message.event
        if event.kind == "error" and event.text:
            self.notify(event.text, title="Table", severity="error", timeout=10)
        elif event.kind == "connection" and event.text:
            # Connecting and connected are routine; a lost link, and getting it back, are news.
            if not event.ok:
                self._link_lost = True
                self.notify(event.text, title="Connection", severity="warning", timeout=8)
            elif self._link_lost:
                self._link_lost = False
                self.notify(event.text, title="Connection")
        elif event.kind == "closed" and event.text:
            self.notify(_sentence(event.text), title="Table closed")
        elif event.kind == "waiting":
            self._stalled = tuple(s for s in event.seats if s != self.session.seat)
        elif event.kind == "other":
            return
        self.refresh_table()

    def refresh_table(self) -> None:
        """Re-read everything from the session and redraw."""
        session = self.session
        table = session.table
        state = table.gstate
        names = table.names
        me = session.seat
        if table.head != self._last_head:
            self._last_head = table.head
            self._last_change = time.monotonic()
            self._stalled = ()
        # Title: who I am, where the game is, and the head fingerprint everyone can compare.
        parts = [table.game.title if table.game else "Vampire Table"]
        if me is not None and me < len(names):
            parts.append(f"{names[me]} (you, key {session.fingerprint})")
        elif me is None:
            parts.append("watching")
        if state is not None and state.round:
            rounds = state.option("rounds")
            parts.append(f"round {state.round} of {rounds}")
        parts.append(f"head {head_text(table)}")
        self.query_one("#title", Static).update(" · ".join(parts))
        # The log: every note not shown yet.
        if len(table.notes) > self._notes_seen:
            self.query_one(GameLog).add_notes(table.notes[self._notes_seen :], names)
            self._notes_seen = len(table.notes)
        if state is None:
            self.query_one(SeatList).update(waiting_text(table, me))
            self._show_status(table, me)
            return
        self.query_one(SeatList).show(seat_rows(state, names, me, table.waiting_on()))
        self.query_one(TrickView).show(state, names, me)
        self._show_status(table, me)
        view = session.view()
        hand = self.query_one(HandView)
        if view is not None and view.seat is not None:
            cards = [HandCard(pos, ident) for pos, ident in view.hand]
            cards += [HandCard(("H", h), f"H{h}") for h in view.hunters_held]
            hand.set_cards(cards)
        self._evaluate_pick()
        self._check_round_end(state, names)
        self.refresh_bindings()

    def _show_status(self, table: Any, me: int | None) -> None:
        label = self.query_one("#waiting", Label)
        bar = self.query_one("#work", ProgressBar)
        progress = work_progress(table, self._work_totals)
        waiting = waiting_text(table, me)
        if table.fault is not None and not self._fault_shown:
            self._fault_shown = True
            self.notify(
                _sentence(table.fault.describe(table.names)), title="Cheat proven", severity="error", timeout=30
            )
        if table.fault is not None:
            label.update("The table stopped: " + table.fault.describe(table.names))
            bar.display = False
            return
        if progress is not None:
            label.update(f"{progress.text}.")
            bar.display = True
            bar.update(total=max(progress.total, 1), progress=progress.done)
            return
        bar.display = False
        stalled = self._stalled_seat()
        if stalled is not None:
            secs = int(time.monotonic() - self._last_change)
            waiting += f" ({table.names[stalled]} has kept the table waiting {secs} s: a votes to end the wait.)"
        label.update(waiting)
        label.set_class(waiting == "Your turn.", "-your-turn")

    # -- picking and playing ---------------------------------------------------------------------

    def _my_turn(self) -> bool:
        table = self.session.table
        me = self.session.seat
        return me is not None and (me, "move") in table.owed()

    @on(HandView.PickChanged)
    def _pick_changed(self, message: HandView.PickChanged) -> None:
        self._evaluate_pick()
        self.refresh_bindings()

    def _evaluate_pick(self) -> None:
        """Say what Enter would do with the cards picked, or why it cannot."""
        hand = self.query_one(HandView)
        line = self.query_one("#pick", Static)
        keys = hand.picked_keys()
        table = self.session.table
        state = table.gstate
        self._pick_act = None
        mine = self._my_turn()
        if state is None or state.phase == "over" or table.phase in ("over", "stopped"):
            line.update("")
            return
        trick = state.trick
        if not keys:
            if state.phase != "play":
                line.update("")
                line.set_class(False, "-illegal")
                return
            if mine and trick is None:
                text = "Your lead: pick a set with ←/→ and Space (or the mouse), then Enter."
            elif mine and trick.hunter:
                text = "Hunter trick: pick one card with ←/→ and Space, then Enter. You may not pass."
            elif mine:
                need = "a higher card" if trick.size == 1 else f"{trick.size} higher cards"
                text = f"Your turn: beat {set_words(trick.best.cards)} with {need}, or pass (p)."
            else:
                text = "Pick cards with ←/→ and Space while you wait; Enter plays them on your turn."
            line.update(text)
            line.set_class(False, "-illegal")
            return
        try:
            act = pick_act(keys)
            if not mine:
                turn = state.turn
                who = table.names[turn] if 0 <= turn < len(table.names) else "the table"
                raise IllegalMove(f"not your turn yet: {who} is to play" if turn >= 0 else "nobody may play now")
            self.session.check_move(act)
        except IllegalMove as err:
            reason = str(err).strip().rstrip(".")
            line.update(f"✗ Cannot play that: {reason}.")
            line.set_class(True, "-illegal")
            return
        self._pick_act = act
        line.update(f"✓ Enter {self._act_words(act)}.")
        line.set_class(False, "-illegal")

    def _act_words(self, act: Act) -> str:
        if act["do"] == "hunter":
            return f"leads Hunter {act['hunter']}"
        hand = self.query_one(HandView)
        idents = tuple(c.ident for c in hand.picked_cards() if c.ident)
        trick = self.session.table.gstate.trick
        if trick is None:
            return f"leads {set_words(idents)}"
        if trick.hunter:
            return f"plays {card_word(idents[0])}"
        return f"plays {set_words(idents)}"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play":
            return True if self._pick_act is not None and not self._submitting else None
        if action == "pass_turn":
            state = self.session.table.gstate
            trick = getattr(state, "trick", None)
            ok = self._my_turn() and trick is not None and not trick.hunter and not self._submitting
            return True if ok else None
        if action == "abandon":
            return self._stalled_seat() is not None
        if action == "chat":
            return self.session.seat is not None or self.session.is_host
        return True

    def action_play(self) -> None:
        if self._pick_act is None or self._submitting:
            return
        self._submit(self._pick_act)

    def action_pass_turn(self) -> None:
        act: Act = {"do": "pass"}
        try:
            self.session.check_move(act)
        except IllegalMove as err:
            self.notify(explain(err), severity="warning")
            return
        self._submit(act)

    def _submit(self, act: Act) -> None:
        self._submitting = True
        self.refresh_bindings()
        self._send_move(act)

    @work(exclusive=True, group="move")
    async def _send_move(self, act: Act) -> None:
        try:
            await self.session.submit_move(act)
        except Exception as err:  # every failure is a sentence for the player
            self.notify(explain(err), title="Move refused", severity="error", timeout=10)
        else:
            self.query_one(HandView).clear_picks()
        finally:
            self._submitting = False
            self.refresh_table()

    # -- chat, log, abandon ----------------------------------------------------------------------

    def action_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.display = True
        chat.focus()

    def action_focus_log(self) -> None:
        self.query_one(GameLog).focus()

    def action_back_to_hand(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.display = False
        self.query_one(HandView).focus()

    @on(Input.Submitted, "#chat")
    def _chat_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        event.input.display = False
        self.query_one(HandView).focus()
        if text:
            self._send_chat(text)

    @work(group="chat")
    async def _send_chat(self, text: str) -> None:
        try:
            await self.session.chat(text)
        except Exception as err:  # every failure is a sentence for the player
            self.notify(explain(err), title="Chat", severity="error")

    def _stalled_seat(self) -> int | None:
        """A seat other than mine that has kept the table waiting longer than ABANDON_AFTER."""
        table = self.session.table
        if table.phase != "running" or self.session.seat is None:
            return None
        waited = table.waiting_on()
        for seat in self._stalled:
            if seat in waited:
                return seat
        if time.monotonic() - self._last_change < ABANDON_AFTER:
            return None
        others = [s for s in table.waiting_on() if s != self.session.seat]
        return others[0] if others else None

    def _tick(self) -> None:
        table = self.session.table
        if table.phase == "running" and time.monotonic() - self._last_change >= ABANDON_AFTER:
            self._show_status(table, self.session.seat)
            self.refresh_bindings()

    def action_abandon(self) -> None:
        seat = self._stalled_seat()
        if seat is None:
            return
        name = self.session.table.names[seat]
        self._vote(seat, name)

    @work(group="abandon")
    async def _vote(self, seat: int, name: str) -> None:
        try:
            await self.session.vote_abandon(seat)
        except Exception as err:  # every failure is a sentence for the player
            self.notify(explain(err), title="Abandon vote", severity="error")
        else:
            self.notify(f"You voted to end the wait for {name}.")

    # -- round and game end ----------------------------------------------------------------------

    def _check_round_end(self, state: Any, names: list[str]) -> None:
        from tui.games.queen.results import RoundEndScreen

        if self.session.table.fault is not None:
            self._show_game_end()  # a proven cheat stops the table: say so, with the evidence
            return
        done = len(getattr(state, "round_scores", ()))
        over = state.phase == "over"
        if done > self._rounds_shown:
            self._rounds_shown = done
            self.app.push_screen(RoundEndScreen(state, list(names), final=over), self._after_round)
        elif over and not self._ended_shown and done == self._rounds_shown and not self._round_modal_open():
            self._show_game_end()

    def _round_modal_open(self) -> bool:
        from tui.games.queen.results import RoundEndScreen

        return any(isinstance(s, RoundEndScreen) for s in self.app.screen_stack)

    def _after_round(self, _: Any = None) -> None:
        state = self.session.table.gstate
        if state is not None and state.phase == "over":
            self._show_game_end()

    def _show_game_end(self) -> None:
        from tui.screens.results import GameEndScreen

        if self._ended_shown:
            return
        self._ended_shown = True
        self.app.push_screen(GameEndScreen(self.session))
