"""What a successful action does (shared/rules/vtes-actions.md 3, 6.3 and reading P4): its cost
is paid and the basic effect of its kind applied (a bleed burns pool and takes the Edge, a hunt
gains blood, an ally joins with its printed life, a diablerie burns the victim, …), with the effects
its cards state for its success (blood added to a vampire of the uncontrolled region, pool gained
for a bleed of 1 or more); then a referendum or a blood hunt opens, or the action is over.

Also the words of an action and the record of how the last one announced this turn resolved,
which the action modifiers "only usable after action resolution" read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.games.base import Pos, seat_ref
from engine.games.vtes import card_actions, carried_moves, lasting, politics, standing, windows
from engine.games.vtes.acts import esc
from engine.games.vtes.block_readings import UNLESS_BLOCKED
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.cards import PlayPlace, play_place
from engine.games.vtes.state import Action, Done
from engine.games.vtes.vocab import ActionKind, Outcome, Phase, Status, Target, Zone, action_phrase
from engine.games.vtes.work import Work


def action_words(w: Work, a: Action) -> str:
    """The open action in words, with seat placeholders (:func:`vocab.action_phrase`)."""
    return action_phrase(
        a.kind,
        f"{seat_ref(a.actor)}'s",
        w.name(a.minion),
        [seat_ref(s) for s in a.targets],
        target_card=w.name(a.target_card) if a.target_card else None,
        amount=a.amount,
        card=w.name(a.card) if a.card else None,
    )


def after_action(w: Work) -> None:
    """An action is over: a called time ends the game now (vtes.md, \"Time-out\")."""
    if w.time_called and w.open_combat is None and w.open_referendum is None:
        w.end_by_time()


def resolved(w: Work, outcome: Outcome) -> None:
    """The action announced last this turn (the one open) resolved with ``outcome``."""
    if w.done:
        w.done = (*w.done[:-1], replace(w.done[-1], outcome=outcome))


def resolved_last(phase: Phase, done: Sequence[Done], quiet: bool) -> Done | None:
    """The action announced last this turn (``done``) when it has resolved (successful or
    blocked) in the minion ``phase`` and no window is open (``quiet``: its combat is over): the
    action an action modifier "only usable after action resolution" follows; else None."""
    if phase != Phase.MINION or not done or done[-1].outcome == Outcome.UNDER_WAY or not quiet:
        return None
    return done[-1]


def before_resolution(w: Work, a: Action) -> None:
    """What cards played during the action ``a`` do just before it resolves (successful, or
    blocked by ``a.blocker``): the minions whose block attempt failed lock (``Action.lock_failed``,
    Faceless Night at superior); a vampire that played a card locking it unless it blocked, and
    did not block, locks (Eyes of the Wild); a woken minion that did not block burns its blood
    (``Action.wake_costs``, Forced Awakening). A minion no longer ready is left alone."""
    if a.lock_failed:
        failed = [m for m in dict.fromkeys(a.tried) if m != a.blocker and m in w.cards]
        failed = [m for m in failed if w.cards[m].zone == Zone.READY and not w.cards[m].locked]
        for m in failed:
            w.setc(m, locked=True)
        if failed:
            names = ", ".join(w.name(m) for m in failed)
            w.note(f"Before the action resolves, {names} lock: their attempt to block it failed", a.actor)
    _unless_blocked(w, a)
    for m, blood in a.wake_costs:
        if m == a.blocker or m not in w.cards or w.cards[m].zone != Zone.READY:
            continue
        paid = min(blood, w.cards[m].counters)
        if paid:
            w.counters_delta(m, -paid, "card")
        w.note(f"{w.name(m)} was woken and did not block this action: it burns {paid} blood", w.cards[m].controller)


def _unless_blocked(w: Work, a: Action) -> None:
    """A vampire that played in ``a`` a card locking it unless it blocked (Eyes of the Wild), and did
    not block it, locks as the action resolves (still ready and unlocked)."""
    for m, cid in a.played:
        rec = record(cid)
        if rec is None or m == a.blocker or m not in w.cards or w.cards[m].zone != Zone.READY or w.cards[m].locked:
            continue
        if any(e.kind == EffectKind.LOCK and e.whom == UNLESS_BLOCKED for e in rec.effects):
            w.setc(m, locked=True)
            w.note(f"{esc(rec.name)}: {w.name(m)} locks, having not blocked this action", w.cards[m].controller)


def succeed(w: Work, a: Action) -> None:
    """P4, successful: the cost is paid and the basic effect of §3 applied."""
    before_resolution(w, a)
    name = w.name(a.minion)
    windows.pop(w, a)
    resolved(w, Outcome.SUCCESSFUL)
    minion = w.cards[a.minion]
    if a.cost_blood:
        paid = min(a.cost_blood, minion.counters)
        if paid:
            w.counters_delta(a.minion, -paid, "cost")
        if paid < a.cost_blood:
            w.note(f"{name} could pay only {paid} of {a.cost_blood} blood: settle the rest by hand", a.actor)
    if a.cost_pool:
        w.pool_delta(a.actor, -a.cost_pool, "cost")
    text = f"{action_words(w, a)} succeeds"
    if a.cost_rescued and a.target_card:
        share = min(a.cost_rescued, w.cards[a.target_card].counters)
        if share:
            w.counters_delta(a.target_card, -share, "cost")
        text += f" ({w.name(a.target_card)} pays {share} blood of the rescue's cost, {name} {a.cost_blood})"
    hunted: Pos | None = None
    called = fights = False
    bled = a.kind != ActionKind.BLEED  # a bleed's card adds its blood when it burns 1 or more (Public Trust)
    match a.kind:
        case ActionKind.BLEED:
            target = a.targets[0]
            if a.amount >= 1 and w.p(target).status == Status.IN:
                burned = -w.pool_delta(target, -a.amount, "bleed")
                bled = burned >= 1
                w.edge = a.actor
                text += f": {seat_ref(target)} burns {burned} pool and {seat_ref(a.actor)} takes the Edge"
                if a.gain_pool and bled:
                    w.pool_delta(a.actor, a.gain_pool, "card")
                    text += f", and gains {a.gain_pool} pool"
        case ActionKind.HUNT:
            info = standing.at(w, a.minion)
            room = max(0, info.capacity - minion.counters) if info is not None and info.capacity else a.amount
            gained = min(a.amount, room)
            if gained:
                w.counters_delta(a.minion, gained, "hunt")
            text += f": {name} gains {gained} blood" + (
                f" ({a.amount - gained} over capacity drained)" if gained < a.amount else ""
            )
        case ActionKind.EQUIP | ActionKind.EMPLOY:
            item = a.card or a.target_card
            if item:
                w.move(item, Target.ON, a.actor, a.minion)
                text += f": {w.name(item)} goes on {name}"
                printed = record(w.cards[item].card or "") if a.kind == ActionKind.EMPLOY else None
                life = a.life or (printed.printed.life if printed is not None else None)
                if life:  # a retainer enters play with its printed life, or its level's (rulebook, "Retainers")
                    w.counters_delta(item, life, "life")
                    text += f" with {life} life"
        case ActionKind.RECRUIT:
            if a.card:
                w.move(a.card, Target.READY, a.actor)
                w.recruited = (*w.recruited, a.card)
                info = w.info(a.card)
                printed = record(info.id) if info is not None else None
                life = a.life or (printed.printed.life if printed is not None else None)
                if life:  # an ally enters play with its printed life, or its level's (rulebook, "Allies")
                    w.counters_delta(a.card, life, "life")
                joins = f"with {life} life" if life else "(set its life by hand)"
                text += f": {w.name(a.card)} joins {seat_ref(a.actor)}'s ready region {joins}"
        case ActionKind.LEAVE_TORPOR:
            w.move(a.minion, Target.READY)
            text += f": {name} is ready"
        case ActionKind.RESCUE:
            assert a.target_card
            w.move(a.target_card, Target.READY)
            text += f": {w.name(a.target_card)} is ready"
        case ActionKind.DIABLERISE:
            assert a.target_card
            text += diablerie(w, a.minion, a.target_card)
            hunted = a.minion
        case ActionKind.POLITICAL:
            text += ": a referendum"
            called = True
        case ActionKind.OTHER if a.target_card and carried_moves.enters_combat(_card_record(w, a)):
            text += f": {name} enters combat with {w.name(a.target_card)}"
            fights = True
        case ActionKind.OTHER if a.target_card:
            text += _burn(w, a)
        case ActionKind.OTHER if not (a.add_blood or a.gain_pool):
            text += ": apply the card's effect by hand"
    if a.add_blood and a.add_to and bled and w.cards[a.add_to].zone in (Zone.UNCONTROLLED, Zone.READY):
        text += _add_blood(w, a, a.add_to, a.add_blood)
    if a.gain_pool and a.kind != ActionKind.BLEED:  # an action card's "Gain 2 pool"
        w.pool_delta(a.actor, a.gain_pool, "card")
        text += f"; {seat_ref(a.actor)} gains {a.gain_pool} pool"
    text += "".join(_unlock(w, *unlock) for unlock in a.unlocks)
    if a.draws:  # a card's "draw two cards (discard afterward)": the hand is then discarded down
        drawn = w.draw(a.actor, a.draws)
        text += (
            f"; {seat_ref(a.actor)} draws {drawn} card{'s' if drawn != 1 else ''} and discards down to their hand size"
        )
    if a.card and w.cards[a.card].zone == Zone.ASIDE:
        _card_after(w, a)
    w.note(text, a.actor, *a.targets)
    lasting.succeeded(w, a)
    if called:
        politics.open_referendum(w, a.actor, a.minion, a.card)
    elif hunted is not None and w.cards[hunted].zone.in_play:
        politics.open_blood_hunt(w, hunted)
    elif not (fights and carried_moves.after_success(w, a)):
        after_action(w)


def _card_record(w: Work, a: Action) -> CardRecord | None:
    return record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card else None


def _add_blood(w: Work, a: Action, to: Pos, blood: int) -> str:
    """The blood an action card adds to ``to`` as it succeeds, the words for the narration; the
    acting vampire's own ("This vampire gains 2 blood") up to its capacity, the excess drained to
    the blood bank as a hunt's (vtes-actions.md §3)."""
    if to != a.minion:
        w.counters_delta(to, blood, "card")
        return f"; {blood} blood added to {w.name(to)}"
    info = standing.at(w, to)
    room = max(0, info.capacity - w.cards[to].counters) if info is not None and info.capacity else blood
    gained = min(blood, room)
    if gained:
        w.counters_delta(to, gained, "card")
    drained = f" ({blood - gained} over capacity drained)" if gained < blood else ""
    return f"; {w.name(to)} gains {gained} blood{drained}"


def _burn(w: Work, a: Action) -> str:
    """An action card's "Ⓓ Burn an equipment/location" (the card named as it was announced,
    :func:`engine.games.vtes.actions.announce`), and the pool its controller burns where the card
    says so: the words added to the success's narration."""
    assert a.target_card
    target = w.cards[a.target_card]
    if not target.zone.in_play:
        return f": {w.name(a.target_card)} has left play"
    stolen = card_actions.stolen(w, a)
    if stolen is not None:
        return stolen
    rec = record(w.cards[a.card].card or w.revealed.get(a.card, "")) if a.card else None
    pool = sum(e.amount for e in (rec.effects if rec else ()) if e.kind == EffectKind.BURN_POOL and e.whom)
    seat = target.controller
    w.move(a.target_card, Target.ASH)
    text = f": {w.name(a.target_card)} burns"
    if pool and w.p(seat).status == Status.IN:
        text += f" and {seat_ref(seat)} burns {-w.pool_delta(seat, -pool, 'card')} pool"
    return text


def _unlock(w: Work, minion: Pos, blood: int, card: Pos) -> str:
    """A card's "if the action is successful, this vampire unlocks" (burning ``blood`` first, when
    it says so): the words added to the success's narration, "" when the minion is not locked."""
    c = w.cards[minion]
    if c.zone != Zone.READY or not c.locked:
        return ""
    if blood > c.counters:
        return f"; {w.name(minion)} has {c.counters} blood and cannot burn {blood} to unlock ({w.name(card)})"
    if blood:
        w.counters_delta(minion, -blood, "card")
    w.setc(minion, locked=False)
    paid = f", burning {blood} blood" if blood else ""
    return f"; {w.name(minion)} unlocks{paid} ({w.name(card)})"


def _card_after(w: Work, a: Action) -> None:
    """Where the set-aside card of a successful action goes (its text's default, :func:`play_place`).
    A political action card that goes on a vampire "if this referendum is successful" (a title)
    stays aside until its referendum resolves (:func:`engine.games.vtes.politics.title_card_after`)."""
    assert a.card
    info = w.info(a.card)
    place = play_place(info) if info is not None else PlayPlace.ASH
    if a.kind == ActionKind.POLITICAL and place == PlayPlace.ON_MINION:
        return
    if place == PlayPlace.IN_PLAY:
        w.move(a.card, Target.READY, a.actor)
    elif place == PlayPlace.ON_MINION and w.cards[a.minion].zone.in_play:
        w.move(a.card, Target.ON, a.actor, a.minion)
    else:
        w.move(a.card, Target.ASH)


def diablerie(w: Work, diablerist: Pos, victim: Pos, take: bool = True) -> str:
    """6.3: the victim's blood moves to the diablerist (excess drains); the diablerist takes the
    equipment on the victim (unless ``take`` is False: it may decline); the victim burns with
    all else on it. Returns the words for the narration. The blood hunt (6.4) is opened by the
    caller. An older victim's Discipline card (adv.) is left to the players."""
    card = w.cards[victim]
    vname = w.name(victim)
    info = standing.at(w, diablerist)
    here = w.cards[diablerist].counters
    room = max(0, info.capacity - here) if info is not None and info.capacity else card.counters
    moved = min(card.counters, room)
    if moved:
        w.setc(diablerist, counters=here + moved)
    taken = []
    if take:
        for pos, on in sorted(w.cards.items()):
            kind = w.info(pos)
            if on.zone == Zone.ON and on.on == victim and kind is not None and "Equipment" in kind.types:
                w.move(pos, Target.ON, on=diablerist)
                taken.append(w.name(pos))
    w.move(victim, Target.ASH)
    text = f": {vname} burns and {moved} of its blood goes to {w.name(diablerist)}"
    if taken:
        text += f", who takes {', '.join(taken)}"
    return text
