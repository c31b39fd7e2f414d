"""The words of a VTES table (shared/rules/vtes.md): steps, phases, zones, statuses, act names.

Each is a :class:`~enum.StrEnum`: a member *is* its string, so states, views and acts hold the
same strings as before and encode to the same canonical bytes (the table's digest, the wire and
the logs do not change), while the code compares against members instead of string literals.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum


class Step(StrEnum):
    """Where the game stands (``VtesState.step``)."""

    JOINING = "joining"
    """Every seat declares its deck sizes (a ``deck`` act)."""
    SEATING = "seating"
    """The joint draw of the seating."""
    DEALING = "dealing"
    """Every crypt and library is shuffled; the opening hands and uncontrolled regions are dealt."""
    PLAY = "play"
    """Turns are played."""
    OVER = "over"
    """The game has ended (``VtesState.end`` says how)."""


class Phase(StrEnum):
    """A phase of the acting Methuselah's turn (rules, "Turn sequence"), in order."""

    UNLOCK = "unlock"
    MASTER = "master"
    MINION = "minion"
    INFLUENCE = "influence"
    DISCARD = "discard"
    NONE = ""
    """No turn is under way: before play, and after the game ended."""


PHASES: tuple[Phase, ...] = (Phase.UNLOCK, Phase.MASTER, Phase.MINION, Phase.INFLUENCE, Phase.DISCARD)
"""The five phases of a turn, in order (rules, "Turn sequence")."""


class Zone(StrEnum):
    """Where a card is (``CardState.zone``; rules, "Zones")."""

    LIBRARY = "library"
    CRYPT = "crypt"
    HAND = "hand"
    ASIDE = "aside"
    """Set aside, face up and out of play: the card of an action until it resolves
    (shared/rules/vtes-actions.md 4.1)."""
    UNCONTROLLED = "uncontrolled"
    """A Methuselah's uncontrolled region: face down, its owner may look."""
    READY = "ready"
    TORPOR = "torpor"
    ON = "on"
    """Placed on another card in play (``CardState.on`` says which)."""
    ASH = "ash"
    REMOVED = "removed"
    """Out of the game."""
    CONTESTED = "contested"
    """Turned face down and out of play while another Methuselah controls a copy of the same unique
    card (rulebook, "Contested Cards"): it neither acts, blocks nor votes; its controller keeps it,
    its counters and the cards on it until the contest ends (:mod:`engine.games.vtes.contests`)."""

    @property
    def in_play(self) -> bool:
        """Controlled, public, may be locked and carry counters."""
        return self in IN_PLAY

    @property
    def hidden(self) -> bool:
        """Face down (the uncontrolled region: its owner may look)."""
        return self in HIDDEN


IN_PLAY: frozenset[Zone] = frozenset({Zone.READY, Zone.TORPOR, Zone.ON})
"""Zones of cards in play: controlled, public, may be locked and carry counters."""
HIDDEN: frozenset[Zone] = frozenset({Zone.LIBRARY, Zone.CRYPT, Zone.HAND, Zone.UNCONTROLLED})
"""Zones whose cards are face down (the uncontrolled region: its owner may look)."""


class Target(StrEnum):
    """Where an act may send cards (``to`` of ``move`` and ``play``): a zone, or the bottom of a
    library or crypt."""

    READY = "ready"
    TORPOR = "torpor"
    ASH = "ash"
    REMOVED = "removed"
    HAND = "hand"
    ASIDE = "aside"
    LIBRARY = "library"
    LIBRARY_BOTTOM = "library_bottom"
    CRYPT = "crypt"
    CRYPT_BOTTOM = "crypt_bottom"
    UNCONTROLLED = "uncontrolled"
    ON = "on"

    @property
    def zone(self) -> Zone:
        """The zone the card ends in."""
        return _TARGET_ZONES[self]

    @property
    def bottom(self) -> bool:
        """True for the bottom of a library or crypt (else the top, or not a pile)."""
        return self in (Target.LIBRARY_BOTTOM, Target.CRYPT_BOTTOM)


_TARGET_ZONES: dict[str, Zone] = {t: Zone(t.removesuffix("_bottom")) for t in Target}


MOVE_TARGETS: tuple[Target, ...] = tuple(t for t in Target if t != Target.ASIDE)
"""Where ``move`` may put cards: a zone, the bottom of a library or crypt, or ``"on"`` another card."""

PLAY_TARGETS: tuple[Target, ...] = (Target.ASH, Target.READY, Target.TORPOR, Target.REMOVED, Target.ON)
"""Where a card played from hand goes (default: the ash heap)."""


class DeckPart(StrEnum):
    """The two decks a Methuselah brings (rules, "Setup"): a card's deck, a shuffle event's deck,
    a zone to reshuffle, a card kind in the database."""

    CRYPT = "crypt"
    LIBRARY = "library"

    @property
    def zone(self) -> Zone:
        """The zone that holds this deck."""
        return Zone.CRYPT if self == DeckPart.CRYPT else Zone.LIBRARY


class Status(StrEnum):
    """Whether a Methuselah is in the game, and how it left (``Methuselah.status``)."""

    IN = "in"
    OUSTED = "ousted"
    WITHDRAWN = "withdrawn"
    ABANDONED = "abandoned"


class End(StrEnum):
    """Why the game ended (``VtesState.end``)."""

    NONE = ""
    """It has not."""
    LAST = "last"
    """One Methuselah (or none) is left."""
    TIME = "time"
    """Time-out (tournament rules)."""
    UNSTARTED = "unstarted"
    """A seat abandoned before play started."""


class Ruleset(StrEnum):
    """Table option ``ruleset``."""

    STANDARD = "standard"
    TOURNAMENT = "tournament"
    """4 or 5 seats; withdrawal gives 0.5 VP; a time limit; Game wins."""


class CryptGroups(StrEnum):
    """Table option ``crypt_groups``: whether a crypt must hold vampires of one group or of two
    consecutive groups (VEKN rules; a vampire of group ANY counts as any group)."""

    TOURNAMENT = "tournament"
    """Checked at tournament tables (``ruleset = tournament``) only."""
    ON = "on"
    OFF = "off"


class TransferKind(StrEnum):
    """``kind`` of a ``transfer`` act (rules, "Influence phase")."""

    POOL = "pool"
    """Pool to a vampire of the uncontrolled region, 1 transfer each."""
    BLOOD = "blood"
    """Blood back from such a vampire to pool, 2 transfers each."""
    CRYPT = "crypt"
    """The top crypt card to the uncontrolled region: 4 transfers and 1 pool."""


TRANSFER_COSTS: dict[TransferKind, int] = {TransferKind.POOL: 1, TransferKind.BLOOD: 2, TransferKind.CRYPT: 4}
"""Transfers each kind of transfer costs (``crypt`` also costs 1 pool)."""


class Do(StrEnum):
    """The name (``"do"``) of every VTES act; :data:`engine.games.vtes.acts.ACT_FIELDS` gives each
    one's fields, :data:`engine.games.vtes.act_records.RECORDS` its typed record and
    :mod:`engine.games.vtes` what it does."""

    DECK = "deck"
    PHASE = "phase"
    END_TURN = "end_turn"
    EDGE = "edge"
    BURN_EDGE = "burn_edge"
    """Its holder burns the Edge for a card of theirs whose text says so (it goes back to nobody)."""
    DRAW = "draw"
    PLAY = "play"
    DISCARD = "discard"
    MOVE = "move"
    BURN = "burn"
    LOCK = "lock"
    UNLOCK = "unlock"
    BLOOD = "blood"
    LIFE = "life"
    POOL = "pool"
    COMBAT = "combat"
    INFLUENCE = "influence"
    TRANSFER = "transfer"
    HAND_SIZE = "hand_size"
    SHUFFLE = "shuffle"
    ACTION = "action"
    BLOCK = "block"
    PASS = "pass"
    ADJUST = "adjust"
    ACTION_END = "action_end"
    DISPUTE = "dispute"
    ACCEPT = "accept"
    LAPSE = "lapse"
    RETRACT = "retract"
    DIABLERISE = "diablerise"
    MANEUVER = "maneuver"
    STRIKE = "strike"
    PREVENT = "prevent"
    PRESS = "press"
    TERMS = "terms"
    VOTE = "vote"
    DONE = "done"
    WITHDRAW = "withdraw"
    TIME = "time"
    CONTEST = "contest"
    """Pay the cost of a contest in one's unlock phase (1 pool a card, 1 blood a title)."""
    YIELD = "yield"
    """Yield a contest in one's unlock phase: the card is burned, or the title is lost."""


class ClaimStatus(StrEnum):
    """Where a change recorded by hand to another Methuselah's things stands (docs/vtes-by-hand.md)."""

    PENDING = "pending"
    """Waiting for the touched Methuselahs' answer or its time (a dispute holds it)."""
    TAKEN = "taken"
    """It took effect (accepted, or its time ran out undisputed)."""
    RETRACTED = "retracted"
    """Its author took it back: it never takes effect."""
    VOID = "void"
    """When it could take effect, the table no longer allowed it (a card moved meanwhile)."""


class ActionKind(StrEnum):
    """What a minion action is (shared/rules/vtes-actions.md 3; P2: the announcer declares it, as
    the engine reads no card text). It decides the default stealth, cost, targets and what a
    successful action does (P4)."""

    BLEED = "bleed"
    HUNT = "hunt"
    EQUIP = "equip"
    EMPLOY = "employ"
    """Employ a retainer."""
    RECRUIT = "recruit"
    """Recruit an ally."""
    POLITICAL = "political"
    LEAVE_TORPOR = "leave_torpor"
    RESCUE = "rescue"
    DIABLERISE = "diablerise"
    OTHER = "other"
    """A card's action (from hand or in play) that is none of the above."""


ACTION_VERBS: dict[ActionKind, str] = {
    ActionKind.BLEED: "bleeds",
    ActionKind.HUNT: "hunts",
    ActionKind.EQUIP: "equips",
    ActionKind.EMPLOY: "employs a retainer",
    ActionKind.RECRUIT: "recruits an ally",
    ActionKind.POLITICAL: "takes a political action",
    ActionKind.LEAVE_TORPOR: "leaves torpor",
    ActionKind.RESCUE: "rescues",
    ActionKind.DIABLERISE: "diablerises",
    ActionKind.OTHER: "takes an action",
}
"""What a minion does in each kind of action, in a player's words ("bleeds")."""


def action_phrase(
    kind: ActionKind,
    actor: str,
    minion: str,
    targets: Sequence[str] = (),
    *,
    target_card: str | None = None,
    amount: int | None = None,
    card: str | None = None,
) -> str:
    """An action in words, the one wording the notes, the narration and the screens share
    (shared/rules/vtes-actions.md 4): ``"Ana's Lucia bleeds Ben for 2 with Govern the Unaligned"``.

    ``actor`` is the acting Methuselah's possessive (``"Ana's"``, ``"Your"``), ``minion`` the
    acting minion's name, ``targets`` the targeted Methuselahs' names (a bleed names its one
    target), ``target_card`` the card acted on (the vampire rescued, the equipment taken),
    ``amount`` a bleed's or hunt's amount (None: not yet known), ``card`` the action card."""
    text = f"{actor} {minion} {ACTION_VERBS.get(kind, 'acts')}"
    if kind == ActionKind.BLEED:
        text += f" {targets[0]}" if targets else ""
    elif target_card:
        text += f" against {target_card}" if kind == ActionKind.OTHER else f" {target_card}"
    elif targets:
        text += " against " + " and ".join(targets)
    if kind in (ActionKind.BLEED, ActionKind.HUNT) and amount is not None:
        text += f" for {amount}"
    if card:
        text += f" with {card}"
    return text


class LimitScope(StrEnum):
    """How long a card's printed limit on its plays lasts ("A vampire can play only one Soak each
    round"): the words that close the sentence."""

    ACTION = "each action"
    ROUND = "each round"
    COMBAT = "each combat"
    TURN = "each turn"
    UNLOCK = "between their unlock phases"
    """Until the unlock phase of the minion's controller."""
    GAME = "in a game"
    """Never ends ("Only one Giant's Blood can be played in a game")."""


class Replacement(StrEnum):
    """When a card played from hand is replaced (rulebook, "Hand size": at once, unless its text
    says "Do not replace until …"): the words that close that sentence."""

    NOW = ""
    AFTER_ACTION = "after this action"
    AFTER_COMBAT = "after combat"
    UNLOCK = "your next unlock phase"
    DISCARD = "your next discard phase"
    AFTER_TURN = "after the current turn"


class Outcome(StrEnum):
    """How an action announced this turn ended (rulebook, "Action Resolution"): an action card
    "only usable after resolution of a successful action" reads it."""

    UNDER_WAY = ""
    """Not resolved yet (or ended by a card, or its minion gone)."""
    SUCCESSFUL = "successful"
    BLOCKED = "blocked"


class Window(StrEnum):
    """The window of an open action (shared/rules/vtes-actions.md 4.4)."""

    NO_ATTEMPT = "A"
    """A: no block attempt: one who may block may attempt, or pass (declining for the action)."""
    ATTEMPT = "B"
    """B: a block attempt: the target is fixed; all passed → blocked if intercept ≥ stealth."""
    DECLINED = "C"
    """C: every blocker declined; all passed → the action succeeds."""
    DIABLERIE = "D"
    """A blocked leave torpor: the blocking vampire's controller diablerises the actor, or passes
    to decline (the action then fails; 6.2)."""


class Lift(StrEnum):
    """A rule a card named on an act may lift for that act only (shared/rules/vtes-actions.md P9)."""

    TARGET = "target"
    """A bleed at a Methuselah other than the prey."""
    LOCKED = "locked"
    """A locked minion acts or blocks (a wake, an unlock)."""
    ONCE = "once"
    """A per-turn limit: a second bleed, political action or action with one card; a second master
    phase action or discard phase action (a card that gives more)."""
    HUNT = "hunt"
    """A vampire with no blood does not hunt (it is stuck)."""
    TIMING = "timing"
    """A card played outside the window its type is for."""
    STEALTH = "stealth"
    """Stealth or intercept raised when 4.3 does not allow it."""
    NEW_ALLY = "new_ally"
    """An ally recruited this turn acts."""
    REQUIREMENT = "requirement"
    """A card's requirement of the minion playing it: a clan, a Discipline, a title, a capacity."""


class CombatStep(StrEnum):
    """The step a combat round is in (shared/rules/vtes-actions.md 5.2, P5)."""

    BEFORE_RANGE = "before_range"
    RANGE = "range"
    """Maneuvers flip the range (5.3)."""
    BEFORE_STRIKES = "before_strikes"
    STRIKE = "strike"
    """Each combatant chooses its strike, the acting minion first (5.4)."""
    DAMAGE = "damage"
    """The chosen strikes are shown; prevention and other combat cards; then they resolve (5.5, P6)."""
    PRESS = "press"
    END_OF_ROUND = "end_of_round"


class VoteSource(StrEnum):
    """Where a vote in a referendum comes from (shared/rules/vtes-actions.md 7.2, P7)."""

    CALLING = "calling"
    """The political action card that called the referendum: 1 vote to the acting Methuselah."""
    CARD = "card"
    """A political action card burned from hand: 1 vote (its text ignored)."""
    TITLE = "title"
    """A ready titled vampire's votes."""
    EDGE = "edge"
    """The Edge, burned by its holder: 1 vote."""
    OTHER = "other"
    """Another card, with the votes it gives."""
    BALLOT = "ballot"
    """A ready priscus's ballot: the prisci's 3 votes go to the majority of ballots (7.2)."""


class Poll(StrEnum):
    """The step a referendum is in (shared/rules/vtes-actions.md 7.1, P7)."""

    TERMS = "terms"
    """The acting Methuselah records the terms."""
    BEFORE = "before"
    """Cards usable before votes and ballots are cast: an impulse loop."""
    VOTING = "voting"
    """Everyone casts votes in any order and says when done."""


ACTION_TYPES = frozenset({"Action", "Political Action", "Ally", "Equipment", "Retainer"})
"""Card types played as the card of an action (shared/rules/vtes-actions.md §2, "Minion Cards")."""
MODIFIER, REACTION = "Action Modifier", "Reaction"
"""The card types played during an action: by the acting Methuselah, by another (§2)."""

_STEP_WORDS: dict[CombatStep, str] = {
    CombatStep.BEFORE_RANGE: "before range",
    CombatStep.RANGE: "range",
    CombatStep.BEFORE_STRIKES: "before strikes",
    CombatStep.STRIKE: "strikes",
    CombatStep.DAMAGE: "damage",
    CombatStep.PRESS: "press",
    CombatStep.END_OF_ROUND: "end of round",
}


def step_words(step: CombatStep) -> str:
    """A combat step in a player's words ("before range")."""
    return _STEP_WORDS[step]


class News(StrEnum):
    """What a narration line tells a screen that acts on it (:attr:`engine.games.base.Note.news`):
    it reads this word, never the English."""

    PASSED = "passed"
    """A seat passes in a window (rules/vtes-actions.md): a screen may show a run of passes, one
    window's, as one line."""
    PASSED_NO_BLOCK = "passed_no_block"
    """A seat passes in an action's block window and so declines to block (6.2)."""
    REFERENDUM_RESOLVED = "referendum_resolved"
    """A referendum passed or failed (7.3): its result, votes and terms."""
    POLLING_OPENED = "polling_opened"
    """A referendum's polling opens (7.1 step 2)."""
    DONE_VOTING = "done_voting"
    """A seat says it is done voting (7.1); it says so again after every later vote, which a
    screen may show once per referendum."""
    COMBAT_OPENED = "combat_opened"
    """Two minions enter combat: round 1, before range (5.2)."""
