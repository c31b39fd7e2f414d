"""An out-of-turn master card that burns the minion bleeding its player (Archon Investigation:
"Out-of-turn. Only usable if a minion is bleeding you and the bleed amount is 4 or more, after
blocks are declined. Burn the acting minion. (The action is not successful.)"; rulebook, "Master
Cards", "Bleed").

Its sentences are read here (:func:`read`, consulted through
:mod:`engine.games.vtes.more_readings`); the card is offered to the bleed's target on its impulse
once every blocker declined (:func:`choices`), checked as it is played (:func:`check`, from
:func:`engine.games.vtes.plays.check_play`) and applied once it is not canceled as played
(:func:`burn`, from :func:`engine.games.vtes.plays.master_effects`): the acting minion burns and
the action ends, not successful (no cost, no bleed; its set-aside card to the ash heap). Bots play
it when a bleed would take more pool than the card costs (:func:`bot_play`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.games.base import Act
from engine.games.vtes import windows
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.vocab import ActionKind, Do, Lift, Target, Window, Zone

if TYPE_CHECKING:
    from engine.games.vtes.view import VtesView
    from engine.games.vtes.work import Work

ACTING_MINION = "the acting minion"
"""The ``whom`` of a burn of the acting minion (:attr:`EffectKind.BURN`), ``least``: the bleed
amount from which the card may be played."""
_CONDITION = re.compile(
    r"only usable if a minion is bleeding you and the bleed amount is (\d+) or more, after blocks are declined"
)
_READ: dict[str, tuple[Effect, ...]] = {
    "burn the acting minion": (Effect(EffectKind.BURN, whom=ACTING_MINION),),
    "(the action is not successful.)": (),  # the reminder of what the burn does to the action
}


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    return _READ.get(sentence)


def burns_bleeder(rec: CardRecord) -> int:
    """The least bleed amount from which the card burns the minion bleeding its player (its
    printed condition), 0 for a card that does not."""
    if not any(e.kind == EffectKind.BURN and e.whom == ACTING_MINION for e in rec.effects) or "Master" not in rec.types:
        return 0
    said = (_CONDITION.fullmatch(s) for s in rec.requires.only)
    return next((int(m.group(1)) for m in said if m), 0)


def _unmet(w: Work, least: int) -> str | None:
    a = w.open_action
    if a is None or a.kind != ActionKind.BLEED or w.author not in a.targets:
        return "no minion is bleeding you"
    if a.amount < least:
        return f"the bleed amount is {a.amount}"
    if a.window != Window.DECLINED:
        return "blocks are not declined yet"
    return None


def check(w: Work, rec: CardRecord, name: str) -> None:
    """Refuse (liftable, timing) the card ``rec`` named ``name`` when its condition is not met,
    with its printed sentence and what is missing; nothing for another card."""
    least = burns_bleeder(rec)
    why = _unmet(w, least) if least else None
    if why is not None:
        w.refuse(
            Lift.TIMING,
            f'{name} says "Only usable if a minion is bleeding you and the bleed amount is {least} or more, '
            f'after blocks are declined", and {why}',
        )


def burn(w: Work, rec: CardRecord, name: str) -> None:
    """Apply the card ``rec`` as it is played (not canceled): the acting minion of the bleed
    against its player burns and the action ends, not successful; narrated with ``name``."""
    least = burns_bleeder(rec)
    a = w.open_action
    if not least or a is None or _unmet(w, least) is not None:
        return
    windows.pop(w, a)
    if a.card and w.cards[a.card].zone == Zone.ASIDE:
        w.move(a.card, Target.ASH)
    bleeder = w.name(a.minion)
    if w.cards[a.minion].zone.in_play:
        w.move(a.minion, Target.ASH)
    w.note(f"{name}: {bleeder} burns; its bleed is not successful", a.actor, w.author)
    from engine.games.vtes.action_success import after_action  # it imports the rules of actions

    after_action(w)


def bot_play(view: VtesView, seat: int, legal: list[Act]) -> Act | None:
    """The play of such a card a bot makes among ``legal``: when the bleed against it would burn
    more pool than the card costs, and paying leaves it pool; else None."""
    a = view.action
    if a is None or seat not in a.targets or a.kind != ActionKind.BLEED:
        return None
    hand = {tuple(c.pos): c for c in view.hand}
    for act in legal:
        card = hand.get(tuple(act["card"])) if act["do"] == Do.PLAY else None
        rec = record(card.card) if card is not None and card.card else None
        if rec is None or not burns_bleeder(rec):
            continue
        cost = int(act.get("pool", 0) or 0)
        if a.amount > cost and view.players[seat].pool > cost:
            return act
    return None


def choices(view: VtesView, seat: int) -> list[Act]:
    """The plays of such cards in ``seat``'s hand it may make now: the bleed's target holding the
    impulse once every blocker declined, the bleed amount at least the card's, its cost payable."""
    a = view.action
    if a is None or a.impulse != seat or a.window != Window.DECLINED or seat not in a.targets:
        return []
    if a.kind != ActionKind.BLEED:
        return []
    out: list[Act] = []
    for c in view.hand:
        rec = record(c.card) if c.card else None
        if rec is None or not 0 < burns_bleeder(rec) <= a.amount or view.players[seat].pool < rec.costs.pool:
            continue
        out.append({"do": Do.PLAY, "card": c.as_list(), **({"pool": rec.costs.pool} if rec.costs.pool else {})})
    return out
