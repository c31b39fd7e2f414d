"""The VTES table: acts, their checks and their effects (shared/rules/vtes.md; DESIGN.md,
"Games behind one interface").

The engine owns the structure (seating, pool, blood, the Edge, turns and phases, transfer budgets,
zones, ousting, VP, withdrawal, time-out); players apply card texts themselves through acts. Every
act is a canonical map with a ``"do"`` key (a :class:`~engine.games.vtes.vocab.Do`);
:data:`ACT_FIELDS` lists every act and its fields, and :mod:`engine.games.vtes` documents them. An
act is read once into its typed record (:func:`~engine.games.vtes.acts.parse_act`), which the
handlers here take; an act of the wrong shape (not a map, an unknown name or field, a field of the
wrong type or outside the act's vocabulary) raises :class:`MalformedAct`; a well-formed act the
rules refuse now raises :class:`IllegalMove`.

Hidden cards (PROTOCOL.md 6): every crypt and library is a private deck, shuffled in its own event
with its owner first; a card drawn or dealt is opened to its owner (:class:`Open` to a seat); a
card that turns face up is opened with the act that plays it when its owner makes that act, else by
an :class:`Open` to everyone; a Methuselah who leaves has its deck events ended (:class:`EndEvent`),
and every remaining event is ended when the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import assert_never

from engine.games.base import (
    Act,
    Draw,
    IllegalMove,
    Note,
    Pos,
    Shuffle,
    seat_ref,
)
from engine.games.vtes import (
    actions,
    cancels,
    claims,
    combat,
    contests,
    edge_burns,
    lasting,
    master_locks,
    plays,
    politics,
    windows,
)
from engine.games.vtes.act_records import (
    ActionAct,
    ActionEndAct,
    AdjustAct,
    BareAct,
    BlockAct,
    BurnAct,
    CombatAct,
    CombatCardAct,
    ContestAct,
    CounterAct,
    DeckAct,
    DiableriseAct,
    DiscardAct,
    DisputeAct,
    DrawAct,
    EdgeBurnAct,
    HandSizeAct,
    InfluenceAct,
    LockAct,
    MoveAct,
    PlayAct,
    PoolAct,
    PreventAct,
    ShuffleAct,
    StrikeAct,
    TermsAct,
    TransferAct,
    VoteAct,
    VtesAct,
)
from engine.games.vtes.acts import MAX_DELTA, esc, parse_act, plural, within
from engine.games.vtes.card_record import CardTerms
from engine.games.vtes.cards import card_base
from engine.games.vtes.state import (
    CRYPT_MIN,
    LIBRARY_MAX,
    LIBRARY_MIN,
    Answer,
    CardState,
    Claim,
    VtesState,
)
from engine.games.vtes.vocab import (
    PHASES,
    TRANSFER_COSTS,
    DeckPart,
    Do,
    Lift,
    Phase,
    Ruleset,
    Status,
    Step,
    Target,
    TransferKind,
    VoteSource,
    Zone,
)
from engine.games.vtes.work import Work
from engine.games.vtes.work import by_pos as _by_pos


def _validate_shape(state: VtesState, seat: int, raw: Act) -> VtesAct:
    """Read the act (MalformedAct) and check who may act now (IllegalMove); return its record."""
    act = parse_act(raw)
    do = act.do
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalMove(f"there is no seat {seat} at this table")
    if state.step == Step.OVER:
        raise IllegalMove("the game is over")
    if state.queue:
        raise IllegalMove("the table is still running card operations: wait for them")
    if do == Do.DECK:
        if state.step != Step.JOINING:
            raise IllegalMove("deck sizes are declared before the game starts, and it has started")
    else:
        if state.step != Step.PLAY:
            raise IllegalMove("the game has not started: every seat first declares its deck sizes")
        if state.players[seat].status != Status.IN and do != Do.DISPUTE:
            raise IllegalMove("you have left the game and may no longer act: you may only dispute what ousted you")
    return act


# --- act handlers -----------------------------------------------------------------------------


def _must_act(w: Work, what: str) -> None:
    if w.author != w.acting:
        raise IllegalMove(f"only the acting Methuselah ({seat_ref(w.acting)}) may {what}")


def _must_phase(w: Work, phase: Phase, what: str) -> None:
    if w.phase != phase:
        raise IllegalMove(f"{what} happens in the {phase} phase, and this is the {w.phase} phase")


def _own_hand(w: Work, pos: Pos) -> CardState:
    c = w.card(pos)
    if c.zone != Zone.HAND or c.owner != w.author:
        raise IllegalMove("that card is not in your hand")
    return c


def _in_play(w: Work, pos: Pos) -> CardState:
    c = w.card(pos)
    contests.check_in_play(w, pos)
    if not c.zone.in_play:
        raise IllegalMove(f"{w.name(pos)} is not in play")
    return c


def _act_deck(w: Work, act: DeckAct) -> None:
    p = w.p(w.author)
    if p.declared:
        raise IllegalMove("you have already declared your deck sizes")
    crypt = within(act.do, "crypt", act.crypt, low=0, high=500)
    library = within(act.do, "library", act.library, low=0, high=500)
    if crypt < CRYPT_MIN:
        raise IllegalMove(f"a crypt needs at least {CRYPT_MIN} cards, and yours has {crypt}")
    if w.option("library_size"):
        if not LIBRARY_MIN <= library <= LIBRARY_MAX:
            raise IllegalMove(
                f"a library needs {LIBRARY_MIN} to {LIBRARY_MAX} cards, and yours has {library} "
                "(table rule library_size is on)"
            )
    elif library < 1:
        raise IllegalMove("a library needs at least 1 card")
    w.setp(w.author, declared=True, crypt_size=crypt, library_size=library)
    if all(x.declared for x in w.players):
        w.step = Step.SEATING
        w.new_ops.append(Draw("seating", tuple(range(w.seats, 1, -1))))


def _act_phase(w: Work, act: BareAct) -> None:
    _must_act(w, "move to the next phase")
    actions.check_windows_closed(w)
    contests.check_settled(w)
    if w.phase == Phase.MINION:
        actions.check_leave_minion_phase(w)
    _next_phase(w)


def _next_phase(w: Work, say: bool = True) -> None:
    """Move ``w`` on to the next phase, or to the prey's turn after the discard phase; ``say``:
    narrate the phase begun (an act that ends the turn passes through the phases unsaid, as its
    own line already says the turn ends)."""
    if w.time_called:
        w.end_by_time()
        return
    i = PHASES.index(w.phase)
    if w.phase == Phase.INFLUENCE:
        w.transfers = 0
    if i + 1 < len(PHASES):
        w.phase = PHASES[i + 1]
        if w.phase == Phase.INFLUENCE:
            extra = lasting.transfers(w, w.acting)
            w.transfers = w.transfer_budget(w.acting) + sum(n for _, n in extra)
            given = "".join(f"; {w.name(pos)}: +{plural(n, 'transfer')}" for pos, n in extra)
            if say:
                w.note(f"{seat_ref(w.acting)}: influence phase, {plural(w.transfers, 'transfer')}{given}", w.acting)
        elif say:
            w.note(f"{seat_ref(w.acting)}: {w.phase} phase", w.acting)
    else:
        w.begin_turn(w.prey(w.acting))


def _act_end_turn(w: Work, act: BareAct) -> None:
    _must_act(w, "end the turn")
    actions.check_windows_closed(w)
    contests.check_settled(w)
    if w.phase in (Phase.UNLOCK, Phase.MASTER, Phase.MINION):
        actions.check_leave_minion_phase(w)
    turn = w.turn
    while w.step == Step.PLAY and w.turn == turn:
        _next_phase(w, say=False)


def _act_edge(w: Work, act: BareAct) -> None:
    _must_act(w, "gain pool from the Edge")
    _must_phase(w, Phase.UNLOCK, "gaining pool from the Edge")
    if w.edge != w.author:
        raise IllegalMove("you do not have the Edge")
    if w.edge_used:
        raise IllegalMove("you have already gained pool from the Edge this turn")
    w.edge_used = True
    w.pool_delta(w.author, 1, "edge")


def _act_burn_edge(w: Work, act: EdgeBurnAct) -> None:
    edge_burns.burn_edge(w, act.by)


def _act_draw(w: Work, act: DrawAct) -> None:
    n = within(act.do, "n", act.n, low=1, high=30, default=1)
    if not w.p(w.author).library:
        raise IllegalMove("your library is empty: an empty library stops drawing")
    w.draw(w.author, n)


def _opens_to_public(cards: Mapping[Pos, CardState], seat: int, positions: tuple[Pos, ...], to: Target) -> list[Pos]:
    """The face-down cards among ``positions`` that ``seat`` itself opens when they go to ``to``:
    its own cards it has seen. Other face-down cards are opened by an Open to everyone."""
    if to.zone.hidden:
        return []
    out = []
    for pos in positions:
        c = cards.get(pos)
        if c is not None and c.zone.hidden and not c.card and c.owner == seat and c.known_owner:
            out.append(pos)
    return out


def _destination(w: Work, act: PlayAct | MoveAct, default: Target) -> tuple[Target, Pos | None, int | None]:
    """Fields ``to`` (``default`` when absent), ``on`` and ``controller`` of a ``move`` or
    ``play``. Raises IllegalMove for a card or seat that cannot take the cards."""
    to = default if act.to is None else act.to
    on = act.on
    if on is not None:
        _in_play(w, on)  # the record has 'on' exactly when to='on'
    controller = act.controller
    if controller is not None:
        if not 0 <= controller < w.seats:
            raise IllegalMove("'controller' must be a seat number")
        if w.p(controller).status != Status.IN:
            raise IllegalMove(f"{seat_ref(controller)} is out of the game and cannot control cards")
        if not to.zone.in_play:
            raise IllegalMove("only cards in play have a controller other than their owner")
    return to, on, controller


def _check_target_fits(w: Work, pos: Pos, to: Target, on: Pos | None) -> None:
    c = w.card(pos)
    zone = to.zone
    if zone in (Zone.HAND, Zone.LIBRARY) and c.crypt:
        raise IllegalMove(f"{w.name(pos)} is a crypt card: it cannot go to a hand or a library")
    if zone in (Zone.CRYPT, Zone.UNCONTROLLED) and not c.crypt:
        raise IllegalMove(f"{w.name(pos)} is a library card: it cannot go to a crypt or an uncontrolled region")
    if zone.hidden and w.p(c.owner).status != Status.IN:
        raise IllegalMove(f"{seat_ref(c.owner)} is out of the game: its hidden zones are gone")
    if on is not None:
        host: Pos | tuple[()] = on
        while host:
            if host == pos:
                raise IllegalMove(f"{w.name(pos)} cannot be put on itself or on a card that is on it")
            host = w.cards[host].on


_party = claims.party


def _claim(w: Work, act: claims.Claimed, seats: set[int], text: str) -> bool:
    """See :func:`engine.games.vtes.claims.claim`: True when the act waits as a claim."""
    return claims.claim(w, act, seats, text)


def _act_move(w: Work, act: MoveAct | BurnAct) -> None:
    cards = act.cards
    burn = isinstance(act, BurnAct)
    to: Target
    if isinstance(act, BurnAct):  # (not ``burn``: mypy narrows on isinstance only)
        to, on, controller = Target.ASH, None, None
    else:
        to, on, controller = _destination(w, act, act.to)
    hands = set()
    for pos in cards:
        w.card(pos)
        _check_target_fits(w, pos, to, on)
    names = ", ".join(w.name(pos) for pos in cards)
    # Whose things the move changes: the cards' own, and a minion another's card goes on, and the
    # Methuselah another's card goes under the control of.
    touched = {_party(w.cards[pos]) for pos in cards}
    if on is not None:
        touched.add(_party(w.cards[on]))
    if controller is not None:
        touched.add(controller)
    if _claim(w, act, touched, f"{names} {'burned' if burn else 'moved to ' + to}"):
        return
    for pos in cards:
        c = w.cards[pos]
        if c.zone == Zone.HAND:
            hands.add(c.owner)
        w.move(pos, to, controller, on)
    if not act.no_replace:
        for seat in sorted(hands):
            if w.p(seat).status == Status.IN:
                w.refill(seat)


def _act_play(w: Work, act: PlayAct) -> None:
    pos = act.card
    _own_hand(w, pos)
    to, on, _ = _destination(w, act, Target.ASH)
    _check_target_fits(w, pos, to, on)
    pool = within(act.do, "pool", act.pool, low=0, high=100)
    within(act.do, "blood", act.blood, low=0, high=100)
    if act.minion is not None:  # it pays the card's blood: one's own, as every source is (P9)
        _in_play(w, act.minion)
        claims.own_source(w, act.minion, "the minion that plays the card")
    if pool > w.p(w.author).pool:
        raise IllegalMove(f"you have only {w.p(w.author).pool} pool, the card costs {pool}")
    answer = cancels.answering(w)
    if answer is not None:
        cancels.check_answer(w, answer, pos)
    announced = cancels.opens(w, pos)
    tried = w.trial() if announced else w
    _checked_play(tried, act)  # announced: every refusal it would meet, met now (a lift used too)
    w.lifted = tried.lifted
    _master_action(w, pos)
    if announced:
        cancels.announce(w, act)
    elif answer is not None:
        cancels.cancelled(w, answer, pos, w.author)


def _master_action(w: Work, pos: Pos) -> None:
    """A master card played in its Methuselah's own master phase uses a master phase action: one
    by default (rulebook, "2. Master Phase"); a card canceled as it is played used it too."""
    info = w.info(pos)
    if info is None or not info.is_master or w.author != w.acting or w.phase != Phase.MASTER:
        return
    if w.master_actions >= 1:
        w.refuse(
            Lift.ONCE,
            f"you have used your master phase action: by default you receive only one master phase action, "
            f'but some cards may change this amount (rulebook, "2. Master Phase"); {esc(info.name)} waits',
        )
    w.master_actions += 1


def _checked_play(w: Work, act: PlayAct, announced: bool = False) -> None:
    """A play checked against its window (:func:`engine.games.vtes.plays.check_play`), its card put
    where the act says, its cost paid and its effects applied, the hand refilled; ``announced``: the
    card waited for answers (:mod:`engine.games.vtes.cancels`): it is in the ash heap and replaced."""
    pos = act.card
    plays.check_play(w, pos, act)
    to, on, controller = _destination(w, act, Target.ASH)
    pool, blood, minion = act.pool or 0, act.blood or 0, act.minion
    info = card_base().info(w.revealed.get(pos, w.cards[pos].card))
    if to.zone.in_play:
        contests.check_own_copy(w, pos, w.author if controller is None else controller)
    if not announced or to != Target.ASH:
        w.move(pos, to, controller, on)
    if pool:
        w.pool_delta(w.author, -pool, "cost")
    if to.zone.in_play:
        lasting.arrived(w, pos, act)
    if blood and minion is not None:
        w.counters_delta(minion, -blood, "cost")
    plays.move_blood(w, act, esc(info.name) if info is not None else "the card")
    plays.add_blood(w, act, esc(info.name) if info is not None else "the card")
    plays.master_effects(w, pos, esc(info.name) if info is not None else "the card")
    master_locks.lock_minion(w, act, esc(info.name) if info is not None else "the card")
    if not act.no_replace and not announced:
        w.refill(w.author, pos)


windows.register(Answer, cancels.kind(_checked_play))


def _act_discard(w: Work, act: DiscardAct) -> None:
    pos = act.card
    _own_hand(w, pos)
    if lasting.discarded_by(w, act):  # a card in play locked to discard and draw (The Barrens)
        return
    if len(w.hand(w.author)) > w.p(w.author).hand_size:
        # Over its hand size (a card drew more): discard down, at once, replacing none (rulebook,
        # "Drawing Cards": "immediately discard down to or draw up to match your hand size").
        w.move(pos, Target.ASH)
        return
    if w.author != w.acting or w.phase != Phase.DISCARD:
        # A card whose text discards (a master that discards and draws, say) names itself (P9).
        w.refuse(
            Lift.TIMING,
            "a card is discarded as a discard phase action, in its Methuselah's own discard phase "
            '(rulebook, "5. Discard Phase"); a card whose text lets you discard now may lift the rule',
        )
    w.move(pos, Target.ASH)
    if w.author == w.acting and w.phase == Phase.DISCARD and not w.lifted:
        if w.discard_actions >= 1:
            w.refuse(
                Lift.ONCE,
                "you have used your discard phase action: in your discard phase you receive by default one "
                'discard phase action (rulebook, "5. Discard Phase"); some effects may change the number',
            )
        w.discard_actions += 1
    if not act.no_replace:
        w.refill(w.author)


def _act_lock(w: Work, act: LockAct) -> None:
    locked = act.do == Do.LOCK
    cards = act.cards
    for pos in cards:
        c = _in_play(w, pos)
        if c.locked == locked:
            raise IllegalMove(f"{w.name(pos)} is already {'locked' if locked else 'unlocked'}")
    names = ", ".join(w.name(pos) for pos in cards)
    if _claim(w, act, {_party(w.cards[pos]) for pos in cards}, f"{names} {'locked' if locked else 'unlocked'}"):
        return
    for pos in cards:
        w.setc(pos, locked=locked)
        if locked:
            lasting.locked(w, pos)


def _act_counters(w: Work, act: CounterAct) -> None:
    pos = act.card
    delta = within(act.do, "delta", act.delta, low=-MAX_DELTA, high=MAX_DELTA)
    if delta == 0:
        raise IllegalMove("a counter change must not be 0")
    cause = act.cause
    c = w.card(pos)
    contests.check_in_play(w, pos)
    if not c.zone.in_play and c.zone != Zone.UNCONTROLLED:
        raise IllegalMove("counters go on cards in play or in an uncontrolled region")
    if c.counters + delta < 0:
        raise IllegalMove(f"{w.name(pos)} has only {c.counters} counters, it cannot lose {-delta}")
    if _claim(w, act, {_party(c)}, f"{w.name(pos)} {delta:+d} {'blood' if c.crypt else 'life'}"):
        return
    w.counters_delta(pos, delta, cause)


def _act_pool(w: Work, act: PoolAct) -> None:
    cause = act.cause
    changes: list[tuple[int, int]]
    if act.changes is not None:  # the record has 'changes' or 'delta', never both
        changes = list(act.changes)
    else:
        assert act.delta is not None
        changes = [(w.author if act.seat is None else act.seat, act.delta)]
    seen = set()
    for seat, delta in changes:
        if not 0 <= seat < w.seats:
            raise IllegalMove("'seat' must be a seat number")
        if seat in seen:
            raise IllegalMove(f"the pool act names {seat_ref(seat)} twice")
        seen.add(seat)
        if w.p(seat).status != Status.IN:
            raise IllegalMove(f"{seat_ref(seat)} is out of the game and has no pool")
        if delta == 0 or abs(delta) > MAX_DELTA:
            raise IllegalMove(f"a pool change must not be 0 and at most {MAX_DELTA}, not {delta}")
    others = {seat for seat, _ in changes}
    if _claim(w, act, others, ", ".join(f"{seat_ref(seat)} {delta:+d} pool" for seat, delta in changes)):
        return
    for seat, delta in changes:
        w.pool_delta(seat, delta, cause)


def _act_combat(w: Work, act: CombatAct) -> None:
    """Two minions enter combat by a card (P5): a combat opens, the minion of the Methuselah whose
    turn it is acting first (reading); only ready minions of two controllers fight. While another
    combat is under way, or for a minion not ready, it is only recorded (for withdrawal)."""
    minions = act.minions  # exactly two
    for pos in minions:
        c = w.card(pos)
        if c.zone not in (Zone.READY, Zone.TORPOR):
            raise IllegalMove(f"{w.name(pos)} is not a minion in play")
    first, second = (w.cards[p] for p in minions)
    if first.controller == second.controller:
        raise IllegalMove("two minions of one controller never fight each other (5.2)")
    names = " and ".join(w.name(p) for p in minions)
    if _claim(w, act, {first.controller, second.controller}, f"{names} enter combat"):
        return
    fight = w.open_combat is None and w.open_action is None and all(w.cards[p].zone == Zone.READY for p in minions)
    if fight:
        acting, opposing = minions if second.controller != w.acting else (minions[1], minions[0])
        combat.open_combat(w, acting, opposing)
        return
    for pos in minions:
        seat = w.cards[pos].controller
        w.fail_withdrawal(seat, f"one of {seat_ref(seat)}'s minions entered combat")


def _act_influence(w: Work, act: InfluenceAct) -> None:
    _must_act(w, "influence out vampires")
    _must_phase(w, Phase.INFLUENCE, "influencing out a vampire")
    pos = act.card
    c = w.card(pos)
    if c.zone != Zone.UNCONTROLLED or c.owner != w.author:
        raise IllegalMove("that vampire is not in your uncontrolled region")
    info = w.info(pos)
    if info is None:
        raise IllegalMove("that card is not in the card database")
    if info.capacity <= 0:
        raise IllegalMove(f"{esc(info.name)} has no capacity and cannot be influenced out by transfers")
    if c.counters < info.capacity:
        raise IllegalMove(
            f"{esc(info.name)} has {c.counters} blood and capacity {info.capacity}: "
            "it moves to the ready region only once its blood reaches its capacity"
        )
    contests.check_own_copy(w, pos, w.author)
    w.move(pos, Target.READY, w.author)
    if c.counters > info.capacity:  # a vampire in play holds at most its capacity: the excess drains
        w.setc(pos, counters=info.capacity)
        w.note(
            f"{esc(info.name)} enters play with its capacity of {info.capacity} blood: "
            f"the excess {c.counters - info.capacity} goes to the blood bank",
            w.author,
        )


def _act_transfer(w: Work, act: TransferAct) -> None:
    if act.by is not None:
        if not lasting.lock_use(w, act):
            plays.shift_blood(w, act)
        return
    _must_act(w, "make transfers")
    _must_phase(w, Phase.INFLUENCE, "a transfer")
    kind = act.kind
    p = w.p(w.author)
    if kind == TransferKind.CRYPT:  # the record has no card and no n then
        if w.transfers < 4:
            raise IllegalMove(
                f"moving the top crypt card takes 4 transfers and 1 pool, and you have "
                f"{plural(w.transfers, 'transfer')} left"
            )
        if p.pool < 1:
            raise IllegalMove("moving the top crypt card costs 1 pool, and you have none")
        if not p.crypt:
            raise IllegalMove("your crypt is empty")
        w.transfers -= 4
        w.pool_delta(w.author, -1, "transfer")
        w.move(p.crypt[0], Target.UNCONTROLLED)
        return
    pos = act.card
    assert pos is not None  # the record of a pool or blood transfer names its vampire
    asked = act.n if isinstance(act.n, int) and act.n >= 1 else 1
    if TRANSFER_COSTS[kind] * asked > w.transfers:  # said before the field's bound: the player's limit
        what = f"{asked} pool" if kind == TransferKind.POOL else f"{asked} blood"
        raise IllegalMove(
            f"moving {what} {'to' if kind == TransferKind.POOL else 'from'} a vampire takes "
            f"{plural(TRANSFER_COSTS[kind] * asked, 'transfer')}, and you have {plural(w.transfers, 'transfer')} left"
        )
    n = within(act.do, "n", act.n, low=1, high=4, default=1)
    c = w.card(pos)
    if c.zone != Zone.UNCONTROLLED or c.owner != w.author:
        raise IllegalMove("transfers go to vampires in your uncontrolled region")
    cost = TRANSFER_COSTS[kind] * n
    w.transfers -= cost
    if kind == TransferKind.POOL:
        if p.pool < n:
            raise IllegalMove(f"you have only {p.pool} pool")
        w.pool_delta(w.author, -n, "transfer")
        w.setc(pos, counters=c.counters + n)
    else:
        if c.counters < n:
            raise IllegalMove(f"that vampire has only {c.counters} blood")
        w.setc(pos, counters=c.counters - n)
        w.pool_delta(w.author, n, "transfer")


def _act_hand_size(w: Work, act: HandSizeAct) -> None:
    seat = w.author if act.seat is None else act.seat
    if not 0 <= seat < w.seats or w.p(seat).status != Status.IN:
        raise IllegalMove("'seat' must be a Methuselah in the game")
    delta = within(act.do, "delta", act.delta, low=-30, high=30)
    new = w.p(seat).hand_size + delta
    if delta == 0 or not 0 <= new <= 30:
        raise IllegalMove(f"a hand size change must not be 0 and must leave it between 0 and 30, not {new}")
    if _claim(w, act, {seat}, f"{seat_ref(seat)}'s hand size {delta:+d}"):
        return
    w.setp(seat, hand_size=new)


def _act_shuffle(w: Work, act: ShuffleAct) -> None:
    zone = act.zone
    seat = w.author if act.seat is None else act.seat
    if not 0 <= seat < w.seats or w.p(seat).status != Status.IN:
        raise IllegalMove("'seat' must be a Methuselah in the game")
    positions = w.p(seat).library if zone == DeckPart.LIBRARY else w.p(seat).crypt
    if not positions:
        raise IllegalMove(f"there is nothing to shuffle: that {zone} is empty")
    if _claim(w, act, {seat}, f"{seat_ref(seat)}'s {zone} shuffled"):
        return
    w.new_ops.append(
        Shuffle(
            deck=f"{zone}/{seat}",
            count=len(positions),
            first=seat,
            participants=tuple(sorted(w.in_game())),
            owner=seat,
            source=positions,
        )
    )


def _act_pass(w: Work, act: BareAct) -> None:
    """A ``pass`` in the innermost open window (P1: :func:`windows.pass_impulse`)."""
    windows.pass_impulse(w)


def _act_done(w: Work, act: BareAct) -> None:
    politics.done(w)


def _act_answer(w: Work, act: DisputeAct, at: int) -> None:
    """An answer to a claim (:func:`engine.games.vtes.claims.answer`); a claim it lets take
    effect is applied after it (:func:`run_act`)."""
    w.take = claims.answer(w, act, at)


def _act_withdraw(w: Work, act: BareAct) -> None:
    _must_act(w, "announce withdrawal")
    _must_phase(w, Phase.UNLOCK, "announcing withdrawal")
    p = w.p(w.author)
    if p.withdrawing:
        raise IllegalMove("you have already announced withdrawal")
    if p.library:
        raise IllegalMove(
            f"only a Methuselah whose library is exhausted may withdraw, and yours has {plural(len(p.library), 'card')}"
        )
    if p.hand_at_start >= p.hand_size:
        raise IllegalMove(
            f"only a Methuselah who begins the turn with less than a full hand may withdraw, "
            f"and you began it with {p.hand_at_start} of {p.hand_size}"
        )
    w.setp(w.author, withdrawing=True, withdraw_fail="")


def _act_time(w: Work, act: BareAct) -> None:
    if w.ruleset != Ruleset.TOURNAMENT:
        raise IllegalMove("a time limit is a tournament rule, and this table plays ruleset=standard")
    if w.time_called:
        raise IllegalMove("time has already been called")
    if w.author in w.time_calls:
        raise IllegalMove("you have already called time: another player must agree")
    w.time_calls = tuple(sorted(w.time_calls + (w.author,)))
    if len(w.time_calls) >= 2:
        w.time_called = True
        w.note("Time is called: the game ends after the current minion action or at the end of this phase")
        if w.phase == Phase.MINION and w.open_action is None:
            w.end_by_time()  # no minion action is under way: it is over now


_BARE: dict[Do, Callable[[Work, BareAct], None]] = {
    Do.PHASE: _act_phase,
    Do.END_TURN: _act_end_turn,
    Do.EDGE: _act_edge,
    Do.PASS: _act_pass,
    Do.DONE: _act_done,
    Do.WITHDRAW: _act_withdraw,
    Do.TIME: _act_time,
}


def _handle(w: Work, act: VtesAct, at: int = 0) -> None:
    """Check and apply ``act`` (time ``at``, ms) on the working copy: the handler of its record."""
    cancels.check_as_played(w, act)
    match act:
        case BareAct():
            _BARE[act.do](w, act)
        case DeckAct():
            _act_deck(w, act)
        case EdgeBurnAct():
            _act_burn_edge(w, act)
        case DrawAct():
            _act_draw(w, act)
        case PlayAct():
            _act_play(w, act)
        case DiscardAct():
            _act_discard(w, act)
        case MoveAct() | BurnAct():
            _act_move(w, act)
        case LockAct():
            _act_lock(w, act)
        case CounterAct():
            _act_counters(w, act)
        case PoolAct():
            _act_pool(w, act)
        case CombatAct():
            _act_combat(w, act)
        case InfluenceAct():
            _act_influence(w, act)
        case ContestAct() if act.do == Do.CONTEST:
            contests.pay(w, act)
        case ContestAct():
            contests.give_up(w, act)
        case TransferAct():
            _act_transfer(w, act)
        case HandSizeAct():
            _act_hand_size(w, act)
        case ShuffleAct():
            _act_shuffle(w, act)
        case DisputeAct():
            _act_answer(w, act, at)
        case ActionAct():
            actions.announce(w, act)
        case BlockAct():
            actions.block(w, act)
        case DiableriseAct():
            actions.diablerise_blocked(w, act)
        case AdjustAct():
            plays.adjust(w, act)
        case ActionEndAct():
            plays.end_action(w, act)
        case CombatCardAct() if act.do == Do.MANEUVER:
            combat.maneuver(w, act)
        case CombatCardAct():
            combat.press(w, act)
        case StrikeAct():
            combat.strike(w, act)
        case PreventAct():
            combat.prevent(w, act)
        case TermsAct():
            politics.terms(w, act)
        case VoteAct():
            politics.vote(w, act)
        case _:
            assert_never(act)


# --- the entry points the game object uses --------------------------------------------------------


def opens(state: VtesState, seat: int, act: Act) -> tuple[Pos, ...]:
    """The hidden positions ``act`` by ``seat`` opens to everyone with it: cards of its own that
    it has seen (hand, uncontrolled region) turning face up. Raises MalformedAct for an act of the
    wrong shape, IllegalMove when it plays a card the seat does not hold."""
    return _opens(state, seat, _validate_shape(state, seat, act))


def _hand_opens(cards: Mapping[Pos, CardState], seat: int, pos: Pos) -> tuple[Pos, ...]:
    """``(pos,)`` when the card an act plays at ``pos`` is in ``seat``'s hand and not yet face up;
    () for a card elsewhere (a weapon in play). Raises IllegalMove for another's hand card."""
    c = cards.get(pos)
    if c is None or c.zone != Zone.HAND:
        return ()
    if c.owner != seat:
        raise IllegalMove("that card is not in your hand")
    return () if c.card else (pos,)


def _opens(state: VtesState, seat: int, act: VtesAct) -> tuple[Pos, ...]:
    """:func:`opens` for an act already read and validated."""
    cards = _by_pos(state)
    match act:
        case StrikeAct() if act.aim is not None:  # the strike's card and the aim card played with it
            return tuple(p for pos in (act.card, act.aim) if pos is not None for p in _hand_opens(cards, seat, pos))
        case ActionAct() | CombatCardAct() | StrikeAct() | PreventAct() if act.card is not None:
            return _hand_opens(cards, seat, act.card)
        case VoteAct() if act.source == VoteSource.CARD and act.card is not None:
            c = cards.get(act.card)
            if c is None or c.zone != Zone.HAND or c.owner != seat:
                raise IllegalMove("that card is not in your hand")
            return () if c.card else (act.card,)
        case PlayAct() | DiscardAct():
            c = cards.get(act.card)
            if c is None or c.zone != Zone.HAND or c.owner != seat:
                raise IllegalMove("that card is not in your hand")
            weapon = _hand_opens(cards, seat, act.equip) if isinstance(act, PlayAct) and act.equip else ()
            return (() if c.card else (act.card,)) + weapon
        case InfluenceAct():
            c = cards.get(act.card)
            if c is None or c.zone != Zone.UNCONTROLLED or c.owner != seat:
                raise IllegalMove("that vampire is not in your uncontrolled region")
            return () if c.card else (act.card,)
        case MoveAct() | BurnAct():
            to = act.to if isinstance(act, MoveAct) else Target.ASH
            return tuple(sorted(_opens_to_public(cards, seat, act.cards, to)))
        case DisputeAct(do=Do.ACCEPT):
            # The owner who accepts a move of its hidden cards moves them: it opens those it has seen.
            moved = claims.record_of(state, act.act)
            if isinstance(moved, MoveAct | BurnAct):
                to = moved.to if isinstance(moved, MoveAct) else Target.ASH
                return tuple(sorted(_opens_to_public(cards, seat, moved.cards, to)))
            return ()
        case _:
            return ()


def run_act(
    state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0
) -> tuple[VtesState, tuple[Note, ...]]:
    """Check and apply ``act`` by ``seat`` at time ``at`` (the entry's signed time, ms); return the
    new state and the narration. A claim the act lets take effect (an ``accept`` or a ``lapse``:
    :mod:`engine.games.vtes.claims`) is applied right after it, as its author's act.

    Raises MalformedAct for an act of the wrong shape, IllegalMove with a sentence when the rules
    refuse it; the state is unchanged then.
    """
    record = _validate_shape(state, seat, act)
    expected = set(_opens(state, seat, record))
    if set(revealed) != expected:
        raise IllegalMove("the act must open exactly the cards it turns face up")
    cards = _by_pos(state)
    for pos, ident in revealed.items():
        info = card_base().info(ident)
        if info is not None and (info.kind == DeckPart.CRYPT) != cards[pos].crypt:
            raise IllegalMove(f"{esc(info.name)} cannot be at that position: it is from the other deck")
    w = Work(state, seat, record.do)
    w.revealed = revealed
    w.acts += 1
    if record.do not in claims.ANSWERS_NOTHING:
        claims.must_not_hold(w)
        w.answers += 1
    w.clock = max(w.clock, at)
    claims.charge(w, record.do, at)
    if isinstance(record, Lifting) and record.lift is not None:
        assert record.by is not None  # the record has 'by' with 'lift'
        w.lift, w.lift_by = record.lift, record.by
        own = getattr(record, "card", None) == w.lift_by
        if not own:
            claims.own_source(w, w.lift_by, "the card that lifts a rule")
    w.terms = CardTerms.of(record)
    _run(w, record, at)
    if w.take is None or w.step != Step.PLAY:
        return w.freeze(), tuple(w.notes)
    return _take_effect(w, w.take, revealed)


Lifting = PlayAct | ActionAct | BlockAct | AdjustAct | DiscardAct | CombatCardAct | StrikeAct | PreventAct
"""The acts that may name a card lifting a rule for them (vtes-actions.md P9)."""


def _run(w: Work, record: VtesAct, at: int) -> None:
    """Check and apply ``record`` on ``w``, then everything that follows an act (ousts, the end
    of an action, a combat or a poll, the windows)."""
    predators = {s: w.predator(s) for s in w.in_game()}
    _handle(w, record, at)
    if w.lift is not None and not w.lifted:
        raise IllegalMove(f"this act breaks no rule of kind {str(w.lift)!r}: there is nothing for the card to lift")
    w.settle_ousts(predators)
    windows.settle(w)
    w.replace_deferred()


def _take_effect(answered: Work, claim: Claim, revealed: Mapping[Pos, str]) -> tuple[VtesState, tuple[Note, ...]]:
    """The state once ``claim`` takes effect after the act that answered it (``answered``): its
    act applied as its author's, checked again against the table as it is now; if the table no
    longer allows it, the claim is void and nothing else changes."""
    before = answered.freeze()
    record = claims.change_of(claim)
    w = Work(before, claim.author, record.do)
    w.terms = CardTerms.of(record)
    w.taking = True
    w.revealed = revealed
    w.notes = list(answered.notes)
    try:
        _run(w, record, before.clock)
    except IllegalMove as e:
        w = Work(before, claim.author, record.do)
        w.notes = list(answered.notes)
        claims.void(w, claim.act, str(e))
    return w.freeze(), tuple(w.notes)
