"""The VTES table: acts, their checks and their effects (shared/rules/vtes.md; DESIGN.md,
"Games behind one interface").

The engine owns the structure (seating, pool, blood, the Edge, turns and phases, transfer budgets,
zones, ousting, VP, withdrawal, time-out); players apply card texts themselves through acts. Every
act is a canonical map with a ``"do"`` key (a :class:`~engine.games.vtes.vocab.Do`);
:data:`ACT_FIELDS` lists every act and its fields, and :mod:`engine.games.vtes` documents them. An
act of the wrong shape (not a map, an unknown name or field, a field of the wrong type or outside
the act's vocabulary) raises :class:`MalformedAct`; a well-formed act the rules refuse now raises
:class:`IllegalMove`.

Hidden cards (PROTOCOL.md 6): every crypt and library is a private deck, shuffled in its own event
with its owner first; a card drawn or dealt is opened to its owner (:class:`Open` to a seat); a
card that turns face up is opened with the act that plays it when its owner makes that act, else by
an :class:`Open` to everyone; a Methuselah who leaves has its deck events ended (:class:`EndEvent`),
and every remaining event is ended when the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Any

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    GameError,
    IllegalMove,
    MalformedAct,
    Note,
    Op,
    Open,
    OptionValue,
    Pos,
    Release,
    Shuffle,
    act_position,
    seat_ref,
)
from engine.games.vtes.cards import CardInfo, card_base
from engine.games.vtes.state import (
    CRYPT_MIN,
    LIBRARY_MAX,
    LIBRARY_MIN,
    OPENING_HAND,
    OPENING_UNCONTROLLED,
    CardState,
    DeckShuffle,
    Methuselah,
    OutRecord,
    VtesState,
    format_vp,
    in_game,
    neighbour,
    option_value,
    ruleset_of,
)
from engine.games.vtes.vocab import (
    MOVE_TARGETS,
    PHASES,
    PLAY_TARGETS,
    TRANSFER_COSTS,
    DeckPart,
    Do,
    End,
    Phase,
    Ruleset,
    Status,
    Step,
    Target,
    TransferKind,
    Zone,
)

ACT_FIELDS: dict[Do, frozenset[str]] = {
    Do.DECK: frozenset({"crypt", "library"}),
    Do.PHASE: frozenset(),
    Do.END_TURN: frozenset(),
    Do.EDGE: frozenset(),
    Do.DRAW: frozenset({"n"}),
    Do.PLAY: frozenset({"card", "to", "on", "controller", "no_replace", "pool", "blood", "minion"}),
    Do.DISCARD: frozenset({"card", "no_replace"}),
    Do.MOVE: frozenset({"cards", "to", "on", "controller", "no_replace"}),
    Do.BURN: frozenset({"cards", "no_replace"}),
    Do.LOCK: frozenset({"cards"}),
    Do.UNLOCK: frozenset({"cards"}),
    Do.BLOOD: frozenset({"card", "delta", "cause"}),
    Do.LIFE: frozenset({"card", "delta", "cause"}),
    Do.POOL: frozenset({"seat", "delta", "changes", "cause"}),
    Do.BLEED: frozenset({"minion", "target", "amount", "lock"}),
    Do.COMBAT: frozenset({"minions"}),
    Do.INFLUENCE: frozenset({"card"}),
    Do.TRANSFER: frozenset({"kind", "card", "n"}),
    Do.HAND_SIZE: frozenset({"seat", "delta"}),
    Do.SHUFFLE: frozenset({"zone", "seat"}),
    Do.ACTION_END: frozenset(),
    Do.WITHDRAW: frozenset(),
    Do.TIME: frozenset(),
}
"""Every act (its ``"do"``) and the fields it may carry besides ``"do"``."""

_DO_BY_NAME: dict[str, Do] = {d.value: d for d in Do}

_CAUSE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.,'-]{0,39}$")
_MAX_DELTA = 1000


# --- reading untrusted acts -------------------------------------------------------------------


def _int(act: Act, key: str, default: int | None = None, low: int | None = None, high: int | None = None) -> int:
    """Field ``key``: an int (``default`` when absent) within ``low``..``high``. Raises
    MalformedAct when missing without a default or not an int, IllegalMove out of range."""
    if key not in act:
        if default is None:
            raise MalformedAct(f"the {act['do']} act needs a whole number {key!r}")
        return default
    value = act[key]
    if type(value) is not int:
        raise MalformedAct(f"{key!r} of the {act['do']} act must be a whole number")
    if low is not None and value < low:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be at least {low}, not {value}")
    if high is not None and value > high:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be at most {high}, not {value}")
    return value


def _bool(act: Act, key: str, default: bool) -> bool:
    """Field ``key``: a bool (``default`` when absent). Raises MalformedAct for another type."""
    if key not in act:
        return default
    value = act[key]
    if type(value) is not bool:
        raise MalformedAct(f"{key!r} of the {act['do']} act must be true or false")
    return value


def _word[W: StrEnum](act: Act, key: str, choices: tuple[W, ...], default: W | None = None) -> W:
    """Field ``key``: one of ``choices`` (``default`` when absent). Raises MalformedAct when
    missing without a default, or not one of them."""
    if key not in act:
        if default is None:
            raise MalformedAct(f"the {act['do']} act needs {key!r}: one of {', '.join(choices)}")
        return default
    value = act[key]
    for choice in choices:
        if isinstance(value, str) and value == choice:
            return choice
    raise MalformedAct(f"{key!r} of the {act['do']} act must be one of {', '.join(choices)}")


def _seat(act: Act, key: str, default: int) -> int:
    """Field ``key``: a seat number (``default`` when absent). Raises MalformedAct for a value
    that is not an int; the caller checks that the seat can be named here."""
    value = act.get(key, default)
    if type(value) is not int:
        raise MalformedAct(f"{key!r} of the {act['do']} act must be a seat number")
    return value


_pos = act_position


def _positions(act: Act, key: str) -> tuple[Pos, ...]:
    """Field ``key``: a non-empty list of distinct positions, in the act's order. Raises
    MalformedAct otherwise."""
    raw = act.get(key)
    if not isinstance(raw, list) or not raw:
        raise MalformedAct(f"the {act['do']} act must list its {key} as [event, index] pairs")
    out = [_pos(item, "cards") for item in raw]
    if len(set(out)) != len(out):
        raise MalformedAct(f"the {act['do']} act names one of its cards twice")
    return tuple(out)


def _cause(act: Act) -> str:
    """Field ``cause``: a short phrase. Raises MalformedAct otherwise."""
    value = act.get("cause")
    if not isinstance(value, str) or not _CAUSE_RE.match(value):
        raise MalformedAct(f"the {act['do']} act needs a cause: a short phrase such as bleed, burn, cost, hunt or gain")
    return value


def _esc(text: str) -> str:
    """Escape text for a Note template."""
    return text.replace("{", "{{").replace("}", "}}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def act_name(act: Act) -> Do:
    """The name of an untrusted act. Raises MalformedAct for a non-map, an unknown ``"do"`` or a
    field the act does not take."""
    if not isinstance(act, dict):
        raise MalformedAct("an act is a map with a 'do' field")
    raw = act.get("do")
    do = _DO_BY_NAME.get(raw) if isinstance(raw, str) else None
    if do is None:
        known = ", ".join(sorted(_DO_BY_NAME))
        raise MalformedAct(f"there is no {raw!r} act at a VTES table (the acts are: {known})")
    extra = sorted(set(act) - ACT_FIELDS[do] - {"do"})
    if extra:
        raise MalformedAct(f"the {do} act has no {extra[0]!r} field")
    return do


def _read_field(do: Do, act: Act, key: str) -> None:
    """Check the type of field ``key`` (a field name means the same in every act). Raises
    MalformedAct."""
    match key:
        case "crypt" | "library" | "n" | "pool" | "blood" | "amount" | "delta":
            _int(act, key)
        case "controller" | "seat" | "target":
            _seat(act, key, -1)
        case "no_replace" | "lock":
            _bool(act, key, False)
        case "card":
            _pos(act[key], "card")
        case "on":
            _pos(act[key], "card it goes on")
        case "minion":
            _pos(act[key], "minion")
        case "cards" | "minions":
            _positions(act, key)
        case "cause":
            _cause(act)
        case "changes":
            raw = act[key]
            if (
                not isinstance(raw, list)
                or not raw
                or not all(isinstance(x, (list, tuple)) and len(x) == 2 and all(type(v) is int for v in x) for x in raw)
            ):
                raise MalformedAct("'changes' must list [seat, delta] pairs")
        case "to":
            _word(act, key, PLAY_TARGETS if do == Do.PLAY else MOVE_TARGETS)
        case "kind":
            _word(act, key, tuple(TransferKind))
        case "zone":
            _word(act, key, (DeckPart.LIBRARY, DeckPart.CRYPT))


_REQUIRED: dict[Do, tuple[str, ...]] = {
    Do.DECK: ("crypt", "library"),
    Do.PLAY: ("card",),
    Do.DISCARD: ("card",),
    Do.MOVE: ("cards", "to"),
    Do.BURN: ("cards",),
    Do.LOCK: ("cards",),
    Do.UNLOCK: ("cards",),
    Do.BLOOD: ("card", "delta", "cause"),
    Do.LIFE: ("card", "delta", "cause"),
    Do.POOL: ("cause",),
    Do.BLEED: ("minion", "amount"),
    Do.COMBAT: ("minions",),
    Do.INFLUENCE: ("card",),
    Do.TRANSFER: ("kind",),
    Do.HAND_SIZE: ("delta",),
    Do.SHUFFLE: ("zone",),
}
"""The fields an act cannot do without (the others of :data:`ACT_FIELDS` have defaults)."""


def check_act_shape(act: Act) -> Do:
    """Check everything about an untrusted act that no state could change: its name, its fields
    and their types, the fields it needs and the ones that go together. Returns its name; raises
    MalformedAct with a sentence. The rules (IllegalMove) are checked only after this."""
    do = act_name(act)
    for key in sorted(set(act) - {"do"}):
        _read_field(do, act, key)
    for key in _REQUIRED.get(do, ()):
        if key not in act:
            _read_missing(do, act, key)
    match do:
        case Do.PLAY | Do.MOVE:
            if act.get("to") == Target.ON and "on" not in act:
                raise MalformedAct("a card put on another card needs 'on': the [event, index] of that card")
            if "on" in act and act.get("to") != Target.ON:
                raise MalformedAct("'on' goes only with to='on'")
            if do == Do.PLAY and act.get("blood") and "minion" not in act:
                raise MalformedAct("a blood cost needs 'minion': the vampire that pays it")
        case Do.POOL:
            if "changes" in act and ("seat" in act or "delta" in act):
                raise MalformedAct("a pool act gives either 'seat' and 'delta' or 'changes', not both")
            if "changes" not in act and "delta" not in act:
                _read_missing(do, act, "delta")
        case Do.COMBAT:
            if len(act["minions"]) != 2:
                raise MalformedAct("combat is between two minions: list exactly two")
        case Do.TRANSFER:
            if act["kind"] == TransferKind.CRYPT:
                if "card" in act or "n" in act:
                    raise MalformedAct("a crypt transfer takes no 'card' and no 'n'")
            elif "card" not in act:
                _read_missing(do, act, "card")
        case _:
            pass
    return do


def _read_missing(do: Do, act: Act, key: str) -> None:
    """Raise the MalformedAct that reading the missing field ``key`` raises."""
    match key:
        case "to":
            _word(act, key, PLAY_TARGETS if do == Do.PLAY else MOVE_TARGETS)
        case "kind":
            _word(act, key, tuple(TransferKind))
        case "zone":
            _word(act, key, (DeckPart.LIBRARY, DeckPart.CRYPT))
        case "cause":
            _cause(act)
        case "cards" | "minions":
            _positions(act, key)
        case "card" | "minion":
            raise MalformedAct(f"the {do} act needs {key!r}: the [event, index] pair of that card")
        case _:
            _int(act, key)


def _validate_shape(state: VtesState, seat: int, act: Act) -> Do:
    """Check the act's shape (MalformedAct) and who may act now (IllegalMove); return its name."""
    do = check_act_shape(act)
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
        if state.players[seat].status != Status.IN:
            raise IllegalMove("you have left the game and may no longer act")
    return do


# --- the working copy an act or operation mutates ---------------------------------------------------


class _Work:
    """A mutable copy of a state for one act, operation or abandon; :meth:`freeze` returns the
    new state. Raising mid-way leaves the original state untouched.

    Every field of :class:`VtesState` is here under its name (the tuples of records as lists or,
    for ``cards``, a dict by position); ``author``/``do`` name the act (``do``: what an act
    reference in a note calls it).
    """

    def __init__(self, state: VtesState, author: int = -1, do: str = "") -> None:
        self.seats = state.seats
        self.options = state.options
        self.players: list[Methuselah] = list(state.players)
        self.step = state.step
        self.seating = state.seating
        self.cards: dict[Pos, CardState] = {c.pos: c for c in state.cards}
        self.events: list[DeckShuffle] = list(state.events)
        self.queue: list[Op] = list(state.queue)
        self.turn = state.turn
        self.acting = state.acting
        self.phase = state.phase
        self.edge = state.edge
        self.edge_used = state.edge_used
        self.transfers = state.transfers
        self.master_actions = state.master_actions
        self.discard_actions = state.discard_actions
        self.acts = state.acts
        self.time_calls = state.time_calls
        self.time_called = state.time_called
        self.outs: list[OutRecord] = list(state.outs)
        self.end = state.end
        self.last = state.last
        self.abandons = state.abandons
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
        return VtesState(
            seats=self.seats,
            options=self.options,
            players=tuple(self.players),
            step=self.step,
            seating=self.seating,
            cards=tuple(self.cards[p] for p in sorted(self.cards)) if self.reordered else tuple(self.cards.values()),
            events=tuple(self.events),
            queue=tuple(self.queue),
            turn=self.turn,
            acting=self.acting,
            phase=self.phase,
            edge=self.edge,
            edge_used=self.edge_used,
            transfers=self.transfers,
            master_actions=self.master_actions,
            discard_actions=self.discard_actions,
            acts=self.acts,
            time_calls=self.time_calls,
            time_called=self.time_called,
            outs=tuple(self.outs),
            end=self.end,
            last=self.last,
            abandons=self.abandons,
        )

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
        what = f"{self.do} ({_esc(cause)})" if cause and cause != self.do else self.do
        return f"act {self.acts}, {what}, recorded by {seat_ref(self.author)}"

    def hand(self, seat: int) -> list[Pos]:
        return [p for p, c in self.cards.items() if c.owner == seat and c.zone == Zone.HAND]

    def info(self, pos: Pos) -> CardInfo | None:
        ident = self.cards[pos].card or self.revealed.get(pos, "")
        return card_base().info(ident) if ident else None

    def name(self, pos: Pos) -> str:
        info = self.info(pos)
        if info is not None:
            return _esc(info.name)
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

    def refill(self, seat: int) -> None:
        """Draw up to ``seat``'s hand size (rules, "Hand size")."""
        missing = self.p(seat).hand_size - len(self.hand(seat))
        if missing > 0:
            self.draw(seat, missing)

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

    # -- leaving the game --

    def leave(self, seat: int, how: Status, predator: int, credited: bool) -> None:
        """``seat`` leaves the game (ousted, withdrawn or abandoned): rules, "Ousting"."""
        self.setp(seat, status=how, withdrawing=False)
        gone = [
            pos
            for pos, c in self.cards.items()
            if (c.zone.in_play and c.controller == seat) or (c.owner == seat and c.zone.hidden)
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
        self.outs.append(OutRecord(seat, how, self.acts, predator, credited))

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
        self.edge_used = False
        self.transfers = 0
        self.master_actions = 0
        self.discard_actions = 0
        for pos, c in self.cards.items():
            if c.controller == seat and c.zone.in_play and c.locked:
                self.cards[pos] = replace(c, locked=False)
        self.setp(seat, turns=self.p(seat).turns + 1, hand_at_start=len(self.hand(seat)))
        self.note(f"Turn {self.turn}: {seat_ref(seat)} unlocks (unlock phase)", seat)

    def end_by_time(self) -> None:
        """Time-out: each Methuselah still in the game gains 0.5 VP (rules, "Tournament rules")."""
        for s in self.in_game():
            self.setp(s, vp=self.p(s).vp + 1)
        self.note("Time: the game ends and every Methuselah still in it gains 0.5 VP")
        self.end_game(End.TIME)


# --- act handlers -----------------------------------------------------------------------------


def _must_act(w: _Work, what: str) -> None:
    if w.author != w.acting:
        raise IllegalMove(f"only the acting Methuselah ({seat_ref(w.acting)}) may {what}")


def _must_phase(w: _Work, phase: Phase, what: str) -> None:
    if w.phase != phase:
        raise IllegalMove(f"{what} happens in the {phase} phase, and this is the {w.phase} phase")


def _own_hand(w: _Work, pos: Pos) -> CardState:
    c = w.card(pos)
    if c.zone != Zone.HAND or c.owner != w.author:
        raise IllegalMove("that card is not in your hand")
    return c


def _in_play(w: _Work, pos: Pos) -> CardState:
    c = w.card(pos)
    if not c.zone.in_play:
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
        w.step = Step.SEATING
        w.new_ops.append(Draw("seating", tuple(range(w.seats, 1, -1))))


def _act_phase(w: _Work, act: Act) -> None:
    _must_act(w, "move to the next phase")
    _next_phase(w)


def _next_phase(w: _Work) -> None:
    if w.time_called:
        w.end_by_time()
        return
    i = PHASES.index(w.phase)
    if w.phase == Phase.INFLUENCE:
        w.transfers = 0
    if i + 1 < len(PHASES):
        w.phase = PHASES[i + 1]
        if w.phase == Phase.INFLUENCE:
            w.transfers = w.transfer_budget(w.acting)
            w.note(f"{seat_ref(w.acting)}: influence phase, {_plural(w.transfers, 'transfer')}", w.acting)
        else:
            w.note(f"{seat_ref(w.acting)}: {w.phase} phase", w.acting)
    else:
        w.begin_turn(w.prey(w.acting))


def _act_end_turn(w: _Work, act: Act) -> None:
    _must_act(w, "end the turn")
    turn = w.turn
    while w.step == Step.PLAY and w.turn == turn:
        _next_phase(w)


def _act_edge(w: _Work, act: Act) -> None:
    _must_act(w, "gain pool from the Edge")
    _must_phase(w, Phase.UNLOCK, "gaining pool from the Edge")
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


def _destination(
    w: _Work, act: Act, targets: tuple[Target, ...], default: Target | None
) -> tuple[Target, Pos | None, int | None]:
    """Fields ``to``, ``on`` and ``controller`` of a ``move`` or ``play``. Raises MalformedAct
    for a wrong shape, IllegalMove for a card or seat that cannot take the cards."""
    to = _word(act, "to", targets, default)
    on = None
    if to == Target.ON:
        if "on" not in act:
            raise MalformedAct("a card put on another card needs 'on': the [event, index] of that card")
        on = _pos(act["on"], "card it goes on")
        _in_play(w, on)
    elif "on" in act:
        raise MalformedAct("'on' goes only with to='on'")
    controller = None
    if "controller" in act:
        controller = act["controller"]
        if type(controller) is not int:
            raise MalformedAct("'controller' must be a seat number")
        if not 0 <= controller < w.seats:
            raise IllegalMove("'controller' must be a seat number")
        if w.p(controller).status != Status.IN:
            raise IllegalMove(f"{seat_ref(controller)} is out of the game and cannot control cards")
        if not to.zone.in_play:
            raise IllegalMove("only cards in play have a controller other than their owner")
    return to, on, controller


def _check_target_fits(w: _Work, pos: Pos, to: Target, on: Pos | None) -> None:
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


def _act_move(w: _Work, act: Act, burn: bool = False) -> None:
    cards = _positions(act, "cards")
    to: Target
    if burn:
        to, on, controller = Target.ASH, None, None
    else:
        to, on, controller = _destination(w, act, MOVE_TARGETS, None)
    hands = set()
    for pos in cards:
        w.card(pos)
        _check_target_fits(w, pos, to, on)
    for pos in cards:
        c = w.cards[pos]
        if c.zone == Zone.HAND:
            hands.add(c.owner)
        w.move(pos, to, controller, on)
    if not _bool(act, "no_replace", False):
        for seat in sorted(hands):
            if w.p(seat).status == Status.IN:
                w.refill(seat)


def _act_burn(w: _Work, act: Act) -> None:
    _act_move(w, act, burn=True)


def _act_play(w: _Work, act: Act) -> None:
    pos = _pos(act.get("card"), "card played")
    _own_hand(w, pos)
    to, on, controller = _destination(w, act, PLAY_TARGETS, Target.ASH)
    _check_target_fits(w, pos, to, on)
    pool = _int(act, "pool", default=0, low=0, high=100)
    blood = _int(act, "blood", default=0, low=0, high=100)
    minion = None
    if "minion" in act:
        minion = _pos(act["minion"], "minion")
        _in_play(w, minion)
    if blood and minion is None:
        raise MalformedAct("a blood cost needs 'minion': the vampire that pays it")
    if pool > w.p(w.author).pool:
        raise IllegalMove(f"you have only {w.p(w.author).pool} pool, the card costs {pool}")
    info = card_base().info(w.revealed.get(pos, w.cards[pos].card))
    w.move(pos, to, controller, on)
    if pool:
        w.pool_delta(w.author, -pool, "cost")
    if blood and minion is not None:
        w.counters_delta(minion, -blood, "cost")
    if info is not None and info.is_master and w.author == w.acting and w.phase == Phase.MASTER:
        w.master_actions += 1
    if not _bool(act, "no_replace", False):
        w.refill(w.author)


def _act_discard(w: _Work, act: Act) -> None:
    pos = _pos(act.get("card"), "card discarded")
    _own_hand(w, pos)
    w.move(pos, Target.ASH)
    if w.author == w.acting and w.phase == Phase.DISCARD:
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
    if not c.zone.in_play and c.zone != Zone.UNCONTROLLED:
        raise IllegalMove("counters go on cards in play or in an uncontrolled region")
    w.counters_delta(pos, delta, cause)


def _act_pool(w: _Work, act: Act) -> None:
    cause = _cause(act)
    changes: list[tuple[int, int]]
    if "changes" in act:
        if "seat" in act or "delta" in act:
            raise MalformedAct("a pool act gives either 'seat' and 'delta' or 'changes', not both")
        raw = act["changes"]
        if (
            not isinstance(raw, list)
            or not raw
            or not all(isinstance(x, (list, tuple)) and len(x) == 2 and all(type(v) is int for v in x) for x in raw)
        ):
            raise MalformedAct("'changes' must list [seat, delta] pairs")
        changes = [(x[0], x[1]) for x in raw]
    else:
        changes = [(_seat(act, "seat", w.author), _int(act, "delta"))]
    seen = set()
    for seat, delta in changes:
        if not 0 <= seat < w.seats:
            raise IllegalMove("'seat' must be a seat number")
        if seat in seen:
            raise IllegalMove(f"the pool act names {seat_ref(seat)} twice")
        seen.add(seat)
        if w.p(seat).status != Status.IN:
            raise IllegalMove(f"{seat_ref(seat)} is out of the game and has no pool")
        if delta == 0 or abs(delta) > _MAX_DELTA:
            raise IllegalMove(f"a pool change must not be 0 and at most {_MAX_DELTA}, not {delta}")
    for seat, delta in changes:
        w.pool_delta(seat, delta, cause)


def _act_bleed(w: _Work, act: Act) -> None:
    minion = _pos(act.get("minion"), "bleeding minion")
    c = w.card(minion)
    if c.zone != Zone.READY:
        raise IllegalMove(f"{w.name(minion)} is not in a ready region: only ready minions bleed")
    bleeder = c.controller
    target = _seat(act, "target", w.prey(bleeder))
    if not 0 <= target < w.seats:
        raise IllegalMove("'target' must be a seat number")
    if target == bleeder:
        raise IllegalMove("a minion cannot bleed its own controller")
    if w.p(target).status != Status.IN:
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
        raise MalformedAct("combat is between two minions: list exactly two")
    for pos in minions:
        c = w.card(pos)
        if c.zone not in (Zone.READY, Zone.TORPOR):
            raise IllegalMove(f"{w.name(pos)} is not a minion in play")
    for pos in minions:
        seat = w.cards[pos].controller
        w.fail_withdrawal(seat, f"one of {seat_ref(seat)}'s minions entered combat")


def _act_influence(w: _Work, act: Act) -> None:
    _must_act(w, "influence out vampires")
    _must_phase(w, Phase.INFLUENCE, "influencing out a vampire")
    pos = _pos(act.get("card"), "vampire")
    c = w.card(pos)
    if c.zone != Zone.UNCONTROLLED or c.owner != w.author:
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
    w.move(pos, Target.READY, w.author)


def _act_transfer(w: _Work, act: Act) -> None:
    _must_act(w, "make transfers")
    _must_phase(w, Phase.INFLUENCE, "a transfer")
    kind = _word(act, "kind", tuple(TransferKind))
    p = w.p(w.author)
    if kind == TransferKind.CRYPT:
        if "card" in act or "n" in act:
            raise MalformedAct("a crypt transfer takes no 'card' and no 'n'")
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
        w.move(p.crypt[0], Target.UNCONTROLLED)
        return
    pos = _pos(act.get("card"), "vampire")
    n = _int(act, "n", default=1, low=1, high=4)
    c = w.card(pos)
    if c.zone != Zone.UNCONTROLLED or c.owner != w.author:
        raise IllegalMove("transfers go to vampires in your uncontrolled region")
    cost = TRANSFER_COSTS[kind] * n
    if cost > w.transfers:
        what = _plural(n, "pool") if kind == TransferKind.POOL else _plural(n, "blood")
        raise IllegalMove(
            f"moving {what} {'to' if kind == TransferKind.POOL else 'from'} a vampire takes "
            f"{_plural(cost, 'transfer')}, and you have {_plural(w.transfers, 'transfer')} left"
        )
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


def _act_hand_size(w: _Work, act: Act) -> None:
    seat = _seat(act, "seat", w.author)
    if not 0 <= seat < w.seats or w.p(seat).status != Status.IN:
        raise IllegalMove("'seat' must be a Methuselah in the game")
    delta = _int(act, "delta", low=-30, high=30)
    new = w.p(seat).hand_size + delta
    if delta == 0 or not 0 <= new <= 30:
        raise IllegalMove(f"a hand size change must not be 0 and must leave it between 0 and 30, not {new}")
    w.setp(seat, hand_size=new)


def _act_shuffle(w: _Work, act: Act) -> None:
    zone = _word(act, "zone", (DeckPart.LIBRARY, DeckPart.CRYPT))
    seat = _seat(act, "seat", w.author)
    if not 0 <= seat < w.seats or w.p(seat).status != Status.IN:
        raise IllegalMove("'seat' must be a Methuselah in the game")
    positions = w.p(seat).library if zone == DeckPart.LIBRARY else w.p(seat).crypt
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
    _must_phase(w, Phase.MINION, "a minion action")
    if w.time_called:
        w.end_by_time()


def _act_withdraw(w: _Work, act: Act) -> None:
    _must_act(w, "announce withdrawal")
    _must_phase(w, Phase.UNLOCK, "announcing withdrawal")
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


_HANDLERS: dict[Do, Callable[[_Work, Act], None]] = {
    Do.DECK: _act_deck,
    Do.PHASE: _act_phase,
    Do.END_TURN: _act_end_turn,
    Do.EDGE: _act_edge,
    Do.DRAW: _act_draw,
    Do.PLAY: _act_play,
    Do.DISCARD: _act_discard,
    Do.MOVE: _act_move,
    Do.BURN: _act_burn,
    Do.LOCK: _act_lock,
    Do.UNLOCK: _act_unlock,
    Do.BLOOD: _act_counters,
    Do.LIFE: _act_counters,
    Do.POOL: _act_pool,
    Do.BLEED: _act_bleed,
    Do.COMBAT: _act_combat,
    Do.INFLUENCE: _act_influence,
    Do.TRANSFER: _act_transfer,
    Do.HAND_SIZE: _act_hand_size,
    Do.SHUFFLE: _act_shuffle,
    Do.ACTION_END: _act_action_end,
    Do.WITHDRAW: _act_withdraw,
    Do.TIME: _act_time,
}
"""The handler of each act: it checks and applies the act on the working copy."""


# --- the entry points the game object uses --------------------------------------------------------


def opens(state: VtesState, seat: int, act: Act) -> tuple[Pos, ...]:
    """The hidden positions ``act`` by ``seat`` opens to everyone with it: cards of its own that
    it has seen (hand, uncontrolled region) turning face up. Raises MalformedAct for an act of the
    wrong shape, IllegalMove when it plays a card the seat does not hold."""
    do = _validate_shape(state, seat, act)
    cards = {c.pos: c for c in state.cards}
    match do:
        case Do.PLAY | Do.DISCARD:
            pos = _pos(act.get("card"), "card")
            c = cards.get(pos)
            if c is None or c.zone != Zone.HAND or c.owner != seat:
                raise IllegalMove("that card is not in your hand")
            return () if c.card else (pos,)
        case Do.INFLUENCE:
            pos = _pos(act.get("card"), "vampire")
            c = cards.get(pos)
            if c is None or c.zone != Zone.UNCONTROLLED or c.owner != seat:
                raise IllegalMove("that vampire is not in your uncontrolled region")
            return () if c.card else (pos,)
        case Do.MOVE | Do.BURN:
            positions = _positions(act, "cards")
            # A wrong ``to`` is refused by the check; it opens nothing here.
            to = Target.ASH if do == Do.BURN else _target_or_ash(act.get("to"))
            return tuple(sorted(_opens_to_public(cards, seat, positions, to)))
        case _:
            return ()


def _target_or_ash(raw: object) -> Target:
    for target in MOVE_TARGETS:
        if isinstance(raw, str) and raw == target:
            return target
    return Target.ASH


def run_act(state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> tuple[VtesState, tuple[Note, ...]]:
    """Check and apply ``act`` by ``seat``; return the new state and the narration.

    Raises MalformedAct for an act of the wrong shape, IllegalMove with a sentence when the rules
    refuse it; the state is unchanged then.
    """
    do = _validate_shape(state, seat, act)
    expected = set(opens(state, seat, act))
    if set(revealed) != expected:
        raise IllegalMove("the act must open exactly the cards it turns face up")
    cards = {c.pos: c for c in state.cards}
    for pos, ident in revealed.items():
        info = card_base().info(ident)
        if info is not None and (info.kind == DeckPart.CRYPT) != cards[pos].crypt:
            raise IllegalMove(f"{_esc(info.name)} cannot be at that position: it is from the other deck")
    w = _Work(state, seat, do)
    w.revealed = revealed
    w.acts += 1
    predators = {s: w.predator(s) for s in w.in_game()}
    _HANDLERS[do](w, act)
    w.settle_ousts(predators)
    return w.freeze(), tuple(w.notes)


def resolve_op(state: VtesState, op: Op, outcome: object) -> tuple[VtesState, tuple[Note, ...]]:
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
            for pos, ident in zip(op.positions, outcome, strict=True):
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
    if w.step == Step.DEALING and not w.queue:
        w.step = Step.PLAY
        order = ", ".join(seat_ref(s) for s in w.seating)
        w.note(f"Seating, clockwise: {order}. {seat_ref(w.seating[0])} takes the first turn", *w.seating)
        w.begin_turn(w.seating[0])
    return w.freeze(), tuple(w.notes)


def _resolve_seating(w: _Work, op: Draw, outcome: object) -> None:
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


def _resolve_shuffle(w: _Work, op: Shuffle, outcome: object) -> None:
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
    it will not reveal its seeds. Raises GameError for a seat that is not in the game."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise GameError(f"there is no seat {seat} at this table")
    if state.players[seat].status != Status.IN or state.step == Step.OVER:
        raise GameError(f"{seat_ref(seat)} is not in the game")
    w = _Work(state, seat, "abandon")
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
    w.settle()
    if w.step == Step.PLAY:
        _reshuffle_without(w, seat)
    return w.freeze(), tuple(w.notes)


def _reshuffle_without(w: _Work, gone: int) -> None:
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
