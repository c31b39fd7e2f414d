"""The key guard of the VTES table screen: game keys typed within a moment of the command line or
the chat line closing, or of the screen changing under them (a window opens, changes or closes;
this seat's answer becomes due or stops being due), are not taken as game keys (README, "Flow").
No Textual here: the screen (:mod:`tui.games.vtes.table`) asks it, with its own clock.
"""

from __future__ import annotations

from engine.games.base import Act
from engine.games.vtes.view import VtesView
from tui.games.vtes import key_acts
from tui.games.vtes.keymap import ACTING

KEY_GUARD_S = 0.4
"""Seconds after the command line closes, or the screen changes under the keys, during which a
game key (:data:`GUARDED`) is refused with a line that says why; each key refused then starts the
time again, so a burst of typing is refused whole: keys typed fast never move the game."""

GUARDED: frozenset[str] = frozenset(a for a in ACTING if a not in ("command", "auto_pass")) | {
    *("why_not", "card_box", "log_box", "rulings", "ash", "chat", "focus_log", "abandon", "why_not_abandon"),
}
"""The actions whose keys the key guard (:data:`KEY_GUARD_S`) refuses: every key that acts or
takes the keys typed after it (a menu, a box, chat); not ``:``, ``A`` (it only says how this seat
answers), Tab, Esc, F1."""

OPENS: frozenset[str] = frozenset({"card_box", "log_box", "rulings", "ash", "chat", "focus_log"})
"""The guarded actions that play nothing (they open a box, a line or the log): refused as "not
opened", never as "not played"."""

type Moment = tuple[object, ...]
"""What the screen shows of the windows and whether the table waits for this seat's answer (its
last item)."""


def moment(view: VtesView, seat: int | None, by_itself: Act | None) -> Moment:
    """What the screen shows of the windows (the open action's window, the combat's round and
    step, the referendum's step) and whether the table waits for ``seat``'s answer (not when it
    answers by itself, ``by_itself``)."""
    a, c, r = view.action, view.combat, view.referendum
    due = by_itself is None and key_acts.answer_due(view, seat)
    return (
        (a.minion, a.window) if a is not None else None,
        (c.round, c.step) if c is not None else None,
        r.step if r is not None else None,
        due,
    )


def refusal(action: str, why: str) -> str:
    """The line under the board for a key refused by the guard (``action``: the key's; ``why``:
    the guard's reason): one line for the whole burst, "not opened" for a key that plays nothing
    (:data:`OPENS`)."""
    verb = "Not opened" if action in OPENS else "Not played"
    return f"✗ {verb}: {why}."


class KeyGuard:
    """Whether a game key is taken now: times in seconds of the screen's monotonic key clock."""

    def __init__(self) -> None:
        #: Game keys are refused until this time, with this sentence, but for the action of the
        #: key the line under the board asks for again, if any (None: taken).
        self._until: tuple[float, str, str | None] | None = None
        #: What the last redraw showed (:func:`moment`).
        self._shown: Moment | None = None

    def guard(self, now: float, why: str, spare: str | None = None) -> None:
        """Refuse game keys for :data:`KEY_GUARD_S` from ``now``, saying ``why``; but for the
        key whose action is ``spare``: the line just said asks for that key again ("p again plays
        it"), so pressing it is the person's answer to what they read, not a key typed blind."""
        self._until = (now + KEY_GUARD_S, why, spare)

    def shown(self, now: float, seen: Moment) -> None:
        """A redraw showed ``seen``: guard the keys when a window opened, changed or closed, or
        this seat's answer became due or stopped being due, since the last one."""
        before, self._shown = self._shown, seen
        if before is None or before == seen:
            return
        if seen[-1] and not before[-1]:
            why = "the table just turned to you"
        elif before[-1] and not seen[-1]:
            why = "your impulse just passed on"
        else:
            why = "the window just changed"
        self.guard(now, f"{why}, look again")

    def why(self, now: float, typing_on: bool = False, action: str | None = None) -> str | None:
        """Why a key of :data:`GUARDED` pressed at ``now`` is not played, or None; ``typing_on``: a
        key is pressed, so the guard lasts :data:`KEY_GUARD_S` from now; ``action``: the key's
        (the one the last line asked for again is played: :meth:`guard`)."""
        if self._until is None:
            return None
        until, why, spare = self._until
        if now >= until:
            self._until = None
            return None
        if typing_on:
            self._until = (now + KEY_GUARD_S, why, spare)  # the whole burst stays refused
        return None if action is not None and action == spare else why


__all__ = ["GUARDED", "KEY_GUARD_S", "OPENS", "KeyGuard", "Moment", "moment", "refusal"]
