"""The VTES table screen: it composes the table's widgets (:mod:`tui.games.vtes.widgets`: every
Methuselah around the table, every card in play, your hand with the highlighted card's krcg text,
the action, combat and referendum boxes, the line under the table and a command line) in the frame
every table shares (:class:`tui.screens.table.TableFrame`: the title, the game log, the status
line, chat, the abandon vote, the end-of-game screen), draws them from the seat's view, and routes
keys and the widgets' messages to acts.

Every act of :mod:`engine.games.vtes` can be made two ways: a key for the common ones (acting on
the highlighted hand card or the card selected on the board) and the command line
(:mod:`tui.games.vtes.commands`). Either way the act is first checked against the seat's own copy
of the table (``session.check_move``: the engine's check), and a refusal shows the engine's
sentence under the board instead of being sent.

Its parts with a job of their own are mixins in modules of their own (:mod:`~tui.games.vtes.screen_part`):
the by-hand keys, the menus (``a``, ``Y``), the reading keys (``e``, ``r``, ``H``, ``L``) and the
automatic pass (``A``); the set-up's redraws keep the pace of :mod:`~tui.games.vtes.setup_pace`.

The seat declares its deck's sizes by itself once the table asks (the ``deck`` act, from the deck
the seat committed to when it joined), so a person never has to type them.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from textual import events, on
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.widget import Widget
from textual.widgets import Label, OptionList

from engine.games.base import Act, Pos
from engine.games.vtes.fair_answers import names_card, on_your_word
from engine.games.vtes.terms_choices import terms_side
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import ClaimStatus, CombatStep, Do, News, Poll, Status, Step
from engine.table import Table
from tui.games.vtes import key_acts
from tui.games.vtes.acting import ActSender
from tui.games.vtes.action_text import PASS_KEY, SETTLING, end_turn_warning, waiting_words
from tui.games.vtes.answer import Answer, answer_now
from tui.games.vtes.auto_pass_keys import AutoPassKeys
from tui.games.vtes.by_hand_keys import ByHandKeys
from tui.games.vtes.command_words import Context
from tui.games.vtes.faces import KRCG_AFTER_S, load_after_set_up, load_now_or_after_set_up
from tui.games.vtes.key_guard import GUARDED, KeyGuard, moment, refusal
from tui.games.vtes.keymap import ACTING, TABLE_KEYS, answers_first
from tui.games.vtes.log import VtesLog
from tui.games.vtes.menu_keys import MenuKeys
from tui.games.vtes.present import play_todo
from tui.games.vtes.reading_keys import ReadingKeys
from tui.games.vtes.setup_pace import SetUpPace
from tui.games.vtes.status_line import draw_status, title_parts, turn_now
from tui.games.vtes.widgets.action import ActionBox
from tui.games.vtes.widgets.claims import ClaimsLine, waiting_for
from tui.games.vtes.widgets.combat import CombatBox
from tui.games.vtes.widgets.command_line import CommandLine
from tui.games.vtes.widgets.panes import TablePanes
from tui.games.vtes.widgets.players import MethuselahsPanel
from tui.games.vtes.widgets.referendum import CLOSE_AFTER, ReferendumBox
from tui.games.vtes.widgets.say import SayLine, Turn, moved_on
from tui.key_wait import key_waited
from tui.screens.table import TableFrame, sent_line
from tui.session import TableSession
from tui.widgets.common.burst_line import BurstLine

HELD: dict[Answer, str] = {Answer.SENT: "your answer is sent", Answer.SETTLING: "settling: a draw or a shuffle first"}
"""What the action box says instead of this seat's keys while its answer is not asked for."""

ANSWER_KEYS: frozenset[str] = frozenset({"pass", "strike", "maneuver", "press", "vote"})
"""The ``why_not`` twins of the keys that answer the window (``.``, ``s``, ``m``, ``P``, ``V``)."""


class VtesTableScreen(ByHandKeys, MenuKeys, ReadingKeys, AutoPassKeys, TableFrame, inherit_bindings=False):
    """One seat (or a spectator) at a VTES table."""

    LOG_IN_TOP = True
    #: The hand has the focus first (not the board, the first in the focus chain): the card panel
    #: shows the hand's highlighted card from the start.
    AUTO_FOCUS = "#vt-hand"

    # The log sits under the board and the hand beside both, the hand as tall as its cards: at
    # 80×24 a hand of 7 shows whole, with the highlighted card's first lines under it (``e`` shows
    # its whole text); taller terminals give the board, the log and the card text the room.
    # (``CSS``, not ``DEFAULT_CSS``: the app's stylesheet sizes ``#log`` for the log's usual place.)
    CSS = """
    VtesTableScreen #vt-players { height: auto; max-height: 8; padding: 0 1; }
    VtesTableScreen #vt-middle { height: 1fr; }
    VtesTableScreen #vt-left { width: 1fr; height: 100%; }
    VtesTableScreen #vt-board { height: 1fr; min-height: 4; }
    VtesTableScreen #log { height: 35%; min-height: 5; }
    VtesTableScreen #vt-side { width: 42%; height: 100%; }
    VtesTableScreen #vt-hand { height: auto; min-height: 3; max-height: 75%; }
    VtesTableScreen #vt-card { height: 1fr; min-height: 3; }
    VtesTableScreen OptionList { text-wrap: nowrap; text-overflow: ellipsis; }
    VtesTableScreen #vt-say { height: auto; padding: 0 1; text-wrap: wrap; }
    VtesTableScreen #vt-say.-illegal { color: $warning; text-style: bold; }
    VtesTableScreen #vt-say.-todo { color: $accent; }
    VtesTableScreen #vt-say.-past { color: $text-muted; }
    VtesTableScreen #vt-claims { height: auto; max-height: 3; padding: 0 1; color: $warning; }
    VtesTableScreen #vt-cmd { height: 1; border: none; padding: 0 1; }
    VtesTableScreen #vt-cmd:focus { background: $boost; }
    """

    BINDINGS = TABLE_KEYS

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self._view: VtesView | None = None
        self._play_armed: list[int] | None = None  # the hand card a first p named (a second p plays it)
        self._acts = ActSender(self)
        #: The acting minion and the blocker of the last block attempt seen (they enter combat when
        #: it succeeds); the log notes read.
        self._attempt: tuple[Pos, Pos] | None = None
        self._notes_read = 0
        self._refused_at = 0  # the log's length when the last refusal was said
        #: The pace of the redraws during the set-up (:mod:`tui.games.vtes.setup_pace`).
        self.pace = SetUpPace(self.set_timer, self._redraw_held)
        self._krcg_later = False  # krcg's dict to load once the set-up is over (on_mount says)
        self._end_asked: tuple[int, str, int] | None = None  # N asked once in this turn, phase, transfers
        #: The clock of the key guard (:data:`KEY_GUARD_S`; seconds, monotonic; a test sets its own).
        self.key_clock: Callable[[], float] = time.monotonic
        #: How long a key waited before it was handled (:func:`tui.key_wait.key_waited`; seconds of
        #: ``key_clock``: a test with its own clock sets its own).
        self.key_wait: Callable[[events.Key], float] = key_waited
        #: Game keys typed just after the screen changed are not taken (:mod:`key_guard`).
        self._guard = KeyGuard()
        #: When a redraw last showed this seat making its automatic act (``key_clock()``).
        self._by_itself_at: float | None = None
        self._listing = False  # the footer is asking check_action, not a key
        #: The card of the last after-play note ("e reads it"), and whether the key pressed now
        #: came while that note was shown (e then reads that card, gone from the hand).
        self._played: CardView | None = None
        self._reads_played = False
        #: Where this seat's answer stands, decided at each redraw of the status line: the footer's
        #: answer keys read it too (:mod:`tui.games.vtes.answer`).
        self._answer = Answer.NONE
        self._told_bots: set[int] = set()  # this seat's claims on bots already looked at

    # -- the widgets -----------------------------------------------------------------------------

    def compose_top(self) -> ComposeResult:
        yield MethuselahsPanel(id="vt-players")
        yield TablePanes(self.note_log(), lambda: self.session.seat, id="vt-middle")

    def compose_bottom(self) -> ComposeResult:
        yield ActionBox(id="vt-action")
        yield CombatBox(id="vt-combat")
        yield ReferendumBox(id="vt-referendum")
        yield ClaimsLine(id="vt-claims")
        yield SayLine(self._turn, id="vt-say")
        yield CommandLine(self.command_context, self.home_widget, id="vt-cmd", on_leave=self._command_left)

    def note_log(self) -> VtesLog:
        return VtesLog(id="log")

    def home_widget(self) -> Widget:
        return self.query_one("#vt-hand")

    @property
    def _panes(self) -> TablePanes:
        return self.query_one("#vt-middle", TablePanes)

    @property
    def _say_line(self) -> SayLine:
        return self.query_one("#vt-say", SayLine)

    @property
    def _cmd(self) -> CommandLine:
        return self.query_one("#vt-cmd", CommandLine)

    @property
    def _queued(self) -> deque[Callable[[], object]]:
        """The keys kept while an act of this seat is on its way (:attr:`ActSender.queued`)."""
        return self._acts.queued

    def refresh_table(self) -> None:
        """Redraw from the session (the frame's :meth:`TableFrame.refresh_table`), at the set-up's
        pace (:class:`SetUpPace`: a burst of the set-up's entries redraws once)."""
        if self.pace.now_or_later(getattr(self.session.table.gstate, "step", None)):
            super().refresh_table()

    def _redraw_held(self) -> None:
        if self.is_attached:
            self.refresh_table()

    def show_status(self, table: Table, me: int | None) -> None:
        """The frame's status line, said as a VTES table says it (:func:`draw_status`), and where
        this seat's answer stands (:func:`answer_now`), which the footer's answer keys read."""
        view = self._current_view()
        by_itself = self._by_itself(view)
        owed = table.owes_move(me)
        self._answer = answer_now(view, me, sending=self.submitting, owed=owed, by_itself=by_itself)
        super().show_status(table, me)
        draw_status(self.query_one("#waiting", Label), view, table, me, by_itself)

    def answer_line(self, table: Table, me: int | None) -> str | None:
        """The status line's first words while protocol work runs (:meth:`TableFrame.answer_line`):
        where this seat's answer to the innermost window stands, when it is due, sent or settling
        (:class:`Answer`): "The combat waits for you (…)", "✓ Sent: …", "Settling… (…)"."""
        view = self._current_view()
        if self._answer in (Answer.DUE, Answer.SETTLING) and view is not None:
            return waiting_words(view, list(table.names), None, owed=self._answer is Answer.DUE)
        return super().answer_line(table, me)

    def sent_words(self, act: Act) -> str:
        """The status line while ``act`` is on its way: the act in the log's words."""
        return sent_line(self._acts.act_words(act), self.host_away, "The table takes it…")

    def on_mount(self) -> None:
        # krcg's dict (rulings, the cards' data): now when its faces' cache is missing (the first
        # turn's hand and card panel need it), else once the set-up is over (tui.games.vtes.faces).
        self._krcg_later = load_now_or_after_set_up()
        # Textual calls the frame's on_mount after this one (each class's handler, in MRO order).
        if not self.is_attached:  # closed as it opened: its widgets were never mounted
            return
        if getattr(self.session, "watching", False):
            self._cmd.display = False  # a spectator makes no moves
        self._panes.titles()

    def title_parts(self, table: Table) -> list[str]:
        return title_parts(self._current_view())

    def _current_view(self) -> VtesView | None:
        view = self.session.view()
        return view if isinstance(view, VtesView) else None

    def show_board(self, table: Table) -> None:
        view = self._current_view()
        self._view = view
        names = list(table.names)
        players = self.query_one("#vt-players", MethuselahsPanel)
        players.show(view, names)
        if view is None:
            return
        self._panes.show(view, names)
        if self._krcg_later and view.step == Step.PLAY:
            self._krcg_later = False
            self.set_timer(KRCG_AFTER_S, load_after_set_up)
        self._moved_under_keys(view, self._by_itself(view))
        self._show_boxes(view, names)
        self.query_one(ClaimsLine).show_claims(view, names, self.session.seat)
        self._bots_on_your_word(view, names)
        if self._say_line.has_class("-illegal") and moved_on(table.notes[self._refused_at :]):
            self._say_line.outdate()  # a move folded since the refusal: said of the moment before
        self._say_line.show_turn()
        self._acts.check_keys(view, self.session.seat)
        self._acts.declare_deck(view)
        if self._acts.queued and not self.submitting:
            self.call_later(self._acts.drain)

    def _show_boxes(self, view: VtesView, names: list[str]) -> None:
        """The action, combat and referendum boxes: each says this seat's keys only while its
        answer is due, and why not instead while it is sent or settling (:class:`Answer`, the
        state the status line and the footer read)."""
        by_itself, held = self._by_itself(view), HELD.get(self._answer)
        self._show_action(view, names)
        self.query_one(CombatBox).show_combat(view, names, by_itself, held)
        close_after = CLOSE_AFTER if self.session.table.options.get("polling") == "15s" else None
        self.query_one(ReferendumBox).show_referendum(view, names, close_after, by_itself, held)

    def _bots_on_your_word(self, view: VtesView, names: list[str]) -> None:
        """Say once, for a claim of this seat's on a bot's things that names no card, how little a
        bot takes on one's word (docs/vtes-by-hand.md, "A bot's answer")."""
        bots = self.session.bots
        for c in view.claims:
            if c.author != self.session.seat or c.act in self._told_bots or c.status != ClaimStatus.PENDING:
                continue
            self._told_bots.add(c.act)
            bot = next((s for s in c.seats if s in bots), None)
            if bot is not None and not names_card(view, c):
                self.say(on_your_word(names[bot] if bot < len(names) else f"seat {bot}"), False, todo=True)

    def _show_action(self, view: VtesView, names: list[str]) -> None:
        """The action box, and the news of the log the line under the table says: a referendum's
        result, and that minions of yours enter combat (those of the last block attempt, when it
        succeeds: P4, the table records it)."""
        a = view.action
        if a is not None and a.blocker:
            self._attempt = (a.minion, a.blocker)
        table = self.session.table
        news = self._notes_read > 0  # not the history read when the screen opens
        for note in table.notes[self._notes_read :]:
            if news and note.news == News.REFERENDUM_RESOLVED and view.seat is not None:
                # The result stays under the board until the next key (the box is gone).
                self.say(note.render(names), False, todo=True)
            if note.news == News.COMBAT_OPENED and self._attempt is not None:
                pair = [view.card(p) for p in self._attempt]
                if view.seat is not None and any(c is not None and c.controller == view.seat for c in pair):
                    one, two = (c.name.split(" (")[0] if c is not None else "?" for c in pair)
                    self.say(f"{one} and {two} enter combat: {PASS_KEY} passes each step, s strikes.", False)
        self._notes_read = len(table.notes)
        blocker = self._blocker()
        self.query_one(ActionBox).show_action(
            view,
            names,
            blocker.name.split(" (")[0] if blocker is not None else None,
            self._auto(),
            self._by_itself(view),
            held=HELD.get(self._answer),
        )

    def submit(self, act: Act) -> None:
        """Send ``act`` (the frame's :meth:`TableFrame.submit`), and say at once in the action,
        combat and referendum boxes that the answer is sent, as the status line does (never
        "you: . pass" while it is on its way)."""
        super().submit(act)
        if self._view is not None:
            self._show_boxes(self._view, list(self.session.table.names))

    def _moved_under_keys(self, view: VtesView, by_itself: Act | None) -> None:
        """Guard the game keys (:data:`KEY_GUARD_S`) when a window opened, changed or closed, or
        this seat's answer became due or stopped being due, since the last redraw."""
        seen = moment(view, self.session.seat, by_itself)
        if seen[-1]:
            self._by_itself_at = None  # asked again: a later "." is about this answer
        self._guard.shown(self.key_clock(), seen)

    def _command_left(self) -> None:
        """The command line closed: the letters typed next are not game keys (:data:`KEY_GUARD_S`)."""
        self._guard_keys("the command line just closed")

    def chat_closed(self) -> None:
        """The chat line closed: the letters typed next are not game keys (:data:`KEY_GUARD_S`)."""
        self._guard_keys("the chat line just closed")

    def _guard_keys(self, why: str, spare: str | None = None) -> None:
        self._guard.guard(self.key_clock(), why, spare)

    def _guarded(self, typing_on: bool = False, action: str | None = None, key: events.Key | None = None) -> str | None:
        """Why a key of :data:`GUARDED` (of ``action``) is not played, or None (:class:`KeyGuard`):
        ``key``, else the key whose bindings the app runs now, judged by when it was typed (a key
        that waited while the program was busy was typed before its turn came: :mod:`tui.key_wait`)."""
        key = key or getattr(self.app, "key_in_hand", None)
        typed = self.key_clock() - (self.key_wait(key) if key is not None else 0.0)
        return self._guard.why(typed, typing_on, action)

    def _blocker(self) -> CardView | None:
        """The minion ``b`` blocks with (:func:`key_acts.blocker`), never one whose attempt at
        this action failed; None when you may not block now."""
        return key_acts.blocker(self._view, self.session.seat, self.selected_card())

    @on(CombatBox.YourMove)
    @on(ReferendumBox.YourMove)
    @on(ActionBox.ImpulseArrived)
    def _impulse_arrived(self, event: ActionBox.ImpulseArrived | CombatBox.YourMove | ReferendumBox.YourMove) -> None:
        # Asked to decide: a bell, and the keys act (not the command line or chat, if left open).
        self.app.bell()

    def _turn(self) -> Turn:
        """The turn line now (:func:`turn_now`)."""
        return turn_now(self._view, list(self.session.table.names), self._auto())

    # -- the cards under the cursors, and the keys that let the turn line back ---------------------

    def selected_card(self) -> CardView | None:
        """The card highlighted on the board (None: a heading or nothing)."""
        return self._panes.board.highlighted_card()

    def hand_card(self) -> CardView | None:
        """The card highlighted in the hand."""
        return self._panes.hand.highlighted_card()

    @on(OptionList.OptionHighlighted, "#vt-board")
    def _selected(self) -> None:
        if self._view is not None:
            # b and t act on the selected card: the footer follows it
            self._acts.check_keys(self._view, self.session.seat)
            self.refresh_bindings()

    @on(TablePanes.HighlightMoved)
    def _moved(self) -> None:
        hand = self._panes.hand
        card = self.hand_card() if hand.has_focus else None
        if card is not None and card.as_list() == self._play_armed:
            return  # the move p made itself, to the card it names: the line naming it stays
        self._say_line.unstick()

    def on_key(self, event: events.Key) -> None:
        # Every key (before the act it is bound to, if any) lets the turn line come back: the last
        # refusal or after-play note was read; an act that is refused again says so again.
        self._reads_played = self._say_line.has_class("-todo") and self._played is not None
        self._say_line.unstick()
        # Typing on while the keys are guarded keeps them guarded (check_action refuses them:
        # the bindings run later, from the app, once the keys of a burst have all come here).
        self._guarded(typing_on=True, key=event)

    def on_paste(self, event: events.Paste) -> None:
        """A paste that reached the screen (the hand, the table or the log had the focus) and
        starts with ``:`` is a command: the command line takes it, as if ``:`` had been pressed
        and the rest typed (its first line; Enter still makes it)."""
        line = event.text.strip().splitlines()[0] if event.text.strip() else ""
        if not line.startswith(":") or self._cmd.has_focus or not self._cmd.display:
            return
        event.stop()
        self._cmd.prefill(line[1:].lstrip())

    # -- focus: hand, table, log; the card panel's box -----------------------------------------

    def action_cycle(self, step: int) -> None:
        """Tab: the focus to the next of the hand, the table and the log (Shift+Tab: back)."""
        self._panes.cycle(step)

    def on_descendant_focus(self, event: object) -> None:
        self._play_armed = None  # a p that named a card is answered by the next p, not a later one

    # -- acting ----------------------------------------------------------------------------------

    def command_context(self) -> Context | None:
        """What the command line reads its words against (None: no view yet)."""
        view = self._current_view()
        if view is None:
            return None
        selected = self.selected_card()
        return Context(view, list(self.session.table.names), selected.pos if selected else None)

    def say(
        self, text: str, illegal: bool, todo: bool = False, guarding: bool = True, again: str | None = None
    ) -> None:
        """The line under the board (:meth:`SayLine.say`): ``illegal`` (a refusal) and ``todo``
        (what to do by hand after a play) stay until the next key; any other text, until the
        next redraw (a refusal a move has outdated stays, marked as said before it: :meth:`SayLine.outdate`).
        A refusal guards the game keys typed right after it (``guarding``; not the guard's own):
        a word typed where a line was expected (``V`` refused, then "vote against edge") is
        refused whole, its letters never game keys; but for the key of the action ``again``, the
        one the line asks for again ("p again plays it")."""
        if illegal:
            self._refused_at = len(self.session.table.notes)
            if guarding:
                self._guard_keys(
                    f"typed just after “{text.removeprefix('✗ ').removesuffix('.')}”", again
                )  # the refusal ends it
        self._say_line.say(text, illegal, todo)

    def action_why_not(self, what: str) -> None:
        """A footer key pressed while it can do nothing: why, in one line (``.`` just after this
        seat passed by itself: that it did, not who holds the impulse now)."""
        if what == "announce":
            self.say(f"✗ {self._why_no_action()}", True)
            return
        if what == "play":  # an action offers this seat no card to play (key_acts.may_play)
            card = self.hand_card()
            said = key_acts.not_offered_in_action(self._view, card) if card is not None else None
            self.say(said or "✗ No card of your hand is offered in this action.", True)
            return
        if what in ANSWER_KEYS and (not_due := self._not_due()) is not None:
            self.say(f"✗ {not_due}", True)
            return
        passed = self._passed_by_itself() if what == "pass" else None
        if passed is not None:
            self.say(f"✗ {passed}", True)
            return
        self.say(f"✗ {self._acts.why(what, self._view, self.session.seat)}", True)

    def _not_due(self) -> str | None:
        """Why an answer key (:data:`ANSWER_KEYS`) does not answer now, when the window's answer
        is this seat's but not due (:class:`Answer`): sent already, or a draw settles first."""
        if self._answer is Answer.SENT:
            return "Your answer is on its way to the table; look again once it is taken (the status line says)."
        if self._answer is Answer.SETTLING:
            return SETTLING
        return None

    def play_todo(self, act: Act) -> str:
        """After a ``play``: what the player still does by hand (its cost, its effect), or ""."""
        if act.get("do") != Do.PLAY:
            return ""
        card = self._panes.board.card_at(tuple(act["card"]))
        if card is None:
            return ""
        payer = self._panes.board.card_at(tuple(act["minion"])) if "minion" in act else None
        payer = payer or key_acts.blood_payer(self._view, self.session.seat, self.selected_card())
        todo = play_todo(card, act, payer)
        self._played = card if todo else None
        return f"✓ {todo}" if todo else ""

    def action_act(self, command: str) -> None:
        view, asked = self._view, self._end_asked
        self._end_asked = (view.turn, view.phase, view.transfers) if view is not None and command == "end" else None
        if command == "end" and (warning := end_turn_warning(view)) and asked != self._end_asked:
            self.say(warning, False, todo=True)  # N again ends it (rules, "Turn sequence")
            return
        self._acts.when_free(lambda: self._acts.run_command(command))

    def action_command(self) -> None:
        """``:``: the command line takes the keys at once."""
        self._cmd.open()

    @on(CommandLine.Entered)
    def _command_entered(self, event: CommandLine.Entered) -> None:
        if self._acts.enter(event.line):
            event.command_line.accepted()
        else:
            event.command_line.refused()

    @on(BurstLine.Dropped)
    def _keys_dropped(self, event: BurstLine.Dropped) -> None:
        """Keys typed after a command or a chat line went out were dropped (neither its words nor
        game keys): said once, never silently."""
        what = "command" if isinstance(event.line, CommandLine) else "chat"
        self.say(f"✗ Not taken: keys typed just after the {what} line went out; type them again.", True)

    @on(CommandLine.Hint)
    def _command_hint(self, event: CommandLine.Hint) -> None:
        self.say(event.text, False)

    def action_block(self) -> None:
        """``b`` while this seat may block the open action: a block attempt (P3) with the selected
        ready unlocked minion of yours, else your first."""
        self._acts.when_free(self._block)

    def _block(self) -> None:
        minion = self._blocker()
        if minion is None:
            self.say(f"✗ {self._acts.refusal('block') or 'You may not block now.'}", True)
            return
        self._acts.try_act({"do": Do.BLOCK, "minion": minion.as_list()})

    def action_pass_impulse(self) -> None:
        """``.``: pass the impulse of the open action (in window A, a blocker's pass declines), of
        a combat step or before a referendum's votes; while polling, say you are done voting."""
        view = self._view
        voting = view is not None and view.referendum is not None and view.referendum.step == Poll.VOTING
        self._acts.when_free(lambda: self._acts.run_command("done" if voting else "pass"))

    @on(ReferendumBox.CloseTime)
    def _close_polling(self, event: ReferendumBox.CloseTime) -> None:
        """``polling=15s``: 15 s after the last vote this seat is done (7.1)."""
        self.say("15 s since the last vote: you are done voting (table rule polling=15s).", False)
        self._acts.when_free(lambda: self._acts.run_command("done"))

    def action_strike(self) -> None:
        """``s``: the hand strike for your combatant whose strike is due (5.4); other strikes by
        the command line (``:strike 2 agg``, ``:strike dodge with CARD``)."""
        self._acts.when_free(lambda: self._acts.run_command("strike"))

    def action_fight(self, word: str) -> None:
        """``m`` maneuver, ``P`` press: for your combatant, the one the offers hold with the card
        that gives it (a maneuver or press by hand is the command ``:maneuver``, ``:press``)."""
        step = CombatStep.RANGE if word == "maneuver" else CombatStep.PRESS

        def send() -> None:
            act = key_acts.fight_offer(self._view, self.session.seat, step)
            if act is None:
                self.say(f"✗ {self._acts.why(word, self._view, self.session.seat)}", True)
                return
            self._acts.try_act(act)

        self._acts.when_free(send)

    def action_vote(self) -> None:
        """``V``: the command line, ready for a vote, with the sources you hold listed; as the
        caller records the terms, a menu of the terms the table applies for its card."""
        view, me = self._view, self.session.seat
        if view is None or me is None or view.referendum is None:
            self.say("✗ There is no referendum to vote in.", True)
            return
        if view.referendum.step == Poll.TERMS:
            self._acts.when_free(self._terms)
            return
        words = key_acts.vote_words(view, me)
        wanted, why = terms_side(view, me)  # the side the terms favour for this seat, filled in
        side, other = ("for", "against") if wanted else ("against", "for")
        self._cmd.prefill(f"vote {side} {words[0]}" if words else "done")
        if not words:
            self.say("You hold no votes: Enter says you are done.", False)
            return
        because = f" ({why})" if why else ""
        self.say(f"Enter votes {side}{because}, or change it to {other}; from: {', '.join(words)}.", False)

    def action_play_card(self) -> None:
        self._acts.when_free(self._play_card)

    def _play_card(self) -> None:
        card = self.hand_card()
        if card is None:
            self.say("✗ Your hand is empty.", True)
            return
        view = self._view
        offered = key_acts.card_to_play(view, card)
        if offered is not card:  # the one card the action offers, named by the action box: shown, then played
            self._panes.hand.highlight_pos(offered.pos)
            card = offered
        refusal = key_acts.not_offered_in_action(view, card)
        if refusal is not None:  # said at once: "p again plays it" would only be refused
            self._play_armed = None
            self.say(refusal, True)
            return
        if self._play_armed != card.as_list():
            # Name the card p would play before playing it (a second p plays it), whatever has the
            # focus: the hand's highlight moves under the player (a play, a draw) and the card
            # panel may show the table's or the log's card, so a first p never plays a card unseen.
            self._play_armed = card.as_list()
            where = "" if self._panes.hand.has_focus else ", Tab shows your hand"
            said = f"p plays {card.name or 'the highlighted card'} from your hand: p again plays it{where}."
            self.say(said, True, again="play_card")
            return
        self._play_armed = None
        me = self.session.seat
        if key_acts.is_action_card(card) and view is not None and view.action is None and view.acting == me:
            # An action card is announced as a minion's action, not played: the menu proposes it.
            self._announce(card)
            return
        menu = key_acts.play_menu(card, view, me, self.selected_card(), self.command_context())
        if menu:  # a choice to make (how much blood, from whom; a new target): the player picks
            self._menu(menu, f"Play {card.name.split(' (')[0]}: choose (Esc cancels)")
            return
        self._acts.try_act(key_acts.play_act(card, view, me, self.selected_card(), self.command_context()))

    def action_discard_card(self) -> None:
        self._acts.when_free(self._discard_card)

    def _discard_card(self) -> None:
        card = self.hand_card()
        if card is None:
            self.say("✗ Your hand is empty.", True)
            return
        self._acts.try_act({"do": Do.DISCARD, "card": card.as_list()})

    def action_back(self) -> None:
        cmd = self._cmd
        if cmd.has_focus:
            cmd.cancel()  # Esc leaves the command line and drops what was typed, like a cancel
            return
        super().action_back()

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """The footer's keys, those that answer what the table waits for first (:func:`answers_first`)."""
        self._listing = True  # the key guard refuses keys pressed, not keys listed
        try:
            return answers_first(super().active_bindings)
        finally:
            self._listing = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ACTING and getattr(self.session, "watching", False):
            return False  # a spectator's footer lists no key that acts
        shown = self._view
        if action == "act" and (shown is None or shown.me is None or shown.me.status != Status.IN):
            # Out of the game (or not started): the keys that act leave the footer, guard or not;
            # their twins (why_not) say why when pressed.
            return False
        if action in GUARDED and not self._listing and (why := self._guarded(action=action)) is not None:
            # A key typed just after the command line closed or the screen changed: not played.
            said = self._say_line.content
            if not (self._say_line.has_class("-illegal") and str(said).endswith(f": {why}.")):
                self.say(refusal(action, why), True, guarding=False)  # once for the burst, by its first key
            return False
        if action == "command":
            return True
        if action == "accept_claim":
            return waiting_for(self._view, self.session.seat) is not None
        if action == "why_not":
            return not getattr(self.session, "watching", False)
        view, me = self._view, self.session.seat
        # The keys that answer the window act only while the table waits for this seat's answer
        # (the status line says so: one state, :class:`Answer`); else their twins (why_not) say
        # why: passing by itself, settling, or the answer already sent.
        due = self._answer is Answer.DUE
        if action == "block":
            # Not while this seat passes by itself (its block could only fail): never "b Block" then.
            return (
                due
                and view is not None
                and me is not None
                and self._blocker() is not None
                and self._by_itself(view) is None
            )
        if action == "pass_impulse":
            return due and key_acts.may_pass(view, me)
        if action == "strike":
            return due and key_acts.may_fight(view, me, CombatStep.STRIKE)
        if action == "fight":
            step = CombatStep.RANGE if parameters and parameters[0] == "maneuver" else CombatStep.PRESS
            return due and key_acts.may_fight(view, me, step)
        if action == "vote":
            return due and key_acts.may_vote(view, me)
        if action == "contest":
            return key_acts.may_contest(view, me)
        if action == "announce":
            return key_acts.may_announce(view, me)  # else its twin says why (never the frame's E)
        if action == "play_card" and not key_acts.may_play(view):
            return False  # its twin (why_not) names the card and the command that plays it by hand
        if action == "auto_pass":
            if parameters:  # the footer's A: while the table waits for this seat's answer
                return self._auto() is not None and self._answer in (Answer.DUE, Answer.BY_ITSELF)
            return True if self._auto() is not None else None
        why_not = self._acts.why_not
        others = view is not None and view.action is not None and view.action.actor != me
        if action == "act" and parameters and parameters[0] == "bleed" and others:
            return False  # b is a block in another's action (its own binding): never "b Bleed" there
        if action == "act" and parameters and parameters[0] in why_not and (self._listing or not self.submitting):
            # False, not None: the key leaves the footer and its twin (why_not) says why. While an
            # act is on its way the footer lists what the engine said last, and a key pressed then
            # is kept to be checked once the act is taken (:meth:`ActSender.when_free`).
            return why_not[str(parameters[0])] is None
        if action in ACTING:
            view = self._view
            seated = self.session.seat is not None and view is not None and view.step == Step.PLAY
            player = view.me if view is not None else None
            return seated and player is not None and player.status == Status.IN
        return super().check_action(action, parameters)


__all__ = ["VtesTableScreen"]
