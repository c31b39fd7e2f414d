"""The line of claims (docs/vtes-by-hand.md): each change by hand to another
Methuselah's things that still waits, with the seconds left before its time runs out, counted on
this computer's clock first, so that it shows within 80 columns; those that wait for this seat's
answer come first, newest first, and ``y`` accepts the first of them only, the one it is shown on
(``:accept N`` another; ``:dispute N``), and when its time runs out, this seat (unless it made the claim) says so for
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

from rich.cells import cell_len, set_cell_size
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


LINES = 3
"""How many claims the line shows at most (one a line)."""

ROOMY_ROWS = 25
"""The screen's least height (rows) at which claims between other Methuselahs take a free line: at
80×24 every row is the board's, and such a claim neither asks this seat anything nor is its own
(the game log says it, and the status line names whom a window waits for)."""


def waiting_for(view: VtesView | None, seat: int | None) -> Claim | None:
    """The claim ``y`` accepts: the newest that waits for ``seat``'s answer (it touches its things,
    and ``seat`` has neither accepted nor disputed it), the first one :func:`on_line` lists. A claim
    this seat disputed is accepted only by naming it (``:accept N``)."""
    if view is None or seat is None:
        return None
    return next(iter(_for(view, seat)), None)


def _for(view: VtesView, seat: int) -> list[Claim]:
    """The waiting claims that ask ``seat`` for an answer, newest first."""
    return [
        c
        for c in reversed(view.claims)
        if c.status == ClaimStatus.PENDING and seat in c.seats and seat not in c.accepted and seat not in c.disputed
    ]


def on_line(view: VtesView | None, seat: int | None, others: bool = True) -> list[Claim]:
    """The claims the line shows ``seat`` (None: a spectator), at most :data:`LINES`: those that
    wait for its answer first, newest first, then its own, then, with ``others`` (a screen of
    :data:`ROOMY_ROWS` rows or more), others' while a line is free. A disputed claim (held until
    accepted or retracted) is no longer counted down: the game log says it, not the line."""
    if view is None:
        return []
    counting = [c for c in reversed(view.claims) if c.status == ClaimStatus.PENDING and not c.holding]
    mine = _for(view, seat) if seat is not None else []
    own = [c for c in counting if c.author == seat and c not in mine]
    rest = [c for c in counting if c not in mine and c not in own] if others else []
    return (mine + own + rest)[:LINES]


def claim_words(c: Claim, names: Sequence[str], seat: int | None, left_ms: int, first: bool, width: int) -> str:
    """One claim in words, at most ``width`` cells: the seconds left first ("due" once run out,
    "owner" for hidden cards that only their owner's answer moves), then what this seat may answer
    naming the act (``y`` only on the ``first`` line that waits for it), then its author, change
    and cause, cut at the end when too long: ``"28 s · y accept · :dispute 69 · Carl: Alice -3
    pool (Banishment)"``."""
    text = Note(c.text).render(names)
    by = names[c.author] if c.author < len(names) else f"seat {c.author}"
    if not c.due:
        when = "owner"
    else:
        when = f"{-(-left_ms // 1000)} s" if left_ms > 0 else "due"
    if seat in c.seats and seat not in c.accepted:
        answer = f"y accept · :dispute {c.act}" if first else f":accept {c.act} · :dispute {c.act}"
    elif seat == c.author:
        answer = f":retract {c.act}"
    else:
        answer = f"act {c.act}"
    line = f"{when} · {answer} · {by}: {text} ({c.cause})"
    return line if cell_len(line) <= width else set_cell_size(line, width - 1) + "…"


class ClaimsLine(Static):
    """The claims that wait, one a line (at most three; claims between others only on a screen of
    :data:`ROOMY_ROWS` rows or more), refreshed each second while any does."""

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
        listed = on_line(view, seat, others=self.screen.size.height >= ROOMY_ROWS)
        self.display = bool(listed)
        if not waiting:
            self._stop()
            show(self, "")
            return
        now = self.wall_ms()
        self._seen = {c.act: self._seen.get(c.act, now) for c in waiting}
        width = max(20, (self.content_size.width or 78))
        first = waiting_for(view, seat)
        lines = [claim_words(c, names, seat, self.runs_out(c) - now, c is first, width) for c in listed]
        show(self, "\n".join(lines))
        if self._timer is None:
            self._timer = self.set_interval(1.0, self._draw)
        if seat is None or view is None or view.me is None or view.me.status != Status.IN:
            return  # only a Methuselah in the game says that a claim's time has run out
        for c in waiting:
            if not c.due or c.holding or seat == c.author:
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


__all__ = ["ROOMY_ROWS", "ClaimsLine", "claim_words", "on_line", "waiting_for"]
