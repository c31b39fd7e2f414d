"""Lasting effects of cards in play, read by the table where they count (rulebook, "Master Cards",
"Retainers", "Equipment": a card in play applies its text while it stays in play): the extra
transfers of a location ("+2 transfers": Information Highway) as its controller's influence phase
begins, and the intercept a retainer or an equipment gives the minion it is on ("The employer gets
+1 intercept": Raven Spy, Mr. Winthrop) as that minion attempts to block, and what a card in play
gives as its controller locks it ("During your master phase, you can lock this card to get +1
master phase action": The Parthenon), and what a card does as it comes into play ("If you control
three copies of this card, remove all copies in play … from the game to gain 3 pool": Ashur
Tablets), and a card in play its controller locks for blood or pool ("You can lock this card to add
1 blood to a vampire in your uncontrolled region": Dreams of the Sphinx, The Coven), with the
counters it takes as it is locked and its burning with enough of them, and the pool a card in play
makes a Methuselah burn as their unlock phase begins ("A Methuselah not controlling a ready Anarch
burns 1 pool during their unlock phase": Anarch Revolt), or as a vampire it is on goes to torpor
("After this vampire goes to torpor, their controller burns 3 pool": Fame); and the hand size a card
gives its controller while it is in play ("+1 hand size": Monastery of Shadows), or until the end of the
turn as it is locked ("You can lock this card to get +2 hand size until the end of the turn": Dreams
of the Sphinx; :func:`turn_ended`); and a card on a
minion that bars it from blocking ("This minion cannot block": Pentex™ Subversion); and the blood a
card on a vampire gives it after a successful action with no reaction played (Perfectionist). A contested card is out of
play and gives nothing (rulebook, "Contested Cards"); a card's record says what it gives
(:class:`engine.games.vtes.card_effects.EffectKind` ``TRANSFERS``, ``CARRIED``, ``MASTER_ACTION``,
``LOCK_USE``, ``LOCK_COUNTERS``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.games.base import IllegalMove, Pos, Shuffle, seat_ref
from engine.games.vtes import standing
from engine.games.vtes.act_records import DiscardAct, PlayAct, TransferAct
from engine.games.vtes.acts import within
from engine.games.vtes.card_effects import (
    BURNED_FOR_BLOOD,
    DISCARD_DRAW,
    EDGE_POOL,
    IN_TORPOR,
    INFLUENCE_BLOOD,
    NO_ANARCH,
    QUIET_SUCCESS,
    READY_BLOOD,
    THREE_COPIES,
    TURN_HAND_SIZE,
    UNCONTROLLED_BLOOD,
    Effect,
    EffectKind,
)
from engine.games.vtes.card_record import record
from engine.games.vtes.cards import card_id
from engine.games.vtes.vocab import REACTION, DeckPart, Do, Phase, Status, Target, TransferKind, Zone

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from engine.games.vtes.state import Action
    from engine.games.vtes.view import CardView, VtesView
    from engine.games.vtes.work import Work


def _given(w: Work, pos: Pos, kind: EffectKind, whom: str = "") -> int:
    """What the card at ``pos`` gives of ``kind`` (and ``whom``), by its record: the sum of its
    effects of that kind."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    if rec is None:
        return 0
    return sum(e.amount for e in rec.effects if e.kind == kind and (not whom or e.whom == whom))


def _given_any(w: Work, pos: Pos, kind: EffectKind) -> bool:
    """The card at ``pos`` has an effect of ``kind`` (by its record)."""
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    return rec is not None and rec.has(kind)


def transfers(w: Work, seat: int) -> list[tuple[Pos, int]]:
    """The cards in play ``seat`` controls (not on a minion) that add transfers to its influence
    phase, with how many each adds: ``(card, transfers)``, by position."""
    out = []
    for pos, c in sorted(w.cards.items()):
        if c.controller == seat and c.zone == Zone.READY and not c.crypt:
            n = _given(w, pos, EffectKind.TRANSFERS)
            if n:
                out.append((pos, n))
    return out


def carried_intercept(w: Work, minion: Pos) -> list[tuple[Pos, int]]:
    """The cards on ``minion`` (its retainers and equipment) that give it intercept while they are
    on it, with how much each gives: ``(card, intercept)``, by position; a clause with a Discipline
    level gives it only to a bearer with that Discipline ("The bearer with Auspex [aus] gets +1
    intercept": Bowl of Convergence)."""
    bearer = w.info(minion)
    have = frozenset(bearer.disciplines) if bearer is not None else frozenset()
    out = []
    for pos, c in sorted(w.cards.items()):
        rec = record(c.card or w.revealed.get(pos, "")) if c.zone == Zone.ON and c.on == minion else None
        if rec is None:
            continue
        n = sum(
            e.amount
            for clause in rec.clauses
            if not clause.levels or clause.usable_by(have)
            for e in clause.effects
            if e.kind == EffectKind.CARRIED and e.whom == "intercept"
        )
        if n:
            out.append((pos, n))
    return out


def lockable(actions: int, phase: Phase, acting: int, seat: int, controller: int, locked: bool) -> bool:
    """A card in play giving ``actions`` master phase actions when locked may be locked for them
    by ``seat`` now: in its own master phase (``phase``, ``acting``), as the card's
    ``controller``, while the card is not ``locked``."""
    return bool(actions) and phase == Phase.MASTER and acting == seat == controller and not locked


def master_actions_of(ident: str) -> int:
    """The master phase actions the card ``ident`` gives when locked (0 for none)."""
    rec = record(ident)
    return sum(e.amount for e in rec.effects if e.kind == EffectKind.MASTER_ACTION) if rec is not None else 0


def locked(w: Work, pos: Pos) -> None:
    """The card at ``pos``, just locked by its controller, gives what its text gives when locked:
    its master phase actions, in its controller's own master phase (narrated with its name); a
    card locked at another moment, or with no such text, gives nothing."""
    c = w.cards[pos]
    if c.controller != w.author:
        return
    ident = c.card or w.revealed.get(pos, "")
    n = master_actions_of(ident)
    if lockable(n, w.phase, w.acting, w.author, c.controller, False):
        w.master_actions -= n  # the actions used, less those the cards gave (rules.py)
        w.note(f"{w.name(pos)}: +{n} master phase action", w.author)
    edge = _use(ident, EDGE_POOL)
    turn = _use(ident, TURN_HAND_SIZE)
    if edge is not None and edge_pool_now(w.phase, w.acting, w.edge, w.author):
        got = w.pool_delta(w.author, edge.amount, "card")
        w.note(f"{w.name(pos)}: {seat_ref(w.author)} holds the Edge and gains {got} pool", w.author)
    elif turn is not None:
        size = w.p(w.author).hand_size + turn.amount
        w.setp(w.author, hand_size=size)
        w.used = (*w.used, pos)  # given back as the turn ends (turn_ended)
        w.note(f"{w.name(pos)}: {seat_ref(w.author)}'s hand size +{turn.amount} until the end of the turn", w.author)
        w.refill(w.author)  # draw up to it at once (rulebook, "Drawing Cards")
    _count_lock(w, pos, ident)


def discarded_by(w: Work, act: DiscardAct) -> bool:
    """A ``discard`` naming (``by``) a card in play its controller locks to discard a card and draw
    up afterward ("You can lock this card to discard a card (draw up afterward)": The Barrens): the
    card locks, the hand card goes to the ash heap and the hand is drawn up (unless ``no_replace``),
    at any moment, narrated with the card's name. False for an act naming no such card (the caller
    applies the discard rules); raises IllegalMove for such a card not the author's, out of play or
    locked."""
    by = act.by
    ident = (w.cards[by].card or w.revealed.get(by, "")) if by is not None and by in w.cards else ""
    if by is None or _use(ident, DISCARD_DRAW) is None:
        return False
    held, name = w.cards[by], w.name(by)
    if held.controller != w.author or not held.zone.in_play:
        raise IllegalMove(f"{name} is not a card you control in play")
    if held.locked:
        raise IllegalMove(f"{name} is locked: it is locked to discard a card, once until it unlocks")
    w.setc(by, locked=True)
    w.move(act.card, Target.ASH)
    w.note(f"{name} is locked: {seat_ref(w.author)} discards {w.name(act.card)} and draws up", w.author)
    if not act.no_replace:
        w.refill(w.author)
    _count_lock(w, by, ident)
    return True


def turn_ended(w: Work) -> None:
    """The turn is over: each card locked for hand size this turn (its position in ``used``) takes
    back the hand size it gave its controller, narrated with its name (who then discards down);
    each card in play of the Methuselah whose turn it was that passes to its predator in its
    discard phase (:attr:`EffectKind.TO_PREDATOR`) comes under their control, at the end of that
    phase."""
    seat = w.acting
    if 0 <= seat < w.seats and w.p(seat).status == Status.IN and w.phase != Phase.NONE:
        predator = w.predator(seat)
        for pos, c in sorted(w.cards.items()):
            if (
                c.controller == seat
                and c.zone == Zone.READY
                and not c.crypt
                and _given_any(w, pos, EffectKind.TO_PREDATOR)
            ):
                w.move(pos, Target.READY, predator)
                w.note(f"{w.name(pos)}: {seat_ref(predator)} takes control of it (discard phase)", seat, predator)
    for pos in w.used:
        turn = _use(w.cards[pos].card or w.revealed.get(pos, ""), TURN_HAND_SIZE)
        if turn is None:
            continue
        seat = w.cards[pos].controller
        size = max(0, w.p(seat).hand_size - turn.amount)
        w.setp(seat, hand_size=size)
        w.note(f"{w.name(pos)}: {seat_ref(seat)}'s hand size -{turn.amount} as the turn ends (now {size})", seat)


def edge_pool_now(phase: Phase, acting: int, edge: int, seat: int) -> bool:
    """A card locked "during your unlock phase to gain 1 pool if you have the Edge" gives it now:
    in ``seat``'s own unlock phase while it holds the Edge."""
    return phase == Phase.UNLOCK and acting == seat == edge


def _use(ident: str, whom: str) -> Effect | None:
    """The card's lock use of kind ``whom`` (:data:`EDGE_POOL`, …), or None."""
    rec = record(ident)
    return next((e for e in rec.effects if e.kind == EffectKind.LOCK_USE and e.whom == whom), None) if rec else None


def _count_lock(w: Work, pos: Pos, ident: str) -> None:
    """A counter on the card just locked, if its text adds one each time; burned with as many as
    it says ("Burn this card if it has 3 counters")."""
    rec = record(ident)
    counting = [e for e in rec.effects if e.kind == EffectKind.LOCK_COUNTERS] if rec else []
    per_lock = sum(e.amount for e in counting)
    if not per_lock:
        return
    w.counters_delta(pos, per_lock, "card")
    most = next((e.least for e in counting if e.least), 0)
    if most and w.cards[pos].counters >= most:
        w.move(pos, Target.ASH)
        w.note(f"{w.name(pos)} has {most} counters and is burned", w.author)


def lock_use(w: Work, act: TransferAct) -> bool:
    """A ``transfer`` naming a card in play ``by`` that its controller locks to add blood ("You can
    lock this card to add 1 blood to a vampire in your uncontrolled region"; "… 2 blood to a ready
    vampire you control"): the card locks (taking its counter), ``n`` (its amount) blood goes to
    the vampire ``card``, narrated with its name. False for a card with no such use (the caller
    reads another); raises IllegalMove for a card not the author's, in play and unlocked, or a
    vampire the card cannot add blood to."""
    by, vampire = act.by, act.card
    assert by is not None
    held = w.card(by)
    ident = held.card or w.revealed.get(by, "")
    if _use(ident, BURNED_FOR_BLOOD) is not None:
        _burned_for_blood(w, act, ident)
        return True
    influence = _use(ident, INFLUENCE_BLOOD)
    uncontrolled, ready = _use(ident, UNCONTROLLED_BLOOD) or influence, _use(ident, READY_BLOOD)
    use = uncontrolled or ready
    if use is None:
        return False
    name = w.name(by)
    if held.controller != w.author or not held.zone.in_play:
        raise IllegalMove(f"{name} is not a card you control in play")
    if use is influence and (w.phase != Phase.INFLUENCE or w.acting != w.author):
        raise IllegalMove(f"{name} adds blood during your influence phase")
    if use is influence and by in w.used:
        raise IllegalMove(f"{name} has added its blood this turn already")
    if use is not influence and held.locked:
        raise IllegalMove(f"{name} is locked: it is locked to add blood, once until it unlocks")
    if vampire is None or act.kind != TransferKind.POOL:
        raise IllegalMove(f"{name} adds blood to a vampire: name the vampire")
    c = w.card(vampire)
    fits = (c.zone == Zone.UNCONTROLLED and c.owner == w.author) if use is uncontrolled else c.zone == Zone.READY
    if not c.crypt or not fits or (use is ready and c.controller != w.author):
        where = "in your uncontrolled region" if use is uncontrolled else "ready, that you control"
        raise IllegalMove(f"{name} adds blood to a vampire {where}, and {w.name(vampire)} is not one")
    n = within(act.do, "n", act.n, low=use.amount, high=use.amount, default=use.amount)
    w.counters_delta(vampire, n, "card")
    if use is influence:
        w.used = (*w.used, by)
        w.note(f"{name}: {n} blood added to {w.name(vampire)}", w.author)
        return True
    w.setc(by, locked=True)
    w.note(f"{name} is locked: {n} blood added to {w.name(vampire)}", w.author)
    _count_lock(w, by, ident)
    return True


def arrived(w: Work, pos: Pos, act: PlayAct | None = None) -> None:
    """The card at ``pos``, just put in play by the author: with its pool gained on three copies
    (:data:`~engine.games.vtes.card_effects.THREE_COPIES`) and the author controlling three
    copies in play, every copy in play (anyone's) leaves the game and the author gains the pool,
    narrated with the card's name; then the library cards of the author's ash heap the ``play``
    ``act`` recovers go, ``ash_hand`` to the hand, ``ash_library`` into the library, which is
    shuffled (:attr:`~engine.games.vtes.card_effects.EffectKind.RECOVER`; none stated: none moved).
    Raises IllegalMove for cards stated with no such effect now, or cards it may not recover."""
    hand, library = (act.ash_hand, act.ash_library or ()) if act is not None else (None, ())
    ident = w.cards[pos].card or w.revealed.get(pos, "")
    rec = record(ident)
    gain = (
        next((e for e in rec.effects if e.kind == EffectKind.GAIN_POOL and e.whom == THREE_COPIES), None)
        if rec
        else None
    )
    same = card_id(ident)
    copies = [
        p for p, c in sorted(w.cards.items()) if c.zone.in_play and card_id(c.card or w.revealed.get(p, "")) == same
    ]
    if gain is None or sum(1 for p in copies if w.cards[p].controller == w.author) < 3:
        if hand is not None or library:
            raise IllegalMove(f"{w.name(pos)} recovers no card from the ash heap now (ash_hand, ash_library)")
        return
    for p in copies:
        w.move(p, Target.REMOVED)
    got = w.pool_delta(w.author, gain.amount, "card")
    w.note(
        f"{w.name(pos)}: {len(copies)} copies removed from the game, {seat_ref(w.author)} gains {got} pool", w.author
    )
    recover = next((e for e in rec.effects if e.kind == EffectKind.RECOVER), None) if rec else None
    if hand is not None or library:
        _recover(w, pos, recover.amount if recover is not None else 0, hand, library)


def _recover(w: Work, pos: Pos, most: int, hand: Pos | None, library: tuple[Pos, ...]) -> None:
    """Up to ``most`` library cards of the author's ash heap: ``hand`` to the hand, after the card
    played is replaced from the library as it was (the hand is then one over its size, and its
    player discards down); ``library`` shuffled into the library: a new shuffle event over the
    library and those cards (a hidden-card operation the table runs; they leave the ash heap as it
    resolves, and nothing is drawn before). Raises IllegalMove for a card not a library card of the
    author's ash heap, one named twice, too many, or cards with none to the hand."""
    name = w.name(pos)
    if hand is None:
        raise IllegalMove(f"{name}: one of the chosen cards goes to your hand (ash_hand)")
    chosen = [hand, *library]
    if len(set(chosen)) != len(chosen) or len(chosen) > most:
        raise IllegalMove(f"{name} recovers up to {most} different library cards from your ash heap")
    for p in chosen:
        c = w.cards.get(p)
        if c is None or c.zone != Zone.ASH or c.owner != w.author or c.crypt:
            raise IllegalMove(f"{name} recovers library cards of your ash heap, and {w.name(p)} is not one")
    w.refill(w.author)
    w.move(hand, Target.HAND)
    text = f"{name}: {w.name(hand)} goes to {seat_ref(w.author)}'s hand"
    if library:
        source = (*w.p(w.author).library, *library)
        text += f", and {len(library)} other card{'s' if len(library) != 1 else ''} into their library, shuffled"
        shuffle = Shuffle(f"{DeckPart.LIBRARY}/{w.author}", len(source), w.author, tuple(sorted(w.in_game())))
        w.new_ops.append(replace(shuffle, owner=w.author, source=source))
    w.note(text, w.author)


def recover_choices(view: VtesView, card: CardView) -> list[dict[str, object]]:
    """The ``play`` fields (``to``, ``ash_hand``, ``ash_library``) with which the view's seat plays
    ``card`` as its third copy in play of a card that then recovers library cards from its ash
    heap: one per card name of the ash heap's library cards to the hand (the most recent of that
    name), with the others (the most recent first, up to the card's number) into the library; []
    for another card or moment."""
    rec = record(card.card) if card.card else None
    recover = next((e for e in rec.effects if e.kind == EffectKind.RECOVER), None) if rec else None
    seat = view.seat
    if rec is None or recover is None or seat is None:
        return []
    held = sum(1 for c in view.cards if c.controller == seat and c.zone.in_play and c.name == card.name)
    ash = [c for c in reversed(view.cards) if c.zone == Zone.ASH and c.owner == seat and not c.crypt and c.card]
    if held < 2 or not ash:
        return []
    out: list[dict[str, object]] = []
    for first in {c.name: c for c in reversed(ash)}.values():
        rest = [c.as_list() for c in ash if c.pos != first.pos][: recover.amount - 1]
        out.append({"to": Target.READY, "ash_hand": first.as_list(), "ash_library": rest})
    return out


def lock_offers(view: VtesView, seat: int) -> list[dict[str, object]]:
    """The uses of its cards in play that ``seat`` may make now, in its own turn: a ``transfer``
    naming a card used once in its influence phase (``by``) per vampire of its uncontrolled region;
    by locking them:
    a ``lock`` of a card giving a master phase action (its master phase) or pool with the Edge
    (its unlock phase, holding the Edge); a ``transfer`` naming the card (``by``) per vampire it
    may add blood to (its uncontrolled region's, or its ready ones)."""
    if view.acting != seat:
        return []
    out: list[dict[str, object]] = []
    for held in view.cards:
        if not held.card or held.controller != seat or not held.zone.in_play:
            continue
        burned = _use(held.card, BURNED_FOR_BLOOD)
        if burned is not None and view.phase == Phase.UNLOCK:
            out += _adds(held, burned, [c for c in view.cards if c.crypt and c.zone == Zone.READY and not c.counters])
        influence = _use(held.card, INFLUENCE_BLOOD)
        if influence is not None and view.phase == Phase.INFLUENCE and held.pos not in view.used:
            out += _adds(held, influence, view.uncontrolled(seat))
        if held.locked:
            continue
        actions = master_actions_of(held.card)
        edge = _use(held.card, EDGE_POOL) is not None and edge_pool_now(view.phase, view.acting, view.edge, seat)
        turn = _use(held.card, TURN_HAND_SIZE) is not None
        if lockable(actions, view.phase, view.acting, seat, held.controller, held.locked) or edge or turn:
            out.append({"do": Do.LOCK, "cards": [held.as_list()]})
        if _use(held.card, DISCARD_DRAW) is not None:
            out += [{"do": Do.DISCARD, "card": c.as_list(), "by": held.as_list()} for c in view.hand]
        for whom, vampires in (
            (UNCONTROLLED_BLOOD, view.uncontrolled(seat)),
            (READY_BLOOD, [c for c in view.controlled(seat) if c.crypt and c.zone == Zone.READY]),
        ):
            use = _use(held.card, whom)
            if use is not None:
                out += _adds(held, use, vampires)
    return out


def _adds(held: CardView, use: Effect, vampires: Sequence[CardView]) -> list[dict[str, object]]:
    """The ``transfer`` acts by which the card ``held`` adds its ``use``'s blood, one per vampire."""
    by = held.as_list()
    return [
        {"do": Do.TRANSFER, "kind": TransferKind.POOL, "card": v.as_list(), "n": use.amount, "by": by} for v in vampires
    ]


def unlocked(w: Work, seat: int) -> None:
    """``seat``'s unlock phase has begun (its cards unlocked): each card in play, anyone's, whose
    text burns the pool of a Methuselah controlling no ready Anarch makes ``seat`` burn it when it
    controls none (a vampire whose printed sect is Anarch); each card on a vampire in torpor whose
    text burns pool then ("During each Methuselah's unlock phase, if this vampire is in torpor, that
    Methuselah burns 1 pool": Fame) makes ``seat`` burn it; narrated with the card's name."""
    anarch = any(
        c.controller == seat and c.crypt and c.zone == Zone.READY and _sect(w, pos) == "Anarch"
        for pos, c in w.cards.items()
    )
    for pos, c in sorted(w.cards.items()):
        burn = _given(w, pos, EffectKind.UNLOCK_BURN, NO_ANARCH) if c.zone.in_play and not c.crypt else 0
        if burn and not anarch and w.p(seat).pool > 0:
            got = -w.pool_delta(seat, -burn, "card")
            w.note(f"{w.name(pos)}: {seat_ref(seat)} controls no ready Anarch and burns {got} pool", seat)
        on = c.on if c.zone == Zone.ON else ()
        fame = _given(w, pos, EffectKind.UNLOCK_BURN, IN_TORPOR) if on and w.cards[on].zone == Zone.TORPOR else 0
        if on and fame and w.p(seat).pool > 0:
            got = -w.pool_delta(seat, -fame, "card")
            w.note(f"{w.name(pos)}: {w.name(on)} is in torpor, {seat_ref(seat)} burns {got} pool", seat)


def _sect(w: Work, pos: Pos) -> str:
    rec = record(w.cards[pos].card or w.revealed.get(pos, ""))
    return rec.printed.sect if rec is not None else ""


def to_torpor(w: Work, vampire: Pos) -> None:
    """The vampire at ``vampire`` has just gone to torpor: each card on it whose text makes its
    controller burn pool then makes them burn it, narrated with the card's name."""
    seat = w.cards[vampire].controller
    for pos, c in sorted(w.cards.items()):
        burn = _given(w, pos, EffectKind.TORPOR_BURN) if c.zone == Zone.ON and c.on == vampire else 0
        if burn and w.p(seat).pool > 0:
            got = -w.pool_delta(seat, -burn, "card")
            w.note(f"{w.name(pos)}: {w.name(vampire)} goes to torpor, {seat_ref(seat)} burns {got} pool", seat)


def hand_size(w: Work, pos: Pos, seat: int, entering: bool) -> None:
    """The card at ``pos`` enters play under ``seat``'s control (``entering``) or leaves it: the
    hand size its text gives ``seat`` while in play is added or taken back, narrated with its name."""
    n = _given(w, pos, EffectKind.HAND_SIZE)
    if not n:
        return
    size = max(0, w.p(seat).hand_size + (n if entering else -n))
    w.setp(seat, hand_size=size)
    w.note(f"{w.name(pos)}: {seat_ref(seat)}'s hand size {'+' if entering else '-'}{n} (now {size})", seat)


def barring(cards: Iterable[tuple[Pos, str, Zone, Pos | tuple[()]]], minion: Pos) -> Pos | None:
    """The card among ``cards`` (position, identity, zone, the card it is on) that is on
    ``minion`` and bars it from blocking ("This minion cannot block"), or None."""
    for pos, ident, zone, on in sorted(cards):
        rec = record(ident) if ident and zone == Zone.ON and on == minion else None
        if rec is not None and rec.has(EffectKind.NO_BLOCK):
            return pos
    return None


def barred_from_blocking(w: Work, minion: Pos) -> Pos | None:
    """The card on ``minion`` that bars it from blocking, or None (:func:`barring`)."""
    return barring(((p, c.card or w.revealed.get(p, ""), c.zone, c.on) for p, c in w.cards.items()), minion)


def may_block(view: VtesView, minion: CardView) -> bool:
    """No card the view shows on ``minion`` bars it from blocking (:func:`barring`)."""
    return barring(((c.pos, c.card, c.zone, c.on) for c in view.cards), minion.pos) is None


def _burned_for_blood(w: Work, act: TransferAct, ident: str) -> None:
    """ "During your unlock phase, you can burn Jake to add up to 4 blood to a ready vampire with no
    blood": the card ``by`` burns and ``n`` blood (1 to the card's amount) goes to the vampire
    ``card``. Raises IllegalMove for another phase or Methuselah, a card not the author's in play,
    or a vampire not ready or with blood."""
    by, vampire = act.by, act.card
    assert by is not None
    held, name = w.card(by), w.name(by)
    use = _use(ident, BURNED_FOR_BLOOD)
    assert use is not None
    if held.controller != w.author or not held.zone.in_play:
        raise IllegalMove(f"{name} is not a card you control in play")
    if w.phase != Phase.UNLOCK or w.acting != w.author:
        raise IllegalMove(f"{name} is burned for blood during your unlock phase")
    if vampire is None or act.kind != TransferKind.POOL:
        raise IllegalMove(f"{name} adds blood to a vampire: name the vampire")
    c = w.card(vampire)
    if not c.crypt or c.zone != Zone.READY or c.counters:
        raise IllegalMove(f"{name} adds blood to a ready vampire with no blood, and {w.name(vampire)} is not one")
    n = within(act.do, "n", act.n, low=1, high=use.amount, default=use.amount)
    w.move(by, Target.ASH)
    w.counters_delta(vampire, n, "card")
    w.note(f"{name} is burned: {n} blood added to {w.name(vampire)}", w.author)


def succeeded(w: Work, a: Action) -> None:
    """The action ``a`` has succeeded: when no reaction card was played during it, each card on
    its vampire whose text gives it blood then ("Once each turn, this vampire can gain 1 blood
    after performing a successful action during which no reaction cards were played") gives it,
    up to its capacity, once a turn (the state's ``used``), narrated with the card's name."""
    vampire = w.cards[a.minion]
    reacted = any((rec := record(cid)) is not None and REACTION in rec.types for _, cid in a.played)
    if reacted or not vampire.crypt or not vampire.zone.in_play:
        return
    info = standing.at(w, a.minion)
    for pos, c in sorted(w.cards.items()):
        n = _given(w, pos, EffectKind.GAIN_BLOOD, QUIET_SUCCESS) if c.zone == Zone.ON and c.on == a.minion else 0
        room = max(0, info.capacity - w.cards[a.minion].counters) if info is not None and info.capacity else n
        if not n or pos in w.used or not room:
            continue
        w.counters_delta(a.minion, min(n, room), "card")
        w.used = (*w.used, pos)
        w.note(f"{w.name(pos)}: {w.name(a.minion)} gains {min(n, room)} blood (no reaction was played)", a.actor)
