"""The working copy a VTES act or table operation mutates (shared/rules/vtes.md): thawed from a
:class:`~engine.games.vtes.state.VtesState`'s own fields and frozen back into one, with the
table's bookkeeping every act shares (pool and counters, moving cards, ousts, turns, withdrawal).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from engine.games.base import EndEvent, IllegalMove, Note, Op, Open, OptionValue, Pos, Release, seat_ref
from engine.games.vtes import contests, lasting
from engine.games.vtes.acts import esc
from engine.games.vtes.card_record import CardTerms, record
from engine.games.vtes.cards import CardInfo, card_base
from engine.games.vtes.state import (
    CardState,
    Claim,
    Combat,
    Contests,
    DeckShuffle,
    Deferred,
    Done,
    Limited,
    Methuselah,
    OpenWindow,
    OutRecord,
    UnderWay,
    VtesState,
    format_vp,
    in_game,
    neighbour,
    option_value,
    ruleset_of,
)
from engine.games.vtes.vocab import End, Lift, LimitScope, Phase, Replacement, Ruleset, Status, Step, Target, Zone

#: Fields that are tuples of records in a state and lists in the working copy.
_LISTS = frozenset({"players", "events", "queue", "outs", "claims", "windows"})


_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(VtesState))


_BY_POS: list[tuple[tuple[CardState, ...], dict[Pos, CardState]]] = []


def by_pos(state: VtesState) -> Mapping[Pos, CardState]:
    """``state``'s cards by position, read only, in the order of ``state.cards``. The one map last
    made is kept with the tuple it was made from (a state's cards never change), since an act's
    check, its fold and its working copy ask for the same state's, and the working copy leaves the
    new state's (:meth:`Work.freeze`)."""
    last = _BY_POS[-1] if _BY_POS else None  # one read: another thread may replace it
    if last is not None and last[0] is state.cards:
        return last[1]
    cards = {c.pos: c for c in state.cards}
    _BY_POS[:] = [(state.cards, cards)]
    return cards


def _field_names(state: VtesState) -> tuple[str, ...]:
    """The names of every field of ``state``, in order (those of a subclass's state too)."""
    return _FIELDS if type(state) is VtesState else tuple(f.name for f in fields(state))


class Work(UnderWay):
    """A mutable copy of a state for one act, operation or abandon; :meth:`freeze` returns the
    new state. Raising mid-way leaves the original state untouched.

    Every field of the state (``dataclasses.fields``: none is listed by hand, so a field added to
    :class:`VtesState` is carried through every act) is here under its name (the tuples of records
    as lists or, for ``cards``, a dict by position); the new state is the original one with each
    field replaced (``dataclasses.replace``). ``author``/``do`` name the act (``do``: what an act
    reference in a note calls it).
    """

    seats: int
    options: tuple[tuple[str, OptionValue], ...]
    players: list[Methuselah]
    step: Step
    seating: tuple[int, ...]
    cards: dict[Pos, CardState]
    events: list[DeckShuffle]
    queue: list[Op]
    turn: int
    acting: int
    phase: Phase
    edge: int
    edge_used: bool
    transfers: int
    master_actions: int
    discard_actions: int
    acts: int
    answers: int
    time_calls: tuple[int, ...]
    time_called: bool
    outs: list[OutRecord]
    end: End
    last: int
    abandons: tuple[int, ...]
    windows: list[OpenWindow]
    done: tuple[Done, ...]
    recruited: tuple[Pos, ...]
    claims: list[Claim]
    clock: int
    actions_taken: int
    blocks: int
    combats: int
    referendums: int
    used: tuple[Pos, ...]
    contests: Contests
    ashed: tuple[Pos, ...]
    limited: tuple[Limited, ...]

    def __init__(self, state: VtesState, author: int = -1, do: str = "") -> None:
        self._origin = state
        self._fields = _field_names(state)
        for f in self._fields:
            value = getattr(state, f)
            if f == "cards":
                value = dict(by_pos(state))
            elif f in _LISTS:
                value = list(value)
            setattr(self, f, value)
        self.notes: list[Note] = []
        self.author = author
        self.do = do
        self.revealed: Mapping[Pos, str] = {}
        self.open_to: dict[int, list[Pos]] = {}
        self.open_all: list[Pos] = []
        self.new_ops: list[Op] = []
        self.end_events: list[int] = []
        self.releases: list[int] = []
        # cards keep their sorted order unless positions are added or removed (a shuffle)
        self.reordered = False
        self.lift: Lift | None = None
        """The rule the act lifts (P9), with the card that lifts it (``lift_by``)."""
        self.lift_by: Pos | None = None
        self.lifted = False
        self.taking = False
        """The act is a claim taking effect (:mod:`engine.games.vtes.claims`): it asks no one."""
        self.take: Claim | None = None
        """A claim this act lets take effect: its act is applied after this one."""
        self.terms: CardTerms | None = None
        """What the act states of its card's printed limit and replacement (docs/protocol.md 4.4.1)."""

    # -- plumbing --

    def flush(self) -> None:
        """Queue the operations this act or operation asked for, after those already queued:
        new shuffles and draws, opens to seats, opens to everyone, then ends of events."""
        self.queue.extend(self.new_ops)
        self.new_ops = []
        for seat in sorted(self.open_to):
            self.queue.append(Open(tuple(self.open_to[seat]), seat))
        self.open_to = {}
        if self.open_all:
            self.queue.append(Open(tuple(self.open_all), None))
            self.open_all = []
        self.queue.extend(EndEvent(e) for e in self.end_events)
        self.end_events = []
        self.queue.extend(Release(seat) for seat in self.releases)
        self.releases = []

    def freeze(self) -> VtesState:
        """The new state (operations asked for are queued first)."""
        self.flush()
        values: dict[str, Any] = {}
        for f in self._fields:
            value = getattr(self, f)
            if f == "cards":
                cards = self.cards
                value = tuple(cards[p] for p in sorted(cards)) if self.reordered else tuple(cards.values())
            elif f in _LISTS:
                value = tuple(value)
            values[f] = value
        state = replace(self._origin, **values)
        if not self.reordered:  # the map of the new state's cards, in their order: kept for by_pos
            _BY_POS[:] = [(state.cards, dict(self.cards))]
        return state

    def trial(self) -> Work:
        """A copy of this working copy to try a change on: what is done to it, or raised in it,
        leaves this one as it is (a card announced is checked so, :mod:`engine.games.vtes.cancels`)."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, (list, dict)):
                setattr(other, name, copy.copy(value))
        other.open_to = {seat: list(cards) for seat, cards in self.open_to.items()}
        return other

    def must_hold_impulse(self, holder: int, what: str) -> None:
        """Raise IllegalMove unless the act's author is ``holder``, who holds the impulse of the
        window, step or loop under way (shared/rules/vtes-actions.md 5.1, P1)."""
        if self.author != holder:
            raise IllegalMove(f"{seat_ref(holder)} holds the impulse: you may {what} when it reaches you (5.1)")

    def refuse(self, rule: Lift, text: str) -> None:
        """Refuse the act with ``text`` (IllegalMove), unless it names a card that lifts ``rule``
        (shared/rules/vtes-actions.md P9): then it goes through, once per act, shown to everyone."""
        if self.lift == rule and not self.lifted and self.lift_by is not None:
            self.lifted = True
            self.note(f"{seat_ref(self.author)} sets a rule aside with {self.name(self.lift_by)}: {text}", self.author)
            return
        raise IllegalMove(f"{text} (a card that allows it may lift the rule: {rule})")

    def note(self, text: str, *seats: int, news: str = "") -> None:
        """Narrate ``text`` (seat placeholders ``{sN}``) naming ``seats``; ``news``: what
        happened, for a reader that acts on it (a :class:`~engine.games.vtes.vocab.News`)."""
        self.notes.append(Note(text, tuple(seats), news))

    def p(self, seat: int) -> Methuselah:
        return self.players[seat]

    def setp(self, seat: int, **changes: Any) -> None:
        self.players[seat] = replace(self.players[seat], **changes)

    def card(self, pos: Pos) -> CardState:
        try:
            return self.cards[pos]
        except KeyError:
            raise IllegalMove(f"there is no card at position {list(pos)}") from None

    def setc(self, pos: Pos, **changes: Any) -> None:
        self.cards[pos] = replace(self.cards[pos], **changes)

    def option(self, name: str) -> OptionValue:
        return option_value(self.options, name)

    @property
    def ruleset(self) -> Ruleset:
        return ruleset_of(self.options)

    def in_game(self) -> tuple[int, ...]:
        return in_game(self.seating, self.players)

    def prey(self, seat: int) -> int:
        return neighbour(self.seating, self.players, seat, 1)

    def predator(self, seat: int) -> int:
        return neighbour(self.seating, self.players, seat, -1)

    def act_ref(self, cause: str = "") -> str:
        what = f"{self.do} ({esc(cause)})" if cause and cause != self.do else self.do
        return f"act {self.acts}, {what}, recorded by {seat_ref(self.author)}"

    def hand(self, seat: int) -> list[Pos]:
        return [p for p, c in self.cards.items() if c.owner == seat and c.zone == Zone.HAND]

    def info(self, pos: Pos) -> CardInfo | None:
        ident = self.cards[pos].card or self.revealed.get(pos, "")
        return card_base().info(ident) if ident else None

    def name(self, pos: Pos) -> str:
        info = self.info(pos)
        if info is not None:
            return esc(info.name)
        c = self.cards.get(pos)
        if c is not None and c.crypt and c.zone in (Zone.UNCONTROLLED, Zone.CRYPT):
            return "a face-down vampire"
        return "a card"

    # -- pool, counters and withdrawal --

    def fail_withdrawal(self, seat: int, why: str, cause: str = "") -> None:
        """Record the first act that breaks ``seat``'s announced withdrawal (rules, "Withdrawal")."""
        p = self.p(seat)
        if p.withdrawing and not p.withdraw_fail:
            reason = f"{why}: {self.act_ref(cause)}"
            self.setp(seat, withdraw_fail=reason)
            self.note(f"{seat_ref(seat)}'s withdrawal can no longer succeed: {reason}", seat)

    def pool_delta(self, seat: int, delta: int, cause: str) -> int:
        """Change ``seat``'s pool by ``delta`` (never below 0); return the change made."""
        p = self.p(seat)
        new = max(0, p.pool + delta)
        self.setp(seat, pool=new)
        if delta < 0:
            self.fail_withdrawal(seat, f"{seat_ref(seat)} lost or spent pool", cause)
        return new - p.pool

    def counters_delta(self, pos: Pos, delta: int, cause: str) -> None:
        c = self.card(pos)
        if c.counters + delta < 0:
            raise IllegalMove(f"{self.name(pos)} has only {c.counters} counters, it cannot lose {-delta}")
        self.setc(pos, counters=c.counters + delta)
        if delta < 0:
            self.blood_lost(c, cause)

    def blood_lost(self, c: CardState, cause: str) -> None:
        if c.crypt and c.zone.in_play:
            self.fail_withdrawal(
                c.controller, f"a vampire {seat_ref(c.controller)} controls lost or spent blood", cause
            )

    # -- moving cards --

    def draw(self, seat: int, n: int) -> int:
        """Draw up to ``n`` cards from the top of ``seat``'s library; return how many."""
        p = self.p(seat)
        taken = p.library[:n]
        self.setp(seat, library=p.library[len(taken) :])
        for pos in taken:
            self.setc(pos, zone=Zone.HAND, controller=seat)
            if not self.cards[pos].known_owner and not self.cards[pos].card:
                self.open_to.setdefault(seat, []).append(pos)
        return len(taken)

    def refill(self, seat: int, played: Pos | None = None) -> None:
        """Draw up to ``seat``'s hand size less its cards not yet replaced (rules, "Hand size");
        ``played``: the card it just played from hand, which is itself not replaced yet when its
        text says "Do not replace until …" (its record's ``replacement``)."""
        info = self.info(played) if played is not None else None
        rec = record(info.id) if info is not None else None
        p = self.p(seat)
        when = rec.replacement if rec is not None else Replacement.NOW
        if self.terms is not None and self.terms.card == played and self.terms.replacement is not None:
            when = self.terms.replacement  # as the act states it
        if rec is not None and when != Replacement.NOW:
            self.setp(seat, deferred=(*p.deferred, Deferred(when, self.turn, self.phase)))
            self.note(f"{esc(rec.name)} is not replaced until {when}", seat)
        missing = self.p(seat).hand_size - len(self.hand(seat)) - len(self.p(seat).deferred)
        if missing > 0:
            self.draw(seat, missing)

    def replace_deferred(self) -> None:
        """After any act: each Methuselah's cards not yet replaced whose moment has come are
        replaced (:class:`Replacement`): after the action or the combat once none is open, in its
        next unlock phase or discard phase, after the turn they were played in."""
        for seat in self.in_game():
            p = self.p(seat)
            due = tuple(d for d in p.deferred if self._due(seat, d))
            if due:
                self.setp(seat, deferred=tuple(d for d in p.deferred if d not in due))
                self.note(
                    f"{seat_ref(seat)} replaces {len(due)} card{'s' if len(due) > 1 else ''} played earlier", seat
                )
                self.refill(seat)

    def _due(self, seat: int, d: Deferred) -> bool:
        """The moment of ``seat``'s card not yet replaced ``d`` has come."""
        mine = self.acting == seat
        match d.when:
            case Replacement.AFTER_ACTION:
                return not self.windows
            case Replacement.AFTER_COMBAT:
                return not any(isinstance(x, Combat) for x in self.windows)
            case Replacement.UNLOCK:
                return mine and self.turn > d.turn
            case Replacement.DISCARD:
                return mine and self.phase == Phase.DISCARD and (self.turn, d.phase) != (d.turn, Phase.DISCARD)
            case Replacement.AFTER_TURN:
                return self.turn > d.turn
        return True

    def move(self, pos: Pos, to: Target, controller: int | None = None, on: Pos | None = None) -> None:
        """Move one card to ``to`` (the top of a pile unless a ``_bottom`` target); its attached
        cards follow it out of play to the ash heap (or removed)."""
        c = self.cards[pos]
        owner = self.p(c.owner)
        if c.zone == Zone.LIBRARY:
            self.setp(c.owner, library=tuple(x for x in owner.library if x != pos))
        elif c.zone == Zone.CRYPT:
            self.setp(c.owner, crypt=tuple(x for x in owner.crypt if x != pos))
        zone = to.zone
        leaving_play = c.zone.in_play and not zone.in_play
        if leaving_play and c.counters:
            self.blood_lost(c, self.do)
        keep = zone.in_play or (zone == Zone.UNCONTROLLED and c.zone == Zone.UNCONTROLLED)
        if zone.in_play:
            if controller is None:
                if zone == Zone.ON and on is not None:
                    controller = self.cards[on].controller
                else:
                    controller = c.controller if c.zone.in_play else c.owner
            moved = replace(c, zone=zone, controller=controller)
        else:
            moved = replace(c, zone=zone, controller=c.owner, locked=False)
        moved = replace(
            moved,
            on=on if zone == Zone.ON and on is not None else (),
            counters=c.counters if keep else 0,
        )
        self.cards[pos] = moved
        if zone == Zone.ASH and c.zone != Zone.ASH:
            self.ashed = (*self.ashed, pos)
        if zone == Zone.LIBRARY:
            library = self.p(c.owner).library
            self.setp(c.owner, library=library + (pos,) if to.bottom else (pos,) + library)
        elif zone == Zone.CRYPT:
            crypt = self.p(c.owner).crypt
            self.setp(c.owner, crypt=crypt + (pos,) if to.bottom else (pos,) + crypt)
        # Identities: a face-down card turning face up is opened; one reaching its owner's hand or
        # uncontrolled region is opened to the owner.
        if not zone.hidden and not c.card:
            if pos in self.revealed:
                self.setc(pos, card=self.revealed[pos])
            elif pos not in self.open_all:
                self.open_all.append(pos)
        if zone in (Zone.HAND, Zone.UNCONTROLLED) and not c.known_owner and not c.card:
            self.open_to.setdefault(c.owner, []).append(pos)
        if leaving_play:
            for other in [p for p, x in self.cards.items() if x.zone == Zone.ON and x.on == pos]:
                self.move(other, Target.REMOVED if zone == Zone.REMOVED else Target.ASH)
        elif zone.in_play and not c.zone.in_play:
            contests.arrive(self, pos)
        if zone == Zone.TORPOR and c.zone != Zone.TORPOR and c.crypt:
            lasting.to_torpor(self, pos)
        if zone.in_play != c.zone.in_play:
            seat = self.cards[pos].controller if zone.in_play else c.controller
            lasting.hand_size(self, pos, seat, entering=zone.in_play)

    # -- leaving the game --

    def leave(self, seat: int, how: Status, predator: int, credited: bool) -> None:
        """``seat`` leaves the game (ousted, withdrawn or abandoned): rules, "Ousting"."""
        self.setp(seat, status=how, withdrawing=False)
        gone = [
            pos
            for pos, c in self.cards.items()
            if ((c.zone.in_play or c.zone == Zone.CONTESTED) and c.controller == seat)
            or (c.owner == seat and c.zone.hidden)
        ]
        for pos in gone:
            c = self.cards[pos]
            self.cards[pos] = replace(c, zone=Zone.REMOVED, controller=c.owner, locked=False, counters=0, on=())
        # cards left on a removed card go with it
        for pos, c in list(self.cards.items()):
            if c.zone == Zone.ON and c.on and self.cards[c.on].zone == Zone.REMOVED:
                self.cards[pos] = replace(c, zone=Zone.REMOVED, controller=c.owner, locked=False, counters=0, on=())
        self.setp(seat, library=(), crypt=())
        if self.edge == seat:
            self.edge = -1
        if how != Status.ABANDONED and not self.abandons:
            self.end_deck_events(seat)
            # It also leaves every other event it locks: the table removes its locks from then on.
            if self.step == Step.PLAY and len(self.in_game()) > 1:
                self.releases.append(seat)
        self.outs.append(OutRecord(seat, how, self.acts, predator, credited, self.author))

    def end_deck_events(self, seat: int) -> None:
        for i, ev in enumerate(self.events):
            if ev.owner == seat and not ev.ended:
                self.events[i] = replace(ev, ended=True)
                self.end_events.append(ev.event)

    def end_game(self, why: End) -> None:
        self.step = Step.OVER
        self.end = why
        self.phase = Phase.NONE
        self.transfers = 0
        for i, ev in enumerate(self.events):
            # An abandoned seat never reveals its seeds: the events it locks stay unchecked.
            if not ev.ended and not any(a in ev.participants for a in self.abandons):
                self.events[i] = replace(ev, ended=True)
                self.end_events.append(ev.event)

    def settle(self) -> None:
        """After anyone left: the last Methuselah gains 1 VP and the game ends; an acting
        Methuselah who left passes the turn to its prey."""
        if self.step != Step.PLAY:
            return
        left = self.in_game()
        if len(left) <= 1:
            if left:
                last = left[0]
                self.last = last
                self.setp(last, vp=self.p(last).vp + 2)
                self.note(f"{seat_ref(last)} is the last Methuselah in the game and gains 1 VP", last)
            else:
                self.note("Nobody is left in the game")
            self.end_game(End.LAST)
            return
        if self.players[self.acting].status != Status.IN:
            self.begin_turn(self.prey(self.acting))

    def settle_ousts(self, predators: dict[int, int]) -> None:
        """Oust together every Methuselah at 0 pool after an act (rules, "Precise readings")."""
        if self.step != Step.PLAY:
            return
        zero = [s for s in self.in_game() if self.p(s).pool == 0]
        if not zero:
            return
        for s in zero:
            self.note(f"{seat_ref(s)} has no pool left and is ousted", s)
        for s in zero:
            pred = predators.get(s, -1)
            self.leave(s, Status.OUSTED, pred, credited=pred >= 0)
        for s in zero:
            pred = predators.get(s, -1)
            if pred < 0:
                continue
            if pred in zero:
                self.setp(pred, vp=self.p(pred).vp + 2)
                self.note(
                    f"{seat_ref(pred)} gains 1 VP for the oust of their prey {seat_ref(s)}, "
                    "but no pool: they were ousted by the same act",
                    pred,
                    s,
                )
            else:
                self.setp(pred, vp=self.p(pred).vp + 2, pool=self.p(pred).pool + 6)
                self.note(f"{seat_ref(pred)} gains 1 VP and 6 pool for the oust of their prey {seat_ref(s)}", pred, s)
        self.settle()

    # -- turns --

    def transfer_budget(self, seat: int) -> int:
        """Transfers for ``seat``'s influence phase: on its first turn, 1/2/3 for the Methuselah
        who takes the first, second, third turn of the game, else 4 (rulebook, "4. Influence
        Phase": "the Methuselah who has the first turn receives only 1 transfer on their first
        influence phase. The Methuselah who plays second gets 2 transfers on their turn, and the
        Methuselah who takes the third turn gets 3 transfers"). The order of turns, not of seats:
        after a seat left before its first turn, the next seat to play is the one who plays
        second (reading). Counted: the Methuselahs who have begun a turn, ``seat`` included."""
        if self.p(seat).turns == 1:
            return min(4, sum(1 for p in self.players if p.turns >= 1))
        return 4

    def begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn; an announced withdrawal is settled first (rules, "Withdrawal")."""
        lasting.turn_ended(self)
        while True:
            p = self.p(seat)
            if not p.withdrawing:
                break
            if p.withdraw_fail:
                self.note(f"{seat_ref(seat)}'s withdrawal fails: {p.withdraw_fail}", seat)
                self.setp(seat, withdrawing=False, withdraw_fail="")
                break
            halves = 1 if self.ruleset == Ruleset.TOURNAMENT else 2
            self.setp(seat, vp=p.vp + halves)
            self.note(
                f"{seat_ref(seat)} withdraws from the game and gains {format_vp(halves)} VP; "
                "their predator gains nothing",
                seat,
            )
            self.leave(seat, Status.WITHDRAWN, self.predator(seat), credited=False)
            if len(self.in_game()) <= 1:
                self.settle()
                return
            seat = self.prey(seat)
        self.turn += 1
        self.acting = seat
        self.phase = Phase.UNLOCK
        self.windows = []
        self.done = ()
        self.recruited = ()
        self.used = ()
        self.ashed = ()
        # a limit "between their unlock phases" lasts until the minion's controller unlocks; an
        # ally that played a card keeping it locked through this phase (On the Qui Vive) stays so
        held: dict[Pos, int] = {}
        for x in self.limited:
            pos = x.minion or None
            ally = self.cards[pos] if pos is not None and not self.cards[pos].crypt else None
            if x.scope == LimitScope.UNLOCK and ally is not None and ally.controller == seat:
                held.update({ally.pos: x.card} if _keeps_ally_locked(x.card) else {})
        self.limited = tuple(
            x
            for x in self.limited
            if (x.scope == LimitScope.UNLOCK and x.minion and self.cards[x.minion].controller != seat)
            or x.scope == LimitScope.GAME
        )
        self.edge_used = False
        self.transfers = 0
        self.master_actions = 0
        self.discard_actions = 0
        for pos, c in self.cards.items():
            if c.controller == seat and c.zone.in_play and c.locked and pos not in held:
                self.cards[pos] = replace(c, locked=False)
        self.setp(seat, turns=self.p(seat).turns + 1, hand_at_start=len(self.hand(seat)))
        self.note(f"Turn {self.turn}: {seat_ref(seat)} unlocks (unlock phase)", seat)
        for pos, cid in held.items():
            if self.cards[pos].zone.in_play and self.cards[pos].locked:
                info = card_base().info(cid)
                why = f" ({esc(info.name)})" if info is not None else ""
                self.note(f"{self.name(pos)} does not unlock as normal{why}", seat)
        contests.unlock(self, seat)
        lasting.unlocked(self, seat)

    def end_by_time(self) -> None:
        """Time-out: each Methuselah still in the game gains 0.5 VP (rules, "Tournament rules")."""
        for s in self.in_game():
            self.setp(s, vp=self.p(s).vp + 1)
        self.note("Time: the game ends and every Methuselah still in it gains 0.5 VP")
        self.end_game(End.TIME)


def _keeps_ally_locked(card: int) -> bool:
    """The card (a krcg id) keeps an ally that played it locked through its next unlock phase."""
    rec = record(card)
    return rec is not None and rec.keeps_ally_locked
