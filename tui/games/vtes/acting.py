"""This seat's acts on their way to a VTES table: each is checked against the seat's own copy of
the table first (``session.check_move``: the engine's check; a refusal is the engine's sentence,
said under the board, and nothing is sent), said (``✓ Sent: …`` in the log's words, a claim as
a claim that waits for the touched Methuselah, or what is left to do by hand after a play) and sent one at a time; keys pressed while one is on its way are
kept in order and run once it is taken. It also asks the engine, ahead of a key, whether the key
could act now and, when not, why (the footer hides such a key; pressed anyway, it says why); and
it declares the seat's deck sizes by itself when the table asks.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Protocol

from engine.errors import VampireError
from engine.games.base import Act
from engine.games.vtes.claims import CLAIM_WAIT_MS
from engine.games.vtes.state import Claim, VtesState
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import ClaimStatus, Do, Step
from tui.errors import explain
from tui.games.vtes import fight_commands
from tui.games.vtes.command_words import Context
from tui.games.vtes.present import named
from tui.screens.table import sent_line
from tui.session import TableSession

QUEUE_MAX = 8
"""Acts kept while one is on its way to the table (keys pressed quickly: ``t t t t``)."""

#: The keys whose act the engine is asked about ahead (:meth:`ActSender.check_keys`).
CHECKED_KEYS: tuple[str, ...] = ("next", "bleed", "hunt", "pass", "transfer", "influence")


class ActingScreen(Protocol):
    """What an :class:`ActSender` needs of the screen it sends for."""

    @property
    def session(self) -> TableSession: ...

    @property
    def submitting(self) -> bool:
        """An act of this seat is on its way to the table."""
        ...

    @property
    def host_away(self) -> bool:
        """The link to the host is lost: a move sent now waits until the table is back."""
        ...

    def submit(self, act: Act) -> None:
        """Send ``act`` (checked already) as this seat's move."""

    def say(self, text: str, illegal: bool, todo: bool = False) -> None:
        """Say ``text`` under the board: a refusal (``illegal``), what to do by hand (``todo``)."""

    def command_context(self) -> Context | None:
        """What a command line is read against now (None: no view yet)."""

    def play_todo(self, act: Act) -> str:
        """After a ``play``: what the player still does by hand, or ""."""


class ActSender:
    """Checks, says and sends the acts of ``screen``'s seat, one at a time."""

    def __init__(self, screen: ActingScreen) -> None:
        self.screen = screen
        #: Keys pressed while an act was on its way: each runs in turn once nothing is.
        self.queued: deque[Callable[[], object]] = deque()
        #: Why a key of :data:`CHECKED_KEYS` cannot act now, from the engine's check; None: it can.
        self.why_not: dict[str, str | None] = {}
        self._deck_sent = False

    @property
    def session(self) -> TableSession:
        return self.screen.session

    def try_act(self, act: Act, note: str = "") -> bool:
        """Check ``act`` with the engine (the seat's own table) and send it; a refusal shows the
        engine's sentence and sends nothing; ``note``: a sentence the confirmation adds (what a
        command chose that its words left unnamed). Returns True when the act went out."""
        screen = self.screen
        if self.session.seat is None:
            screen.say("You are watching: a spectator makes no moves.", True)
            return False
        if screen.submitting:
            # Not sticky: the next redraw replaces it (one act at a time goes out).
            screen.say("Your last act is still on its way to the table: try again in a moment.", False)
            return False
        try:
            self.session.check_move(act)
        except VampireError as err:
            self.queued.clear()  # the keys after a refused act were meant to follow it
            screen.say(f"✗ {self.sentence(err)}", True)
            return False
        todo = screen.play_todo(act)
        said = todo or self.sent_words(act, screen.host_away)
        screen.say(f"{said} {note}" if note else said, False, todo=bool(todo))
        screen.submit(act)
        return True

    def sent_words(self, act: Act, host_away: bool = False) -> str:
        """What ``act`` does once sent: ``✓ Sent: …`` in the log's words when it takes effect as
        it is taken (``host_away``: that it waits until the table is back,
        :func:`tui.screens.table.sent_line`); for a change by hand that becomes a claim
        (docs/vtes-by-hand.md), that it is a claim and whose answer it waits for, so it never
        reads as done."""
        words = self.act_words(act)
        c = self.claim_made(act)
        if c is None or host_away:
            return sent_line(words, host_away)
        names = list(self.session.table.names)
        who = " and ".join(names[s] if 0 <= s < len(names) else f"seat {s}" for s in c.seats)
        if not c.due:
            when = f"waits for {who} to move their hidden cards or dispute it"
        else:
            when = f"waits for {who} to accept it, or {CLAIM_WAIT_MS // 1000} s undisputed"
        return f"✓ Claim sent, not done yet: {words} It {when}."

    def claim_made(self, act: Act) -> Claim | None:
        """The pending claim ``act`` records, tried on this seat's own copy of the table (the
        game's own fold, whose result is dropped); None when it takes effect at once (or the try
        cannot tell: the table decides when it folds)."""
        table = self.session.table
        state = table.gstate
        seat = self.session.seat
        if not isinstance(state, VtesState) or seat is None or table.game is None:
            return None
        try:
            after, _ = table.game.apply(state, seat, act, {}, state.clock)
        except Exception:  # a try that fails (cards to open first) says nothing more
            return None
        made = getattr(after, "claims", ())[len(state.claims) :]
        return next((c for c in made if c.author == seat and c.status == ClaimStatus.PENDING), None)

    def run_command(self, line: str) -> bool:
        """Parse ``line`` and make its act (True when it went out); a line that does not parse,
        or an act the engine refuses, shows why."""
        ctx = self.screen.command_context()
        if ctx is None:
            self.screen.say("The table has not started yet.", True)
            return False
        try:
            act = fight_commands.parse_line(line, ctx)
        except VampireError as err:
            self.screen.say(f"✗ {explain(err)}", True)
            return False
        return self.try_act(act, " ".join(ctx.notes))

    def enter(self, line: str) -> bool:
        """A command line entered: made now, or kept while an act is on its way (True), or
        refused (False: the line stays to be mended)."""
        if self.screen.submitting or self.queued:
            self.when_free(lambda: self.run_command(line))
            return True
        return self.run_command(line)

    def when_free(self, run: Callable[[], object]) -> None:
        """Run ``run`` (a key's act) now, or, while an act of this seat is on its way to the table,
        once it has been taken: keys pressed quickly are kept in order (up to :data:`QUEUE_MAX`),
        each checked against the table as it stands when its turn comes, instead of lost."""
        if self.session.seat is None or (not self.screen.submitting and not self.queued):
            run()
            return
        if len(self.queued) >= QUEUE_MAX:
            self.screen.say(f"✗ {QUEUE_MAX} acts are waiting already: this key is ignored.", True)
            return
        self.queued.append(run)
        self.screen.say(f"… waiting for your last act to reach the table ({len(self.queued)} more to send)", False)

    def drain(self) -> None:
        """Run the next kept key, once nothing of this seat is on its way."""
        if self.queued and not self.screen.submitting:
            self.queued.popleft()()

    def refusal(self, command: str) -> str | None:
        """Why ``command`` (its defaults filled as the key fills them) cannot be made now, in the
        command's or the engine's sentence; None when the engine would take it."""
        ctx = self.screen.command_context()
        if ctx is None or self.session.seat is None:
            return "The table has not started yet."
        try:
            act = fight_commands.parse_line(command, ctx)
        except VampireError as err:
            return self.sentence(err)
        return self.engine_refusal(act)

    def engine_refusal(self, act: Act) -> str | None:
        """Why the engine refuses ``act`` now (its sentence, seats named); None: it takes it."""
        try:
            self.session.check_move(act)
        except VampireError as err:
            return self.sentence(err)
        return None

    def check_keys(self, view: VtesView | None, me: int | None) -> None:
        """Ask the engine whether the keys of :data:`CHECKED_KEYS` (with the table's selection)
        can act now (:attr:`why_not`)."""
        # b during another Methuselah's action is a block: say why that cannot be made now.
        blocking = view is not None and view.action is not None and view.action.actor != me
        self.why_not = {key: self.refusal("block" if key == "bleed" and blocking else key) for key in CHECKED_KEYS}

    def why(self, what: str, view: VtesView | None, me: int | None) -> str:
        """Why the key ``what`` can do nothing now, in one sentence."""
        # The key's act is the command of the same word: the engine's (or the command reader's)
        # sentence for it, so a key and its command are refused in the same words.
        reason = self.why_not.get(what) or self.refusal(what)
        if reason is None and what in ("maneuver", "press"):  # the engine would take it by hand only
            return f"No card of yours gives a {what} now: :{what} makes one by hand (a claim the others answer)."
        return reason or "Try again."

    def declare_deck(self, view: VtesView) -> None:
        """In the joining step, send this seat's deck sizes (from the deck it committed to when
        it joined), once: a person never types them."""
        me = view.me
        screen = self.screen
        if view.step != Step.JOINING or me is None or me.declared or self._deck_sent or screen.submitting:
            return
        decks = getattr(self.session, "decks", None)
        if not decks:
            screen.say("Declare your deck: deck CRYPT LIBRARY (its sizes), e.g. deck 12 60.", False)
            return
        self._deck_sent = True
        screen.submit({"do": Do.DECK, "crypt": len(decks.get("crypt", ())), "library": len(decks.get("library", ()))})

    def sentence(self, err: BaseException) -> str:
        """The engine's sentence for a refusal, its seat placeholders (``{s1}``) named."""
        return named(explain(err), list(self.session.table.names))

    def act_words(self, act: Act) -> str:
        """``act`` in the log's words, the game's own narration (its kind alone when it cannot be
        described)."""
        table = self.session.table
        state = table.gstate
        seat = self.session.seat
        if state is None or seat is None or table.game is None:
            return str(act.get("do", ""))
        try:
            return table.game.describe(state, seat, act, {}).render(list(table.names)) + "."
        except Exception:  # a description must never stop an act from going out
            return str(act.get("do", ""))


__all__ = ["QUEUE_MAX", "ActSender", "ActingScreen"]
