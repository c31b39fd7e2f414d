"""Blood a vampire gains for the votes by which its political action's referendum passed
(Voter Captivation: "Only usable after resolution of a political action whose referendum passed.
[pre] This vampire gains 1 blood for each vote by which the referendum passed. [PRE] As above, but
move up to 2 of those blood to your pool instead of this vampire."): offered to the acting
Methuselah once that action has resolved (:func:`margin_choices`), applied as it is played
(:func:`gain`), and chosen by the bots (:func:`bot_gain`).

The margin is the action's ``Done.passed_by`` (set as the referendum passes:
:mod:`engine.games.vtes.politics`). Blood beyond the vampire's capacity drains off (rulebook, "Capacity": "if
an effect puts more blood on them than their capacity allows, the excess is always moved to the
blood bank"); the blood moved to the pool "instead of this vampire" never lands on it. A minion
plays one copy of such a card for one action (rulebook, "Action Modifiers": not the same action
modifier twice during an action), kept in the state's ``limited`` until the next action.
"""

from __future__ import annotations

from engine.games.base import Act, IllegalMove, Pos
from engine.games.vtes.act_records import PlayAct
from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_play import Choice, candidates
from engine.games.vtes.card_record import CardRecord, Clause, record
from engine.games.vtes.margin_readings import MARGIN
from engine.games.vtes.state import Done, Limited
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import MODIFIER, ActionKind, Do, Lift, LimitScope, Zone
from engine.games.vtes.work import Work


def _effect(clause: Clause, kind: EffectKind) -> Effect | None:
    return next((e for e in clause.effects if e.kind == kind and e.whom == MARGIN), None)


def pays_margin(rec: CardRecord) -> bool:
    """The card gives blood for the votes by which a referendum passed."""
    return any(_effect(c, EffectKind.GAIN_BLOOD) for c in rec.clauses)


def _passed(last: Done) -> bool:
    return last.kind == ActionKind.POLITICAL and last.passed_by > 0


def margin_choices(view: VtesView, card: CardView, rec: CardRecord, last: Done) -> list[Choice]:
    """The ways the view's seat may play ``card`` (``rec``, a card that :func:`pays_margin`) after
    its action ``last`` resolved: a political action whose referendum passed, by its vampire, still
    ready, that has not played that card for it; per level it may play, ``minion`` and, where the
    level moves blood to the pool instead, ``move_blood`` (as much as it may, up to the blood
    gained). Empty when none fits."""
    minion = view.card(last.minion)
    if not _passed(last) or minion is None or minion.zone != Zone.READY or not minion.crypt:
        return []
    if any(x.card == rec.id and x.minion == minion.pos and x.scope == LimitScope.ACTION for x in view.limited):
        return []
    out: list[Choice] = []
    for clause in candidates(rec, minion, MODIFIER):
        gain = _effect(clause, EffectKind.GAIN_BLOOD)
        if gain is None:
            continue
        blood = gain.amount * last.passed_by
        move = _effect(clause, EffectKind.MOVE_BLOOD)
        moved = min(move.amount, blood) if move is not None else 0
        fields: tuple[tuple[str, object], ...] = (("minion", tuple(minion.pos)),)
        if moved:
            fields = (*fields, ("move_blood", moved))
        levels = " ".join(f"[{lv}]" for lv in clause.levels)
        pool = f", {moved} of them to your pool" if moved else ""
        out.append(Choice(clause, fields, f"{levels} {minion.name} gains {blood} blood{pool}".strip()))
    return out


def gain(w: Work, pos: Pos, act: PlayAct, rec: CardRecord, last: Done, minion: Pos, name: str) -> None:
    """Play the card ``rec`` at ``pos`` (a card that :func:`pays_margin`) after the action
    ``last`` resolved, by its vampire ``minion``: refused (liftable, timing) unless that action was
    political and its referendum passed; IllegalMove for a second copy by that minion for that
    action, for ``move_blood`` at a level it may not play or beyond the blood gained. The vampire
    gains the blood, what its capacity cannot hold draining off, less what is moved to the pool
    (moved by :func:`engine.games.vtes.plays.move_blood`), in the open."""
    if not _passed(last):
        w.refuse(
            Lift.TIMING,
            f'{name} says "Only usable after resolution of a political action whose referendum passed", '
            f"and {w.name(last.minion)}'s last action was no political action whose referendum passed",
        )
        return
    if any(x.card == rec.id and x.minion == minion and x.scope == LimitScope.ACTION for x in w.limited):
        raise IllegalMove(f"{w.name(minion)} has already played {name} for this action")
    info = w.info(minion)
    have = frozenset(info.disciplines) if info is not None else frozenset()
    clauses = [c for c in rec.clauses_for(have, MODIFIER) if _effect(c, EffectKind.GAIN_BLOOD) is not None]
    moved = act.move_blood or 0
    fits = [c for c in clauses if not moved or _effect(c, EffectKind.MOVE_BLOOD) is not None]
    if not fits:
        raise IllegalMove(f"{w.name(minion)} cannot play {name} at a level that moves blood to your pool")
    clause = max(fits, key=lambda c: c.superior)
    effect = _effect(clause, EffectKind.GAIN_BLOOD)
    assert effect is not None
    blood = effect.amount * last.passed_by
    if moved > blood:
        raise IllegalMove(f"{name} gives {w.name(minion)} {blood} blood: it cannot move {moved} of them to your pool")
    room = max(0, info.capacity - w.card(minion).counters) if info is not None and info.capacity else blood
    held = min(blood - moved, room)
    if held + moved:
        w.counters_delta(minion, held + moved, "card")  # the moved blood leaves it at once (move_blood)
    drained = f"; {blood - moved - held} over its capacity drain off" if blood - moved > held else ""
    w.note(
        f"{name}: {w.name(minion)} gains {blood} blood, 1 for each vote by which the referendum passed "
        f"({last.passed_by}){drained}",
        w.author,
    )
    w.limited = (*w.limited, Limited(minion, rec.id, LimitScope.ACTION))


def bot_gain(view: VtesView, legal: list[Act]) -> Act | None:
    """The play a bot makes of a card that :func:`pays_margin` when one is offered (the most blood
    to the pool first: pool ends games), else None."""
    hand = {tuple(c.pos): c for c in view.hand}
    plays = [
        a
        for a in legal
        if a["do"] == Do.PLAY
        and (c := hand.get(tuple(a["card"]))) is not None
        and c.card
        and (r := record(c.card)) is not None
        and pays_margin(r)
    ]
    return max(plays, key=lambda a: int(a.get("move_blood") or 0), default=None)
