"""The hand's combat cards at a combat step (shared/rules/vtes-actions.md 5.3–5.6, P5): those
with which a minion may maneuver or press (:func:`combat_moves`), prevent damage
(:func:`prevent_cards`), gain additional strikes (:func:`additional_strike_cards`) or change the
combat as they are played in a step (:func:`combat_plays`: a strength for the combat, damage each
round, a grapple, blood gained at the end of a round), each within its printed cost and limits,
and the act that plays one at a level the player names (:func:`combat_level_act`). Their clauses are read as :mod:`engine.games.vtes.card_play` reads
the others (one record per card, :mod:`engine.games.vtes.card_record`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.vtes.card_effects import NORMAL_ONLY, Effect, EffectKind, move_usable
from engine.games.vtes.card_play import LevelError, candidates, spent
from engine.games.vtes.card_record import CardRecord, Clause, record
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import Do


def combat_level_act(view: VtesView, minion: CardView, card: CardView, level: str) -> dict[str, object] | None:
    """The combat act (``do`` ``strike``, ``prevent``, ``maneuver`` or ``press``, with ``minion``
    and ``card``) that plays the hand combat card ``card`` at ``level`` ("basic",
    "superior") for ``minion``, from that level's clause as the record reads it: its strike (a
    hand strike's damage is the minion's strength plus the card's), its prevention (of the damage
    of the opposing strike's kind), its maneuver or its press (shared/rules/vtes-actions.md 5.3–5.6,
    P5). None when the clause is none of these alone: the card is played and its text applied by
    hand. Raises LevelError when ``minion`` cannot play the card at ``level``."""
    from engine.games.vtes.readings import disciplines as levels_of
    from engine.games.vtes.readings import strike_readings

    rec = record(card.card) if card.card else None
    c = view.combat
    if rec is None or c is None:
        return None
    at = [x for x in rec.clauses if x.levels and x.superior == (level == "superior") and x.type in ("", "Combat")]
    clause = next((x for x in reversed(at) if x.usable_by(levels_of(minion.card))), None)
    if clause is None:
        needs = " ".join(f"[{lv}]" for x in at for lv in x.levels) or "none"
        raise LevelError(f"{minion.name} cannot play {rec.name} at {level} (that level needs {needs})")
    base: dict[str, object] = {"minion": minion.as_list(), "card": card.as_list()}
    kinds = {e.kind for e in clause.effects}
    reading = next((r for r in strike_readings(rec.id) if r.levels == clause.levels), None)
    if reading is not None:
        if reading.bonus:  # "hand strike at +N": the striker's printed strength plus N (readings.best_strike)
            from engine.games.vtes.readings import strength_of

            set_to = c.strength_of(minion.pos)
            reading = replace(reading, damage=(strength_of(minion.card) if set_to is None else set_to) + reading.bonus)
        return {"do": Do.STRIKE, **base, **reading.fields()}
    if clause.by_hand or len(kinds) != 1:
        return None
    kind = kinds.pop()
    amount = sum(e.amount for e in clause.effects)
    if kind == EffectKind.PREVENT:
        facing = next((s for s in c.strikes if s.minion != minion.pos and s.damage), None)
        agg = facing is not None and facing.aggravated and clause.effects[0].whom != NORMAL_ONLY
        return {"do": Do.PREVENT, **base, "agg" if agg else "normal": amount}
    if kind == EffectKind.ADDITIONAL_STRIKE:
        return {"do": Do.STRIKE, **base, "additional": amount}
    if kind in (EffectKind.MANEUVER, EffectKind.PRESS):
        return {"do": Do.MANEUVER if kind == EffectKind.MANEUVER else Do.PRESS, **base}
    return None


def combat_moves(view: VtesView, minion: CardView, kind: EffectKind) -> list[CardView]:
    """The hand combat cards with which ``minion`` may make a maneuver or a press (``kind``) now:
    a clause it may play whose effects are that move alone (not a strike's optional one), usable
    at this range or press (:func:`~engine.games.vtes.card_effects.move_usable`), whose printed
    cost it can pay (blood from a vampire, pool from its Methuselah)."""
    c = view.combat
    long, stands = (c.long, bool(c.press)) if c is not None else (False, False)
    out = []
    for held, rec in _affordable_combat_cards(view, minion):
        clauses = candidates(rec, minion, "Combat")
        if any(
            x.effects and all(e.kind == kind and not e.optional and move_usable(e, long, stands) for e in x.effects)
            for x in clauses
        ):
            out.append(held)
    return out


def _affordable_combat_cards(view: VtesView, minion: CardView) -> list[tuple[CardView, CardRecord]]:
    """The hand's combat cards (with their records) whose printed cost ``minion`` can pay: blood
    from a vampire, pool from its Methuselah."""
    pool = view.players[minion.controller].pool
    out = []
    for held in view.hand:
        rec = record(held.card) if held.card and "Combat" in held.types else None
        if rec is None or (rec.costs.blood and (not minion.crypt or minion.counters < rec.costs.blood)):
            continue
        if spent(view, rec, minion):
            continue
        if rec.costs.pool <= pool:
            out.append((held, rec))
    return out


def prevent_cards(view: VtesView, minion: CardView, aggravated: bool = False) -> list[tuple[CardView, int]]:
    """The hand combat cards with which ``minion`` may prevent damage now, each with the damage
    it prevents (:func:`_cards_giving`); against ``aggravated`` damage, not a prevention of
    non-aggravated damage only ("Prevent 2 non-aggravated damage")."""
    return _cards_giving(view, minion, EffectKind.PREVENT, aggravated)


def additional_strike_cards(view: VtesView, minion: CardView) -> list[tuple[CardView, int]]:
    """The hand combat cards that give ``minion`` additional strikes now (5.6), each with the
    strikes it gives (:func:`_cards_giving`)."""
    return _cards_giving(view, minion, EffectKind.ADDITIONAL_STRIKE)


def _cards_giving(
    view: VtesView, minion: CardView, kind: EffectKind, aggravated: bool = False
) -> list[tuple[CardView, int]]:
    """The hand combat cards with a clause ``minion`` may play whose effects are of ``kind``
    alone (and nothing by hand), whose printed cost it can pay; each with the greatest amount of
    such a clause; with ``aggravated``, no clause of non-aggravated effects only."""
    out = []
    for held, rec in _affordable_combat_cards(view, minion):
        amounts = [
            sum(e.amount for e in c.effects)
            for c in candidates(rec, minion, "Combat")
            if c.effects
            and all(e.kind == kind and not (aggravated and e.whom == NORMAL_ONLY) for e in c.effects)
            and not c.by_hand
        ]
        if amounts:
            out.append((held, max(amounts)))
    return out


PLAYS = frozenset(
    {EffectKind.STRENGTH, EffectKind.ENVIRONMENTAL, EffectKind.HAND_ONLY, EffectKind.CLOSE_NEXT, EffectKind.DRINK}
)
"""The effects a combat card applies as it is played in a step of combat
(:mod:`engine.games.vtes.combat_plays`); an optional press may ride with them."""


def plays_alone(clause: Clause) -> bool:
    """The clause's effects are those of :data:`PLAYS` (with an optional press), and nothing of it is
    left by hand: the table applies it whole as it is played."""
    effects = clause.effects
    return (
        any(e.kind in PLAYS for e in effects)
        and all(e.kind in PLAYS or (e.kind == EffectKind.PRESS and e.optional) for e in effects)
        and not clause.by_hand
    )


def play_fields(effects: tuple[Effect, ...], lost: int) -> dict[str, object]:
    """The ``play`` act's fields for a clause's :data:`PLAYS` effects (docs/protocol.md 4.4.1), the
    opposing vampire having ``lost`` blood to damage this round."""
    out: dict[str, object] = {}
    for e in effects:
        match e.kind:
            case EffectKind.STRENGTH:
                out["strength"] = e.amount
            case EffectKind.ENVIRONMENTAL:
                out["environmental"] = e.amount
            case EffectKind.HAND_ONLY:
                out["grapple"] = True
            case EffectKind.CLOSE_NEXT:
                out["close"] = True
            case EffectKind.DRINK:
                out["gain_blood"] = lost
            case EffectKind.PRESS:
                out["press"] = True
    return out


def combat_plays(view: VtesView, minion: CardView) -> list[tuple[CardView, dict[str, object], str]]:
    """The hand combat cards ``minion`` may play in this step of the combat that change it as they
    are played (:data:`PLAYS`): per clause it may play whose effects the table applies whole, in the
    step, range and round its text binds it to (:func:`engine.games.vtes.readings.bound`), within
    its printed cost and limits; each with the ``play`` act's fields (``card``, ``minion``, the
    effects, the cost) and the clause in words. Blood gained at the end of a round only when the
    opposing vampire lost some to damage and ``minion`` is a vampire; a grapple only at close range."""
    from engine.games.vtes.card_play import printed_cost
    from engine.games.vtes.readings import bound

    c = view.combat
    if c is None or minion.pos not in (c.acting, c.opposing):
        return []
    lost = c.lost_by(c.opposing if minion.pos == c.acting else c.acting)
    out: list[tuple[CardView, dict[str, object], str]] = []
    for held, rec in _affordable_combat_cards(view, minion):
        if not bound(rec).fits(c.step, c.long, c.round):
            continue
        seen: set[tuple[tuple[str, object], ...]] = set()
        for clause in candidates(rec, minion, "Combat"):
            if not plays_alone(clause):
                continue
            kinds = {e.kind for e in clause.effects}
            if EffectKind.DRINK in kinds and (not lost or not minion.crypt):
                continue
            if kinds & {EffectKind.HAND_ONLY, EffectKind.CLOSE_NEXT} and c.long:
                continue
            fields = play_fields(clause.effects, lost)
            key = tuple(sorted(fields.items()))
            if key in seen:
                continue
            seen.add(key)
            act = {"card": held.as_list(), "minion": minion.as_list(), **fields}
            act |= printed_cost(held, [minion], minion)
            levels = " ".join(f"[{lv}]" for lv in clause.levels)
            words = " ".join(p for p in (levels, ", ".join(e.words() for e in clause.effects)) if p)
            out.append((held, act, words))
    return out
