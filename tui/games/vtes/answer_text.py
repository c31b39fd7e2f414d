"""A card announced that the other Methuselahs may cancel as it is played (the answer window,
:mod:`engine.games.vtes.cancels`), in words for the status line: whose card waits, and, for the
seat holding the impulse, its keys (``p`` cancels it with the card its hand holds, ``.`` lets it
through). No Textual here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.vtes.offers import answers
from engine.games.vtes.state import Answer
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Do
from tui.games.vtes.present import seat_name


def answer_window(view: VtesView) -> Answer | None:
    """The answer window when it is the innermost one, else None."""
    top = view.innermost
    return top if isinstance(top, Answer) else None


def cancel_names(view: VtesView) -> list[str]:
    """The hand cards this seat may cancel the announced card with now (its offers), by name."""
    offered = {o.card for o in answers(view) if o.do == Do.PLAY}
    return list(dict.fromkeys(c.name.split(" (")[0] for c in view.hand if c.pos in offered))


def answer_words(view: VtesView, names: Sequence[str]) -> str | None:
    """``"The table waits for you: Ana's Zillah's Valley: p cancels (Sudden Reversal), . lets it
    through."`` for the seat whose answer it waits for (in the words of every window that waits for
    a seat), else whom it waits for; None when no card waits for answers."""
    answer = answer_window(view)
    if answer is None:
        return None
    card = view.card(answer.card)
    what = f"{seat_name(names, answer.seat)}'s {card.name.split(' (')[0] if card is not None else 'card'}"
    if answer.loop.holder != view.seat:
        return f"{what} may be canceled as it is played: waiting for {seat_name(names, answer.loop.holder)}."
    cancels = cancel_names(view)
    keys = f"p cancels ({' or '.join(cancels)}), " if cancels else ""
    return f"The table waits for you: {what}: {keys}. lets it through."
