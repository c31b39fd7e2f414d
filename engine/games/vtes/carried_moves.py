"""A maneuver a reaction gives its blocker for the combat that follows the block ("[AUS] As above,
with 1 optional maneuver during the resulting combat if this vampire blocks": Spirit's Touch,
Guard Dogs; rulebook, "Combat": a card may give a maneuver for a later combat).

The sentence is read here (:func:`read`, consulted through :mod:`engine.games.vtes.more_readings`);
as the block succeeds and combat opens, the blocker's reactions played in the action that give such
a maneuver are carried into the combat (:func:`at_block`: ``Combat.carried``, the card named by
its position in the ash heap); the blocker makes it in the range step as a ``maneuver`` naming that
card (:func:`engine.games.vtes.combat.maneuver`), once. A card played at a Discipline level is
read at the best level its minion has (the act does not name it; superior adds the maneuver).

An action card that enters combat with a minion ("Ⓓ Enter combat with a minion. This acting minion
gets 1 optional maneuver during that combat.": Bum's Rush) names that minion as it is announced
(``target_card``: :func:`check_target`), and its success opens the combat, the action card's
maneuver carried into it (:func:`after_success`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.games.base import IllegalMove, Pos
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import card_id
from engine.games.vtes.vocab import Status, Zone

if TYPE_CHECKING:
    from engine.games.vtes.state import Action
    from engine.games.vtes.view import VtesView
    from engine.games.vtes.work import Work

IN_ITS_COMBAT = "in the combat its action opens"
"""The ``whom`` of an optional maneuver an action card gives its acting minion in the combat the
action opens ("This acting minion gets 1 optional maneuver during that combat": Bum's Rush)."""
IF_BLOCKS = "in the resulting combat if it blocks"
"""The ``whom`` of an optional maneuver (:attr:`EffectKind.MANEUVER`) a reaction gives its minion
for the combat that follows its block."""
_READ = {
    "(d) enter combat with a minion": (Effect(EffectKind.ENTER_COMBAT),),
    "this acting minion gets 1 optional maneuver during that combat": (
        Effect(EffectKind.MANEUVER, 1, optional=True, whom=IN_ITS_COMBAT),
    ),
    "1 optional maneuver during the resulting combat if this vampire blocks": (
        Effect(EffectKind.MANEUVER, 1, optional=True, whom=IF_BLOCKS),
    ),
}


def read(sentence: str) -> tuple[Effect, ...] | None:
    """The effects of ``sentence`` (lower case, as :func:`engine.games.vtes.card_sentences.sentences`
    gives it) when it is one of this module's shapes, else None."""
    return _READ.get(sentence)


def at_block(w: Work, a: Action) -> tuple[tuple[Pos, Pos], ...]:
    """The maneuvers ``a``'s blocker carries into the combat its block opens: ``(blocker, card)``
    for each card it played in the action (``Action.played``) whose clause at the best level it
    has gives one (:data:`IF_BLOCKS`), the card found in its owner's ash heap, the latest first."""
    if not a.blocker:
        return ()
    info = w.info(a.blocker)
    have = frozenset(info.disciplines) if info is not None else frozenset()
    out: list[tuple[Pos, Pos]] = []
    for minion, cid in a.played:
        rec = record(cid) if minion == a.blocker else None
        clauses = rec.clauses_for(have) if rec is not None else ()
        best = max(clauses, key=lambda c: c.superior, default=None)
        if best is None or not any(e.kind == EffectKind.MANEUVER and e.whom == IF_BLOCKS for e in best.effects):
            continue
        owner = w.cards[a.blocker].controller
        card = next(
            (p for p in reversed(w.ashed) if w.cards[p].owner == owner and card_id(w.cards[p].card) == cid), None
        )
        if card is not None and (a.blocker, card) not in out:
            out.append((a.blocker, card))
    return tuple(out)


def enters_combat(rec: CardRecord | None) -> bool:
    """The action card enters combat with a minion its action names ("Ⓓ Enter combat with a
    minion": Bum's Rush)."""
    return rec is not None and rec.has(EffectKind.ENTER_COMBAT)


def _only_combat(rec: CardRecord | None) -> bool:
    """Every clause of the card with effects or a level enters combat (no other way to play it)."""
    clauses = [c for c in rec.clauses if c.effects or c.levels] if rec is not None else []
    return bool(clauses) and all(any(e.kind == EffectKind.ENTER_COMBAT for e in c.effects) for c in clauses)


def combat_targets(view: VtesView) -> list[Pos]:
    """The minions an action that enters combat may name: ready minions (vampires and allies) of
    the other Methuselahs in the game (rulebook, "Combat": minions of two Methuselahs fight)."""
    seat = view.seat
    return [
        c.pos
        for c in view.cards
        if c.controller != seat
        and c.zone == Zone.READY
        and (c.crypt or "Ally" in c.types)
        and view.players[c.controller].status == Status.IN
    ]


def check_target(w: Work, card: Pos | None, target: Pos | None) -> tuple[tuple[int, ...], Pos] | None:
    """The target Methuselah and minion of an action whose card enters combat with ``target``:
    None for another card. Raises IllegalMove for no minion named, or one that is not another
    Methuselah's ready minion."""
    rec = record(w.cards[card].card or w.revealed.get(card, "")) if card is not None else None
    if not enters_combat(rec) or (target is None and not _only_combat(rec)):
        return None  # another card, or another level of it named (Line Brawl's [cel], [pre])
    if target is None or target not in w.cards:
        raise IllegalMove("this action enters combat with a minion: name it (target_card)")
    c, info = w.cards[target], w.info(target)
    minion = c.crypt or (info is not None and "Ally" in info.types)
    if c.zone != Zone.READY or not minion or c.controller == w.author:
        raise IllegalMove(
            f"{w.name(target)} is not a ready minion of another Methuselah: the action cannot enter combat with it"
        )
    return (c.controller,), target


def after_success(w: Work, a: Action) -> bool:
    """The successful action ``a`` enters combat with the minion it named, carrying its card's
    maneuver into that combat (``Combat.carried``): True when the combat opened (both minions still
    ready), False for another action or a minion gone (narrated)."""
    rec = record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card else None
    if not enters_combat(rec) or not a.target_card:
        return False
    from engine.games.vtes import combat  # it reads the actions' rules

    if not all(p in w.cards and w.cards[p].zone == Zone.READY for p in (a.minion, a.target_card)):
        w.note(f"{w.name(a.target_card)} or {w.name(a.minion)} is no longer ready: no combat", a.actor)
        return False
    gives = rec is not None and any(e.kind == EffectKind.MANEUVER and e.whom == IN_ITS_COMBAT for e in rec.effects)
    combat.open_combat(w, a.minion, a.target_card, ((a.minion, a.card),) if gives and a.card else ())
    return True
