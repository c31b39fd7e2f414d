"""The VTES table screen: every Methuselah around the table, every card in play, your hand with
the highlighted card's krcg text, and a command line, in the frame every table shares
(:class:`tui.screens.table.TableFrame`: the title, the game log, the status line, chat, the
abandon vote, the end-of-game screen).

Every act of :mod:`engine.games.vtes` can be made two ways: a key for the common ones (acting on
the highlighted hand card or the card selected on the board) and the command line
(:mod:`tui.games.vtes.commands`). Either way the act is first checked against the seat's own copy
of the table (``session.check_move``: the engine's check), and a refusal shows the engine's
sentence under the board instead of being sent.

The seat declares its deck's sizes by itself once the table asks (the ``deck`` act, from the deck
the seat committed to when it joined), so a person never has to type them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option, OptionDoesNotExist

from engine.errors import VampireError
from engine.games.base import Act, Pos
from engine.games.vtes.actions import ACTION_TYPES, MODIFIER, REACTION
from engine.games.vtes.combat import step_words
from engine.games.vtes.view import CardView, VtesView, vote_sources
from engine.games.vtes.vocab import CombatStep, Do, Phase, Poll, Status, Step, Target, Zone
from engine.table import Table
from tui.errors import explain
from tui.games.vtes import commands, fight_commands
from tui.games.vtes.action_text import PASS_KEY, waiting_words
from tui.games.vtes.log import VtesLog
from tui.games.vtes.present import (
    board_rows,
    card_text,
    hand_label,
    methuselah_lines,
    named,
    play_todo,
    rulings_text,
    seat_name,
    turn_line,
)
from tui.games.vtes.widgets.action import ActionBox
from tui.games.vtes.widgets.combat import CombatBox
from tui.games.vtes.widgets.referendum import CLOSE_AFTER, ReferendumBox
from tui.screens.table import TableFrame
from tui.session import TableSession

#: Columns from which the Methuselahs panel shows each one's predator too.
WIDE = 110
#: What the frame's status line says when the table waits for this seat's move
#: (:func:`tui.table_text.waiting_text`): at a VTES table, only true on this seat's own turn.
YOUR_TURN = "Your turn."
#: Acts kept while one is on its way to the table (keys pressed quickly: ``t t t t``).
QUEUE_MAX = 8


def _pos_id(prefix: str, pos: Pos) -> str:
    return f"{prefix}-{pos[0]}-{pos[1]}"


def _id_pos(option_id: str | None) -> Pos | None:
    if not option_id or option_id.count("-") != 2:
        return None
    _, event, index = option_id.split("-")
    return (int(event), int(index))


class CommandSuggester(Suggester):
    """Completes the command line as it is typed (→ takes the completion): command words, card
    names, zones and Methuselah names (:func:`tui.games.vtes.commands.completions`)."""

    def __init__(self, screen: VtesTableScreen) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.table_screen = screen

    async def get_suggestion(self, value: str) -> str | None:
        ctx = self.table_screen.command_context()
        if ctx is None:
            return None
        found = commands.completions(value, ctx)
        return found[0] if found else None


class VtesTableScreen(TableFrame, inherit_bindings=False):
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
    VtesTableScreen #vt-say { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    VtesTableScreen #vt-say.-illegal { color: $warning; text-style: bold; }
    VtesTableScreen #vt-say.-todo { color: $accent; }
    VtesTableScreen #vt-say.-illegal, VtesTableScreen #vt-say.-todo { height: auto; max-height: 3; text-wrap: wrap; }
    VtesTableScreen #vt-cmd { height: 1; border: none; padding: 0 1; }
    VtesTableScreen #vt-cmd:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("n", "act('next')", "Next"),
        Binding("p", "play_card", "Play"),
        # b blocks while you may block the open action, else announces a bleed (never both).
        Binding("b", "block", "Block"),
        Binding("b", "act('bleed')", "Bleed"),
        Binding("h", "act('hunt')", "Hunt"),
        Binding("a", "announce", "Act…"),
        Binding("full_stop", "pass_impulse", "Pass", key_display=PASS_KEY),
        Binding("s", "strike", "Strike"),
        Binding("m", "fight('maneuver')", "Maneuver"),
        Binding("P", "fight('press')", "Press"),
        Binding("V", "vote", "Vote"),
        Binding("t", "act('transfer')", "Transfer"),
        # A key that can do nothing now leaves the footer (check_action), and its twin says why.
        Binding("b", "why_not('bleed')", "Bleed", show=False),
        Binding("t", "why_not('transfer')", "Transfer", show=False),
        Binding("h", "why_not('hunt')", "Hunt", show=False),
        Binding("n", "why_not('next')", "Next", show=False),
        Binding("full_stop", "why_not('pass')", "Pass", show=False, key_display=PASS_KEY),
        Binding("s", "why_not('strike')", "Strike", show=False),
        Binding("m", "why_not('maneuver')", "Maneuver", show=False),
        Binding("P", "why_not('press')", "Press", show=False),
        Binding("V", "why_not('vote')", "Vote", show=False),
        Binding("A", "auto_pass", "Auto-pass", show=False),
        Binding("colon", "command", "Command"),
        Binding("tab", "cycle(1)", "Next panel", show=False),
        Binding("shift+tab", "cycle(-1)", "Previous panel", show=False),
        Binding("N", "act('end')", "End turn", show=False),
        Binding("d", "act('draw')", "Draw", show=False),
        Binding("D", "discard_card", "Discard", show=False),
        Binding("i", "act('influence')", "Influence", show=False),
        Binding("k", "lock", "Lock/unlock", show=False),
        Binding("x", "burn", "Burn", show=False),
        Binding("v", "move", "Move", show=False),
        Binding("f", "combat", "Combat", show=False),
        Binding("C", "act('transfer crypt')", "Crypt card out", show=False),
        Binding("plus", "act('pool +1')", "Pool +1", show=False),
        Binding("minus", "act('pool -1')", "Pool -1", show=False),
        Binding("greater_than_sign", "counter(1)", "Blood +1", show=False),
        Binding("less_than_sign", "counter(-1)", "Blood -1", show=False),
        Binding("g", "act('edge')", "Edge", show=False),
        Binding("w", "act('withdraw')", "Withdraw", show=False),
        Binding("T", "act('time')", "Call time", show=False),
        Binding("r", "rulings", "Rulings", show=False),
        Binding("e", "card_box", "Card text", show=False),
        Binding("H", "ash", "Ash heaps", show=False),
        Binding("L", "log_box", "Whole log", show=False),
        *TableFrame.FRAME_BINDINGS,
    ]

    def __init__(self, session: TableSession) -> None:
        super().__init__(session)
        self._view: VtesView | None = None
        self._focus_card: CardView | None = None
        self._show_rulings = False
        self._play_armed: list[int] | None = None  # the hand card a p pressed away from the hand named
        self._show_ash = False
        self._deck_sent = False
        self._hand_ids: tuple[str, ...] = ()
        self._board_ids: tuple[str, ...] = ()
        self._queued: deque[Callable[[], object]] = deque()
        #: The list the card panel follows: the hand or the board, whichever had the focus last.
        self._active_list = "vt-hand"
        #: Where the focus goes back after a command that went out (where it was before ``:``).
        self._before_command: Widget | None = None
        #: Why a footer key cannot act now (``b``, ``t``), from the engine's check; None: it can.
        self._why_not: dict[str, str | None] = {}
        #: The turn line when an after-play note was shown: a new one replaces the note.
        self._turn_at_note = ""
        #: The acting minion and the blocker of the last block attempt seen, and of the last
        #: block that succeeded (they fight: ``f`` records the strikes); the log notes read.
        self._attempt: tuple[Pos, Pos] | None = None
        self._combat: tuple[Pos, Pos] | None = None
        self._notes_read = 0

    # -- the board -------------------------------------------------------------------------------

    def compose_top(self) -> ComposeResult:
        yield Static(id="vt-players")
        with Horizontal(id="vt-middle"):
            with Vertical(id="vt-left"):
                yield OptionList(id="vt-board", classes="panel")
                yield self.note_log()
            with Vertical(id="vt-side"):
                yield OptionList(id="vt-hand", classes="panel")
                with VerticalScroll(id="vt-card", classes="panel"):
                    yield Static(id="vt-card-text")

    def compose_bottom(self) -> ComposeResult:
        yield ActionBox(id="vt-action")
        yield CombatBox(id="vt-combat")
        yield ReferendumBox(id="vt-referendum")
        yield Static(id="vt-say")
        yield Input(
            id="vt-cmd",
            placeholder=": a command: bleed 2, block, pass, play CARD, transfer 4 NAME… (→ completes)",
            suggester=CommandSuggester(self),
            # A prefilled line (V: "vote for ") keeps its text: the keys typed next complete it.
            select_on_focus=False,
        )

    def note_log(self) -> VtesLog:
        return VtesLog(id="log")

    def home_widget(self) -> Widget:
        return self.query_one("#vt-hand")

    def show_status(self, table: Table, me: int | None) -> None:
        """The frame's status line; but any Methuselah may act at any time, so the table may wait
        on this seat when it is not its turn of play: "Your turn." is said only on this seat's
        own turn (``view.acting``); otherwise it says whose turn it is, or what the table waits
        for from this seat (its deck), keeping whatever the frame added after it (a vote, a
        stalled seat)."""
        super().show_status(table, me)
        label = self.query_one("#waiting", Label)
        content = label.content
        said = content.plain if isinstance(content, Text) else str(content)
        view = self._current_view()
        during = waiting_words(view, list(table.names)) if view is not None and view.step == Step.PLAY else None
        if during is not None and not self._work_shown(said):
            # An open action: the table waits for the holder of the impulse alone (P1), whatever
            # the frame read from the seats that may act; what the frame added after stays.
            waited = table.waiting_on()
            rest = said[len(YOUR_TURN) :] if said.startswith(YOUR_TURN) else ""
            if not rest and said.startswith("Waiting for"):
                rest = said[said.find(".") + 1 :] if "." in said else ""
            if waited and view is not None and view.action is not None and waited != [view.action.impulse]:
                during = "Waiting for " + ", ".join(seat_name(list(table.names), s) for s in waited) + "."
            label.update(during + rest)
            label.set_class(False, "-your-turn")
            return
        if not said.startswith(YOUR_TURN):
            return
        mine = view is not None and view.step == Step.PLAY and me is not None and view.acting == me
        label.set_class(mine and said == YOUR_TURN, "-your-turn")
        if mine:
            return
        if view is not None and view.step == Step.PLAY:
            words = f"{seat_name(list(table.names), view.acting)}'s turn; you may act too (a card, a reaction)."
        elif view is not None and view.step == Step.JOINING:
            words = "The table waits for your deck's sizes."
        else:
            words = "The table waits for you."
        label.update(words + said[len(YOUR_TURN) :])

    @staticmethod
    def _work_shown(said: str) -> bool:
        """The status line shows protocol work or a stopped table, not whom the table waits for."""
        return not (said.startswith(YOUR_TURN) or said.startswith("Waiting for"))

    def on_mount(self) -> None:
        # Textual calls the frame's on_mount after this one (each class's handler, in MRO order).
        if getattr(self.session, "watching", False):
            self.query_one("#vt-cmd").display = False  # a spectator makes no moves
        self._titles()

    def title_parts(self, table: Table) -> list[str]:
        view = self._current_view()
        if view is None or view.step != Step.PLAY:
            return []
        return [f"turn {view.turn}"]

    def _current_view(self) -> VtesView | None:
        view = self.session.view()
        return view if isinstance(view, VtesView) else None

    def show_board(self, table: Table) -> None:
        view = self._current_view()
        self._view = view
        names = list(table.names)
        if view is None:
            self.query_one("#vt-players", Static).update(Text("Waiting for the table to start.", style="dim"))
            return
        self._fill_players(view, names)
        self._fill_board(view, names)
        self._fill_hand(view)
        self._show_card()
        self._show_action(view, names)
        self.query_one(CombatBox).show_combat(view, names)
        polling = table.options.get("polling")
        self.query_one(ReferendumBox).show_referendum(view, names, CLOSE_AFTER if polling == "15s" else None)
        self._say_turn(view, names)
        self._check_keys()
        self._declare_deck(view)
        if self._queued and not self.submitting:
            self.call_later(self._drain)

    def _fill_players(self, view: VtesView, names: list[str]) -> None:
        """The Methuselahs panel, as wide as the screen (the ready minions' names fit its width)."""
        width = max(self.size.width - 2, 40)  # the panel's padding: one column each side
        self.query_one("#vt-players", Static).update(
            methuselah_lines(view, names, wide=self.size.width >= WIDE, width=width)
        )

    def _show_action(self, view: VtesView, names: list[str]) -> None:
        """The action box, and what the screen remembers of the action for ``f``: the minions of
        the last block attempt, which enter combat when it blocks (P4: the table records it)."""
        a = view.action
        if a is not None and a.blocker:
            self._attempt = (a.minion, a.blocker)
        table = self.session.table
        news = self._notes_read > 0  # not the history read when the screen opens
        for note in table.notes[self._notes_read :]:
            if news and note.text.startswith("The referendum ") and view.seat is not None:
                # The result stays under the board until the next key (the box is gone).
                self._say(note.render(names), False, todo=True)
            if "enter combat" in note.render(names) and self._attempt is not None:
                self._combat = self._attempt
                pair = [view.card(p) for p in self._combat]
                if view.seat is not None and any(c is not None and c.controller == view.seat for c in pair):
                    one, two = (c.name.split(" (")[0] if c is not None else "?" for c in pair)
                    self._say(f"{one} and {two} enter combat: {PASS_KEY} passes each step, s strikes.", False)
        self._notes_read = len(table.notes)
        blocker = self._blocker()
        self.query_one(ActionBox).show_action(
            view, names, blocker.name.split(" (")[0] if blocker is not None else None, self._auto()
        )

    def _auto(self) -> bool | None:
        """The seat passes by itself with nothing to play (None: this session cannot)."""
        auto = getattr(self.session, "auto_pass", None)
        return None if auto is None else bool(auto)

    def _blocker(self) -> CardView | None:
        """The minion ``b`` blocks with: the selected one if it is a ready unlocked minion of
        yours, else your first; None when you may not block now."""
        view, me = self._view, self.session.seat
        if view is None or me is None or not view.may_block(me):
            return None
        ready = view.ready_unlocked(me)
        selected = self.selected_card()
        return selected if selected in ready else (ready[0] if ready else None)

    @on(CombatBox.YourMove)
    @on(ReferendumBox.YourMove)
    @on(ActionBox.ImpulseArrived)
    def _impulse_arrived(self, event: ActionBox.ImpulseArrived | CombatBox.YourMove | ReferendumBox.YourMove) -> None:
        # Asked to decide: a bell, and the keys act (not the command line or chat, if left open).
        self.app.bell()

    def _fill_board(self, view: VtesView, names: list[str]) -> None:
        board = self.query_one("#vt-board", OptionList)
        rows = board_rows(view, names, ash=self._show_ash)
        options: list[Option] = []
        ids: list[str] = []
        for i, row in enumerate(rows):
            if row.card is None:
                oid = f"head-{i}"
                options.append(Option(row.text, id=oid, disabled=True))
            else:
                oid = _pos_id("b", row.card.pos)
                if oid in ids:  # the same card twice cannot happen; never crash on it
                    continue
                options.append(Option(row.text, id=oid))
            ids.append(oid)
        key = tuple(ids) + tuple(str(r.text) for r in rows)
        if key == self._board_ids:
            return
        self._board_ids = key
        old = board.highlighted_option.id if board.highlighted_option is not None else None
        board.set_options(options)
        if old is not None and old in ids:
            board.highlighted = ids.index(old)

    def _fill_hand(self, view: VtesView) -> None:
        hand = self.query_one("#vt-hand", OptionList)
        options = [Option(hand_label(c), id=_pos_id("h", c.pos)) for c in view.hand]
        if view.seat is None:
            # A spectator holds no hand: the panel says so once, instead of staying empty.
            options = [Option(Text("Watching: hands stay hidden.", style="dim"), id="h-none", disabled=True)]
        ids = tuple(str(o.id) for o in options) + tuple(str(o.prompt) for o in options)
        self._titles()
        if ids == self._hand_ids:
            return
        self._hand_ids = ids
        old = hand.highlighted
        hand.set_options(options)
        if options:
            hand.highlighted = min(old or 0, len(options) - 1)

    def _say_turn(self, view: VtesView, names: list[str]) -> None:
        say = self.query_one("#vt-say", Static)
        turn = self._turn_words(view, names)
        # During an action, a combat or a referendum the box says it all: the turn line gives its
        # row back, but a refusal or a note still shows.
        quiet = view.action is None and view.combat is None and view.referendum is None
        say.display = quiet or say.has_class("-illegal") or say.has_class("-todo")
        if say.has_class("-illegal"):
            return  # the last refusal stays until the next key
        if say.has_class("-todo"):
            if turn == self._turn_at_note:
                return  # what to do after a play stays until the next key, or news of the turn
            say.set_class(False, "-todo")  # the turn changed (a phase, a withdrawal that fails)
        say.update(turn)

    def _turn_words(self, view: VtesView, names: list[str]) -> str:
        """The turn line (:func:`turn_line`), and that this seat asks every time when it does."""
        turn = turn_line(view, names)
        return turn + " Auto-pass off (A)." if self._auto() is False else turn

    def _declare_deck(self, view: VtesView) -> None:
        """In the joining step, send this seat's deck sizes (from the deck it committed to)."""
        me = view.me
        if view.step != Step.JOINING or me is None or me.declared or self._deck_sent or self.submitting:
            return
        decks = getattr(self.session, "decks", None)
        if not decks:
            self._say("Declare your deck: deck CRYPT LIBRARY (its sizes), e.g. deck 12 60.", False)
            return
        self._deck_sent = True
        self.submit({"do": Do.DECK, "crypt": len(decks.get("crypt", ())), "library": len(decks.get("library", ()))})

    # -- the card under the cursor -----------------------------------------------------------------

    def _card_at(self, pos: Pos | None) -> CardView | None:
        view = self._view
        if view is None or pos is None:
            return None
        for c in (*view.hand, *view.cards):
            if c.pos == pos:
                return c
        return None

    def selected_card(self) -> CardView | None:
        """The card highlighted on the board (None: a heading or nothing)."""
        board = self.query_one("#vt-board", OptionList)
        opt = board.highlighted_option
        return self._card_at(_id_pos(opt.id if opt is not None else None))

    def hand_card(self) -> CardView | None:
        """The card highlighted in the hand."""
        hand = self.query_one("#vt-hand", OptionList)
        opt = hand.highlighted_option
        return self._card_at(_id_pos(opt.id if opt is not None else None))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "vt-board" and self._view is not None:
            self._check_keys()  # b and t act on the selected card: the footer follows it
            self.refresh_bindings()
        if event.option_list.id != self._active_list:
            return  # a redraw of the list the card panel does not follow
        before = self._focus_card.pos if self._focus_card is not None else None
        self._focus_card = self._card_at(_id_pos(event.option.id))
        self._show_card()
        if self._focus_card is not None and self._focus_card.pos == before:
            return  # a redraw put the highlight back where it was: the person did not move it
        if before is not None and not self._listed(event.option_list, before):
            return  # the card left the list (played, moved): a redraw, not the person's key
        self._unstick()

    @staticmethod
    def _listed(options: OptionList, pos: Pos) -> bool:
        """True when the card at ``pos`` is in ``options`` (the hand's or the table's)."""
        prefix = "h" if options.id == "vt-hand" else "b"
        try:
            options.get_option_index(_pos_id(prefix, pos))
        except OptionDoesNotExist:
            return False
        return True

    def on_key(self, event: events.Key) -> None:
        # Every key (before the act it is bound to, if any) lets the turn line come back: the last
        # refusal or after-play note was read; an act that is refused again says so again.
        self._unstick()

    def _unstick(self) -> None:
        """Let the turn line replace the last refusal or after-play note (the person moved on)."""
        say = self.query_one("#vt-say", Static)
        if (say.has_class("-illegal") or say.has_class("-todo")) and self._view is not None:
            say.set_class(False, "-illegal")
            say.set_class(False, "-todo")
            self._say_turn(self._view, list(self.session.table.names))

    # -- focus: hand, table, log -----------------------------------------------------------------

    #: The panels Tab and Shift+Tab go round, in this order.
    PANELS: tuple[str, ...] = ("vt-hand", "vt-board", "log")
    _PANEL_TITLES: dict[str, str] = {"vt-board": "Table", "log": "Game log"}

    def action_cycle(self, step: int) -> None:
        """Tab: the focus to the next of the hand, the table and the log (Shift+Tab: back)."""
        focused = self.focused
        ids = self.PANELS
        at = ids.index(focused.id) if focused is not None and focused.id in ids else -1
        if at < 0:
            at = 0 if step > 0 else 1  # from elsewhere (the command line): Tab goes to the table
        self.set_focus(self.query_one(f"#{ids[(at + step) % len(ids)]}"))

    def on_descendant_focus(self, event: object) -> None:
        self._play_armed = None  # a p that named a card is answered by the next p, not a later one
        focused = self.focused
        if focused is not None and focused.id in ("vt-hand", "vt-board"):
            self._active_list = focused.id
            board = self.query_one("#vt-board", OptionList)
            if focused is board and self.selected_card() is None:
                self._highlight_first_card(board)
            opt = focused.highlighted_option if isinstance(focused, OptionList) else None
            self._focus_card = self._card_at(_id_pos(opt.id if opt is not None else None))
            self._show_card()
        self._titles()

    def on_descendant_blur(self, event: object) -> None:
        self._titles()

    def _highlight_first_card(self, board: OptionList) -> None:
        """The table's highlight on its first card: one of your minions if you have one."""
        me = self.session.seat
        cards = [(i, self._card_at(_id_pos(board.get_option_at_index(i).id))) for i in range(board.option_count)]
        found = [(i, c) for i, c in cards if c is not None]
        mine = [i for i, c in found if c.controller == me and c.zone.in_play]
        if mine or found:
            board.highlighted = (mine or [found[0][0]])[0]

    def _titles(self) -> None:
        """Each panel's title; the one with the focus is marked (its border changes colour too)
        and says what its keys do."""
        focused = self.focused
        view = self._view
        hand = f"Your hand ({len(view.hand)})" if view is not None and view.seat is not None else "Hand"
        titles = {"vt-hand": hand, **self._PANEL_TITLES}
        for wid, title in titles.items():
            here = focused is not None and focused.id == wid
            hint = " ↑↓ · Tab" if here and wid != "log" else " ↑↓ scroll" if here else ""
            self.query_one(f"#{wid}").border_title = f"▸ {title}{hint}" if here else title

    def _show_card(self) -> None:
        # A card that moved is shown as it is now (counters, zone), or not at all once gone.
        card = self._shown_card()
        shown = rulings_text(card) if self._show_rulings else card_text(card)
        self.query_one("#vt-card-text", Static).update(shown)
        title = "Rulings (r card · e all)" if self._show_rulings else "Card (r rulings · e all)"
        self.query_one("#vt-card").border_title = title

    def _shown_card(self) -> CardView | None:
        """The card the card panel shows: the one highlighted in the hand or on the table, in
        whichever had the focus last, as it is now."""
        card = self.selected_card() if self._active_list == "vt-board" else self.hand_card()
        return card or (self._card_at(self._focus_card.pos) if self._focus_card is not None else None)

    def action_card_box(self) -> None:
        """The shown card's whole text and rulings in a box (the panel may show only its start)."""
        from tui.games.vtes.menus import CardBox

        card = self._shown_card()
        if card is None:
            self._say("✗ No card to show: highlight one in your hand or on the table.", True)
            return
        if not card.known:
            self._say("✗ That card is face down: only its owner knows it.", True)
            return
        self.app.push_screen(CardBox(card_text(card), rulings_text(card)))

    def on_resize(self) -> None:
        # The Methuselahs panel shows each one's predator from WIDE columns on: redraw it now,
        # not at the next act, when the terminal grows or shrinks across that width.
        view = self._current_view()
        if view is not None:
            self._fill_players(view, list(self.session.table.names))

    # -- acting ----------------------------------------------------------------------------------

    def command_context(self) -> commands.Context | None:
        """What the command line reads its words against (None: no view yet)."""
        view = self._current_view()
        if view is None:
            return None
        selected = self.selected_card()
        return commands.Context(view, list(self.session.table.names), selected.pos if selected else None)

    def _say(self, text: str, illegal: bool, todo: bool = False) -> None:
        """The line under the board: ``illegal`` (a refusal) and ``todo`` (what to do by hand
        after a play) wrap to up to three lines and stay until the next key; any other text is one
        line, which the next redraw replaces."""
        say = self.query_one("#vt-say", Static)
        say.display = True
        say.update(text)
        say.set_class(illegal, "-illegal")
        say.set_class(todo and not illegal, "-todo")
        if todo and self._view is not None:
            self._turn_at_note = self._turn_words(self._view, list(self.session.table.names))

    def _refusal(self, command: str) -> str | None:
        """Why ``command`` (its defaults filled as the key fills them) cannot be made now, in the
        command's or the engine's sentence; None when the engine would take it."""
        ctx = self.command_context()
        if ctx is None or self.session.seat is None:
            return "The table has not started yet."
        try:
            self.session.check_move(fight_commands.parse_line(command, ctx))
        except VampireError as err:
            return self._sentence(err)
        return None

    def _check_keys(self) -> None:
        """Ask the engine whether ``b`` and ``t`` (with the table's selection) can act now; the
        footer shows them only then (:meth:`check_action`)."""
        view, me = self._view, self.session.seat
        # b during another Methuselah's action is a block: say why that cannot be made now.
        blocking = view is not None and view.action is not None and view.action.actor != me
        self._why_not = {
            "next": self._refusal("next"),
            "bleed": self._refusal("block" if blocking else "bleed"),
            "hunt": self._refusal("hunt"),
            "pass": self._refusal("pass"),
            "transfer": self._refusal("transfer"),
        }

    def action_why_not(self, what: str) -> None:
        """A footer key pressed while it can do nothing: why, in one line."""
        reason = self._fight_refusal(what) or self._why_not.get(what) or self._refusal(what) or "Try again."
        self._say(f"✗ {reason}", True)

    def _fight_refusal(self, what: str) -> str | None:
        """Why a combat or referendum key does nothing now (None: not such a key)."""
        view, me = self._view, self.session.seat
        combat = view.combat if view is not None else None
        poll = view.referendum if view is not None else None
        match what:
            case "strike" | "maneuver" | "press":
                step = {"strike": "strike", "maneuver": "range", "press": "press"}[what]
                if combat is None:
                    return f"There is no combat now: {what} belongs to a combat's {step} step."
                if combat.impulse != me:
                    return "The combat waits for another Methuselah now."
                return f"This is the {step_words(combat.step)} step: {what} comes in the {step} step."
            case "vote":
                if poll is None:
                    return "There is no referendum now: V votes while one is polling."
                if poll.step != Poll.VOTING:
                    return "Polling has not begun: the terms and the cards before votes come first."
                return "You are done voting in this referendum."
        return None

    def try_act(self, act: Act) -> bool:
        """Check ``act`` with the engine (the seat's own table) and send it; a refusal shows the
        engine's sentence and sends nothing. Returns True when the act went out."""
        if self.session.seat is None:
            self._say("You are watching: a spectator makes no moves.", True)
            return False
        if self.submitting:
            # Not sticky: the next redraw replaces it (one act at a time goes out).
            self._say("Your last act is still on its way to the table: try again in a moment.", False)
            return False
        try:
            self.session.check_move(act)
        except VampireError as err:
            self._queued.clear()  # the keys after a refused act were meant to follow it
            self._say(f"✗ {self._sentence(err)}", True)
            return False
        todo = self._play_todo(act)
        self._say(todo or f"✓ Sent: {self._act_words(act)}", False, todo=bool(todo))
        self.submit(act)
        return True

    def _play_todo(self, act: Act) -> str:
        """After a ``play``: what the player still does by hand (its cost, its effect), or ""."""
        if act.get("do") != Do.PLAY:
            return ""
        card = self._card_at(tuple(act["card"]))
        if card is None:
            return ""
        payer = self._card_at(tuple(act["minion"])) if "minion" in act else None
        payer = payer or self._blood_payer()
        todo = play_todo(card, act, payer)
        return f"✓ {todo}" if todo else ""

    def _blood_payer(self) -> CardView | None:
        """The vampire of yours a blood cost comes from: the selected one, else your first ready one."""
        view, me = self._view, self.session.seat
        mine = [c for c in (view.cards if view else ()) if c.controller == me and c.crypt and c.zone == Zone.READY]
        selected = self.selected_card()
        return selected if selected in mine else (mine[0] if mine else None)

    def when_free(self, run: Callable[[], object]) -> None:
        """Run ``run`` (a key's act) now, or, while an act of this seat is on its way to the table,
        once it has been taken: keys pressed quickly are kept in order (up to :data:`QUEUE_MAX`),
        each checked against the table as it stands when its turn comes, instead of lost."""
        if self.session.seat is None or (not self.submitting and not self._queued):
            run()
            return
        if len(self._queued) >= QUEUE_MAX:
            self._say(f"✗ {QUEUE_MAX} acts are waiting already: this key is ignored.", True)
            return
        self._queued.append(run)
        self._say(f"… waiting for your last act to reach the table ({len(self._queued)} more to send)", False)

    def _drain(self) -> None:
        """Run the next kept key, once nothing of this seat is on its way."""
        if self._queued and not self.submitting:
            self._queued.popleft()()

    def _sentence(self, err: BaseException) -> str:
        """The engine's sentence for a refusal, its seat placeholders (``{s1}``) named."""
        return named(explain(err), list(self.session.table.names))

    def _act_words(self, act: Act) -> str:
        from engine.games.vtes.game import describe_act

        table = self.session.table
        state = table.gstate
        seat = self.session.seat
        if state is None or seat is None:
            return str(act.get("do", ""))
        try:
            return describe_act(state, seat, act, {}).render(list(table.names)) + "."
        except Exception:  # a description must never stop an act from going out
            return str(act.get("do", ""))

    def run_command(self, line: str) -> bool:
        """Parse ``line`` and make its act (True when it went out); a line that does not parse,
        or an act the engine refuses, shows why."""
        ctx = self.command_context()
        if ctx is None:
            self._say("The table has not started yet.", True)
            return False
        try:
            act = fight_commands.parse_line(line, ctx)
        except VampireError as err:
            self._say(f"✗ {explain(err)}", True)
            return False
        return self.try_act(act)

    def action_act(self, command: str) -> None:
        self.when_free(lambda: self.run_command(command))

    def action_command(self) -> None:
        # At once, not as Widget.focus does it (after the messages already queued): the keys typed
        # right after ":" belong to the command line, and a "p" among them must not play a card.
        cmd = self.query_one("#vt-cmd", Input)
        if self.focused is not cmd:
            self._before_command = self.focused
        self.set_focus(cmd)

    def _leave_command(self) -> None:
        """The focus back where it was before ``:`` (else the hand): the keys act again."""
        back = self._before_command
        self._before_command = None
        if back is None or not back.is_attached or back.id == "vt-cmd":
            back = self.home_widget()
        self.set_focus(back)

    @on(Input.Submitted, "#vt-cmd")
    def _command_submitted(self, event: Input.Submitted) -> None:
        line = event.value.strip()
        if not line:
            self._leave_command()
            return
        if self.submitting or self._queued:
            self.when_free(lambda: self.run_command(line))
            event.input.value = ""
            self._leave_command()
        elif self.run_command(line):
            event.input.value = ""
            self._leave_command()
        else:
            # Refused: the line stays to be mended, selected, so that typing a new one replaces it.
            event.input.select_all()

    @on(Input.Changed, "#vt-cmd")
    def _command_changed(self, event: Input.Changed) -> None:
        ctx = self.command_context()
        if ctx is None or not event.value.strip():
            return
        found = commands.completions(event.value, ctx)
        if found:
            shown = " · ".join(found[:4])
            self._say(f"→ completes: {shown}{' …' if len(found) > 4 else ''}", False)

    def action_block(self) -> None:
        """``b`` while this seat may block the open action: a block attempt (P3) with the selected
        ready unlocked minion of yours, else your first."""
        self.when_free(self._block)

    def _block(self) -> None:
        minion = self._blocker()
        if minion is None:
            self._say(f"✗ {self._refusal('block') or 'You may not block now.'}", True)
            return
        self.try_act({"do": Do.BLOCK, "minion": minion.as_list()})

    def action_pass_impulse(self) -> None:
        """``.``: pass the impulse of the open action (in window A, a blocker's pass declines), of
        a combat step or before a referendum's votes; while polling, say you are done voting."""
        view = self._view
        voting = view is not None and view.referendum is not None and view.referendum.step == Poll.VOTING
        self.when_free(lambda: self.run_command("done" if voting else "pass"))

    @on(ReferendumBox.CloseTime)
    def _close_polling(self, event: ReferendumBox.CloseTime) -> None:
        """``polling=15s``: 15 s after the last vote this seat is done (7.1)."""
        self._say("15 s since the last vote: you are done voting (table rule polling=15s).", False)
        self.when_free(lambda: self.run_command("done"))

    def action_strike(self) -> None:
        """``s``: the hand strike for your combatant whose strike is due (5.4); other strikes by
        the command line (``:strike 2 agg``, ``:strike dodge with CARD``)."""
        self.when_free(lambda: self.run_command("strike"))

    def action_fight(self, word: str) -> None:
        """``m`` maneuver, ``P`` press: for your combatant (a card allows it: name it with
        ``:maneuver with CARD``)."""
        self.when_free(lambda: self.run_command(word))

    def action_vote(self) -> None:
        """``V``: the command line, ready for a vote, with the sources you hold listed."""
        view, me = self._view, self.session.seat
        if view is None or me is None or view.referendum is None:
            self._say("✗ There is no referendum to vote in.", True)
            return
        sources = vote_sources(view, me)
        words = []
        for act in sources:
            card = view.card(tuple(act["card"])) if "card" in act else None
            words.append(f"{act['source']}" + (f" {card.name.split(' (')[0]}" if card is not None else ""))
        self.action_command()
        cmd = self.query_one("#vt-cmd", Input)
        cmd.value = f"vote for {words[0]}" if words else "done"
        cmd.cursor_position = len(cmd.value)
        held = ", ".join(words) if words else "none: Enter says you are done"
        self._say(f"Enter votes; or change it (for/against) from: {held}.", False)

    def action_auto_pass(self) -> None:
        """``A``: pass by itself with nothing to play, or ask me every time."""
        auto = self._auto()
        switch = getattr(self.session, "set_auto_pass", None)
        if auto is None or switch is None:
            self._say("✗ This table asks you every time: it passes nothing by itself.", True)
            return
        try:
            switch(not auto)
        except VampireError as err:
            self._say(f"✗ {explain(err)}", True)
            return
        if auto:
            self._say(
                f"Ask me every time: you decide every impulse, even with nothing to play ({PASS_KEY} passes).", False
            )
        else:
            self._say("Auto-pass: with nothing to block or play, your impulse passes by itself.", False)
        view = self._current_view()
        if view is not None:
            self._show_action(view, list(self.session.table.names))

    def action_announce(self) -> None:
        """``a``: announce an action (a menu: bleed, hunt, an action card of the hand, leave
        torpor, rescue…) with the selected minion of yours, else your first ready unlocked one."""
        self.when_free(lambda: self._announce(None))

    def _announce(self, card: CardView | None) -> None:
        from tui.games.vtes.menus import AnnounceMenu, announce_choices

        view, me = self._view, self.session.seat
        if view is None or me is None:
            return
        mine = [c for c in view.cards if c.controller == me and c.zone in (Zone.READY, Zone.TORPOR)]
        selected = self.selected_card()
        minion = selected if selected in mine and (selected.crypt or "Ally" in selected.types) else None
        names = list(self.session.table.names)
        choices = announce_choices(view, names, minion, card)
        if not choices:
            self._say("✗ None of your minions can act now (each acts once it is ready and unlocked).", True)
            return

        def chosen(act: Act | None) -> None:
            if act is not None:
                self.when_free(lambda: self.try_act(act))

        self.app.push_screen(AnnounceMenu(choices), chosen)

    def action_play_card(self) -> None:
        self.when_free(self._play_card)

    def _play_card(self) -> None:
        card = self.hand_card()
        if card is None:
            self._say("✗ Your hand is empty.", True)
            return
        hand = self.query_one("#vt-hand", OptionList)
        if not hand.has_focus and self._play_armed != card.as_list():
            # The card panel shows the table's or the log's highlight, not this card: name the
            # card p would play before playing it (a second p plays it).
            self._play_armed = card.as_list()
            self._say(
                f"p plays {card.name or 'the highlighted card'} from your hand: p again plays it, Tab shows your hand.",
                True,
            )
            return
        self._play_armed = None
        view, me = self._view, self.session.seat
        types = set(card.types)
        action_card = bool(types & ACTION_TYPES) and not types & {MODIFIER, REACTION}
        if action_card and view is not None and view.action is None and view.acting == me:
            # An action card is announced as a minion's action, not played: the menu proposes it.
            self._announce(card)
            return
        self.try_act(self._play_act(card))

    def _play_act(self, card: CardView) -> Act:
        """Playing a hand card by key: where it goes is :func:`commands.play_destination`'s (in
        play, on a minion, or the ash heap, from its krcg type and text); its printed cost is paid
        (blood from the selected, or first, vampire of yours)."""
        from engine.games.vtes.cards import card_base, card_id

        act: Act = {"do": Do.PLAY, "card": card.as_list()}
        me = self.session.seat
        mine = [c for c in (self._view.cards if self._view else ()) if c.controller == me and c.zone.in_play]
        selected = self.selected_card()
        minion = selected if selected is not None and selected in mine else None
        view = self._view
        if view is not None and view.action is not None and me is not None and REACTION in card.types:
            # A reaction is played by a ready unlocked minion of yours: the selected one, else the
            # engine's choice when you have one only.
            ready = view.ready_unlocked(me)
            if minion in ready and minion is not None:
                act["minion"] = minion.as_list()
        ctx = self.command_context()
        if ctx is not None:
            act.update(commands.play_destination(card, ctx))
        cid = card_id(card.card)
        base = card_base().by_id(cid) if cid is not None else None
        cost = getattr(base, "cost", None)
        value = getattr(cost, "value", None)
        kind = getattr(getattr(cost, "type", None), "value", "")
        if isinstance(value, int) and value > 0:
            if kind == "Pool":
                act["pool"] = value
            elif kind == "Blood":
                payer = minion if minion is not None and minion.crypt else None
                payer = payer or next((c for c in mine if c.crypt and c.zone == Zone.READY), None)
                if payer is not None:
                    act["blood"] = value
                    act["minion"] = payer.as_list()
        return act

    def action_discard_card(self) -> None:
        self.when_free(self._discard_card)

    def _discard_card(self) -> None:
        card = self.hand_card()
        if card is None:
            self._say("✗ Your hand is empty.", True)
            return
        self.try_act({"do": Do.DISCARD, "card": card.as_list()})

    def _need_selected(self, what: str) -> CardView | None:
        card = self.selected_card()
        if card is None:
            self._say(f"✗ Select a card on the table first (Tab to the table, ↑ ↓), then {what}.", True)
        return card

    def action_lock(self) -> None:
        self.when_free(self._lock)

    def _lock(self) -> None:
        card = self._need_selected("k")
        if card is not None:
            self.try_act({"do": Do.UNLOCK if card.locked else Do.LOCK, "cards": [card.as_list()]})

    def action_burn(self) -> None:
        self.when_free(self._burn)

    def _burn(self) -> None:
        card = self._need_selected("x")
        if card is not None:
            self.try_act({"do": Do.BURN, "cards": [card.as_list()]})

    def action_move(self) -> None:
        """A menu of where to move the selected card; the choice is a ``move`` act."""
        from tui.games.vtes.menus import MoveMenu

        card = self._need_selected("v")
        if card is None:
            return

        def chosen(target: Target | None) -> None:
            if target is not None:
                self.try_act({"do": Do.MOVE, "cards": [card.as_list()], "to": target})

        self.app.push_screen(MoveMenu(card.name or "the card"), chosen)

    def action_combat(self) -> None:
        """Combat (rules, "Combat"): the selected minion (else your first ready one) against one
        chosen from a menu; the table runs a combat between two ready minions (the combat box),
        else a menu of what the strikes did, one result at a time."""
        from tui.games.vtes.menus import CombatMenu, opponents

        view = self._view
        me = self.session.seat
        if view is None or me is None:
            return
        if view.combat is not None:
            # The table runs the combat under way step by step (P5): the combat box says what is due.
            self._say(f"✗ A combat is under way: {PASS_KEY} passes each step, s strikes (:strike N … others).", True)
            return
        minion = self.selected_card()
        if (
            minion is None
            or minion.zone not in (Zone.READY, Zone.TORPOR)
            or not (minion.crypt or "Ally" in minion.types)
        ):
            minion = next((c for c in view.controlled(me, Zone.READY) if c.crypt or "Ally" in c.types), None)
        if minion is None:
            self._say("✗ Select a minion on the table first (Tab to the table, ↑ ↓), then f.", True)
            return
        foes = opponents(view.cards, minion)
        if not foes:
            self._say(f"✗ No other minion is in play for {minion.name} to fight.", True)
            return

        def chosen(foe: CardView | None) -> None:
            if foe is None or not self.try_act({"do": Do.COMBAT, "minions": [minion.as_list(), foe.as_list()]}):
                return
            if view.action is None and minion.zone == foe.zone == Zone.READY:
                # The table opens the combat and runs it step by step (P5): the combat box.
                self._say(f"{minion.name} and {foe.name} enter combat: {PASS_KEY} passes each step, s strikes.", False)
            else:
                self._strikes((minion, foe))  # only recorded: what the strikes did, by hand

        self.app.push_screen(CombatMenu(minion, foes, list(self.session.table.names)), chosen)

    def _strikes(self, pair: tuple[CardView, CardView]) -> None:
        """The strike menu for ``pair``, again after each result it sends, until combat ends."""
        from tui.games.vtes.menus import StrikeMenu

        def chosen(act: Act | None) -> None:
            if act is None:
                self._combat = None  # f starts a combat by hand again
                self._say(f"Combat between {pair[0].name} and {pair[1].name} ends.", False)
                return
            self.when_free(lambda: self.try_act(act))
            self._strikes(pair)

        self.app.push_screen(StrikeMenu(pair), chosen)

    def action_counter(self, delta: int) -> None:
        self.when_free(lambda: self._counter(delta))

    def _counter(self, delta: int) -> None:
        card = self._need_selected("> or <")
        if card is not None:
            do = Do.BLOOD if card.crypt else Do.LIFE
            self.try_act({"do": do, "card": card.as_list(), "delta": delta, "cause": commands.DEFAULT_CAUSE})

    def action_rulings(self) -> None:
        self._show_rulings = not self._show_rulings
        self._show_card()

    def action_ash(self) -> None:
        self._show_ash = not self._show_ash
        view = self._current_view()
        if view is not None:
            self._fill_board(view, list(self.session.table.names))
        self._say("Ash heaps shown on the table (h hides them)." if self._show_ash else "Ash heaps hidden.", False)

    def action_log_box(self) -> None:
        """The whole game log in a box (the log panel shows its last lines), at its end."""
        from tui.games.vtes.menus import CardBox

        names = list(self.session.table.names)
        text = Text("Game log\n", style="bold")
        for note in self.session.table.notes:
            text.append(note.render(names) + "\n")
        self.app.push_screen(CardBox(text, Text(), at_end=True))

    def action_back(self) -> None:
        cmd = self.query_one("#vt-cmd", Input)
        if cmd.has_focus:
            cmd.value = ""  # Esc leaves the command line and drops what was typed, like a cancel
            self._leave_command()
            return
        super().action_back()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        acting = (
            *("act", "play_card", "discard_card", "lock", "burn", "counter", "move", "combat", "command"),
            *("block", "announce", "pass_impulse", "auto_pass", "strike", "fight", "vote"),
        )
        if action in acting and getattr(self.session, "watching", False):
            return False  # a spectator's footer lists no key that acts
        if action == "command":
            return True
        if action == "why_not":
            return not getattr(self.session, "watching", False)
        view, me = self._view, self.session.seat
        if action == "block":
            return view is not None and me is not None and self._blocker() is not None
        if action == "pass_impulse":
            if view is None or me is None:
                return False
            if view.referendum is not None:
                r = view.referendum
                if r.step == Poll.TERMS:
                    return False  # the caller records the terms first (:terms TEXT)
                return r.impulse == me if r.step != Poll.VOTING else me not in r.done
            if view.combat is not None:
                return view.combat.impulse == me and view.combat.step != CombatStep.STRIKE
            return view.action is not None and view.action.impulse == me
        if action == "strike":
            return (
                view is not None
                and view.combat is not None
                and view.combat.step == CombatStep.STRIKE
                and (view.combat.impulse == me)
            )
        if action == "fight":
            step = CombatStep.RANGE if parameters and parameters[0] == "maneuver" else CombatStep.PRESS
            return (
                view is not None
                and view.combat is not None
                and view.combat.step == step
                and (view.combat.impulse == me)
            )
        if action == "vote":
            poll = view.referendum if view is not None else None
            voting = poll is not None and poll.step == Poll.VOTING and me not in poll.done
            return voting and view is not None and me is not None and bool(vote_sources(view, me))
        if action == "announce":
            # Else a falls to the frame's: end the wait for a stalled seat.
            mine = (
                view is not None
                and view.step == Step.PLAY
                and view.acting == me
                and view.action is None
                and view.combat is None
                and view.referendum is None
            )
            return mine and view is not None and view.phase == Phase.MINION and self._stalled_seat() is None
        if action == "auto_pass":
            return True if self._auto() is not None else None
        if action == "act" and (view is None or view.me is None or view.me.status != Status.IN):
            return None  # out of the game (or not started): the keys that act are off
        if action == "act" and parameters and parameters[0] in self._why_not and not self.submitting:
            # False, not None: the key leaves the footer and its twin (why_not) says why.
            return self._why_not[str(parameters[0])] is None
        if action in acting:
            view = self._view
            seated = self.session.seat is not None and view is not None and view.step == Step.PLAY
            player = view.me if view is not None else None
            return True if seated and player is not None and player.status == Status.IN else None
        return super().check_action(action, parameters)


__all__ = ["VtesTableScreen"]
