"""What a card's record puts into the act that plays it (shared/rules/vtes-actions.md 4.3, 4.6, P2,
P8): the stealth, intercept and bleed a played action modifier or reaction adds to the open action,
and the kind, bleed and stealth of an announced action card, one :class:`Choice` per Discipline
level the minion may play (basic, superior) whose numbers can change the action now.

The numbers go into the act itself (``play``'s ``stealth``, ``intercept``, ``amount``,
``bleed_mod``; ``action``'s ``kind``, ``amount``, ``stealth``), so the log holds them and a replay
folds the same numbers whatever later version of the card readings reads it; the table applies
them and narrates them with the card's name (:func:`engine.games.vtes.plays.check_play`). What a
clause says beyond these numbers stays with the players (``vampire cards NAME`` lists it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.games.vtes import blood_intercept, carried_moves, entering_life, standing, x_votes
from engine.games.vtes.action_success import resolved_last
from engine.games.vtes.block_readings import weakened
from engine.games.vtes.card_checks import missing_requirement
from engine.games.vtes.card_effects import (
    ANOTHER,
    EACH,
    FAILED_BLOCKERS,
    ON_BLOCK,
    ON_THIS,
    POOR,
    READY,
    UNLESS_BLOCKS,
    YOUNGER_OR_ALLY,
    Effect,
    EffectKind,
)
from engine.games.vtes.card_record import BY_OTHER, CardRecord, Clause, burnable, meets_disciplines, record
from engine.games.vtes.card_sentences import SentenceKind
from engine.games.vtes.cards import PlayPlace, card_base, card_id, play_place
from engine.games.vtes.contests import as_titled
from engine.games.vtes.state import Action
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import (
    MODIFIER,
    REACTION,
    ActionKind,
    LimitScope,
    Outcome,
    Poll,
    Target,
    TransferKind,
    Window,
    Zone,
)

#: The effects that change an open action's numbers.
NUMBERS = frozenset({EffectKind.STEALTH, EffectKind.INTERCEPT, EffectKind.BLEED})


@dataclass(frozen=True)
class Choice:
    """One way to play a card now: ``clause`` (None: the card as a whole, nothing read) and the
    act's ``fields`` it gives (sorted ``(name, value)`` pairs, a position as a tuple), ``words`` for a menu
    (``"[DOM] +3 bleed (limited)"``)."""

    clause: Clause | None
    fields: tuple[tuple[str, object], ...]
    words: str

    @property
    def superior(self) -> bool:
        """The choice is a superior level's clause."""
        return self.clause is not None and self.clause.superior

    def act_fields(self) -> dict[str, object]:
        """The fields as an act holds them (a position as a list)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.fields}

    def weight(self) -> int:
        """How much the choice changes the action or the referendum (a bot's preference): the sum
        of its numbers (stealth, intercept, bleed, votes), a redirect counting 1."""
        numbers = sum(
            abs(v) for k, v in self.fields if k in ("stealth", "intercept", "amount", "votes") and isinstance(v, int)
        )
        return numbers + any(k == "target" for k, _ in self.fields)


def disciplines(card: CardView | None) -> frozenset[str]:
    """The krcg Discipline levels of a minion as it stands (the view's, raised by the cards on it:
    :mod:`engine.games.vtes.standing`); an ally or a card unknown to the seat: none."""
    if card is not None and card.disciplines is not None:
        return frozenset(card.disciplines)
    info = card_base().info(card.card) if card is not None and card.card else None
    return frozenset(info.disciplines) if info is not None else frozenset()


def _levels_words(clause: Clause) -> str:
    return " ".join(f"[{lv}]" for lv in clause.levels)


def candidates(rec: CardRecord, minion: CardView | None, as_type: str) -> list[Clause]:
    """The clauses of ``rec`` a minion may play as ``as_type``: those with a Discipline level it
    has, or with effects and no level; the conditions-only clauses are no choice."""
    have = disciplines(minion)
    if not meets_disciplines(rec, have):
        return []
    return [c for c in rec.clauses if (c.levels or c.effects) and c.type in ("", as_type) and c.usable_by(have)]


def window_choices(view: VtesView, card: CardView) -> list[Choice]:
    """The ways the view's seat may play the hand ``card`` in the open action now, per clause its
    minion may play (the acting minion for an action modifier; the blocking minion, else any ready
    unlocked one, for a reaction), each with the numbers it adds: stealth only while a block
    attempt's intercept is at least the stealth, intercept only for a blocker of this seat while
    the stealth is above it (4.3), bleed only in a bleed, one "(limited)" bleed per bleed (4.6),
    a reduced bleed only against this seat once blocks are declined (never below 0), an action
    modifier's clause that changes only blocks (:attr:`Clause.about_blocks`) only while a block may
    still come (:meth:`~engine.games.vtes.view.VtesView.may_still_block`).
    A clause whose numbers cannot change the action now is no choice; a card with no clause the
    table reads is one choice with no numbers (its text applied by hand). Empty: the card cannot
    matter now."""
    a, seat = view.action, view.seat
    rec = record(card.card) if card.card else None
    if a is None or seat is None:
        return []
    if rec is None:
        return [Choice(None, (), "")]
    if played_with(rec, a) is not None:
        return []
    acting = seat == a.actor
    as_type = MODIFIER if acting else REACTION
    minion = view.card(a.minion) if acting else reactor(view, a, seat, card.card)
    clauses = [c for c in candidates(rec, minion, as_type) if not _after_only(rec, c)]
    if acting:  # an action modifier's "Only usable …" that this moment of the action does not meet
        clauses = [c for c in clauses if modifier_fits(_conditions(rec, c), a)]
        if any(c.about_blocks for c in clauses) and not view.may_still_block():
            clauses = [c for c in clauses if not c.about_blocks]  # "Vampires cannot block …", too late
            if not clauses:
                return []
    if rec.after_resolution and not clauses:
        return []  # played once the action has resolved (after_choices), not during it
    if not acting:  # a clause that wakes a locked minion is played by that minion, not the reactor
        clauses = [c for c in clauses if not _wakes(c)]
        clauses += [c for c in rec.clauses if _wakes(c) and c.type in ("", as_type) and waker(view, a, seat, c, rec)]
    players = [(c, minion) for c in clauses if not (acting and _by_other(rec, c))]
    if acting:  # a clause played by another vampire of the acting Methuselah's (Veil the Legions)
        players += [(c, v) for v in _others(view, a, rec) for c in candidates(rec, v, as_type) if _by_other(rec, c)]
    players = [(c, p) for c, p in players if not spent(view, rec, p, c.superior)]
    if not players and (any(_by_other(rec, c) for c in rec.clauses) or spent(view, rec, minion)):
        return []
    if not clauses:
        if (
            any(c.levels for c in rec.clauses)
            or any(_wakes(c) for c in rec.clauses)
            or not meets_disciplines(rec, disciplines(minion))
            or (acting and not modifier_fits(_conditions(rec, None), a))
        ):
            return []
        paid = _paid(rec, view, seat, minion, ())
        return [Choice(None, paid, "")] if paid is not None else []
    out: dict[tuple[tuple[str, object], ...], Choice] = {}
    for clause, player in players:
        numbers = _numbers(clause, a, acting, view, seat)
        if numbers is None:
            continue
        for pick in _picks(clause, a, view, seat):
            base = dict(numbers) | pick
            if player is not minion and player is not None:
                base["minion"] = tuple(player.pos)
            blocker = view.card(a.blocker) if a.blocker else None
            if "intercept" in base and player is not None and not _may_play(rec, blocker, view):
                # the blocker lacks what the card requires: it is played by the minion that has it
                # (Organized Resistance: a baron plays it, the blocking Anarch gets the intercept)
                base["minion"] = tuple(player.pos)
            if "block" in base and player is not None:  # the vampire that attempts to block (Eagle's Sight)
                base["minion"] = tuple(player.pos)
            if any(e.kind == EffectKind.LOCK and not e.whom for e in clause.effects) and minion is not None:
                base["lock"], base["minion"] = True, tuple(minion.pos)
            variants: list[tuple[dict[str, object], str]] = [(base, "")]
            if _wakes(clause):  # one choice per locked minion it may wake: the player picks
                woken = any(e.kind == EffectKind.WAKE for e in clause.effects)
                variants = [
                    (base | {"wake" if woken else "unlock": True, "minion": tuple(sleeper.pos)}, f": {sleeper.name}")
                    for sleeper in wakers(view, a, seat, clause, rec)
                    # it pays the blood itself (what the card requires, a title: wakers)
                    if sleeper.counters >= int(base.get("blood", 0))  # type: ignore[call-overload]
                ]
            for fields_in, whom in variants:
                fields = _paid(rec, view, seat, player, tuple(sorted(fields_in.items())))
                if fields is None:
                    continue
                by = dict(fields).get("minion")
                if isinstance(by, tuple) and (by, card_id(card.card)) in a.played:
                    continue  # that minion (the blocker, for intercept) played this card in this action (2.1)
                words = " ".join(p for p in (_levels_words(clause), ", ".join(e.words() for e in clause.effects)) if p)
                barred = view.card(pick["bar"]) if isinstance(pick.get("bar"), tuple) else None  # type: ignore[arg-type]
                words += f": {barred.name}" if barred is not None else whom
                out.setdefault(fields, Choice(clause, fields, words))
    return list(out.values())


def _may_play(rec: CardRecord, minion: CardView | None, view: VtesView) -> bool:
    """``minion`` meets the card ``rec``'s clan, Discipline and title, a title contested or yielded
    counting as none, as the rules check it (:func:`engine.games.vtes.card_checks.check_requirements`;
    a card unknown to the seat: as far as it knows, yes)."""
    info = standing.seen(minion) if minion is not None else None
    if info is None or minion is None:
        return True
    return missing_requirement(rec, as_titled(info, view.contests, minion.pos), minion.name) is None


def spent(view: VtesView, rec: CardRecord, minion: CardView | None, superior: bool = False) -> bool:
    """A limit the card ``rec``'s text prints on how often it is played (at superior:
    ``superior``, :meth:`~engine.games.vtes.card_record.CardRecord.limits_at`) is spent for
    ``minion`` (None: played by no minion): one of the same card played in the open action (a
    limit of each action), or kept in the view's ``limited`` (the rules' check:
    :func:`engine.games.vtes.card_checks.take_limit`)."""
    for limit in rec.limits_at(superior):
        who = minion.pos if limit.minion and minion is not None else ()
        if limit.scope == LimitScope.ACTION:
            played = view.action.played if view.action is not None else ()
            if any(c == rec.id and (not limit.minion or m == who) for m, c in played):
                return True
        elif any(x.card == rec.id and x.minion == who and x.scope == limit.scope for x in view.limited):
            return True
    return False


def _by_other(rec: CardRecord, clause: Clause) -> bool:
    """The clause is played by a vampire other than the acting minion (the card or the clause
    says so)."""
    return rec.requires.other or clause.by_other


def _others(view: VtesView, a: Action, rec: CardRecord) -> list[CardView]:
    """The acting Methuselah's ready vampires other than the acting minion that may play the
    card ``rec`` "only usable by a ready (unlocked) vampire other than the acting minion": the
    unlocked ones where its text says so."""
    said = [r.sentence for c in rec.clauses for r in c.readings if BY_OTHER in r.sentence]
    unlocked = any("unlocked" in s for s in said)
    return [c for c in view.controlled(a.actor) if c.crypt and c.pos != a.minion and not (unlocked and c.locked)]


def _picks(clause: Clause, a: Action, view: VtesView, seat: int) -> list[dict[str, object]]:
    """The act fields of each choice a clause leaves to its player now: a redirect's new target
    (:func:`_targets`), the vampire barred from blocking (:func:`_bars`); ``[{}]`` for a clause
    with none, ``[]`` when it has one and none fits now."""
    targets = [{"target": t} if t is not None else {} for t in _targets(clause, a, view, seat)]
    return [t | b for t in targets for b in _bars(clause, a, view, seat)]


def _bars(clause: Clause, a: Action, view: VtesView, seat: int) -> list[dict[str, object]]:
    """A clause's "the chosen vampire cannot block this action" (one choice per ready vampire of
    a Methuselah entitled to block that could try, younger than the acting one where the clause
    says "Choose a younger vampire": of lower capacity) or "Vampires cannot block this action",
    by the acting Methuselah before any block attempt; ``[{}]`` for a clause with neither."""
    bar = next((e for e in clause.effects if e.kind == EffectKind.BAR_BLOCK), None)
    if bar is None:
        return [{}]
    if seat != a.actor or a.window != Window.NO_ATTEMPT or a.tried:
        return []
    if bar.whom == "vampires":
        return [] if a.vampires_barred else [{"bar_vampires": True}]
    said = {r.sentence for r in clause.readings}
    younger = "choose a younger vampire" in said and "choose any vampire" not in said
    titled = "choose a titled vampire or a younger vampire" in said
    acting = view.card(a.minion)

    def fits(c: CardView) -> bool:
        is_younger = acting is not None and c.capacity < acting.capacity
        return not (younger or titled) or is_younger or (titled and _titled(c))

    return [{"bar": tuple(c.pos)} for s in view.blockers() for c in view.may_try(s) if c.crypt and fits(c)]


def _targets(clause: Clause, a: Action, view: VtesView, seat: int) -> list[int | None]:
    """The Methuselahs a clause's redirect may choose as the bleed's new target (rulebook:
    "change the target of the bleed"): only by the bled Methuselah once blocks are declined
    (window C), another than the acting minion's controller and itself, or its predator's
    predator; ``[None]`` for a clause with no redirect, ``[]`` when it cannot redirect now."""
    redirect = next((e for e in clause.effects if e.kind == EffectKind.REDIRECT), None)
    if redirect is None:
        return [None]
    if a.kind != ActionKind.BLEED or a.targets != (seat,) or a.window != Window.DECLINED or seat == a.actor:
        return []
    others = [s for s in view.in_game() if s not in (a.actor, seat)]
    if redirect.whom == "predator's predator":
        far = view.players[view.players[seat].predator].predator
        others = [s for s in others if s == far]
    return list(others)


_MODIFIER_CONDITIONS: tuple[tuple[tuple[str, ...], Callable[[Action], bool]], ...] = (
    (("during a referendum", "polling step", "on a successful referendum"), lambda a: False),
    (("during a bleed", "as a bleed action", "on a successful bleed"), lambda a: a.kind == ActionKind.BLEED),
    (("as a non-bleed action",), lambda a: a.kind != ActionKind.BLEED),
    (("undirected action",), lambda a: not a.targets and not a.target_card),
    (
        ("as the action is announced",),
        lambda a: a.window == Window.NO_ATTEMPT and not a.tried and not a.declined and a.loop.holder == a.actor,
    ),
    (("to recruit or employ",), lambda a: a.kind in (ActionKind.RECRUIT, ActionKind.EMPLOY)),
    (
        ("attempts to block", "attempting to block", "is blocked", "successfully blocks", "action is blocked"),
        lambda a: a.window == Window.ATTEMPT,
    ),
)
"""An action modifier's "Only usable …" phrases that the open action decides, and whether the
action ``a`` meets each now: a referendum's are not an action's; a block's need a block attempt
under way (window B, 4.4); the others, the action's kind or target."""


def modifier_fits(conditions: Sequence[str], a: Action) -> bool:
    """Whether the open action ``a`` meets an action modifier's conditions (its "Only usable …"
    and "Not usable …" sentences, lower case: :func:`_conditions`) now. A phrase the table does not know is met (the
    card is left to the players)."""
    return all(
        fits(a) != c.startswith("not usable")  # "Not usable during a bleed action" (Forgotten Labyrinth)
        for phrases, fits in _MODIFIER_CONDITIONS
        for c in conditions
        if any(p in c for p in phrases)
    )


def unmet_condition(rec: CardRecord, a: Action) -> str | None:
    """The first of the action modifier ``rec``'s whole-card conditions (an "Only usable …"
    sentence without a Discipline level) that the open action ``a`` does not meet now, as the card
    prints it ("Only usable during a bleed action"); None when it meets them all (or the table
    does not know the phrase)."""
    for sentence in _conditions(rec, None):
        if not modifier_fits([sentence], a):
            return sentence[:1].upper() + sentence[1:]
    return None


def unmet_level_condition(rec: CardRecord, a: Action, have: frozenset[str]) -> str | None:
    """When every clause with a Discipline level and effects that a minion with the levels
    ``have`` may play has a condition the open action ``a`` does not meet now, the first such
    condition, as printed ("Not usable during a bleed action"); None when one fits, or there is
    none."""
    levelled = [c for c in rec.clauses if c.levels and c.effects and c.usable_by(have)]
    missed = [next((s for s in _conditions(rec, c) if not modifier_fits([s], a)), None) for c in levelled]
    if not missed or any(m is None for m in missed):
        return None
    first = missed[0] or ""
    return first[:1].upper() + first[1:]


def _conditions(rec: CardRecord, clause: Clause | None) -> list[str]:
    """The condition sentences of the card's clauses without a level, and of ``clause``."""
    return [
        r.sentence
        for c in rec.clauses
        if not c.levels or c is clause
        for r in c.readings
        if r.kind == SentenceKind.CONDITION
    ]


def played_with(rec: CardRecord, a: Action) -> str | None:
    """The name of a card played in the action ``a`` that ``rec`` cannot be played
    with during one action (its text's "X and cards named <Y> cannot both be played during the
    same action"), or None."""
    if not rec.requires.exclusive:
        return None
    base = card_base()
    for _, cid in a.played:
        info = base.info(cid)
        if info is not None and info.name.lower() in rec.requires.exclusive:
            return info.name
    return None


def _paid(
    rec: CardRecord, view: VtesView, seat: int, minion: CardView | None, fields: tuple[tuple[str, object], ...]
) -> tuple[tuple[str, object], ...] | None:
    """``fields`` with the card's printed cost paid: blood by the minion playing it (its blocker
    for an intercept), pool by ``seat``; None when it cannot be paid."""
    out = dict(fields)
    costs = rec.costs
    if costs.blood:
        payer = view.card(out["minion"]) if "minion" in out else minion  # type: ignore[arg-type]
        if payer is None or not payer.crypt or payer.counters < costs.blood:
            return None
        out["blood"], out["minion"] = costs.blood, tuple(payer.pos)
    if costs.pool:
        if view.players[seat].pool < costs.pool:
            return None
        out["pool"] = costs.pool
    return tuple(sorted(out.items()))


def reactor(view: VtesView, a: Action, seat: int, card: str) -> CardView | None:
    """The minion that plays the reaction ``card`` (its identity) of ``seat``'s: of those that have
    not played that card in this action (2.1) and meet its clan, Discipline and title: for a card
    "only usable by a locked" minion, its ready locked minion with the most Discipline levels; else
    its blocking minion, else its ready unlocked minion with the most Discipline levels, else for a
    card "usable by a locked" minion too, its ready locked one."""
    played = card_id(card)

    def fresh(c: CardView) -> bool:
        return (c.pos, played) not in a.played

    rec = record(card) if card else None

    def may(c: CardView) -> bool:  # not yet played it, and meets its clan, Discipline and title
        return fresh(c) and (rec is None or _may_play(rec, c, view))

    locked = [c for c in view.controlled(seat) if c.locked and may(c) and (c.crypt or "Ally" in c.types)]
    if rec is not None and rec.requires.locked:  # "only usable by a locked" minion
        return max(locked, key=lambda c: (len(disciplines(c)), c.pos), default=None)
    blocker = view.card(a.blocker) if a.blocker else None
    if blocker is not None and blocker.controller == seat and may(blocker):
        return blocker
    ready = [c for c in view.may_try(seat) if may(c)]  # a woken minion plays reactions too
    if not ready and rec is not None and rec.requires.locked_too:  # "usable by a locked" minion as well
        ready = locked
    return max(ready, key=lambda c: (len(disciplines(c)), c.pos), default=None)


def _after_only(rec: CardRecord, clause: Clause) -> bool:
    """The clause is played only after action resolution: the whole card or the clause says so."""
    said = [r.sentence for c in rec.clauses if not c.levels or c is clause for r in c.readings]
    return any(s.startswith("only usable after") and "resolution" in s for s in said)


def _wakes(clause: Clause) -> bool:
    """The clause wakes its locked minion, or unlocks it to attempt to block: played by a locked
    minion while its Methuselah may block (:func:`waker`)."""
    return any(e.kind == EffectKind.WAKE or (e.kind == EffectKind.UNLOCK and e.whom == "block") for e in clause.effects)


def may_react(view: VtesView, a: Action, seat: int, card: str) -> bool:
    """``seat`` has a minion that may play the reaction ``card`` (its identity) now: a reactor
    (:func:`reactor`), or a locked minion that a clause of the card wakes (:func:`waker`)."""
    if reactor(view, a, seat, card) is not None:
        return True
    rec = record(card) if card else None
    return rec is not None and any(_wakes(c) and waker(view, a, seat, c, rec) for c in rec.clauses)


def waker(view: VtesView, a: Action, seat: int, clause: Clause, rec: CardRecord) -> CardView | None:
    """The first of :func:`wakers` (the one with the most Discipline levels), or None."""
    return next(iter(wakers(view, a, seat, clause, rec)), None)


def wakers(view: VtesView, a: Action, seat: int, clause: Clause, rec: CardRecord) -> list[CardView]:
    """The locked minions of ``seat``'s that a reaction clause of the card ``rec`` which wakes its
    minion may wake now, the most Discipline levels first: only while ``seat`` may still attempt
    to block the action (window A, entitled, not declined); each ready locked minion not yet woken,
    that meets the card's clan, Discipline and title (Second Tradition: Domain: a prince or
    justicar), with the clause's Discipline levels. Empty: none."""
    if a.window != Window.NO_ATTEMPT or seat not in view.blockers() or seat in a.declined:
        return []
    asleep = [
        c
        for c in view.controlled(seat)
        if c.locked
        and c.pos not in a.woken
        and (c.crypt or "Ally" in c.types)
        and clause.usable_by(disciplines(c))
        and _may_play(rec, c, view)
    ]
    return sorted(asleep, key=lambda c: (len(disciplines(c)), c.pos), reverse=True)


def _numbers(
    clause: Clause, a: Action, acting: bool, view: VtesView, seat: int
) -> tuple[tuple[str, object], ...] | None:
    """The act fields of ``clause``'s numbers in the open action ``a``, or None when one of them
    cannot apply now."""
    fields: dict[str, object] = {}
    for e in clause.effects:
        match e.kind:
            case EffectKind.STEALTH:
                if not (acting and a.window == Window.ATTEMPT and a.intercept >= a.stealth):
                    return None
                fields["stealth"] = int(fields.get("stealth", 0)) + e.amount  # type: ignore[call-overload]
            case EffectKind.INTERCEPT if e.whom == ON_BLOCK:  # the woken minion blocks with it at once
                if acting or a.window != Window.NO_ATTEMPT:
                    return None
                fields["intercept"] = e.amount
            case EffectKind.UNLOCK if e.whom == "block" and e.amount:
                fields["blood"] = e.amount  # "burns 1 blood to unlock": the unlocked minion pays
            case EffectKind.INTERCEPT if e.whom == YOUNGER_OR_ALLY:  # for the rest of the action
                blocker = view.card(a.blocker) if a.blocker else None
                if not acting or a.weaken or blocker is None or not weakened(view.card(a.minion), blocker):
                    return None
                if a.window != Window.ATTEMPT or not a.blocks:
                    return None
                fields["intercept"] = int(fields.get("intercept", 0)) + e.amount  # type: ignore[call-overload]
            case EffectKind.INTERCEPT if e.amount < 0:  # "the blocking minion gets -1 intercept"
                if not acting or a.window != Window.ATTEMPT or not a.blocker or not a.blocks:
                    return None
                fields["intercept"] = int(fields.get("intercept", 0)) + e.amount  # type: ignore[call-overload]
            case EffectKind.LOCK if e.whom == FAILED_BLOCKERS:
                if not acting:
                    return None
                fields["lock_failed"] = True
            case EffectKind.BURN_BLOOD if e.whom == UNLESS_BLOCKS:  # with the wake of its clause
                fields["wake_cost"] = e.amount
            case EffectKind.BAR_BLOCK if not acting:
                return None
            case EffectKind.END_IF_BLOCKED:  # Mirror Walk: kept on the action, with its stealth
                if not acting or a.end_if_blocked:
                    return None
                fields["end_if_blocked"] = True
            case EffectKind.ATTEMPT_BLOCK:  # Eagle's Sight: whoever may block by default
                if acting or a.window != Window.NO_ATTEMPT or seat in a.declined:
                    return None
                fields["block"] = True
            case EffectKind.END_ACTION:
                if not _ends_now(a, acting, view, seat):
                    return None
                fields["end_action"] = True
                unlock = e.whom == "unlock" or any(x.kind == EffectKind.UNLOCK and not x.whom for x in clause.effects)
                if unlock:
                    fields["unlock_actor"] = True
            case EffectKind.FAIL_BLOCK:
                if not acting or a.window != Window.ATTEMPT or not a.blocker:
                    return None
                fields["fail_block"] = True
                if e.amount:  # "burn 1 blood to have that attempt fail": the acting minion's blood
                    actor = view.card(a.minion)
                    if actor is None or actor.counters < e.amount:
                        return None
                    fields["blood"], fields["minion"] = e.amount, tuple(a.minion)
            case EffectKind.INTERCEPT if e.whom in blood_intercept.WHOMS:
                pass  # taken later in the action, for blood (blood_intercept.offers)
            case EffectKind.INTERCEPT if e.whom == "titled" and not _titled(view.card(a.minion)):
                pass  # "an additional +1 intercept if the acting minion is titled", and it is not
            case EffectKind.INTERCEPT:
                blocker = view.card(a.blocker) if a.blocker else None
                mine = blocker is not None and blocker.controller == seat
                if acting or a.window != Window.ATTEMPT or not mine or not a.stealth > a.intercept:
                    return None
                fields["intercept"] = int(fields.get("intercept", 0)) + e.amount  # type: ignore[call-overload]
                assert blocker is not None
                fields["minion"] = tuple(blocker.pos)
                if e.whom == blood_intercept.PAID:  # "This vampire burns 1 blood to get +1 intercept"
                    if blocker.counters < e.least:
                        return None
                    fields["blood"] = e.least
            case EffectKind.REDUCE_BLEED:
                # a bleed against this seat, once blocks are declined, while it bleeds for 1 or more
                if acting or a.kind != ActionKind.BLEED or a.targets != (seat,) or a.window != Window.DECLINED:
                    return None
                cut = min(e.amount, a.amount + int(fields.get("amount", 0)))  # type: ignore[call-overload]
                if cut < 1:
                    return None
                fields["amount"] = int(fields.get("amount", 0)) - cut  # type: ignore[call-overload]
            case EffectKind.BLEED if e.whom == POOR and any(view.players[t].pool > e.least for t in a.targets):
                return None  # "+3 bleed if the target Methuselah has 9 or fewer pool", and it has more
            case EffectKind.BLEED if e.whom not in ("", POOR) and _clan(view.card(a.minion)) != e.whom:
                pass  # "an additional +1 bleed if this vampire is Toreador", and it is not
            case EffectKind.UNLOCK if e.whom == "success":
                if not acting:
                    return None
                fields["unlock"] = True
            case EffectKind.BLEED:
                if not acting or a.kind != ActionKind.BLEED:
                    return None
                if e.limited:
                    if a.bleed_mods:
                        return None
                    fields["bleed_mod"] = True
                fields["amount"] = int(fields.get("amount", 0)) + e.amount  # type: ignore[call-overload]
            case _:
                pass
    return tuple(sorted(fields.items()))


def _ends_now(a: Action, acting: bool, view: VtesView, seat: int) -> bool:
    """A card that ends the action as a block attempt would succeed may be played now: during a
    block attempt whose intercept meets the stealth (the minion "is blocked, before block
    resolution", "about to enter combat"); by the acting Methuselah, or by the blocker's when the
    acting vampire is younger than the blocker (of lower capacity: Obedience)."""
    if a.window != Window.ATTEMPT or not a.blocker or not a.blocks:
        return False
    if acting:
        return True
    blocker, actor = view.card(a.blocker), view.card(a.minion)
    if blocker is None or actor is None or blocker.controller != seat:
        return False
    return actor.crypt and actor.capacity < blocker.capacity


def _titled(card: CardView | None) -> bool:
    """A minion with a title (its printed one; a card unknown to the seat: no)."""
    info = card_base().info(card.card) if card is not None and card.card else None
    return info is not None and bool(info.title)


def _clan(card: CardView | None) -> str:
    """A vampire's clan in lower case ("" for none, or a card unknown to the seat)."""
    info = card_base().info(card.card) if card is not None and card.card else None
    return info.clan.lower() if info is not None else ""


def action_choices(card: CardView, minion: CardView, view: VtesView | None = None) -> list[Choice]:
    """The ways ``minion`` may announce the action card ``card`` (P2), per clause it may play (a
    Discipline level's clause with what the card says before its levels), each way once:
    ``kind`` bleed for a clause that bleeds (its ``amount`` 1 plus the card's bleed), the
    clause's ``stealth``; for a clause that adds blood to a vampire of the uncontrolled region,
    one choice per such vampire of ``view``'s seat that fits (``add_blood``, ``add_to``), none
    when none fits; for a clause that burns a card in play, one per card it may name (``burn``,
    ``target_card``), and no choice when there is none; one choice with no numbers for a card the
    table does not read (its kind from its type, the action applied by hand)."""
    rec = record(card.card) if card.card else None
    if rec is None:
        return [Choice(None, (), "")]
    clauses = _whole(candidates(rec, minion, "Action"))
    # What the card says before its levels (Break the Bonds' "Ⓓ Bleed.") is played at every level.
    common = tuple(e for c in rec.clauses if not c.levels and c.type in ("", "Action") for e in c.effects)
    out: dict[tuple[tuple[str, object], ...], Choice] = {}
    burns = False  # a clause burns a card: with none to name, the card is not offered
    for clause in clauses:
        if not clause.levels and any(c.levels for c in clauses):
            continue  # its effects come with each level's ("+1 stealth action." then "[for] …")
        fields: dict[str, object] = {}
        for e in (*common, *clause.effects) if clause.levels else clause.effects:
            if e.kind == EffectKind.BLEED:
                fields["kind"] = ActionKind.BLEED
                fields["amount"] = 1 + e.amount
            elif e.kind == EffectKind.STEALTH:
                fields["stealth"] = e.amount
            elif e.kind == EffectKind.GAIN_POOL and e.whom in ("bleed", ""):  # "Gain 2 pool": as it succeeds
                fields["gain_pool"] = e.amount
            elif e.kind == EffectKind.GAIN_LIFE and e.whom == entering_life.ENTERS:  # "… has 2 life"
                fields["life"] = e.amount
            elif e.kind == EffectKind.GAIN_BLOOD and not e.whom:  # "This vampire gains 2 blood"
                fields["add_blood"], fields["add_to"] = e.amount, tuple(minion.pos)
            elif e.kind == EffectKind.UNLOCK and e.whom == "success":
                fields["unlock"] = True
            elif e.kind == EffectKind.DRAW and e.whom == "success":
                fields["draws"] = e.amount
        words = " ".join(p for p in (_levels_words(clause), ", ".join(e.words() for e in clause.effects)) if p)
        if clause.effects and any(e.kind == EffectKind.ENTER_COMBAT for e in clause.effects) and view is not None:
            burns = True  # a minion to fight: with none to name, the card is not offered
            for target in carried_moves.combat_targets(view):
                key = tuple(sorted({**fields, "kind": ActionKind.OTHER, "target_card": target}.items()))
                out.setdefault(key, Choice(clause, key, words))
            continue
        burned = _burned(clause, view)
        if burned is not None:
            burns = True
            for target in burned:
                key = tuple(sorted({**fields, "kind": ActionKind.OTHER, "burn": True, "target_card": target}.items()))
                out.setdefault(key, Choice(clause, key, words))
            continue
        for added in _added_blood(clause, minion, view):
            key = tuple(sorted({**fields, **added}.items()))
            out.setdefault(key, Choice(clause, key, words))
    unfit = view is not None and any(not _added_blood(c, minion, view) for c in clauses)
    return list(out.values()) or ([] if burns or unfit else [Choice(None, (), "")])


def _whole(clauses: list[Clause]) -> list[Clause]:
    """An action card's clauses with no Discipline level, each a line of its text that shares no
    sentence with another ("+1 stealth action." then "Add 4 blood to another vampire."), as the one
    way they are played together; ``clauses`` as they are otherwise (Discipline levels, or the
    ways of one line's choice)."""
    if len(clauses) < 2 or any(c.levels or c.type for c in clauses):
        return clauses
    said = [r.sentence for c in clauses for r in c.readings]
    if len(said) != len(set(said)):
        return clauses
    return [Clause((), "", tuple(r for c in clauses for r in c.readings))]


def _burned(clause: Clause, view: VtesView | None) -> list[tuple[int, int]] | None:
    """The cards in play a clause that burns one ("Ⓓ Burn an equipment") may name: those of
    another Methuselah (the predator or prey where it says so) of a kind it burns; None for a
    clause that burns none."""
    whom = next((e.whom for e in clause.effects if e.kind == EffectKind.BURN and e.whom), None)
    if whom is None or view is None or view.seat is None:
        return None
    seat = view.seat
    near = (view.players[seat].prey, view.players[seat].predator) if "(predator or prey)" in whom else None
    out = []
    for c in view.cards:
        rec = record(c.card) if c.card and c.zone.in_play and c.controller != seat else None
        if rec is not None and burnable(rec, whom) and (near is None or c.controller in near):
            out.append(c.pos)
    return out


def directed(rec: CardRecord, clause: Clause) -> bool:
    """The action card ``rec`` played at ``clause`` is a directed action (its text's Ⓓ, read
    "(d)", on the clause or before the card's levels; rulebook, "Directed and Undirected Actions")."""
    said = [
        r.sentence
        for c in rec.clauses
        if c is clause or (not c.levels and c.type in ("", "Action"))
        for r in c.readings
    ]
    return any(s.startswith("(d)") for s in said)


def _added_blood(clause: Clause, minion: CardView, view: VtesView | None) -> list[dict[str, object]]:
    """The ``add_blood``/``add_to`` fields of a clause that adds blood to a vampire of the
    uncontrolled region: one per vampire of ``view``'s seat it may go to (younger: of lower
    capacity than ``minion``; of the clan it names); ``[{}]`` for a clause that adds none; ``[]``
    when no vampire fits: the clause is no choice (its effect could not happen)."""
    add = next((e for e in clause.effects if e.kind == EffectKind.ADD_BLOOD), None)
    if add is None or view is None or view.seat is None:
        return [{}]
    if add.whom == ANOTHER:  # any Methuselah's ready vampire but the acting one
        ready = [c for c in view.cards if c.crypt and c.zone == Zone.READY and c.pos != minion.pos]
        return [{"add_blood": add.amount, "add_to": tuple(c.pos)} for c in ready]
    out: list[dict[str, object]] = []
    for c in view.uncontrolled(view.seat):
        info = card_base().info(c.card) if c.card else None
        if info is None:
            continue
        if add.whom == "younger" and not info.capacity < minion.capacity:
            continue
        if add.whom not in ("", "younger") and info.clan.lower() != add.whom:
            continue
        out.append({"add_blood": add.amount, "add_to": tuple(c.pos)})
    return out


def master_choices(view: VtesView, card: CardView) -> list[Choice]:
    """The ways the view's seat may play the master card ``card`` whose text moves blood from a
    vampire it controls to its pool: one per ready vampire of its with blood and amount the card
    allows and the vampire has, the most first ("move 2 to 5 blood": 5, 4, 3, 2; ``move_blood``,
    ``minion``), put on that vampire when the
    card goes on one (``to``, ``on``; ``pool`` its cost there, with what copies already on it add); or whose text adds blood to a vampire of its
    (:func:`_master_adds`). Empty for a card that does neither, or no vampire it fits."""
    rec = record(card.card) if card.card else None
    seat = view.seat
    if rec is None or seat is None:
        return []
    add = next((e for e in rec.effects if e.kind == EffectKind.ADD_BLOOD), None)
    if add is not None:
        return _master_adds(view, seat, add)
    move = next((e for e in rec.effects if e.kind == EffectKind.MOVE_BLOOD), None)
    if move is None or move.whom == EACH:
        return []  # from each ready vampire: no choice (plays.master_effects)
    info = card_base().info(rec.id)
    on = info is not None and play_place(info) == PlayPlace.ON_MINION
    out = []
    for c in view.controlled(seat):
        most = min(move.amount or c.counters, c.counters)
        for amount in range(most, max(move.least, 1) - 1, -1) if c.crypt else ():
            fields: dict[str, object] = {"move_blood": amount, "minion": tuple(c.pos)}
            if on:
                fields |= {"to": Target.ON, "on": tuple(c.pos)}
                extra = _cost_on(card, c, view)
                if extra and view.players[seat].pool < rec.costs.pool + extra:
                    break  # it cannot pay the extra pool to play it on this vampire
                if extra:
                    fields["pool"] = rec.costs.pool + extra
            out.append(Choice(None, tuple(sorted(fields.items())), f"{amount} blood from {c.name} to your pool"))
    return out


def vote_choices(view: VtesView, card: CardView) -> list[Choice]:
    """The ways the view's seat may play the hand ``card`` for its votes while a referendum polls
    (7.2: "this vampire gets +2 votes"): an action modifier by the acting vampire of the seat's own
    political action, a reaction by a ready unlocked vampire of the seat's in another's; one per
    clause the vampire may play whose votes it gives and whose printed cost it can pay
    (``votes``, ``minion``). Empty outside polling, in a blood hunt, once the seat is done."""
    r, seat = view.referendum, view.seat
    rec = record(card.card) if card.card else None
    if r is None or seat is None or rec is None or r.step != Poll.VOTING or r.hunted or seat in r.done:
        return []
    if not rec.has(EffectKind.VOTES):
        return []
    acting = view.card(r.minion) if r.minion else None
    if MODIFIER in card.types and seat == r.caller and acting is not None:
        minions, as_type = [acting], MODIFIER
    elif REACTION in card.types and seat != r.caller:
        minions, as_type = [c for c in view.ready_unlocked(seat) if c.crypt], REACTION
    else:
        return []
    out: dict[tuple[tuple[str, object], ...], Choice] = {}
    for minion in minions:
        if minion.zone != Zone.READY:
            continue
        for clause in candidates(rec, minion, as_type):
            for x in range(minion.counters + 1) if x_votes.by_blood(clause.effects) else (0,):  # Awe's X
                votes = x_votes.votes_for(clause.effects, x)
                paid = (("blood", x),) if x else ()
                fields = _paid(rec, view, seat, minion, (("minion", tuple(minion.pos)), ("votes", votes), *paid))
                if votes < 1 or fields is None:
                    continue
                cost = f" for {x} blood" if x else ""
                words = " ".join(p for p in (_levels_words(clause), f"+{votes} votes to {minion.name}{cost}") if p)
                out.setdefault(fields, Choice(clause, fields, words))
    return list(out.values())


def _master_adds(view: VtesView, seat: int, add: Effect) -> list[Choice]:
    """A master card's added blood (``add_blood``, ``add_to``): to each vampire of ``seat``'s
    uncontrolled region of the least capacity it names (its amount), for "a ready vampire" to
    each ready vampire (anyone's), or for "full capacity" to
    each vampire of its, uncontrolled or in play, short of its capacity (what it lacks)."""
    vampires = list(view.uncontrolled(seat))
    if add.whom == READY:
        vampires = [c for c in view.cards if c.crypt and c.zone == Zone.READY]
    if add.whom == "full":
        vampires += [c for c in view.cards if c.controller == seat and c.crypt and c.zone.in_play]
    out = []
    for c in vampires:
        amount = c.capacity - c.counters if add.whom == "full" else add.amount
        if amount < 1 or c.capacity < add.least:
            continue
        fields = (("add_blood", amount), ("add_to", tuple(c.pos)))
        out.append(Choice(None, fields, f"{amount} blood to {c.name}"))
    return out


def blood_shifts(view: VtesView, seat: int) -> list[dict[str, object]]:
    """The ``transfer`` fields (``kind``, ``card``, ``n``, ``by``) with which ``seat`` may move
    blood between a vampire and its pool by a card on that vampire in its own phase the card
    names ("during their master phase, this vampire's controller can move 1 blood …": Blood
    Doll, Vessel), unused this turn: to the pool while the vampire has blood, to the vampire while
    the pool has more than that (never the last pool)."""
    if view.acting != seat:
        return []
    out: list[dict[str, object]] = []
    for held in view.cards:
        rec = record(held.card) if held.card and held.controller == seat and held.zone == Zone.ON else None
        shift = next((e for e in rec.effects if e.kind == EffectKind.SHIFT_BLOOD), None) if rec else None
        vampire = view.card(held.on) if held.on else None
        if shift is None or vampire is None or not vampire.crypt or vampire.controller != seat:
            continue
        if view.phase != shift.whom or held.pos in view.used:
            continue
        base = {"card": vampire.as_list(), "n": shift.amount, "by": held.as_list()}
        if vampire.counters >= shift.amount:
            out.append({"kind": TransferKind.BLOOD, **base})
        if view.players[seat].pool > shift.amount:
            out.append({"kind": TransferKind.POOL, **base})
    return out


def after_choices(view: VtesView, card: CardView) -> list[Choice]:
    """The ways the view's seat may play the action modifier ``card`` that is "only usable after
    action resolution" and unlocks its vampire (Freak Drive, Forced March, Instantaneous
    Transformation): after the seat's last action resolved and before the next, by that action's
    minion while it is locked, per clause it may play whose conditions fit how the action ended
    ("if the action was successful", "… blocked"), its printed cost paid (``unlock``,
    ``minion``)."""
    rec = record(card.card) if card.card else None
    seat = view.seat
    quiet = view.action is None and view.combat is None and view.referendum is None
    last = resolved_last(view.phase, view.done, quiet)
    if rec is None or not rec.after_resolution or last is None or seat != view.acting:
        return []
    from engine.games.vtes import referendum_gains  # it builds on this module's choices

    if referendum_gains.pays_margin(rec):  # Voter Captivation: not an unlock
        return referendum_gains.margin_choices(view, card, rec, last)
    minion = view.card(last.minion)
    if minion is None or not minion.locked or minion.zone != Zone.READY or spent(view, rec, minion):
        return []
    whole = [r.sentence for c in rec.clauses if not c.levels for r in c.readings if r.kind == SentenceKind.CONDITION]
    out: dict[tuple[tuple[str, object], ...], Choice] = {}
    for clause in candidates(rec, minion, MODIFIER):
        if not any(e.kind == EffectKind.UNLOCK for e in clause.effects) or spent(view, rec, minion, clause.superior):
            continue
        said = whole + [r.sentence for r in clause.readings if r.kind == SentenceKind.CONDITION]
        if any("successful" in s for s in said) and last.outcome != Outcome.SUCCESSFUL:
            continue
        if any("blocked" in s for s in said) and last.outcome != Outcome.BLOCKED:
            continue
        fields = _paid(rec, view, seat, minion, (("minion", tuple(minion.pos)), ("unlock", True)))
        if fields is not None:
            words = " ".join(p for p in (_levels_words(clause), f"unlock {minion.name}") if p)
            out.setdefault(fields, Choice(clause, fields, words))
    return list(out.values())


class LevelError(ValueError):
    """The level a player named for a card is not one it may play now (the sentence says why)."""


def pick(choices: list[Choice], level: str | None = None) -> Choice | None:
    """The choice a player's ``level`` names (``"basic"``, ``"superior"``; None: the one that
    changes the action most, superior first on a tie), or None when there is none to pick.
    Raises LevelError for a level the card offers no choice at."""
    if level not in (None, "basic", "superior"):
        raise LevelError(f"{level!r} is no level: say basic or superior")
    found = [c for c in choices if level is None or c.superior == (level == "superior")]
    if level is not None and not found:
        raise LevelError(f"the card cannot be played at {level} now (its levels: {_levels_of(choices) or 'none'})")
    return max(found, key=lambda c: (c.weight(), c.superior), default=None)


def _levels_of(choices: list[Choice]) -> str:
    return ", ".join(dict.fromkeys("superior" if c.superior else "basic" for c in choices if c.clause is not None))


def printed_cost(card: CardView, mine: Sequence[CardView], payer: CardView | None) -> dict[str, object]:
    """The act fields that pay ``card``'s printed cost, as its record reads it, and the pool more
    that cards of ``mine`` in play make it cost (:func:`_extra_cost`): ``pool`` N, or
    ``blood`` N with the ``minion`` that pays it (``payer`` when it is a ready vampire of ``mine``
    with that much blood, else the first such); {} for a card with no printed cost, or no vampire
    able to pay its blood (the engine then says what is missing)."""
    rec = record(card.card) if card.card else None
    if rec is None:
        return {}
    costs = rec.costs
    extra = _extra_cost(rec, mine)
    if costs.pool or extra:
        return {"pool": costs.pool + extra}
    if costs.blood:
        able = [c for c in mine if c.crypt and c.zone == Zone.READY and c.counters >= costs.blood]
        vampire = payer if payer in able else next(iter(able), None)
        return {"blood": costs.blood, "minion": vampire.as_list()} if vampire is not None else {}
    return {}


def _extra_cost(rec: CardRecord, mine: Sequence[CardView]) -> int:
    """The pool more that the cards ``mine`` (a seat's cards in play) make the card ``rec`` cost
    its controller: "Cards named Minion Tap cost you +1 pool to play" (Villein), each such card
    once."""
    name = rec.name.lower()
    return sum(
        e.amount
        for held in mine
        if held.zone.in_play and (other := record(held.card) if held.card else None) is not None
        for e in other.effects
        if e.kind == EffectKind.EXTRA_COST and e.whom == name
    )


def _cost_on(card: CardView, vampire: CardView, view: VtesView) -> int:
    """The pool more that copies of ``card`` already on ``vampire`` make it cost to play there
    ("Villein costs +1 pool to play on this vampire")."""
    cid = card_id(card.card) if card.card else None
    total = 0
    for held in view.cards:
        if held.on != vampire.pos or not held.card or card_id(held.card) != cid:
            continue
        rec = record(held.card)
        total += (
            sum(e.amount for e in rec.effects if e.kind == EffectKind.EXTRA_COST and e.whom == ON_THIS) if rec else 0
        )
    return total
