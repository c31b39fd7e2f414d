"""VTES acts as typed records (shared/rules/vtes.md, "Precise readings"; vtes-actions.md P2–P9).

An act travels and is logged as a canonical map (``{"do": "block", "minion": [3, 1]}``);
:func:`engine.games.vtes.acts.parse_act` reads that untrusted map once into one of the frozen
records here, and every rule reads the record. A record's fields are the map's fields under the
same names (``for`` is ``for_``), typed: a position is a :data:`~engine.games.base.Pos` tuple
``(event, index)``, a list of cards a tuple of them in the act's order, a word its
:mod:`~engine.games.vtes.vocab` enum, a seat or a number an int, a flag a bool. A field the map
leaves out is None (the rule applies its default), so :meth:`ActRecord.to_map` gives back exactly
the map that was read: the wire and the log keep their bytes.

The records hold what the map *says*, checked for shape only: a number out of the range a rule
allows is refused (IllegalMove) by the rule that reads it, in its turn.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, cast

from engine.games.base import Act, Pos
from engine.games.vtes.vocab import (
    ActionKind,
    DeckPart,
    Do,
    Lift,
    LimitScope,
    Replacement,
    Target,
    TransferKind,
    VoteSource,
)

_KEYS = {"for_": "for"}
"""Field names that are not the map's key (a Python keyword)."""


def _plain(value: object) -> Any:
    """A field's value as the canonical map holds it: tuples as lists, words as plain strings."""
    if isinstance(value, tuple):
        return [_plain(x) for x in value]
    if isinstance(value, StrEnum):
        return value.value
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class ActRecord:
    """What every act has: its name ``do``."""

    do: Do

    def to_map(self) -> Act:
        """The canonical map of this act (``{"do": ..., field: value}``, absent fields left out),
        the same map :func:`~engine.games.vtes.acts.parse_act` read it from."""
        out: Act = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out[_KEYS.get(f.name, f.name)] = _plain(value)
        return out

    @classmethod
    def keys(cls) -> frozenset[str]:
        """The map keys an act of this record may carry besides ``"do"``."""
        return frozenset(_KEYS.get(f.name, f.name) for f in fields(cls)) - {"do"}

    @classmethod
    def required(cls) -> tuple[str, ...]:
        """The map keys an act of this record cannot do without (its fields with no default), in
        the record's order."""
        return tuple(_KEYS.get(f.name, f.name) for f in fields(cls) if f.default is MISSING and f.name != "do")


CARD_TERMS = ("limit", "limit_all", "replace")
"""The fields of an act that plays a card from hand stating what its text says of how often it is
played and when it is replaced (docs/protocol.md 4.4.1): ``limit``, the scope of its printed limit
("A minion can play only one … each round": ``each round``), ``limit_all``: the limit binds every
player, not only the minion that plays it ("Only one … can be played each turn"), ``replace``:
the moment it is replaced in its player's hand ("Do not replace until after combat"). Absent: the
card record says (the logs written before these fields)."""
LIMIT_WORDS = tuple(LimitScope)
"""The words a ``limit`` field may hold."""
REPLACE_WORDS = tuple(r for r in Replacement if r != Replacement.NOW)
"""The words a ``replace`` field may hold (a card replaced at once states none)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckAct(ActRecord):
    """``deck``: the sizes of the crypt and the library a seat brings (cards)."""

    crypt: int
    library: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BareAct(ActRecord):
    """An act with no field: ``phase``, ``end_turn``, ``edge``, ``pass``, ``done``, ``withdraw``,
    ``time``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EdgeBurnAct(ActRecord):
    """``burn_edge``: the holder of the Edge burns it (back to nobody) for what the card ``by``
    says, a face-up card of its own (Emily Carson: "Emily can burn the Edge to unlock"; rulebook,
    "Requirements for Playing Cards": "the Methuselah must control the Edge to burn it for a
    cost"). The card's effect is applied where the table reads it (:mod:`engine.games.vtes.edge_burns`)."""

    by: Pos


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawAct(ActRecord):
    """``draw``: ``n`` cards from the library (None: 1)."""

    n: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayAct(ActRecord):
    """``play`` a card from hand: ``to`` (None: the ash heap), ``on`` the card it goes on (with
    ``to="on"``), ``controller`` (a seat), ``no_replace`` (the hand is not refilled), its cost
    ``pool`` and ``blood`` (paid by ``minion``), the open action's number changes ``stealth``,
    ``intercept``, ``amount`` and a new ``target`` seat, ``bleed_mod`` (a "+bleed" modifier),
    ``lock``: ``minion`` locks (a reaction's "lock this reacting vampire"), ``wake``: the locked
    ``minion`` wakes (it may play reactions and block until the action ends), ``unlock``: the
    acting ``minion`` unlocks (an action modifier played after its action resolved), ``move_blood``:
    blood moved from the vampire ``minion`` to the player's pool (a master card's), ``add_blood``:
    blood a master card adds to ``add_to``, a vampire of the player's, ``votes``: the
    votes the card gives ``minion`` while a referendum polls, ``fail_block``: the block attempt
    under way fails and its minion cannot attempt to block this action again (an action modifier's),
    ``end_action``: the open action ends, unsuccessfully, as a block attempt would succeed
    (``unlock_actor``: its acting minion unlocks); ``bar``: a vampire that cannot block the open action, chosen as it is announced;
    ``bar_vampires``: no vampire may block it, ``lock_failed``: the minions whose block attempt fails lock before the action resolves,
    ``wake_cost``: blood the woken ``minion`` burns before the action resolves unless it blocks it,
    ``block``: the reacting ``minion`` attempts to block at once, whoever may block by default (Eagle's Sight),
    ``end_if_blocked``: if the open action is blocked, its blocker locks and it ends before block resolution (Mirror Walk), cast for (``for_``, None: true) or
    against (7.2), a rule ``lift`` ed by card ``by`` (P9). In combat, what a combat card played by
    the combatant ``minion`` changes (:mod:`engine.games.vtes.combat_plays`): ``strength``, its
    strength for the rest of the combat; ``environmental``, the ranged damage the opposing minion
    takes each round; ``grapple``, only hand strikes this round, ``close``, another round at close
    range; ``gain_blood``, the blood it gains at the end of a round, what the opposing vampire lost
    to damage; ``press``, the card's optional press, made in this round's press step;
    ``aggravated``, the damage of its hand strikes is aggravated this round (with ``whole_combat``,
    for the rest of the combat); ``equip``: a weapon card of the hand the combatant equips with
    (:mod:`engine.games.vtes.combat_equip`); ``ash_hand``,
    ``ash_library``: the library cards of the author's ash heap a card recovers as its third copy
    comes into play, one to the hand, the others shuffled into the library (Ashur Tablets);
    ``lock_minion``: a ready unlocked minion a master card locks as it is played (Misdirection)."""

    card: Pos
    to: Target | None = None
    on: Pos | None = None
    controller: int | None = None
    no_replace: bool | None = None
    pool: int | None = None
    blood: int | None = None
    minion: Pos | None = None
    stealth: int | None = None
    intercept: int | None = None
    amount: int | None = None
    target: int | None = None
    bleed_mod: bool | None = None
    lock: bool | None = None
    wake: bool | None = None
    unlock: bool | None = None
    fail_block: bool | None = None
    lock_failed: bool | None = None
    bar: Pos | None = None
    end_action: bool | None = None
    unlock_actor: bool | None = None
    bar_vampires: bool | None = None
    wake_cost: int | None = None
    block: bool | None = None
    end_if_blocked: bool | None = None
    move_blood: int | None = None
    add_blood: int | None = None
    add_to: Pos | None = None
    lock_minion: Pos | None = None
    ash_hand: Pos | None = None
    ash_library: tuple[Pos, ...] | None = None
    votes: int | None = None
    for_: bool | None = None
    strength: int | None = None
    environmental: int | None = None
    grapple: bool | None = None
    close: bool | None = None
    gain_blood: int | None = None
    press: bool | None = None
    aggravated: bool | None = None
    whole_combat: bool | None = None
    equip: Pos | None = None
    limit: LimitScope | None = None
    limit_all: bool | None = None
    replace: Replacement | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardAct(ActRecord):
    """``discard`` a card from hand; ``no_replace``: the hand is not refilled; a rule ``lift`` ed
    by card ``by`` (P9: a card that gives more discard phase actions)."""

    card: Pos
    no_replace: bool | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BurnAct(ActRecord):
    """``burn`` cards (to the ash heap), in the act's order; the change's ``cause`` (a phrase)
    and the card ``by`` that causes it (P9)."""

    cards: tuple[Pos, ...]
    no_replace: bool | None = None
    cause: str | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveAct(ActRecord):
    """``move`` cards ``to`` a zone (``on`` a card with ``to="on"``), under ``controller``; as
    :class:`BurnAct` otherwise."""

    cards: tuple[Pos, ...]
    to: Target
    on: Pos | None = None
    controller: int | None = None
    no_replace: bool | None = None
    cause: str | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LockAct(ActRecord):
    """``lock`` or ``unlock`` cards in play, with the change's ``cause`` and card ``by``."""

    cards: tuple[Pos, ...]
    cause: str | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CounterAct(ActRecord):
    """``blood`` or ``life``: ``delta`` counters on ``card`` (signed), for ``cause``, by card
    ``by``."""

    card: Pos
    delta: int
    cause: str
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PoolAct(ActRecord):
    """``pool``: ``delta`` pool to ``seat`` (None: the author), or ``changes``: ``(seat, delta)``
    pairs; for ``cause``, by card ``by``."""

    seat: int | None = None
    delta: int | None = None
    changes: tuple[tuple[int, int], ...] | None = None
    cause: str
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatAct(ActRecord):
    """``combat``: the two ``minions`` a card puts in combat (P5), with ``cause`` and ``by``."""

    minions: tuple[Pos, ...]
    cause: str | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class InfluenceAct(ActRecord):
    """``influence``: the vampire ``card`` moves from the uncontrolled region to the ready one."""

    card: Pos


@dataclass(frozen=True, slots=True, kw_only=True)
class ContestAct(ActRecord):
    """``contest`` (pay this unlock phase's cost of a contest: 1 pool for a contested card, 1 blood
    for a contested title) or ``yield`` it (the card is burned, the title lost), for the contested
    card or title-contesting vampire ``card`` (rulebook, "Contested Cards", "Contested Titles")."""

    card: Pos


@dataclass(frozen=True, slots=True, kw_only=True)
class TransferAct(ActRecord):
    """``transfer`` of ``kind``: ``n`` pool to, or blood from, the vampire ``card`` (None: 1), or
    the top crypt card to the uncontrolled region (no card, no n); ``by``: a card in play on that
    vampire whose ability moves the blood (a Blood Doll, a Vessel), not a transfer of the
    influence phase."""

    kind: TransferKind
    card: Pos | None = None
    n: int | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSizeAct(ActRecord):
    """``hand_size``: ``delta`` cards to ``seat``'s hand size (None: the author), for ``cause``,
    by card ``by``."""

    seat: int | None = None
    delta: int
    cause: str | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShuffleAct(ActRecord):
    """``shuffle``: ``seat``'s (None: the author's) library or crypt (``zone``), for ``cause``, by
    card ``by``."""

    zone: DeckPart
    seat: int | None = None
    cause: str | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionAct(ActRecord):
    """``action`` (P2): ``minion`` acts; ``kind``; ``card``: the action card (from hand, or in
    play); ``target``: the seat a bleed or a directed action targets; ``target_card``: the
    vampire a rescue or diablerie names, or equipment taken from another minion; ``stealth``,
    ``amount``, ``cost_blood``, ``cost_pool``: None for the action's default (P8; a card's cost
    is its printed one, read from krcg, an X cost is 0); ``cost_rescued``: the blood the vampire
    in torpor pays for its rescue (None: 0; the acting vampire's default then pays the rest, the
    rulebook's "Rescue a Vampire from Torpor"); ``add_blood`` blood the card adds, as the action
    succeeds, to the vampire ``add_to`` of the actor's uncontrolled region (for a bleed, when it
    succeeds for 1 or more); ``gain_pool``: pool the actor gains when the bleed succeeds for 1 or
    more; ``unlock``: the acting minion unlocks as the action succeeds (its card says so);
    ``draws``: cards the actor draws as it succeeds (its card says so; discarded down after);
    ``burn``: ``target_card``, a card in play, burns as the action succeeds (its card says so);
    ``life``: the life the retainer or ally ``card`` enters play with, its level's (None: its
    printed life; :mod:`engine.games.vtes.entering_life`); a rule ``lift`` ed by card ``by`` (P9)."""

    minion: Pos
    kind: ActionKind
    card: Pos | None = None
    target: int | None = None
    target_card: Pos | None = None
    stealth: int | None = None
    amount: int | None = None
    cost_blood: int | None = None
    cost_pool: int | None = None
    cost_rescued: int | None = None
    add_blood: int | None = None
    add_to: Pos | None = None
    gain_pool: int | None = None
    unlock: bool | None = None
    draws: int | None = None
    burn: bool | None = None
    life: int | None = None
    limit: LimitScope | None = None
    limit_all: bool | None = None
    replace: Replacement | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockAct(ActRecord):
    """``block`` (P3): ``minion`` attempts to block with ``intercept`` (None: 0)."""

    minion: Pos
    intercept: int | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AdjustAct(ActRecord):
    """``adjust`` (4.3, P8): signed changes to the open action's ``stealth``, ``intercept``,
    ``amount``, a new ``target`` seat; its source: card ``by`` or ``cause``; ``blood``: the blood
    the blocking vampire burns for the ``intercept`` the card ``by`` it played gives
    (:mod:`engine.games.vtes.blood_intercept`)."""

    stealth: int | None = None
    intercept: int | None = None
    amount: int | None = None
    target: int | None = None
    blood: int | None = None
    cause: str | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionEndAct(ActRecord):
    """``action_end`` (P4): the card ``by`` ends the open action."""

    by: Pos
    cause: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeAct(ActRecord):
    """An answer to the change by hand made by act number ``act`` (P9; docs/vtes-by-hand.md): ``dispute`` it, ``accept`` it (a touched Methuselah), let it ``lapse``
    into effect once its time has run out (a Methuselah other than its author), ``retract`` it
    (its author)."""

    act: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeWhyAct(DisputeAct):
    """``dispute``, which may say why: ``why``, a short phrase shown with it (a bot's reason:
    docs/vtes-by-hand.md, "A bot's answer"); None: none given."""

    why: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DiableriseAct(ActRecord):
    """``diablerise`` after a blocked leave torpor (6.2); ``take``: take the equipment (None:
    yes)."""

    take: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatCardAct(ActRecord):
    """``maneuver`` or ``press`` by the combatant ``minion``, with combat ``card`` from hand;
    ``press``: a maneuver's optional press ("Maneuver with 1 optional press"), made in this round's
    press step; a rule ``lift`` ed by card ``by`` (P9)."""

    minion: Pos
    card: Pos | None = None
    press: bool | None = None
    limit: LimitScope | None = None
    limit_all: bool | None = None
    replace: Replacement | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StrikeAct(ActRecord):
    """``strike`` (5.4, P5) by ``minion``: ``damage`` (None: 1, or 0 with ``steal``),
    ``aggravated``, ``ranged``, ``first``, ``dodge``, ``ends`` (combat), ``steal`` blood, at
    ``retainer``, ``other``, ``additional`` strikes, ``unlock`` (the striker unlocks as it
    resolves), ``torpor`` (the opposing vampire to torpor), ``burn`` (the opposing ally burned),
    with combat ``card``; no field: the hand strike (also with a ``card`` that gives only
    ``additional`` strikes); ``aim``: an aim card of the hand played with the strike (Target
    Vitals); a rule ``lift`` ed by card ``by`` (P9)."""

    minion: Pos
    damage: int | None = None
    aggravated: bool | None = None
    ranged: bool | None = None
    first: bool | None = None
    dodge: bool | None = None
    ends: bool | None = None
    steal: int | None = None
    retainer: Pos | None = None
    other: bool | None = None
    additional: int | None = None
    unlock: bool | None = None
    torpor: bool | None = None
    burn: bool | None = None
    card: Pos | None = None
    aim: Pos | None = None
    limit: LimitScope | None = None
    limit_all: bool | None = None
    replace: Replacement | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PreventAct(ActRecord):
    """``prevent`` (P5): ``minion`` prevents ``normal`` and ``agg`` damage points, with ``card``;
    ``blood``: blood ``minion`` burns for it besides the card's printed cost (an X cost, "burn 1
    blood to prevent …"); ``round``: all damage from the opposing strikes is prevented for the rest
    of the round; ``press``: the card's optional press, made in this round's press step; a rule
    ``lift`` ed by card ``by`` (P9)."""

    minion: Pos
    normal: int | None = None
    agg: int | None = None
    card: Pos | None = None
    blood: int | None = None
    round: bool | None = None
    press: bool | None = None
    limit: LimitScope | None = None
    limit_all: bool | None = None
    replace: Replacement | None = None
    lift: Lift | None = None
    by: Pos | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TermsAct(ActRecord):
    """``terms`` of a referendum (7.1): ``text``; for a card whose terms the table applies
    (:mod:`engine.games.vtes.referendum_terms`), the caller's choices: ``changes``, ``(seat,
    points)`` pairs; ``seat``, a Methuselah chosen; ``card``, a vampire chosen; ``clan``, a clan
    chosen (its name as the card database spells it); ``printed``, the terms of a card that leaves
    no choice, as printed (without it, text alone: the players')."""

    text: str
    changes: tuple[tuple[int, int], ...] | None = None
    seat: int | None = None
    card: Pos | None = None
    clan: str | None = None
    printed: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteAct(ActRecord):
    """``vote`` (P7) from ``source``, its ``card``, ``count`` votes (None: the source's), for
    (``for_``, None: true) or against."""

    source: VoteSource
    card: Pos | None = None
    count: int | None = None
    for_: bool | None = None


type VtesAct = (
    DeckAct
    | BareAct
    | EdgeBurnAct
    | DrawAct
    | PlayAct
    | DiscardAct
    | BurnAct
    | MoveAct
    | LockAct
    | CounterAct
    | PoolAct
    | CombatAct
    | InfluenceAct
    | ContestAct
    | TransferAct
    | HandSizeAct
    | ShuffleAct
    | ActionAct
    | BlockAct
    | AdjustAct
    | ActionEndAct
    | DisputeAct
    | DiableriseAct
    | CombatCardAct
    | StrikeAct
    | PreventAct
    | TermsAct
    | VoteAct
)
"""Every VTES act record."""

RECORDS: dict[Do, type[ActRecord]] = {
    Do.DECK: DeckAct,
    Do.PHASE: BareAct,
    Do.END_TURN: BareAct,
    Do.EDGE: BareAct,
    Do.BURN_EDGE: EdgeBurnAct,
    Do.DRAW: DrawAct,
    Do.PLAY: PlayAct,
    Do.DISCARD: DiscardAct,
    Do.MOVE: MoveAct,
    Do.BURN: BurnAct,
    Do.LOCK: LockAct,
    Do.UNLOCK: LockAct,
    Do.BLOOD: CounterAct,
    Do.LIFE: CounterAct,
    Do.POOL: PoolAct,
    Do.COMBAT: CombatAct,
    Do.INFLUENCE: InfluenceAct,
    Do.TRANSFER: TransferAct,
    Do.HAND_SIZE: HandSizeAct,
    Do.SHUFFLE: ShuffleAct,
    Do.ACTION: ActionAct,
    Do.BLOCK: BlockAct,
    Do.PASS: BareAct,
    Do.ADJUST: AdjustAct,
    Do.ACTION_END: ActionEndAct,
    Do.DISPUTE: DisputeWhyAct,
    Do.ACCEPT: DisputeAct,
    Do.LAPSE: DisputeAct,
    Do.RETRACT: DisputeAct,
    Do.DIABLERISE: DiableriseAct,
    Do.MANEUVER: CombatCardAct,
    Do.STRIKE: StrikeAct,
    Do.PREVENT: PreventAct,
    Do.PRESS: CombatCardAct,
    Do.TERMS: TermsAct,
    Do.VOTE: VoteAct,
    Do.DONE: BareAct,
    Do.WITHDRAW: BareAct,
    Do.TIME: BareAct,
    Do.CONTEST: ContestAct,
    Do.YIELD: ContestAct,
}
"""The record of each act."""


def make_record(do: Do, values: dict[str, Any]) -> VtesAct:
    """The record of act ``do`` from its fields, already read to their types (map keys to
    values). Raises TypeError for a field the record lacks: the caller checks the map first."""
    record = RECORDS[do](do=do, **{("for_" if key == "for" else key): value for key, value in values.items()})
    return cast("VtesAct", record)
