"""The line of claims (docs/vtes-by-hand.md): each change by hand to another
Methuselah's things that still waits, with the seconds left before its time runs out, counted on
this computer's clock; for this seat, what it may answer (``y`` accepts the oldest that waits for
it; ``:dispute N``), and when its time runs out, this seat (unless it made the claim) says so for
the table: the screen sends the ``lapse`` (:class:`ClaimsLine.Lapse`). Hidden when nothing waits.

A claim's time runs out here at the later of its ``due`` (the table's time, from the signed times
of the log, which the ``lapse`` entry must reach) and :data:`CLAIM_WAIT_MS` after this screen first
showed it. The table's time is the latest signed time of a move: after a quiet while, or under an
author who dates its claim in the past, ``due`` may already be behind this computer's clock when
the claim arrives, and the touched Methuselah would have no time at all to answer. Counting from
what this screen saw, as the waits on a seat do (docs/protocol.md, "Liveness"), a date signed in
the past or ahead gains the author nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from engine.games.base import Note
from engine.games.vtes.claims import CLAIM_WAIT_MS
from engine.games.vtes.state import Claim
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import ClaimStatus, Status
from tui.games.vtes.widgets.redraw import show

WITNESS_GRACE_MS = 3000
"""How long after a claim's time runs out a seat it does not touch says so (milliseconds): the
touched seat first, so that two seats seldom send the same ``lapse``."""


def waiting_for(view: VtesView | None, seat: int | None) -> Claim | None:
    """The oldest claim that waits for ``seat``'s answer (it touches its things, not accepted)."""
    if view is None or seat is None:
        return None
    for c in view.claims:
        if c.status == ClaimStatus.PENDING and seat in c.seats and seat not in c.accepted:
            return c
    return None


def claim_words(c: Claim, names: Sequence[str], seat: int | None, left_ms: int) -> str:
    """One claim in words: its number, author, change and cause, what it waits for."""
    text = Note(c.text).render(names)
    by = names[c.author] if c.author < len(names) else f"seat {c.author}"
    head = f"Act {c.act}: {by} asks {text} ({c.cause})"
    if c.disputed:
        who = ", ".join(names[s] for s in c.disputed)
        return f"{head}: disputed by {who}, no effect unless accepted"
    if not c.due:
        return f"{head}: waits for its owner" + (": y accept · :dispute " + str(c.act) if seat in c.seats else "")
    when = f"{-(-left_ms // 1000)} s" if left_ms > 0 else "now"
    if seat in c.seats and seat not in c.accepted:
        return f"{head}: y accept · :dispute {c.act} · takes effect in {when}"
    if seat == c.author:
        return f"{head}: takes effect in {when} unless disputed · :retract {c.act}"
    return f"{head}: takes effect in {when} unless disputed"


class ClaimsLine(Static):
    """The claims that wait, one a line (at most three), refreshed each second while any does."""

    class Lapse(Message):
        """The time of claim ``act`` has run out on this computer's clock: the screen sends the
        ``lapse`` if its table still allows it (posted each second while the claim waits)."""

        def __init__(self, act: int) -> None:
            super().__init__()
            self.act = act

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: This computer's clock (ms since the epoch, as entries are signed; a test sets its own).
        self.wall_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000
        self._timer: Timer | None = None
        self._seen: dict[int, int] = {}
        """Each waiting claim's act number, and this computer's time (ms) when it was first shown."""
        self._shown: tuple[VtesView | None, Sequence[str], int | None] = (None, (), None)

    def show_claims(self, view: VtesView | None, names: Sequence[str], seat: int | None) -> None:
        """Show ``view``'s waiting claims for ``seat`` (None: a spectator)."""
        self._shown = (view, list(names), seat)
        self._draw()

    def _draw(self) -> None:
        view, names, seat = self._shown
        waiting = [c for c in view.claims if c.status == ClaimStatus.PENDING] if view is not None else []
        self.display = bool(waiting)
        if not waiting:
            self._stop()
            show(self, "")
            return
        now = self.wall_ms()
        self._seen = {c.act: self._seen.get(c.act, now) for c in waiting}
        lines = [claim_words(c, names, seat, self.runs_out(c) - now) for c in waiting[-3:]]
        show(self, "\n".join(lines))
        if self._timer is None:
            self._timer = self.set_interval(1.0, self._draw)
        if seat is None or view is None or view.me is None or view.me.status != Status.IN:
            return  # only a Methuselah in the game says that a claim's time has run out
        for c in waiting:
            if not c.due or c.disputed or seat == c.author:
                continue
            grace = 0 if seat in c.seats else WITNESS_GRACE_MS
            if now >= self.runs_out(c) + grace:
                self.post_message(self.Lapse(c.act))  # each second until the table has it

    def runs_out(self, c: Claim) -> int:
        """When claim ``c``'s time runs out on this computer's clock (ms since the epoch): at its
        ``due``, and never before :data:`CLAIM_WAIT_MS` after this screen first showed it."""
        return max(c.due, self._seen.get(c.act, self.wall_ms()) + CLAIM_WAIT_MS)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None


__all__ = ["ClaimsLine", "claim_words", "waiting_for"]
