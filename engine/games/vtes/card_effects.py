"""What a card's text does, as data: a small vocabulary of effects (:class:`Effect`), read from
the text's sentences by :mod:`engine.games.vtes.card_sentences`, for the card record
(:mod:`engine.games.vtes.card_record`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EffectKind(StrEnum):
    """The kinds of effect the table knows (shared/rules/vtes-actions.md §4–§7 for their windows)."""

    STEALTH = "stealth"
    INTERCEPT = "intercept"
    """``amount`` added to a block attempt; ``whom`` ``"titled"``: only when the acting minion is
    titled ("with an additional +1 intercept if the acting minion is titled")."""
    BLEED = "bleed"
    """``amount`` added to a bleed; ``whom`` a clan (lower case): only when the vampire playing
    the card is of that clan ("with an additional +1 bleed if this vampire is Toreador"); ``whom``
    :data:`POOR` with ``least`` N: only when the bleed's target has N or fewer pool ("+3 bleed if
    the target Methuselah has 9 or fewer pool")."""
    VOTES = "votes"
    STRIKE = "strike"
    """Strike damage: ``amount`` points, ``ranged``, ``aggravated``, ``hand`` (added to the hand
    strike, or strength; ``whom`` :data:`HAND_STRIKE`: a strike of the card's own, "Strike: hand
    strike at +2 damage"), ``first`` strike."""
    PREVENT = "prevent"
    """``amount`` points of the damage the opposing minion's strike inflicts; ``whom``
    :data:`NORMAL_ONLY`: of its non-aggravated damage only; :data:`X_PLUS`: X plus ``amount``, X
    the blood paid; :data:`ALL_STRIKE`: all of the strike's damage; :data:`ALL_ROUND`: all damage
    from the opposing minion's strikes for the rest of the round, ``least`` blood burned for it
    ("Burn 1 blood to prevent all damage from the opposing minion's strikes this round")."""
    DODGE = "dodge"
    MANEUVER = "maneuver"
    """``whom`` ``"long"`` or ``"close"``: only usable to go to that range."""
    PRESS = "press"
    """``whom`` ``"continue"`` or ``"end"``: only usable to continue combat, or to end it (against
    a standing press)."""
    ADDITIONAL_STRIKE = "additional strike"
    END_COMBAT = "end combat"
    ENTER_COMBAT = "enter combat"  # the acting minion and the minion its action names (carried_moves)
    UNLOCK = "unlock"
    """The minion playing the card unlocks; ``whom`` ``"block"``: a locked reacting minion that
    unlocks to attempt to block ("This vampire unlocks and attempts to block"); ``whom``
    ``"success"``: it unlocks as its action succeeds, burning ``amount`` blood ("If the bleed is
    successful, this vampire unlocks")."""
    WAKE = "wake"
    """A locked minion may react and block this action as if unlocked."""
    GAIN_BLOOD = "gain blood"
    """``amount`` blood to the vampire; ``whom`` :data:`QUIET_SUCCESS`: once each turn, to the
    vampire a card in play is on, after it performs a successful action during which no reaction
    card was played (Perfectionist; :func:`engine.games.vtes.lasting.succeeded`)."""
    BURN_BLOOD = "burn blood"
    GAIN_POOL = "gain pool"
    """``amount`` pool to the player; ``whom`` ``"bleed"``: only when the bleed succeeds for 1 or more;
    :data:`THREE_COPIES`: as the player's third copy of the card is put in play, every copy in
    play removed from the game (Ashur Tablets; :func:`engine.games.vtes.lasting.arrived`)."""
    BURN_POOL = "burn pool"
    """``amount`` pool burned; ``whom`` ``"controller"``: by the controller of the card the action
    burns (Rewilding)."""
    GAIN_LIFE = "gain life"
    DRAW = "draw"
    """``amount`` cards drawn; ``whom`` ``"success"``: as the action succeeds, the hand then
    discarded down to its size ("If the bleed is successful, draw two cards (discard afterward)")."""
    CANCEL = "cancel"
    TORPOR = "torpor"
    """A strike that sends the opposing vampire to torpor ("Strike: send the opposing vampire to
    torpor"); ``whom`` ``"ally"``: that burns the opposing ally instead ("Strike: burn the opposing
    ally")."""
    BURN = "burn"
    """``whom`` "": this card burns ("Burn this card"); else the card an action burns as it
    succeeds, of the kinds ``whom`` names (``"equipment"``, ``"location"``, ``"equipment or
    location"``; ``" (predator or prey)"``: controlled by the actor's predator or prey)."""
    ADD_BLOOD = "add blood"
    """``amount`` blood added to a vampire in the player's uncontrolled region (``whom``:
    ``"younger"`` than the acting vampire, a clan's name in lower case, or "" any; ``least``: its
    least capacity), as the action succeeds, or as a master card is played; ``whom`` ``"full"``:
    as much as brings a vampire of the player's (uncontrolled or in play) to its capacity;
    :data:`READY`: to a ready vampire, anyone's ("Add 1 blood to a ready vampire": Life in the
    City)."""
    LOCK = "lock"
    """The minion playing the card locks (a reaction's "Lock this reacting vampire"); ``whom``
    :data:`ALLY_STAYS_LOCKED`: an ally that plays it does not unlock in its next unlock phase."""
    REDUCE_BLEED = "reduce bleed"
    """A bleed against the player is reduced by ``amount`` (a reaction's)."""
    SHIFT_BLOOD = "shift blood"
    """``amount`` blood between the vampire this card is on and its controller's pool, either way,
    once in that controller's phase ``whom`` (``"master"``, ``"unlock"``): a card in play's."""
    MOVE_BLOOD = "move blood"
    """Blood moved from a vampire the player controls to their pool: ``least`` to ``amount``
    points (``amount`` 0: any amount), as the card is played (a master card's); ``whom``
    :data:`EACH`: ``amount`` from each ready vampire the player controls that has it ("Move 1
    blood from each ready vampire you control to your pool": Tribute to the Master)."""
    END_ACTION = "end action"
    """A block attempt that would succeed ends the action instead, unsuccessfully, before combat
    (an action modifier's "The action ends (unsuccessfully)", a reaction's "end the action");
    ``whom`` ``"unlock"``: the acting minion unlocks ("Unlock the acting vampire and end the
    action"; an "Unlock this minion" beside it does the same)."""
    ATTEMPT_BLOCK = "attempt block"
    """The reacting vampire attempts to block the action at once; ``whom``
    :data:`engine.games.vtes.block_readings.ANY_SEAT`: whichever Methuselah controls it (Eagle's
    Sight at superior)."""
    END_IF_BLOCKED = "end if blocked"
    """If the action is blocked, the blocking minion locks and the action ends, unsuccessfully,
    before block resolution (no combat; Mirror Walk at superior): an action modifier's, kept on
    the action (``Action.end_if_blocked``)."""
    NO_REPEAT = "no repeat"
    """The acting minion of an action a card ends cannot perform the same action again this turn
    (the same kind, with the same card or none: Change of Target, Obedience)."""
    BAR_BLOCK = "bar block"
    """Minions that cannot block this action: ``whom`` ``"chosen"``, a vampire the acting
    Methuselah chooses as the action is announced (younger than the acting one where the clause
    says "Choose a younger vampire"); ``"vampires"``: no vampire."""
    FAIL_BLOCK = "fail block"
    """The block attempt under way fails at once, and the blocking minion cannot attempt to block
    this action again; ``amount``: blood the acting minion burns for it ("Burn 1 blood to have that
    attempt fail")."""
    STRENGTH = "strength"
    """The minion playing the card gets a strength of ``amount`` for the rest of the combat ("This
    vampire gets a strength of 2 this combat"): its hand strike deals that much (5.4)."""
    HAND_ONLY = "hand strikes only"
    """Strikes that are not hand strikes cannot be used this round, by either combatant (a
    grapple: "Strikes that are not hand strikes cannot be used this round")."""
    CLOSE_NEXT = "next round close"
    """Another round of this combat is at close range, its determine range step skipped."""
    ENVIRONMENTAL = "environmental damage"
    """The opposing minion takes ``amount`` environmental damage (``ranged``) each round of the
    combat during normal strike resolution (5.5): no strike, so a dodge does not avoid it."""
    DRINK = "drink"
    """At the end of a round: the vampire playing the card gains the blood the opposing vampire
    lost to damage this round ("This vampire gains blood equal to the amount of blood lost by the
    opposing vampire to damage this round")."""
    AGGRAVATE = "aggravated hand strikes"
    """Damage from the playing minion's hand strikes is aggravated this round (``whom``
    ``"round"``) or for the rest of the combat (``"combat"``); ``least``: blood burned for it
    ("Burn 1 blood to make the damage from this vampire's hand strikes aggravated this round")."""
    STEAL = "steal"
    """A strike that steals ``amount`` blood from the opposing vampire, or life from an opposing
    ally that becomes blood on the striker ("Strike, ranged: steal 1 blood or life (becoming
    blood)"); ``ranged``: it works at long range. Stealing is not damage (5.5)."""
    LIBRARY_BURN = "library burn"
    """``amount`` cards burned from the top of the player's library as the card is played, for
    ``least`` pool when that many were burned ("Burn 7 cards from the top of your library to gain
    3 pool": Liquidation; :func:`engine.games.vtes.plays.master_effects`)."""
    CRYPT_DRAW = "crypt draw"
    """``amount`` cards moved from the top of the player's crypt to their uncontrolled region, as
    the card is played ("Move the top card from your crypt to your uncontrolled region")."""
    TERMS = "terms"
    """A political action card's terms, chosen by its caller and applied by the table as its
    referendum passes (:mod:`engine.games.vtes.referendum_terms`)."""
    TRANSFERS = "transfers"
    """``amount`` transfers added to its controller's influence phase while the card is in play
    ("+2 transfers": Information Highway; :mod:`engine.games.vtes.lasting`)."""
    MASTER_ACTION = "master action"
    """``amount`` more master phase actions this master phase, as its controller locks the card
    in play in their master phase ("During your master phase, you can lock this card to get +1
    master phase action": The Parthenon; :func:`engine.games.vtes.lasting.locked`)."""
    EXTRA_COST = "extra cost"
    """While the card is in play, its controller pays ``amount`` more pool to play cards named
    ``whom`` (lower case: "Cards named Minion Tap cost you +1 pool to play"), or with ``whom``
    :data:`ON_THIS`, to play another copy of this card on the vampire it is on ("Villein costs +1
    pool to play on this vampire"; :func:`engine.games.vtes.card_play.printed_cost`)."""
    LOCK_USE = "lock use"
    """Its controller may lock the card in play for ``amount`` of what ``whom`` says:
    :data:`UNCONTROLLED_BLOOD` (blood to a vampire in their uncontrolled region), :data:`READY_BLOOD`
    (blood to a ready vampire they control), both by a ``transfer`` naming the card (``by``);
    :data:`INFLUENCE_BLOOD` (blood to a vampire in their uncontrolled region, once in their
    influence phase and without locking it: "During your influence phase, you can add 1 blood to
    a vampire in your uncontrolled region", Powerbase: Montreal); :data:`BURNED_FOR_BLOOD` (up to
    ``amount`` blood to a ready vampire with no blood, burning the card, in their unlock phase:
    Jake Washington);
    :data:`EDGE_POOL` (pool, by a ``lock`` of the card in their unlock phase while they hold the
    Edge); :data:`DISCARD_DRAW` (a ``discard`` naming the card, ``by``: The Barrens);
    :data:`TURN_HAND_SIZE` (hand size until the end of the turn, by a ``lock`` at any other
    moment). :mod:`engine.games.vtes.lasting` applies them."""
    LOCK_COUNTERS = "lock counters"
    """``amount`` counters added to the card each time its controller locks it ("Add 1 counter to
    this card each time you lock it"); burned with ``least`` counters ("Burn this card if it has 3
    counters")."""
    UNLOCK_BURN = "unlock burn"
    """While the card is in play, ``amount`` pool burned by each Methuselah in their unlock phase
    who controls no ready Anarch (``whom`` :data:`NO_ANARCH`: "A Methuselah not controlling a
    ready Anarch burns 1 pool during their unlock phase", Anarch Revolt;
    :func:`engine.games.vtes.lasting.unlocked`)."""
    TORPOR_BURN = "torpor burn"
    """While the card is on a vampire, its controller burns ``amount`` pool as it goes to torpor
    ("After this vampire goes to torpor, their controller burns 3 pool": Fame;
    :func:`engine.games.vtes.lasting.to_torpor`)."""
    HAND_SIZE = "hand size"
    """``amount`` added to its controller's hand size while the card is in play ("+1 hand size":
    Monastery of Shadows; :func:`engine.games.vtes.lasting.hand_size`)."""
    NO_BLOCK = "no block"
    """The minion the card is on cannot block ("This minion cannot block": Pentex™ Subversion;
    :func:`engine.games.vtes.lasting.barred_from_blocking`)."""
    CARRIED = "carried"
    """While the card is on a minion, that minion gets ``amount`` of ``whom`` (``"intercept"``):
    a retainer's or an equipment's "The employer gets +1 intercept"
    (:mod:`engine.games.vtes.lasting`)."""
    EQUIP_WEAPON = "equip weapon"
    """The playing minion equips with a non-unique weapon card from the hand, its requirements and
    cost as normal, costing under ``least`` pool and whose regular strike is not aggravated and deals
    under ``amount`` damage (Concealed Weapon; :mod:`engine.games.vtes.combat_equip`)."""
    BECOMES_WEAPON = "becomes weapon"
    """The card goes on the playing minion with ``amount`` counters as a melee weapon whose strike
    deals the minion's strength + ``least``; each point of damage that strike inflicts (even if
    prevented) burns a counter, the card burned with none left; one such card a minion (Weighted
    Walking Stick; :mod:`engine.games.vtes.combat_equip`)."""
    RECOIL = "recoil"
    """The striking vampire also takes ``amount`` environmental aggravated damage when the card's
    strike is used at close range (Breath of the Dragon)."""
    AIM = "aim"
    """An aim played as the minion chooses a strike: if any damage from that strike is inflicted
    on the opposing minion, it takes ``amount`` more from the strike and cannot press this round
    (Target Vitals; :mod:`engine.games.vtes.aims`)."""
    DISCIPLINE = "discipline"
    """While the card is on a vampire, that vampire has one level more of the Discipline ``whom``
    (krcg's lower-case abbreviation): none becomes inferior, inferior superior ("This vampire gets
    +1 level of Dominate [dom]": the Discipline master cards; :mod:`engine.games.vtes.standing`)."""
    CAPACITY = "capacity"
    """While the card is on a vampire, that vampire's capacity is ``amount`` more ("+1 capacity";
    :mod:`engine.games.vtes.standing`)."""
    RECOVER = "recover"
    """As the card's pool is gained on three copies (:data:`THREE_COPIES`), up to ``amount``
    library cards chosen from the player's ash heap: one to the hand, the others shuffled into
    the library (Ashur Tablets: the ``play`` act's ``ash_hand`` and ``ash_library``;
    :func:`engine.games.vtes.lasting.arrived`)."""
    TO_PREDATOR = "to predator"
    """During its controller's discard phase, their predator takes control of the card in play
    ("During your discard phase, your predator takes control of The Coven": applied as that turn
    ends, :func:`engine.games.vtes.lasting.turn_ended`)."""
    BURN_VOTE = "burn vote"
    """A vampire may call a referendum to burn the card in play, as a political action at +``amount``
    stealth ("Vampires can call a referendum to burn this card as a +1 stealth political action":
    Anarch Revolt); ``whom``: the sect (``"camarilla"``, ``"sabbat"``) or ``"titled"`` the vampire
    must be, "" any (:mod:`engine.games.vtes.card_actions`)."""
    BURN_ACTION = "burn action"
    """Minions may burn the card in play by a directed action against its controller ("Other
    minions can burn this card as a Ⓓ action": Pentex™ Subversion): ``whom`` who may take it
    (:data:`engine.games.vtes.card_actions.TAKERS`), ``amount`` its stealth
    (:mod:`engine.games.vtes.card_actions`)."""
    STEAL_ACTION = "steal action"
    """Minions may take control of the card in play by a directed action against its controller
    ("Vampires can steal this location as a Ⓓ action": Powerbase: Montreal); ``whom`` and
    ``amount`` as :attr:`BURN_ACTION`'s."""
    REDIRECT = "redirect"
    """The bleed's target changes to a Methuselah the player chooses (``whom``: "" another than
    the acting minion's controller; ``"predator's predator"``: that Methuselah); blocking reopens."""


STRIKES = frozenset({EffectKind.STRIKE, EffectKind.DODGE, EffectKind.END_COMBAT, EffectKind.TORPOR, EffectKind.STEAL})
"""The effects that are a strike of a card's own (5.4), read by :mod:`engine.games.vtes.readings`."""
UNCONTROLLED_BLOOD = "uncontrolled blood"
"""The ``whom`` of a card locked to add blood to a vampire in its controller's uncontrolled region."""
INFLUENCE_BLOOD = "influence blood"
"""The ``whom`` of a card used once in its controller's influence phase to add blood to a vampire
in their uncontrolled region (it does not lock)."""
BURNED_FOR_BLOOD = "burned for blood"
"""The ``whom`` of a card burned in its controller's unlock phase to add blood to a ready vampire
with no blood."""
READY_BLOOD = "ready blood"
"""The ``whom`` of a card locked to add blood to a ready vampire its controller controls."""
DISCARD_DRAW = "discard and draw"
"""The ``whom`` of a card locked to discard a card from the hand and draw up afterward."""
TURN_HAND_SIZE = "hand size this turn"
"""The ``whom`` of a card locked for hand size until the end of the turn."""
EDGE_POOL = "edge pool"
"""The ``whom`` of a card locked in its controller's unlock phase for pool while they hold the Edge."""
NO_ANARCH = "no ready anarch"
"""The ``whom`` of a pool burn in the unlock phase of a Methuselah controlling no ready Anarch."""
IN_TORPOR = "in torpor"
"""The ``whom`` of a pool burn in each Methuselah's unlock phase while the vampire the card is on
is in torpor (Fame)."""
QUIET_SUCCESS = "after a successful action with no reaction"
"""The ``whom`` of blood gained once a turn after a successful action with no reaction played."""
EACH = "each ready vampire"
"""The ``whom`` of blood moved from each ready vampire the player controls."""
READY = "ready"
"""The ``whom`` of blood added to a ready vampire, anyone's."""
ANOTHER = "another vampire"
"""The ``whom`` of blood an action card adds to another ready vampire than the acting one,
anyone's ("Add 4 blood to another vampire": Fifth Tradition: Hospitality)."""
ON_THIS = "on this vampire"
"""The ``whom`` of an extra cost to play another copy of the card on the vampire it is on."""
YOUNGER_OR_ALLY = "allies and younger vampires"
"""The ``whom`` of an action modifier's negative intercept that every blocker of the action that is
an ally or a vampire younger than the acting one gets, for the rest of the action (Perfect Paragon
at superior; the state's ``Action.weaken``)."""
PER_BLOOD = "per blood paid"
"""The ``whom`` of votes that grow with the X blood paid for the card: ``least`` votes per blood,
``amount`` added to them ("+2X+1 votes": Awe; :mod:`engine.games.vtes.x_votes`)."""
THREE_COPIES = "three copies"
"""The ``whom`` of pool gained as a Methuselah controls three copies of the card, which leave the game."""
HAND_STRIKE = "hand strike"
"""The ``whom`` of a combat card's strike at the striker's strength plus ``amount``."""
AFTER_STRIKE = "after this strike"
"""The ``whom`` of a combat card's "combat ends immediately after the resolution of this strike"
(Anesthetic Touch): the strike resolves, then combat ends."""
ALLY_STAYS_LOCKED = "ally: next unlock phase"
"""The ``whom`` of a lock that keeps an ally playing the card locked through its next unlock phase
("If this minion is an ally, they do not unlock as normal during their next unlock phase")."""
ANY_MINION = "a minion"
"""The ``whom`` of a lock of any ready unlocked minion the player chooses as a master card is played
("Lock a minion": Misdirection; :mod:`engine.games.vtes.master_locks`)."""
POOR = "target pool"
"""The ``whom`` of a bleed only when its target has ``least`` or fewer pool."""
FAILED_BLOCKERS = "failed blockers"
"""The ``whom`` of a lock of the minions whose attempt to block the action fails, before it
resolves ("minions who attempt to block this action and fail become locked before action
resolution")."""
UNLESS_BLOCKS = "unless it blocks"
"""The ``whom`` of blood a woken minion burns before the action resolves unless it blocks it ("If
they do not block this action, they burn 1 blood before action resolution")."""
ON_BLOCK = "on its block"
"""The ``whom`` of an intercept a reaction's unlocked minion attempts to block with at once ("burns 1
blood to unlock and attempt to block with +2 intercept, even if intercept is not yet needed")."""
X_PLUS = "x+"
"""The ``whom`` of a prevention of X plus its ``amount``, X the blood paid ("Prevent X+1 damage")."""
ALL_STRIKE = "all of the strike"
"""The ``whom`` of a prevention of all the damage of the opposing strike."""
ALL_ROUND = "all this round"
"""The ``whom`` of a prevention of all damage from the opposing strikes for the rest of the round."""
NORMAL_ONLY = "non-aggravated"
"""The ``whom`` of a prevention of non-aggravated damage only ("Prevent 2 non-aggravated damage")."""
ALLIES_VS_VAMPIRES = "allies against vampires"  # whom: intercept an event gives allies blocking vampires


@dataclass(frozen=True)
class Effect:
    """One effect of a card: its ``kind`` and ``amount`` (points, cards, votes; 0 where the kind
    has none); for a strike, ``ranged``, ``aggravated``, ``hand`` and ``first``; ``optional``: the
    player may forgo it ("with 1 optional press"); ``limited``: a "+bleed (limited)" (4.6);
    ``whom``: who or what it goes to, as its kind says; ``least``: the fewest points of a range
    ("move 2 to 5 blood")."""

    kind: EffectKind
    amount: int = 0
    ranged: bool = False
    aggravated: bool = False
    hand: bool = False
    first: bool = False
    optional: bool = False
    limited: bool = False
    whom: str = ""
    least: int = 0

    def words(self) -> str:
        """The effect in a player's words (``"+1 stealth"``, ``"strike: 2R damage"``)."""
        match self.kind:
            case EffectKind.TRANSFERS:
                return f"+{self.amount} transfers in your influence phase while in play"
            case EffectKind.MASTER_ACTION:
                return f"lock it in your master phase: +{self.amount} master phase action"
            case EffectKind.EXTRA_COST if self.whom == ON_THIS:
                return f"another copy costs +{self.amount} pool to play on this vampire"
            case EffectKind.EXTRA_COST:
                return f"cards named {self.whom.title()} cost you +{self.amount} pool to play"
            case EffectKind.LOCK_USE:
                return {
                    UNCONTROLLED_BLOOD: f"lock it: add {self.amount} blood to a vampire in your uncontrolled region",
                    READY_BLOOD: f"lock it: add {self.amount} blood to a ready vampire you control",
                    EDGE_POOL: f"lock it in your unlock phase: gain {self.amount} pool if you have the Edge",
                    TURN_HAND_SIZE: f"lock it: +{self.amount} hand size until the end of the turn",
                    DISCARD_DRAW: "lock it: discard a card (draw up afterward)",
                    INFLUENCE_BLOOD: f"in your influence phase: add {self.amount} blood to a vampire in your "
                    "uncontrolled region",
                    BURNED_FOR_BLOOD: f"burn it in your unlock phase: add up to {self.amount} blood to a ready "
                    "vampire with no blood",
                }.get(self.whom, f"lock it: {self.whom}")
            case EffectKind.LOCK_COUNTERS if self.least:
                return f"burned with {self.least} counters"
            case EffectKind.LOCK_COUNTERS:
                return f"+{self.amount} counter each time you lock it"
            case EffectKind.UNLOCK_BURN if self.whom == IN_TORPOR:
                return f"each Methuselah burns {self.amount} pool in their unlock phase while this vampire is in torpor"
            case EffectKind.UNLOCK_BURN:
                return f"in play: a Methuselah with no ready Anarch burns {self.amount} pool in their unlock phase"
            case EffectKind.TORPOR_BURN:
                return f"its controller burns {self.amount} pool as this vampire goes to torpor"
            case EffectKind.HAND_SIZE:
                return f"+{self.amount} hand size while in play"
            case EffectKind.NO_BLOCK:
                return "the minion it is on cannot block"
            case EffectKind.GAIN_BLOOD if self.whom == QUIET_SUCCESS:
                return f"once each turn: +{self.amount} blood after a successful action with no reaction played"
            case EffectKind.CARRIED if self.whom == ALLIES_VS_VAMPIRES:
                return f"allies get +{self.amount} intercept against vampires"
            case EffectKind.CARRIED:
                return f"the minion it is on gets +{self.amount} {self.whom}"
            case EffectKind.INTERCEPT if self.whom.endswith(", for blood"):  # blood_intercept's
                return f"{self.whom.removesuffix(', for blood')}, burn {self.least} blood for +{self.amount} intercept"
            case EffectKind.INTERCEPT if self.whom == YOUNGER_OR_ALLY:
                return f"allies and younger vampires get {self.amount} intercept this action"
            case EffectKind.VOTES if self.whom == PER_BLOOD:
                per = f"{self.least}X" if self.least != 1 else "X"
                return f"this vampire gets +{per}+{self.amount} votes, X the blood paid"
            case EffectKind.STEALTH | EffectKind.INTERCEPT | EffectKind.BLEED | EffectKind.VOTES:
                match self.whom:
                    case "":
                        only = ""
                    case "titled":
                        only = " if the acting minion is titled"
                    case "on its block":
                        only = " on the block attempt it makes at once"
                    case "target pool":
                        only = f" if the target Methuselah has {self.least} or fewer pool"
                    case clan:
                        only = f" if this vampire is {clan.title()}"
                return f"{self.amount:+d} {self.kind}{only}" + (" (limited)" if self.limited else "")
            case EffectKind.STRIKE if self.hand and self.aggravated:
                return "hand strike, aggravated" + (f" +{self.amount} damage" if self.amount else "")
            case EffectKind.STRIKE if self.hand:
                first = " (first strike)" if self.first else ""
                return (f"hand strike +{self.amount} damage" if self.amount else "strike: hand strike") + first
            case EffectKind.STRIKE:
                kind = "R" if self.ranged else ""
                agg = " aggravated" if self.aggravated else ""
                return f"strike: {self.amount}{kind}{agg} damage" + (" (first strike)" if self.first else "")
            case EffectKind.PREVENT if self.whom == X_PLUS:
                return f"prevent X+{self.amount} damage for X blood"
            case EffectKind.PREVENT if self.whom == ALL_STRIKE:
                return "prevent all damage from the opposing strike"
            case EffectKind.PREVENT if self.whom == ALL_ROUND:
                paid = f"burn {self.least} blood to " if self.least else ""
                return f"{paid}prevent all damage from the opposing strikes this round"
            case EffectKind.PREVENT:
                return f"prevent {self.amount} {self.whom + ' ' if self.whom else ''}damage"
            case EffectKind.DODGE:
                return "strike: dodge"
            case EffectKind.STEAL:
                return f"strike: steal {self.amount}{'R' if self.ranged else ''} blood or life"
            case EffectKind.TORPOR:
                return "strike: burn the opposing ally" if self.whom == "ally" else "strike: opposing vampire to torpor"
            case EffectKind.END_COMBAT if self.whom == AFTER_STRIKE:
                return "combat ends after this strike resolves"
            case EffectKind.END_COMBAT:
                return "strike: combat ends"
            case EffectKind.MANEUVER | EffectKind.PRESS:
                goal = f"go to {self.whom} range" if self.kind == EffectKind.MANEUVER else f"{self.whom} combat"
                only = f", only usable to {goal}" if self.whom in ("long", "close", "continue", "end") else self.whom
                only = f" {only}" if only and not only.startswith(",") else only
                return ("optional " if self.optional else "") + str(self.kind) + only
            case EffectKind.LOCK if self.whom == FAILED_BLOCKERS:
                return "minions whose block attempt fails lock before the action resolves"
            case EffectKind.BURN_BLOOD if self.whom == UNLESS_BLOCKS:
                return f"burn {self.amount} blood before the action resolves, unless this minion blocks it"
            case EffectKind.LOCK if self.whom == ANY_MINION:
                return "lock a minion"
            case EffectKind.LOCK if self.whom == ALLY_STAYS_LOCKED:
                return "an ally playing it does not unlock in its next unlock phase"
            case EffectKind.LOCK:
                return "lock this minion" + (f", {self.whom}" if self.whom else "")
            case EffectKind.ADDITIONAL_STRIKE:
                many = "s" if self.amount != 1 else ""
                return f"{self.amount} additional strike{many}" + (" (limited)" if self.limited else "")
            case EffectKind.UNLOCK if self.whom == "block":
                return "unlock and attempt to block" + (f", burning {self.amount} blood" if self.amount else "")
            case EffectKind.DRAW if self.whom == "success":
                return f"draw {self.amount} if the action succeeds (discard afterward)"
            case EffectKind.UNLOCK if self.whom == "success":
                return "unlock if the action succeeds" + (f", burning {self.amount} blood" if self.amount else "")
            case EffectKind.WAKE:
                return "wake: this locked minion may react and block"
            case EffectKind.ADD_BLOOD if self.whom == READY:
                return f"add {self.amount} blood to a ready vampire"
            case EffectKind.ADD_BLOOD if self.whom == ANOTHER:
                return f"add {self.amount} blood to another ready vampire if the action succeeds"
            case EffectKind.MOVE_BLOOD if self.whom == EACH:
                return f"move {self.amount} blood from each ready vampire you control to your pool"
            case EffectKind.LIBRARY_BURN:
                return f"burn {self.amount} cards from the top of your library to gain {self.least} pool"
            case EffectKind.CRYPT_DRAW:
                return f"move the top {'card' if self.amount == 1 else f'{self.amount} cards'} of your crypt to your uncontrolled region"
            case EffectKind.ADD_BLOOD if self.whom == "full":
                return "a vampire of yours gains blood to its capacity"
            case EffectKind.ADD_BLOOD:
                who = "younger vampire" if self.whom == "younger" else self.whom or "vampire"
                cap = f" with capacity {self.least} or more" if self.least else ""
                return f"add {self.amount} blood to a {who} in your uncontrolled region{cap}"
            case EffectKind.REDUCE_BLEED:
                return f"reduce a bleed against you by {self.amount}"
            case EffectKind.END_ACTION:
                return "the action ends, unsuccessfully" + (", the acting minion unlocking" if self.whom else "")
            case EffectKind.ATTEMPT_BLOCK:
                return "this vampire attempts to block, whoever may block by default"
            case EffectKind.END_IF_BLOCKED:
                return "if this action is blocked, the blocker locks and the action ends before block resolution"
            case EffectKind.NO_REPEAT:
                return f"{self.whom or 'the acting minion'} cannot perform the same action again this turn"
            case EffectKind.BAR_BLOCK:
                return (
                    "vampires cannot block this action"
                    if self.whom == "vampires"
                    else "the chosen vampire cannot block"
                )
            case EffectKind.FAIL_BLOCK:
                paid = f"burn {self.amount} blood: " if self.amount else ""
                return f"{paid}the block attempt fails, and that minion cannot block this action again"
            case EffectKind.SHIFT_BLOOD:
                return f"in your {self.whom} phase: move {self.amount} blood between this vampire and your pool"
            case EffectKind.MOVE_BLOOD:
                much = f"{self.least} to {self.amount}" if self.least else str(self.amount or "any amount of")
                return f"move {much} blood from a vampire you control to your pool"
            case EffectKind.BURN if self.whom.startswith("the "):  # a named minion ("the acting minion")
                return f"burn {self.whom}"
            case EffectKind.BURN if self.whom:
                kinds, _, near = self.whom.partition(" (")
                article = "an" if kinds.startswith("e") else "a"
                whose = f" of your {near.rstrip(')')}" if near else ""
                return f"burn {article} {kinds}{whose} as the action succeeds"
            case EffectKind.GAIN_POOL if self.whom == THREE_COPIES:
                return f"with three copies in play: remove every copy from the game and gain {self.amount} pool"
            case EffectKind.BURN_POOL if self.whom == "controller":
                return f"its controller burns {self.amount} pool"
            case EffectKind.TERMS:
                return "referendum terms, applied if it passes"
            case EffectKind.STRENGTH:
                return f"strength {self.amount} this combat"
            case EffectKind.HAND_ONLY:
                return "only hand strikes this round"
            case EffectKind.CLOSE_NEXT:
                return "another round is at close range"
            case EffectKind.ENVIRONMENTAL:
                return f"the opposing minion takes {self.amount}{'R' if self.ranged else ''} damage each round"
            case EffectKind.AGGRAVATE:
                paid = f"burn {self.least} blood: " if self.least else ""
                return f"{paid}hand strikes aggravated this {self.whom}"
            case EffectKind.DRINK:
                return "gain the blood the opposing vampire lost to damage this round"
            case EffectKind.EQUIP_WEAPON:
                return f"equip with a weapon from your hand (under {self.least} pool, under {self.amount} damage)"
            case EffectKind.BECOMES_WEAPON:
                return (
                    f"goes on this minion with {self.amount} counters as a melee weapon: strike strength+{self.least} "
                    "damage, a counter burned per damage"
                )
            case EffectKind.RECOIL:
                return f"at close range the striker also takes {self.amount} aggravated damage"
            case EffectKind.AIM:
                return f"aim: +{self.amount} damage from this strike if any of it is inflicted, and no press this round"
            case EffectKind.CANCEL if self.whom:
                return f"cancel {self.whom}" + (" as it is played, its cost unpaid" if "card" in self.whom else "")
            case EffectKind.DISCIPLINE:
                return f"the vampire it is on gets +{self.amount} level of [{self.whom}]"
            case EffectKind.CAPACITY:
                return f"the vampire it is on gets +{self.amount} capacity"
            case EffectKind.RECOVER:
                return (
                    f"then up to {self.amount} library cards from your ash heap: one to your hand, "
                    "the others shuffled into your library"
                )
            case EffectKind.BURN_VOTE:
                who = f"{self.whom} vampires" if self.whom else "vampires"
                return f"{who} can call a referendum to burn it as a +{self.amount} stealth political action"
            case EffectKind.TO_PREDATOR:
                return "your predator takes control of it during your discard phase"
            case EffectKind.BURN_ACTION | EffectKind.STEAL_ACTION:
                verb = "burn" if self.kind == EffectKind.BURN_ACTION else "steal"
                stealth = f"+{self.amount} stealth " if self.amount else ""
                return f"{self.whom} can {verb} it as a {stealth}(D) action"
            case EffectKind.REDIRECT:
                return "redirect the bleed" + (f" to your {self.whom}" if self.whom else "")
            case _:
                return f"{self.kind} {self.amount}" if self.amount else self.whom or str(self.kind)


def move_usable(e: Effect, long: bool, press_stands: bool) -> bool:
    """The maneuver or press ``e`` may be made now (5.3, 5.9), at long range (``long``) or close,
    with a press standing (``press_stands``) or not: one "only usable to go to long range" at
    close range, "to get to close range" at long range; "only usable to continue combat" while no
    press stands, "to end combat" against a standing press; any other always."""
    match e.whom:
        case "long" | "close":
            return (e.whom == "long") != long
        case "continue" | "end":
            return (e.whom == "end") == press_stands
    return True
