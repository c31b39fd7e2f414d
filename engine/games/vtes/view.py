"""What one seat may know of a VTES table, and the acts it may offer (DESIGN.md, "Games behind one
interface": one view type shared by bots and the TUI).

A view holds the public state (pool, VP, the Edge, turns, every card in play, ash heaps, removed
cards, counters on face-down vampires) plus, for its own seat only, the identities of its hand,
its uncontrolled region and any of its own positions opened to it. Another seat's hidden cards
appear only as counts (hand, library, crypt) or as face-down positions (uncontrolled region),
never with their identities.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from engine.games.base import Act, Pos
from engine.games.vtes.cards import card_base
from engine.games.vtes.state import CardState, VtesState
from engine.games.vtes.vocab import Do, End, Phase, Ruleset, Status, Step, TransferKind, Zone


@dataclass(frozen=True)
class CardView:
    """One card as a seat sees it.

    ``card``: its identity (``"<krcg id>-<copy>"``) when this seat may know it, else "";
    ``name``, ``capacity`` (0 unless a known vampire), ``types`` and ``text`` from the card
    database when known; ``crypt``: from a crypt (a vampire: counters are blood).
    """

    pos: Pos
    owner: int
    controller: int
    zone: Zone
    crypt: bool
    card: str = ""
    name: str = ""
    capacity: int = 0
    types: tuple[str, ...] = ()
    text: str = ""
    locked: bool = False
    counters: int = 0
    on: Pos | tuple[()] = ()

    @property
    def known(self) -> bool:
        """True when this seat knows the card's identity."""
        return bool(self.card)

    def as_list(self) -> list[int]:
        """The position as acts write it: ``[event, index]``."""
        return [self.pos[0], self.pos[1]]


@dataclass(frozen=True)
class PlayerView:
    """One Methuselah as everyone sees it: counts of its hidden zones, never their contents."""

    seat: int
    pool: int
    vp: int
    status: Status
    declared: bool
    crypt_size: int
    library_size: int
    hand_count: int
    library_count: int
    crypt_count: int
    hand_size: int
    prey: int
    predator: int
    turns: int
    hand_at_start: int
    withdrawing: bool
    withdraw_fail: str
    library: tuple[Pos, ...]
    crypt: tuple[Pos, ...]


@dataclass(frozen=True)
class VtesView:
    """A seat's view of the table (``seat`` None: a spectator).

    ``cards``: every card that is not in a hand, a library or a crypt (in play, ash heaps,
    removed, uncontrolled regions: other seats' uncontrolled cards face down); ``hand``: this
    seat's hand; ``known_positions``: its other own hidden positions it knows (e.g. a library card
    it put back). ``transfers``: transfers left to the acting Methuselah in its influence phase.
    """

    seat: int | None
    seats: int
    step: Step
    ruleset: Ruleset
    library_size_rule: bool
    seating: tuple[int, ...]
    turn: int
    acting: int
    phase: Phase
    edge: int
    edge_used: bool
    transfers: int
    master_actions: int
    discard_actions: int
    time_calls: tuple[int, ...]
    time_called: bool
    players: tuple[PlayerView, ...]
    cards: tuple[CardView, ...]
    hand: tuple[CardView, ...]
    known_positions: tuple[CardView, ...]
    end: End

    @property
    def me(self) -> PlayerView | None:
        """This seat's Methuselah (None for a spectator)."""
        return None if self.seat is None else self.players[self.seat]

    def controlled(self, seat: int, zone: Zone = Zone.READY) -> tuple[CardView, ...]:
        """Cards ``seat`` controls in ``zone``."""
        return tuple(c for c in self.cards if c.controller == seat and c.zone == zone)

    def uncontrolled(self, seat: int) -> tuple[CardView, ...]:
        """``seat``'s uncontrolled region (face down unless this is that seat's view)."""
        return tuple(c for c in self.cards if c.owner == seat and c.zone == Zone.UNCONTROLLED)


_PILES = frozenset({Zone.LIBRARY, Zone.CRYPT})


@functools.lru_cache(maxsize=16384)
def _card_view(c: CardState, ident: str) -> CardView:
    # A pure function of two immutable values: memoised, since views are rebuilt after every act.
    info = card_base().info(ident) if ident else None
    return CardView(
        pos=c.pos,
        owner=c.owner,
        controller=c.controller,
        zone=c.zone,
        crypt=c.crypt,
        card=ident,
        name=info.name if info else "",
        capacity=info.capacity if info else 0,
        types=info.types if info else (),
        text=info.text if info else "",
        locked=c.locked,
        counters=c.counters,
        on=c.on,
    )


def build_view(state: VtesState, seat: int | None, known: Mapping[Pos, str]) -> VtesView:
    """The view of ``seat`` (None: spectator). ``known``: identities opened to that seat; only
    those of its own cards, and public ones, are used."""
    hands = [0] * state.seats
    cards: list[CardView] = []
    hand: list[CardView] = []
    known_positions: list[CardView] = []
    # Locals: this loop runs over every card for every view, after every act.
    in_hand, in_pile, uncontrolled = Zone.HAND, _PILES, Zone.UNCONTROLLED
    for c in state.cards:
        ident = c.card
        if not ident and seat is not None and c.owner == seat:
            ident = known.get(c.pos, "")
        zone = c.zone
        if zone == in_hand:
            hands[c.owner] += 1
            if c.owner == seat:
                hand.append(_card_view(c, ident))
        elif zone in in_pile:
            if c.owner == seat and ident:
                known_positions.append(_card_view(c, ident))
        else:
            if zone == uncontrolled and c.owner != seat:
                ident = c.card  # face down to everyone but its owner
            cards.append(_card_view(c, ident))
    players = tuple(
        PlayerView(
            seat=p.seat,
            pool=p.pool,
            vp=p.vp,
            status=p.status,
            declared=p.declared,
            crypt_size=p.crypt_size,
            library_size=p.library_size,
            hand_count=hands[p.seat],
            library_count=len(p.library),
            crypt_count=len(p.crypt),
            hand_size=p.hand_size,
            prey=state.prey(p.seat) if p.status == Status.IN else -1,
            predator=state.predator(p.seat) if p.status == Status.IN else -1,
            turns=p.turns,
            hand_at_start=p.hand_at_start,
            withdrawing=p.withdrawing,
            withdraw_fail=p.withdraw_fail,
            library=p.library,
            crypt=p.crypt,
        )
        for p in state.players
    )
    return VtesView(
        seat=seat,
        seats=state.seats,
        step=state.step,
        ruleset=state.ruleset,
        library_size_rule=state.library_size_rule,
        seating=state.seating,
        turn=state.turn,
        acting=state.acting,
        phase=state.phase,
        edge=state.edge,
        edge_used=state.edge_used,
        transfers=state.transfers,
        master_actions=state.master_actions,
        discard_actions=state.discard_actions,
        time_calls=state.time_calls,
        time_called=state.time_called,
        players=players,
        cards=tuple(cards),
        hand=tuple(hand),
        known_positions=tuple(known_positions),
        end=state.end,
    )


def legal_acts(view: VtesView) -> list[Act]:
    """The structural acts the view's seat may make now, for bots and the TUI.

    In the joining step: ``{"do": "deck", "crypt": 12, "library": 60}`` as the shape of the one
    act (the seat fills in its own deck sizes). In play, for the acting Methuselah: moving on
    (``phase``, ``end_turn``), the Edge, withdrawal, bleeding its prey for 1 with each ready
    unlocked vampire, ending a minion action, every transfer it can afford (one at a time),
    influencing out every vampire at capacity, discarding and playing each hand card; for every
    Methuselah in the game: calling time (tournament). Free-form acts (moves, counters, pool,
    combat, locks, draws) are legal too and ``check`` accepts them, but are not listed: they
    depend on card texts the engine does not read.
    """
    seat = view.seat
    if seat is None:
        return []
    me = view.players[seat]
    if view.step == Step.JOINING:
        return [] if me.declared else [{"do": Do.DECK, "crypt": 12, "library": 60}]
    if view.step != Step.PLAY or me.status != Status.IN:
        return []
    acts: list[Act] = []
    if view.ruleset == Ruleset.TOURNAMENT and not view.time_called and seat not in view.time_calls:
        acts.append({"do": Do.TIME})
    if view.acting != seat:
        return acts
    acts.append({"do": Do.PHASE})
    acts.append({"do": Do.END_TURN})
    match view.phase:
        case Phase.UNLOCK:
            if view.edge == seat and not view.edge_used:
                acts.append({"do": Do.EDGE})
            if not me.withdrawing and me.library_count == 0 and me.hand_at_start < me.hand_size:
                acts.append({"do": Do.WITHDRAW})
        case Phase.MINION:
            for c in view.controlled(seat):
                if c.crypt and not c.locked and me.prey >= 0:
                    acts.append({"do": Do.BLEED, "minion": c.as_list(), "target": me.prey, "amount": 1})
            acts.append({"do": Do.ACTION_END})
        case Phase.INFLUENCE:
            for c in view.uncontrolled(seat):
                if view.transfers >= 1 and me.pool >= 1:
                    acts.append({"do": Do.TRANSFER, "kind": TransferKind.POOL, "card": c.as_list(), "n": 1})
                if view.transfers >= 2 and c.counters >= 1:
                    acts.append({"do": Do.TRANSFER, "kind": TransferKind.BLOOD, "card": c.as_list(), "n": 1})
                if c.capacity and c.counters >= c.capacity:
                    acts.append({"do": Do.INFLUENCE, "card": c.as_list()})
            if view.transfers >= 4 and me.pool >= 1 and me.crypt_count:
                acts.append({"do": Do.TRANSFER, "kind": TransferKind.CRYPT})
        case Phase.DISCARD:
            for c in view.hand:
                acts.append({"do": Do.DISCARD, "card": c.as_list()})
        case _:
            pass
    if view.phase != Phase.DISCARD:
        for c in view.hand:
            acts.append({"do": Do.PLAY, "card": c.as_list()})
    return acts
