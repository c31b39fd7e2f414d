"""The VTES table state: frozen records of ints, strs, bools, tuples (shared/rules/vtes.md).

Every card is a **position** ``(event, index)`` of the shuffle event that dealt it, from the moment
its deck is shuffled to the end of the game; zones hold positions, and a card's identity is in the
state only once it is public (``CardState.card``). Pool, VP and counters are ints; VP are in
half-points (``vp=3`` is 1.5 VP). Steps, phases, zones and statuses are the StrEnums of
:mod:`engine.games.vtes.vocab`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.games.base import Op, OptionValue, Pos
from engine.games.vtes.vocab import (
    ActionKind,
    ClaimStatus,
    CombatStep,
    DeckPart,
    End,
    LimitScope,
    Outcome,
    Phase,
    Poll,
    Replacement,
    Ruleset,
    Status,
    Step,
    VoteSource,
    Window,
    Zone,
)
from engine.rate import Bucket

FULL = Bucket()
"""A bucket no entry has paid from yet: full (:mod:`engine.rate`)."""
START_POOL = 30
HAND_SIZE = 7
CRYPT_MIN = 12
LIBRARY_MIN = 60
LIBRARY_MAX = 90
OPENING_HAND = 7
OPENING_UNCONTROLLED = 4


@dataclass(frozen=True)
class CardState:
    """One physical card at the table.

    ``pos``: its position; ``owner``: the seat whose deck it comes from; ``crypt``: True for a card
    of a crypt (a vampire: its counters are blood); ``zone``: a :class:`Zone`; ``controller``:
    the seat controlling it (the owner outside play); ``card``: its identity once public, else "";
    ``known_owner``: opened to its owner; ``locked``; ``counters``: blood or life counters (>= 0);
    ``on``: the position of the card it is placed on (zone ``"on"``), else ``()``.
    """

    pos: Pos
    owner: int
    crypt: bool
    zone: Zone
    controller: int
    card: str = ""
    known_owner: bool = False
    locked: bool = False
    counters: int = 0
    on: Pos | tuple[()] = ()


@dataclass(frozen=True)
class DeckShuffle:
    """A shuffle event of one Methuselah's crypt or library: the event's number, the seat owning
    the deck, which ``deck`` it is, whether its seeds were revealed (``ended``), and the seats
    locking it (``participants``)."""

    event: int
    owner: int
    deck: DeckPart
    ended: bool = False
    participants: tuple[int, ...] = ()


@dataclass(frozen=True)
class Deferred:
    """A card played from a Methuselah's hand and not yet replaced, its text saying "Do not
    replace until …": ``when`` it is replaced (a :class:`Replacement`), the ``turn`` and ``phase``
    it was played in."""

    when: Replacement
    turn: int
    phase: Phase


@dataclass(frozen=True)
class Methuselah:
    """One seat's player.

    ``crypt_size``/``library_size``: the public deck sizes it declared; ``pool``; ``vp`` in
    half-points; ``status``: a :class:`Status`; ``library``/``crypt``:
    the positions of those zones, top first (order hidden from everyone, owner included);
    ``hand_size``: the hand size counter; ``turns``: turns begun; ``hand_at_start``: cards in hand
    when its current or last turn began; ``withdrawing``: announced withdrawal pending;
    ``withdraw_fail``: why it can no longer succeed (a sentence with seat placeholders), or "";
    ``by_hand``, ``shuffles``: its buckets of changes by hand and of shuffles by hand
    (:data:`~engine.games.vtes.claims.BY_HAND_RATE`); ``deferred``: the cards it played that are
    not replaced yet (:class:`Deferred`): its hand is refilled to its hand size less these.
    """

    seat: int
    declared: bool = False
    crypt_size: int = 0
    library_size: int = 0
    pool: int = START_POOL
    vp: int = 0
    status: Status = Status.IN
    library: tuple[Pos, ...] = ()
    crypt: tuple[Pos, ...] = ()
    hand_size: int = HAND_SIZE
    turns: int = 0
    hand_at_start: int = 0
    withdrawing: bool = False
    withdraw_fail: str = ""
    by_hand: Bucket = FULL
    shuffles: Bucket = FULL
    deferred: tuple[Deferred, ...] = ()


@dataclass(frozen=True)
class OutRecord:
    """A Methuselah who left the game: ``how`` it left (a :class:`Status` other than IN); ``act``
    the act number that made it leave; ``predator`` its predator then (-1: none);
    ``credited``: that predator gained 1 VP for it; ``author``: who recorded that act (-1: none,
    an abandon)."""

    seat: int
    how: Status
    act: int
    predator: int
    credited: bool
    author: int = -1


@dataclass(frozen=True)
class Loop:
    """The impulse of one open window (shared/rules/vtes-actions.md 5.1, P1): ``order``, the seats
    in the order the impulse passes (set when the window or step opens; a seat that has left the
    game since is skipped); ``holder``, the seat that holds it (-1: nobody, e.g. while polling).
    A window step that is not a loop (a strike, the terms, a diablerie decision) has no ``order``:
    only its ``holder`` acts. :mod:`engine.games.vtes.windows` is the one place that moves it."""

    order: tuple[int, ...] = ()
    holder: int = -1


@dataclass(frozen=True)
class Action:
    """The one open minion action (shared/rules/vtes-actions.md 4, P1–P4).

    ``actor``: the acting Methuselah; ``minion``: the acting minion; ``kind``: an
    :class:`ActionKind`; ``card``: the action's card (set aside from the hand, zone ``aside``, or
    a card in play; ``()``: none); ``targets``: the targeted Methuselahs, clockwise from the actor
    (a directed action has some); ``target_card``: the vampire in torpor of a rescue or
    diablerie, the equipment taken from another minion, else ``()``; ``stealth``, ``intercept``:
    the action's numbers (intercept belongs to the block attempt, 0 without one); ``amount``: the
    bleed or hunt amount; ``cost_blood`` (from the acting minion), ``cost_pool`` (from the actor),
    ``cost_rescued`` (from the vampire a rescue names): paid on success. ``window``: a
    :class:`Window`; ``loop``: its impulse (:class:`Loop`);
    ``declined``: seats that declined to block (final, 4.2); ``tried``: minions whose block
    attempt on this action failed (a minion may try again: rulebook, "Who May Attempt to Block"); ``blocker``: the
    minion attempting to block (window B), else ``()``; ``bleed_mods``: "+bleed" action modifiers played (4.6);
    ``played``: ``(minion, card id)`` pairs of modifiers and reactions played (2.1: once each per
    minion and action); ``woken``: locked minions a card woke (rulebook: they "ignore the
    requirement to be unlocked for playing reaction cards and attempting to block until the end of
    the action"); ``applying``: the seats that played a card whose text the table does not apply
    whole and have not passed since (their next pass is their own: they apply the rest by hand
    first; :func:`engine.games.vtes.autopass.auto_pass` does not make it); ``unlocks``: ``(minion,
    blood, card)``: the minion a card unlocks as the action succeeds, burning that blood ("If the
    bleed is successful, this vampire unlocks"); ``draws``: the cards its card has the actor draw
    as it succeeds (then discarded down to the hand size); ``barred``: minions that cannot attempt
    to block this action (a card made their attempt fail: "the blocking minion cannot attempt to
    block this action again", or "the chosen vampire cannot block this action");
    ``vampires_barred``: no vampire may block it ("Vampires cannot block this action"); ``lock_failed``: the minions whose attempt fails lock before the
    action resolves (a card's); ``wake_costs``: ``(minion, blood)``: a woken minion that burns that
    blood before the action resolves unless it blocks it; ``end_if_blocked``: the card played that
    says "if this action is blocked, lock the blocking minion and end the action before block
    resolution" (Mirror Walk), else ``()``; ``weaken``: the intercept every blocker that is an ally
    or a vampire younger than the acting one loses for the rest of the action (Perfect Paragon).
    """

    actor: int
    minion: Pos
    kind: ActionKind
    card: Pos | tuple[()] = ()
    targets: tuple[int, ...] = ()
    target_card: Pos | tuple[()] = ()
    stealth: int = 0
    intercept: int = 0
    amount: int = 0
    cost_blood: int = 0
    cost_pool: int = 0
    window: Window = Window.NO_ATTEMPT
    loop: Loop = Loop()
    declined: tuple[int, ...] = ()
    tried: tuple[Pos, ...] = ()
    blocker: Pos | tuple[()] = ()
    bleed_mods: int = 0
    played: tuple[tuple[Pos, int], ...] = ()
    cost_rescued: int = 0
    add_blood: int = 0
    add_to: Pos | tuple[()] = ()
    gain_pool: int = 0
    woken: tuple[Pos, ...] = ()
    applying: tuple[int, ...] = ()
    unlocks: tuple[tuple[Pos, int, Pos], ...] = ()
    life: int = 0
    draws: int = 0
    barred: tuple[Pos, ...] = ()
    vampires_barred: bool = False
    lock_failed: bool = False
    wake_costs: tuple[tuple[Pos, int], ...] = ()
    end_if_blocked: Pos | tuple[()] = ()
    weaken: int = 0

    @property
    def directed(self) -> bool:
        """Directed: it targets other Methuselahs or what they control (1.2)."""
        return bool(self.targets)

    @property
    def impulse(self) -> int:
        """The seat holding the impulse (-1: nobody)."""
        return self.loop.holder

    @property
    def blocks(self) -> bool:
        """The block attempt would succeed as it stands: intercept at least the stealth (4.4)."""
        return self.intercept >= self.stealth

    @property
    def stealth_needed(self) -> bool:
        """Stealth may be added now: a block attempt that would succeed as it stands (4.3)."""
        return self.window == Window.ATTEMPT and self.blocks

    @property
    def intercept_needed(self) -> bool:
        """Intercept may be added now: a block attempt whose stealth is above the intercept (4.3)."""
        return self.window == Window.ATTEMPT and bool(self.blocker) and not self.blocks


@dataclass(frozen=True)
class Strike:
    """A strike chosen in combat (shared/rules/vtes-actions.md 5.4–5.5, P5): ``minion`` strikes
    for ``damage`` (the hand strike: strength, by default 1), ``aggravated``; ``ranged`` works at
    long range; ``first``: first strike; ``dodge``; ``ends``: combat ends; ``steal``: blood
    stolen (not damage); ``retainer``: a retainer on the opposing minion as target (ranged, long
    range only); ``other``: an effect the players apply by hand (no damage from the engine);
    ``hand``: this is the hand strike; ``unlock``: the striker unlocks as the strike resolves (a
    card's "unlock this vampire before combat ends"); ``torpor``: the opposing vampire goes to
    torpor, ``burn``: the opposing ally burns (no damage: "Strike: send the opposing vampire to
    torpor"); ``aim``: points it deals more if any of its damage is inflicted (an aim card played
    with it, :mod:`engine.games.vtes.aims`); ``worn``: the card in play it strikes with whose
    counters its damage burns (Weighted Walking Stick, :mod:`engine.games.vtes.combat_equip`);
    ``recoil``: aggravated damage the striker takes if it strikes at close range (Breath of the
    Dragon); ``after``: combat ends once this strike resolves (Anesthetic Touch)."""

    minion: Pos
    damage: int = 1
    aggravated: bool = False
    ranged: bool = False
    first: bool = False
    dodge: bool = False
    ends: bool = False
    steal: int = 0
    retainer: Pos | tuple[()] = ()
    other: bool = False
    hand: bool = True
    unlock: bool = False
    torpor: bool = False
    burn: bool = False
    aim: int = 0
    worn: Pos | tuple[()] = ()
    recoil: int = 0
    after: bool = False


@dataclass(frozen=True)
class Combat:
    """The one combat under way (shared/rules/vtes-actions.md 5, P5).

    ``acting``: the acting minion (it strikes first), ``opposing``: the other combatant;
    ``round``: from 1; ``step``: a :class:`CombatStep`; ``long``: long range (else close);
    ``maneuvered``: the minion whose maneuver came last (never two in a row), else ``()``;
    ``strikes``: the strikes chosen for the pair under way, the acting minion's first; ``pairs``:
    pairs of strikes resolved this round;
    ``extra``: additional strikes each combatant has left this round (acting, opposing);
    ``extra_used``: combatants that gained additional strikes this round (one source each);
    ``prevent``: ``(minion, normal, aggravated)`` damage prevented in the pair under way;
    ``loop``: the impulse of the step (:class:`Loop`; in the strike step no loop: its holder is
    whose strike is due);
    ``press``: the minion whose press to continue stands, else ``()``; ``pressed``: the last
    minion to press; ``over``: combat ends after this round's end-of-round step; ``chosen``:
    ``(minion, card)`` whose strike this round a maneuver from that strike card or weapon chose
    (a card from hand is set aside until it strikes); ``presses``: ``(minion, card)`` whose strike
    this round gave an optional press.

    What combat cards played change (:mod:`engine.games.vtes.combat_plays`): ``strength``:
    ``(minion, strength)`` set for the rest of the combat; ``environmental``: ``(minion, points)``
    of ranged damage it takes each round during normal strike resolution; ``hand_only``: strikes
    that are not hand strikes cannot be used this round; ``close_next``: another round is at close
    range, ``skip_range``: this round's determine range step is skipped (it is at close range);
    ``lost``: ``(minion, blood)`` lost to damage this round; ``shielded``: minions that take no
    damage from the opposing strikes for the rest of this round (Skin of Steel at superior);
    ``aggravated``: minions whose hand strikes deal aggravated damage this round,
    ``aggravated_combat``: for the rest of the combat; ``no_press``: minions that cannot press this
    round (an aimed strike hit them, :mod:`engine.games.vtes.aims`); ``carried``: ``(minion,
    card)``, an optional maneuver a card played before the combat gives that minion in it, not made
    yet (:mod:`engine.games.vtes.carried_moves`).
    """

    acting: Pos
    opposing: Pos
    round: int = 1
    step: CombatStep = CombatStep.BEFORE_RANGE
    long: bool = False
    maneuvered: Pos | tuple[()] = ()
    strikes: tuple[Strike, ...] = ()
    pairs: int = 0
    extra: tuple[int, int] = (0, 0)
    extra_used: tuple[Pos, ...] = ()
    prevent: tuple[tuple[Pos, int, int], ...] = ()
    loop: Loop = Loop()
    press: Pos | tuple[()] = ()
    pressed: Pos | tuple[()] = ()
    over: bool = False
    chosen: tuple[tuple[Pos, Pos], ...] = ()
    presses: tuple[tuple[Pos, Pos], ...] = ()
    strength: tuple[tuple[Pos, int], ...] = ()
    environmental: tuple[tuple[Pos, int], ...] = ()
    hand_only: bool = False
    close_next: bool = False
    skip_range: bool = False
    lost: tuple[tuple[Pos, int], ...] = ()
    shielded: tuple[Pos, ...] = ()
    aggravated: tuple[Pos, ...] = ()
    aggravated_combat: tuple[Pos, ...] = ()
    no_press: tuple[Pos, ...] = ()
    carried: tuple[tuple[Pos, Pos], ...] = ()

    @property
    def impulse(self) -> int:
        """The seat holding the impulse, or whose strike is due (-1: nobody)."""
        return self.loop.holder

    def strength_of(self, minion: Pos) -> int | None:
        """The strength a card set for ``minion`` this combat, or None (its printed one)."""
        return next((n for m, n in self.strength if m == minion), None)

    def lost_by(self, minion: Pos) -> int:
        """The blood ``minion`` lost to damage this round."""
        return sum(n for m, n in self.lost if m == minion)

    def due(self) -> tuple[Pos, ...]:
        """The combatants whose strike is still to be chosen in the pair under way, acting first:
        both in the first pair of a round, then those with additional strikes left (5.6)."""
        chosen = {s.minion for s in self.strikes}
        if self.pairs == 0:
            pair: tuple[Pos, ...] = (self.acting, self.opposing)
        else:
            pair = tuple(m for m, k in zip((self.acting, self.opposing), self.extra, strict=True) if k > 0)
        return tuple(m for m in pair if m not in chosen)


PRISCI_VOTES = 3
"""The votes the prisci give to the majority of their ballots (shared/rules/vtes-actions.md 7.2)."""


@dataclass(frozen=True)
class Vote:
    """A vote cast in a referendum (shared/rules/vtes-actions.md 7.2, P7): by ``seat``, from
    ``source`` (a :class:`VoteSource`; ``ref``: the card or vampire it comes from, ``()`` for the
    Edge), ``count`` votes, ``side`` True for, False against."""

    seat: int
    source: VoteSource
    ref: Pos | tuple[()]
    count: int
    side: bool


@dataclass(frozen=True)
class Referendum:
    """The one referendum under way (shared/rules/vtes-actions.md 7, P7).

    ``caller``: the acting Methuselah (the current Methuselah for a blood hunt); ``minion``: the
    acting vampire, else ``()``; ``card``: the calling political action card, else ``()``;
    ``hunted``: the diablerist of a blood hunt (6.4), else ``()``; ``terms``: in the acting
    Methuselah's words; ``step``: a :class:`Poll`; ``loop``: the impulse (:class:`Loop`: the
    caller alone for the terms, a loop for the cards before votes, nobody while polling); ``votes``;
    ``done``: seats finished since the last vote; ``table``: the table applies the terms if it
    passes (:mod:`engine.games.vtes.referendum_terms`), with ``shares``, ``(seat, pool delta)``
    pairs chosen by the caller, ``banish``, the vampire sent back, else ``()``, and ``clan``, the
    clan whose vampires its terms count, else "".
    """

    caller: int
    minion: Pos | tuple[()] = ()
    card: Pos | tuple[()] = ()
    hunted: Pos | tuple[()] = ()
    terms: str = ""
    step: Poll = Poll.TERMS
    loop: Loop = Loop()
    votes: tuple[Vote, ...] = ()
    done: tuple[int, ...] = ()
    table: bool = False
    shares: tuple[tuple[int, int], ...] = ()
    banish: Pos | tuple[()] = ()
    clan: str = ""

    @property
    def impulse(self) -> int:
        """The seat holding the impulse (-1: nobody, while polling)."""
        return self.loop.holder

    def total(self, side: bool) -> int:
        """Votes cast for (``side`` True) or against, the prisci's 3 votes with the majority of
        their ballots (7.2)."""
        cast = sum(v.count for v in self.votes if v.side == side and v.source != VoteSource.BALLOT)
        return cast + (PRISCI_VOTES if self.prisci() is side else 0)

    def ballots(self, side: bool) -> int:
        """Prisci's ballots cast for (``side`` True) or against (7.2)."""
        return sum(1 for v in self.votes if v.side == side and v.source == VoteSource.BALLOT)

    def prisci(self) -> bool | None:
        """The side the prisci's votes go to: the majority of ballots; None for no ballot or a tie
        (they abstain, 7.2)."""
        yes, no = self.ballots(True), self.ballots(False)
        return None if yes == no else yes > no


@dataclass(frozen=True)
class Done:
    """An action announced this turn, for the per-turn limits (shared/rules/vtes-actions.md 2.1):
    the acting ``minion``, its ``kind``, ``card``: the krcg id of the action card (0: none), and
    its ``outcome`` once resolved (:class:`Outcome`); ``passed_by``: for a political action whose
    referendum passed, the votes for less those against (0: none passed; a card "only usable after
    resolution of a political action whose referendum passed" reads it: Voter Captivation);
    ``no_repeat``: the krcg id of a card that ended it and bars its minion from performing the same
    action again this turn (Change of Target), 0 for none."""

    minion: Pos
    kind: ActionKind
    card: int = 0
    outcome: Outcome = Outcome.UNDER_WAY
    passed_by: int = 0
    no_repeat: int = 0


@dataclass(frozen=True)
class Limited:
    """A card played whose text limits how often it is played (the card record's ``Limit``):
    ``card``, its krcg id; ``minion``, the minion that played it (() for a limit on everyone);
    ``scope``, how long the limit lasts."""

    minion: Pos | tuple[()]
    card: int
    scope: LimitScope


@dataclass(frozen=True)
class Claim:
    """A change recorded by hand to another Methuselah's things (act number ``act``, recorded by
    ``author``; docs/vtes-by-hand.md): ``seats`` it touches, ``text`` in words
    with its ``cause``; ``disputed``: the touched Methuselahs who disputed it (shown to everyone,
    listed for the judge, kept when they accept it later: :attr:`holding`); ``accepted``: those who accept it.

    ``change``: the act that takes effect once every touched Methuselah accepts it or its time
    runs out, as its map's sorted ``(key, value)`` pairs with lists as tuples (empty: an act the
    table already applied, disputed by the Methuselah it ousted);
    ``due``: the table's time (ms, :attr:`VtesState.clock`) from which it may lapse into effect,
    0 when only the touched Methuselah's answer can let it (another's hidden cards);
    ``status``: a :class:`ClaimStatus`; ``how``: how it took effect or ended, in words;
    ``holds``: made in a window on the impulse (a number of another's action, a combat effect with
    no card), so the window waits for it: no move answers the window while it waits."""

    act: int
    author: int
    seats: tuple[int, ...]
    text: str
    cause: str
    disputed: tuple[int, ...] = ()
    change: tuple[tuple[str, object], ...] = ()
    due: int = 0
    accepted: tuple[int, ...] = ()
    status: ClaimStatus = ClaimStatus.TAKEN
    how: str = ""
    holds: bool = False

    @property
    def holding(self) -> tuple[int, ...]:
        """The touched Methuselahs whose dispute still holds the claim: they disputed it and have
        not accepted it since (``disputed`` keeps every dispute, for the judge)."""
        return tuple(s for s in self.disputed if s not in self.accepted)


@dataclass(frozen=True)
class Contests:
    """What the table remembers of the contests under way beyond the cards' zones (rulebook,
    "Contested Cards", "Contested Titles"; :mod:`engine.games.vtes.contests` is the one place that
    changes it). A contested card is in zone ``contested``; here: ``titles``, vampires in play
    whose unique title is contested (treated as having no title); ``yielded``, vampires that
    yielded their title (no title for the rest of the game); ``paid``, contested cards and
    title-contesting vampires whose cost is paid in the current unlock phase; ``torpor``,
    contested vampires turned face down from torpor (they turn face up there)."""

    titles: tuple[Pos, ...] = ()
    yielded: tuple[Pos, ...] = ()
    paid: tuple[Pos, ...] = ()
    torpor: tuple[Pos, ...] = ()


NO_CONTESTS = Contests()
"""No contest under way."""


@dataclass(frozen=True)
class Answer:
    """A card announced and not yet applied: the other Methuselahs may cancel it "as it is played"
    (rulebook, "Cancel"; :mod:`engine.games.vtes.cancels`). ``seat``: who played it; ``card``: the
    card, revealed and in its owner's ash heap; ``play``: the ``play`` act that announced it, as its
    map's sorted ``(key, value)`` pairs with lists as tuples (applied as it stood once every seat of
    the ``loop`` passed); ``loop``: the other Methuselahs in the game, from the player's left."""

    seat: int
    card: Pos
    play: tuple[tuple[str, object], ...]
    loop: Loop


type OpenWindow = Action | Combat | Referendum | Answer
"""A window of play that is open: a minion action, a combat, a referendum (vtes-actions.md), a card
announced that others may cancel as it is played."""


class UnderWay:
    """What is under way at the table, read from the ``windows`` of a state (or of its working
    copy): the open windows, outer to inner (:mod:`engine.games.vtes.windows`)."""

    windows: Sequence[OpenWindow]

    @property
    def innermost(self) -> OpenWindow | None:
        """The innermost open window, whose impulse the table waits for, or None."""
        return self.windows[-1] if self.windows else None

    def _last[W: (Action, Combat, Referendum, Answer)](self, kind: type[W]) -> W | None:
        for window in reversed(self.windows):
            if isinstance(window, kind):
                return window
        return None

    @property
    def open_action(self) -> Action | None:
        """The open minion action, or None."""
        return self._last(Action)

    @property
    def open_combat(self) -> Combat | None:
        """The combat under way, or None."""
        return self._last(Combat)

    @property
    def open_referendum(self) -> Referendum | None:
        """The referendum under way, or None."""
        return self._last(Referendum)

    @property
    def open_answer(self) -> Answer | None:
        """The card announced that others may still cancel, or None."""
        return self._last(Answer)


@dataclass(frozen=True)
class VtesState(UnderWay):
    """The whole table.

        ``step``: a :class:`Step`. ``options``: sorted (name, value) pairs. ``seating``: seats
        clockwise, the first player first (turn order). ``queue``: table operations the game waits for.
        ``turn``: turns begun; ``acting``: the acting Methuselah (-1 before play); ``phase``: the
        acting Methuselah's :class:`Phase` (``Phase.NONE`` outside play). ``edge``: seat holding the
        Edge, -1 for nobody. ``transfers``: transfers left in this influence phase. ``master_actions``:
        master phase actions used this master phase, less those a card in play gave (The Parthenon). ``acts``: acts
        applied so far (their numbers start at 1); ``answers``: those of them that answer what the
        table waits for (every act but a change by hand and a claim's answer: claims.ANSWERS_NOTHING,
        PROTOCOL.md 6.5). ``time_calls``: seats that called time;
        ``time_called``: the game ends at the end of the current minion action or phase. ``outs``: who
        left, in order. ``end``: why the game ended (:class:`End`; ``End.NONE`` while it runs).
        ``last``: the seat that gained the last-Methuselah VP, or -1. ``abandons``: seats recorded as
        having abandoned. ``windows``: the open windows of play, outer to inner (an :class:`Action`, a
    :class:`Combat`, a :class:`Referendum`); ``done``:
        the actions announced this turn; ``recruited``: allies recruited this turn (they do not act
        until the next); ``claims``: changes recorded by hand to other Methuselahs' things
        (:class:`Claim`); ``clock``: the table's time, the latest signed time of an act folded
        (ms; never goes back); ``actions_taken``, ``blocks``: actions announced and blocked in the game;
        ``combats``, ``referendums``: how many the game has had; ``contests``: the contests under
        way (:class:`Contests`); ``used``: cards in play whose once-a-turn ability was used this
        turn (a Blood Doll's, a Vessel's blood moved); ``ashed``: the cards that went to an ash heap
        this turn, in that order (a cause may name them: :mod:`engine.games.vtes.causes`); ``limited``: the cards
        played whose printed limit still lasts (:class:`Limited`).
    """

    seats: int
    options: tuple[tuple[str, OptionValue], ...]
    players: tuple[Methuselah, ...]
    step: Step = Step.JOINING
    seating: tuple[int, ...] = ()
    cards: tuple[CardState, ...] = ()
    events: tuple[DeckShuffle, ...] = ()
    queue: tuple[Op, ...] = ()
    turn: int = 0
    acting: int = -1
    phase: Phase = Phase.NONE
    edge: int = -1
    edge_used: bool = False
    transfers: int = 0
    master_actions: int = 0
    discard_actions: int = 0
    acts: int = 0
    answers: int = 0
    time_calls: tuple[int, ...] = ()
    time_called: bool = False
    outs: tuple[OutRecord, ...] = ()
    end: End = End.NONE
    last: int = -1
    abandons: tuple[int, ...] = ()
    windows: tuple[OpenWindow, ...] = ()
    done: tuple[Done, ...] = ()
    recruited: tuple[Pos, ...] = ()
    claims: tuple[Claim, ...] = ()
    clock: int = 0
    actions_taken: int = 0
    blocks: int = 0
    combats: int = 0
    referendums: int = 0
    used: tuple[Pos, ...] = ()
    contests: Contests = NO_CONTESTS
    ashed: tuple[Pos, ...] = ()
    limited: tuple[Limited, ...] = ()

    def option(self, name: str) -> OptionValue:
        """The value of table option ``name``. Raises KeyError for a name the game has not."""
        return option_value(self.options, name)

    @property
    def ruleset(self) -> Ruleset:
        """Table option ``ruleset``."""
        return ruleset_of(self.options)

    @property
    def library_size_rule(self) -> bool:
        """Table option ``library_size``: libraries must hold 60 to 90 cards."""
        value = self.option("library_size")
        assert type(value) is bool, f"option library_size holds {value!r}"  # parse_options typed it
        return value

    @property
    def tournament(self) -> bool:
        """True when the table plays the tournament rules."""
        return self.ruleset == Ruleset.TOURNAMENT

    def in_game(self) -> tuple[int, ...]:
        """Seats still in the game, in seating order (turn order from the first player)."""
        return in_game(self.seating, self.players)

    def prey(self, seat: int) -> int:
        """The next Methuselah to ``seat``'s left still in the game (-1 if none)."""
        return neighbour(self.seating, self.players, seat, 1)

    def predator(self, seat: int) -> int:
        """The next Methuselah to ``seat``'s right still in the game (-1 if none)."""
        return neighbour(self.seating, self.players, seat, -1)


def option_value(options: tuple[tuple[str, OptionValue], ...], name: str) -> OptionValue:
    """The value of option ``name`` among sorted ``(name, value)`` pairs. Raises KeyError."""
    for key, value in options:
        if key == name:
            return value
    raise KeyError(name)


def ruleset_of(options: tuple[tuple[str, OptionValue], ...]) -> Ruleset:
    """Table option ``ruleset`` among sorted ``(name, value)`` pairs."""
    value = option_value(options, "ruleset")
    assert isinstance(value, str), f"option ruleset holds {value!r}"  # parse_options typed it
    return Ruleset(value)


def in_game(seating: tuple[int, ...], players: Sequence[Methuselah]) -> tuple[int, ...]:
    """Seats still in the game, in seating order."""
    return tuple(s for s in seating if players[s].status == Status.IN)


def neighbour(seating: tuple[int, ...], players: Sequence[Methuselah], seat: int, step: int) -> int:
    """The next seat still in the game from ``seat``, ``step`` = 1 to its left (prey), -1 to its
    right (predator); -1 if none."""
    if seat not in seating:
        return -1
    i = seating.index(seat)
    n = len(seating)
    for k in range(1, n):
        other = seating[(i + step * k) % n]
        if other != seat and players[other].status == Status.IN:
            return other
    return -1


class Placed(Protocol):
    """A card where it lies, as a state (:class:`CardState`) or a view holds it."""

    @property
    def pos(self) -> Pos: ...
    @property
    def controller(self) -> int: ...
    @property
    def zone(self) -> Zone: ...


class _Minion(Placed, Protocol):
    @property
    def crypt(self) -> bool: ...
    @property
    def locked(self) -> bool: ...
    @property
    def counters(self) -> int: ...


def hunts_due(cards: Iterable[_Minion], seat: int) -> list[Pos]:
    """``seat``'s ready unlocked vampires with no blood among ``cards`` (a state's cards or a
    view's), in position order: each must hunt (shared/rules/vtes-actions.md 2.2)."""
    return sorted(
        c.pos
        for c in cards
        if c.controller == seat and c.zone == Zone.READY and c.crypt and not c.locked and c.counters == 0
    )


def clockwise_after(seat: int, seats: Sequence[int]) -> list[int]:
    """The seats of ``seats`` (clockwise) after ``seat``, starting at its left and ending at its
    right; all of them when ``seat`` is not among them."""
    order = list(seats)
    if seat not in order:
        return order
    i = order.index(seat)
    return order[i + 1 :] + order[:i]


def format_vp(halves: int) -> str:
    """VP in half-points as players write them: 0, 0.5, 1, 1.5, …"""
    whole, half = divmod(halves, 2)
    return f"{whole}.5" if half else f"{whole}"
