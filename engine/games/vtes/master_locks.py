"""A master card that locks a minion as it is played ("Lock a minion.": Misdirection; rulebook,
"Master Cards"): the ``play`` act names the minion (``lock_minion``), any Methuselah's ready unlocked
minion, and the table locks it in the open, narrated with the card's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import IllegalMove
from engine.games.vtes.actions import is_minion
from engine.games.vtes.card_effects import ANY_MINION, EffectKind
from engine.games.vtes.card_record import record
from engine.games.vtes.vocab import Zone

if TYPE_CHECKING:
    from engine.games.vtes.act_records import PlayAct
    from engine.games.vtes.view import CardView, VtesView
    from engine.games.vtes.work import Work


def locks_a_minion(ident: str) -> bool:
    """The card ``ident``'s text locks a minion of the player's choice ("Lock a minion.")."""
    rec = record(ident) if ident else None
    return rec is not None and any(e.kind == EffectKind.LOCK and e.whom == ANY_MINION for e in rec.effects)


def lock_minion(w: Work, act: PlayAct, name: str) -> None:
    """The card played by ``act`` locks the minion ``act.lock_minion``. Raises IllegalMove for a
    card whose text locks no minion, or a minion not ready and unlocked."""
    target = act.lock_minion
    if target is None:
        return
    if not locks_a_minion(w.cards[act.card].card or w.revealed.get(act.card, "")):
        raise IllegalMove(f"{name} locks no minion (lock_minion)")
    c = w.card(target)
    if c.zone != Zone.READY or not is_minion(w, target) or c.locked:
        raise IllegalMove(f"{name} locks a ready unlocked minion, and {w.name(target)} is not one")
    w.setc(target, locked=True)
    w.note(f"{name}: {w.name(target)} locks", w.author, c.controller)


def lock_choices(view: VtesView, card: CardView) -> list[dict[str, object]]:
    """The ``lock_minion`` fields with which the view's seat may play ``card``, a card that locks a
    minion: one per ready unlocked minion, its prey's first, then the other Methuselahs', its own
    last, the highest capacity first; [] for another card."""
    seat = view.seat
    if seat is None or not card.card or not locks_a_minion(card.card):
        return []
    prey = view.players[seat].prey
    minions = [c for c in view.cards if c.zone == Zone.READY and not c.locked and (c.crypt or "Ally" in c.types)]
    minions.sort(key=lambda c: (c.controller != prey, c.controller == seat, -c.capacity, c.pos))
    return [{"lock_minion": c.as_list()} for c in minions]
