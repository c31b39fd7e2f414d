"""The table's own operations as they fold into a VTES state (PROTOCOL.md 6; shared/rules/vtes.md,
"Zones"): the seating draw, each crypt and library shuffle, a card opened to its owner or to
everyone, the end of a deck event, and a seat that abandons (its crypts and libraries reshuffled
without it). :func:`engine.games.vtes.rules.run_act` folds the players' acts."""

from __future__ import annotations

from engine.games.base import Draw, EndEvent, GameError, Note, Op, Open, Pos, Shuffle, seat_ref
from engine.games.vtes import windows
from engine.games.vtes.state import OPENING_HAND, OPENING_UNCONTROLLED, CardState, DeckShuffle, OutRecord, VtesState
from engine.games.vtes.vocab import DeckPart, End, Status, Step, Target, Zone
from engine.games.vtes.work import Work


def resolve_op(state: VtesState, op: Op, outcome: object) -> tuple[VtesState, tuple[Note, ...]]:
    """Fold the outcome of the first queued table operation. Raises GameError if ``op`` is not
    the operation the state waits for or the outcome has the wrong shape."""
    if not state.queue or state.queue[0] != op:
        raise GameError("the table ran an operation this game did not ask for")
    w = Work(state)
    w.queue.pop(0)
    if isinstance(op, Draw):
        _resolve_seating(w, op, outcome)
    elif isinstance(op, Shuffle):
        _resolve_shuffle(w, op, outcome)
    elif isinstance(op, Open):
        if op.to is None:
            if (
                not isinstance(outcome, tuple)
                or len(outcome) != len(op.positions)
                or not all(isinstance(x, str) for x in outcome)
            ):
                raise GameError("an opening to everyone must give one identity per position")
            for pos, ident in zip(op.positions, outcome, strict=True):
                if pos in w.cards:
                    w.setc(pos, card=ident)
            _say_opened(w, op.positions)
        else:
            for pos in op.positions:
                if pos in w.cards and w.cards[pos].owner == op.to:
                    w.setc(pos, known_owner=True)
    elif isinstance(op, EndEvent):
        if not isinstance(outcome, tuple) or not all(isinstance(x, str) for x in outcome):
            raise GameError("the end of an event must give the identity of each of its positions")
        for index, ident in enumerate(outcome):
            pos = (op.event, index)
            if pos in w.cards and not w.cards[pos].card:
                w.setc(pos, card=ident)
    w.flush()
    if w.step == Step.DEALING and not w.queue:
        w.step = Step.PLAY
        order = ", ".join(seat_ref(s) for s in w.seating)
        w.note(f"Seating, clockwise: {order}. {seat_ref(w.seating[0])} takes the first turn", *w.seating)
        w.begin_turn(w.seating[0])
    return w.freeze(), tuple(w.notes)


_OPENED_WHERE: dict[Zone, str] = {
    Zone.ASH: "in {owner}'s ash heap",
    Zone.READY: "in {owner}'s ready region",
    Zone.TORPOR: "in torpor",
    Zone.ON: "in play",
    Zone.ASIDE: "set aside",
    Zone.REMOVED: "out of the game",
}


def _say_opened(w: Work, positions: tuple[Pos, ...]) -> None:
    """Narrate the cards an opening to everyone just named: a face-down card a move turned face up
    is public from then on (``"Superior Mettle turns face up in {s1}'s ash heap"``), though the
    move's own line could only say "a card"."""
    parts = []
    owners: list[int] = []
    for pos in positions:
        c = w.cards.get(pos)
        if c is None or not c.card:
            continue
        where = _OPENED_WHERE.get(c.zone, "").format(owner=seat_ref(c.owner))
        parts.append(f"{w.name(pos)} turns face up" + (f" {where}" if where else ""))
        owners += [] if c.owner in owners else [c.owner]
    if parts:
        w.note("; ".join(parts), *owners)


def _resolve_seating(w: Work, op: Draw, outcome: object) -> None:
    if not isinstance(outcome, tuple) or len(outcome) != len(op.bounds):
        raise GameError("the seating draw must give one number per bound")
    order = list(range(w.seats))
    for i, (d, bound) in enumerate(zip(outcome, op.bounds, strict=True)):
        if type(d) is not int or not 0 <= d < bound:
            raise GameError("a joint draw fell outside its bound")
        j = i + d
        order[i], order[j] = order[j], order[i]
    w.seating = tuple(order)
    w.step = Step.DEALING
    everyone = tuple(range(w.seats))
    for s in range(w.seats):
        p = w.p(s)
        w.new_ops.append(Shuffle(deck=f"crypt/{s}", count=p.crypt_size, first=s, participants=everyone, owner=s))
        w.new_ops.append(Shuffle(deck=f"library/{s}", count=p.library_size, first=s, participants=everyone, owner=s))


def _resolve_shuffle(w: Work, op: Shuffle, outcome: object) -> None:
    if type(outcome) is not int or outcome < 0 or any(ev.event == outcome for ev in w.events):
        raise GameError("a shuffle must give a new event number")
    name, _, owner_text = op.deck.partition("/")
    kind = DeckPart(name)  # this game's own Shuffle: "crypt/<seat>" or "library/<seat>"
    owner = op.owner if op.owner is not None else int(owner_text)
    crypt = kind == DeckPart.CRYPT
    w.events.append(DeckShuffle(outcome, owner, kind, participants=tuple(sorted(op.participants))))
    w.reordered = True
    positions = tuple((outcome, i) for i in range(op.count))
    for pos in op.source:
        w.cards.pop(pos, None)
    for pos in positions:
        w.cards[pos] = CardState(pos=pos, owner=owner, crypt=crypt, zone=kind.zone, controller=owner)
    if crypt:
        w.setp(owner, crypt=positions)
    else:
        w.setp(owner, library=positions)
    if op.source or w.step != Step.DEALING:
        w.note(f"{seat_ref(owner)}'s {kind} is shuffled", owner)
        return
    if crypt:
        for pos in positions[:OPENING_UNCONTROLLED]:
            w.move(pos, Target.UNCONTROLLED)
    else:
        w.draw(owner, OPENING_HAND)


def abandon_seat(state: VtesState, seat: int) -> tuple[VtesState, tuple[Note, ...]]:
    """Record that ``seat`` abandoned (PROTOCOL.md 6): it leaves as if withdrawn, gains no VP,
    and their predator gains nothing (rules, "Precise readings"). Before play starts, the game ends
    without a result. Its stalled operations are dropped; no event can be ended any more, since
    it will not reveal its seeds. The open windows settle as for any seat that left
    (:func:`windows.settle`), before its turn, if it was acting, passes. Raises GameError for a seat that is not in the game."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise GameError(f"there is no seat {seat} at this table")
    if state.players[seat].status != Status.IN or state.step == Step.OVER:
        raise GameError(f"{seat_ref(seat)} is not in the game")
    w = Work(state, seat, "abandon")
    w.abandons = tuple(sorted(w.abandons + (seat,)))
    w.note(f"{seat_ref(seat)} abandoned the game: they leave without VP and their predator gains nothing", seat)
    if w.step != Step.PLAY:
        w.setp(seat, status=Status.ABANDONED)
        w.outs.append(OutRecord(seat, Status.ABANDONED, w.acts, -1, False))
        w.queue = []
        w.end_game(End.UNSTARTED)
        return w.freeze(), tuple(w.notes)

    def keep(op: Op) -> bool:
        if isinstance(op, Open) and op.to == seat:
            return False
        if isinstance(op, Shuffle) and op.owner == seat:
            return False
        return not isinstance(op, EndEvent)

    w.queue = [op for op in w.queue if keep(op)]
    w.leave(seat, Status.ABANDONED, w.predator(seat), credited=False)
    windows.settle(w)  # what it held ends or moves on before its turn, if it was acting, passes
    w.settle()
    if w.step == Step.PLAY:
        _reshuffle_without(w, seat)
    return w.freeze(), tuple(w.notes)


def _reshuffle_without(w: Work, gone: int) -> None:
    """After ``gone`` abandoned, no card it still locks can ever be opened (its keys are lost), so
    every remaining Methuselah's crypt and library become new shuffle events without it, from the
    owner's plain points (PROTOCOL.md 6: every event starts from plain card points). Cards on their
    way to being opened go back on top of their crypt or library first."""
    locked_by_gone = {ev.event for ev in w.events if gone in ev.participants}
    stuck: list[Pos] = []
    kept: list[Op] = []
    for op in w.queue:
        if isinstance(op, Open) and any(pos[0] in locked_by_gone for pos in op.positions):
            stuck.extend(op.positions)
        else:
            kept.append(op)
    w.queue = kept
    for pos in stuck:
        c = w.cards.get(pos)
        if (
            c is not None
            and not c.card
            and c.zone not in (Zone.LIBRARY, Zone.CRYPT)
            and w.players[c.owner].status == Status.IN
        ):
            w.move(pos, Target.CRYPT if c.crypt else Target.LIBRARY)
    players = tuple(sorted(w.in_game()))
    for s in players:
        for kind in (DeckPart.CRYPT, DeckPart.LIBRARY):
            positions = w.p(s).crypt if kind == DeckPart.CRYPT else w.p(s).library
            if positions and any(pos[0] in locked_by_gone for pos in positions):
                w.new_ops.append(
                    Shuffle(
                        deck=f"{kind}/{s}",
                        count=len(positions),
                        first=s,
                        participants=players,
                        owner=s,
                        source=positions,
                    )
                )
