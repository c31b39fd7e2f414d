"""What one seat may know of a VTES table (DESIGN.md, "Games behind one interface": one view type
shared by bots and the TUI; what the seat may do is :mod:`engine.games.vtes.offers`).

A view holds the public state (pool, VP, the Edge, turns, every card in play, ash heaps, removed
cards, counters on face-down vampires) plus, for its own seat only, the identities of its hand,
its uncontrolled region and any of its own positions opened to it. Another seat's hidden cards
appear only as counts (hand, library, crypt) or as face-down positions (uncontrolled region),
never with their identities.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.games.base import Pos
from engine.games.vtes.actions import DEFAULT_COST, blockers
from engine.games.vtes.cards import card_base
from engine.games.vtes.contests import dues, has_title
from engine.games.vtes.standing import standing
from engine.games.vtes.state import (
    NO_CONTESTS,
    Action,
    CardState,
    Claim,
    Combat,
    Contests,
    Done,
    Limited,
    OpenWindow,
    Referendum,
    UnderWay,
    VtesState,
)
from engine.games.vtes.vocab import (
    ActionKind,
    End,
    Phase,
    Ruleset,
    Status,
    Step,
    Window,
    Zone,
)


@dataclass(frozen=True)
class CardView:
    """One card as a seat sees it.

    ``card``: its identity (``"<krcg id>-<copy>"``) when this seat may know it, else "";
    ``name``, ``capacity`` (0 unless a known vampire), ``types`` and ``text`` from the card
    database when known; ``crypt``: from a crypt (a vampire: counters are blood); ``disciplines``:
    a known vampire's krcg Discipline levels and ``capacity`` as it stands in play, raised by the
    cards on it (:mod:`engine.games.vtes.standing`; None: as printed).
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
    disciplines: tuple[str, ...] | None = None

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
class VtesView(UnderWay):
    """A seat's view of the table (``seat`` None: a spectator).

    ``contests``: the contests under way beyond the cards' zones (a contested card is in zone
    ``contested``). ``windows``: the open windows of play, outer to inner (``innermost``: the one whose impulse
    the table waits for); ``action``, ``combat``, ``referendum``: the open one of each kind.

    ``cards``: every card that is not in a hand, a library or a crypt (in play, ash heaps,
    removed, uncontrolled regions: other seats' uncontrolled cards face down); ``hand``: this
    seat's hand; ``known_positions``: its other own hidden positions it knows (e.g. a library card
    it put back). ``transfers``: transfers left to the acting Methuselah in its influence phase.
    ``limited``: the cards played whose printed limit still lasts (public).
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
    used: tuple[Pos, ...]
    master_actions: int
    discard_actions: int
    time_calls: tuple[int, ...]
    time_called: bool
    players: tuple[PlayerView, ...]
    cards: tuple[CardView, ...]
    hand: tuple[CardView, ...]
    known_positions: tuple[CardView, ...]
    end: End
    action: Action | None = None
    done: tuple[Done, ...] = ()
    recruited: tuple[Pos, ...] = ()
    claims: tuple[Claim, ...] = ()
    acts: int = 0
    combat: Combat | None = None
    referendum: Referendum | None = None
    windows: tuple[OpenWindow, ...] = ()
    contests: Contests = NO_CONTESTS
    limited: tuple[Limited, ...] = ()

    @property
    def me(self) -> PlayerView | None:
        """This seat's Methuselah (None for a spectator)."""
        return None if self.seat is None else self.players[self.seat]

    def controlled(self, seat: int, zone: Zone = Zone.READY) -> tuple[CardView, ...]:
        """Cards ``seat`` controls in ``zone``."""
        return tuple(c for c in self.cards if c.controller == seat and c.zone == zone)

    def contested(self, pos: Pos) -> bool:
        """The card at ``pos`` is contested: face down and out of play (rulebook, "Contested Cards")."""
        card = self.card(pos)
        return card is not None and card.zone == Zone.CONTESTED

    def title_contested(self, pos: Pos) -> bool:
        """The vampire at ``pos`` has no benefit of its printed title: the title is contested or was
        yielded (rulebook, "Contested Titles")."""
        return not has_title(self.contests, pos)

    def contests_due(self, seat: int) -> tuple[Pos, ...]:
        """``seat``'s contests whose cost is still to be paid or yielded in its unlock phase, in
        position order (:func:`engine.games.vtes.contests.dues`); () outside it."""
        if self.acting != seat or self.phase != Phase.UNLOCK:
            return ()
        return dues(self.cards, self.contests, seat)

    def in_game(self) -> tuple[int, ...]:
        """Seats still in the game, in seating order."""
        return tuple(s for s in self.seating if self.players[s].status == Status.IN)

    def impulse_order(self) -> tuple[int, ...]:
        """The open action's impulse order (shared/rules/vtes-actions.md 5.1), or ()."""
        return self.action.loop.order if self.action is not None else ()

    def blockers(self) -> tuple[int, ...]:
        """The Methuselahs entitled to block the open action (4.2), or ()."""
        return blockers(self.action, self.in_game()) if self.action is not None else ()

    def may_still_block(self) -> tuple[int, ...]:
        """The Methuselahs who may still attempt to block the open action: in window A, entitled
        (4.2), not declined, with a minion that may try (:meth:`may_try`); () in any other window
        (a block attempted, or declined by all: no block can come)."""
        a = self.action
        if a is None or a.window != Window.NO_ATTEMPT:
            return ()
        return tuple(s for s in self.blockers() if s not in a.declined and self.may_try(s))

    def may_block(self, seat: int) -> bool:
        """``seat`` may attempt a block now: window A, entitled, not declined, on its impulse,
        with a ready unlocked minion (:meth:`may_try`)."""
        a = self.action
        return (
            a is not None
            and a.window == Window.NO_ATTEMPT
            and a.impulse == seat
            and seat in self.blockers()
            and seat not in a.declined
            and bool(self.may_try(seat))
        )

    def may_try(self, seat: int) -> tuple[CardView, ...]:
        """``seat``'s ready unlocked minions and those a card woke, which may attempt to block the
        open action: one whose attempt failed may try again (rulebook, "Who May Attempt to Block":
        "If one attempt to block fails, another can be made as often as the blocking Methuselah
        wishes"), but not one a card barred from this action (``Action.barred``, a vampire while
        ``Action.vampires_barred``)."""
        woken = self.action.woken if self.action is not None else ()
        barred = self.action.barred if self.action is not None else ()
        vampires = self.action is None or not self.action.vampires_barred
        return tuple(
            c
            for c in self.controlled(seat)
            if (not c.locked or c.pos in woken)
            and ((c.crypt and vampires) or "Ally" in c.types)
            and c.pos not in barred
        )

    def untried(self, seat: int) -> tuple[CardView, ...]:
        """``seat``'s minions that may attempt to block (:meth:`may_try`) whose attempt on the open
        action has not failed: a second attempt by one that failed, with nothing changed, would fail
        again."""
        tried = self.action.tried if self.action is not None else ()
        return tuple(c for c in self.may_try(seat) if c.pos not in tried)

    def ready_unlocked(self, seat: int) -> tuple[CardView, ...]:
        """``seat``'s ready unlocked minions (vampires and allies)."""
        return tuple(c for c in self.controlled(seat) if not c.locked and (c.crypt or "Ally" in c.types))

    def card(self, pos: Pos) -> CardView | None:
        """The card at ``pos`` among the cards this view shows (in play, ash heaps, hand…), or None."""
        for c in self.cards + self.hand:
            if c.pos == pos:
                return c
        return None

    @staticmethod
    def basic_cost(kind: ActionKind) -> int:
        """Blood a basic action of ``kind`` costs its vampire when no card names another cost
        (:data:`engine.games.vtes.actions.DEFAULT_COST`, rulebook "3. Minion Phase": leave torpor
        and rescue 2, the others 0), as the engine's check of the announcement reads it."""
        return DEFAULT_COST.get(kind, 0)

    def can_pay(self, minion: CardView, kind: ActionKind) -> bool:
        """``minion`` holds the blood a basic action of ``kind`` costs (:meth:`basic_cost`): the
        engine refuses the announcement otherwise."""
        return minion.counters >= self.basic_cost(kind)

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
        disciplines=info.disciplines if info else None,
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
    cards = raised_view(cards)
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
        used=state.used,
        master_actions=state.master_actions,
        discard_actions=state.discard_actions,
        time_calls=state.time_calls,
        time_called=state.time_called,
        players=players,
        cards=tuple(cards),
        hand=tuple(hand),
        known_positions=tuple(known_positions),
        end=state.end,
        action=state.open_action,
        done=state.done,
        recruited=state.recruited,
        claims=state.claims,
        acts=state.acts,
        combat=state.open_combat,
        referendum=state.open_referendum,
        windows=state.windows,
        contests=state.contests,
        limited=state.limited,
    )


def raised_view(cards: list[CardView]) -> list[CardView]:
    """``cards`` with each known vampire in play as it stands: its Disciplines and capacity raised
    by the cards on it (:func:`engine.games.vtes.standing.standing`)."""
    on: dict[Pos, list[str]] = {}
    for c in cards:
        if c.zone == Zone.ON and c.on and c.card:
            on.setdefault(c.on, []).append(c.card)
    if not on:
        return cards
    out = []
    for c in cards:
        info = card_base().info(c.card) if c.pos in on and c.crypt and c.card and c.zone.in_play else None
        if info is not None:
            now = standing(info, on[c.pos])
            c = replace(c, disciplines=now.disciplines, capacity=now.capacity)
        out.append(c)
    return out
