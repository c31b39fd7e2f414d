"""The VTES table screen's keys: each key and the action of :class:`tui.games.vtes.table.VtesTableScreen`
it runs, in the order the footer lists them, then the frame's keys (chat, log, help, quit). A key
that can do nothing now leaves the footer (the screen's ``check_action``) and its twin,
``why_not``, says why when it is pressed anyway. F1's help (:data:`tui.games.vtes.front.HELP`)
says the same in words.
"""

from __future__ import annotations

from textual.binding import ActiveBinding, Binding, BindingType

from tui.games.vtes.action_text import PASS_KEY
from tui.screens.table import TableFrame

TABLE_KEYS: list[BindingType] = [
    Binding("n", "act('next')", "Next"),
    Binding("p", "play_card", "Play"),
    # b blocks while you may block the open action, else announces a bleed (never both).
    Binding("b", "block", "Block"),
    Binding("b", "act('bleed')", "Bleed"),
    Binding("h", "act('hunt')", "Hunt"),
    Binding("a", "announce", "Act…"),  # only this: ending a long wait is the frame's E
    Binding("full_stop", "pass_impulse", "Pass", key_display=PASS_KEY),
    Binding("s", "strike", "Strike"),
    Binding("m", "fight('maneuver')", "Maneuver"),
    Binding("P", "fight('press')", "Press"),
    # ":" and V (a line to type in): priority bindings, run by the app as the key arrives, before it
    # hands on the next key of a burst, so that the keys typed right after reach the command line
    # (a plain binding runs only once the key has come back up from the focused widget, and the
    # burst has gone to that widget by then). A focused line types them instead (Textual leaves out
    # the bindings of the keys an Input takes).
    Binding("V", "vote", "Vote", priority=True),
    # A in the footer while the table waits for your answer (an impulse, a strike, votes); else hidden.
    Binding("A", "auto_pass(True)", "Auto-pass"),
    # y while a change by hand to your things waits for your answer (shared/rules/vtes.md).
    Binding("y", "accept_claim", "Accept"),
    Binding("t", "act('transfer')", "Transfer"),
    # i in the footer once a vampire of your uncontrolled region has its capacity in blood.
    Binding("i", "act('influence')", "Influence"),
    # Y in your unlock phase while a contest of yours waits to be paid or yielded (rulebook, "Contested Cards").
    Binding("Y", "contest", "Pay/yield"),
    Binding("Y", "why_not('contest')", "Pay/yield", show=False),
    # A key that can do nothing now leaves the footer (check_action), and its twin says why.
    Binding("b", "why_not('bleed')", "Bleed", show=False),
    Binding("t", "why_not('transfer')", "Transfer", show=False),
    Binding("i", "why_not('influence')", "Influence", show=False),
    Binding("h", "why_not('hunt')", "Hunt", show=False),
    Binding("n", "why_not('next')", "Next", show=False),
    Binding("full_stop", "why_not('pass')", "Pass", show=False, key_display=PASS_KEY),
    Binding("s", "why_not('strike')", "Strike", show=False),
    Binding("m", "why_not('maneuver')", "Maneuver", show=False),
    Binding("P", "why_not('press')", "Press", show=False),
    Binding("V", "why_not('vote')", "Vote", show=False),
    Binding("a", "why_not('announce')", "Act…", show=False),
    Binding("p", "why_not('play')", "Play", show=False),
    Binding("A", "auto_pass", "Auto-pass", show=False),
    Binding("colon", "command", "Command", priority=True),
    Binding("tab", "cycle(1)", "Next panel", show=False),
    Binding("shift+tab", "cycle(-1)", "Previous panel", show=False),
    Binding("N", "act('end')", "End turn", show=False),
    Binding("d", "act('draw')", "Draw", show=False),
    Binding("D", "discard_card", "Discard", show=False),
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
"""The table's bindings (``BINDINGS`` of the screen, which inherits none)."""

ACTING: tuple[str, ...] = (
    *("act", "play_card", "discard_card", "lock", "burn", "counter", "move", "combat", "command"),
    *("block", "announce", "pass_impulse", "auto_pass", "strike", "fight", "vote", "accept_claim", "contest"),
)
"""The actions whose keys make acts: a spectator's footer lists none of them."""

ANSWERS: frozenset[str] = frozenset({"pass_impulse", "block", "strike", "fight", "vote", "auto_pass", "contest"})
"""The actions whose keys answer what the table waits for from this seat (pass, block, strike,
maneuver, press, vote; and A, whether it passes by itself): :func:`answers_first`."""


def answers_first(bindings: dict[str, ActiveBinding]) -> dict[str, ActiveBinding]:
    """The footer's keys (a screen's ``active_bindings``, key to binding) with those of
    :data:`ANSWERS` that can act now first, the others after them in their order: at 80 columns a
    long footer cuts its last keys, never the ones the table waits for."""
    first = {
        key: b
        for key, b in bindings.items()
        if b.enabled and b.binding.show and b.binding.action.split("(")[0] in ANSWERS
    }
    return {**first, **bindings} if first else bindings


__all__ = ["ACTING", "ANSWERS", "TABLE_KEYS", "answers_first"]
