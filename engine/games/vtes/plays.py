"""Plays and adjustments inside an open action, and its end by a card (shared/rules/vtes-actions.md
§2, 4.3, 4.6, P2, P4, P8): which card may be played in which window, on whose impulse, and the
changes a play or an ``adjust`` makes to the action's stealth, intercept, amount or target.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import (
    actions,
    bleed_burns,
    blood_intercept,
    combat,
    combat_plays,
    politics,
    referendum_cancels,
    referendum_gains,
    standing,
    windows,
)
from engine.games.vtes.act_records import ActionEndAct, AdjustAct, BlockAct, PlayAct, TransferAct
from engine.games.vtes.action_success import action_words, after_action, resolved_last
from engine.games.vtes.actions import blocker_weakened, holds_impulse, impulse_order, is_minion, open_action
from engine.games.vtes.acts import esc, within
from engine.games.vtes.cancel_reading import waiting
from engine.games.vtes.card_checks import check_requirements, master_timing, missing_cancel, missing_target, take_limit
from engine.games.vtes.card_effects import EACH, READY, YOUNGER_OR_ALLY, EffectKind
from engine.games.vtes.card_play import played_with, unmet_condition, unmet_level_condition
from engine.games.vtes.card_record import CardRecord, Coverage, Timing, record
from engine.games.vtes.causes import own_cause
from engine.games.vtes.claims import in_the_open, own_source
from engine.games.vtes.poll_cancel_reading import cancels
from engine.games.vtes.reaction_conditions import Moment, unmet
from engine.games.vtes.state import Action, Answer
from engine.games.vtes.vocab import (
    ACTION_TYPES,
    ACTION_VERBS,
    MODIFIER,
    REACTION,
    ActionKind,
    Do,
    Lift,
    LimitScope,
    Phase,
    Status,
    Target,
    TransferKind,
    Window,
    Zone,
)
from engine.games.vtes.work import Work


@dataclass(frozen=True)
class Numbers:
    """Changes to the open action's numbers that a ``play`` or an ``adjust`` makes (4.3, 4.6,
    P8): signed deltas of ``stealth``, ``intercept`` and ``amount``; ``target``: a new target
    (a redirected bleed), or None."""

    stealth: int = 0
    intercept: int = 0
    amount: int = 0
    target: int | None = None

    @classmethod
    def of(cls, act: PlayAct | AdjustAct) -> Numbers:
        """The action fields of a ``play`` or ``adjust``. Raises IllegalMove for a number out of
        range."""
        return cls(
            stealth=within(act.do, "stealth", act.stealth, low=-10, high=10),
            intercept=within(act.do, "intercept", act.intercept, low=-10, high=10),
            amount=within(act.do, "amount", act.amount, low=-30, high=30),
            target=act.target,
        )

    def __bool__(self) -> bool:
        return bool(self.stealth or self.intercept or self.amount or self.target is not None)


def check_play(w: Work, pos: Pos, act: PlayAct) -> None:
    """Check a card played from hand against the §2 table and the open action's impulse (P1, P2):
    outside an action, no action card, action modifier or reaction; in combat, combat cards on the
    impulse (5.2); in a referendum, before votes on the impulse (in a blood hunt no action modifier nor
    reaction, rulebook "The Blood Hunt"); inside an action, only on the
    impulse, an action modifier by the acting Methuselah, a reaction by another with a ready
    unlocked minion, once per minion and action (2.1), one "+bleed" modifier per bleed (4.6); a
    combat card only in combat; a modifier or reaction only by a minion that meets the card's
    requirements (its clan, Discipline, title, capacity: :mod:`engine.games.vtes.card_checks`)."""
    info = w.info(pos)
    types = set(info.types) if info is not None else set()
    name = esc(info.name) if info is not None else "that card"
    numbers = Numbers.of(act)
    changes_action = (
        numbers
        or act.bleed_mod
        or act.lock
        or act.wake
        or act.fail_block
        or act.lock_failed
        or act.wake_cost
        or act.block
        or act.end_if_blocked
    ) or (act.bar is not None or act.bar_vampires or act.end_action or act.unlock_actor)
    a = w.open_action
    _master_timing(w, pos)
    standing.check_put(w, pos, act.on)
    _target_exists(w, pos)
    if isinstance(w.innermost, Answer):  # a cancel, in the card's "as played" time: cancels.check_answer
        return
    if (burner := record(w.cards[pos].card or w.revealed.get(pos, ""))) is not None:
        bleed_burns.check(w, burner, name)
    in_combat = w.open_combat is not None and w.innermost is w.open_combat
    in_referendum = w.open_referendum is not None and w.innermost is w.open_referendum
    if act.votes is not None and not in_referendum:
        raise IllegalMove(f"{name} gives votes while a referendum polls, and none is open")
    if combat_plays.carries(act) and not in_combat:
        raise IllegalMove(f"{name} changes a combat, and no combat is under way (§2)")
    if in_combat or in_referendum:
        if changes_action:
            raise IllegalMove("there is no open action for this card to change")
        if in_combat:
            combat.play_in_combat(w, pos, types, name, act)
        else:
            _in_referendum(w, pos, types, name, act.minion)
            politics.play_before_votes(w, types, name)
            if act.votes is not None:
                politics.card_votes(w, pos, act, name)
            elif (rec := record(w.cards[pos].card or w.revealed.get(pos, ""))) and cancels(rec):
                referendum_cancels.cancel(w, rec, name, act.minion)
        return
    if a is None:
        if changes_action:
            raise IllegalMove("there is no open action for this card to change")
        if MODIFIER in types and _after_resolution(w, pos, act, name):
            return
        if act.unlock:
            raise IllegalMove(f"{name} unlocks no minion now: an action modifier does, after its action resolved")
        if types and types <= {MODIFIER, REACTION}:
            w.refuse(Lift.TIMING, f"{name} is played during an action: {_timing_words(types)}")
        elif types & ACTION_TYPES and not types & {MODIFIER, REACTION}:
            w.refuse(Lift.TIMING, f"{name} is an action card: announce it as a minion's action in your minion phase")
        elif "Combat" in types:
            w.refuse(Lift.TIMING, _combat_words(name))
        return
    holds_impulse(w, a, "play a card")
    minion = act.minion
    if types & ACTION_TYPES and not types & {MODIFIER, REACTION}:
        w.refuse(Lift.TIMING, f"{name} is an action card: it cannot be played during another action")
    elif "Combat" in types and not types & {MODIFIER, REACTION}:
        w.refuse(Lift.TIMING, _combat_words(name))
    elif types & {MODIFIER, REACTION} and not types - {MODIFIER, REACTION, "Combat"}:
        as_modifier = MODIFIER in types and w.author == a.actor
        as_reaction = REACTION in types and w.author != a.actor
        if not as_modifier and not as_reaction:
            w.refuse(Lift.TIMING, f"{name} is {_timing_words(types)}")
        elif as_modifier:
            if minion is not None and w.cards.get(minion, None) is not None and w.cards[minion].controller != a.actor:
                raise IllegalMove(f"{name} is played on the acting minion, or another minion of the acting Methuselah")
            minion = minion if minion is not None else a.minion
            _by_other(w, pos, a, minion, name)
            _condition_met(w, pos, a, name, minion)
        else:
            # A reaction is played by a ready unlocked minion (or one a card woke), or by a locked one
            # where the card says it is "only usable by a locked" minion (its record's requirement)
            # or wakes it.
            rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
            by_locked = bool(act.wake or act.unlock) or (rec is not None and rec.requires.locked)
            either = not by_locked and rec is not None and rec.requires.locked_too  # "usable by a locked" one too
            state = "locked " if by_locked else "" if either else "unlocked "
            ready = [
                p
                for p, c in w.cards.items()
                if c.controller == w.author
                and c.zone == Zone.READY
                and (c.locked == by_locked or either or (not by_locked and p in a.woken))
                and is_minion(w, p)
            ]
            if minion is None and len(ready) == 1:
                minion = ready[0]
            if minion is not None and minion not in ready:
                w.refuse(Lift.LOCKED, f"{w.name(minion)} cannot play {name}: it needs a ready {state}minion of yours")
            elif not ready:
                w.refuse(Lift.LOCKED, f"{name} needs a ready {state}minion of yours to play it, and you have none")
            _reaction_condition_met(w, pos, a, name, minion)
        rec = record(info.id) if info is not None else None
        other = played_with(rec, a) if rec is not None else None
        if other is not None:
            w.refuse(Lift.ONCE, f"{name} and {esc(other)} cannot both be played during the same action")
        if rec is not None:
            _once_an_action(w, rec, a, name)
        if minion is not None and info is not None:
            if (minion, info.id) in a.played:
                w.refuse(Lift.ONCE, f"{w.name(minion)} has already played {name} in this action (2.1)")
            a = replace(a, played=(*a.played, (minion, info.id)))
            if (rec is None or rec.coverage != Coverage.FULLY) and w.author not in a.applying:
                a = replace(a, applying=(*a.applying, w.author))
    if act.bleed_mod:
        if a.kind != ActionKind.BLEED:
            raise IllegalMove("'+bleed' marks a modifier that increases a bleed, and this action is not a bleed")
        if a.bleed_mods:
            raise IllegalMove("another action modifier already increases this bleed: a second is refused (4.6)")
        a = replace(a, bleed_mods=a.bleed_mods + 1)
    windows.put(w, a)
    # A reaction's "unlock and attempt to block with +2 intercept": its intercept is the block's.
    block_with = numbers.intercept if act.unlock and w.author != a.actor and a.window == Window.NO_ATTEMPT else None
    _apply_numbers(w, replace(numbers, intercept=0) if block_with is not None else numbers, name)
    if minion is not None and types & {MODIFIER, REACTION}:
        check_requirements(w, pos, minion)
    if act.lock:
        _lock(w, minion, name)
    if act.wake:
        _wake(w, minion, name, act.wake_cost or 0)
    elif act.wake_cost:
        raise IllegalMove(f"{name}: a blood to burn unless the minion blocks goes with the wake of that minion")
    if act.lock_failed:
        _lock_failed(w, name)
    if act.bar is not None or act.bar_vampires:
        _bar(w, act.bar, name)
    if act.fail_block:
        _fail_block(w, name)
    if act.unlock and w.author == a.actor:
        _unlock_on_success(w, pos, minion, name)
    elif act.unlock:
        _unlock_to_block(w, minion, name, types)
        if block_with and minion is not None:
            actions.block(w, BlockAct(do=Do.BLOCK, minion=minion, intercept=block_with))
            w.note(f"{name}: {w.name(minion)} attempts to block with +{block_with} intercept", w.author, a.actor)
    if numbers.intercept < 0 and w.author == a.actor:
        _weaken(w, pos, -numbers.intercept, name)
    if act.block:
        _attempts_block(w, pos, minion, name)
    if act.end_if_blocked:
        _end_if_blocked(w, pos, minion, name)
    if act.end_action:
        _ended_by_card(w, name, bool(act.unlock_actor))
        ending = record(info.id) if info is not None else None
        if ending is not None and ending.has(EffectKind.NO_REPEAT) and w.done:  # "… the same action again this turn"
            w.done = (*w.done[:-1], replace(w.done[-1], no_repeat=ending.id))
            w.note(f"{name}: {w.name(a.minion)} cannot perform the same action again this turn", a.actor, w.author)
        return
    if act.unlock_actor:
        raise IllegalMove(f"{name}: the acting minion unlocks with the end of the action that card makes")
    windows.put(w, windows.returned(open_action(w), w.in_game()))


def _once_an_action(w: Work, rec: CardRecord, a: Action, name: str) -> None:
    """Refuse (liftable) a card whose text says "Only one X can be played each action" when one
    was played in the open action ``a``, in the card's words."""
    for limit in rec.requires.limits:
        if limit.scope == LimitScope.ACTION and not limit.minion and any(c == rec.id for _, c in a.played):
            w.refuse(Lift.ONCE, f'{name} says "{limit.words}": one has been played in this action')


def _condition_met(w: Work, pos: Pos, a: Action, name: str, minion: Pos) -> None:
    """An action modifier's "Only usable …" or "Not usable …" condition that the open action does
    not meet now (its kind, its target, a block attempt under way:
    :func:`engine.games.vtes.card_play.unmet_condition`; one of the card's, or one of each level
    ``minion`` may play: Shroud of Night's "[obt] +1 stealth, not usable during a bleed action")
    is refused with the card's sentence (rulebook, "Requirements for Playing Cards")."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    who = w.info(minion)
    unmet = unmet_condition(rec, a) if rec is not None else None
    if unmet is None and rec is not None and who is not None:
        unmet = unmet_level_condition(rec, a, frozenset(who.disciplines))
    if unmet is not None:
        now = f"{w.name(a.minion)} {ACTION_VERBS[a.kind]}" + (
            ", no block attempt under way" if a.window != Window.ATTEMPT else ""
        )
        w.refuse(Lift.TIMING, f'{name} says "{unmet}", and this action does not meet it ({now})')


def _reaction_condition_met(w: Work, pos: Pos, a: Action, name: str, minion: Pos | None) -> None:
    """A reaction's "Only usable …" sentence that the open action does not meet for its player
    (a bleed at them, an action directed at them, their minion blocking, their right to block:
    :func:`engine.games.vtes.reaction_conditions.unmet`, at the levels ``minion`` may play) is
    refused with the card's sentence, as the offers leave the card out (rulebook, "Requirements
    for Playing Cards")."""
    info = w.info(pos)
    if info is None:
        return

    def owner(p: Pos | tuple[()]) -> int | None:
        return w.cards[p].controller if p and p in w.cards else None

    seat = w.author
    entitled = seat in actions.blockers(a, w.in_game()) and seat not in a.declined
    locked = any(
        c.controller == seat and c.zone == Zone.READY and c.locked and is_minion(w, p) for p, c in w.cards.items()
    )
    moment = Moment.of(a.kind, a.targets, owner(a.target_card), owner(a.blocker), entitled, locked, seat)
    who = w.info(minion) if minion is not None else None
    sentence = unmet(info.text, moment, frozenset(who.disciplines) if who is not None else None)
    if sentence is not None:
        now = f"{w.name(a.minion)} {ACTION_VERBS[a.kind]}"
        w.refuse(
            Lift.TIMING,
            f'{name} says "{sentence[:1].upper() + sentence[1:]}", and this action does not meet it ({now})',
        )


def _by_other(w: Work, pos: Pos, a: Action, minion: Pos, name: str) -> None:
    """An action modifier "only usable by a ready unlocked vampire other than the acting minion"
    (its record's requirement) played by the acting minion, or by a vampire that is not ready
    and unlocked: refused (liftable) with the card's words."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None or not rec.requires.other:
        return
    c = w.card(minion)
    if minion == a.minion or c.zone != Zone.READY or c.locked or not c.crypt:
        w.refuse(
            Lift.REQUIREMENT,
            f"{name} is only usable by a ready unlocked vampire other than the acting minion, "
            f"and {w.name(minion)} is not one",
        )


def _unlock_on_success(w: Work, pos: Pos, minion: Pos | None, name: str) -> None:
    """An action modifier's "unlock this vampire after action resolution if this action is
    successful" (burning the blood it says): recorded on the open action, applied as it succeeds
    (:mod:`engine.games.vtes.action_success`). Raises IllegalMove for a card that says no such
    thing."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    said = [e for e in (rec.effects if rec is not None else ()) if e.kind == EffectKind.UNLOCK and e.whom == "success"]
    if not said or minion is None:
        raise IllegalMove(f"{name} unlocks no minion as this action succeeds")
    a = open_action(w)
    blood = max(e.amount for e in said)
    windows.put(w, replace(a, unlocks=(*a.unlocks, (minion, blood, pos))))
    paid = f", burning {blood} blood" if blood else ""
    w.note(f"{name}: {w.name(minion)} unlocks if the action succeeds{paid}", w.author)


def _master_timing(w: Work, pos: Pos) -> None:
    """A master card is played in its Methuselah's own master phase; an out-of-turn one also during
    another Methuselah's turn (:func:`engine.games.vtes.card_checks.master_timing`)."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None or Timing.MASTER not in rec.requires.timing:
        return
    refused = master_timing(rec, w.author == w.acting, w.phase)
    if refused is not None:
        w.refuse(Lift.TIMING, refused)
    take_limit(w, pos, None)


def _target_exists(w: Work, pos: Pos) -> None:
    """A card whose effect needs a target is refused where none exists (Minion Tap with no vampire
    of the author's with blood: :func:`engine.games.vtes.card_checks.missing_target`; a cancel
    with nothing to cancel: :func:`engine.games.vtes.card_checks.missing_cancel`). Raises
    IllegalMove with the sentence."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None:
        return
    blood = [c.counters for c in w.cards.values() if c.crypt and c.zone == Zone.READY and c.controller == w.author]
    missing = missing_target(rec, blood)
    if missing is not None:
        raise IllegalMove(missing)
    top = w.innermost
    missing = missing_cancel(rec, waiting(record(w.cards[top.card].card)) if isinstance(top, Answer) else None)
    if missing is not None:
        raise IllegalMove(missing)


def _in_referendum(w: Work, pos: Pos, types: set[str], name: str, minion: Pos | None) -> None:
    """A card played while a referendum is the innermost window: no action card and no combat card;
    in a political action's referendum an action modifier only by the acting Methuselah, with the
    acting vampire, and a reaction only by another Methuselah (§2; rulebook, "Card Types"), the
    card's requirements met by the minion that plays it. A blood hunt's own rule is
    :func:`politics.play_before_votes`'s."""
    r = w.open_referendum
    assert r is not None
    if types & ACTION_TYPES and not types & {MODIFIER, REACTION}:
        w.refuse(Lift.TIMING, f"{name} is an action card: it cannot be played during a referendum")
        return
    if "Combat" in types and not types & {MODIFIER, REACTION}:
        w.refuse(Lift.TIMING, _combat_words(name))
        return
    if not types & {MODIFIER, REACTION} or r.hunted or not r.minion:
        return
    acting = r.minion
    if MODIFIER in types and w.author == r.caller:
        if minion is not None and minion != acting:
            w.refuse(Lift.TIMING, f"{name} is an action modifier: the acting vampire, {w.name(acting)}, plays it")
        check_requirements(w, pos, acting)
    elif REACTION in types and w.author != r.caller:
        if minion is not None:
            check_requirements(w, pos, minion)
    else:
        w.refuse(Lift.TIMING, f"{name} is {_timing_words(types)}")


def _lock(w: Work, minion: Pos | None, name: str) -> None:
    """The card's "lock this reacting vampire": the minion that played it locks, in the open.
    Raises IllegalMove for a card played by no minion, or by a locked one."""
    if minion is None:
        raise IllegalMove(f"{name} locks the minion that plays it: name the minion")
    if w.card(minion).locked:
        raise IllegalMove(f"{w.name(minion)} is locked already: it cannot play {name}")
    w.setc(minion, locked=True)
    w.note(f"{name}: {w.name(minion)} locks", w.author)


def _after_resolution(w: Work, pos: Pos, act: PlayAct, name: str) -> bool:
    """An action modifier "only usable after action resolution", played after the acting
    Methuselah's last action resolved (successful or blocked; its combat over) and before the
    next, by that action's minion, meeting the card's requirements; with ``unlock`` the minion
    unlocks, in the open. False for a card that is not played so (the caller's rules apply);
    raises from :meth:`Work.refuse` or IllegalMove with the reason."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None or not rec.after_resolution:
        return False
    last = resolved_last(w.phase, w.done, not w.windows)
    if last is None or w.author != w.acting:
        w.refuse(Lift.TIMING, f"{name} is played after an action of yours resolves, before the next is announced")
        return True
    minion = act.minion if act.minion is not None else last.minion
    if minion != last.minion:
        raise IllegalMove(f"{name} is played by the minion whose action resolved, {w.name(last.minion)}")
    check_requirements(w, pos, minion)
    if referendum_gains.pays_margin(rec):
        referendum_gains.gain(w, pos, act, rec, last, minion, name)
    if act.unlock:
        if not w.card(minion).locked:
            raise IllegalMove(f"{w.name(minion)} is not locked: {name} has nothing to unlock")
        w.setc(minion, locked=False)
        w.note(f"{name}: {w.name(minion)} unlocks after its action ({last.outcome})", w.author)
    return True


def _unlock_to_block(w: Work, minion: Pos | None, name: str, types: set[str]) -> None:
    """A reaction's "this vampire unlocks and attempts to block": the locked minion that played it
    unlocks, in the open (its Methuselah then blocks with it). Raises IllegalMove for another
    card type, no minion, or one not locked."""
    if REACTION not in types or w.author == open_action(w).actor:
        raise IllegalMove(f"{name} unlocks no minion during this action: a reaction that says so does")
    if minion is None or not w.card(minion).locked:
        raise IllegalMove(f"{name} unlocks the locked minion that plays it: name it")
    w.setc(minion, locked=False)
    w.note(f"{name}: {w.name(minion)} unlocks and may attempt to block", w.author)


def _fail_block(w: Work, name: str) -> None:
    """An action modifier's "that attempt fails and the blocking minion cannot attempt to block
    this action again": the block attempt under way fails at once (window A again, its minion among
    those that tried), and its minion is barred from this action (``Action.barred``)."""
    a = open_action(w)
    if w.author != a.actor:
        raise IllegalMove(f"{name} makes a block attempt on the acting Methuselah's action fail: only they play it")
    if a.window != Window.ATTEMPT or not a.blocker:
        raise IllegalMove(f"{name} makes a block attempt fail, and no block attempt is under way")
    blocker = a.blocker
    tried, barred = (*a.tried, blocker), (*a.barred, blocker)
    windows.put(w, replace(a, window=Window.NO_ATTEMPT, blocker=(), intercept=0, tried=tried, barred=barred))
    w.note(
        f"{name}: the block by {w.name(blocker)} fails; it cannot attempt to block this action again",
        w.author,
        w.cards[blocker].controller,
    )


def _weaken(w: Work, pos: Pos, amount: int, name: str) -> None:
    """An action modifier's "Allies and younger vampires get -1 intercept" (its record's
    :attr:`EffectKind.INTERCEPT` for :data:`~engine.games.vtes.block_readings.YOUNGER_OR_ALLY`),
    its intercept just taken from the blocker: refused (IllegalMove) for a blocker that is neither
    an ally nor younger than the acting vampire; else kept on the action (``Action.weaken``) for
    every later block attempt (:func:`engine.games.vtes.actions.block`). Another card is left as
    it is."""
    info = w.info(pos)
    rec = record(info.id) if info is not None else None
    if rec is None or not any(e.kind == EffectKind.INTERCEPT and e.whom == YOUNGER_OR_ALLY for e in rec.effects):
        return
    a = open_action(w)
    if a.blocker and not blocker_weakened(w, a, a.blocker):
        raise IllegalMove(
            f"{name} takes intercept from allies and younger vampires, and {w.name(a.blocker)} is neither"
        )
    windows.put(w, replace(a, weaken=amount))


def _end_if_blocked(w: Work, pos: Pos, minion: Pos | None, name: str) -> None:
    """An action modifier's "if this action is blocked, lock the blocking minion and end the action
    before block resolution" (its record's :attr:`EffectKind.END_IF_BLOCKED`, at a level the acting
    minion may play): kept on the open action (``Action.end_if_blocked``) and applied as a block
    would succeed (:func:`engine.games.vtes.actions.end_if_blocked`). Raises IllegalMove for another
    card, another Methuselah than the acting one, or a second such card."""
    a = open_action(w)
    info, who = w.info(pos), w.info(minion if minion is not None else a.minion)
    rec = record(info.id) if info is not None else None
    have = frozenset(who.disciplines) if who is not None else frozenset()
    if rec is None or not any(
        e.kind == EffectKind.END_IF_BLOCKED for c in rec.clauses_for(have, MODIFIER) for e in c.effects
    ):
        raise IllegalMove(f"{name} does not end this action if it is blocked, at a level its minion may play")
    if w.author != a.actor:
        raise IllegalMove(f"{name} ends the acting Methuselah's action if it is blocked: only they play it")
    if a.end_if_blocked:
        raise IllegalMove(f"{w.name(a.end_if_blocked)} already ends this action if it is blocked")
    windows.put(w, replace(a, end_if_blocked=pos))
    w.note(
        f"{name}: if this action is blocked, the blocker locks and the action ends before block resolution", w.author
    )


def _attempts_block(w: Work, pos: Pos, minion: Pos | None, name: str) -> None:
    """A reaction's "This vampire attempts to block the current action, ignoring the normal prey,
    predator or target restrictions" (its record's :attr:`EffectKind.ATTEMPT_BLOCK`, at a level
    ``minion`` may play): the minion that played it attempts to block at once, whether or not its
    Methuselah may block by default; a Methuselah that declined to block keeps its word (rulebook,
    "Who May Attempt to Block"). Raises IllegalMove for another card or a minion that cannot."""
    info = w.info(pos)
    rec = record(info.id) if info is not None else None
    who = w.info(minion) if minion is not None else None
    have = frozenset(who.disciplines) if who is not None else frozenset()
    if rec is None or not any(
        e.kind == EffectKind.ATTEMPT_BLOCK for c in rec.clauses_for(have, REACTION) for e in c.effects
    ):
        raise IllegalMove(f"{name} has no block attempt that {w.name(minion) if minion else 'no minion'} may make")
    a = open_action(w)
    if minion is None or w.author == a.actor or w.author in a.declined:
        raise IllegalMove(
            f"{name}: its vampire attempts to block another's action, for a Methuselah that has not declined"
        )
    actions.block(w, BlockAct(do=Do.BLOCK, minion=minion), anyone=True)
    w.note(f"{name}: {w.name(minion)} attempts to block, whoever may block by default", w.author, a.actor)


def _ended_by_card(w: Work, name: str, unlock: bool) -> None:
    """A card's "The action ends (unsuccessfully)" or "end the action", played as a block attempt
    would succeed (before block resolution, before combat): the action closes with no cost and no
    effect, its set-aside card to the ash heap, the blocker not locked; ``unlock``: the acting
    minion unlocks."""
    a = open_action(w)
    if a.window != Window.ATTEMPT or not a.blocker or not a.blocks:
        raise IllegalMove(f"{name} ends an action as a block attempt would succeed, and none is under way")
    windows.pop(w, a)
    if a.card and w.cards[a.card].zone == Zone.ASIDE:
        w.move(a.card, Target.ASH)
    if unlock and w.cards[a.minion].locked:
        w.setc(a.minion, locked=False)
    text = f"{name} ends {action_words(w, a)} unsuccessfully, before the block resolves"
    w.note(text + (f"; {w.name(a.minion)} unlocks" if unlock else ""), a.actor, w.author)
    after_action(w)


def _bar(w: Work, vampire: Pos | None, name: str) -> None:
    """An action modifier's "the chosen vampire cannot block this action" (``vampire``), or
    "Vampires cannot block this action" (None): by the acting Methuselah, before any block attempt;
    recorded on the open action (``Action.barred``, ``Action.vampires_barred``)."""
    a = open_action(w)
    if w.author != a.actor:
        raise IllegalMove(f"{name} bars blockers from the acting Methuselah's action: only they play it")
    if a.window != Window.NO_ATTEMPT or a.tried:
        raise IllegalMove(f"{name} is played before any attempt to block this action")
    if vampire is None:
        windows.put(w, replace(a, vampires_barred=True))
        w.note(f"{name}: vampires cannot block this action", w.author)
        return
    c = w.card(vampire)
    if not c.crypt or c.zone != Zone.READY:
        raise IllegalMove(f"{name} names a ready vampire, and {w.name(vampire)} is not one")
    windows.put(w, replace(a, barred=(*a.barred, vampire)))
    w.note(f"{name}: {w.name(vampire)} cannot block this action", w.author, c.controller)


def _lock_failed(w: Work, name: str) -> None:
    """An action modifier's "minions who attempt to block this action and fail become locked
    before action resolution", recorded on the open action (``Action.lock_failed``) and applied as
    it resolves (:func:`engine.games.vtes.action_success.before_resolution`)."""
    a = open_action(w)
    if w.author != a.actor:
        raise IllegalMove(
            f"{name} locks the minions that fail to block the acting Methuselah's action: only they play it"
        )
    windows.put(w, replace(a, lock_failed=True))
    w.note(f"{name}: the minions whose attempt to block this action fails lock before it resolves", w.author)


def _wake(w: Work, minion: Pos | None, name: str, cost: int = 0) -> None:
    """The card's "this minion wakes": the locked minion that played it may play reactions and
    attempt to block until the open action ends (rulebook: it "ignore[s] the requirement to be
    unlocked"), in the open; ``cost``: blood it burns before the action resolves unless it blocks
    it (``Action.wake_costs``). Raises IllegalMove for a card played by no minion, or by an
    unlocked one."""
    a = open_action(w)
    if minion is None:
        raise IllegalMove(f"{name} wakes the locked minion that plays it: name the minion")
    if not w.card(minion).locked or minion in a.woken:
        raise IllegalMove(f"{w.name(minion)} is not a locked minion asleep: {name} wakes a locked minion")
    costs = (*a.wake_costs, (minion, cost)) if cost else a.wake_costs
    windows.put(w, replace(a, woken=(*a.woken, minion), wake_costs=costs))
    unless = f"; unless it blocks this action, it burns {cost} blood before the action resolves" if cost else ""
    w.note(f"{name}: {w.name(minion)} wakes: it may play reactions and block until the action ends{unless}", w.author)


def move_blood(w: Work, act: PlayAct, name: str) -> None:
    """The card's "move N blood from a vampire you control to your pool" (``move_blood`` from
    ``minion``), in the open, as it is played. Raises IllegalMove for a minion that is no ready
    vampire of the author's, or has less blood than is moved."""
    amount = within(act.do, "move_blood", act.move_blood, low=0, high=30)
    if not amount:
        return
    vampire = act.minion
    assert vampire is not None  # the act's shape needs it (acts.parse_act)
    c = w.card(vampire)
    if c.controller != w.author or c.zone != Zone.READY or not c.crypt:
        raise IllegalMove(f"{name} moves blood from a ready vampire you control, and {w.name(vampire)} is not one")
    if c.counters < amount:
        raise IllegalMove(f"{w.name(vampire)} has {c.counters} blood: {name} cannot move {amount}")
    rec = record(w.cards[act.card].card or w.revealed.get(act.card, ""))
    move = next((e for e in rec.effects if e.kind == EffectKind.MOVE_BLOOD), None) if rec is not None else None
    if move is not None and not move.least <= amount <= (move.amount or amount):
        much = f"{move.least} to {move.amount}" if move.least else f"up to {move.amount}"
        raise IllegalMove(f"{name} moves {much} blood, not {amount}")
    w.counters_delta(vampire, -amount, "card")
    w.pool_delta(w.author, amount, "card")
    w.note(f"{name}: {amount} blood moved from {w.name(vampire)} to {seat_ref(w.author)}'s pool", w.author)


def shift_blood(w: Work, act: TransferAct) -> None:
    """A card in play's "during their master (unlock) phase, this vampire's controller can move 1
    blood from this vampire to their pool or from their pool to this vampire" (Blood Doll, Vessel):
    a ``transfer`` naming the card ``by``, the vampire ``card`` it is on, ``kind`` blood (to the
    pool) or pool (to the vampire), ``n`` up to the card's amount; once a turn per card, in the
    author's own phase the card names, no transfer spent. Raises IllegalMove with the reason."""
    by, vampire = act.by, act.card
    assert by is not None
    if vampire is None or act.kind == TransferKind.CRYPT:
        raise IllegalMove("a card's blood moves between the vampire it is on and your pool: name the vampire")
    held, c = w.card(by), w.card(vampire)
    name = w.name(by)
    rec = record(held.card or w.revealed.get(by, ""))
    shift = next((e for e in rec.effects if e.kind == EffectKind.SHIFT_BLOOD), None) if rec is not None else None
    if shift is None:
        raise IllegalMove(f"{name} moves no blood between a vampire and your pool")
    if held.controller != w.author or held.zone != Zone.ON or held.on != vampire:
        raise IllegalMove(
            f"{name} moves blood for the vampire it is on, and it must be yours: it is not on {w.name(vampire)}"
        )
    if c.controller != w.author or not c.crypt or not c.zone.in_play:
        raise IllegalMove(f"{w.name(vampire)} is not a vampire you control")
    if w.acting != w.author or w.phase != Phase(shift.whom):
        raise IllegalMove(f"{name} moves blood during your {shift.whom} phase")
    if by in w.used:
        raise IllegalMove(f"{name} has moved blood this turn already")
    n = within(act.do, "n", act.n, low=1, high=shift.amount, default=1)
    if act.kind == TransferKind.POOL:
        if w.p(w.author).pool < n:
            raise IllegalMove(f"you have only {w.p(w.author).pool} pool")
        w.pool_delta(w.author, -n, "card")
        w.counters_delta(vampire, n, "card")
        said = f"{n} blood moved from {seat_ref(w.author)}'s pool to {w.name(vampire)}"
    else:
        if c.counters < n:
            raise IllegalMove(f"{w.name(vampire)} has only {c.counters} blood")
        w.counters_delta(vampire, -n, "card")
        w.pool_delta(w.author, n, "card")
        said = f"{n} blood moved from {w.name(vampire)} to {seat_ref(w.author)}'s pool"
    w.used = (*w.used, by)
    w.note(f"{name}: {said}", w.author)


def master_effects(w: Work, pos: Pos, name: str) -> None:
    """A master card's effects that ask no choice, applied in the open as it is played: "Move 1
    blood from each ready vampire you control to your pool" (each that has it; Tribute to the
    Master), "Burn 7 cards from the top of your library to gain 3 pool" (the pool only when 7
    burned; Liquidation), "Move the top card from your crypt to your uncontrolled region" (Effective
    Management; none moves from an empty crypt). Narrated with the card's name."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None or "Master" not in rec.types:
        return
    bleed_burns.burn(w, rec, name)  # Archon Investigation: the minion bleeding its player
    for e in rec.effects:
        if e.kind == EffectKind.MOVE_BLOOD and e.whom == EACH:
            moved = 0
            for v, c in sorted(w.cards.items()):
                if c.crypt and c.zone == Zone.READY and c.controller == w.author and c.counters >= e.amount:
                    w.counters_delta(v, -e.amount, "card")
                    moved += e.amount
            w.pool_delta(w.author, moved, "card")
            w.note(f"{name}: {moved} blood moved from your ready vampires to {seat_ref(w.author)}'s pool", w.author)
        elif e.kind == EffectKind.LIBRARY_BURN:
            milled = w.p(w.author).library[: e.amount]
            for burned in milled:
                w.move(burned, Target.ASH)
            got = w.pool_delta(w.author, e.least, "card") if len(milled) == e.amount else 0
            gained = f", {seat_ref(w.author)} gains {got} pool" if got else f" (not {e.amount}: no pool gained)"
            w.note(
                f"{name}: {len(milled)} cards burned from the top of {seat_ref(w.author)}'s library{gained}", w.author
            )
        elif e.kind == EffectKind.CRYPT_DRAW:
            crypt = w.p(w.author).crypt[: e.amount]
            for top in crypt:
                w.move(top, Target.UNCONTROLLED)
            many = "card" if len(crypt) == 1 else "cards"
            w.note(
                f"{name}: {len(crypt)} {many} of {seat_ref(w.author)}'s crypt moved to their uncontrolled region",
                w.author,
            )


def add_blood(w: Work, act: PlayAct, name: str) -> None:
    """A master card's "add 4 blood to a vampire in your uncontrolled region", "the chosen vampire
    gains enough blood to reach full capacity": ``add_blood`` blood to ``add_to``, a vampire of
    the author's (uncontrolled, or in play), in the open as the card is played. Raises
    IllegalMove for one field without the other, or another's card."""
    amount = within(act.do, "add_blood", act.add_blood, low=0, high=30)
    if (act.add_to is None) != (not amount):
        raise IllegalMove("add_blood and add_to go together: the blood a card adds, and the vampire it goes to")
    if act.add_to is None:
        return
    c = w.card(act.add_to)
    rec = record(w.cards[act.card].card or w.revealed.get(act.card, ""))
    if rec is not None and any(e.kind == EffectKind.ADD_BLOOD and e.whom == READY for e in rec.effects):
        if not c.crypt or c.zone != Zone.READY:
            raise IllegalMove(f"{name} adds blood to a ready vampire, and {w.name(act.add_to)} is not one")
    else:
        mine = (c.zone == Zone.UNCONTROLLED and c.owner == w.author) or (c.zone.in_play and c.controller == w.author)
        if not c.crypt or not mine:
            raise IllegalMove(f"{name} adds blood to a vampire of yours, uncontrolled or in play")
    w.counters_delta(act.add_to, amount, "card")
    w.note(f"{name}: {amount} blood added to {w.name(act.add_to)}", w.author)


def _combat_words(name: str) -> str:
    return f"{name} is a combat card: it is played during combat, and no combat is under way (§2)"


def _timing_words(types: set[str]) -> str:
    if types == {MODIFIER}:
        return "an action modifier: the acting Methuselah plays it during their minion's action"
    if types == {REACTION}:
        return "a reaction: it is played during another Methuselah's action"
    return "an action modifier or a reaction: it is played during an action"


def adjust(w: Work, act: AdjustAct) -> None:
    """An ``adjust`` act: a card in play or a rule changes the open action's numbers (4.3, P8), on
    the impulse; the impulse returns to the acting Methuselah."""
    a = open_action(w)
    holds_impulse(w, a, "change the action")
    numbers = Numbers.of(act)
    if act.by is not None:
        own_source(w, act.by, "the card that changes the action")
        if act.blood is not None:
            blood_intercept.pay(w, a, act.by, act.intercept, act.blood)
    own_cause(w, act.cause)
    source = w.name(act.by) if act.by is not None else esc(act.cause or "")
    changed, changes = _numbers_changed(w, numbers)
    if act.by is None and numbers:
        # A rule the author names, no card: a claim on the other parties to the action, and the
        # window waits for their answer (docs/vtes-by-hand.md, "In a window, on the impulse").
        said = f"{action_words(w, a)}: {', '.join(changes)}"
        if in_the_open(w, _parties(w, a, numbers), said, act.cause or "", act):
            return
    _put_numbers(w, changed, changes, source)
    windows.put(w, windows.returned(open_action(w), w.in_game()))


def _parties(w: Work, a: Action, n: Numbers) -> set[int]:
    """The Methuselahs a change of ``a``'s numbers works on: its actor, its targets (the new one
    too), and its blocking minion's controller."""
    seats = {a.actor, *a.targets}
    if n.target is not None:
        seats.add(n.target)
    if a.blocker:
        seats.add(w.cards[a.blocker].controller)
    return seats


def _apply_numbers(w: Work, n: Numbers, source: str) -> None:
    """Apply ``n`` to the open action as 4.3 allows (raises from :meth:`Work.refuse`)."""
    if n:
        _put_numbers(w, *_numbers_changed(w, n), source)


def _put_numbers(w: Work, a: Action, changes: list[str], source: str) -> None:
    """The open action becomes ``a``, its ``changes`` said with their ``source``."""
    if changes:
        windows.put(w, a)
        w.note(f"{source}: {', '.join(changes)}", w.author, a.actor)


def _numbers_changed(w: Work, n: Numbers) -> tuple[Action, list[str]]:
    """The open action with ``n`` applied as 4.3 allows, and the changes in words ("stealth +1 →
    2"); nothing is applied yet. Raises IllegalMove (or from :meth:`Work.refuse`)."""
    a = w.open_action
    assert a is not None
    changes: list[str] = []
    if not n:
        return a, changes
    if n.stealth > 0:
        if w.author != a.actor:
            raise IllegalMove("only the acting Methuselah adds stealth to its action")
        if not a.stealth_needed:
            w.refuse(
                Lift.STEALTH,
                f"stealth is added only when needed: during a block attempt whose intercept ({a.intercept}) is at "
                f"least the stealth ({a.stealth}) (4.3)",
            )
    if n.intercept:
        if a.window != Window.ATTEMPT or not a.blocker:
            raise IllegalMove("there is no block attempt whose intercept could change")
        if n.intercept > 0:
            if w.author != w.cards[a.blocker].controller:
                raise IllegalMove("only the blocking minion's controller adds intercept")
            if not a.intercept_needed:
                w.refuse(
                    Lift.STEALTH,
                    f"intercept is added only when needed: while the stealth ({a.stealth}) is above the intercept "
                    f"({a.intercept}) (4.3)",
                )
    if n.amount:
        if a.kind not in (ActionKind.BLEED, ActionKind.HUNT):
            raise IllegalMove(f"a {a.kind} action has no amount to change")
        if a.amount + n.amount < 0:
            raise IllegalMove(f"the {a.kind} amount cannot go below 0 (it is {a.amount})")
    a = replace(a, stealth=a.stealth + n.stealth, intercept=a.intercept + n.intercept, amount=a.amount + n.amount)
    for label, delta in (("stealth", n.stealth), ("intercept", n.intercept), ("amount", n.amount)):
        if delta:
            changes.append(f"{label} {delta:+d} → {getattr(a, label)}")
    if n.target is not None:
        if a.window == Window.ATTEMPT:
            raise IllegalMove("the target is fixed during a block attempt (4.4)")
        if not a.directed:
            raise IllegalMove("an undirected action has no target to change")
        if n.target == a.actor or not 0 <= n.target < w.seats or w.p(n.target).status != Status.IN:
            raise IllegalMove("the new target is another Methuselah in the game, not the acting one")
        a = replace(a, targets=(n.target,), declined=(), tried=(), window=Window.NO_ATTEMPT)
        a = replace(a, loop=windows.loop(impulse_order(a, w.in_game()), w.in_game()))
        changes.append(f"the target is now {seat_ref(n.target)}: blocking reopens")
    return a, changes


def end_action(w: Work, act: ActionEndAct) -> None:
    """P4: an ``action_end`` act naming the card (``by``) that ends the open action closes it with
    no consequence: no cost, no effect; its set-aside card goes to the ash heap. On the impulse,
    as every act in a window (P1), and by a card of the author's own (P9)."""
    a = open_action(w)
    holds_impulse(w, a, "end the action")
    by = act.by
    if w.card(by).zone.hidden:
        raise IllegalMove("the card that ends the action must be face up (played, or in play)")
    own_source(w, by, "the card that ends the action")
    windows.pop(w, a)
    if a.card and w.cards[a.card].zone == Zone.ASIDE:
        w.move(a.card, Target.ASH)
    w.note(f"{w.name(by)} ends {action_words(w, a)}: no cost, no effect", a.actor, w.author)
    after_action(w)
