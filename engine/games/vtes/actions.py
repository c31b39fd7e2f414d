"""The structure of a minion action: announcement, blocks, impulse, windows and resolution
(shared/rules/vtes-actions.md 2–4, 5.1, 6.1–6.2 and readings P1–P4, P8, P9).

The engine owns who may act, in which window and in what order, and when a window closes; the
players still apply card texts. Each act here comes as its typed record
(:mod:`engine.games.vtes.act_records`), is checked against the
:class:`~engine.games.vtes.work.Work` copy and applied to it. A refusal is an
:class:`~engine.games.base.IllegalMove` with the page's sentence; a refusal P9 lets a card lift
goes through :meth:`Work.refuse`, which lets it pass once when the act names that card.

Impulse (5.1, P1): the acting Methuselah first, then the defending Methuselah (the targets
clockwise, or, for an undirected action, the prey then the predator), then every other Methuselah
clockwise from the actor's left. Only the holder of the impulse may ``pass``, ``block``, ``play``
a card or ``adjust`` the action's numbers; any play or adjustment returns the impulse to the
acting Methuselah; a window closes when the last Methuselah of that order passes, that is when
all have passed in order with no play since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import (
    card_actions,
    carried_moves,
    combat,
    contests,
    entering_life,
    events,
    lasting,
    politics,
    standing,
    windows,
)
from engine.games.vtes.act_records import ActionAct, BlockAct, DiableriseAct
from engine.games.vtes.action_success import action_words, after_action, before_resolution, diablerie, resolved, succeed
from engine.games.vtes.acts import esc, within
from engine.games.vtes.card_checks import check_requirements, end_limits
from engine.games.vtes.card_effects import ANOTHER, EffectKind
from engine.games.vtes.card_record import burnable, record
from engine.games.vtes.cards import card_base
from engine.games.vtes.poll_cancel_reading import bars_every_minion
from engine.games.vtes.state import Action, Done, OpenWindow, clockwise_after
from engine.games.vtes.state import hunts_due as must_hunt
from engine.games.vtes.vocab import (
    ACTION_TYPES,
    ActionKind,
    Lift,
    LimitScope,
    Outcome,
    Phase,
    Status,
    Target,
    Window,
    Zone,
)
from engine.games.vtes.work import Work

DEFAULT_STEALTH: dict[ActionKind, int] = {
    ActionKind.BLEED: 0,
    ActionKind.HUNT: 1,
    ActionKind.EQUIP: 1,
    ActionKind.EMPLOY: 1,
    ActionKind.RECRUIT: 1,
    ActionKind.POLITICAL: 1,
    ActionKind.LEAVE_TORPOR: 1,
    ActionKind.RESCUE: 1,
    ActionKind.DIABLERISE: 1,
    ActionKind.OTHER: 0,
}
"""The stealth an undirected action of each kind has before any card (§3); a directed rescue or
diablerie has 0."""

DEFAULT_COST: dict[ActionKind, int] = {ActionKind.LEAVE_TORPOR: 2, ActionKind.RESCUE: 2}
"""Blood each basic action costs the acting vampire by default (§3)."""

_ALLY_NEVER = frozenset(
    {ActionKind.HUNT, ActionKind.RESCUE, ActionKind.DIABLERISE, ActionKind.POLITICAL, ActionKind.LEAVE_TORPOR}
)
_NEED_CARD = frozenset({ActionKind.EMPLOY, ActionKind.RECRUIT})
_UNTARGETED = frozenset(
    {ActionKind.HUNT, ActionKind.EQUIP, ActionKind.EMPLOY, ActionKind.RECRUIT, ActionKind.POLITICAL}
    | {ActionKind.LEAVE_TORPOR}
)


# --- who, in which order --------------------------------------------------------------------------


def blockers(action: Action, in_game: Sequence[int]) -> tuple[int, ...]:
    """The Methuselahs entitled to block ``action`` (4.2): the targets, clockwise, for a directed
    action; the prey then the predator for an undirected one; never the acting Methuselah.
    ``in_game``: the seats still in the game, clockwise."""
    if action.directed:
        return tuple(s for s in action.targets if s in in_game and s != action.actor)
    if action.actor not in in_game or len(in_game) < 2:
        return ()
    i = list(in_game).index(action.actor)
    prey, predator = in_game[(i + 1) % len(in_game)], in_game[i - 1]
    return tuple(dict.fromkeys(s for s in (prey, predator) if s != action.actor))


def impulse_order(action: Action, in_game: Sequence[int]) -> tuple[int, ...]:
    """The order in which the impulse passes in ``action``'s windows (5.1, P1): the acting
    Methuselah, the defending ones (:func:`blockers`), then every other Methuselah clockwise from
    the actor's left (reading: the page gives no start). Two seats are each asked once."""
    rest = clockwise_after(action.actor, in_game)
    return tuple(dict.fromkeys([action.actor, *blockers(action, in_game), *rest]))


# --- announcing -----------------------------------------------------------------------------------


def _entering_life(w: Work, a: ActionAct) -> int:
    """The act's ``life`` (0: the card's printed life), checked: one its retainer or ally card may
    enter play with, played by the acting minion (:func:`engine.games.vtes.entering_life.lives`).
    Raises IllegalMove naming the lives it may have."""
    if a.life is None:
        return 0
    life = within(a.do, "life", a.life, low=1, high=20)
    rec = record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card is not None else None
    who = standing.at(w, a.minion)
    lives = entering_life.lives(rec, frozenset(who.disciplines) if who is not None else frozenset()) if rec else ()
    if a.kind not in (ActionKind.EMPLOY, ActionKind.RECRUIT) or rec is None or life not in lives:
        said = f"{esc(rec.name)} enters play with {' or '.join(map(str, lives))} life" if rec and lives else ""
        raise IllegalMove(said or "life is the life of the retainer or ally an action puts in play")
    return life


def _gains_pool(w: Work, a: ActionAct) -> bool:
    """The action's card says its Methuselah gains pool as it succeeds ("Gain 2 pool": Art Scam)."""
    rec = record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card is not None else None
    return rec is not None and any(e.kind == EffectKind.GAIN_POOL and not e.whom for e in rec.effects)


def _added_to(w: Work, a: ActionAct) -> None:
    """The vampire ``add_to`` an action card adds blood to as it succeeds: one of the author's
    uncontrolled region, or another ready vampire than the acting one, anyone's, where the card
    says "another vampire". Raises IllegalMove naming what it must be."""
    assert a.add_to is not None
    there = w.card(a.add_to)
    rec = record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card is not None else None
    if a.add_to == a.minion and rec is not None and rec.has(EffectKind.GAIN_BLOOD):
        return  # "This vampire gains 2 blood" (Restoration): the acting vampire, as it succeeds
    if rec is not None and any(e.kind == EffectKind.ADD_BLOOD and e.whom == ANOTHER for e in rec.effects):
        if not there.crypt or there.zone != Zone.READY or a.add_to == a.minion:
            raise IllegalMove(f"{esc(rec.name)} adds blood to another ready vampire than the acting one")
    elif there.zone != Zone.UNCONTROLLED or there.owner != w.author:
        raise IllegalMove("add_to names a vampire of your uncontrolled region")


def announce(w: Work, a: ActionAct) -> None:
    """Check and apply an ``action`` act (P2): the minion locks and window A opens."""
    within(a.do, "stealth", a.stealth, low=-10, high=20)
    within(a.do, "amount", a.amount, low=0, high=30)
    within(a.do, "cost_blood", a.cost_blood, low=0, high=30)
    within(a.do, "cost_pool", a.cost_pool, low=0, high=30)
    rescued = within(a.do, "cost_rescued", a.cost_rescued, low=0, high=30)
    add_blood = within(a.do, "add_blood", a.add_blood, low=0, high=30)
    gain_pool = within(a.do, "gain_pool", a.gain_pool, low=0, high=30)
    if gain_pool and a.kind != ActionKind.BLEED and not _gains_pool(w, a):
        raise IllegalMove("gain_pool is the pool a successful bleed or an action card that says so gives")
    draws = within(a.do, "draws", a.draws, low=0, high=10)
    if (a.unlock or draws) and a.card is None:
        raise IllegalMove("unlock is a card's: the acting minion unlocks as the action succeeds when its card says so")
    if (a.add_to is None) != (not add_blood):
        raise IllegalMove("add_blood and add_to go together: the blood a card adds, and the vampire it goes to")
    if a.add_to is not None:
        _added_to(w, a)
    if w.open_action is not None:
        raise IllegalMove(f"one action at a time: {action_words(w, w.open_action)} is still open")
    _nothing_under_way(w)
    if w.author != w.acting:
        raise IllegalMove(f"only the acting Methuselah ({seat_ref(w.acting)}) announces actions, in their minion phase")
    if w.phase != Phase.MINION:
        raise IllegalMove(f"actions are announced in your minion phase, and this is your {w.phase} phase")
    c = w.card(a.minion)
    name = w.name(a.minion)
    contests.check_in_play(w, a.minion)
    if c.controller != w.author or c.zone not in (Zone.READY, Zone.TORPOR) or not is_minion(w, a.minion):
        raise IllegalMove(f"{name} is not a minion you control")
    vampire = c.crypt
    if a.kind == ActionKind.LEAVE_TORPOR:
        if c.zone != Zone.TORPOR:
            raise IllegalMove(f"{name} is not in torpor: only a vampire in torpor leaves torpor")
    elif c.zone != Zone.READY:
        raise IllegalMove(f"{name} is in torpor: a vampire in torpor may only leave torpor")
    if not vampire and a.kind in _ALLY_NEVER:
        raise IllegalMove(
            f"{name} is an ally: allies never hunt, rescue, diablerise, leave torpor or take political actions"
        )
    if c.locked:
        w.refuse(Lift.LOCKED, f"{name} is locked: a locked minion cannot act")
    if a.minion in w.recruited:
        w.refuse(Lift.NEW_ALLY, f"{name} was recruited this turn and cannot act until your next turn")
    card_id = _check_card(w, a)
    if a.card is not None and a.kind in (ActionKind.RECRUIT, ActionKind.EQUIP, ActionKind.EMPLOY):
        contests.check_own_copy(w, a.card, w.author)  # a unique ally, retainer or equipment
    _check_once(w, a, name, card_id)
    _check_hunts(w, a)
    targets, target_card = _targets(w, a, name)
    directed = bool(targets)
    stealth = a.stealth
    if stealth is None:
        stealth = 0 if directed else DEFAULT_STEALTH[a.kind]
    amount = a.amount if a.amount is not None else (1 if a.kind in (ActionKind.BLEED, ActionKind.HUNT) else 0)
    # the card's printed cost by default; a card in play's action against itself costs nothing
    printed = w.info(a.card) if a.card is not None and not card_actions.gives(w, a.card) else None
    cost_blood = a.cost_blood
    if rescued and a.kind != ActionKind.RESCUE:
        raise IllegalMove("cost_rescued is the blood the rescued vampire pays: only a rescue has it")
    if cost_blood is None:
        cost_blood = printed.blood_cost if printed is not None and vampire else DEFAULT_COST.get(a.kind, 0)
        cost_blood = max(0, cost_blood - rescued)  # the rescue's cost split (_check_rescue_cost)
    _check_rescue_cost(w, target_card, rescued)
    cost_pool = a.cost_pool if a.cost_pool is not None else (printed.pool_cost if printed is not None else 0)
    if cost_blood and not vampire:
        raise IllegalMove(f"{name} is an ally: it pays no blood")
    if cost_blood > c.counters:
        raise IllegalMove(f"{name} has {c.counters} blood and this action costs {cost_blood}: it cannot pay")
    if cost_pool > w.p(w.author).pool:
        raise IllegalMove(f"this action costs {cost_pool} pool and you have {w.p(w.author).pool}")
    card: Pos | tuple[()] = ()
    if a.card is not None:
        card = a.card
        if w.cards[a.card].zone == Zone.HAND:
            w.move(a.card, Target.ASIDE)
            w.refill(w.author, a.card)
    if not c.locked:
        w.setc(a.minion, locked=True)
    end_limits(w, LimitScope.ACTION)  # a card played for the last action (Voter Captivation)
    w.done = (*w.done, Done(a.minion, a.kind, card_id))
    w.actions_taken += 1
    opened = Action(
        actor=w.author,
        minion=a.minion,
        kind=a.kind,
        card=card,
        targets=targets,
        target_card=target_card,
        stealth=stealth,
        amount=amount,
        cost_blood=cost_blood,
        cost_pool=cost_pool,
        window=Window.NO_ATTEMPT,
        cost_rescued=rescued,
        add_blood=add_blood,
        add_to=a.add_to if a.add_to is not None else (),
        gain_pool=gain_pool,
        unlocks=((a.minion, 0, card),) if a.unlock and card else (),
        draws=draws,
        life=_entering_life(w, a),
    )
    opened = replace(opened, loop=windows.loop(impulse_order(opened, w.in_game()), w.in_game()))
    windows.put(w, opened)
    who = blockers(opened, w.in_game())
    able = [s for s in who if _has_blocker(w, s)]  # a locked minion never blocks (4.2)
    may = " or ".join(seat_ref(s) for s in able) if able else "nobody"
    w.note(f"Stealth {stealth}; {may} may block", w.author, *who)


def _has_blocker(w: Work, seat: int) -> bool:
    """``seat`` controls a ready unlocked minion, which may attempt to block (4.2)."""
    return any(
        c.controller == seat and c.zone == Zone.READY and not c.locked and is_minion(w, p) for p, c in w.cards.items()
    )


def is_minion(w: Work, pos: Pos) -> bool:
    """A vampire or an ally (1.1)."""
    c = w.cards[pos]
    if c.crypt:
        return True
    info = w.info(pos)
    return info is not None and "Ally" in info.types


def _check_rescue_cost(w: Work, target_card: Pos | tuple[()], rescued: int) -> None:
    """The rescued vampire's share of a rescue's cost: "2 blood, which can be paid by the acting
    vampire or the rescued vampire, or the cost may be split between them" (rulebook, "Rescue a
    Vampire from Torpor"); each pays from its own blood."""
    if rescued and target_card:
        held = w.cards[target_card].counters
        if rescued > held:
            raise IllegalMove(
                f"{w.name(target_card)} has {held} blood and would pay {rescued} of its rescue: it cannot pay "
                '(rulebook, "Rescue a Vampire from Torpor": each pays its share from its own blood)'
            )


def _check_card(w: Work, a: ActionAct) -> int:
    """The action card's krcg id (0: none); checks where it is and its type. A political action
    needs a political action card (from hand, or a card in play that gives the action): of the
    basic actions only bleed and hunt "do not require the play of action cards", and a political
    action's cost is "as listed on the political action card" (rulebook, 3. Minion Phase, "Types
    of Actions" and "Political Action"); equip from another minion, leave torpor, rescue and
    diablerie are the other basic actions the rulebook lists without a card."""
    if a.card is None:
        if a.kind in _NEED_CARD:
            raise IllegalMove(
                f"a {a.kind} action needs its card: name the {'ally' if a.kind == ActionKind.RECRUIT else 'retainer'} from your hand"
            )
        if a.kind == ActionKind.POLITICAL:
            raise IllegalMove(
                "a political action needs its political action card: name it from your hand, or the card in play "
                'that gives the action (rulebook, "Political Action": cost as listed on the political action card; '
                'only bleed and hunt "do not require the play of action cards")'
            )
        return 0
    cc = w.card(a.card)
    if cc.zone == Zone.HAND:
        if cc.owner != w.author:
            raise IllegalMove("that card is not in your hand")
        info = w.info(a.card)
        if info is not None and not set(info.types) & ACTION_TYPES:
            w.refuse(Lift.TIMING, f"{esc(info.name)} is not an action card ({', '.join(info.types)})")
        elif info is not None and a.kind == ActionKind.POLITICAL and "Political Action" not in info.types:
            w.refuse(
                Lift.TIMING,
                f"{esc(info.name)} is not a political action card ({', '.join(info.types)}): a political action "
                'is taken with one (rulebook, "Political Action")',
            )
        check_requirements(w, a.card, a.minion)
    elif not cc.zone.in_play:
        raise IllegalMove("the card of an action comes from your hand or is a card in play")
    info = w.info(a.card)
    return info.id if info is not None else 0


def _check_once(w: Work, a: ActionAct, name: str, card_id: int) -> None:
    """The per-turn limits of 2.1."""
    mine = [d for d in w.done if d.minion == a.minion]
    barred = mine + [  # a card that bars every minion of the acting Methuselah (Delaying Tactics)
        d
        for d in w.done
        if d not in mine and d.no_repeat and w.cards[d.minion].controller == w.author and bars_every_minion(d.no_repeat)
    ]
    if a.kind == ActionKind.BLEED and any(d.kind == ActionKind.BLEED for d in mine):
        w.refuse(
            Lift.ONCE,
            f'{name} has already bled this turn: "A minion cannot perform more than one bleed action each turn, '
            'even if they unlock" (rulebook, "Bleed")',
        )
    if a.kind == ActionKind.POLITICAL and any(d.kind == ActionKind.POLITICAL for d in mine):
        w.refuse(Lift.ONCE, f"{name} has already taken a political action this turn")
    for d in barred:
        if d.no_repeat and d.kind == a.kind and d.card == card_id:
            info = card_base().info(d.no_repeat)
            w.refuse(
                Lift.ONCE,
                f"{name} cannot perform the same action ({a.kind}) again this turn: "
                f"{esc(info.name) if info else 'a card'} ended it and says so",
            )
    if card_id and any(d.card == card_id for d in mine):
        info = card_base().info(card_id)
        w.refuse(Lift.ONCE, f"{name} has already acted with {esc(info.name) if info else 'that card'} this turn")


def hunts_due(w: Work, seat: int) -> list[Pos]:
    """``seat``'s ready unlocked vampires with no blood: each must hunt (2.2; :func:`state.hunts_due`)."""
    return must_hunt(w.cards.values(), seat)


def _check_hunts(w: Work, a: ActionAct) -> None:
    due = hunts_due(w, w.author)
    if due and not (a.kind == ActionKind.HUNT and a.minion in due):
        names = " and ".join(w.name(p) for p in due)
        w.refuse(Lift.HUNT, f"{names} {'has' if len(due) == 1 else 'have'} no blood and must hunt first (2.2)")


def _nothing_under_way(w: Work) -> None:
    """Refuse while a combat or a referendum is under way (P1: it belongs to the action)."""
    if w.open_combat is not None:
        raise IllegalMove("a combat is under way: it ends first")
    if w.open_referendum is not None:
        raise IllegalMove("a referendum is under way: it resolves first")
    if w.open_answer is not None:
        raise IllegalMove(f"{w.name(w.open_answer.card)} waits for the others' answers: it resolves first")


def check_windows_closed(w: Work) -> None:
    """Refuse moving the turn on with an action, a combat or a referendum under way, in any phase
    (P1, P2: the window is resolved first)."""
    if w.open_action is not None:
        raise IllegalMove(f"{action_words(w, w.open_action)} is still open: it resolves first")
    _nothing_under_way(w)


def check_leave_minion_phase(w: Work) -> None:
    """Refuse ending the minion phase with an action, a combat or a referendum under way, or a
    mandatory hunt due (P2)."""
    check_windows_closed(w)
    due = hunts_due(w, w.acting)
    if due:
        names = " and ".join(w.name(p) for p in due)
        w.refuse(
            Lift.HUNT,
            f"{names} {'has' if len(due) == 1 else 'have'} no blood and must hunt before the minion phase ends (2.2)",
        )


def _targets(w: Work, a: ActionAct, name: str) -> tuple[tuple[int, ...], Pos | tuple[()]]:
    """The targeted Methuselahs and the targeted card of an announcement (1.2, §3)."""
    actor = w.author
    if a.kind == ActionKind.BLEED:
        prey = w.prey(actor)
        target = prey if a.target is None else a.target
        if target == actor:
            raise IllegalMove("a minion cannot bleed its own controller")
        if not 0 <= target < w.seats or w.p(target).status != Status.IN:
            raise IllegalMove(f"there is no Methuselah {target} in the game to bleed")
        if target != prey:
            w.refuse(Lift.TARGET, f"{name} may bleed only your prey, {seat_ref(prey)}")
        return (target,), ()
    if a.kind in (ActionKind.RESCUE, ActionKind.DIABLERISE):
        if a.target_card is None:
            raise IllegalMove(f"a {a.kind} action names the vampire in torpor (target_card)")
        v = w.card(a.target_card)
        if not v.crypt or v.zone != Zone.TORPOR:
            raise IllegalMove(
                f"{w.name(a.target_card)} is not in torpor: only a vampire in torpor is rescued or diablerised"
            )
        return ((v.controller,) if v.controller != actor else ()), a.target_card
    given = card_actions.announced(w, a)  # a card in play's action against itself
    if given is not None:
        if a.target is not None and (a.target,) != given[0]:
            raise IllegalMove(f"the target of an action against {w.name(given[1])} is its controller")
        return given
    rushed = carried_moves.check_target(w, a.card, a.target_card)  # Bum's Rush: the minion it fights
    if rushed is not None:
        if a.target is not None and (a.target,) != rushed[0]:
            raise IllegalMove(f"the target of an action that enters combat with {w.name(rushed[1])} is its controller")
        return rushed
    if a.burn:
        targets, card = _burned(w, a)
        if a.target is not None and (a.target,) != targets:
            raise IllegalMove(f"the target of an action that burns {w.name(card)} is its controller")
        return targets, card
    if a.target is not None and a.kind in _UNTARGETED:
        raise IllegalMove(f"a {a.kind} action is undirected: it targets no Methuselah")
    if a.kind == ActionKind.EQUIP and a.target_card is not None:
        e = w.card(a.target_card)
        if e.zone != Zone.ON or e.controller != actor:
            raise IllegalMove(f"{w.name(a.target_card)} is not equipment on another minion you control")
        return (), a.target_card
    if a.target is not None:
        if a.target == actor or not 0 <= a.target < w.seats or w.p(a.target).status != Status.IN:
            raise IllegalMove("the target of a directed action is another Methuselah in the game")
        return (a.target,), ()
    return (), ()


def _burned(w: Work, a: ActionAct) -> tuple[tuple[int, ...], Pos]:
    """An action card's "Ⓓ Burn an equipment/location": ``target_card`` is a card in play of a kind
    its card burns (controlled by the actor's predator or prey where it says so); its controller,
    if another Methuselah, is the target. Raises IllegalMove with the sentence."""
    rec = record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card is not None else None
    said = [e.whom for e in (rec.effects if rec is not None else ()) if e.kind == EffectKind.BURN and e.whom]
    if a.kind != ActionKind.OTHER or a.target_card is None or not said:
        raise IllegalMove("burn is an action card's: it names the card it burns (target_card)")
    target = w.card(a.target_card)
    kind = record(target.card or w.revealed.get(a.target_card, ""))
    if not target.zone.in_play or kind is None or not any(burnable(kind, whom) for whom in said):
        raise IllegalMove(f"{w.name(a.target_card)} is not a card in play this card burns ({' or '.join(said)})")
    near = (w.prey(w.author), w.predator(w.author))
    if all("(predator or prey)" in whom for whom in said) and target.controller not in near:
        raise IllegalMove(f"{w.name(a.target_card)} is not controlled by your predator or prey")
    return ((target.controller,) if target.controller != w.author else ()), a.target_card


# --- the windows ----------------------------------------------------------------------------------


def open_action(w: Work) -> Action:
    """The open action. Raises IllegalMove when none is open."""
    a = w.open_action
    if a is None:
        raise IllegalMove("there is no open action")
    return a


def holds_impulse(w: Work, a: Action, what: str) -> None:
    """Raise IllegalMove unless the act's author holds ``a``'s impulse (5.1)."""
    w.must_hold_impulse(a.impulse, what)


def _passed(w: Work, window: OpenWindow) -> Action | None:
    """What a ``pass`` means in an action (P1, P3): in window A an entitled Methuselah's pass is
    its final decline; after a blocked leave torpor, declining to diablerise ends the action."""
    assert isinstance(window, Action)
    a = window
    if a.window == Window.DIABLERIE:
        _decline_diablerie(w, a)
        return None
    if a.window == Window.NO_ATTEMPT and w.author in blockers(a, w.in_game()) and w.author not in a.declined:
        a = replace(a, declined=(*a.declined, w.author))
    if w.author in a.applying:  # the rest of its card is applied (or left): its passes are ordinary again
        a = replace(a, applying=tuple(s for s in a.applying if s != w.author))
    return a


def _decline_diablerie(w: Work, window: OpenWindow) -> None:
    """6.2: the blocking vampire's controller does not diablerise: the action fails, no cost paid."""
    assert isinstance(window, Action)
    windows.pop(w, window)
    w.note(
        f"{seat_ref(window.impulse)} declines to diablerise: {action_words(w, window)} fails, no cost paid",
        window.actor,
    )
    after_action(w)


def _close_window(w: Work, window: OpenWindow) -> None:
    """All have passed in order with no play since (P1): window A closes with no block (C
    opens), window B resolves the block attempt, window C closes with the action's success."""
    assert isinstance(window, Action)
    a = window
    match a.window:
        case Window.NO_ATTEMPT:
            windows.put(w, windows.returned(replace(a, window=Window.DECLINED), w.in_game()))
            w.note("No block: every Methuselah has passed; the impulse returns to the acting Methuselah", a.actor)
        case Window.ATTEMPT:
            assert a.blocker
            if a.blocks and a.end_if_blocked:
                end_if_blocked(w, a)
            elif a.blocks:
                _blocked(w, a)
            else:
                w.note(
                    f"The block by {w.name(a.blocker)} fails: intercept {a.intercept} against stealth {a.stealth}; "
                    "another attempt can be made as often as the blocking Methuselah wishes (rulebook, "
                    '"Who May Attempt to Block")',
                    a.actor,
                )
                tried = (*a.tried, a.blocker)
                failed = replace(a, window=Window.NO_ATTEMPT, blocker=(), tried=tried, intercept=0)
                windows.put(w, windows.returned(failed, w.in_game()))
        case Window.DECLINED:
            succeed(w, a)
        case Window.DIABLERIE:
            _decline_diablerie(w, a)


def block(w: Work, b: BlockAct, anyone: bool = False) -> None:
    """A ``block`` attempt (P3): window A, on the impulse of an entitled Methuselah that has not
    declined, with a ready unlocked minion of its own; window B opens. The rulebook ("Who May
    Attempt to Block"): "A minion can attempt to block as many times as they wish as long as
    another minion is not already blocking. If one attempt to block fails, another can be made as
    often as the blocking Methuselah wishes": a minion whose attempt failed may try again
    (``Action.tried`` only records it); a Methuselah's decision to make no further attempt is final.
    ``anyone``: a card lets ``b.minion`` attempt it whoever may block by default (Eagle's Sight:
    "ignoring the normal prey, predator or target restrictions")."""
    intercept = within(b.do, "intercept", b.intercept, low=-10, high=20)
    a = open_action(w)
    if w.author == a.actor:
        raise IllegalMove("you cannot block your own action")
    if a.window == Window.ATTEMPT:
        raise IllegalMove(
            "a block attempt is under way: a minion can attempt to block as long as another minion is not "
            'already blocking (rulebook, "Who May Attempt to Block")'
        )
    if a.window == Window.DECLINED:
        raise IllegalMove("every blocker has declined: blocking is over unless the target changes")
    if a.window == Window.DIABLERIE:
        raise IllegalMove("this action is blocked already: nobody blocks it now")
    entitled = blockers(a, w.in_game())
    if w.author not in entitled and not anyone:
        who = " or ".join(seat_ref(s) for s in entitled) or "nobody"
        kind = "the targeted Methuselah" if a.directed else "the prey and the predator"
        raise IllegalMove(f"only {kind} ({who}) may block this action (4.2)")
    if w.author in a.declined:
        raise IllegalMove(
            'you declined to block this action: that is final unless the target changes (rulebook, "Who May '
            'Attempt to Block": once a Methuselah decides not to make any further attempts to block, that '
            "decision is final)"
        )
    # Who may block at all comes before whose impulse it is: a Methuselah who may never block this
    # action hears that, not that the impulse has still to reach it.
    if w.lift != Lift.LOCKED and not any(
        c.controller == w.author and c.zone == Zone.READY and (not c.locked or pos in a.woken) and is_minion(w, pos)
        for pos, c in w.cards.items()
    ):
        raise IllegalMove(
            "you have no ready, unlocked minion to block with: only a ready, unlocked minion may attempt to "
            'block (rulebook, "Who May Attempt to Block")'
        )
    holds_impulse(w, a, "block")
    c = w.card(b.minion)
    name = w.name(b.minion)
    contests.check_in_play(w, b.minion)
    if c.controller != w.author or c.zone not in (Zone.READY, Zone.TORPOR) or not is_minion(w, b.minion):
        raise IllegalMove(f"{name} is not a minion you control")
    if c.zone != Zone.READY:
        raise IllegalMove(f"{name} is in torpor: a minion in torpor cannot block")
    if b.minion in a.barred:
        raise IllegalMove(f"{name} cannot attempt to block this action: a card played in it says so")
    if a.vampires_barred and c.crypt:
        raise IllegalMove(f"{name} is a vampire, and a card played in this action says vampires cannot block it")
    if c.locked and b.minion not in a.woken:
        w.refuse(Lift.LOCKED, f"{name} is locked: only an unlocked minion blocks (or one a card woke)")
    barred = lasting.barred_from_blocking(w, b.minion)
    if barred is not None:
        raise IllegalMove(f"{name} cannot block: {w.name(barred)} is on it")
    for pos, n in lasting.carried_intercept(w, b.minion) + events.ally_intercept(w, b.minion, a.minion):
        intercept += n
        w.note(f"{w.name(pos)}: +{n} intercept to {name}", w.author)
    if a.weaken and blocker_weakened(w, a, b.minion):  # Perfect Paragon, for the rest of the action
        intercept -= a.weaken
        w.note(f"{name} gets -{a.weaken} intercept: allies and younger vampires do, this action", w.author)
    attempt = replace(a, window=Window.ATTEMPT, blocker=b.minion, intercept=intercept)
    windows.put(w, windows.returned(attempt, w.in_game()))


def blocker_weakened(w: Work, a: Action, blocker: Pos) -> bool:
    """``blocker`` is an ally or a vampire younger than ``a``'s acting one (a card's "Allies and
    younger vampires get -1 intercept")."""
    theirs, acting = w.info(blocker), w.info(a.minion)
    if theirs is None or not w.cards[blocker].crypt:
        return True
    return acting is not None and theirs.capacity < acting.capacity


def end_if_blocked(w: Work, a: Action) -> None:
    """A block that would succeed on an action a card keeps "if this action is blocked, lock the
    blocking minion and end the action before block resolution" (``Action.end_if_blocked``, Mirror
    Walk): the blocker locks, the action ends unsuccessfully with no cost and no combat, its
    set-aside card to the ash heap; the acting minion stays locked."""
    assert a.blocker and a.end_if_blocked
    windows.pop(w, a)
    if a.card and w.cards[a.card].zone == Zone.ASIDE:
        w.move(a.card, Target.ASH)
    w.setc(a.blocker, locked=True)
    w.note(
        f"{w.name(a.end_if_blocked)}: {w.name(a.blocker)} would block {w.name(a.minion)}; it locks, and "
        f"{action_words(w, a)} ends unsuccessfully before block resolution",
        a.actor,
        w.cards[a.blocker].controller,
    )
    after_action(w)


def _blocked(w: Work, a: Action) -> None:
    """P4, blocked: the set-aside card to its owner's ash heap, the blocker locks, combat."""
    assert a.blocker
    before_resolution(w, a)
    blocker = w.cards[a.blocker]
    if a.card and w.cards[a.card].zone == Zone.ASIDE:
        w.move(a.card, Target.ASH)
    w.setc(a.blocker, locked=True)
    w.blocks += 1
    windows.pop(w, a)
    resolved(w, Outcome.BLOCKED)
    name, bname = w.name(a.minion), w.name(a.blocker)
    if a.kind == ActionKind.LEAVE_TORPOR:
        # 6.2: no combat; a vampire blocker may diablerise the actor, else the action fails.
        if blocker.crypt:
            windows.put(w, replace(a, window=Window.DIABLERIE, loop=windows.only(blocker.controller)))
            w.note(
                f"{bname} blocks {name}'s attempt to leave torpor: no combat; {seat_ref(blocker.controller)} "
                "diablerises it, or passes to decline",
                blocker.controller,
                a.actor,
            )
            return
        w.note(f"{bname} blocks {name}'s attempt to leave torpor: the action fails", blocker.controller, a.actor)
    else:
        w.note(f"{bname} blocks {name}: the action fails", blocker.controller, a.actor)
        combat.open_combat(w, a.minion, a.blocker, carried_moves.at_block(w, a))
        return
    after_action(w)


def diablerise_blocked(w: Work, act: DiableriseAct) -> None:
    """6.2: the blocking vampire's controller diablerises the vampire whose leave torpor it
    blocked (6.3), taking its equipment unless ``take`` is false; a blood hunt follows (6.4)."""
    a = open_action(w)
    if a.window != Window.DIABLERIE:
        raise IllegalMove("a vampire diablerises as an action, or after blocking a vampire leaving torpor")
    holds_impulse(w, a, "diablerise")
    assert a.blocker
    windows.pop(w, a)
    text = diablerie(w, a.blocker, a.minion, act.take is not False)
    w.note(f"{w.name(a.blocker)} diablerises {w.name(a.minion)}{text}", w.author, a.actor)
    politics.open_blood_hunt(w, a.blocker)


def settle_action(w: Work) -> None:
    """After any act: an action whose acting Methuselah left the game, or whose acting minion is
    gone, ends unresolved, with no effect (the impulse of a Methuselah who left moves on in
    :func:`windows.settle`)."""
    a = w.open_action
    if a is None:
        return
    minion = w.cards.get(a.minion)
    actor_gone = w.p(a.actor).status != Status.IN
    if actor_gone or minion is None or minion.zone not in (Zone.READY, Zone.TORPOR):
        windows.pop(w, a)
        if a.card and a.card in w.cards and w.cards[a.card].zone == Zone.ASIDE:
            w.move(a.card, Target.ASH)
        if actor_gone:
            w.note(f"{seat_ref(a.actor)} has left the game: their action ends unresolved, with no effect", a.actor)
        else:
            w.note("The acting minion is gone: the action ends with no effect", a.actor)


def _absent(w: Work, window: OpenWindow, seat: int) -> str:
    """A Methuselah gone from the game passes; in window A, one who could block declines (4.2)."""
    assert isinstance(window, Action)
    there = tuple(s for s in w.seating if s == seat or w.p(s).status == Status.IN)
    if window.window == Window.NO_ATTEMPT and seat in blockers(window, there):
        return "declines to block"
    return "passes"


windows.register(
    Action,
    windows.Kind(close=_close_window, passed=_passed, left=_decline_diablerie, upkeep=settle_action, absent=_absent),
)
