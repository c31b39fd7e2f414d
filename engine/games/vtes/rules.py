"""The VTES table: acts, their checks and their effects (shared/rules/vtes.md; DESIGN.md,
"Games behind one interface").

The engine owns the structure (seating, pool, blood, the Edge, turns and phases, transfer budgets,
zones, ousting, VP, withdrawal, time-out); players apply card texts themselves through acts. Every
act is a canonical map with a ``"do"`` key; :data:`ACT_FIELDS` lists every act and its fields, and
:mod:`engine.games.vtes` documents them.

Hidden cards (PROTOCOL.md 6): every crypt and library is a private deck, shuffled in its own event
with its owner first; a card drawn or dealt is opened to its owner (:class:`Open` to a seat); a
card that turns face up is opened with the act that plays it when its owner makes that act, else by
an :class:`Open` to everyone; a Methuselah who leaves has its deck events ended (:class:`EndEvent`),
and every remaining event is ended when the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from typing import Any

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    GameError,
    IllegalMove,
    Note,
    Open,
    Pos,
    Release,
    Shuffle,
    seat_ref,
)
from engine.games.vtes.cards import CardInfo, card_base
from engine.games.vtes.state import (
    CRYPT_MIN,
    HIDDEN,
    IN_PLAY,
    LIBRARY_MAX,
    LIBRARY_MIN,
    OPENING_HAND,
    OPENING_UNCONTROLLED,
    PHASES,
    STATUS_ABANDONED,
    STATUS_IN,
    STATUS_OUSTED,
    STATUS_WITHDRAWN,
    CardState,
    EventRec,
    Methuselah,
    OutRecord,
    VtesState,
    _neighbour,
    format_vp,
)

MOVE_TARGETS = (
    "ready",
    "torpor",
    "ash",
    "removed",
    "hand",
    "library",
    "library_bottom",
    "crypt",
    "crypt_bottom",
    "uncontrolled",
    "on",
)
"""Where ``move`` may put cards: a zone, the bottom of a library or crypt, or ``"on"`` another card."""

PLAY_TARGETS = ("ash", "ready", "torpor", "removed", "on")
"""Where a card played from hand goes (default: the ash heap)."""

ACT_FIELDS: dict[str, frozenset[str]] = {
    "deck": frozenset({"crypt", "library"}),
    "phase": frozenset(),
    "end_turn": frozenset(),
    "edge": frozenset(),
    "draw": frozenset({"n"}),
    "play": frozenset({"card", "to", "on", "controller", "no_replace", "pool", "blood", "minion"}),
    "discard": frozenset({"card", "no_replace"}),
    "move": frozenset({"cards", "to", "on", "controller", "no_replace"}),
    "burn": frozenset({"cards", "no_replace"}),
    "lock": frozenset({"cards"}),
    "unlock": frozenset({"cards"}),
    "blood": frozenset({"card", "delta", "cause"}),
    "life": frozenset({"card", "delta", "cause"}),
    "pool": frozenset({"seat", "delta", "changes", "cause"}),
    "bleed": frozenset({"minion", "target", "amount", "lock"}),
    "combat": frozenset({"minions"}),
    "influence": frozenset({"card"}),
    "transfer": frozenset({"kind", "card", "n"}),
    "hand_size": frozenset({"seat", "delta"}),
    "shuffle": frozenset({"zone", "seat"}),
    "action_end": frozenset(),
    "withdraw": frozenset(),
    "time": frozenset(),
}
"""Every act (its ``"do"``) and the fields it may carry besides ``"do"``."""

TRANSFER_COSTS = {"pool": 1, "blood": 2, "crypt": 4}
"""Transfers each kind of transfer costs (``crypt`` also costs 1 pool)."""

_CAUSE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.,'-]{0,39}$")
_MAX_DELTA = 1000


# --- reading untrusted acts -------------------------------------------------------------------


def _int(act: Act, key: str, default: int | None = None, low: int | None = None, high: int | None = None) -> int:
    if key not in act:
        if default is None:
            raise IllegalMove(f"the {act['do']} act needs a whole number {key!r}")
        return default
    value = act[key]
    if type(value) is not int:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be a whole number")
    if low is not None and value < low:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be at least {low}, not {value}")
    if high is not None and value > high:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be at most {high}, not {value}")
    return value


def _bool(act: Act, key: str, default: bool) -> bool:
    if key not in act:
        return default
    if type(act[key]) is not bool:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be true or false")
    return act[key]


def _str(act: Act, key: str, choices: tuple[str, ...], default: str | None = None) -> str:
    if key not in act:
        if default is None:
            raise IllegalMove(f"the {act['do']} act needs {key!r}: one of {', '.join(choices)}")
        return default
    value = act[key]
    if not isinstance(value, str) or value not in choices:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be one of {', '.join(choices)}")
    return value


def _pos(value: Any, what: str = "card") -> Pos:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or any(type(x) is not int or x < 0 for x in value):
        raise IllegalMove(f"the {what} must be given as an [event, index] pair")
    return (value[0], value[1])


def _positions(act: Act, key: str) -> tuple[Pos, ...]:
    raw = act.get(key)
    if not isinstance(raw, list) or not raw:
        raise IllegalMove(f"the {act['do']} act must list its {key} as [event, index] pairs")
    out = [_pos(item, "cards") for item in raw]
    if len(set(out)) != len(out):
        raise IllegalMove(f"the {act['do']} act names one of its cards twice")
    return tuple(out)


def _cause(act: Act) -> str:
    value = act.get("cause")
    if not isinstance(value, str) or not _CAUSE_RE.match(value):
        raise IllegalMove(f"the {act['do']} act needs a cause: a short phrase such as bleed, burn, cost, hunt or gain")
    return value


def _esc(text: str) -> str:
    """Escape text for a Note template."""
    return text.replace("{", "{{").replace("}", "}}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _validate_shape(state: VtesState, seat: int, act: Act) -> str:
    """Check the act's map shape and who may act now; return its ``do``."""
    if not isinstance(act, dict):
        raise IllegalMove("an act is a map with a 'do' field")
    do = act.get("do")
    if not isinstance(do, str) or do not in ACT_FIELDS:
        known = ", ".join(sorted(ACT_FIELDS))
        raise IllegalMove(f"there is no {do!r} act at a VTES table (the acts are: {known})")
    extra = sorted(set(act) - ACT_FIELDS[do] - {"do"})
    if extra:
        raise IllegalMove(f"the {do} act has no {extra[0]!r} field")
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalMove(f"there is no seat {seat} at this table")
    if state.step == "over":
        raise IllegalMove("the game is over")
    if state.queue:
        raise IllegalMove("the table is still running card operations: wait for them")
    if do == "deck":
        if state.step != "joining":
            raise IllegalMove("deck sizes are declared before the game starts, and it has started")
    else:
        if state.step != "play":
            raise IllegalMove("the game has not started: every seat first declares its deck sizes")
        if state.players[seat].status != STATUS_IN:
            raise IllegalMove("you have left the game and may no longer act")
    return do


# --- the working copy an act or operation mutates ---------------------------------------------------

_FIELD_NAMES = tuple(f.name for f in fields(VtesState))


class _Work:
    """A mutable copy of a state for one act, operation or abandon; :meth:`freeze` returns the
    new state. Raising mid-way leaves the original state untouched."""

    def __init__(self, state: VtesState, author: int = -1, do: str = "") -> None:
        for name in _FIELD_NAMES:
            setattr(self, name, getattr(state, name))
        self.players: list[Methuselah] = list(state.players)
        self.cards: dict[Pos, CardState] = {c.pos: c for c in state.cards}
        self.queue = list(state.queue)
        self.events = list(state.events)
        self.outs = list(state.outs)
        self.notes: list[Note] = []
        self.author = author
        self.do = do
        self.revealed: Mapping[Pos, str] = {}
        self.open_to: dict[int, list[Pos]] = {}
        self.open_all: list[Pos] = []
        self.new_ops: list[Any] = []
        self.end_events: list[int] = []
        self.releases: list[int] = []
        # cards keep their sorted order unless positions are added or removed (a shuffle)
        self.reordered = False

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
        self.flush()
        values = {name: getattr(self, name) for name in _FIELD_NAMES}
        values.update(
            players=tuple(self.players),
            cards=tuple(self.cards[p] for p in sorted(self.cards)) if self.reordered else tuple(self.cards.values()),
            queue=tuple(self.queue),
            events=tuple(self.events),
            outs=tuple(self.outs),
        )
        return VtesState(**values)

    def note(self, text: str, *seats: int) -> None:
        self.notes.append(Note(text, tuple(seats)))

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

    def option(self, name: str) -> Any:
        return dict(self.options)[name]

    def in_game(self) -> tuple[int, ...]:
        return tuple(s for s in self.seating if self.players[s].status == STATUS_IN)

    def prey(self, seat: int) -> int:
        return _neighbour_work(self, seat, 1)

    def predator(self, seat: int) -> int:
        return _neighbour_work(self, seat, -1)

    def act_ref(self, cause: str = "") -> str:
        what = f"{self.do} ({_esc(cause)})" if cause and cause != self.do else self.do
        return f"act {self.acts}, {what}, recorded by {seat_ref(self.author)}"

    def hand(self, seat: int) -> list[Pos]:
        return [p for p, c in self.cards.items() if c.owner == seat and c.zone == "hand"]

    def info(self, pos: Pos) -> CardInfo | None:
        ident = self.cards[pos].card or self.revealed.get(pos, "")
        return card_base().info(ident) if ident else None

    def name(self, pos: Pos) -> str:
        info = self.info(pos)
        if info is not None:
            return _esc(info.name)
        c = self.cards.get(pos)
        if c is not None and c.crypt and c.zone in ("uncontrolled", "crypt"):
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
        if c.crypt and c.zone in IN_PLAY:
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
            self.setc(pos, zone="hand", controller=seat)
            if not self.cards[pos].known_owner and not self.cards[pos].card:
                self.open_to.setdefault(seat, []).append(pos)
        return len(taken)

    def refill(self, seat: int) -> None:
        """Draw up to ``seat``'s hand size (rules, "Hand size")."""
        missing = self.p(seat).hand_size - len(self.hand(seat))
        if missing > 0:
            self.draw(seat, missing)

    def move(self, pos: Pos, zone: str, controller: int | None = None, on: Pos | None = None) -> None:
        """Move one card; its attached cards follow it out of play to the ash heap (or removed)."""
        c = self.cards[pos]
        owner = self.p(c.owner)
        if c.zone == "library":
            self.setp(c.owner, library=tuple(x for x in owner.library if x != pos))
        elif c.zone == "crypt":
            self.setp(c.owner, crypt=tuple(x for x in owner.crypt if x != pos))
        base = zone.replace("_bottom", "")
        leaving_play = c.zone in IN_PLAY and base not in IN_PLAY
        if leaving_play and c.counters:
            self.blood_lost(c, self.do)
        keep = base in IN_PLAY or (base == "uncontrolled" and c.zone == "uncontrolled")
        changes: dict[str, Any] = dict(zone=base, on=on if base == "on" and on is not None else ())
        if base in IN_PLAY:
            if controller is None:
                if base == "on" and on is not None:
                    controller = self.cards[on].controller
                else:
                    controller = c.controller if c.zone in IN_PLAY else c.owner
            changes["controller"] = controller
        else:
            changes["controller"] = c.owner
            changes["locked"] = False
        if not keep:
            changes["counters"] = 0
        self.cards[pos] = replace(c, **changes)
        if base in ("library", "crypt"):
            order = self.p(c.owner).library if base == "library" else self.p(c.owner).crypt
            order = order + (pos,) if zone.endswith("_bottom") else (pos,) + order
            self.setp(c.owner, **{base: order})
        # Identities: a face-down card turning face up is opened; one reaching its owner's hand or
        # uncontrolled region is opened to the owner.
        if base not in HIDDEN and not c.card:
            if pos in self.revealed:
                self.setc(pos, card=self.revealed[pos])
            elif pos not in self.open_all:
                self.open_all.append(pos)
        if base in ("hand", "uncontrolled") and not c.known_owner and not c.card:
            self.open_to.setdefault(c.owner, []).append(pos)
        if leaving_play:
            for other in [p for p, x in self.cards.items() if x.zone == "on" and x.on == pos]:
                self.move(other, "removed" if base == "removed" else "ash")

    # -- leaving the game --

    def leave(self, seat: int, how: str, predator: int, credited: bool) -> None:
        """``seat`` leaves the game (ousted, withdrawn or abandoned): rules, "Ousting"."""
        self.setp(seat, status=how, withdrawing=False)
        gone = [
            pos
            for pos, c in self.cards.items()
            if (c.zone in IN_PLAY and c.controller == seat) or (c.owner == seat and c.zone in HIDDEN)
        ]
        for pos in gone:
            c = self.cards[pos]
            self.cards[pos] = replace(c, zone="removed", controller=c.owner, locked=False, counters=0, on=())
        # cards left on a removed card go with it
        for pos, c in list(self.cards.items()):
            if c.zone == "on" and c.on and self.cards[c.on].zone == "removed":
                self.cards[pos] = replace(c, zone="removed", controller=c.owner, locked=False, counters=0, on=())
        self.setp(seat, library=(), crypt=())
        if self.edge == seat:
            self.edge = -1
        if how != STATUS_ABANDONED and not self.abandons:
            self.end_deck_events(seat)
            # It also leaves every other event it locks: the table removes its locks from then on.
            if self.step == "play" and len(self.in_game()) > 1:
                self.releases.append(seat)
        self.outs.append(OutRecord(seat, how, self.acts, predator, credited))

    def end_deck_events(self, seat: int) -> None:
        for i, ev in enumerate(self.events):
            if ev.owner == seat and not ev.ended:
                self.events[i] = replace(ev, ended=True)
                self.end_events.append(ev.event)

    def end_game(self, why: str) -> None:
        self.step = "over"
        self.end = why
        self.phase = ""
        self.transfers = 0
        for i, ev in enumerate(self.events):
            # An abandoned seat never reveals its seeds: the events it locks stay unchecked.
            if not ev.ended and not any(a in ev.participants for a in self.abandons):
                self.events[i] = replace(ev, ended=True)
                self.end_events.append(ev.event)

    def settle(self) -> None:
        """After anyone left: the last Methuselah gains 1 VP and the game ends; an acting
        Methuselah who left passes the turn to its prey."""
        if self.step != "play":
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
            self.end_game("last")
            return
        if self.players[self.acting].status != STATUS_IN:
            self.begin_turn(self.prey(self.acting))

    def settle_ousts(self, predators: dict[int, int]) -> None:
        """Oust together every Methuselah at 0 pool after an act (rules, "Precise readings")."""
        if self.step != "play":
            return
        zero = [s for s in self.in_game() if self.p(s).pool == 0]
        if not zero:
            return
        for s in zero:
            self.note(f"{seat_ref(s)} has no pool left and is ousted", s)
        for s in zero:
            pred = predators.get(s, -1)
            self.leave(s, STATUS_OUSTED, pred, credited=pred >= 0)
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
        """Transfers for ``seat``'s influence phase: 1/2/3 on the first turn of the first three
        players in turn order, else 4 (rules, "Turn sequence")."""
        if self.p(seat).turns == 1:
            return min(4, self.seating.index(seat) + 1)
        return 4

    def begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn; an announced withdrawal is settled first (rules, "Withdrawal")."""
        while True:
            p = self.p(seat)
            if not p.withdrawing:
                break
            if p.withdraw_fail:
                self.note(f"{seat_ref(seat)}'s withdrawal fails: {p.withdraw_fail}", seat)
                self.setp(seat, withdrawing=False, withdraw_fail="")
                break
            halves = 1 if self.option("ruleset") == "tournament" else 2
            self.setp(seat, vp=p.vp + halves)
            self.note(
                f"{seat_ref(seat)} withdraws from the game and gains {format_vp(halves)} VP; "
                "their predator gains nothing",
                seat,
            )
            self.leave(seat, STATUS_WITHDRAWN, self.predator(seat), credited=False)
            if len(self.in_game()) <= 1:
                self.settle()
                return
            seat = self.prey(seat)
        self.turn += 1
        self.acting = seat
        self.phase = "unlock"
        self.edge_used = False
        self.transfers = 0
        self.master_actions = 0
        self.discard_actions = 0
        for pos, c in self.cards.items():
            if c.controller == seat and c.zone in IN_PLAY and c.locked:
                self.cards[pos] = replace(c, locked=False)
        self.setp(seat, turns=self.p(seat).turns + 1, hand_at_start=len(self.hand(seat)))
        self.note(f"Turn {self.turn}: {seat_ref(seat)} unlocks (unlock phase)", seat)

    def end_by_time(self) -> None:
        """Time-out: each Methuselah still in the game gains 0.5 VP (rules, "Tournament rules")."""
        for s in self.in_game():
            self.setp(s, vp=self.p(s).vp + 1)
        self.note("Time: the game ends and every Methuselah still in it gains 0.5 VP")
        self.end_game("time")


def _neighbour_work(w: _Work, seat: int, step: int) -> int:
    # The work in progress has the state's seating and players: the same walk round the table.
    return _neighbour(w, seat, step)


# --- act handlers -----------------------------------------------------------------------------


def _must_act(w: _Work, what: str) -> None:
    if w.author != w.acting:
        raise IllegalMove(f"only the acting Methuselah ({seat_ref(w.acting)}) may {what}")


def _must_phase(w: _Work, phase: str, what: str) -> None:
    if w.phase != phase:
        raise IllegalMove(f"{what} happens in the {phase} phase, and this is the {w.phase} phase")


def _own_hand(w: _Work, pos: Pos) -> CardState:
    c = w.card(pos)
    if c.zone != "hand" or c.owner != w.author:
        raise IllegalMove("that card is not in your hand")
    return c


def _in_play(w: _Work, pos: Pos) -> CardState:
    c = w.card(pos)
    if c.zone not in IN_PLAY:
        raise IllegalMove(f"{w.name(pos)} is not in play")
    return c


def _act_deck(w: _Work, act: Act) -> None:
    p = w.p(w.author)
    if p.declared:
        raise IllegalMove("you have already declared your deck sizes")
    crypt = _int(act, "crypt", low=0, high=500)
    library = _int(act, "library", low=0, high=500)
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
        w.step = "seating"
        w.new_ops.append(Draw("seating", tuple(range(w.seats, 1, -1))))


def _act_phase(w: _Work, act: Act) -> None:
    _must_act(w, "move to the next phase")
    _next_phase(w)


def _next_phase(w: _Work) -> None:
    if w.time_called:
        w.end_by_time()
        return
    i = PHASES.index(w.phase)
    if w.phase == "influence":
        w.transfers = 0
    if i + 1 < len(PHASES):
        w.phase = PHASES[i + 1]
        if w.phase == "influence":
            w.transfers = w.transfer_budget(w.acting)
            w.note(f"{seat_ref(w.acting)}: influence phase, {_plural(w.transfers, 'transfer')}", w.acting)
        else:
            w.note(f"{seat_ref(w.acting)}: {w.phase} phase", w.acting)
    else:
        w.begin_turn(w.prey(w.acting))


def _act_end_turn(w: _Work, act: Act) -> None:
    _must_act(w, "end the turn")
    turn = w.turn
    while w.step == "play" and w.turn == turn:
        _next_phase(w)


def _act_edge(w: _Work, act: Act) -> None:
    _must_act(w, "gain pool from the Edge")
    _must_phase(w, "unlock", "gaining pool from the Edge")
    if w.edge != w.author:
        raise IllegalMove("you do not have the Edge")
    if w.edge_used:
        raise IllegalMove("you have already gained pool from the Edge this turn")
    w.edge_used = True
    w.pool_delta(w.author, 1, "edge")


def _act_draw(w: _Work, act: Act) -> None:
    n = _int(act, "n", default=1, low=1, high=30)
    if not w.p(w.author).library:
        raise IllegalMove("your library is empty: an empty library stops drawing")
    w.draw(w.author, n)


def _opens_to_public(cards: Mapping[Pos, CardState], seat: int, positions: tuple[Pos, ...], zone: str) -> list[Pos]:
    """The face-down cards among ``positions`` that ``seat`` itself opens when they go to ``zone``:
    its own cards it has seen. Other face-down cards are opened by an Open to everyone."""
    if zone.replace("_bottom", "") in HIDDEN:
        return []
    out = []
    for pos in positions:
        c = cards.get(pos)
        if c is not None and c.zone in HIDDEN and not c.card and c.owner == seat and c.known_owner:
            out.append(pos)
    return out


def _destination(
    w: _Work, act: Act, targets: tuple[str, ...], default: str | None
) -> tuple[str, Pos | None, int | None]:
    zone = _str(act, "to", targets, default)
    on = None
    if zone == "on":
        if "on" not in act:
            raise IllegalMove("a card put on another card needs 'on': the [event, index] of that card")
        on = _pos(act["on"], "card it goes on")
        _in_play(w, on)
    elif "on" in act:
        raise IllegalMove("'on' goes only with to='on'")
    controller = None
    if "controller" in act:
        controller = act["controller"]
        if type(controller) is not int or not 0 <= controller < w.seats:
            raise IllegalMove("'controller' must be a seat number")
        if w.p(controller).status != STATUS_IN:
            raise IllegalMove(f"{seat_ref(controller)} is out of the game and cannot control cards")
        if zone.replace("_bottom", "") not in IN_PLAY:
            raise IllegalMove("only cards in play have a controller other than their owner")
    return zone, on, controller


def _check_target_fits(w: _Work, pos: Pos, zone: str, on: Pos | None) -> None:
    c = w.card(pos)
    base = zone.replace("_bottom", "")
    if base in ("hand", "library") and c.crypt:
        raise IllegalMove(f"{w.name(pos)} is a crypt card: it cannot go to a hand or a library")
    if base in ("crypt", "uncontrolled") and not c.crypt:
        raise IllegalMove(f"{w.name(pos)} is a library card: it cannot go to a crypt or an uncontrolled region")
    if base in HIDDEN and w.p(c.owner).status != STATUS_IN:
        raise IllegalMove(f"{seat_ref(c.owner)} is out of the game: its hidden zones are gone")
    if on is not None:
        host: Pos | tuple[()] = on
        while host:
            if host == pos:
                raise IllegalMove(f"{w.name(pos)} cannot be put on itself or on a card that is on it")
            host = w.cards[host].on


def _act_move(w: _Work, act: Act, zone_default: str | None = None, burn: bool = False) -> None:
    cards = _positions(act, "cards")
    if burn:
        zone, on, controller = "ash", None, None
    else:
        zone, on, controller = _destination(w, act, MOVE_TARGETS, zone_default)
    hands = set()
    for pos in cards:
        w.card(pos)
        _check_target_fits(w, pos, zone, on)
    for pos in cards:
        c = w.cards[pos]
        if c.zone == "hand":
            hands.add(c.owner)
        w.move(pos, zone, controller, on)
    if not _bool(act, "no_replace", False):
        for seat in sorted(hands):
            if w.p(seat).status == STATUS_IN:
                w.refill(seat)


def _act_burn(w: _Work, act: Act) -> None:
    _act_move(w, act, burn=True)


def _act_play(w: _Work, act: Act) -> None:
    pos = _pos(act.get("card"), "card played")
    _own_hand(w, pos)
    zone, on, controller = _destination(w, act, PLAY_TARGETS, "ash")
    _check_target_fits(w, pos, zone, on)
    pool = _int(act, "pool", default=0, low=0, high=100)
    blood = _int(act, "blood", default=0, low=0, high=100)
    minion = None
    if "minion" in act:
        minion = _pos(act["minion"], "minion")
        _in_play(w, minion)
    if blood and minion is None:
        raise IllegalMove("a blood cost needs 'minion': the vampire that pays it")
    if pool > w.p(w.author).pool:
        raise IllegalMove(f"you have only {w.p(w.author).pool} pool, the card costs {pool}")
    info = card_base().info(w.revealed.get(pos, w.cards[pos].card))
    w.move(pos, zone, controller, on)
    if pool:
        w.pool_delta(w.author, -pool, "cost")
    if blood:
        w.counters_delta(minion, -blood, "cost")
    if info is not None and info.is_master and w.author == w.acting and w.phase == "master":
        w.master_actions += 1
    if not _bool(act, "no_replace", False):
        w.refill(w.author)


def _act_discard(w: _Work, act: Act) -> None:
    pos = _pos(act.get("card"), "card discarded")
    _own_hand(w, pos)
    w.move(pos, "ash")
    if w.author == w.acting and w.phase == "discard":
        w.discard_actions += 1
    if not _bool(act, "no_replace", False):
        w.refill(w.author)


def _act_lock(w: _Work, act: Act, locked: bool = True) -> None:
    cards = _positions(act, "cards")
    for pos in cards:
        c = _in_play(w, pos)
        if c.locked == locked:
            raise IllegalMove(f"{w.name(pos)} is already {'locked' if locked else 'unlocked'}")
    for pos in cards:
        w.setc(pos, locked=locked)


def _act_unlock(w: _Work, act: Act) -> None:
    _act_lock(w, act, locked=False)


def _act_counters(w: _Work, act: Act) -> None:
    pos = _pos(act.get("card"), "card")
    delta = _int(act, "delta", low=-_MAX_DELTA, high=_MAX_DELTA)
    if delta == 0:
        raise IllegalMove("a counter change must not be 0")
    cause = _cause(act)
    c = w.card(pos)
    if c.zone not in IN_PLAY and c.zone != "uncontrolled":
        raise IllegalMove("counters go on cards in play or in an uncontrolled region")
    w.counters_delta(pos, delta, cause)


def _act_pool(w: _Work, act: Act) -> None:
    cause = _cause(act)
    if "changes" in act:
        if "seat" in act or "delta" in act:
            raise IllegalMove("a pool act gives either 'seat' and 'delta' or 'changes', not both")
        raw = act["changes"]
        if (
            not isinstance(raw, list)
            or not raw
            or not all(isinstance(x, (list, tuple)) and len(x) == 2 and all(type(v) is int for v in x) for x in raw)
        ):
            raise IllegalMove("'changes' must list [seat, delta] pairs")
        changes = [(x[0], x[1]) for x in raw]
    else:
        changes = [(act.get("seat", w.author), _int(act, "delta"))]
    seen = set()
    for seat, delta in changes:
        if type(seat) is not int or not 0 <= seat < w.seats:
            raise IllegalMove("'seat' must be a seat number")
        if seat in seen:
            raise IllegalMove(f"the pool act names {seat_ref(seat)} twice")
        seen.add(seat)
        if w.p(seat).status != STATUS_IN:
            raise IllegalMove(f"{seat_ref(seat)} is out of the game and has no pool")
        if delta == 0 or abs(delta) > _MAX_DELTA:
            raise IllegalMove(f"a pool change must not be 0 and at most {_MAX_DELTA}, not {delta}")
    for seat, delta in changes:
        w.pool_delta(seat, delta, cause)


def _act_bleed(w: _Work, act: Act) -> None:
    minion = _pos(act.get("minion"), "bleeding minion")
    c = w.card(minion)
    if c.zone != "ready":
        raise IllegalMove(f"{w.name(minion)} is not in a ready region: only ready minions bleed")
    bleeder = c.controller
    target = act.get("target", w.prey(bleeder))
    if type(target) is not int or not 0 <= target < w.seats:
        raise IllegalMove("'target' must be a seat number")
    if target == bleeder:
        raise IllegalMove("a minion cannot bleed its own controller")
    if w.p(target).status != STATUS_IN:
        raise IllegalMove(f"{seat_ref(target)} is out of the game")
    amount = _int(act, "amount", low=0, high=100)
    if _bool(act, "lock", True):
        if c.locked:
            raise IllegalMove(f"{w.name(minion)} is locked: a locked minion cannot act")
        w.setc(minion, locked=True)
    if amount >= 1:
        w.pool_delta(target, -amount, "bleed")
        w.edge = bleeder


def _act_combat(w: _Work, act: Act) -> None:
    minions = _positions(act, "minions")
    if len(minions) != 2:
        raise IllegalMove("combat is between two minions: list exactly two")
    for pos in minions:
        c = w.card(pos)
        if c.zone not in ("ready", "torpor"):
            raise IllegalMove(f"{w.name(pos)} is not a minion in play")
    for pos in minions:
        seat = w.cards[pos].controller
        w.fail_withdrawal(seat, f"one of {seat_ref(seat)}'s minions entered combat")


def _act_influence(w: _Work, act: Act) -> None:
    _must_act(w, "influence out vampires")
    _must_phase(w, "influence", "influencing out a vampire")
    pos = _pos(act.get("card"), "vampire")
    c = w.card(pos)
    if c.zone != "uncontrolled" or c.owner != w.author:
        raise IllegalMove("that vampire is not in your uncontrolled region")
    info = w.info(pos)
    if info is None:
        raise IllegalMove("that card is not in the card database")
    if info.capacity <= 0:
        raise IllegalMove(f"{_esc(info.name)} has no capacity and cannot be influenced out by transfers")
    if c.counters < info.capacity:
        raise IllegalMove(
            f"{_esc(info.name)} has {c.counters} blood and capacity {info.capacity}: "
            "it moves to the ready region only once its blood reaches its capacity"
        )
    w.move(pos, "ready", w.author)


def _act_transfer(w: _Work, act: Act) -> None:
    _must_act(w, "make transfers")
    _must_phase(w, "influence", "a transfer")
    kind = _str(act, "kind", tuple(TRANSFER_COSTS))
    p = w.p(w.author)
    if kind == "crypt":
        if "card" in act or "n" in act:
            raise IllegalMove("a crypt transfer takes no 'card' and no 'n'")
        if w.transfers < 4:
            raise IllegalMove(
                f"moving the top crypt card takes 4 transfers and 1 pool, and you have "
                f"{_plural(w.transfers, 'transfer')} left"
            )
        if p.pool < 1:
            raise IllegalMove("moving the top crypt card costs 1 pool, and you have none")
        if not p.crypt:
            raise IllegalMove("your crypt is empty")
        w.transfers -= 4
        w.pool_delta(w.author, -1, "transfer")
        w.move(p.crypt[0], "uncontrolled")
        return
    pos = _pos(act.get("card"), "vampire")
    n = _int(act, "n", default=1, low=1, high=4)
    c = w.card(pos)
    if c.zone != "uncontrolled" or c.owner != w.author:
        raise IllegalMove("transfers go to vampires in your uncontrolled region")
    cost = TRANSFER_COSTS[kind] * n
    if cost > w.transfers:
        what = _plural(n, "pool") if kind == "pool" else _plural(n, "blood")
        raise IllegalMove(
            f"moving {what} {'to' if kind == 'pool' else 'from'} a vampire takes "
            f"{_plural(cost, 'transfer')}, and you have {_plural(w.transfers, 'transfer')} left"
        )
    w.transfers -= cost
    if kind == "pool":
        if p.pool < n:
            raise IllegalMove(f"you have only {p.pool} pool")
        w.pool_delta(w.author, -n, "transfer")
        w.setc(pos, counters=c.counters + n)
    else:
        if c.counters < n:
            raise IllegalMove(f"that vampire has only {c.counters} blood")
        w.setc(pos, counters=c.counters - n)
        w.pool_delta(w.author, n, "transfer")


def _act_hand_size(w: _Work, act: Act) -> None:
    seat = act.get("seat", w.author)
    if type(seat) is not int or not 0 <= seat < w.seats or w.p(seat).status != STATUS_IN:
        raise IllegalMove("'seat' must be a Methuselah in the game")
    delta = _int(act, "delta", low=-30, high=30)
    new = w.p(seat).hand_size + delta
    if delta == 0 or not 0 <= new <= 30:
        raise IllegalMove(f"a hand size change must not be 0 and must leave it between 0 and 30, not {new}")
    w.setp(seat, hand_size=new)


def _act_shuffle(w: _Work, act: Act) -> None:
    zone = _str(act, "zone", ("library", "crypt"))
    seat = act.get("seat", w.author)
    if type(seat) is not int or not 0 <= seat < w.seats or w.p(seat).status != STATUS_IN:
        raise IllegalMove("'seat' must be a Methuselah in the game")
    positions = w.p(seat).library if zone == "library" else w.p(seat).crypt
    if not positions:
        raise IllegalMove(f"there is nothing to shuffle: that {zone} is empty")
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


def _act_action_end(w: _Work, act: Act) -> None:
    _must_act(w, "end a minion action")
    _must_phase(w, "minion", "a minion action")
    if w.time_called:
        w.end_by_time()


def _act_withdraw(w: _Work, act: Act) -> None:
    _must_act(w, "announce withdrawal")
    _must_phase(w, "unlock", "announcing withdrawal")
    p = w.p(w.author)
    if p.withdrawing:
        raise IllegalMove("you have already announced withdrawal")
    if p.library:
        raise IllegalMove(
            f"only a Methuselah whose library is exhausted may withdraw, and yours has "
            f"{_plural(len(p.library), 'card')}"
        )
    if p.hand_at_start >= p.hand_size:
        raise IllegalMove(
            f"only a Methuselah who begins the turn with less than a full hand may withdraw, "
            f"and you began it with {p.hand_at_start} of {p.hand_size}"
        )
    w.setp(w.author, withdrawing=True, withdraw_fail="")


def _act_time(w: _Work, act: Act) -> None:
    if w.option("ruleset") != "tournament":
        raise IllegalMove("a time limit is a tournament rule, and this table plays ruleset=standard")
    if w.time_called:
        raise IllegalMove("time has already been called")
    if w.author in w.time_calls:
        raise IllegalMove("you have already called time: another player must agree")
    w.time_calls = tuple(sorted(w.time_calls + (w.author,)))
    if len(w.time_calls) >= 2:
        w.time_called = True
        w.note("Time is called: the game ends after the current minion action or at the end of this phase")


_HANDLERS: dict[str, Callable[[_Work, Act], None]] = {
    "deck": _act_deck,
    "phase": _act_phase,
    "end_turn": _act_end_turn,
    "edge": _act_edge,
    "draw": _act_draw,
    "play": _act_play,
    "discard": _act_discard,
    "move": _act_move,
    "burn": _act_burn,
    "lock": _act_lock,
    "unlock": _act_unlock,
    "blood": _act_counters,
    "life": _act_counters,
    "pool": _act_pool,
    "bleed": _act_bleed,
    "combat": _act_combat,
    "influence": _act_influence,
    "transfer": _act_transfer,
    "hand_size": _act_hand_size,
    "shuffle": _act_shuffle,
    "action_end": _act_action_end,
    "withdraw": _act_withdraw,
    "time": _act_time,
}


# --- the entry points the game object uses --------------------------------------------------------


def opens(state: VtesState, seat: int, act: Act) -> tuple[Pos, ...]:
    """The hidden positions ``act`` by ``seat`` opens to everyone with it: cards of its own that
    it has seen (hand, uncontrolled region) turning face up. Raises IllegalMove when malformed or
    when it plays a card the seat does not hold."""
    do = _validate_shape(state, seat, act)
    cards = {c.pos: c for c in state.cards}
    if do in ("play", "discard"):
        pos = _pos(act.get("card"), "card")
        c = cards.get(pos)
        if c is None or c.zone != "hand" or c.owner != seat:
            raise IllegalMove("that card is not in your hand")
        return () if c.card else (pos,)
    if do == "influence":
        pos = _pos(act.get("card"), "vampire")
        c = cards.get(pos)
        if c is None or c.zone != "uncontrolled" or c.owner != seat:
            raise IllegalMove("that vampire is not in your uncontrolled region")
        return () if c.card else (pos,)
    if do in ("move", "burn"):
        positions = _positions(act, "cards")
        zone = "ash" if do == "burn" else act.get("to")
        if not isinstance(zone, str) or zone not in MOVE_TARGETS:
            zone = "ash"
        return tuple(sorted(_opens_to_public(cards, seat, positions, zone)))
    return ()


def run_act(state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> tuple[VtesState, tuple[Note, ...]]:
    """Check and apply ``act`` by ``seat``; return the new state and the narration.

    Raises IllegalMove with a sentence when the rules refuse it; the state is unchanged then.
    """
    do = _validate_shape(state, seat, act)
    expected = set(opens(state, seat, act))
    if set(revealed) != expected:
        raise IllegalMove("the act must open exactly the cards it turns face up")
    cards = {c.pos: c for c in state.cards}
    for pos, ident in revealed.items():
        info = card_base().info(ident)
        if info is not None and (info.kind == "crypt") != cards[pos].crypt:
            raise IllegalMove(f"{_esc(info.name)} cannot be at that position: it is from the other deck")
    w = _Work(state, seat, do)
    w.revealed = revealed
    w.acts += 1
    predators = {s: w.predator(s) for s in w.in_game()}
    _HANDLERS[do](w, act)
    w.settle_ousts(predators)
    return w.freeze(), tuple(w.notes)


def resolve_op(state: VtesState, op: Any, outcome: Any) -> tuple[VtesState, tuple[Note, ...]]:
    """Fold the outcome of the first queued table operation. Raises GameError if ``op`` is not
    the operation the state waits for or the outcome has the wrong shape."""
    if not state.queue or state.queue[0] != op:
        raise GameError("the table ran an operation this game did not ask for")
    w = _Work(state)
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
            for pos, ident in zip(op.positions, outcome):
                if pos in w.cards:
                    w.setc(pos, card=ident)
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
    if w.step == "dealing" and not w.queue:
        w.step = "play"
        order = ", ".join(seat_ref(s) for s in w.seating)
        w.note(f"Seating, clockwise: {order}. {seat_ref(w.seating[0])} takes the first turn", *w.seating)
        w.begin_turn(w.seating[0])
    return w.freeze(), tuple(w.notes)


def _resolve_seating(w: _Work, op: Draw, outcome: Any) -> None:
    if not isinstance(outcome, tuple) or len(outcome) != len(op.bounds):
        raise GameError("the seating draw must give one number per bound")
    order = list(range(w.seats))
    for i, (d, bound) in enumerate(zip(outcome, op.bounds)):
        if type(d) is not int or not 0 <= d < bound:
            raise GameError("a joint draw fell outside its bound")
        j = i + d
        order[i], order[j] = order[j], order[i]
    w.seating = tuple(order)
    w.step = "dealing"
    everyone = tuple(range(w.seats))
    for s in range(w.seats):
        p = w.p(s)
        w.new_ops.append(Shuffle(deck=f"crypt/{s}", count=p.crypt_size, first=s, participants=everyone, owner=s))
        w.new_ops.append(Shuffle(deck=f"library/{s}", count=p.library_size, first=s, participants=everyone, owner=s))


def _resolve_shuffle(w: _Work, op: Shuffle, outcome: Any) -> None:
    if type(outcome) is not int or outcome < 0 or any(ev.event == outcome for ev in w.events):
        raise GameError("a shuffle must give a new event number")
    kind, _, owner_text = op.deck.partition("/")
    owner = op.owner if op.owner is not None else int(owner_text)
    crypt = kind == "crypt"
    w.events.append(EventRec(outcome, owner, kind, participants=tuple(sorted(op.participants))))
    w.reordered = True
    positions = tuple((outcome, i) for i in range(op.count))
    for pos in op.source:
        w.cards.pop(pos, None)
    for pos in positions:
        w.cards[pos] = CardState(pos=pos, owner=owner, crypt=crypt, zone=kind, controller=owner)
    w.setp(owner, **{kind: positions})
    if op.source or w.step != "dealing":
        w.note(f"{seat_ref(owner)}'s {kind} is shuffled", owner)
        return
    if crypt:
        for pos in positions[:OPENING_UNCONTROLLED]:
            w.move(pos, "uncontrolled")
    else:
        w.draw(owner, OPENING_HAND)


def abandon_seat(state: VtesState, seat: int) -> tuple[VtesState, tuple[Note, ...]]:
    """Record that ``seat`` abandoned (PROTOCOL.md 6): it leaves as if withdrawn, gains no VP,
    and their predator gains nothing (rules, "Precise readings"). Before play starts, the game ends
    without a result. Its stalled operations are dropped; no event can be ended any more, since
    it will not reveal its seeds. Raises GameError for a seat that is not in the game."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise GameError(f"there is no seat {seat} at this table")
    if state.players[seat].status != STATUS_IN or state.step == "over":
        raise GameError(f"{seat_ref(seat)} is not in the game")
    w = _Work(state, seat, "abandon")
    w.abandons = tuple(sorted(w.abandons + (seat,)))
    w.note(f"{seat_ref(seat)} abandoned the game: they leave without VP and their predator gains nothing", seat)
    if w.step != "play":
        w.setp(seat, status=STATUS_ABANDONED)
        w.outs.append(OutRecord(seat, STATUS_ABANDONED, w.acts, -1, False))
        w.queue = []
        w.end_game("unstarted")
        return w.freeze(), tuple(w.notes)

    def keep(op: Any) -> bool:
        if isinstance(op, Open) and op.to == seat:
            return False
        if isinstance(op, Shuffle) and op.owner == seat:
            return False
        return not isinstance(op, EndEvent)

    w.queue = [op for op in w.queue if keep(op)]
    w.leave(seat, STATUS_ABANDONED, w.predator(seat), credited=False)
    w.settle()
    if w.step == "play":
        _reshuffle_without(w, seat)
    return w.freeze(), tuple(w.notes)


def _reshuffle_without(w: _Work, gone: int) -> None:
    """After ``gone`` abandoned, no card it still locks can ever be opened (its keys are lost), so
    every remaining Methuselah's crypt and library become new shuffle events without it, from the
    owner's plain points (PROTOCOL.md 6: every event starts from plain card points). Cards on their
    way to being opened go back on top of their crypt or library first."""
    locked_by_gone = {ev.event for ev in w.events if gone in ev.participants}
    stuck: list[Pos] = []
    kept = []
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
            and c.zone not in ("library", "crypt")
            and w.players[c.owner].status == STATUS_IN
        ):
            w.move(pos, "crypt" if c.crypt else "library")
    players = tuple(sorted(w.in_game()))
    for s in players:
        for kind in ("crypt", "library"):
            positions = w.p(s).crypt if kind == "crypt" else w.p(s).library
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
