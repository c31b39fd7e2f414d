"""The open minion action in words, from a seat's :class:`VtesView` (shared/rules/vtes-actions.md
4, P1–P3): who acts with whom at what, stealth against intercept, the bleed or hunt amount, the
window and who holds the impulse, and the keys this seat may press now. No Textual here: the
action box (:mod:`tui.games.vtes.widgets.action`) shows these; the tests read them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.base import Act
from engine.games.vtes.claims import window_held
from engine.games.vtes.offers import answers
from engine.games.vtes.state import Action
from engine.games.vtes.terms_choices import terms_choices
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import CombatStep, Do, Phase, Poll, Step, Window, action_phrase
from tui.games.vtes.answer_text import answer_window, answer_words
from tui.games.vtes.present import seat_name

#: The key that passes the impulse (shown in the footer and the action box).
PASS_KEY = "."


def _short(name: str) -> str:
    return name.split(" (")[0]


def _card_name(view: VtesView, pos: object) -> str:
    card = view.card(pos) if isinstance(pos, tuple) and pos else None
    return _short(card.name) if card is not None and card.name else "a card"


def _who(view: VtesView, names: Sequence[str], seat: int) -> str:
    return "you" if seat == view.seat else seat_name(names, seat)


def action_words(view: VtesView, names: Sequence[str], action: Action) -> str:
    """``"Ana's Lucia bleeds Ben for 2 with Govern the Unaligned"``: the acting Methuselah, the
    acting minion, what it does (at whom, for how much) and with which card."""
    return action_phrase(
        action.kind,
        "Your" if action.actor == view.seat else f"{seat_name(names, action.actor)}'s",
        _card_name(view, action.minion),
        [_who(view, names, s) for s in action.targets],
        target_card=_card_name(view, action.target_card) if action.target_card else None,
        amount=action.amount,
        card=_card_name(view, action.card) if action.card else None,
    )


def numbers_words(action: Action) -> str:
    """``"stealth 1 vs intercept 0"``: the action's stealth against the block attempt's intercept."""
    return f"stealth {action.stealth} vs intercept {action.intercept}"


def window_words(view: VtesView, names: Sequence[str], action: Action, by_itself: Act | None = None) -> str:
    """The window (4.4) and what it waits for: ``"window A: Ben may block"``, ``"window B: Marek
    attempts to block"``, ``"window C: no block; all pass and it succeeds"``. ``by_itself``: what
    this seat does by itself now (its automatic pass): a seat that passes by itself is not said to
    "may block" (its block could only fail, and it declines: ``"(yours would fail)"``)."""
    match action.window:
        case Window.NO_ATTEMPT:
            entitled = [s for s in view.blockers() if s not in action.declined]
            may = view.may_still_block()
            declines = by_itself is not None and view.seat in may
            may = tuple(s for s in may if not (declines and s == view.seat))
            fails = " (yours would fail: you decline)" if declines else ""
            if not may:
                return "window A: nobody may block" + (
                    " (no ready unlocked minion)" if entitled and not fails else fails
                )
            return f"window A: {' or '.join(_who(view, names, s) for s in may)} may block{fails}"
        case Window.ATTEMPT:
            blocker = _card_name(view, action.blocker)
            blocked = "blocked if all pass" if action.blocks else "not blocked as it stands"
            return f"window B: {blocker} attempts to block ({blocked})"
        case Window.DIABLERIE:
            blocker = _card_name(view, action.blocker)
            return f"blocked: {blocker}'s controller diablerises {_card_name(view, action.minion)}, or declines"
        case _:
            return "window C: unblocked, succeeds once all pass"


def end_turn_warning(view: VtesView | None) -> str | None:
    """What ``N`` (end the turn) says once, asking for ``N`` again, before it ends this seat's
    turn with something a player expects to do unused (rules, "Turn sequence"): the influence
    phase still to come, or transfers left in it. None: nothing is unused (or not this seat's turn)."""
    if view is None or view.seat is None or view.step != Step.PLAY or view.acting != view.seat:
        return None
    if view.phase in (Phase.UNLOCK, Phase.MASTER, Phase.MINION):
        return "Your influence phase is still to come (its transfers unused): N again ends the turn, n goes on."
    if view.phase == Phase.INFLUENCE and view.transfers > 0:
        left = f"{view.transfers} transfer{'s' if view.transfers != 1 else ''}"
        return f"You have {left} left in your influence phase: N again ends the turn."
    return None


@dataclass(frozen=True)
class Key:
    """A key this seat may press in the open action: ``key`` as the footer shows it, ``words``."""

    key: str
    words: str


def your_keys(view: VtesView, blocker_name: str | None, auto: bool | None) -> tuple[Key, ...]:
    """The keys of this seat in the open action when it holds the impulse (else none), each
    derived from the seat's offers (:func:`engine.games.vtes.offers.answers`): block with
    ``blocker_name`` (the minion ``b`` blocks with) when a block is offered, play an action
    modifier or a reaction when one is offered (the cards named), pass; the actor's stealth when a
    block attempt would stop it, the blocker's intercept (by a card: not offered, the table takes
    it from the card named)."""
    a, me = view.action, view.seat
    if a is None or me is None or a.impulse != me:
        return ()
    offered = answers(view)
    dos = {o.do for o in offered}
    if Do.DIABLERISE in dos:
        return (Key(":diablerise", "diablerise"), Key(PASS_KEY, "decline"))
    keys: list[Key] = []
    if Do.BLOCK in dos and blocker_name:
        keys.append(Key("b", f"block with {blocker_name}{_block_needs(view, a, me)}"))
    played = [o.card for o in offered if o.do == Do.PLAY]
    cards = list(dict.fromkeys(_card_name(view, pos) for pos in played if pos is not None))
    if cards:
        what = "a modifier" if me == a.actor else "a reaction"
        keys.append(Key("p", f"{what}: {', '.join(cards)}"))
    if me == a.actor and a.stealth_needed:
        keys.append(Key(":stealth +1", "by a card"))
    blocker = view.card(a.blocker) if a.intercept_needed and a.blocker else None
    if blocker is not None and blocker.controller == me:
        keys.append(Key(":intercept +1", "by a card"))
    if Do.PASS in dos:
        keys.append(Key(PASS_KEY, "pass (no block)" if view.may_block(me) else "pass"))
    return tuple(keys)


def _block_needs(view: VtesView, a: Action, me: int) -> str:
    """What a block attempt needs, when the action's stealth beats it (4.3: an attempt begins at
    intercept 0): ``" (intercept 0 against stealth 1: play intercept or it fails again)"``
    ("again" once a minion of this seat's has failed); "" while it would succeed."""
    if a.stealth <= 0:
        return ""
    again = " again" if any(m.pos in a.tried for m in view.controlled(me)) else ""
    return f" (intercept 0 against stealth {a.stealth}: play intercept or it fails{again})"


def impulse_words(view: VtesView, names: Sequence[str], action: Action) -> str:
    """``"impulse: Ben"``, or ``"impulse: you"``."""
    return f"impulse: {_who(view, names, action.impulse)}"


def by_itself_words(act: Act) -> str:
    """What this seat does by itself now (``act``: its automatic act, :func:`engine.games.vtes.autopass.auto_pass`),
    in words: ``"your seat passes by itself (A: ask every time)"``."""
    match act.get("do"):
        case Do.STRIKE:
            what = "strikes by itself (hand strike)"
        case Do.DONE:
            what = "is done voting by itself"
        case _:
            what = "passes by itself"
    return f"your seat {what} (A: ask every time)"


SETTLING = "Settling… (a draw or a shuffle comes first; your answer after it)."
"""The status line while the window's answer would be this seat's but the table does not wait for
its move yet (a draw's shares, a shuffle come first, and the card drawn may change what it can do):
neither "waits for you" nor "passes by itself" is true yet."""


def waiting_words(view: VtesView, names: Sequence[str], by_itself: Act | None = None, owed: bool = True) -> str | None:
    """The status line during an open action, a combat or a referendum: whom the table waits for
    (the holder of the impulse, P1; the Methuselahs still voting; those whose answer a claim made
    in the window waits for, docs/vtes-by-hand.md), or None when none is under way.
    ``by_itself``: the act this seat makes by itself now (its automatic pass): the table does not
    wait for this seat, and the line says what it does instead. ``owed``: the table waits for this
    seat's move now (:meth:`engine.table.table.Table.owes_move`); when not, what would say it waits
    for this seat says :data:`SETTLING` instead."""
    words = _waiting_words(view, names, by_itself)
    if words is None or owed or by_itself is not None:
        return words
    return SETTLING if _for_me(view) else words


def _for_me(view: VtesView) -> bool:
    """The window's answer is this seat's (as :func:`_waiting_words` says it waits for you)."""
    answer = answer_window(view)
    if answer is not None:
        return answer.loop.holder == view.seat
    held = window_held(view.claims)
    fight, poll, a = view.combat, view.referendum, view.action
    if held is not None and (fight is not None or poll is not None or a is not None):
        return view.seat in held.seats and view.seat not in held.accepted
    if poll is not None:
        if poll.step == Poll.VOTING:
            return view.seat in view.in_game() and view.seat not in poll.done
        return poll.impulse == view.seat
    if fight is not None:
        return fight.impulse == view.seat
    return a is not None and a.impulse == view.seat


def _waiting_words(view: VtesView, names: Sequence[str], by_itself: Act | None) -> str | None:
    if answer_window(view) is not None:  # a card announced, that the others may cancel
        if by_itself is not None:
            words = by_itself_words(by_itself)
            return words[0].upper() + words[1:] + "."
        return answer_words(view, names)
    fight, poll = view.combat, view.referendum
    if by_itself is not None and (fight is not None or poll is not None or view.action is not None):
        words = by_itself_words(by_itself)
        return words[0].upper() + words[1:] + "."
    held = window_held(view.claims)
    if held is not None and (fight is not None or poll is not None or view.action is not None):
        left = [s for s in held.seats if s not in held.accepted]
        if view.seat in left:
            return f"The table waits for your answer to act {held.act} (y accept, :dispute {held.act})."
        return "Waiting for " + ", ".join(seat_name(names, s) for s in left) + f"'s answer to act {held.act}."
    if poll is not None:
        if poll.step == Poll.VOTING:
            left = [s for s in view.in_game() if s not in poll.done]
            if view.seat in left:
                return "The referendum waits for your votes (V vote, . done)."
            return "Waiting for " + ", ".join(seat_name(names, s) for s in left) + " (votes)."
        if poll.impulse == view.seat:
            if poll.step == Poll.TERMS and terms_choices(view, poll):
                return "The referendum waits for your terms (V chooses them; or :terms TEXT, applied by hand)."
            return (
                "The referendum waits for you ("
                + ("terms: :terms TEXT" if poll.step == Poll.TERMS else ". pass")
                + ")."
            )
        return f"Waiting for {seat_name(names, poll.impulse)} (referendum)."
    if fight is not None:
        if fight.impulse == view.seat:
            if fight.step == CombatStep.STRIKE:
                what = "your strike: s hand strike, :strike …"
            else:  # the keys of the seat's offers, as the combat box lists them
                dos = {o.do for o in answers(view)}
                what = ", ".join([k for do, k in ((Do.MANEUVER, "m maneuver"), (Do.PRESS, "P press")) if do in dos])
                what = f"{what} or . pass" if what else ". pass"
            return f"The combat waits for you ({what})."
        return f"Waiting for {seat_name(names, fight.impulse)} (combat)."
    a = view.action
    if a is None:
        return None
    if a.impulse == view.seat:
        dos = {o.do for o in answers(view)}
        choices = [w for do, w in ((Do.BLOCK, "block"), (Do.PLAY, "play")) if do in dos]
        return f"Your impulse: the table waits for you ({', '.join(choices) + ' or ' if choices else ''}pass)."
    return f"Waiting for {seat_name(names, a.impulse)} (impulse)."


__all__ = [
    "PASS_KEY",
    "SETTLING",
    "Key",
    "action_words",
    "by_itself_words",
    "end_turn_warning",
    "impulse_words",
    "numbers_words",
    "waiting_words",
    "window_words",
    "your_keys",
]
