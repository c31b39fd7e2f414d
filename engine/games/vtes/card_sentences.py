"""A card's text read sentence by sentence into the effects of
:mod:`engine.games.vtes.card_effects` (:func:`read_sentence`), for the card record
(:mod:`engine.games.vtes.card_record`).

Card texts are regular enough that most sentences of the cards players play are one of a few shapes
("+1 stealth.", "[pot] Strike: 2 damage.", "Prevent 1 damage.", "+2 bleed (limited)."). A sentence
of such a shape is read as its effects; a sentence that states when or by whom the card is played
("Only usable during a bleed action.", "Requires a prince or justicar.") is a condition, read by the
record as a requirement; any other sentence is left to the players (by hand). Shapes read outside
this module are listed in :mod:`engine.games.vtes.more_readings`. The patterns misread a few cards:
those are corrected by the kept file ``corrections.toml`` (:mod:`engine.games.vtes.card_corrections`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from engine.games.vtes.card_effects import (
    AFTER_STRIKE,
    ALL_ROUND,
    ALL_STRIKE,
    ALLY_STAYS_LOCKED,
    ANOTHER,
    ANY_MINION,
    BURNED_FOR_BLOOD,
    DISCARD_DRAW,
    EACH,
    EDGE_POOL,
    FAILED_BLOCKERS,
    HAND_STRIKE,
    IN_TORPOR,
    INFLUENCE_BLOOD,
    NO_ANARCH,
    NORMAL_ONLY,
    ON_BLOCK,
    ON_THIS,
    POOR,
    QUIET_SUCCESS,
    READY,
    READY_BLOOD,
    TURN_HAND_SIZE,
    UNCONTROLLED_BLOOD,
    UNLESS_BLOCKS,
    X_PLUS,
    Effect,
    EffectKind,
)
from engine.games.vtes.vocab import Replacement


class SentenceKind(StrEnum):
    """How the table reads one sentence of a card's text."""

    EFFECT = "effect"
    """One or more effects of the vocabulary."""
    CONDITION = "condition"
    """When, where or by whom the card is played: a requirement the record reads."""
    BY_HAND = "by hand"
    """Something the table does not apply: the players do."""


@dataclass(frozen=True)
class Reading:
    """One sentence as read: its ``kind``, ``effects`` (for :attr:`SentenceKind.EFFECT`) and the
    ``sentence`` itself."""

    sentence: str
    kind: SentenceKind
    effects: tuple[Effect, ...] = ()


_N = r"(\d+|an?|one|two|three)"
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4}


def _n(text: str) -> int:
    return _NUMBERS.get(text, 0) or int(text)


def _strike(m: re.Match[str]) -> tuple[Effect, ...]:
    amount, ranged, agg, first = m.group("n"), m.group("r"), m.group("agg"), m.group("first")
    out = [Effect(EffectKind.STRIKE, _n(amount), ranged=bool(ranged), aggravated=bool(agg), first=bool(first))]
    out += _optional(m.group("rest") or "")
    return tuple(out)


def _optional(rest: str) -> list[Effect]:
    """The "with 1 optional maneuver/press" tail of a strike or effect."""
    return [Effect(EffectKind(word), 1, optional=True) for word in re.findall(r"(maneuver|press)", rest)]


_E = EffectKind
_TAIL = r"(?P<rest>,? with (?:an|1|one) optional (?:maneuver|press)(?: each combat)?)?"
"""What may follow a strike in its sentence: an optional maneuver or press (anything else, such
as "and put this card on the opposing minion", leaves the sentence to the players)."""
#: Sentence shapes read as effects: a full-sentence pattern (lower case, single spaces, no final
#: period) and what it gives.
_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[Effect, ...]]], ...] = tuple(
    (re.compile(p), f)
    for p, f in (
        (
            r"(?:the acting minion gets )?\+(\d+) stealth( action)?",
            lambda m: (Effect(_E.STEALTH, int(m.group(1))),),
        ),
        (r"(?:this minion gets )?\+(\d+) intercept", lambda m: (Effect(_E.INTERCEPT, int(m.group(1))),)),
        (r"the blocking minion gets -(\d+) intercept", lambda m: (Effect(_E.INTERCEPT, -int(m.group(1))),)),
        (
            r"(?:that attempt fails and|burn (\d+) blood to have that attempt fail;) the blocking minion cannot "
            r"attempt to block this action again",
            lambda m: (Effect(_E.FAIL_BLOCK, int(m.group(1) or 0)),),
        ),
        (
            r"\+(\d+) bleed( \(limited\))?",
            lambda m: (Effect(_E.BLEED, int(m.group(1)), limited=bool(m.group(2))),),
        ),
        (
            r"\+(\d+) bleed if the target methuselah has (\d+) or fewer pool( \(limited\))?",
            lambda m: (Effect(_E.BLEED, int(m.group(1)), limited=bool(m.group(3)), whom=POOR, least=int(m.group(2))),),
        ),
        (
            r"\+(\d+) intercept, with an additional \+(\d+) intercept if the acting minion is titled",
            lambda m: (Effect(_E.INTERCEPT, int(m.group(1))), Effect(_E.INTERCEPT, int(m.group(2)), whom="titled")),
        ),
        (
            r"\+(\d+) bleed, with an additional \+(\d+) bleed if this vampire is (?P<clan>[a-z'-]+)( \(limited\))?",
            lambda m: (
                Effect(_E.BLEED, int(m.group(1)), limited=bool(m.group(4))),
                Effect(_E.BLEED, int(m.group(2)), limited=bool(m.group(4)), whom=m.group("clan")),
            ),
        ),
        (
            r"(?:this (?:vampire|minion) gets )?\+(\d+) votes?( \(limited\))?",
            lambda m: (Effect(_E.VOTES, int(m.group(1))),),
        ),
        (r"\+(\d+) strength(?: this (?:round|combat))?", lambda m: (Effect(_E.STRIKE, int(m.group(1)), hand=True),)),
        (
            r"strike: (?P<first>first strike, )?(?P<n>\d+)(?P<r>r)? (?P<agg>aggravated )?damage"
            r"(?:, only usable at (?:long|close) range)?" + _TAIL,
            _strike,
        ),
        (
            r"strike: (?:hand strike at|strength) \+(\d+)( damage)?" + _TAIL,
            lambda m: (
                Effect(_E.STRIKE, int(m.group(1)), hand=True, whom=HAND_STRIKE),
                *_optional(m.group("rest") or ""),
            ),
        ),
        (r"strike: hand strike", lambda m: (Effect(_E.STRIKE, 0, hand=True, whom=HAND_STRIKE),)),
        (
            r"combat ends immediately after the resolution of this strike",
            lambda m: (Effect(_E.END_COMBAT, whom=AFTER_STRIKE),),
        ),
        (
            r"strike: hand strike, aggravated" + _TAIL,
            lambda m: (
                Effect(_E.STRIKE, 0, aggravated=True, hand=True, whom=HAND_STRIKE),
                *_optional(m.group("rest") or ""),
            ),
        ),
        (
            r"strike(?P<r>, ranged)?: steal (?P<n>\d+) blood or life \(becoming blood\)" + _TAIL,
            lambda m: (
                Effect(_E.STEAL, int(m.group("n")), ranged=bool(m.group("r"))),
                *_optional(m.group("rest") or ""),
            ),
        ),
        (r"strike: dodge" + _TAIL, lambda m: (Effect(_E.DODGE), *_optional(m.group("rest") or ""))),
        (
            r"if this strike is used at close range, this striking vampire also takes (\d+) environmental "
            r"aggravated damage",
            lambda m: (Effect(_E.RECOIL, int(m.group(1)), aggravated=True),),
        ),
        (
            r"strike: dodge, with (\d) additional strikes?( \(limited\))?",
            lambda m: (Effect(_E.DODGE), Effect(_E.ADDITIONAL_STRIKE, int(m.group(1)), limited=bool(m.group(2)))),
        ),
        (r"strike: combat ends", lambda m: (Effect(_E.END_COMBAT),)),
        (r"strike: send the opposing vampire to torpor", lambda m: (Effect(_E.TORPOR),)),
        (r"strike: burn the opposing ally", lambda m: (Effect(_E.TORPOR, whom="ally"),)),
        (r"(?:strike: )?(?:maneuver|(\d|one) maneuvers?)", lambda m: (Effect(_E.MANEUVER, 1),)),
        (r"(?:strike: )?press|(\d|one) press(?:es)?", lambda m: (Effect(_E.PRESS, 1),)),
        (
            r"maneuver, only usable to (?:go|get) to (long|close) range",
            lambda m: (Effect(_E.MANEUVER, 1, whom=m.group(1)),),
        ),
        (r"press, only usable to (continue|end) combat", lambda m: (Effect(_E.PRESS, 1, whom=m.group(1)),)),
        (r"maneuver or press", lambda m: (Effect(_E.MANEUVER, 1, optional=True), Effect(_E.PRESS, 1, optional=True))),
        (
            r"\(d\) bleed(?: any methuselah)?(?: with \+(\d+) bleed)?",
            lambda m: (Effect(_E.BLEED, int(m.group(1) or 0)),),
        ),
        (
            r"(?:with )?(\d|one|an) optional (maneuver|press)",
            lambda m: (Effect(EffectKind(m.group(2)), 1, optional=True),),
        ),
        (
            r"(?:(\d+|an?|one|two|three) )?additional strikes?( \(limited\))?",
            lambda m: (Effect(_E.ADDITIONAL_STRIKE, _n(m.group(1) or "1"), limited=bool(m.group(2))),),
        ),
        (
            r"(?:this (?:vampire|minion) )?(?:can )?prevent (\d+|two|three|four) (?P<normal>non-aggravated )?damage"
            r"(?: this round| from the opposing minion's strike)?" + _TAIL,
            lambda m: (
                Effect(_E.PREVENT, _n(m.group(1)), whom=NORMAL_ONLY if m.group("normal") else ""),
                *_optional(m.group("rest") or ""),
            ),
        ),
        (
            r"prevent x\+(\d+) damage" + _TAIL,
            lambda m: (Effect(_E.PREVENT, int(m.group(1)), whom=X_PLUS), *_optional(m.group("rest") or "")),
        ),
        (
            r"prevent all damage from the (?:opponent's|opposing minion's) strike" + _TAIL,
            lambda m: (Effect(_E.PREVENT, whom=ALL_STRIKE), *_optional(m.group("rest") or "")),
        ),
        (
            r"(?:burn (\d+) blood to )?prevent all damage from the (?:opponent's|opposing minion's) strikes "
            r"(?:for the remainder of )?this round",
            lambda m: (Effect(_E.PREVENT, whom=ALL_ROUND, least=int(m.group(1) or 0)),),
        ),
        (
            r"maneuver,? with (?:1|one|an) optional press",
            lambda m: (Effect(_E.MANEUVER, 1), Effect(_E.PRESS, 1, optional=True)),
        ),
        (r"(?:this minion|this vampire) wakes .*", lambda m: (Effect(_E.WAKE),)),
        (
            r"this vampire burns (\d+) blood to unlock and attempt to block with \+(\d+) intercept, even if "
            r"intercept is not yet needed",
            lambda m: (
                Effect(_E.UNLOCK, int(m.group(1)), whom="block"),
                Effect(_E.INTERCEPT, int(m.group(2)), whom=ON_BLOCK),
            ),
        ),
        (
            r"this (?:vampire|minion|gangrel) unlocks and attempts to block",
            lambda m: (Effect(_E.UNLOCK, whom="block"),),
        ),
        (r"unlock this (?:vampire|minion|reacting vampire)(?: before combat ends)?", lambda m: (Effect(_E.UNLOCK),)),
        (
            r"if the bleed is successful, this (?:vampire|minion) unlocks|unlock this (?:vampire|minion|anarch) "
            r"(?:after action resolution )?if th(?:e bleed|is action) is successful",
            lambda m: (Effect(_E.UNLOCK, whom="success"),),
        ),
        (
            r"after action resolution, if the action was successful, this vampire can burn (\d+) blood to unlock",
            lambda m: (Effect(_E.UNLOCK, int(m.group(1)), whom="success"),),
        ),
        (
            r"if the bleed is successful \(for 1 or more\), add (\d+) blood to a vampire in your uncontrolled region",
            lambda m: (Effect(_E.ADD_BLOOD, int(m.group(1))),),
        ),
        (r"gain (\d+) pool", lambda m: (Effect(_E.GAIN_POOL, int(m.group(1))),)),
        (
            r"gain (\d+) pool if the bleed is successful \(for 1 or more\)",
            lambda m: (Effect(_E.GAIN_POOL, int(m.group(1)), whom="bleed"),),
        ),
        (r"(?:this vampire )?gains? (\d+) blood", lambda m: (Effect(_E.GAIN_BLOOD, int(m.group(1))),)),
        (r"draw (\d+|a|one|two|three) cards?", lambda m: (Effect(_E.DRAW, _n(m.group(1))),)),
        (
            r"if the bleed is successful, draw (\d+|a|one|two|three) cards? \(discard afterward\)",
            lambda m: (Effect(_E.DRAW, _n(m.group(1)), whom="success"),),
        ),
        (r"burn this card", lambda m: (Effect(_E.BURN),)),
        (
            r"\(d\) burn (?:an?|any) (equipment or location|equipment|location)( on a minion controlled by your "
            r"predator or prey)?",
            lambda m: (Effect(_E.BURN, whom=m.group(1) + (" (predator or prey)" if m.group(2) else "")),),
        ),
        (r"burn (\d+) pool from its controller", lambda m: (Effect(_E.BURN_POOL, int(m.group(1)), whom="controller"),)),
        (r"lock this reacting (?:vampire|minion)", lambda m: (Effect(_E.LOCK),)),
        (r"lock a minion", lambda m: (Effect(_E.LOCK, whom=ANY_MINION),)),
        (
            r"minions who attempt to block this action and fail become locked before action resolution",
            lambda m: (Effect(_E.LOCK, whom=FAILED_BLOCKERS),),
        ),
        (
            r"if they do not block this action, they burn (\d+) blood before action resolution",
            lambda m: (Effect(_E.BURN_BLOOD, int(m.group(1)), whom=UNLESS_BLOCKS),),
        ),
        (
            r"if this minion is an ally, they do not unlock as normal during their next unlock phase",
            lambda m: (Effect(_E.LOCK, whom=ALLY_STAYS_LOCKED),),
        ),
        (
            r"add (\d+) blood to an? (?:(?P<younger>younger) vampire|vampire|(?P<clan>[a-z'-]+)) in your uncontrolled region",
            lambda m: (
                Effect(_E.ADD_BLOOD, int(m.group(1)), whom="younger" if m.group("younger") else m.group("clan") or ""),
            ),
        ),
        (
            r"add (\d+) blood to a vampire in your uncontrolled region with capacity (\d+) or more",
            lambda m: (Effect(_E.ADD_BLOOD, int(m.group(1)), least=int(m.group(2))),),
        ),
        (
            r"choose a vampire|choose a younger vampire|choose any vampire|choose a titled vampire or a younger vampire",
            lambda m: (),
        ),
        (r"the action ends \(unsuccessfully\)", lambda m: (Effect(_E.END_ACTION),)),
        (r"unlock the acting vampire and end the action", lambda m: (Effect(_E.END_ACTION, whom="unlock"),)),
        (r"the chosen vampire cannot block this action", lambda m: (Effect(_E.BAR_BLOCK, whom="chosen"),)),
        (r"vampires cannot block this action", lambda m: (Effect(_E.BAR_BLOCK, whom="vampires"),)),
        (
            r"the chosen vampire gains enough blood to reach full capacity",
            lambda m: (Effect(_E.ADD_BLOOD, whom="full"),),
        ),
        (
            r"put this card on a vampire you control who has any amount of blood and move (\d+) to (\d+) blood "
            r"from that vampire to your pool",
            lambda m: (Effect(_E.MOVE_BLOOD, int(m.group(2)), least=int(m.group(1))),),
        ),
        (
            r"during their (master|unlock) phase, this vampire's controller can move (\d+) blood from this "
            r"vampire to their pool or from their pool to this vampire",
            lambda m: (Effect(_E.SHIFT_BLOOD, int(m.group(2)), whom=m.group(1)),),
        ),
        (
            r"allocate (?:\d+|x) points among two or more (?:other )?methuselahs(?:, where x is the number of "
            r"methuselahs in the game)?|successful referendum means each methuselah burns 1 pool for each point "
            r"allocated|choose a methuselah who has more pool than you do and allocate 3 of their pool among 1 or "
            r"more other methuselahs \(including you\)|successful referendum means the pool is distributed as you "
            r"chose|choose a ready younger vampire|successful referendum means each methuselah (?:gains|burns) \d+ "
            r"pool for each (?:locked minion|minion|vampire in torpor|vampire) (?:they|he or she) controls?"
            r"(?: with capacity \d+ or more)?",
            lambda m: (Effect(_E.TERMS),),
        ),
        (
            r"this (?:vampire|minion) gets a strength of (\d+) this combat",
            lambda m: (Effect(_E.STRENGTH, int(m.group(1))),),
        ),
        (
            r"strikes that are not hand strikes cannot be used this round(?: \(by either combatant\))?",
            lambda m: (Effect(_E.HAND_ONLY),),
        ),
        (
            r"if another round of combat occurs, that round is at close range \(skip the determine range step "
            r"for that round\)",
            lambda m: (Effect(_E.CLOSE_NEXT),),
        ),
        (
            r"(?:this combat, the opposing minion takes )?(\d+)(r)? environmental damage(?: each round during normal "
            r"strike resolution)?",
            lambda m: (Effect(_E.ENVIRONMENTAL, int(m.group(1)), ranged=bool(m.group(2))),),
        ),
        (
            r"(?:burn (?P<blood>\d+) blood to make the )?damage from this (?:vampire|gargoyle|minion)'s hand strikes "
            r"(?:is )?aggravated this round",
            lambda m: (Effect(_E.AGGRAVATE, whom="round", least=int(m.group("blood") or 0)),),
        ),
        (
            r"for the remainder of combat, damage from this (?:vampire|gargoyle|minion)'s hand strikes is aggravated",
            lambda m: (Effect(_E.AGGRAVATE, whom="combat"),),
        ),
        (
            r"this vampire gains blood equal to the amount of blood lost by the opposing vampire to damage this round",
            lambda m: (Effect(_E.DRINK),),
        ),
        (r"\+(\d+) transfers?", lambda m: (Effect(_E.TRANSFERS, int(m.group(1))),)),
        (
            r"once each turn, this vampire can gain (\d+) blood after performing a successful action during which no "
            r"reaction cards were played",
            lambda m: (Effect(_E.GAIN_BLOOD, int(m.group(1)), whom=QUIET_SUCCESS),),
        ),
        (r"this minion cannot block", lambda m: (Effect(_E.NO_BLOCK),)),
        (
            r"(?:any )?(?:(camarilla|sabbat|titled) )?vampires? (?:can|may) call a referendum to burn this card as a "
            r"\+(\d) stealth political action",
            lambda m: (Effect(_E.BURN_VOTE, int(m.group(2)), whom=m.group(1) or ""),),
        ),
        (
            r"during your discard phase, your predator takes control of [\w' -]+",
            lambda m: (Effect(_E.TO_PREDATOR),),
        ),
        (
            r"(other minions|minions|vampires controlled by another methuselah|vampires|this vampire) can "
            r"(burn|steal) this (?:card|location) as a (?:\+(\d) stealth )?\(d\) action",
            lambda m: (
                Effect(
                    _E.BURN_ACTION if m.group(2) == "burn" else _E.STEAL_ACTION,
                    int(m.group(3) or 0),
                    whom=m.group(1),
                ),
            ),
        ),
        (
            r"this vampire (?:gets \+1|gains (?:1|one)) level of [\w ]+ \[([a-z]{3})\]( and \+1 capacity)?",
            lambda m: (Effect(_E.DISCIPLINE, 1, whom=m.group(1)),) + ((Effect(_E.CAPACITY, 1),) if m.group(2) else ()),
        ),
        (
            r"capacity increases by (\d+): the vampire is one generation older",
            lambda m: (Effect(_E.CAPACITY, int(m.group(1))),),
        ),
        (r"\+(\d+) hand size", lambda m: (Effect(_E.HAND_SIZE, int(m.group(1))),)),
        (
            r"after this vampire goes to torpor, their controller burns (\d+) pool",
            lambda m: (Effect(_E.TORPOR_BURN, int(m.group(1))),),
        ),
        (
            r"during each methuselah's unlock phase, if this vampire is in torpor, that methuselah burns (\d+) pool",
            lambda m: (Effect(_E.UNLOCK_BURN, int(m.group(1)), whom=IN_TORPOR),),
        ),
        (
            r"a methuselah not controlling a ready anarch burns (\d+) pool during their unlock phase",
            lambda m: (Effect(_E.UNLOCK_BURN, int(m.group(1)), whom=NO_ANARCH),),
        ),
        (
            r"you can lock this card to add (\d+) blood to (?:a vampire in your (?P<u>uncontrolled region)|a ready "
            r"vampire you control)",
            lambda m: (Effect(_E.LOCK_USE, int(m.group(1)), whom=UNCONTROLLED_BLOOD if m.group("u") else READY_BLOOD),),
        ),
        (
            r"during your unlock phase, you can burn [\w' -]+ to add up to (\d+) blood to a ready vampire with no blood",
            lambda m: (Effect(_E.LOCK_USE, int(m.group(1)), whom=BURNED_FOR_BLOOD),),
        ),
        (
            r"during your influence phase, you can add (\d+) blood to a vampire in your uncontrolled region",
            lambda m: (Effect(_E.LOCK_USE, int(m.group(1)), whom=INFLUENCE_BLOOD),),
        ),
        (
            r"you can lock this card to discard a card \(draw up afterward\)",
            lambda m: (Effect(_E.LOCK_USE, 1, whom=DISCARD_DRAW),),
        ),
        (
            r"you can lock this card to get \+(\d+) hand size until the end of the turn",
            lambda m: (Effect(_E.LOCK_USE, int(m.group(1)), whom=TURN_HAND_SIZE),),
        ),
        (
            r"you can lock this card during your unlock phase to gain (\d+) pool if you have the edge",
            lambda m: (Effect(_E.LOCK_USE, int(m.group(1)), whom=EDGE_POOL),),
        ),
        (
            r"add (\d+) counter to this card each time you lock it",
            lambda m: (Effect(_E.LOCK_COUNTERS, int(m.group(1))),),
        ),
        (r"burn this card if it has (\d+) counters", lambda m: (Effect(_E.LOCK_COUNTERS, least=int(m.group(1))),)),
        (r"add (\d+) blood to a ready vampire", lambda m: (Effect(_E.ADD_BLOOD, int(m.group(1)), whom=READY),)),
        (r"add (\d+) blood to another vampire", lambda m: (Effect(_E.ADD_BLOOD, int(m.group(1)), whom=ANOTHER),)),
        (
            r"move (\d+) blood from each ready vampire you control to your pool",
            lambda m: (Effect(_E.MOVE_BLOOD, int(m.group(1)), whom=EACH),),
        ),
        (r"move the top card from your crypt to your uncontrolled region", lambda m: (Effect(_E.CRYPT_DRAW, 1),)),
        (
            r"burn (\d+) cards from the top of your library to gain (\d+) pool",
            lambda m: (Effect(_E.LIBRARY_BURN, int(m.group(1)), least=int(m.group(2))),),
        ),
        (
            r"cards named <([^>]+)> cost you \+(\d+) pool to play",
            lambda m: (Effect(_E.EXTRA_COST, int(m.group(2)), whom=m.group(1)),),
        ),
        (
            r"[\w' -]+ costs \+(\d+) pool to play on this vampire",
            lambda m: (Effect(_E.EXTRA_COST, int(m.group(1)), whom=ON_THIS),),
        ),
        (
            r"during your master phase, you can lock this card to get \+(\d+) master phase actions?",
            lambda m: (Effect(_E.MASTER_ACTION, int(m.group(1))),),
        ),
        (
            r"the (?:employer|bearer) gets \+(\d+) intercept",
            lambda m: (Effect(_E.CARRIED, int(m.group(1)), whom="intercept"),),
        ),
        (r"reduce a bleed against you by (\d+)", lambda m: (Effect(_E.REDUCE_BLEED, int(m.group(1))),)),
        (
            r"move any amount of blood from a vampire you control to your pool",
            lambda m: (Effect(_E.MOVE_BLOOD),),
        ),
        (
            r"change the target of the bleed to (?:another methuselah other than the acting (?:minion|vampire)'s "
            r"controller|"
            r"(?P<whom>your predator's predator))(?: \(that methuselah can attempt to block\))?",
            lambda m: (Effect(_E.REDIRECT, whom="predator's predator" if m.group("whom") else ""),),
        ),
    )
)

#: Sentence openings read as conditions or placements (the record reads them as requirements).
_CONDITIONS = (
    "only usable",
    "usable by",
    "requires ",
    "unique",
    "trifle",
    "out-of-turn",
    "not usable",
    "put this card in play",
    "put this card on ",
    "a vampire can play only one",
    "a minion can play only one",
    "a vampire may play only one",
    "a minion may play only one",
    "a vampire can have only one archetype",
    "only one ",
    "aim",
    "grapple",
    "frenzy",
    "(limited)",
    "weapon",
    "the acting vampire can be the same age or older",
    "cannot be put on a vampire with superior ",
    "cannot be placed on a vampire with superior ",
)


DEFERRED = re.compile(
    r"do not replace until (?:(?P<action>after (?:this|the) action)|(?P<combat>after combat)"
    r"|your (?:next )?(?P<unlock>unlock) phase|your (?:next )?(?P<discard>discard) phase"
    r"|(?P<turn>after the current turn))"
)
"""A condition sentence: the card is not replaced in its player's hand until a moment the table
knows (:func:`replacement`); other moments ("as long as this card is in play") stay by hand."""


def replacement(sentence: str) -> Replacement | None:
    """The moment a "Do not replace until …" sentence names, or None for another sentence."""
    m = DEFERRED.fullmatch(sentence)
    if m is None:
        return None
    said = next(k for k, v in m.groupdict().items() if v)
    return {
        "action": Replacement.AFTER_ACTION,
        "combat": Replacement.AFTER_COMBAT,
        "unlock": Replacement.UNLOCK,
        "discard": Replacement.DISCARD,
        "turn": Replacement.AFTER_TURN,
    }[said]


EXCLUSIVE = re.compile(
    r".+? and (?:cards named )?<(?P<other>[^>]+)> cannot both be played (?:during|on) the same action"
)
"""A condition sentence: this card and the one named cannot both be played during one action."""


def sentences(line: str) -> list[str]:
    """A line of card text cut into sentences (lower case, single spaces, without the final
    period); a parenthesis stays with its sentence."""
    text = " ".join(line.lower().replace("ⓓ", "(d)").split())
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "." and depth == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip().rstrip("."))
    return [s for s in out if s]


def read_sentence(sentence: str) -> Reading:
    """One sentence (as :func:`sentences` gives it) read by the patterns: its effects, a
    condition, or by hand."""
    for pattern, build in _PATTERNS:
        m = pattern.fullmatch(sentence)
        if m is not None:
            return Reading(sentence, SentenceKind.EFFECT, build(m))
    from engine.games.vtes import more_readings  # its readers import the rules, which read the records

    if (effects := more_readings.read(sentence)) is not None:
        return Reading(sentence, SentenceKind.EFFECT, effects)
    if " and " in sentence:  # "+1 stealth and +1 bleed (limited)": each part one of the shapes
        parts = [read_sentence(p) for p in sentence.split(" and ")]
        if all(p.kind == SentenceKind.EFFECT for p in parts):
            return Reading(sentence, SentenceKind.EFFECT, tuple(e for p in parts for e in p.effects))
    if (
        sentence in ("master", "archetype", "discipline", "master: discipline", "boon", "gehenna")
        or sentence.startswith(_CONDITIONS)
        or EXCLUSIVE.fullmatch(sentence)
        or DEFERRED.fullmatch(sentence)
    ):
        return Reading(sentence, SentenceKind.CONDITION)
    return Reading(sentence, SentenceKind.BY_HAND)
