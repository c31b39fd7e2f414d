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
import re
from collections.abc import Mapping
from dataclasses import dataclass

from engine.games.base import Act, Pos
from engine.games.vtes.actions import ACTION_TYPES, MODIFIER, REACTION, blockers, impulse_order
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.combat import due
from engine.games.vtes.politics import BLOOD_HUNT_BARS, title_votes
from engine.games.vtes.readings import combat_steps
from engine.games.vtes.state import Action, CardState, Claim, Combat, Done, Referendum, VtesState
from engine.games.vtes.vocab import (
    ActionKind,
    CombatStep,
    Do,
    End,
    Phase,
    Poll,
    Ruleset,
    Status,
    Step,
    TransferKind,
    VoteSource,
    Window,
    Zone,
)


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
    action: Action | None = None
    done: tuple[Done, ...] = ()
    recruited: tuple[Pos, ...] = ()
    claims: tuple[Claim, ...] = ()
    acts: int = 0
    combat: Combat | None = None
    referendum: Referendum | None = None

    @property
    def me(self) -> PlayerView | None:
        """This seat's Methuselah (None for a spectator)."""
        return None if self.seat is None else self.players[self.seat]

    def controlled(self, seat: int, zone: Zone = Zone.READY) -> tuple[CardView, ...]:
        """Cards ``seat`` controls in ``zone``."""
        return tuple(c for c in self.cards if c.controller == seat and c.zone == zone)

    def contested(self, pos: Pos) -> bool:
        """The vampire at ``pos`` is in play while another Methuselah controls the same vampire in
        play (another group or advanced version counts): contested (vtes.md "Contested cards")."""
        card = self.card(pos)
        info = card_base().info(card.card) if card is not None and card.card and card.crypt else None
        if card is None or info is None or not info.character or not card.zone.in_play:
            return False
        for other in self.cards:
            if other.pos == pos or not other.crypt or not other.card or not other.zone.in_play:
                continue
            theirs = card_base().info(other.card)
            if other.controller != card.controller and theirs is not None and theirs.character == info.character:
                return True
        return False

    def in_game(self) -> tuple[int, ...]:
        """Seats still in the game, in seating order."""
        return tuple(s for s in self.seating if self.players[s].status == Status.IN)

    def impulse_order(self) -> tuple[int, ...]:
        """The open action's impulse order (shared/rules/vtes-actions.md 5.1), or ()."""
        return impulse_order(self.action, self.in_game()) if self.action is not None else ()

    def blockers(self) -> tuple[int, ...]:
        """The Methuselahs entitled to block the open action (4.2), or ()."""
        return blockers(self.action, self.in_game()) if self.action is not None else ()

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
        """``seat``'s ready unlocked minions, which may attempt to block the open action: one whose
        attempt failed may try again (rulebook, "Who May Attempt to Block": "If one attempt to
        block fails, another can be made as often as the blocking Methuselah wishes")."""
        return self.ready_unlocked(seat)

    def untried(self, seat: int) -> tuple[CardView, ...]:
        """``seat``'s ready unlocked minions whose block attempt on the open action has not failed:
        a second attempt by one that failed, with nothing changed, would fail again."""
        tried = self.action.tried if self.action is not None else ()
        return tuple(c for c in self.ready_unlocked(seat) if c.pos not in tried)

    def ready_unlocked(self, seat: int) -> tuple[CardView, ...]:
        """``seat``'s ready unlocked minions (vampires and allies)."""
        return tuple(c for c in self.controlled(seat) if not c.locked and (c.crypt or "Ally" in c.types))

    def card(self, pos: Pos) -> CardView | None:
        """The card at ``pos`` among the cards this view shows (in play, ash heaps, hand…), or None."""
        for c in self.cards + self.hand:
            if c.pos == pos:
                return c
        return None

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
        action=state.open_action,
        done=state.done,
        recruited=state.recruited,
        claims=state.claims,
        acts=state.acts,
        combat=state.open_combat,
        referendum=state.open_referendum,
    )


def legal_acts(view: VtesView) -> list[Act]:
    """The structural acts the view's seat may make now, for bots and the TUI.

    In the joining step: ``{"do": "deck", "crypt": 12, "library": 60}`` as the shape of the one
    act (the seat fills in its own deck sizes). In an open action (shared/rules/vtes-actions.md),
    for the holder of the impulse: ``pass``, a ``block`` with each ready unlocked minion when it
    may block, and each hand card it could play in this window (action modifiers for the acting
    Methuselah, reactions for the others). Otherwise, for the acting Methuselah: moving on
    (``phase``, ``end_turn``; not while a vampire must hunt in the minion phase), the Edge,
    withdrawal, in the minion phase an ``action`` for each ready unlocked minion (a bleed of the
    prey for 1 unless it bled this turn, a hunt for each vampire; only the mandatory hunts while
    one is due), every transfer it can afford, influencing out every vampire at capacity,
    discarding, and playing each hand card that is not played during an action. For every
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
    if view.referendum is not None:
        return acts + referendum_acts(view, seat)
    if view.combat is not None:
        return acts + combat_acts(view, seat)
    action = view.action
    if action is not None and action.window == Window.DIABLERIE:
        if action.impulse == seat:
            acts += [{"do": Do.DIABLERISE}, {"do": Do.PASS}]
        return acts
    if action is not None:
        if action.impulse != seat:
            return acts
        acts.append({"do": Do.PASS})
        if view.may_block(seat):
            for c in view.may_try(seat):
                acts.append({"do": Do.BLOCK, "minion": c.as_list()})
        for c in window_cards(view):
            acts.append({"do": Do.PLAY, "card": c.as_list()})
        return acts
    if view.acting != seat:
        return acts
    due = hunts_due(view, seat)
    if not (view.phase == Phase.MINION and due):
        acts.append({"do": Do.PHASE})
    if not (view.phase in (Phase.UNLOCK, Phase.MASTER, Phase.MINION) and due):
        # Ending the turn before the minion phase ends would skip a hunt that is due (rules.py).
        acts.append({"do": Do.END_TURN})
    match view.phase:
        case Phase.UNLOCK:
            if view.edge == seat and not view.edge_used:
                acts.append({"do": Do.EDGE})
            if not me.withdrawing and me.library_count == 0 and me.hand_at_start < me.hand_size:
                acts.append({"do": Do.WITHDRAW})
        case Phase.MINION:
            for c in view.ready_unlocked(seat):
                if due and c.pos not in due:
                    continue
                if c.pos in view.recruited:
                    continue
                bled = any(d.minion == c.pos and d.kind == ActionKind.BLEED for d in view.done)
                if not due and not bled and me.prey >= 0:
                    acts.append(
                        {
                            "do": Do.ACTION,
                            "kind": ActionKind.BLEED,
                            "minion": c.as_list(),
                            "target": me.prey,
                            "amount": 1,
                        }
                    )
                if c.crypt:
                    acts.append({"do": Do.ACTION, "kind": ActionKind.HUNT, "minion": c.as_list()})
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
        case Phase.DISCARD if view.discard_actions == 0:  # one discard phase action (rules.py)
            for c in view.hand:
                acts.append({"do": Do.DISCARD, "card": c.as_list()})
        case _:
            pass
    if view.phase != Phase.DISCARD:
        for c in view.hand:
            types = set(c.types)
            if types and (types <= {MODIFIER, REACTION} or (types & ACTION_TYPES and not types & {MODIFIER, REACTION})):
                continue  # played during an action, or announced as one
            if view.phase == Phase.MASTER and view.master_actions and "Master" in types:
                continue  # one master phase action (rules.py)
            acts.append({"do": Do.PLAY, "card": c.as_list()})
    return acts


def hunts_due(view: VtesView, seat: int) -> tuple[Pos, ...]:
    """``seat``'s ready unlocked vampires with no blood: each must hunt (vtes-actions.md 2.2)."""
    return tuple(c.pos for c in view.controlled(seat) if c.crypt and not c.locked and c.counters == 0)


def window_cards(view: VtesView) -> tuple[CardView, ...]:
    """The hand cards the view's seat could play in the open action's window now: action modifiers
    when its minion acts, reactions (with a ready unlocked minion) when another's does
    (vtes-actions.md §2). Empty when no action is open or the seat holds no impulse."""
    a, seat = view.action, view.seat
    if a is None or seat is None or a.impulse != seat:
        return ()
    # A minion plays a given modifier or reaction card once per action (2.1): leave out a card
    # every minion that could play it has already played.
    if seat == a.actor:
        return tuple(c for c in view.hand if MODIFIER in c.types and (a.minion, card_id(c.card)) not in a.played)
    ready = view.ready_unlocked(seat)
    return tuple(
        c
        for c in view.hand
        if REACTION in c.types
        and reaction_fits(c.text, a, view, seat)
        and any((m.pos, card_id(c.card)) not in a.played for m in ready)
    )


_LEVEL_PREFIX = re.compile(r"^(?:\[[a-z]{3}\]\s*)+")
_INTERCEPT_ONLY = re.compile(r"^\+\d+ intercept\.?$")


def reaction_fits(text: str, a: Action, view: VtesView, seat: int) -> bool:
    """Whether a reaction card could be played in ``a`` by ``seat``, read from its "Only usable …"
    sentences for what a window decides (a bleed at you, an action directed at you, a referendum,
    a block by your minion, a locked minion waking to block) and from an effect that is only "+N
    intercept" (for a Methuselah who may block); per Discipline level, the card fits when one
    level does. True when the text names no such condition. The engine applies no card text:
    this only spares a player a stop where the card cannot be played."""

    def mine(pos: Pos | tuple[()]) -> bool:
        card = view.card(pos) if pos else None
        return card is not None and card.controller == seat

    bleed = a.kind == ActionKind.BLEED
    blocking = (seat in view.blockers() and seat not in a.declined) or mine(a.blocker)
    locked = any(c.locked for c in view.controlled(seat) if c.crypt or "Ally" in c.types)
    conditions = (
        (("during a referendum", "during the polling step"), False),
        (
            ("is bleeding you", "bleeds you", "bleed action directed at you", "bleed against you"),
            bleed and seat in a.targets,
        ),
        (("during a bleed action",), bleed),
        (
            ("during an action directed at you", "directed at a minion or location you control"),
            seat in a.targets or mine(a.target_card),
        ),
        (
            ("if this vampire blocks", "by a blocking vampire", "who has blocked", "if this baali blocks"),
            mine(a.blocker),
        ),
        (("by a locked vampire", "by a locked minion"), blocking and locked),
        (("attempts to block", "attempt to block", "about to enter combat"), blocking),
        (("would be burned", "is being burned", "being diablerized", "attempts to commit diablerie"), False),
    )
    lines = [" ".join(line.lower().split()) for line in text.splitlines() if line.strip()]
    general = [line for line in lines if not _LEVEL_PREFIX.match(line)]
    levels = [line for line in lines if _LEVEL_PREFIX.match(line)]

    def level_fits(line: str) -> bool:
        said = " ".join([*general, line])
        if not all(fits or not any(p in said for p in phrases) for phrases, fits in conditions):
            return False
        effect = _LEVEL_PREFIX.sub("", line) if line else " ".join(general)
        return blocking or not _INTERCEPT_ONLY.match(effect)

    return any(level_fits(line) for line in levels or [""])


def combat_acts(view: VtesView, seat: int) -> list[Act]:
    """What ``seat`` may do in the combat under way (vtes-actions.md 5, P5): the hand strike for
    its combatant when its strike is due; else, on its impulse, pass, and in the range step a
    maneuver, in the press step a press, for its combatant (cards may allow them)."""
    c = view.combat
    if c is None or c.impulse != seat:
        return []
    if c.step == CombatStep.STRIKE:
        waiting = due(c)
        return [{"do": Do.STRIKE, "minion": list(waiting[0])}] if waiting else []
    acts: list[Act] = [{"do": Do.PASS}]
    mine = [m for m in (c.acting, c.opposing) if (card := view.card(m)) is not None and card.controller == seat]
    for m in mine:
        if c.step == CombatStep.RANGE and c.maneuvered != m:
            acts.append({"do": Do.MANEUVER, "minion": list(m)})
        if c.step == CombatStep.PRESS and c.pressed != m:
            acts.append({"do": Do.PRESS, "minion": list(m)})
    return acts


def vote_sources(view: VtesView, seat: int) -> list[Act]:
    """The votes ``seat`` could cast now, one act per source, all "for" (7.2): the calling card,
    each ready titled vampire with its printed title's votes (a priscus: its ballot), the Edge, one political action card
    from hand; none cast already (a source votes once)."""
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
        if c.crypt and c.pos not in cast and c.card and not view.contested(c.pos):
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
    info = card_base().info(c.card)
    card = card_base().by_id(info.id) if info is not None else None
    return str(getattr(card, "title", None) or "")


def referendum_acts(view: VtesView, seat: int) -> list[Act]:
    """What ``seat`` may do in the referendum under way (7, P7): record the terms (the caller,
    first), pass on its impulse before votes, vote from each source it holds, say it is done."""
    r = view.referendum
    if r is None:
        return []
    match r.step:
        case Poll.TERMS:
            return [{"do": Do.TERMS, "text": "as the card says"}] if r.caller == seat else []
        case Poll.BEFORE:
            return [{"do": Do.PASS}] if r.impulse == seat else []
        case Poll.VOTING:
            if seat in r.done:
                return []
            return [*vote_sources(view, seat), {"do": Do.DONE}]
    return []


def auto_pass(view: VtesView) -> Act | None:
    """A ``pass`` when the view's seat holds the impulse of an open action and has nothing it could
    do in this window: no block to decide (a block that could only fail is no decision), no action
    modifier or reaction it could play (its hand's card types from krcg and a reaction's "Only
    usable …" conditions, its ready unlocked minions). None otherwise: the player decides."""
    seat = view.seat
    if seat is None:
        return None
    if view.referendum is not None:
        return _auto_poll(view, seat)
    if view.combat is not None:
        return _auto_combat(view, seat)
    a = view.action
    if a is None or a.impulse != seat or a.window == Window.DIABLERIE:
        return None
    if window_cards(view):
        return None
    if view.may_block(seat) and not _block_would_fail(view, seat):
        return None
    return {"do": Do.PASS}


def _block_would_fail(view: VtesView, seat: int) -> bool:
    """A block attempt by ``seat`` could only fail: the action has stealth, and none of its ready
    unlocked minions whose attempt has not failed yet carries a card (a retainer or equipment may
    give intercept) nor has it a reaction to play (checked by the caller): a minion whose attempt
    failed, with no reaction to play, would fail again. Passing then declines, as the player would."""
    a = view.action
    if a is None or a.stealth <= 0:
        return False
    ready = {m.pos for m in view.untried(seat)}
    return not any(c.on in ready for c in view.cards)


def _combat_cards(view: VtesView, step: CombatStep) -> bool:
    """A combat card of the hand could be played in ``step``: its text does not bind it to
    another step (:func:`engine.games.vtes.readings.combat_steps`; a card not yet seen counts)."""
    for held in view.hand:
        if "Combat" not in held.types:
            continue
        cid = card_id(held.card) if held.card else None
        steps = combat_steps(cid) if cid is not None else None
        if steps is None or step in steps:
            return True
    return False


def _auto_combat(view: VtesView, seat: int) -> Act | None:
    """In combat: a Methuselah whose minion does not fight passes every step (reading: cards for
    minions not in the combat are rare; switch the automatic pass off to play one); a combatant's
    controller with no combat card in hand that could be played in the step (maneuvers, presses,
    prevention and strikes other than the hand strike come from cards; a card's text may bind it
    to one step) passes, and strikes with the hand strike unless its minion carries a card (a
    weapon, a retainer) that could strike instead."""
    c = view.combat
    if c is None or c.impulse != seat:
        return None
    mine = [m for m in (c.acting, c.opposing) if (card := view.card(m)) is not None and card.controller == seat]
    if c.step == CombatStep.STRIKE:
        waiting = due(c)
        armed = bool(waiting) and any(card.on == waiting[0] for card in view.cards)
        if waiting and not _combat_cards(view, CombatStep.STRIKE) and not armed:
            return {"do": Do.STRIKE, "minion": list(waiting[0])}
        return None
    if mine and _combat_cards(view, c.step):
        return None
    return {"do": Do.PASS}


def _auto_poll(view: VtesView, seat: int) -> Act | None:
    """In a referendum: pass before votes with no card that could be played then (a master, an
    action modifier, a reaction, a political action card; in a blood hunt no action modifier nor
    reaction, rulebook "The Blood Hunt"); say done with no vote to cast."""
    r = view.referendum
    if r is None:
        return None
    if r.step == Poll.BEFORE and r.impulse == seat:
        playable = (c for c in view.hand if not (r.hunted and BLOOD_HUNT_BARS & set(c.types)))
        return None if any(_before_votes(c, seat == r.caller) for c in playable) else {"do": Do.PASS}
    if r.step == Poll.VOTING and seat not in r.done and not vote_sources(view, seat):
        return {"do": Do.DONE}
    return None


_POLL_WORDS = ("referendum", "vote", "ballot", "political action", "polling")


def _before_votes(c: CardView, caller: bool) -> bool:
    """A hand card that could be played before votes are cast (7.1, P7): a master, the caller's
    action modifier or another Methuselah's reaction, whose text speaks of a referendum, votes,
    ballots or a political action (a political action card is burned for a vote in polling, not
    played before it)."""
    types = set(c.types)
    playable = "Master" in types or ("Action Modifier" in types if caller else "Reaction" in types)
    return playable and any(word in c.text.lower() for word in _POLL_WORDS)
