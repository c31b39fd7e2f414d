"""Blood burned for intercept during an action, by the vampire that played the card that allows
it (Speak with Spirits at superior: "Once this action, this vampire can burn 1 blood to get +1
intercept"; Eyes of the Wild: "During this action, this Gangrel can burn 1 blood to get +1
intercept").

The sentences are read here (:mod:`engine.games.vtes.card_effects` consults :func:`read`) as
:attr:`~engine.games.vtes.card_effects.EffectKind.INTERCEPT` of ``amount`` for ``least`` blood,
``whom`` :data:`ONCE` or :data:`DURING`: not a number the card adds as it is played, but one its
vampire may take later in the action. It is taken by an ``adjust`` act naming the card (``by``,
in its player's ash heap) with ``intercept`` and ``blood`` (docs/protocol.md): while that vampire
attempts to block and its intercept does not yet match the action's stealth (4.3), it burns the
blood and its block attempt gets the intercept; "once this action" is kept among the state's
``limited`` until the action ends.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.games.base import Act, IllegalMove, Pos
from engine.games.vtes.acts import esc
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import card_id
from engine.games.vtes.state import Action, Limited
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Do, Lift, LimitScope, Window, Zone
from engine.games.vtes.work import Work

ONCE = "once this action, for blood"
"""The ``whom`` of intercept its vampire may get once in the action, burning ``least`` blood."""
DURING = "during this action, for blood"
"""The ``whom`` of intercept its vampire may get any number of times in the action, ``least``
blood each."""
WHOMS = (ONCE, DURING)
"""The ``whom`` of intercept taken later in the action."""
PAID = "as it is played, for blood"
"""The ``whom`` of intercept the blocking vampire gets as the card is played, burning ``least``
blood ("This vampire burns 1 blood to get +1 intercept": Falcon's Eye; the play's ``blood``,
:func:`engine.games.vtes.card_play.window_choices`)."""

_SHAPE = re.compile(
    r"(?P<when>once this action|during this action), this (?:vampire|gangrel) can burn (?P<blood>\d+) blood"
    r" to get \+(?P<amount>\d+) intercept"
)

_PAID = re.compile(r"(?:this vampire burns|burn) (\d+) blood to get \+(\d+) intercept")


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effect of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is this module's shape, else None."""
    if paid := _PAID.fullmatch(sentence):
        return (Effect(EffectKind.INTERCEPT, int(paid.group(2)), whom=PAID, least=int(paid.group(1))),)
    m = _SHAPE.fullmatch(sentence)
    if m is None:
        return None
    whom = ONCE if m.group("when") == "once this action" else DURING
    return (Effect(EffectKind.INTERCEPT, int(m.group("amount")), whom=whom, least=int(m.group("blood"))),)


def _ability(rec: CardRecord) -> Effect | None:
    """The card's blood-for-intercept effect, or None."""
    return next((e for e in rec.effects if e.kind == EffectKind.INTERCEPT and e.whom in WHOMS), None)


def pay(w: Work, a: Action, by: Pos, intercept: int | None, blood: int) -> None:
    """The blocking vampire burns ``blood`` for the ``intercept`` the card at ``by`` gives it (the
    ``adjust`` act's; its numbers then apply as 4.3 allows). Raises IllegalMove with a sentence when
    the card gives no such thing, its numbers differ, its vampire is not the one attempting to
    block, or it lacks the blood; refuses (liftable: ``once``) a second use "once this action"."""
    info = w.info(by)
    rec = record(info.id) if info is not None else None
    e = _ability(rec) if rec is not None else None
    if rec is None or e is None:
        raise IllegalMove(f"{w.name(by)} gives no intercept for blood during an action")
    name = esc(rec.name)
    if (intercept, blood) != (e.amount, e.least):
        raise IllegalMove(f"{name}: its vampire burns {e.least} blood to get +{e.amount} intercept")
    blocker = a.blocker
    if not blocker or (blocker, rec.id) not in a.played:
        raise IllegalMove(
            f"{name}: only the vampire that played it in this action burns blood for intercept,"
            " while it attempts to block"
        )
    them = w.name(blocker)
    if e.whom == ONCE:
        if Limited(blocker, rec.id, LimitScope.ACTION) in w.limited:
            w.refuse(Lift.ONCE, f'{name} says "once this action": {them} has done so already')
        w.limited = (*w.limited, Limited(blocker, rec.id, LimitScope.ACTION))
    if w.card(blocker).counters < e.least:
        raise IllegalMove(f"{name}: {them} has {w.card(blocker).counters} blood, and burns {e.least}")
    w.counters_delta(blocker, -e.least, "card")
    w.note(f"{name}: {them} burns {e.least} blood", w.author)


def offers(view: VtesView, seat: int, a: Action) -> list[Act]:
    """The ``adjust`` acts by which ``seat``'s vampire attempting to block gets intercept for blood
    now: one per card it played in this action that allows it, while the seat holds the impulse,
    the block attempt's intercept is under the action's stealth (4.3), the vampire has the blood
    and, for "once this action", has not done so yet."""
    if a.window != Window.ATTEMPT or a.impulse != seat or not a.blocker or a.intercept >= a.stealth:
        return []
    blocker = view.card(a.blocker)
    if blocker is None or blocker.controller != seat:
        return []
    out: list[Act] = []
    for minion, cid in a.played:
        rec = record(cid) if minion == a.blocker else None
        e = _ability(rec) if rec is not None else None
        if rec is None or e is None or blocker.counters < e.least:
            continue
        if e.whom == ONCE and Limited(a.blocker, cid, LimitScope.ACTION) in view.limited:
            continue
        copy = next((c for c in view.cards if c.owner == seat and c.zone == Zone.ASH and card_id(c.card) == cid), None)
        if copy is not None:
            out.append({"do": Do.ADJUST, "intercept": e.amount, "blood": e.least, "by": copy.as_list()})
    return out


def with_blood(view: VtesView, act: Act) -> Act:
    """``act``, a change of the open action's intercept ``by`` a card (as a person types it:
    ``intercept +1 by Speak with Spirits``; a ``card`` of the hand, for a copy held), as the view's
    seat is offered it (:func:`offers`) when the copy its blocker played gives that intercept for
    blood now (the minion cannot play the same card again this action, 2.1): with its ``blood``;
    else ``act``."""
    by, a, seat = act.get("by", act.get("card")), view.action, view.seat
    named = view.card((by[0], by[1])) if isinstance(by, list) and len(by) == 2 else None
    if a is None or seat is None or named is None or not named.card:
        return act
    for use in offers(view, seat, a):
        held = view.card(tuple(use["by"]))
        if held is not None and card_id(held.card) == card_id(named.card) and use["intercept"] == act.get("intercept"):
            return use
    return act


def bot_use(view: VtesView, legal: Sequence[Act]) -> Act | None:
    """The offered blood-for-intercept a bot takes: the first, while its blocking vampire keeps at
    least 1 blood after paying (it does not burn itself empty to block)."""
    a = view.action
    blocker = view.card(a.blocker) if a is not None and a.blocker else None
    for act in legal:
        paid = act.get("blood") if act["do"] == Do.ADJUST else None
        if isinstance(paid, int) and blocker is not None and blocker.counters > paid:
            return act
    return None
