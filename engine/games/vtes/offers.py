"""What a seat may do now, said once (DESIGN.md, "Games behind one interface": the acts legal for a
seat; shared/rules/vtes.md and vtes-actions.md).

:func:`offers` derives, from a seat's :class:`~engine.games.vtes.view.VtesView`, every act the
table would take from it now as a typed :class:`Offer`: in the innermost open window (an action, a
combat, a referendum: :mod:`engine.games.vtes.windows`) its answers (pass, block with which minion,
which modifier or reaction fits, which strike, a maneuver, a press, each source of votes, done, the
terms, a diablerie); outside any window, the turn's business of the acting Methuselah (the next
phase, the Edge, withdrawal, an action for each minion, transfers, influence, discards, cards to
play). :func:`legal_acts` (bots), :func:`engine.games.vtes.autopass.auto_pass` and the screen's keys
read them; nothing else restates what is legal. Free-form acts (moves, counters, pool, combat by a
card, locks, draws) are legal too and the engine takes them, but are not offered: they depend on
card texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.games.base import Act, Pos
from engine.games.vtes import (
    bleed_burns,
    blood_intercept,
    cancel_reading,
    card_actions,
    card_levels,
    lasting,
    master_locks,
    referendum_cancels,
    standing,
)
from engine.games.vtes.aims import aimed_acts
from engine.games.vtes.cancel_offers import cancel_acts
from engine.games.vtes.card_checks import missing_cancel, missing_requirement, missing_target
from engine.games.vtes.card_effects import EffectKind
from engine.games.vtes.card_play import (
    LevelError,
    action_choices,
    after_choices,
    blood_shifts,
    directed,
    master_choices,
    may_react,
    printed_cost,
    spent,
    vote_choices,
    window_choices,
)
from engine.games.vtes.card_record import card_terms, record
from engine.games.vtes.cards import PlayPlace, card_base, card_id, play_place
from engine.games.vtes.claims import window_held
from engine.games.vtes.combat_cards import additional_strike_cards, combat_moves, combat_plays, prevent_acts
from engine.games.vtes.contests import as_titled, own_copy
from engine.games.vtes.politics import title_votes
from engine.games.vtes.readings import (
    StrikeReading,
    best_strike,
    level_words,
    reaction_fits,
    strike_act,
    strike_levels,
    weapon_strikes,
)
from engine.games.vtes.state import Action, Answer, Combat, Referendum
from engine.games.vtes.state import hunts_due as must_hunt
from engine.games.vtes.terms_choices import terms_choices
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import (
    ACTION_TYPES,
    MODIFIER,
    REACTION,
    ActionKind,
    ClaimStatus,
    CombatStep,
    Do,
    Phase,
    Poll,
    Ruleset,
    Status,
    Step,
    Target,
    TransferKind,
    VoteSource,
    Window,
    Zone,
)


@dataclass(frozen=True)
class Offer:
    """One act a seat may make now.

    ``act``: the act as the seat would send it, its defaults filled (the hand strike, a title's
    votes, a bleed of the prey for 1); ``do``: its name; ``answer``: it answers the innermost open
    window (pass, block, a card played in the window, a strike, a maneuver, a press, a vote, done,
    the terms, a diablerie) rather than the turn's own business or the time limit.
    """

    act: Act
    answer: bool = False

    @property
    def do(self) -> Do:
        """The act's name."""
        return Do(self.act["do"])

    @property
    def minion(self) -> Pos | None:
        """The minion the act names (``minion``), or None."""
        raw = self.act.get("minion")
        return (raw[0], raw[1]) if isinstance(raw, list) else None

    @property
    def card(self) -> Pos | None:
        """The card the act names (``card``), or None."""
        raw = self.act.get("card")
        return (raw[0], raw[1]) if isinstance(raw, list) else None


def offers(view: VtesView) -> tuple[Offer, ...]:
    """Every act the view's seat may make now (a spectator: none), in a stable order.

    In the joining step: ``{"do": "deck", "crypt": 12, "library": 60}`` as the shape of the one
    act (the seat fills in its own deck sizes). In play: calling time (tournament) for any
    Methuselah in the game; then the answers of the innermost open window (:func:`answers`); with
    no window open, for the acting Methuselah: moving on (``phase``, ``end_turn``; not while a
    vampire must hunt, 2.2), the Edge, withdrawal, in the minion phase an ``action`` for each ready
    unlocked minion (a bleed of the prey for 1 unless it bled this turn, a hunt for each vampire;
    only the mandatory hunts while one is due), every transfer it can afford, influencing out every
    vampire at capacity, discarding, and playing each hand card that is not played during an
    action; for another Methuselah over its hand size, discarding down (rulebook, "Drawing Cards").
    """
    seat = view.seat
    if seat is None:
        return ()
    me = view.players[seat]
    if view.step == Step.JOINING:
        return () if me.declared else (Offer({"do": Do.DECK, "crypt": 12, "library": 60}),)
    if view.step != Step.PLAY or me.status != Status.IN:
        return ()
    out: list[Offer] = list(claim_answers(view, seat))
    calling = view.ruleset == Ruleset.TOURNAMENT and not view.time_called and seat not in view.time_calls
    if calling and not window_held(view.claims):  # a claim holding a window: only its answers
        out.append(Offer({"do": Do.TIME}))
    if view.innermost is not None:
        return (*out, *answers(view))
    if view.acting != seat:  # over its hand size (a card gave some until the turn's end): discard down
        over = len(view.hand) > me.hand_size
        return (*out, *(Offer({"do": Do.DISCARD, "card": c.as_list()}) for c in view.hand if over))
    return (*out, *(replace(o, act=with_terms(view, o.act)) for o in _turn(view, seat)))


def claim_answers(view: VtesView, seat: int) -> tuple[Offer, ...]:
    """``seat``'s answers to the claims waiting (docs/vtes-by-hand.md): accept or
    dispute each that touches its things and that it has not accepted; retract each of its own.
    (A ``lapse`` depends on the time, which a view does not hold: a screen offers it on its clock.)"""
    out: list[Offer] = []
    for c in view.claims:
        if c.status != ClaimStatus.PENDING:
            continue
        if seat in c.seats and seat not in c.accepted:
            out.append(Offer({"do": Do.ACCEPT, "act": c.act}))
            if seat not in c.disputed:
                out.append(Offer({"do": Do.DISPUTE, "act": c.act}))
        if seat == c.author:
            out.append(Offer({"do": Do.RETRACT, "act": c.act}))
    return tuple(out)


def legal_acts(view: VtesView) -> list[Act]:
    """The acts of :func:`offers`, each a new map (a bot may change its copy)."""
    return [dict(o.act) for o in offers(view)]


def answers(view: VtesView) -> tuple[Offer, ...]:
    """The view's seat's answers to the innermost open window (empty when none is open or the
    window does not wait for this seat): see :func:`offers`."""
    seat, top = view.seat, view.innermost
    if seat is None or top is None or view.players[seat].status != Status.IN or window_held(view.claims):
        return ()  # a claim made in the window holds it: only the claims' answers (claim_answers)
    match top:
        case Referendum():
            acts = _referendum(view, seat, top)
        case Combat():
            acts = _combat(view, seat, top)
        case Action():
            acts = _action(view, seat, top)
        case Answer():
            acts = cancel_acts(view, seat, top)
    return tuple(Offer(with_terms(view, act), answer=True) for act in acts)


_PLAYS_A_CARD = frozenset({Do.PLAY, Do.ACTION, Do.STRIKE, Do.PREVENT, Do.MANEUVER, Do.PRESS})


def with_terms(view: VtesView, act: Act) -> Act:
    """``act`` with what the card it plays from the seat's hand says of how often it is played and
    when it is replaced (:func:`engine.games.vtes.card_record.card_terms`: ``limit``,
    ``limit_all``, ``replace``, docs/protocol.md 4.4.1), so that the log holds them; ``act`` as it
    is for any other act."""
    raw = act.get("card")
    if act.get("do") not in _PLAYS_A_CARD or not isinstance(raw, list):
        return act
    held = next((c for c in view.hand if c.pos == (raw[0], raw[1])), None)
    rec = record(held.card) if held is not None and held.card else None
    if rec is None:
        return act
    return {**act, **card_terms(rec, card_levels.played_superior(rec, card_levels.shown(*card_levels.act_fields(act))))}


def of(view: VtesView, do: Do) -> tuple[Offer, ...]:
    """The view's seat's offers of one kind (``do``)."""
    return tuple(o for o in offers(view) if o.do == do)


# --- outside any window: the acting Methuselah's turn ------------------------------------------


def hunts_due(view: VtesView, seat: int) -> tuple[Pos, ...]:
    """``seat``'s ready unlocked vampires with no blood: each must hunt (vtes-actions.md 2.2;
    :func:`engine.games.vtes.state.hunts_due`, the rule the engine checks)."""
    return tuple(must_hunt(view.cards, seat))


def is_action_card(card: CardView) -> bool:
    """An action card (announced as a minion's action, not played), not a modifier or reaction
    (§2, "Minion Cards")."""
    types = set(card.types)
    return bool(types & ACTION_TYPES) and not types & {MODIFIER, REACTION}


def _played_in_actions(card: CardView) -> bool:
    """A card played during an action or a combat, or announced as an action, not played on its
    own (§2)."""
    types = set(card.types)
    return bool(types) and (types <= {MODIFIER, REACTION, "Combat"} or is_action_card(card))


def _turn(view: VtesView, seat: int) -> list[Offer]:
    me = view.players[seat]
    acts: list[Act] = []
    due = hunts_due(view, seat)
    contests = view.contests_due(seat)
    if not (view.phase == Phase.MINION and due) and not contests:
        acts.append({"do": Do.PHASE})
    if not (view.phase in (Phase.UNLOCK, Phase.MASTER, Phase.MINION) and due) and not contests:
        # Ending the turn before the minion phase ends would skip a hunt that is due (2.2), and
        # the unlock phase does not end with a contest unsettled (contests.check_settled).
        acts.append({"do": Do.END_TURN})
    acts += [{"do": Do.TRANSFER, **fields} for fields in blood_shifts(view, seat)]
    acts += lasting.lock_offers(view, seat)
    if len(view.hand) > me.hand_size:  # discard down to the hand size (rulebook, "Drawing Cards")
        acts += [{"do": Do.DISCARD, "card": c.as_list()} for c in view.hand]
    match view.phase:
        case Phase.UNLOCK:
            acts += contest_acts(view, seat)
            if view.edge == seat and not view.edge_used:
                acts.append({"do": Do.EDGE})
            if not me.withdrawing and me.library_count == 0 and me.hand_at_start < me.hand_size:
                acts.append({"do": Do.WITHDRAW})
        case Phase.MINION:
            acts += _minion_actions(view, seat, due)
            after = [(c, x) for c in view.hand if MODIFIER in c.types for x in after_choices(view, c)]
            acts += [{"do": Do.PLAY, "card": c.as_list(), **x.act_fields()} for c, x in after]
        case Phase.INFLUENCE:
            for c in view.uncontrolled(seat):
                if view.transfers >= 1 and me.pool >= 1:
                    acts.append({"do": Do.TRANSFER, "kind": TransferKind.POOL, "card": c.as_list(), "n": 1})
                if view.transfers >= 2 and c.counters >= 1:
                    acts.append({"do": Do.TRANSFER, "kind": TransferKind.BLOOD, "card": c.as_list(), "n": 1})
                if c.capacity and c.counters >= c.capacity and not own_copy(view.cards, c, seat):
                    acts.append({"do": Do.INFLUENCE, "card": c.as_list()})
            if view.transfers >= 4 and me.pool >= 1 and me.crypt_count:
                acts.append({"do": Do.TRANSFER, "kind": TransferKind.CRYPT})
        case Phase.DISCARD if view.discard_actions == 0 and len(view.hand) <= me.hand_size:  # one (rules.py)
            for c in view.hand:
                acts.append({"do": Do.DISCARD, "card": c.as_list()})
        case _:
            pass
    if view.phase != Phase.DISCARD:
        for c in view.hand:
            if _played_in_actions(c):
                continue
            if "Master" in c.types and (view.phase != Phase.MASTER or view.master_actions):
                continue  # in the master phase, one master phase action (plays.py, rules.py)
            printed = record(c.card) if c.card else None
            if printed is not None and spent(view, printed, None):
                continue  # its printed limit is spent ("Only one … each turn", "… in a game"), even by a card canceled
            cost = printed_cost(c, [m for m in view.cards if m.controller == seat and m.zone.in_play], None)
            if not _affordable(c, cost, me.pool):
                continue
            moves = master_choices(view, c) if "Master" in c.types else []
            acts += [{"do": Do.PLAY, "card": c.as_list(), **cost, **m.act_fields()} for m in moves]
            puts = standing.put_choices(view, c) if not moves else None  # a Discipline card: on a vampire
            acts += [{"do": Do.PLAY, "card": c.as_list(), **cost, **put} for put in puts or ()]
            acts += [{"do": Do.PLAY, "card": c.as_list(), **cost, **x} for x in lasting.recover_choices(view, c)]
            acts += [{"do": Do.PLAY, "card": c.as_list(), **cost, **x} for x in master_locks.lock_choices(view, c)]
            if not moves and puts is None and not _target_missing(view, seat, c):
                acts.append({"do": Do.PLAY, "card": c.as_list(), **cost, **_put_in_play(c)})
    return [Offer(act) for act in acts]


def _target_missing(view: VtesView, seat: int, card: CardView) -> bool:
    """``card`` needs a target that does not exist (:func:`engine.games.vtes.card_checks.missing_target`,
    :func:`engine.games.vtes.card_checks.missing_cancel`, the checks the rules make): not offered."""
    rec = record(card.card) if card.card else None
    if rec is None:
        return False
    blood = [c.counters for c in view.controlled(seat) if c.crypt and c.zone == Zone.READY]
    top = view.windows[-1] if view.windows else None
    announced = view.card(top.card) if isinstance(top, Answer) else None
    waits = cancel_reading.waiting(record(announced.card)) if announced is not None and announced.card else None
    return missing_target(rec, blood) is not None or missing_cancel(rec, waits) is not None


def _put_in_play(card: CardView) -> dict[str, object]:
    """``to: ready`` for a card its text puts in its player's area ("Put this card in play", a
    location: :func:`engine.games.vtes.cards.play_place`), where it stays and its lasting effects
    apply (:mod:`engine.games.vtes.lasting`); {} for any other (the ash heap, or a minion the
    player names)."""
    info = card_base().info(card.card) if card.card else None
    return {"to": Target.READY} if info is not None and play_place(info) == PlayPlace.IN_PLAY else {}


def _affordable(card: CardView, cost: dict[str, object], pool: int) -> bool:
    """The seat can pay ``card``'s printed cost (:func:`printed_cost` found a payer, and its pool
    covers a pool cost)."""
    rec = record(card.card) if card.card else None
    if rec is not None and rec.costs.blood and "blood" not in cost:
        return False
    needed = cost.get("pool", 0)
    return not isinstance(needed, int) or needed <= pool


def contest_acts(view: VtesView, seat: int) -> list[Act]:
    """``seat``'s answers to its contests in its unlock phase (rulebook, "Contested Cards",
    "Contested Titles"): for each contest due, pay its cost (``contest``: 1 pool for a card, 1
    blood from the vampire for a title; only when it can) and ``yield``."""
    acts: list[Act] = []
    pool = view.players[seat].pool
    for pos in view.contests_due(seat):
        card = view.card(pos)
        assert card is not None  # a due contest is a card the view shows
        can_pay = pool >= 1 if card.zone == Zone.CONTESTED else card.counters >= 1
        if can_pay:
            acts.append({"do": Do.CONTEST, "card": card.as_list()})
        acts.append({"do": Do.YIELD, "card": card.as_list()})
    return acts


def plain_bleed(minion: CardView) -> int:
    """What ``minion`` bleeds for with a bleed action of no card (pool): a vampire 1 plus its
    printed "+N bleed", an ally or a retainer its printed bleed (rulebook, "Bleed"; the card's
    record, :mod:`engine.games.vtes.card_record`); 1 for a card the table does not know."""
    rec = record(minion.card) if minion.card else None
    return rec.printed.bleed if rec is not None and rec.printed.bleed is not None else 1


def _minion_actions(view: VtesView, seat: int, due: Sequence[Pos]) -> list[Act]:
    """The actions offered in the minion phase (§3, P2), each minion's in this order: a bleed of
    the prey for its printed bleed (an ally's, a vampire's 1 plus a printed "+1 bleed"; once a
    turn), a hunt (a vampire), each action card of the hand (one per card name and level the
    minion may play, with its numbers: :func:`engine.games.vtes.card_play.action_choices`; a
    political action by a vampire only), a rescue (2 blood, a vampire) of each vampire in torpor
    and a diablerie of another Methuselah's, an action whose card is applied by hand; then each
    vampire of yours in torpor that can pay to leave it (2 blood). While a hunt is due only the
    hunts due are offered (2.2); a minion recruited this turn acts from the next (§3)."""
    me = view.players[seat]
    acts: list[Act] = []
    hand = list({c.name: c for c in reversed(view.hand) if is_action_card(c)}.values())[::-1]
    torpor = [c for c in view.cards if c.zone == Zone.TORPOR and c.crypt]
    for c in view.ready_unlocked(seat):
        if (due and c.pos not in due) or c.pos in view.recruited:
            continue
        minion = c.as_list()
        bled = any(d.minion == c.pos and d.kind == ActionKind.BLEED for d in view.done)
        if not due and not bled and me.prey >= 0:
            bleed = plain_bleed(c)
            acts.append(
                {"do": Do.ACTION, "kind": ActionKind.BLEED, "minion": minion, "target": me.prey, "amount": bleed}
            )
        if c.crypt:
            acts.append({"do": Do.ACTION, "kind": ActionKind.HUNT, "minion": minion})
        if due:
            continue
        who = standing.seen(c)
        who = as_titled(who, view.contests, c.pos) if who is not None else None
        for card in hand:
            kind = _card_kind(card)
            rec = record(card.card) if card.card else None
            if kind == ActionKind.POLITICAL and not c.crypt:
                continue
            if rec is not None and who is not None and missing_requirement(rec, who, c.name):
                continue  # the engine would refuse it (card_checks)
            if kind in (ActionKind.RECRUIT, ActionKind.EQUIP, ActionKind.EMPLOY) and own_copy(view.cards, card, seat):
                continue  # a unique card of which it controls a copy (contests.check_own_copy)
            for choice in action_choices(card, c, view):
                act: Act = {"do": Do.ACTION, "kind": kind, "minion": minion, "card": card.as_list()}
                fields = choice.act_fields()
                if kind == ActionKind.BLEED and choice.clause is not None and "kind" not in fields:
                    act["kind"] = ActionKind.OTHER  # this level of the card does not bleed
                act |= fields
                if (
                    act["kind"] == ActionKind.OTHER
                    and "target_card" not in act  # a card named: its controller is the target
                    and rec is not None
                    and choice.clause
                    and directed(rec, choice.clause)
                ):
                    # a directed action (Ⓓ: "enter combat with a minion") names its target Methuselah
                    acts += [act | {"target": s} for s in view.in_game() if s != seat]
                else:
                    acts.append(act)
        for v in torpor if c.crypt else ():
            if view.can_pay(c, ActionKind.RESCUE):
                acts.append({"do": Do.ACTION, "kind": ActionKind.RESCUE, "minion": minion, "target_card": v.as_list()})
            if v.controller != seat:
                acts.append(
                    {"do": Do.ACTION, "kind": ActionKind.DIABLERISE, "minion": minion, "target_card": v.as_list()}
                )
        acts += card_actions.offers(view, seat, c)  # against another's card in play that gives it
        acts.append({"do": Do.ACTION, "kind": ActionKind.OTHER, "minion": minion})
    for v in torpor if not due else ():
        if v.controller == seat and not v.locked and view.can_pay(v, ActionKind.LEAVE_TORPOR):
            acts.append({"do": Do.ACTION, "kind": ActionKind.LEAVE_TORPOR, "minion": v.as_list()})
    return acts


def _card_kind(card: CardView) -> ActionKind:
    """The kind of action a hand card is announced as (P2: the announcer declares it), from its
    record: a political action card, an ally (recruit), equipment (equip), a retainer (employ),
    an action card that bleeds, else "other"."""
    types = set(card.types)
    for kind, type_ in _KIND_OF_TYPE:
        if type_ in types:
            return kind
    rec = record(card.card) if card.card else None
    return ActionKind.BLEED if rec is not None and rec.has(EffectKind.BLEED) else ActionKind.OTHER


_KIND_OF_TYPE = (
    (ActionKind.POLITICAL, "Political Action"),
    (ActionKind.RECRUIT, "Ally"),
    (ActionKind.EQUIP, "Equipment"),
    (ActionKind.EMPLOY, "Retainer"),
)


# --- the answers of each kind of window ---------------------------------------------------------


def _action(view: VtesView, seat: int, a: Action) -> list[Act]:
    """An open action (4, P1–P3): on this seat's impulse, pass; a block by each minion that may
    try when it may block; each modifier or reaction that fits (:func:`window_cards`). After a
    blocked leave torpor: diablerise, or pass to decline (6.2)."""
    if a.impulse != seat:
        return []
    if a.window == Window.DIABLERIE:
        return [{"do": Do.DIABLERISE}, {"do": Do.PASS}]
    acts: list[Act] = [{"do": Do.PASS}]
    if view.may_block(seat):
        acts += [{"do": Do.BLOCK, "minion": c.as_list()} for c in view.may_try(seat) if lasting.may_block(view, c)]
    for c in window_cards(view):
        acts += [{"do": Do.PLAY, "card": c.as_list(), **choice.act_fields()} for choice in window_choices(view, c)]
    return acts + bleed_burns.choices(view, seat) + blood_intercept.offers(view, seat, a)


def window_cards(view: VtesView) -> tuple[CardView, ...]:
    """The hand cards the view's seat could play in the open action's window now: action modifiers
    when its minion acts, reactions (with a minion that may play it: ready and unlocked, or locked
    for a card only usable by a locked one) when another's does (§2), each
    once per minion and action (2.1), and only a card that can change the action now: one whose
    stealth, intercept or bleed can apply, or whose text the table leaves to the players
    (:func:`engine.games.vtes.card_play.window_choices`). Empty when no action is open or the seat
    holds no impulse."""
    a, seat = view.action, view.seat
    if a is None or seat is None or a.impulse != seat or a.window == Window.DIABLERIE:
        return ()
    if seat == a.actor:
        return tuple(
            c
            for c in view.hand
            if MODIFIER in c.types and (a.minion, card_id(c.card)) not in a.played and window_choices(view, c)
        )
    return tuple(
        c
        for c in view.hand
        if REACTION in c.types
        and reaction_fits(c.text, a, view, seat)
        and may_react(view, a, seat, c.card)
        and window_choices(view, c)
    )


def _combat(view: VtesView, seat: int, c: Combat) -> list[Act]:
    """A combat (5, P5): in the strike step, for the combatant whose strike is due, its hand strike
    first, then each combat card of the hand with a plain strike it may use at this range and pay
    for; in the other steps, on this seat's impulse, pass, each combat card that fits the step, a
    maneuver (range step) with each card that gives one, a press (press step), by its combatant
    that did not make the last one (5.3, 5.9). A maneuver no card gives is not offered: the engine
    takes one by hand (a claim), named as a command."""
    if c.impulse != seat:
        return []
    if c.step == CombatStep.STRIKE:
        waiting = c.due()
        if not waiting:
            return []
        committed = next((card for m, card in c.chosen if m == waiting[0]), None)
        if committed is not None and c.pairs == 0:  # its maneuver chose this strike (5.3)
            strikes = _committed_strike(view, c, waiting[0], committed)
        else:
            strikes = [{"do": Do.STRIKE, "minion": list(waiting[0])}, *_card_strikes(view, c, waiting[0])]
        return strikes + aimed_acts(view, strikes)  # each that deals damage, with an aim card (Target Vitals)
    acts: list[Act] = [{"do": Do.PASS}]
    for m in (c.acting, c.opposing):
        card = view.card(m)
        if card is None or card.controller != seat:
            continue
        acts += [{"do": Do.PLAY, **fields} for _, fields, _ in combat_plays(view, card)]
        if c.step == CombatStep.RANGE and c.maneuvered != m:
            moves = combat_moves(view, card, EffectKind.MANEUVER)
            if not any(x == m for x, _ in c.chosen):
                held = dict.fromkeys(h for h, r in _strikes_of(view, card, c.long) if r.maneuver)
                moves += [(h, {}) for h in held if _maneuver_left(view, h)]
            acts += [{"do": Do.MANEUVER, "minion": list(m), "card": h.as_list(), **f} for h, f in moves]
            acts += [{"do": Do.MANEUVER, "minion": list(m), "card": list(h)} for x, h in c.carried if x == m]
        if c.step == CombatStep.DAMAGE and m not in c.shielded:
            facing = next((s for s in c.strikes if s.minion != m and s.damage), None)
            if facing is not None:
                acts += [{"do": Do.PREVENT, **fields} for fields in prevent_acts(view, card, facing)]
        if c.step == CombatStep.PRESS and c.pressed != m and m not in c.no_press:
            acts.append({"do": Do.PRESS, "minion": list(m)})
            presses = combat_moves(view, card, EffectKind.PRESS)
            acts += [{"do": Do.PRESS, "minion": list(m), "card": h.as_list()} for h, _ in presses]
            acts += [{"do": Do.PRESS, "minion": list(m), "card": list(h)} for x, h in c.presses if x == m]
    return acts


def _strikes_of(
    view: VtesView, striker: CardView, long: bool, opposing: CardView | None = None
) -> list[tuple[CardView, StrikeReading]]:
    """The strikes ``striker`` may make at the range (at ``opposing``, when given: a strike that
    sends to torpor at a vampire, one that burns at an ally) with a combat card of the hand whose printed
    cost it can pay (blood from a vampire, pool from its Methuselah) and whose printed limit is not
    spent, read from its plain "Strike: …" lines, one per Discipline level whose strike differs,
    basic first (:func:`engine.games.vtes.readings.strike_levels`: the player says which); then
    with the weapons it holds (:func:`engine.games.vtes.readings.weapon_strikes`)."""
    pool = view.players[striker.controller].pool
    out: list[tuple[CardView, StrikeReading]] = []
    c = view.combat
    strength = c.strength_of(striker.pos) if c is not None else None
    hand_only = c is not None and c.hand_only
    for held in view.hand:
        if "Combat" not in held.types or not held.card or not striker.card:
            continue
        readings = strike_levels(held.card, striker.card, long, opposing, strength, hand_only, striker.disciplines)
        info = card_base().info(held.card) if readings else None
        rec = record(held.card)
        if not readings or info is None or (rec is not None and spent(view, rec, striker)):
            continue
        if info.blood_cost and (not striker.crypt or info.blood_cost > striker.counters):
            continue
        if info.pool_cost and info.pool_cost > pool:
            continue
        out += [(held, reading) for reading in readings]
    return out + weapon_strikes(view, striker, long)


def _maneuver_left(view: VtesView, card: CardView) -> bool:
    """A strike card's optional maneuver may be made: a weapon's once each combat."""
    info = card_base().info(card.card) if card.card else None
    return (
        card.zone != Zone.ON
        or info is None
        or not any(x.minion == card.pos and x.card == info.id for x in view.limited)
    )


def _committed_strike(view: VtesView, c: Combat, minion: Pos, card: Pos) -> list[Act]:
    """The one strike ``minion`` may choose when its maneuver chose it: that of the card (set
    aside) or weapon at ``card`` (5.3)."""
    striker, held = view.card(minion), view.card(card)
    if striker is None or held is None or not striker.card or not held.card:
        return []
    reading = best_strike(held.card, striker.card, c.long, strength=c.strength_of(minion), levels=striker.disciplines)
    fields = reading.fields() if reading is not None else {}
    return [{"do": Do.STRIKE, "minion": list(minion), "card": list(card), **fields}]


def _card_strikes(view: VtesView, c: Combat, minion: Pos) -> list[Act]:
    """The strikes of the combat cards in hand that ``minion`` may use at this range, read from
    their plain "Strike: …" lines, one per level whose strike differs (:func:`_strikes_of`), whose printed
    cost it can pay (blood from a vampire, pool from its Methuselah); then those of the weapons it
    holds (:func:`engine.games.vtes.readings.weapon_strikes`); then the hand strike with each card
    that gives additional strikes (:func:`engine.games.vtes.combat_cards.additional_strike_cards`),
    unless the minion gained some this round."""
    striker = view.card(minion)
    if striker is None or not striker.card:
        return []
    opposing = view.card(c.opposing if minion == c.acting else c.acting)
    acts: list[Act] = [
        {"do": Do.STRIKE, "minion": list(minion), "card": held.as_list(), **reading.fields()}
        for held, reading in _strikes_of(view, striker, c.long, opposing)
        if not (reading.additional and minion in c.extra_used)  # one source of additional strikes (5.6)
    ]
    if minion not in c.extra_used:  # one source of additional strikes per minion and round (5.6)
        for held, n in additional_strike_cards(view, striker):
            acts.append({"do": Do.STRIKE, "minion": list(minion), "card": held.as_list(), "additional": n})
    return acts


def strike_ways(view: VtesView, card: Pos) -> list[tuple[str, Act]]:
    """The strikes offered with the hand card at ``card`` (its plain "Strike: …" lines), one per
    Discipline level whose strike differs, basic first (:func:`_card_strikes`), each with the
    level it is played at ("basic", "superior"; "" for a card of no level); else the first strike
    offered with it as its aim (the hand strike first: Target Vitals), with ""; empty when none."""
    strikes = [o.act for o in answers(view) if o.do == Do.STRIKE]
    plain = [a for a in strikes if a.get("card") == list(card) and "aim" not in a]
    c = view.combat
    if not plain or c is None:
        aimed = next((a for a in strikes if a.get("aim") == list(card)), None)
        return [("", aimed)] if aimed is not None else []
    minion = (plain[0]["minion"][0], plain[0]["minion"][1])
    striker, opposing = view.card(minion), view.card(c.opposing if minion == c.acting else c.acting)
    words: list[tuple[Act, str]] = []
    if striker is not None:
        for held, reading in _strikes_of(view, striker, c.long, opposing):
            if held.pos == card and reading.levels:
                words.append((strike_act(list(minion), held.as_list(), reading), level_words(reading)))
    return [(next((w for a, w in words if a == act), ""), act) for act in plain]


def strike_with(view: VtesView, card: Pos, level: str | None = None) -> Act | None:
    """The strike offered with the hand card at ``card`` (:func:`strike_ways`) at ``level``
    ("basic", "superior"; None: the first, basic where the levels differ), or None when none is
    offered. Raises LevelError when the card's strike is offered but not at ``level`` (the
    sentence names the levels it is offered at)."""
    ways = strike_ways(view, card)
    if not ways or level is None or level == "basic":
        return ways[0][1] if ways else None
    found = [act for word, act in ways if word == level]
    if not found:
        offered = ", ".join(dict.fromkeys(w for w, _ in ways if w)) or "none"
        raise LevelError(f"its strike cannot be made at {level} now (its levels: {offered})")
    return found[-1]


def _referendum(view: VtesView, seat: int, r: Referendum) -> list[Act]:
    """A referendum (7, P7): the caller records the terms first (the choices of a card whose terms
    the table applies, :func:`engine.games.vtes.terms_choices.terms_choices`); before votes, on this seat's
    impulse, pass; while polling, each source of votes it holds (:func:`vote_sources`), each hand
    card that gives votes (a ``play`` with ``votes``: :func:`engine.games.vtes.card_play.vote_choices`)
    or cancels the referendum (:func:`engine.games.vtes.referendum_cancels.choices`), and done."""
    match r.step:
        case Poll.TERMS:
            if r.caller != seat:
                return []
            # the table's terms, then the text alone: the players apply those (referendum_terms)
            return [*terms_choices(view, r), {"do": Do.TERMS, "text": "as the card says"}]
        case Poll.BEFORE:
            return [{"do": Do.PASS}] if r.impulse == seat else []
        case Poll.VOTING:
            if seat in r.done:
                return []
            plays = [
                {"do": Do.PLAY, "card": c.as_list(), **choice.act_fields()}
                for c in view.hand
                for choice in (*vote_choices(view, c), *referendum_cancels.choices(view, c))
            ]
            return [*vote_sources(view, seat), *plays, {"do": Do.DONE}]
    return []


def vote_sources(view: VtesView, seat: int) -> list[Act]:
    """The votes ``seat`` could cast now, one act per source, all "for" (7.2): the calling card,
    each ready titled vampire with its printed title's votes (a priscus: its ballot), the Edge, one
    political action card from hand; none cast already (a source votes once)."""
    r = view.referendum
    if r is None or r.step != Poll.VOTING:
        return []
    cast = {v.ref for v in r.votes if v.ref}
    mine = [v for v in r.votes if v.seat == seat]
    card_vote = any(v.source in (VoteSource.CALLING, VoteSource.CARD) for v in mine)
    acts: list[Act] = []
    if r.card and r.caller == seat and not card_vote:
        acts.append({"do": Do.VOTE, "source": VoteSource.CALLING})
    for c in view.controlled(seat):
        if c.crypt and c.pos not in cast and c.card and not view.title_contested(c.pos):
            title = _printed_title(c)
            votes = title_votes(title)
            if votes:
                acts.append({"do": Do.VOTE, "source": VoteSource.TITLE, "card": c.as_list(), "count": votes})
            elif title.lower() == "priscus" and c.zone == Zone.READY:
                acts.append({"do": Do.VOTE, "source": VoteSource.BALLOT, "card": c.as_list()})
    if view.edge == seat and not any(v.source == VoteSource.EDGE for v in r.votes):
        acts.append({"do": Do.VOTE, "source": VoteSource.EDGE})
    if not card_vote:  # the caller may burn one instead of the calling card's vote: 1 at most (7.2)
        for c in view.hand:
            if "Political Action" in c.types:
                acts.append({"do": Do.VOTE, "source": VoteSource.CARD, "card": c.as_list()})
                break
    return acts


def _printed_title(c: CardView) -> str:
    rec = record(c.card)
    return rec.printed.title if rec is not None else ""


__all__ = [
    "Offer",
    "answers",
    "contest_acts",
    "hunts_due",
    "is_action_card",
    "legal_acts",
    "of",
    "offers",
    "plain_bleed",
    "strike_ways",
    "strike_with",
    "vote_sources",
    "window_cards",
]
