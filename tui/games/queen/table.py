"""The Vampire Queen table: seats and the trick above the game log, your hand and what Enter would
play below it, in the frame every table shares (:class:`tui.screens.table.TableFrame`: the title,
the status line, chat, the abandon vote).

A pick is checked against the seat's own copy of the table (``session.check_move``) as it changes,
so an illegal pick says why before Enter and is never sent.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Static

from engine.errors import VampireError
from engine.games.base import Act, IllegalMove
from engine.games.queen import card_word, set_words
from engine.games.queen.picks import pick_to_act
from engine.games.queen.spec import SPEC
from engine.table import Table
from tui.errors import explain
from tui.games.queen.present import beat_words, seat_rows
from tui.games.queen.widgets.gamelog import GameLog
from tui.games.queen.widgets.hand import HandCard, HandView
from tui.games.queen.widgets.seats import SeatList
from tui.games.queen.widgets.trick import TrickView
from tui.screens.table import TableFrame
from tui.session import TableSession
from tui.table_text import waiting_text
from tui.widgets.common.title import show_in_place


def shown_text(widget: Static) -> str:
    """The plain text a Static shows now."""
    content = widget.content
    return content.plain if hasattr(content, "plain") else str(content)


def pick_act(keys: tuple[Any, ...]) -> Act:
    """The act for the hand's picked keys (positions, and ``("H", 15)``/``("H", 20)`` for a
    hunter): :func:`engine.games.queen.picks.pick_to_act`. Raises IllegalMove as it does."""
    hunters = [k[1] for k in keys if k[0] == "H"]
    return pick_to_act([k for k in keys if k[0] != "H"], hunters)


AUTO_PASS_WORDS = "You pass (nothing beats the lead; A: ask every time)"
"""The line under the hand when this seat passes by itself (its automatic pass, ``A`` switches it)."""


def _trick_key(state: Any) -> tuple[object, ...] | None:
    """The trick being played in ``state``, told apart from every other trick of the game (its
    round, leader and lead), or None when none is."""
    trick = getattr(state, "trick", None)
    if trick is None or not trick.plays:
        return None
    return (state.round, trick.leader, trick.plays[0])


class TableScreen(TableFrame, inherit_bindings=False):
    """One seat at a Vampire Queen table."""

    BINDINGS = [
        Binding("enter", "play", "Play"),
        Binding("p", "pass_turn", "Pass"),
        # While Enter or p can do nothing they leave the footer; pressed anyway, these say why.
        Binding("enter", "why_not('play')", "Play", show=False),
        Binding("p", "why_not('pass')", "Pass", show=False),
        Binding("A", "auto_pass", "Auto-pass"),
        *TableFrame.FRAME_BINDINGS,
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self._rounds_shown = 0
        self._pick_act: Act | None = None
        self._judged: tuple[Any, ...] | None = None  # the picked keys _pick_act was judged for
        self._why: tuple[str, bool] | None = None  # (why a key did nothing, my turn then), until things change
        self._pressed_pass: tuple[object, ...] | None = None  # the trick this person passed in with p

    # -- the board -------------------------------------------------------------------------------

    def compose_top(self) -> ComposeResult:
        # Titled here, not in on_mount: a screen the app closes as it opens never mounts its
        # widgets, and its on_mount must not look for them.
        seats, trick = SeatList(id="seats"), TrickView(id="trick")
        seats.border_title, trick.border_title = "Seats", "Trick"
        with Horizontal(id="top"):
            yield seats
            yield trick

    def compose_bottom(self) -> ComposeResult:
        yield HandView(id="hand")
        yield Static(id="pick")

    def note_log(self) -> GameLog:
        return GameLog(id="log")

    def home_widget(self) -> Widget:
        return self.query_one(HandView)

    def title_parts(self, table: Table) -> list[str]:
        state = table.gstate
        if state is None or not state.round:
            return []
        return [f"round {state.round} of {state.option('rounds')}"]

    def show_board(self, table: Table) -> None:
        state = table.gstate
        names = table.names
        me = self.session.seat
        if state is None:
            self.query_one(SeatList).update(waiting_text(table, me))
            return
        self.query_one(SeatList).show(seat_rows(state, names, me, table.waiting_on()))
        self.query_one(TrickView).show(state, names, me)
        view = self.session.view()
        if view is not None and view.seat is not None:
            cards = [HandCard(pos, ident) for pos, ident in view.hand]
            cards += [HandCard(("H", h), f"H{h}") for h in view.hunters_held]
            self.query_one(HandView).set_cards(cards)
        self._evaluate_pick()

    def abandon_outcome(self, name: str) -> str:
        # The rules' "Abandon": a seat removed by the votes ends the game with no winner.
        return "if every other player votes so too, the game ends with no winner"

    def moved(self) -> None:
        self._why = None
        self.query_one(HandView).clear_picks()

    # -- picking and playing ---------------------------------------------------------------------

    @on(HandView.PickChanged)
    def _pick_changed(self, message: HandView.PickChanged) -> None:
        self._why = None
        self._evaluate_pick()
        self.refresh_bindings()

    def _evaluate_pick(self) -> None:
        """The pick line and the act Enter would send; a key's "why not" stays on the line until the
        pick changes or the turn comes or goes."""
        self._judge_pick()
        if self._why is not None:
            reason, mine = self._why
            if mine != self.my_turn():
                self._why = None
                return
            line = self.query_one("#pick", Static)
            show_in_place(line, f"✗ {reason}")
            line.set_class(True, "-illegal")

    def _judge_pick(self) -> None:
        """Say what Enter would do with the cards picked, or why it cannot."""
        hand = self.query_one(HandView)
        line = self.query_one("#pick", Static)
        keys = hand.picked_keys()
        self._judged = keys
        table = self.session.table
        state = table.gstate
        self._pick_act = None
        mine = self.my_turn()
        if state is not None and self.session.seat is None:
            # True from the deal to the end, whatever the phase: a spectator picks nothing.
            show_in_place(line, "You watch this table: the hands are hidden from you; the log shows every play.")
            line.set_class(False, "-illegal")
            return
        if state is None or state.phase == "over" or table.phase in ("over", "stopped"):
            show_in_place(line, "")
            return
        trick = state.trick
        if not keys:
            if state.phase != "play":
                show_in_place(line, "")
                line.set_class(False, "-illegal")
                return
            if self._passes_by_itself(trick):
                text = AUTO_PASS_WORDS
            elif mine and trick is None:
                text = "Your lead: pick a set with ←/→ and Space (or the mouse), then Enter."
            elif mine and trick.hunter:
                text = "Hunter trick: pick one card with ←/→ and Space, then Enter. You may not pass."
            elif mine and (cannot := self._cannot_beat(trick)) is not None:
                text = cannot
            elif mine:
                need = "a higher card" if trick.size == 1 else f"{trick.size} higher cards"
                text = f"Your turn: {beat_words(trick)} with {need}, or pass (p)."
            else:
                text = "Pick cards with ←/→ and Space while you wait; Enter plays them on your turn."
            show_in_place(line, text)
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
            show_in_place(line, f"✗ Cannot play that: {reason}.")
            line.set_class(True, "-illegal")
            return
        self._pick_act = act
        show_in_place(line, f"✓ Enter {self._act_words(act)}.")
        line.set_class(False, "-illegal")

    def _auto(self) -> bool | None:
        """The seat passes by itself when nothing beats the lead (None: this session cannot)."""
        auto = getattr(self.session, "auto_pass", None)
        return None if auto is None else bool(auto)

    def turn_passes_by_itself(self) -> str | None:
        """On this seat's turn with nothing to beat the lead and its automatic pass on: the status
        line says it passes by itself, not "Your turn." (the driver's pass may come a moment later)."""
        state = self.session.table.gstate
        trick = getattr(state, "trick", None)
        if self.my_turn() and self._passes_by_itself(trick):
            return "Your seat passes by itself: nothing beats the lead (A: ask every time)."
        return None

    def _passes_by_itself(self, trick: Any) -> bool:
        """This seat passes (or passed) in ``trick`` by itself: its automatic pass is on and, on its
        turn, the game's automatic act (the spec's ``auto_act``, as the seat's driver makes it) is
        a pass; or it passed in this trick without a p (the driver was quicker than the screen)."""
        if trick is None or trick.hunter or self._auto() is not True:
            return False
        me = self.session.seat
        if self.my_turn():
            view = self.session.view()
            return SPEC.auto_act is not None and view is not None and SPEC.auto_act(view) is not None
        mine = [play for play in trick.plays if play.seat == me]
        key = _trick_key(self.session.table.gstate)
        return bool(mine) and mine[0].passed and not mine[0].forced and key != self._pressed_pass

    def action_auto_pass(self) -> None:
        """``A``: pass by itself when nothing beats the lead, or ask me every time."""
        auto = self._auto()
        switch = getattr(self.session, "set_auto_pass", None)
        if auto is None or switch is None:
            self.notify("This table asks you every time: it passes nothing by itself.", severity="warning")
            return
        try:
            switch(not auto)
        except VampireError as err:
            self.notify(explain(err), severity="warning")
            return
        self._why = None  # a reason given before the switch no longer holds
        self._evaluate_pick()
        # Said where the eyes are, the line under the hand (a toast at 80×24 covers the status),
        # until the pick changes or the turn comes or goes; unless the line already says what the
        # switch does now (nothing beats the lead: "p passes: …", or it passes by itself).
        line = self.query_one("#pick", Static)
        if "pass" not in shown_text(line):
            if auto:
                show_in_place(line, "✓ Ask me every time: when nothing beats the lead, p passes (A: auto-pass).")
            else:
                show_in_place(line, "✓ Auto-pass: when nothing beats the lead, your seat passes by itself (A: ask).")
            line.set_class(False, "-illegal")
        self.refresh_bindings()

    def _cannot_beat(self, trick: Any) -> str | None:
        """On my turn in a normal trick, when the rules leave me nothing but a pass (their legal
        moves, :meth:`engine.games.queen.rules.QueenRules.legal_acts`): why, and that p passes;
        None when some play beats the trick."""
        game = self.session.table.game
        view = self.session.view()
        if game is None or view is None or any(ident is None for _, ident in view.hand):
            return None  # cards still being opened to me: the rules cannot judge them yet
        if any(act.get("do") != "pass" for act in game.legal_acts(view)):
            return None
        best = beat_words(trick).removeprefix("beat ")
        held = len(view.hand)
        # The key first: a long reason wraps after it, never between "p" and "passes".
        if held < trick.size:
            return f"p passes: you cannot beat {best} (you hold {held} card{'s' if held != 1 else ''})."
        if trick.size == 1:
            return f"p passes: you cannot beat {best}, none of your cards is higher."
        return f"p passes: you cannot beat {best}, you have no {trick.size} higher cards of one number."

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
        # False (not None): a key that can do nothing now leaves the footer, and its twin
        # ``why_not`` binding answers it with the reason.
        if action == "play":
            return self._current_pick() is not None and not self.submitting
        if action == "pass_turn":
            return self._why_not_pass() is None
        if action == "auto_pass":  # a seat's switch: a spectator, or a table that asks every time, has none
            return self.session.seat is not None and self._auto() is not None
        return super().check_action(action, parameters)

    def _why_not_pass(self) -> str | None:
        """Why this seat cannot pass now, in a sentence, or None when it can."""
        table = self.session.table
        state = table.gstate
        if state is None or state.phase != "play":
            return "Nothing to pass now: no trick is being played."
        if self.submitting:
            return "Your move is on its way to the host."
        if not self.my_turn():
            return self._not_your_turn()
        trick = state.trick
        if trick is None:
            return "You lead, so you cannot pass: pick a set with Space, then Enter."
        if trick.hunter:
            return "Nobody passes in a hunter trick: pick one card with Space, then Enter."
        if self._passes_by_itself(trick):
            return "Your seat passes by itself: nothing beats the lead (A: ask every time)."
        return None

    def _not_your_turn(self) -> str:
        state = self.session.table.gstate
        names = self.session.table.names
        turn = getattr(state, "turn", -1)
        if 0 <= turn < len(names):
            return f"Not your turn: {names[turn]} is to play."
        return "Not your turn: the table is busy (see the line above your hand)."

    def _why_not_play(self) -> str:
        """Why Enter plays nothing now, in a sentence."""
        if self.submitting:
            return "Your move is on its way to the host."
        if not self.query_one(HandView).picked_keys():
            if not self.my_turn():
                return self._not_your_turn()
            return "Nothing picked: move with ←/→ and pick cards with Space, then Enter."
        line = shown_text(self.query_one("#pick", Static))
        return line.removeprefix("✗ ") or "That pick cannot be played now."

    def action_why_not(self, what: str) -> None:
        """The reason ``what`` ("play" or "pass") does nothing now, in the line under the hand."""
        reason = self._why_not_play() if what == "play" else (self._why_not_pass() or "")
        if reason:
            self._why = (reason, self.my_turn())
            self._evaluate_pick()

    def _current_pick(self) -> Act | None:
        """The act Enter plays now, judged afresh when the hand's picks changed since the last
        judgement: a key pressed right after Space (before the hand's PickChanged reaches this
        screen) acts on the pick Space made, keys taking effect in the order they were pressed."""
        if self.query_one(HandView).picked_keys() != self._judged:
            self._why = None
            self._evaluate_pick()
        return self._pick_act

    def action_play(self) -> None:
        act = self._current_pick()
        if act is None or self.submitting:
            return
        self.submit(act)

    def action_pass_turn(self) -> None:
        act: Act = {"do": "pass"}
        try:
            self.session.check_move(act)
        except IllegalMove as err:
            self.notify(explain(err), severity="warning")
            return
        self._pressed_pass = _trick_key(self.session.table.gstate)
        self.submit(act)

    # -- round and game end ----------------------------------------------------------------------

    def check_end(self, table: Table) -> None:
        """After each round, its hands and points (a modal); after the last, the game's end."""
        from tui.games.queen.results import RoundEndScreen

        state = table.gstate
        if state is None:
            return
        if table.fault is not None:
            self.show_game_end()  # a proven cheat stops the table: say so, with the evidence
            return
        done = len(state.round_scores)
        over = state.phase == "over"
        watching = self.session.seat is None
        if watching:
            self._close_passed_round(state)
        if done > self._rounds_shown:
            if self.app.screen is not self:
                return  # a box is over the table (the quit question, the help): shown when it closes
            self._rounds_shown = done
            if watching and (over or self._round_passed(state, done)):
                # A spectator follows the table with no key: a round already behind it gets no
                # box, and the last round's hands are in the end screen's points by round.
                if over:
                    self.show_game_end()
                return
            self.app.push_screen(
                RoundEndScreen(state, list(table.names), final=over, watching=watching), self._after_round
            )
        elif over and not self.game_end_shown and done == self._rounds_shown and not self._round_modal_open():
            self.show_game_end()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.check_end(self.session.table)  # a round that ended while a box was open

    @staticmethod
    def _round_passed(state: Any, number: int) -> bool:
        """Whether the table has gone past the end of round ``number``: the next round is dealt
        (its play began) or scored too."""
        return len(state.round_scores) > number or (state.round > number and state.phase == "play")

    def _close_passed_round(self, state: Any) -> None:
        """A spectator's round box closes by itself once the table has gone past its round: the
        person watching presses nothing to follow the game."""
        from tui.games.queen.results import RoundEndScreen

        box = self.app.screen
        if isinstance(box, RoundEndScreen) and box.watching and self._round_passed(state, box.number):
            box.dismiss(None)

    def _round_modal_open(self) -> bool:
        from tui.games.queen.results import RoundEndScreen

        return any(isinstance(s, RoundEndScreen) for s in self.app.screen_stack)

    def _after_round(self, _: Any = None) -> None:
        state = self.session.table.gstate
        if state is not None and state.phase == "over":
            self.show_game_end()
