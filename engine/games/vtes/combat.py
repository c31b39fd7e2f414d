"""Combat, round by round (shared/rules/vtes-actions.md 5.2–5.9, readings P5 and P6).

A combat opens when a block succeeds (:func:`engine.games.vtes.actions.block`) or when a card
names two minions (the ``combat`` act). Each step but the strike is an impulse loop as in an
action (P1): the acting combatant's controller first, then the opposing one's, then every other
Methuselah clockwise from the acting controller's left; any play returns the impulse to the
acting combatant's controller, and the last pass of the order ends the step. In the strike step
the acting minion's controller chooses its strike first, then the opposing one's. The engine
resolves the pair of strikes (5.5: combat ends, first strikes, the rest) and the damage (P6) at the
end of the damage step; players apply other card effects by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import aims, combat_equip, combat_plays, standing, windows
from engine.games.vtes.act_records import CombatCardAct, PlayAct, PreventAct, StrikeAct
from engine.games.vtes.acts import within
from engine.games.vtes.card_checks import check_requirements, end_limits
from engine.games.vtes.card_effects import NORMAL_ONLY, EffectKind, move_usable
from engine.games.vtes.card_record import record
from engine.games.vtes.claims import in_the_open
from engine.games.vtes.damage import damage_result, prevented, strike_words
from engine.games.vtes.readings import StrikeReading, best_strike, recoil_of, strength_of
from engine.games.vtes.state import (
    Combat,
    Limited,
    Loop,
    OpenWindow,
    Strike,
    clockwise_after,
)
from engine.games.vtes.vocab import CombatStep, Lift, LimitScope, News, Target, Zone, step_words
from engine.games.vtes.work import Work

# --- who, in which order --------------------------------------------------------------------------


def controllers(w: Work, c: Combat) -> tuple[int, int]:
    """The acting and the opposing combatants' controllers."""
    return w.cards[c.acting].controller, w.cards[c.opposing].controller


def combat_order(acting: int, opposing: int, in_game: Sequence[int]) -> tuple[int, ...]:
    """The impulse order of a combat step (5.1, P5): the acting combatant's controller, the
    opposing one's, then every other Methuselah clockwise from the acting controller's left."""
    rest = clockwise_after(acting, in_game)
    return tuple(dict.fromkeys(s for s in (acting, opposing, *rest) if s in in_game))


def _order(w: Work, c: Combat) -> tuple[int, ...]:
    acting, opposing = controllers(w, c)
    return combat_order(acting, opposing, w.in_game())


# --- opening and ending ---------------------------------------------------------------------------


def open_combat(w: Work, acting: Pos, opposing: Pos, carried: tuple[tuple[Pos, Pos], ...] = ()) -> None:
    """``acting`` and ``opposing`` enter combat: round 1, before range (5.2), with the maneuvers
    ``carried`` into it (``Combat.carried``). Records the combat for withdrawal (vtes.md,
    "Withdrawal")."""
    a, o = w.cards[acting], w.cards[opposing]
    for seat in dict.fromkeys((a.controller, o.controller)):
        w.fail_withdrawal(seat, f"one of {seat_ref(seat)}'s minions entered combat")
    end_limits(w, LimitScope.ROUND, LimitScope.COMBAT)  # of a combat that ended otherwise
    fresh = Combat(acting=acting, opposing=opposing, carried=carried)
    windows.put(w, replace(fresh, loop=_loop(w, fresh, CombatStep.BEFORE_RANGE)))
    w.combats += 1
    w.note(
        f"{w.name(acting)} and {w.name(opposing)} enter combat: round 1, before range",
        a.controller,
        o.controller,
        news=News.COMBAT_OPENED,
    )


def _ready(w: Work, pos: Pos) -> bool:
    card = w.cards.get(pos)
    return card is not None and card.zone == Zone.READY


def _end(w: Work, c: Combat) -> None:
    windows.pop(w, c)
    _drop_chosen(w, c)
    end_limits(w, LimitScope.ROUND, LimitScope.COMBAT)
    w.note(f"The combat between {w.name(c.acting)} and {w.name(c.opposing)} is over", *controllers(w, c))
    if w.time_called and w.open_action is None:
        w.end_by_time()


def _loop(w: Work, c: Combat, step: CombatStep) -> Loop:
    """The impulse of ``step``: a loop in the order of :func:`combat_order`, but in the strike step
    the controller of the combatant whose strike is due alone (5.4)."""
    if step == CombatStep.STRIKE:
        waiting = c.due()
        return windows.only(w.cards[waiting[0]].controller if waiting else controllers(w, c)[0])
    return windows.loop(_order(w, c), w.in_game())


def _to_step(w: Work, c: Combat, step: CombatStep) -> None:
    at = replace(c, step=step)
    windows.put(w, replace(at, loop=_loop(w, at, step)))


# --- the loops ------------------------------------------------------------------------------------


def _open(w: Work) -> Combat:
    c = w.open_combat
    if c is None:
        raise IllegalMove("there is no combat under way")
    return c


def _holds_impulse(w: Work, c: Combat, what: str) -> None:
    w.must_hold_impulse(c.impulse, what)


def _combatant(w: Work, c: Combat, act: CombatCardAct | PreventAct | StrikeAct) -> Pos:
    """The combatant an act names (``minion``), which the author must control."""
    minion = act.minion
    if minion not in (c.acting, c.opposing):
        raise IllegalMove(f"{w.name(minion)} is not in this combat")
    if w.cards[minion].controller != w.author:
        raise IllegalMove(f"{w.name(minion)} is not yours: its controller chooses what it does")
    return minion


def _card_played(
    w: Work, act: CombatCardAct | PreventAct | StrikeAct, minion: Pos, to: Target = Target.ASH
) -> tuple[str, str]:
    """The combat card an act plays with it (``card``: from the author's hand, to the ash heap or
    ``to``, the hand refilled; a strike card its maneuver chose, from aside), its printed cost
    paid: blood by ``minion`` (a vampire), pool by the author
    (an X cost is settled by hand); for a strike, ``card`` may instead be a weapon (equipment) on
    ``minion``, which strikes from play at no cost. Returns the play and the cost paid in words for the narration
    (``(" with Majesty", " (paying 1 blood)")``; empty strings for none).
    Raises IllegalMove when the card is not in the author's hand or the cost cannot be paid."""
    pos = act.card
    if pos is None:
        return "", ""
    card = w.card(pos)
    info = w.info(pos)
    c = w.open_combat
    if isinstance(act, StrikeAct) and card.zone == Zone.ASIDE and c is not None and (minion, pos) in c.chosen:
        w.move(pos, Target.ASH)  # the strike card its maneuver chose, set aside and paid for since
        return f" with {w.name(pos)}", ""
    if isinstance(act, StrikeAct) and card.zone == Zone.ON and card.on == minion:
        # a weapon the striker holds strikes from play: it stays, nothing is paid (rulebook, "Equipment")
        stick = combat_equip.becomes_weapon(record(info.id)) if info is not None else None
        if info is not None and "Equipment" not in info.types and stick is None:
            raise IllegalMove(f"{w.name(pos)} is not equipment: a card on a minion strikes only as its weapon")
        return f" with {w.name(pos)}", ""
    if isinstance(act, PreventAct) and card.zone == Zone.ON and card.on == minion:
        # equipment its bearer burns to prevent (Leather Jacket)
        rec = record(info.id) if info is not None else None
        if rec is None or "Equipment" not in rec.types or not rec.has(EffectKind.PREVENT):
            raise IllegalMove(f"{w.name(pos)} prevents no damage: only equipment that says so is burned to prevent")
        w.move(pos, Target.ASH)
        return f", burning {w.name(pos)},", ""
    if card.zone != Zone.HAND or card.owner != w.author:
        raise IllegalMove("that card is not in your hand, nor a weapon on the striking minion")
    if info is not None and "Combat" not in info.types:
        w.refuse(Lift.TIMING, f"{w.name(pos)} is not a combat card")
    check_requirements(w, pos, minion)
    name = w.name(pos)
    paid = ""
    if info is not None and info.blood_cost and w.cards[minion].crypt:
        if w.cards[minion].counters < info.blood_cost:
            raise IllegalMove(
                f"{name} costs {info.blood_cost} blood and {w.name(minion)} has {w.cards[minion].counters}"
            )
        w.setc(minion, counters=w.cards[minion].counters - info.blood_cost)
        paid = f" (paying {info.blood_cost} blood)"
    if info is not None and info.pool_cost:
        if w.p(w.author).pool < info.pool_cost:
            raise IllegalMove(f"{name} costs {info.pool_cost} pool and you have {w.p(w.author).pool}")
        w.pool_delta(w.author, -info.pool_cost, "cost")
        paid = f" (paying {info.pool_cost} pool)"
    w.move(pos, to)
    w.refill(w.author, pos)
    return f" with {name}", paid


BY_HAND = "no card named"
"""The cause of a combat effect declared with no card (:func:`_claim_by_hand`)."""


def _claim_by_hand(w: Work, c: Combat, act: CombatCardAct | PreventAct | StrikeAct, minion: Pos, text: str) -> bool:
    """An effect declared with no ``card`` (a maneuver, a press, a prevention, a strike other than
    the hand strike) is a claim (cause "no card named") on the opposing combatant's controller,
    and the combat waits for their answer or its time, as any change by hand to their things
    (vtes-actions.md P9; docs/vtes-by-hand.md). True when it waits (the act does nothing more
    now); False with a card, against one's own minion, or as the claim taking effect."""
    if act.card is not None:
        return False
    return in_the_open(w, {w.cards[c.opposing if minion == c.acting else c.acting].controller}, text, BY_HAND, act)


def _may_pass(w: Work, window: OpenWindow) -> None:
    """The strike step is no loop: each combatant's strike is chosen, never passed (5.4)."""
    assert isinstance(window, Combat)
    if window.step == CombatStep.STRIKE:
        raise IllegalMove("strikes are chosen, not passed: choose a strike (the hand strike by default)")


def _close_step(w: Work, window: OpenWindow) -> None:
    """Every Methuselah passed in a step's loop: the combat moves to its next step (5.2), the
    damage step resolves the pair of strikes, the end of the round ends the combat or, when a
    press stands, opens the next round."""
    assert isinstance(window, Combat)
    c = window
    match c.step:
        case CombatStep.BEFORE_RANGE if c.skip_range:
            _to_step(w, replace(c, long=False), CombatStep.BEFORE_STRIKES)
            w.note(f"Round {c.round}: close range, the determine range step skipped", *controllers(w, c))
        case CombatStep.BEFORE_RANGE:
            _to_step(w, c, CombatStep.RANGE)
        case CombatStep.RANGE:
            _to_step(w, c, CombatStep.BEFORE_STRIKES)
            w.note(f"Round {c.round}: {'long' if c.long else 'close'} range", *controllers(w, c))
        case CombatStep.BEFORE_STRIKES:
            _to_step(w, replace(c, strikes=(), prevent=()), CombatStep.STRIKE)
        case CombatStep.DAMAGE:
            _resolve_pair(w, c)
        case CombatStep.PRESS:
            _to_step(w, c, CombatStep.END_OF_ROUND)
        case CombatStep.END_OF_ROUND:
            _drop_chosen(w, c)
            if c.over or not c.press or not (_ready(w, c.acting) and _ready(w, c.opposing)):
                _end(w, c)
                return
            end_limits(w, LimitScope.ROUND)
            fresh = Combat(
                acting=c.acting,
                opposing=c.opposing,
                round=c.round + 1,
                strength=c.strength,
                environmental=c.environmental,
                skip_range=c.close_next,
                aggravated_combat=c.aggravated_combat,
            )
            windows.put(w, replace(fresh, loop=_loop(w, fresh, CombatStep.BEFORE_RANGE)))
            w.note(f"The press stands: round {c.round + 1}, before range", *controllers(w, c))
        case CombatStep.STRIKE:
            raise AssertionError("the strike step is not a loop")


def _play(w: Work, c: Combat) -> None:
    """A play returns the impulse to the acting combatant's controller, first of the order (5.1)."""
    windows.put(w, windows.returned(c, w.in_game()))


def play_in_combat(w: Work, card: Pos, types: set[str], name: str, act: PlayAct) -> None:
    """The card at ``card`` played from hand during combat (§2): on the impulse, in a step that is
    a loop; no action, action modifier or reaction then (a combat card, or a master, is); a combat
    card by a combatant of the author's (``act.minion``, else the one the author controls) that
    meets its requirements (:mod:`engine.games.vtes.card_checks`), in the step its text binds it
    to, its effects applied (:mod:`engine.games.vtes.combat_plays`). Returns the impulse to the
    acting combatant's controller."""
    minion = act.minion
    c = _open(w)
    if c.step == CombatStep.STRIKE:
        raise IllegalMove("a strike is being chosen: choose it (a strike card is played with the strike)")
    _holds_impulse(w, c, "play a card")
    if types & {"Action", "Action Modifier", "Reaction", "Political Action", "Ally", "Equipment", "Retainer"} and (
        "Combat" not in types
    ):
        w.refuse(Lift.TIMING, f"{name} is not a combat card: during combat only combat cards are played (§2)")
    if "Combat" in types:
        mine = [m for m in (c.acting, c.opposing) if w.cards[m].controller == w.author]
        if minion is None and len(mine) == 1:
            minion = mine[0]
        if minion is not None:
            check_requirements(w, card, minion)
        combat_plays.check_bound(w, c, card)
        if minion is not None:
            combat_equip.put_as_weapon(w, card, act, minion)  # a card that becomes a weapon on it
    elif combat_plays.carries(act):
        raise IllegalMove(f"{name} is not a combat card: it changes no combat")
    _play(w, combat_plays.apply_play(w, c, card, act, minion))


def maneuver(w: Work, act: CombatCardAct) -> None:
    """A ``maneuver`` in the range step flips the range (5.3); never two in a row by one minion."""
    c = _open(w)
    if c.step != CombatStep.RANGE:
        raise IllegalMove(f"maneuvers are made in the range step, and this is {step_words(c.step)}")
    _holds_impulse(w, c, "maneuver")
    minion = _combatant(w, c, act)
    if c.maneuvered == minion:
        raise IllegalMove(f"{w.name(minion)} made the last maneuver: never two in a row by one minion (5.3)")
    _move_fits(w, c, act, EffectKind.MANEUVER)
    if act.card is not None and (minion, act.card) in c.carried:  # given before the combat (carried_moves)
        c = replace(
            c, long=not c.long, maneuvered=minion, carried=tuple(x for x in c.carried if x != (minion, act.card))
        )
        w.note(
            f"{w.name(act.card)}: {w.name(minion)} maneuvers: {'long' if c.long else 'close'} range", *controllers(w, c)
        )
        _play(w, c)
        return
    if _claim_by_hand(w, c, act, minion, f"a maneuver by {w.name(minion)}"):
        return
    chosen = _strike_maneuver(w, c, act, minion)
    c = replace(c, long=not c.long, maneuvered=minion)
    if chosen is not None:
        c = replace(c, chosen=(*c.chosen, (minion, chosen)))
        card = f" with {w.name(chosen)}, whose strike it makes this round"
    else:
        card = "".join(_card_played(w, act, minion))
        c = _optional_press(c, act, minion)
    w.note(f"{w.name(minion)} maneuvers{card}: {'long' if c.long else 'close'} range", *controllers(w, c))
    _play(w, c)


def _strike_reading(w: Work, card: Pos, minion: Pos, long: bool) -> StrikeReading | None:
    """The strike the card at ``card`` (a combat card, or a weapon) gives ``minion`` at the range
    (:func:`engine.games.vtes.readings.best_strike`), or None."""
    identity = w.cards[card].card or w.revealed.get(card, "")
    striker = w.cards[minion].card or w.revealed.get(minion, "")
    who = standing.at(w, minion)
    levels = who.disciplines if who is not None else None
    return best_strike(identity, striker, long, levels=levels) if identity and striker else None


def _strike_maneuver(w: Work, c: Combat, act: CombatCardAct, minion: Pos) -> Pos | None:
    """The strike card or weapon whose optional maneuver ``act`` makes ("Strike: 1R damage, with 1
    optional maneuver"), which chooses its strike for this round (vtes-actions.md 5.3): a card from
    hand is set aside, its cost paid, until it strikes; a weapon's maneuver is once each combat
    ("with 1 optional maneuver each combat"). None for a card that is no such strike."""
    pos = act.card
    reading = _strike_reading(w, pos, minion, c.long) if pos is not None else None
    if pos is None or reading is None or not reading.maneuver:
        return None
    if any(m == minion for m, _ in c.chosen):
        raise IllegalMove(f"{w.name(minion)}'s strike this round is chosen already, by its maneuver")
    held = w.card(pos)
    if held.zone == Zone.ON and held.on == minion:
        info = w.info(pos)
        if info is not None:
            if any(x.minion == pos and x.card == info.id for x in w.limited):
                raise IllegalMove(f"{w.name(pos)} gives 1 optional maneuver each combat, and it was used")
            w.limited = (*w.limited, Limited(pos, info.id, LimitScope.COMBAT))
        return pos
    _card_played(w, act, minion, Target.ASIDE)
    return pos


def _optional_press(c: Combat, act: CombatCardAct | PreventAct, minion: Pos) -> Combat:
    """``c`` with the optional press the card of ``act`` gives ("with 1 optional press") kept for
    this round's press step (:attr:`Combat.presses`)."""
    if act.press and act.card is not None:
        return replace(c, presses=(*c.presses, (minion, act.card)))
    if act.press:
        raise IllegalMove("an optional press rides with the combat card that gives it: name the card")
    return c


def _drop_chosen(w: Work, c: Combat) -> None:
    """A strike card a maneuver chose that never struck (the round or the combat ended first)
    goes to its owner's ash heap."""
    for _, card in c.chosen:
        if card in w.cards and w.cards[card].zone == Zone.ASIDE:
            w.move(card, Target.ASH)


def prevent(w: Work, act: PreventAct) -> None:
    """A ``prevent`` in the damage step: the combatant prevents ``normal`` and ``aggravated``
    points of the damage it takes in the pair under way (P5)."""
    c = _open(w)
    if c.step != CombatStep.DAMAGE:
        raise IllegalMove(f"damage is prevented in the damage step, and this is {step_words(c.step)}")
    _holds_impulse(w, c, "prevent damage")
    minion = _combatant(w, c, act)
    normal = within(act.do, "normal", act.normal, low=0, high=30)
    aggravated = within(act.do, "agg", act.agg, low=0, high=30)
    blood = within(act.do, "blood", act.blood, low=0, high=30)
    if not normal and not aggravated and not act.round:
        raise IllegalMove("a prevention prevents at least 1 point of damage")
    if aggravated and act.card is not None:
        _prevents_aggravated(w, act.card)
    if (blood or act.round or act.press) and act.card is None:
        raise IllegalMove("blood burned, a round's prevention or a press ride with the combat card that gives them")
    if blood and (not w.cards[minion].crypt or w.cards[minion].counters < blood):
        raise IllegalMove(f"{w.name(minion)} cannot burn {blood} blood: it has {w.cards[minion].counters}")
    said = f"{normal} normal and {aggravated} aggravated damage prevented by {w.name(minion)}"
    if _claim_by_hand(w, c, act, minion, said):
        return
    c = replace(c, prevent=(*c.prevent, (minion, normal, aggravated)))
    card, paid = _card_played(w, act, minion)
    if blood:
        w.setc(minion, counters=w.cards[minion].counters - blood)
        paid += f" (burning {blood} blood)"
    rest = ""
    if act.round:
        c = replace(c, shielded=(*c.shielded, minion))
        rest = ", and all damage from the opposing strikes for the rest of this round"
    c = _optional_press(c, act, minion)
    w.note(
        f"{w.name(minion)}{card}{paid} prevents {normal} normal and {aggravated} aggravated damage{rest}",
        *controllers(w, c),
    )
    _play(w, c)


def _move_fits(w: Work, c: Combat, act: CombatCardAct, kind: EffectKind) -> None:
    """Refuse a maneuver or press made with a card whose every such move is only usable otherwise
    ("Maneuver, only usable to go to long range" at long range; "Press, only usable to continue
    combat" against a standing press), in the card's words."""
    if act.card is None:
        return
    info, who = w.info(w.card(act.card).pos), standing.at(w, act.minion)
    rec = record(info.id) if info is not None else None
    have = frozenset(who.disciplines) if who is not None else frozenset()
    clauses = rec.clauses_for(have) if rec is not None else ()
    moves = [e for x in clauses for e in x.effects if e.kind == kind and not e.optional]
    if moves and not any(move_usable(e, c.long, bool(c.press)) for e in moves):
        raise IllegalMove(f"{w.name(act.card)}: {moves[0].words()}, and it cannot do so now")


def _prevents_aggravated(w: Work, card: Pos) -> None:
    """Refuse a prevention of aggravated damage by a card whose every prevention is of
    non-aggravated damage only ("Prevent 2 non-aggravated damage"), in the card's words."""
    info = w.info(w.card(card).pos)
    rec = record(info.id) if info is not None else None
    prevents = [e for e in rec.effects if e.kind == EffectKind.PREVENT] if rec is not None else []
    if prevents and all(e.whom == NORMAL_ONLY for e in prevents):
        raise IllegalMove(f"{w.name(card)} prevents non-aggravated damage only: it cannot prevent aggravated damage")


def press(w: Work, act: CombatCardAct) -> None:
    """A ``press`` in the press step (5.9): a press to continue, or, against a standing press, its
    cancellation; never two in a row by one minion."""
    c = _open(w)
    if c.step != CombatStep.PRESS:
        raise IllegalMove(f"presses are made in the press step, and this is {step_words(c.step)}")
    _holds_impulse(w, c, "press")
    if act.press:
        raise IllegalMove("a press gives no optional press: that rides with a maneuver or a prevention")
    minion = _combatant(w, c, act)
    if minion in c.no_press:
        raise IllegalMove(f"{w.name(minion)} cannot press this round: an aimed strike's damage reached it")
    if c.pressed == minion:
        raise IllegalMove(f"{w.name(minion)} made the last press: never two in a row by one minion (5.9)")
    if act.card is not None and (minion, act.card) in c.presses:
        # the optional press of this round's strike card: the card was played with the strike
        played, paid = f" with {w.name(act.card)}'s optional press", ""
    else:
        _move_fits(w, c, act, EffectKind.PRESS)
        if _claim_by_hand(w, c, act, minion, f"a press by {w.name(minion)}"):
            return
        played, paid = _card_played(w, act, minion)
    if paid:
        w.note(f"{w.name(minion)} presses{played}{paid}", w.author)
    if c.press:
        c = replace(c, press=(), pressed=minion)
        w.note(f"{w.name(minion)} presses to cancel the press: the combat will end", *controllers(w, c))
    else:
        c = replace(c, press=minion, pressed=minion)
        w.note(f"{w.name(minion)} presses to continue: another round", *controllers(w, c))
    _play(w, c)


# --- strikes ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StrikeChoice:
    """A ``strike`` act parsed: the :class:`Strike` and the additional strikes it gains (5.6)."""

    strike: Strike
    additional: int

    @classmethod
    def of(cls, act: StrikeAct, minion: Pos) -> StrikeChoice:
        """The strike a ``strike`` act chooses for ``minion``. Raises IllegalMove for a number out
        of range."""
        named: tuple[object, ...] = (act.damage, act.aggravated, act.ranged, act.first, act.dodge, act.ends)
        named = (*named, act.steal, act.retainer, act.torpor, act.burn)
        # "unlock" rides with a card's strike: alone it names no strike (the hand strike stays one);
        # a card that gives only additional strikes leaves the strike chosen the hand strike
        hand = all(x is None for x in (*named, act.other)) and (act.card is None or bool(act.additional))
        # a steal blood strike deals no damage unless it says so (5.5: stealing is not damage); nor
        # does one that sends to torpor or burns
        damage = 0 if act.steal is not None or act.torpor or act.burn else 1
        return cls(
            Strike(
                minion=minion,
                damage=within(act.do, "damage", act.damage, low=0, high=30, default=damage),
                aggravated=bool(act.aggravated),
                ranged=bool(act.ranged),
                first=bool(act.first),
                dodge=bool(act.dodge),
                ends=bool(act.ends),
                steal=within(act.do, "steal", act.steal, low=0, high=30),
                retainer=act.retainer if act.retainer is not None else (),
                other=bool(act.other),
                hand=hand,
                unlock=bool(act.unlock),
                torpor=bool(act.torpor),
                burn=bool(act.burn),
            ),
            within(act.do, "additional", act.additional, low=0, high=5),
        )


def strike(w: Work, act: StrikeAct) -> None:
    """A combatant's controller chooses its strike (5.4, P5), the acting minion first: the hand
    strike by default; at long range a retainer on the opposing minion may be the target of a
    ranged strike (5.8). Gaining additional strikes: one source per minion and round (5.6)."""
    c = _open(w)
    if c.step != CombatStep.STRIKE:
        raise IllegalMove(f"strikes are chosen in the strike step, and this is {step_words(c.step)}")
    waiting = c.due()
    if w.author != c.impulse and waiting and any(s.minion == act.minion for s in c.strikes):
        # not "when it reaches you": this minion has no strike left to choose in the pair
        when = "this round" if c.pairs == 0 else "in this pair of additional strikes"
        raise IllegalMove(
            f"{w.name(act.minion)} has struck {when}: {seat_ref(c.impulse)} holds the impulse to choose "
            f"the strike of {w.name(waiting[0])} (5.4)"
        )
    _holds_impulse(w, c, "choose a strike")
    minion = _combatant(w, c, act)
    if minion not in waiting:
        raise IllegalMove(f"{w.name(minion)} has no strike to choose now")
    if minion != waiting[0]:
        raise IllegalMove(f"{w.name(waiting[0])} chooses its strike first (5.4)")
    committed = next((card for m, card in c.chosen if m == minion), None)
    if committed is not None and c.pairs == 0 and act.card != committed:
        raise IllegalMove(
            f"{w.name(minion)}'s maneuver chose its strike this round: the strike of {w.name(committed)} (5.3)"
        )
    if act.unlock and act.card is None:
        raise IllegalMove("an unlock rides with the combat card that gives it: name the card")
    choice = StrikeChoice.of(act, minion)
    s = choice.strike
    if s.hand:  # a hand strike deals the minion's strength: 1, or as printed (an ally's, a "+1 strength")
        s = replace(s, damage=strength_in(w, c, minion))
    if c.hand_only and not s.hand and not _hand_strike_card(w, c, act, minion):
        raise IllegalMove("only hand strikes may be used this round (a grapple was played): strike with the hand")
    other = c.opposing if minion == c.acting else c.acting
    if (s.torpor and not w.cards[other].crypt) or (s.burn and w.cards[other].crypt):
        kind = "a vampire" if s.torpor else "an ally"
        raise IllegalMove(f"{w.name(other)} is not {kind}: this strike {strike_words(s)}")
    if (s.torpor or s.burn) and act.card is None:
        raise IllegalMove("a strike that sends to torpor or burns is a card's: name the card")
    s = aims.aimed_strike(w, act, s, c.long)
    held = w.cards.get(act.card) if act.card is not None else None
    if held is not None and held.zone == Zone.ON and held.on == minion and act.card is not None:
        info = w.info(act.card)
        if info is not None and combat_equip.becomes_weapon(record(info.id)) is not None:
            s = replace(s, worn=act.card)  # its damage burns the card's counters
    if act.card is not None and not c.long:  # a card's strike that hurts its striker at close range
        striker, card = w.cards[minion].card or w.revealed.get(minion, ""), w.cards[act.card].card
        s = replace(s, recoil=recoil_of(card or w.revealed.get(act.card, ""), striker, s.damage))
    if s.retainer:
        r = w.card(s.retainer)
        if r.zone != Zone.ON or r.on != other:
            raise IllegalMove(f"{w.name(s.retainer)} is not a retainer on the opposing minion")
        if not (s.ranged and c.long):
            raise IllegalMove("only a ranged strike at long range may target a retainer (5.8)")
    if not s.hand and _claim_by_hand(w, c, act, minion, f"the strike of {w.name(minion)}: {strike_words(s)}"):
        return
    extra = list(c.extra)
    used = c.extra_used
    if choice.additional:
        if minion in used:
            raise IllegalMove(f"{w.name(minion)} already gained additional strikes this round: one source (5.6)")
        extra[0 if minion == c.acting else 1] += choice.additional
        used = (*used, minion)
    first_pair = c.pairs == 0
    if not first_pair:
        extra[0 if minion == c.acting else 1] -= 1  # this strike spends one of them
    reading = _strike_reading(w, act.card, minion, c.long) if act.card is not None else None
    if reading is not None and reading.after:
        s = replace(s, after=True)  # combat ends once it resolves
    c = replace(c, strikes=(*c.strikes, s), extra=(extra[0], extra[1]), extra_used=used)
    if reading is not None and reading.press and act.card is not None:
        c = replace(c, presses=(*c.presses, (minion, act.card)))
    played, paid = _card_played(w, act, minion)
    if paid:
        w.note(f"{w.name(minion)} strikes{played}{paid}", w.author)
    if act.aim is not None:
        aimed, paid = _card_played(w, replace(act, card=act.aim), minion)
        w.note(f"{w.name(minion)} aims{aimed}{paid}: +{s.aim} damage if its strike lands", *controllers(w, c))
    left = c.due()
    if left:
        windows.put(w, replace(c, loop=_loop(w, c, CombatStep.STRIKE)))
    else:
        _to_step(w, c, CombatStep.DAMAGE)


def strength_in(w: Work, c: Combat, minion: Pos) -> int:
    """A combatant's strength in combat ``c``: as a card played this combat set it (Torn
    Signpost), else as printed (:func:`printed_strength`)."""
    set_to = c.strength_of(minion)
    return printed_strength(w, minion) if set_to is None else set_to


def _hand_strike_card(w: Work, c: Combat, act: StrikeAct, minion: Pos) -> bool:
    """The strike ``act`` is a card's hand strike ("Strike: hand strike at +2 damage")."""
    reading = _strike_reading(w, act.card, minion, c.long) if act.card is not None else None
    return reading is not None and reading.hand


def printed_strength(w: Work, minion: Pos) -> int:
    """A minion's strength as its card prints it (the rulebook's "Strength": 1 for a vampire, plus
    a printed "+1 strength"; an ally's printed strength), from its record."""
    return strength_of(w.cards[minion].card or w.revealed.get(minion, ""))


# --- resolution -------------------------------------------------------------------------------------


def _works(c: Combat, s: Strike) -> bool:
    """At long range only ranged strikes, dodge and combat ends work (5.4)."""
    return not c.long or s.ranged or s.dodge or s.ends


def _resolve_pair(w: Work, c: Combat) -> None:
    """Resolve the chosen pair (5.5): combat ends first, then first strikes, then the others, each
    followed by the damage of P6; then more pairs while additional strikes are left, else press."""
    strikes = c.strikes
    for s in strikes:
        if s.unlock and _works(c, s) and _ready(w, s.minion) and w.cards[s.minion].locked:
            w.setc(s.minion, locked=False)
            w.note(f"{w.name(s.minion)} unlocks as its strike resolves", *controllers(w, c))
    if any(s.ends and _works(c, s) for s in strikes):
        w.note("A strike ends the combat", *controllers(w, c))
        _to_step(w, replace(c, over=True, strikes=()), CombatStep.END_OF_ROUND)
        return
    dodgers = {s.minion for s in strikes if s.dodge}
    firsts = [s for s in strikes if s.first and not s.dodge]
    others = [s for s in strikes if not s.first and not s.dodge]
    lost: list[tuple[Pos, int]] = []
    barred: list[Pos] = []
    if firsts:
        lost += _hit(w, c, firsts, dodgers, barred=barred)
        others = [s for s in others if _ready(w, s.minion)]  # burned or in torpor: no strike
    ending = next((s for s in (*firsts, *others) if s.after), None)  # its strike resolved
    # environmental damage each round, during normal strike resolution (5.5): no strike, no dodge
    environmental = [(m, n) for m, n in c.environmental if _ready(w, m)] if c.pairs == 0 else []
    if others or environmental:
        lost += _hit(w, c, others, dodgers, environmental, barred)
    c = replace(c, strikes=(), prevent=(), pairs=c.pairs + 1, lost=(*c.lost, *lost))
    c = replace(c, no_press=(*c.no_press, *barred))
    if not (_ready(w, c.acting) and _ready(w, c.opposing)):
        # 5.8: the round and combat end at once; the end-of-round step still occurs.
        _to_step(w, replace(c, over=True), CombatStep.END_OF_ROUND)
        return
    if ending is not None:  # "combat ends immediately after the resolution of this strike"
        w.note(f"Combat ends after {w.name(ending.minion)}'s strike", *controllers(w, c))
        _to_step(w, replace(c, over=True), CombatStep.END_OF_ROUND)
        return
    if any(k > 0 for k in c.extra):
        _to_step(w, c, CombatStep.STRIKE)
        w.note("Additional strikes", *controllers(w, c))
        return
    _to_step(w, c, CombatStep.PRESS)


def _hit(
    w: Work,
    c: Combat,
    strikes: list[Strike],
    dodgers: set[Pos],
    environmental: Sequence[tuple[Pos, int]] = (),
    barred: list[Pos] | None = None,
) -> list[tuple[Pos, int]]:
    """Strikes resolved together: stolen blood moves first (not damage), then the damage of each
    target after prevention (P6), with the ``environmental`` ``(minion, points)`` of ranged damage
    taken now; an aimed strike's more points where some of its damage gets through
    (:func:`engine.games.vtes.aims.aimed_damage`), its target added to ``barred`` (no press this
    round). Returns the blood each vampire lost to that damage, ``(minion, blood)``."""
    damage: dict[Pos, list[int]] = {}
    aimed: dict[Pos, tuple[int, bool]] = {}
    for target, points in environmental:
        damage.setdefault(target, [0, 0])[0] += points
    for s in strikes:
        if s.recoil and not c.long:  # environmental, the striker's own: no dodge avoids it
            damage.setdefault(s.minion, [0, 0])[1] += s.recoil
        if s.other or not _works(c, s):
            continue
        target = c.opposing if s.minion == c.acting else c.acting
        if s.retainer:
            if s.retainer in w.cards and w.cards[s.retainer].zone == Zone.ON:
                _lose_life(w, s.retainer, s.damage)
            continue
        if target in dodgers:
            continue
        combat_equip.wear(w, s)  # a card struck with loses a counter per damage, even if prevented
        if target in c.shielded:
            continue
        if (s.torpor or s.burn) and _ready(w, target):
            w.move(target, Target.TORPOR if s.torpor else Target.ASH)
            verb = "goes to torpor" if s.torpor else "burns"
            w.note(f"{w.name(target)} {verb}: {w.name(s.minion)}'s strike", *controllers(w, c))
            continue
        if s.steal:
            _steal(w, c, s, target)
        if s.damage:
            hit = damage.setdefault(target, [0, 0])
            # a card may make the damage of a minion's hand strikes aggravated (Claws of the Dead)
            agg = s.aggravated or (s.hand and s.minion in (*c.aggravated, *c.aggravated_combat))
            hit[1 if agg else 0] += s.damage
            if s.aim:
                aimed[target] = (s.aim, agg)
    lost = []
    for target, (normal, aggravated) in damage.items():
        blood = w.cards[target].counters if w.cards[target].crypt else 0
        taken = prevented(c, target, normal, aggravated)
        if target in aimed:
            more = aims.aimed_damage(c, target, normal, aggravated, aimed[target], dict(environmental).get(target, 0))
            if more is not None:
                taken = more
                if barred is not None:
                    barred.append(target)
                w.note(
                    f"The aimed strike lands: {w.name(target)} takes {aimed[target][0]} more damage and cannot "
                    "press this round",
                    *controllers(w, c),
                )
        apply_damage(w, target, *taken)
        left = w.cards[target].counters if target in w.cards and w.cards[target].zone != Zone.ASH else 0
        if blood > left:
            lost.append((target, blood - left))
    return lost


def _steal(w: Work, c: Combat, s: Strike, target: Pos) -> None:
    """A strike steals ``s.steal`` blood from the vampire ``target``, or life from an ally or
    retainer (burned at 0), becoming blood on the striker up to its capacity (5.5: not damage)."""
    moved = min(s.steal, w.cards[target].counters)
    if not moved:
        return
    crypt = w.cards[target].crypt
    w.counters_delta(target, -moved, "stolen")
    gain = room(w, s.minion, moved)
    if gain and w.cards[s.minion].crypt:
        w.counters_delta(s.minion, gain, "steal")
    what = "blood" if crypt else "life"
    w.note(f"{w.name(s.minion)} steals {moved} {what} from {w.name(target)}", *controllers(w, c))
    if not crypt and w.cards[target].counters == 0:
        w.note(f"{w.name(target)} has no life left and is burned", w.cards[target].controller)
        w.move(target, Target.ASH)


def room(w: Work, pos: Pos, blood: int) -> int:
    """How much of ``blood`` a vampire holds up to its capacity (the excess drains to the bank)."""
    info = standing.at(w, pos)
    if info is None or not info.capacity or not w.cards[pos].crypt:
        return blood
    return max(0, min(blood, info.capacity - w.cards[pos].counters))


def _lose_life(w: Work, pos: Pos, points: int) -> None:
    card = w.cards[pos]
    lost = min(points, card.counters)
    if lost:
        w.counters_delta(pos, -lost, "damage")
    if w.cards[pos].counters == 0:
        w.note(f"{w.name(pos)} has no life left and is burned", card.controller)
        w.move(pos, Target.ASH)
    elif lost:
        w.note(f"{w.name(pos)} loses {lost} life", card.controller)


def apply_damage(w: Work, pos: Pos, normal: int, aggravated: int) -> None:
    """The damage arithmetic of P6 on one minion, after prevention: a vampire mends normal damage
    with blood (what it cannot mend wounds it); aggravated damage cannot be mended, the first point
    wounds an unwounded vampire, each other point burns 1 blood or, with none left, burns the
    vampire; wounded and not burned, it goes to torpor with its blood. An ally or a retainer loses
    1 life per point, burned at 0."""
    if not normal and not aggravated:
        return
    card = w.cards[pos]
    if not card.crypt:
        _lose_life(w, pos, normal + aggravated)
        return
    result = damage_result(card.counters, True, card.zone == Zone.TORPOR, normal, aggravated)
    blood, wounded, burned = result.left, result.wounded, result.burned
    if blood != card.counters:
        w.counters_delta(pos, blood - card.counters, "damage")
    name = w.name(pos)
    taken = (
        f"{normal} damage" + (f" and {aggravated} aggravated" if aggravated else "")
        if normal
        else f"{aggravated} aggravated damage"
    )
    if burned:
        w.note(f"{name} takes {taken} and is burned", card.controller)
        w.move(pos, Target.ASH)
    elif wounded and card.zone != Zone.TORPOR:
        w.note(f"{name} takes {taken}, is wounded and goes to torpor with {blood} blood", card.controller)
        w.move(pos, Target.TORPOR)
    else:
        w.note(f"{name} takes {taken}: {blood} blood left", card.controller)


# --- upkeep after any act ---------------------------------------------------------------------------


def settle_combat(w: Work) -> None:
    """After any act: a combatant no longer ready ends the round and the combat, the end-of-round
    step still to come (5.8) (an impulse held by a Methuselah who left the game moves on in
    :func:`windows.settle`)."""
    c = w.open_combat
    if c is None:
        return
    if not (c.acting in w.cards and c.opposing in w.cards):
        windows.pop(w, c)
        _drop_chosen(w, c)
        return
    if not (_ready(w, c.acting) and _ready(w, c.opposing)) and not c.over:
        w.note("A combatant is no longer ready: the combat ends after the end of the round", *controllers(w, c))
        _to_step(w, replace(c, over=True, strikes=()), CombatStep.END_OF_ROUND)


def _holder_left(w: Work, window: OpenWindow) -> None:
    """The Methuselah whose strike was due left the game: it strikes nothing, and the combat ends
    after this round (5.8)."""
    assert isinstance(window, Combat)
    w.note(f"{seat_ref(window.loop.holder)} has left the game and strikes nothing", window.loop.holder)
    _to_step(w, replace(window, over=True, strikes=()), CombatStep.END_OF_ROUND)


windows.register(Combat, windows.Kind(close=_close_step, may_pass=_may_pass, left=_holder_left, upkeep=settle_combat))
