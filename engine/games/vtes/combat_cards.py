"""The hand's combat cards at a combat step (shared/rules/vtes-actions.md 5.3–5.6, P5): those
with which a minion may maneuver or press (:func:`combat_moves`), prevent damage
(:func:`prevent_acts`), gain additional strikes (:func:`additional_strike_cards`) or change the
combat as they are played in a step (:func:`combat_plays`: a strength for the combat, damage each
round, a grapple, blood gained at the end of a round), each within its printed cost and limits,
and the act that plays one at a level the player names (:func:`combat_level_act`). Their clauses are read as :mod:`engine.games.vtes.card_play` reads
the others (one record per card, :mod:`engine.games.vtes.card_record`).
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.vtes import standing
from engine.games.vtes.card_effects import ALL_ROUND, ALL_STRIKE, NORMAL_ONLY, X_PLUS, Effect, EffectKind, move_usable
from engine.games.vtes.card_play import LevelError, candidates, disciplines, spent
from engine.games.vtes.card_record import CardRecord, Clause, record
from engine.games.vtes.state import Strike
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import CombatStep, Do, Target


def combat_level_act(view: VtesView, minion: CardView, card: CardView, level: str) -> dict[str, object] | None:
    """The combat act (``do`` ``strike``, ``prevent``, ``maneuver`` or ``press``, with ``minion``
    and ``card``) that plays the hand combat card ``card`` at ``level`` ("basic",
    "superior") for ``minion``, from that level's clause as the record reads it: its strike (a
    hand strike's damage is the minion's strength plus the card's), its prevention (of the damage
    of the opposing strike's kind), its maneuver or its press (shared/rules/vtes-actions.md 5.3–5.6,
    P5). None when the clause is none of these alone: the card is played and its text applied by
    hand. Raises LevelError when ``minion`` cannot play the card at ``level``."""

    from engine.games.vtes.readings import strike_readings

    rec = record(card.card) if card.card else None
    c = view.combat
    if rec is None or c is None:
        return None
    clause = _level_clause(rec, minion, level)
    base: dict[str, object] = {"minion": minion.as_list(), "card": card.as_list()}
    if plays_alone(clause):  # a strength, damage each round, a grapple, blood gained: a play in its step
        from engine.games.vtes.card_play import printed_cost

        lost = c.lost_by(c.opposing if minion.pos == c.acting else c.acting)
        each = _equip_each(view, minion, rec, clause, play_fields(clause.effects, lost))
        if not each:
            return None  # no weapon in hand to equip with
        return {"do": Do.PLAY, **base, **each[0], **printed_cost(card, [minion], minion)}
    kinds = {e.kind for e in clause.effects}
    reading = next((r for r in strike_readings(rec.id) if r.levels == clause.levels), None)
    if reading is not None:
        if reading.hand:  # "hand strike at +N": the striker's printed strength plus N (readings.best_strike)
            from engine.games.vtes.readings import strength_of

            set_to = c.strength_of(minion.pos)
            reading = replace(reading, damage=(strength_of(minion.card) if set_to is None else set_to) + reading.bonus)
        return {"do": Do.STRIKE, **base, **reading.fields()}
    if clause.by_hand:
        return None
    prevents = [e for e in clause.effects if e.kind == EffectKind.PREVENT]
    if prevents and all(
        e.kind == EffectKind.PREVENT or (e.kind == EffectKind.PRESS and e.optional) for e in clause.effects
    ):
        facing = next((s for s in c.strikes if s.minion != minion.pos and s.damage), None)
        agg = facing is not None and facing.aggravated and prevents[0].whom != NORMAL_ONLY
        blood = minion.counters - rec.costs.blood if minion.crypt else 0
        found = _preventions(prevents, facing.damage if facing is not None else 1, blood)
        if not found:
            return None
        fields = dict(found[0])
        fields["agg" if agg else "normal"] = fields.pop("normal")
        rides = len(prevents) != len(clause.effects)
        return {"do": Do.PREVENT, **base, **fields, **({"press": True} if rides else {})}
    if kinds == {EffectKind.ADDITIONAL_STRIKE}:
        return {"do": Do.STRIKE, **base, "additional": sum(e.amount for e in clause.effects)}
    if moves_alone(clause):
        kind = EffectKind.PRESS if c.step == CombatStep.PRESS else EffectKind.MANEUVER
        main = main_moves(clause, kind)
        if not main:
            return None
        rides = kind == EffectKind.MANEUVER and not main[0].optional and EffectKind.PRESS in kinds
        return {
            "do": Do.MANEUVER if kind == EffectKind.MANEUVER else Do.PRESS,
            **base,
            **({"press": True} if rides else {}),
        }
    return None


def _level_clause(rec: CardRecord, minion: CardView, level: str) -> Clause:
    """The clause of the combat card ``rec`` that ``minion`` plays at ``level`` ("basic",
    "superior"): the last of that level it may play. Raises LevelError when it has none."""
    at = [x for x in rec.clauses if x.levels and x.superior == (level == "superior") and x.type in ("", "Combat")]
    clause = next((x for x in reversed(at) if x.usable_by(disciplines(minion))), None)
    if clause is None:
        needs = " ".join(f"[{lv}]" for x in at for lv in x.levels) or "none"
        raise LevelError(f"{minion.name} cannot play {rec.name} at {level} (that level needs {needs})")
    return clause


def combat_levels(view: VtesView, minion: CardView, card: CardView) -> list[tuple[str, dict[str, object]]]:
    """The ways ``minion`` may play the hand combat card ``card`` now, one per level it may play
    whose text the table applies (:func:`combat_level_act`), basic first: the level and its clause
    in words ("superior: [POT] strength 3 this combat") and the act. Levels that give the same act
    are one."""
    rec = record(card.card) if card.card else None
    out: list[tuple[str, dict[str, object]]] = []
    for level in ("basic", "superior"):
        try:
            act = combat_level_act(view, minion, card, level)
            clause = _level_clause(rec, minion, level) if rec is not None else None
        except LevelError:
            continue
        if act is None or clause is None or any(act == seen for _, seen in out):
            continue
        levels = " ".join(f"[{lv}]" for lv in clause.levels)
        out.append((f"{level}: {levels} {', '.join(e.words() for e in clause.effects)}", act))
    return out


def combat_moves(view: VtesView, minion: CardView, kind: EffectKind) -> list[tuple[CardView, dict[str, object]]]:
    """The hand combat cards with which ``minion`` may make a maneuver or a press (``kind``) now,
    each with the act's fields beyond ``minion`` and ``card`` (``press``: a maneuver's optional
    press, "Maneuver with 1 optional press"): a clause it may play whose effects are moves alone,
    nothing by hand, one of ``kind`` that is not an optional rider of another move ("Maneuver or
    press" is either), usable at this range or press
    (:func:`~engine.games.vtes.card_effects.move_usable`), whose printed cost it can pay (blood from
    a vampire, pool from its Methuselah)."""
    c = view.combat
    long, stands = (c.long, bool(c.press)) if c is not None else (False, False)
    out: list[tuple[CardView, dict[str, object]]] = []
    for held, rec in affordable_combat_cards(view, minion):
        found: dict[str, object] | None = None
        for x in candidates(rec, minion, "Combat"):
            if moves_alone(x) and any(move_usable(e, long, stands) for e in main_moves(x, kind)):
                rides = kind == EffectKind.MANEUVER and any(
                    e.kind == EffectKind.PRESS and e.optional for e in x.effects
                )
                if found is None or rides:
                    found = {"press": True} if rides and main_moves(x, kind)[0].optional is False else {}
        if found is not None:
            out.append((held, found))
    return out


def moves_alone(clause: Clause) -> bool:
    """The clause's effects are maneuvers and presses alone, nothing of it left by hand."""
    moves = (EffectKind.MANEUVER, EffectKind.PRESS)
    return bool(clause.effects) and all(e.kind in moves for e in clause.effects) and not clause.by_hand


def main_moves(clause: Clause, kind: EffectKind) -> list[Effect]:
    """The clause's moves of ``kind`` that may be made on their own: not an optional one riding
    with a move that is not optional ("Maneuver with 1 optional press": its press rides)."""
    firm = any(not e.optional for e in clause.effects)
    return [e for e in clause.effects if e.kind == kind and not (e.optional and firm)]


def affordable_combat_cards(view: VtesView, minion: CardView) -> list[tuple[CardView, CardRecord]]:
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


def prevent_acts(view: VtesView, minion: CardView, facing: Strike) -> list[dict[str, object]]:
    """The ``prevent`` acts (without ``do``) with which ``minion`` may prevent the damage of the
    opposing strike ``facing`` now, one per hand combat card and clause it may play whose effects
    are preventions (with an optional press) and nothing by hand, within its printed cost: a
    number of points ("Prevent 1 damage"), X+N for X blood (one act per X it can pay, up to what
    prevents all), all of the strike's damage, or all damage from the opposing strikes this round
    (with the blood its text burns). Against aggravated damage, no prevention of non-aggravated
    damage only."""
    field = "agg" if facing.aggravated else "normal"
    damage = facing.damage
    out: list[dict[str, object]] = []
    for held, rec in [*affordable_combat_cards(view, minion), *_worn_preventions(view, minion)]:
        seen: set[tuple[tuple[str, object], ...]] = set()
        for clause in candidates(rec, minion, "Combat"):
            if clause.superior and spent(view, rec, minion, True):
                continue  # its limit "at superior" (Sideslip)
            prevents = [e for e in clause.effects if e.kind == EffectKind.PREVENT]
            riders = [e for e in clause.effects if e.kind == EffectKind.PRESS and e.optional]
            left = clause.by_hand and "Equipment" not in rec.types  # a worn card's other sentences aside
            if not prevents or left or len(prevents) + len(riders) != len(clause.effects):
                continue
            if facing.aggravated and all(e.whom == NORMAL_ONLY for e in prevents):
                continue
            base: dict[str, object] = {"minion": minion.as_list(), "card": held.as_list()}
            if riders:
                base["press"] = True
            for fields in _preventions(prevents, damage, minion.counters - rec.costs.blood if minion.crypt else 0):
                act = {**base, **fields}
                if field != "normal" and "normal" in act:
                    act[field] = act.pop("normal")
                key = tuple(sorted((k, str(v)) for k, v in act.items()))
                if key not in seen:
                    seen.add(key)
                    out.append(act)
    return out


def _worn_preventions(view: VtesView, minion: CardView) -> list[tuple[CardView, CardRecord]]:
    """The equipment on ``minion`` whose record prevents damage (Leather Jacket: "Bearer may burn
    Leather Jacket to prevent all the damage from the opposing minion's strike"), with its record:
    burned as it prevents (:func:`engine.games.vtes.combat.prevent`)."""
    out = []
    for held in view.cards:
        rec = record(held.card) if held.on == minion.pos and held.card and "Equipment" in held.types else None
        if rec is not None and rec.has(EffectKind.PREVENT):
            out.append((held, rec))
    return out


def _preventions(prevents: list[Effect], damage: int, blood: int) -> list[dict[str, object]]:
    """The ``prevent`` fields of a clause's preventions against ``damage`` points, the playing
    minion having ``blood`` to burn beyond the card's cost (see :func:`prevent_acts`)."""
    whole = next((e for e in prevents if e.whom == ALL_ROUND), None)
    if whole is not None:
        if whole.least > blood:
            return []
        return [{"normal": damage, "round": True, **({"blood": whole.least} if whole.least else {})}]
    if any(e.whom == ALL_STRIKE for e in prevents):
        return [{"normal": damage}] if damage else []
    x = next((e for e in prevents if e.whom == X_PLUS), None)
    if x is not None:
        most = min(blood, max(0, damage - x.amount))
        return [{"normal": n + x.amount, **({"blood": n} if n else {})} for n in range(most, -1, -1)]
    return [{"normal": sum(e.amount for e in prevents)}]


def additional_strike_cards(view: VtesView, minion: CardView) -> list[tuple[CardView, int]]:
    """The hand combat cards that give ``minion`` additional strikes now (5.6), each with the
    strikes it gives (:func:`_cards_giving`)."""
    return _cards_giving(view, minion, EffectKind.ADDITIONAL_STRIKE)


def _cards_giving(view: VtesView, minion: CardView, kind: EffectKind) -> list[tuple[CardView, int]]:
    """The hand combat cards with a clause ``minion`` may play whose effects are of ``kind``
    alone (and nothing by hand), whose printed cost it can pay; each with the greatest amount of
    such a clause."""
    out = []
    for held, rec in affordable_combat_cards(view, minion):
        amounts = [
            sum(e.amount for e in c.effects)
            for c in candidates(rec, minion, "Combat")
            if c.effects and all(e.kind == kind for e in c.effects) and not c.by_hand
        ]
        if amounts:
            out.append((held, max(amounts)))
    return out


PLAYS = frozenset(
    {
        EffectKind.STRENGTH,
        EffectKind.ENVIRONMENTAL,
        EffectKind.HAND_ONLY,
        EffectKind.CLOSE_NEXT,
        EffectKind.DRINK,
        EffectKind.AGGRAVATE,
        EffectKind.EQUIP_WEAPON,
        EffectKind.BECOMES_WEAPON,
    }
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
            case EffectKind.AGGRAVATE:
                out["aggravated"] = True
                if e.whom == "combat":
                    out["whole_combat"] = True
            case EffectKind.PRESS:
                out["press"] = True
    return out


def combat_plays(view: VtesView, minion: CardView) -> list[tuple[CardView, dict[str, object], str]]:
    """The hand combat cards ``minion`` may play in this step of the combat that change it as they
    are played (:data:`PLAYS`): per clause it may play whose effects the table applies whole, in the
    step, range and round its text binds it to (:func:`engine.games.vtes.readings.bound`), within
    its printed cost and limits; each with the ``play`` act's fields (``card``, ``minion``, the
    effects, the cost) and the clause in words. Blood gained at the end of a round only when the
    opposing vampire lost some to damage and ``minion`` is a vampire; a grapple only at close range;
    an equip from the hand once per weapon that fits (:mod:`engine.games.vtes.combat_equip`)."""
    from engine.games.vtes.readings import bound

    c = view.combat
    if c is None or minion.pos not in (c.acting, c.opposing):
        return []
    lost = c.lost_by(c.opposing if minion.pos == c.acting else c.acting)
    out: list[tuple[CardView, dict[str, object], str]] = []
    from engine.games.vtes.card_checks import missing_requirement

    who = standing.seen(minion)
    for held, rec in affordable_combat_cards(view, minion):
        if not bound(rec).fits(c.step, c.long, c.round):
            continue
        if who is not None and missing_requirement(rec, who, minion.name) is not None:
            continue  # its clan, Discipline or title (Raking Talons: a Gargoyle)
        seen: set[tuple[tuple[str, object], ...]] = set()
        for clause in candidates(rec, minion, "Combat"):
            if not plays_alone(clause):
                continue
            kinds = {e.kind for e in clause.effects}
            if EffectKind.DRINK in kinds and (not lost or not minion.crypt):
                continue
            if kinds & {EffectKind.HAND_ONLY, EffectKind.CLOSE_NEXT} and c.long:
                continue
            if EffectKind.AGGRAVATE in kinds and c.step in (CombatStep.PRESS, CombatStep.END_OF_ROUND):
                continue  # no hand strike of this round is left to resolve
            for act in _equip_each(view, minion, rec, clause, play_fields(clause.effects, lost)):
                key = tuple(sorted((k, str(v)) for k, v in act.items()))
                if key in seen:
                    continue
                seen.add(key)
                out += _play_of(held, minion, clause, act)
    return out


def _equip_each(
    view: VtesView, minion: CardView, rec: CardRecord, clause: Clause, fields: dict[str, object]
) -> list[dict[str, object]]:
    """``fields`` once, or once per weapon of the hand the clause may equip ``minion`` with (none
    when no weapon fits); for a card that becomes a weapon, with ``to`` "on" and ``on`` ``minion``
    (none when it has one already) (:mod:`engine.games.vtes.combat_equip`)."""
    from engine.games.vtes.combat_equip import has_one, weapons_to_equip

    if any(x.kind == EffectKind.BECOMES_WEAPON for x in clause.effects):
        return [] if has_one(view, minion, rec) else [{**fields, "to": Target.ON, "on": minion.as_list()}]
    e = next((x for x in clause.effects if x.kind == EffectKind.EQUIP_WEAPON), None)
    if e is None:
        return [fields]
    return [{**fields, "equip": w.as_list()} for w in weapons_to_equip(view, minion, e)]


def _play_of(
    held: CardView, minion: CardView, clause: Clause, fields: dict[str, object]
) -> list[tuple[CardView, dict[str, object], str]]:
    """The ``play`` act of the hand card ``held`` by ``minion`` with the clause's ``fields``, its
    printed cost (and the blood "Burn 1 blood to make …" burns) added, with the clause in words;
    none when ``minion`` cannot pay."""
    from engine.games.vtes.card_play import printed_cost

    act = {"card": held.as_list(), "minion": minion.as_list(), **fields}
    act |= printed_cost(held, [minion], minion)
    burned = sum(e.least for e in clause.effects if e.kind == EffectKind.AGGRAVATE)
    if burned:  # "Burn 1 blood to make …": with the printed cost, from the playing vampire
        paid = int(act.get("blood", 0)) + burned  # type: ignore[call-overload]
        if not minion.crypt or minion.counters < paid:
            return []
        act |= {"blood": paid, "minion": minion.as_list()}
    levels = " ".join(f"[{lv}]" for lv in clause.levels)
    words = " ".join(p for p in (levels, ", ".join(e.words() for e in clause.effects)) if p)
    return [(held, act, words)]
