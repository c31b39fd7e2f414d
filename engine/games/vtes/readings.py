"""Readings of combat and political cards for the offers and bots (shared/rules/vtes-actions.md,
§5 and P5).

A combat card's strikes come from its record (:mod:`engine.games.vtes.card_record`): each clause
whose effects hold one strike ("[pot] Strike: 2 damage.", "[CEL] Strike: 3R damage.", "[aus]
Strike: dodge.", "[obf] Only usable at long range. Strike: combat ends.", "[ani] Strike: 1R
damage, with 1 optional maneuver."), with its range condition; a sentence that binds the whole
card to another step ("Only usable at the end of a round.") leaves the card with no strike. A
vampire with a Discipline at superior may play a card at inferior (the rulebook's "Disciplines"),
so an inferior reading serves both levels.

It reads as well the few shapes of political action card a bot can call and apply
(vtes-actions.md 7, P7; :func:`terms_reading`): pool gained or burned per minion each Methuselah
controls, points of pool allocated, a younger vampire banished, pool shifted from a richer
Methuselah, a vampire chosen by each Methuselah; :func:`bot_terms` makes the choices and writes the
terms; the table applies those of the shapes :data:`TABLE_TERMS` as the referendum passes
(:mod:`engine.games.vtes.referendum_terms`), and :func:`terms_acts` the others through the ordinary
``pool``, ``move`` and ``blood`` acts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.games.base import Act, Pos, seat_ref
from engine.games.vtes import clan_terms
from engine.games.vtes.card_effects import AFTER_STRIKE, HAND_STRIKE, STRIKES, EffectKind
from engine.games.vtes.card_record import CardRecord, record
from engine.games.vtes.card_sentences import SentenceKind
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.reaction_conditions import LEVEL_PREFIX, Moment, fitting_levels
from engine.games.vtes.vocab import CombatStep, Do, Target, Zone

if TYPE_CHECKING:  # the view reads this module's combat steps
    from engine.games.vtes.state import Action
    from engine.games.vtes.view import CardView, VtesView

_LINE = re.compile(
    r"^((?:\[[a-zA-Z]{3}\] ?)+)(?:\[COMBAT\] )?(?:Only usable at (long|close) range\. )?"
    r"Strike: (?:(\d+)(R?) (aggravated )?damage|(dodge)|(combat ends))\.$"
)
_LEVEL = re.compile(r"\[([a-zA-Z]{3})\]")


@dataclass(frozen=True)
class StrikeReading:
    """One plain strike a combat card gives at one Discipline level.

    ``levels``: the Discipline levels the line needs, krcg's spelling (``("pot",)`` inferior,
    ``("POT",)`` superior; all of them); ``damage``: points (0 for a dodge or combat ends);
    ``ranged``, ``aggravated``, ``first`` (first strike: it resolves before the opposing normal
    strike, P5), ``dodge``, ``ends``, ``torpor`` (the opposing vampire to torpor),
    ``burn`` (the opposing ally burned), ``steal`` (blood or life stolen, becoming blood): the
    strike's kind (P5); ``range``: "long" or
    "close" when the line is only usable at that range, else ""; ``unlock``: the striker unlocks
    as the strike resolves ("and unlock this vampire before combat ends"); ``maneuver``,
    ``press``: the strike comes "with 1 optional maneuver" (made in the range step, it chooses
    this strike) or "with 1 optional press" (made in the press step after it); ``bonus``: a hand
    strike at +bonus damage ("Strike: hand strike at +2 damage": ``damage`` is then the striker's
    strength plus it, :func:`best_strike`); ``hand``: the strike is a hand strike of the card's own
    (at +``bonus``, or aggravated: "Strike: hand strike, aggravated"); ``additional``: additional
    strikes the card gives with it ("Strike: dodge, with 1 additional strike", 5.6); ``recoil``:
    aggravated damage the striker takes when it strikes at close range (Breath of the Dragon);
    ``after``: combat ends once this strike resolves ("Combat ends immediately after the resolution
    of this strike": Anesthetic Touch).
    """

    levels: tuple[str, ...]
    range: str = ""
    damage: int = 0
    ranged: bool = False
    aggravated: bool = False
    first: bool = False
    dodge: bool = False
    ends: bool = False
    unlock: bool = False
    maneuver: bool = False
    press: bool = False
    bonus: int = 0
    hand: bool = False
    additional: int = 0
    recoil: int = 0
    torpor: bool = False
    burn: bool = False
    steal: int = 0
    after: bool = False

    def fits(self, opposing: CardView | None) -> bool:
        """The strike may be made at ``opposing``: one that sends to torpor at a vampire, one that
        burns at an ally; any other at anyone."""
        crypt = opposing is not None and opposing.crypt
        return not ((self.torpor and not crypt) or (self.burn and crypt))

    def usable_by(self, disciplines: frozenset[str]) -> bool:
        """True when a vampire with these krcg Discipline levels (``{"pot", "CEL"}``) may use it:
        a superior level needs the superior Discipline, an inferior one either level."""
        return all(lv in disciplines or (lv.islower() and lv.upper() in disciplines) for lv in self.levels)

    def fields(self) -> dict[str, object]:
        """The ``strike`` act's fields for this strike (without ``minion`` and ``card``)."""
        out: dict[str, object] = {"unlock": True} if self.unlock else {}
        if self.additional:
            out["additional"] = self.additional
        if self.dodge:
            return {**out, "dodge": True}
        if self.ends:
            return {**out, "ends": True}
        if self.torpor or self.burn:
            return {**out, "torpor" if self.torpor else "burn": True}
        if self.steal:
            return {**out, "steal": self.steal, **({"ranged": True} if self.ranged else {})}
        out["damage"] = self.damage
        if self.ranged:
            out["ranged"] = True
        if self.aggravated:
            out["aggravated"] = True
        if self.first:
            out["first"] = True
        return out


_NEUTRAL_WHOLE = (
    "aim",
    "grapple",
    "a vampire can play only one",
    "a minion can play only one",
    "a vampire may play only one",
    "a minion may play only one",
    "weapon",
    "unique",
    "do not replace until",
    "requires ",
)
"""Card-wide sentences that do not bind a combat card's or a weapon's strike to another step (a
"Do not replace until …" read as a condition is one the table applies; "Requires an Anarch." a
requirement :mod:`engine.games.vtes.card_checks` checks)."""

_NEUTRAL_ABILITY = ("if the bearer blocks, they can, before range is determined, set the range",)
"""A weapon's sentences left by hand that are an ability of its bearer beside its strike, not a
condition on it (Sniper Rifle's range set as its bearer blocks): its strike is still read."""


def is_weapon(rec: CardRecord) -> bool:
    """The card is a weapon: equipment whose text says so ("Weapon: gun.", "Unique weapon.")."""
    said = (r.sentence for c in rec.clauses for r in c.readings)
    return "Equipment" in rec.types and any(s.startswith(("weapon", "unique weapon")) for s in said)


def _range_of(sentence: str) -> str | None:
    """``"long"``/``"close"`` for an "Only usable at long/close range" sentence, or a strike that
    ends with it ("Strike: 2R damage, only usable at long range"), else None."""
    for here in ("long", "close"):
        if sentence == f"only usable at {here} range" or (
            sentence.startswith("strike:") and sentence.endswith(f", only usable at {here} range")
        ):
            return here
    return None


@functools.cache
def strike_readings(cid: int) -> tuple[StrikeReading, ...]:
    """The strikes of the combat card or weapon with krcg id ``cid``, one per clause of its record
    (:mod:`engine.games.vtes.card_record`) whose effects hold one strike (damage not added to the
    hand strike, a dodge, combat ends), in printed order, with the range the clause or the card is
    only usable at; () for a card that is neither a combat card nor a weapon (equipment whose text
    says "Weapon"), or whose text binds it to another step or has a card-wide sentence the table
    does not read."""
    rec = record(cid)
    if rec is None or not ("Combat" in rec.types or is_weapon(rec)):
        return ()
    every = ""
    for clause in rec.clauses:
        if clause.levels or clause.type:
            continue
        for r in clause.readings:
            here = _range_of(r.sentence)
            if here is not None:
                every = here
            elif (r.kind == SentenceKind.BY_HAND and not r.sentence.startswith(_NEUTRAL_ABILITY)) or (
                r.kind == SentenceKind.CONDITION and not r.sentence.startswith(_NEUTRAL_WHOLE)
            ):
                return ()  # a condition on the whole card: no simple reading
    out: list[StrikeReading] = []
    for clause in rec.clauses:
        if clause.type not in ("", "Combat"):
            continue
        strikes = [
            e
            for e in clause.effects
            if e.kind in STRIKES and (not e.hand or e.whom == HAND_STRIKE) and e.whom != AFTER_STRIKE
        ]
        if len(strikes) != 1:
            continue
        if strikes[0].whom == HAND_STRIKE and not (strikes[0].amount or strikes[0].aggravated) and clause.by_hand:
            continue  # a bare "Strike: hand strike." whose sentences by hand change it (Withering)
        ranges = [x for x in (_range_of(r.sentence) for r in clause.readings) if x is not None]
        e = strikes[0]
        out.append(
            StrikeReading(
                levels=clause.levels,
                range=ranges[0] if ranges else every,
                damage=e.amount if e.kind == EffectKind.STRIKE and not e.hand else 0,
                bonus=e.amount if e.hand else 0,
                hand=e.hand,
                additional=sum(x.amount for x in clause.effects if x.kind == EffectKind.ADDITIONAL_STRIKE),
                recoil=sum(x.amount for x in clause.effects if x.kind == EffectKind.RECOIL),
                ranged=e.ranged,
                aggravated=e.aggravated,
                first=e.first,
                after=any(x.kind == EffectKind.END_COMBAT and x.whom == AFTER_STRIKE for x in clause.effects),
                dodge=e.kind == EffectKind.DODGE,
                ends=e.kind == EffectKind.END_COMBAT,
                torpor=e.kind == EffectKind.TORPOR and not e.whom,
                burn=e.kind == EffectKind.TORPOR and e.whom == "ally",
                steal=e.amount if e.kind == EffectKind.STEAL else 0,
                unlock=any(x.kind == EffectKind.UNLOCK for x in clause.effects),
                maneuver=any(x.kind == EffectKind.MANEUVER and x.optional for x in clause.effects),
                press=any(x.kind == EffectKind.PRESS and x.optional for x in clause.effects),
            )
        )
    return tuple(out)


_PREFIX = re.compile(r"^((?:\[[a-zA-Z]{3}\]\s*)+)(?:\[([A-Z ]+)\]\s*)?")
_WHOLE_CARD: tuple[tuple[str, frozenset[CombatStep] | None], ...] = (
    ("only usable before range is determined", frozenset({CombatStep.BEFORE_RANGE})),
    ("only usable before range is chosen", frozenset({CombatStep.BEFORE_RANGE})),
    ("only usable at close range before strikes are chosen", frozenset({CombatStep.BEFORE_STRIKES})),
    ("only usable before strikes are chosen", frozenset({CombatStep.BEFORE_STRIKES})),
    ("only usable at the end of a round", frozenset({CombatStep.END_OF_ROUND})),
    ("only usable as this minion chooses a strike", frozenset({CombatStep.STRIKE})),
)
"""Card-wide sentences that bind a combat card to one step."""


@dataclass(frozen=True)
class Bound:
    """When a combat card's whole-card condition lets it be played: ``steps`` (None: any),
    ``range`` ("long", "close", "" either), ``first``: only in the first round of the combat;
    ``words``: the condition as printed (lower case), for a refusal."""

    steps: frozenset[CombatStep] | None = None
    range: str = ""
    first: bool = False
    words: str = ""

    def fits(self, step: CombatStep, long: bool, round: int) -> bool:
        """The card may be played in ``step`` at the range (``long``) in round ``round``."""
        return (
            (self.steps is None or step in self.steps)
            and self.range in ("", "long" if long else "close")
            and (not self.first or round == 1)
        )


def bound(rec: CardRecord) -> Bound:
    """The whole-card "Only usable …" condition of the combat card ``rec`` that binds it to a step
    of combat ("before range is determined", "at close range before strikes are chosen", "at the
    end of a round", "… during the first round"), read from its record's conditions; an unbound
    card: :class:`Bound` () (any step, any range)."""
    for said in rec.requires.only:
        steps = next((st for words, st in _WHOLE_CARD if said.startswith(words)), None)
        if steps is None:
            continue
        here = "close" if "at close range" in said else "long" if "at long range" in said else ""
        return Bound(steps, here, "first round" in said, said)
    return Bound()


_NEUTRAL = ("only usable at long range", "only usable at close range", "not usable ", "aim", "grapple")
"""Card-wide sentences that do not bind a step (a range, a round, a kind of opponent)."""


def _line_steps(body: str, previous: frozenset[CombatStep] | None) -> frozenset[CombatStep] | None:
    """The steps one Discipline level's effect is played in, from how it begins; None: any."""
    text = body.lower()
    if text.startswith(("as above", "as [")):
        return previous
    if text.startswith(("strike:", "additional strike")):
        steps = {CombatStep.STRIKE}
        if "optional maneuver" in text:  # made in the range step, it chooses this strike (5.3)
            steps.add(CombatStep.RANGE)
        return frozenset(steps)
    if text.startswith(("maneuver", "press")):
        moves = {CombatStep.RANGE} if "maneuver" in text else set()
        if "press" in text:
            moves.add(CombatStep.PRESS)
        return frozenset(moves)
    if text.startswith("prevent"):
        return frozenset({CombatStep.DAMAGE})
    if text.startswith("cancel ") and "as it is played" in text:
        return frozenset()  # an answer to a card as it is played, not a play on one's impulse
    return next((bound for words, bound in _WHOLE_CARD if text.startswith(words)), None)


@functools.cache
def combat_steps(cid: int) -> frozenset[CombatStep] | None:
    """The combat steps in which the combat card with krcg id ``cid`` may be played, read from how
    its text's lines begin ("Strike: …" the strike step, "Maneuver" the range step, "Press" the
    press step, "Prevent" the damage step, "Only usable before range is determined." the step
    before range, …); None when the text does not say (any step: the player is asked). Used to
    pass automatically in a step where no card of the hand could be played."""
    info = card_base().info(cid)
    if info is None or "Combat" not in info.types:
        return frozenset()
    found: set[CombatStep] = set()
    read = False  # a line of the combat card was read (a card that only answers others: no step)
    previous: frozenset[CombatStep] | None = None
    for raw in info.text.splitlines():
        line = raw.strip()
        prefix = _PREFIX.match(line)
        if prefix is None:  # a sentence about the whole card
            for sentence in (x.strip().lower() for x in line.split(".") if x.strip()):
                bound = next((steps for words, steps in _WHOLE_CARD if sentence.startswith(words)), None)
                if bound is not None:
                    return bound
                if not sentence.startswith(_NEUTRAL):
                    return None
            continue
        if prefix.group(2) and prefix.group(2) != "COMBAT":
            continue  # another card type's effect ("[ACTION MODIFIER] +1 stealth.")
        steps = _line_steps(line[prefix.end() :], previous)
        if steps is None:
            return None
        found |= steps
        read = True
        previous = steps
    return frozenset(found) if read else None


def disciplines(identity: str) -> frozenset[str]:
    """The krcg Discipline levels of the crypt card with protocol identity ``identity``
    (``{"cel", "dom", "POT"}``); empty for a library card or an unknown identity."""
    info = card_base().info(identity)
    return frozenset(info.disciplines) if info is not None else frozenset()


def strike_levels(
    identity: str,
    striker: str,
    long: bool,
    opposing: CardView | None = None,
    strength: int | None = None,
    hand_only: bool = False,
    levels: frozenset[str] | tuple[str, ...] | None = None,
) -> list[StrikeReading]:
    """The plain strikes of the card ``identity`` that the vampire ``striker`` (a protocol
    identity) may play (:func:`_may_play`) and use at the range (``long``: long range, else close)
    and, when ``opposing`` is given, at that minion (:meth:`StrikeReading.fits`), one per
    Discipline level whose strike act differs (:meth:`StrikeReading.fields`), in the card's order
    (basic first; of levels giving the same act, the last); a hand strike at +N deals
    ``strength`` (None: the striker's printed strength) plus N; with ``hand_only`` (a grapple this
    round), only such a hand strike; ``levels``: the striker's Discipline levels as it stands
    (None: as printed). Empty if none."""
    cid = card_id(identity)
    if cid is None or not _may_play(cid, striker):
        return []
    here = "long" if long else "close"
    have = disciplines(striker) if levels is None else frozenset(levels)
    usable = [r for r in strike_readings(cid) if r.usable_by(have) and r.range in ("", here)]
    usable = [r for r in usable if (opposing is None or r.fits(opposing)) and (r.hand or not hand_only)]
    base = strength_of(striker) if strength is None else strength
    dealt = [replace(r, damage=base + r.bonus) if r.hand else r for r in usable]
    return [r for i, r in enumerate(dealt) if all(r.fields() != later.fields() for later in dealt[i + 1 :])]


def _strongest[**P](levels: Callable[P, list[StrikeReading]]) -> Callable[P, StrikeReading | None]:
    """The last strike ``levels`` finds (a card prints its superior level last), or None."""

    @functools.wraps(levels)
    def strongest(*args: P.args, **kwargs: P.kwargs) -> StrikeReading | None:
        found = levels(*args, **kwargs)
        return found[-1] if found else None

    return strongest


best_strike = _strongest(strike_levels)
"""``best_strike(identity, striker, long, opposing=None, strength=None, hand_only=False,
levels=None)``: the strongest plain strike of the card ``identity`` that the vampire ``striker``
may make, the last of :func:`strike_levels` (its superior where the levels differ); None if none."""


def level_words(reading: StrikeReading) -> str:
    """A strike level as a menu and a confirmation say it: "superior" when it needs a superior
    Discipline, else "basic"."""
    return "superior" if any(lv.isupper() for lv in reading.levels) else "basic"


def _may_play(cid: int, striker: str) -> bool:
    """The vampire ``striker`` (a protocol identity) meets what the combat card ``cid`` requires
    besides its Disciplines (a sect: Dust Up "Requires an Anarch"; a clan; a title), as the rules
    check it (:func:`engine.games.vtes.card_checks.missing_requirement`); a weapon in play, or a
    striker not known, is not checked."""
    from engine.games.vtes.card_checks import missing_requirement

    rec = record(cid)
    who = card_base().info(striker)
    if rec is None or who is None or "Combat" not in rec.types:
        return True
    return missing_requirement(rec, who, who.name) is None


def recoil_of(identity: str, striker: str, damage: int) -> int:
    """The aggravated damage the vampire ``striker`` takes at close range for striking with the
    card ``identity`` for ``damage`` (the level it may use that deals it, the last first)."""
    cid = card_id(identity)
    have = disciplines(striker)
    usable = [r for r in strike_readings(cid) if r.usable_by(have)] if cid is not None else []
    return next((r.recoil for r in reversed(usable) if r.damage == damage), 0)


def strength_of(identity: str) -> int:
    """The strength the card of protocol identity ``identity`` prints (1 when it prints none, or
    for an identity not known)."""
    rec = record(identity) if identity else None
    strength = rec.printed.strength if rec is not None else None
    return 1 if strength is None else strength


def weapon_strikes(view: VtesView, striker: CardView, long: bool) -> list[tuple[CardView, StrikeReading]]:
    """The weapons on ``striker`` (equipment in play on it) with the strike each may make at the
    range (``long``: long range), by :func:`best_strike`; none while only hand strikes may be used
    (a grapple)."""
    out: list[tuple[CardView, StrikeReading]] = []
    if view.combat is not None and view.combat.hand_only:
        return out
    from engine.games.vtes.combat_equip import stick_strike

    set_to = view.combat.strength_of(striker.pos) if view.combat is not None else None
    strength = strength_of(striker.card) if set_to is None else set_to
    for held in view.cards:
        if held.zone != Zone.ON or held.on != striker.pos or not held.card:
            continue
        if "Equipment" in held.types:
            reading = best_strike(held.card, striker.card, long, levels=striker.disciplines)
        else:  # a combat card that became a weapon on it (Weighted Walking Stick)
            reading = stick_strike(record(held.card), strength)
        if reading is not None:
            out.append((held, reading))
    return out


def strike_act(minion: list[int], card: list[int], reading: StrikeReading) -> Act:
    """The ``strike`` act playing ``card`` for ``minion`` (positions as lists) with ``reading``."""
    return {"do": Do.STRIKE, "minion": minion, "card": card, **reading.fields()}


# --- political action cards: the terms a bot records and applies (vtes-actions.md 7, P7) ---------


class TermsKind(StrEnum):
    """The shapes of a political action card's text a bot can read (:func:`terms_reading`)."""

    EACH = "each"
    """Each Methuselah gains or burns pool for each minion of a kind it controls."""
    ALLOCATE = "allocate"
    """Points allocated among Methuselahs: each burns 1 pool per point."""
    BANISH = "banish"
    """A chosen ready younger vampire moves to the uncontrolled region."""
    PARITY = "parity"
    """3 pool of a Methuselah with more pool than the caller's go to the chosen Methuselahs."""
    CHOSEN = "chosen"
    """Each Methuselah chooses a ready vampire; pool follows its capacity (or its predator's)."""
    CLAN = "clan"
    """Each Methuselah gains (or burns) pool for each vampire of a clan the caller chooses
    (:mod:`engine.games.vtes.clan_terms`)."""


TABLE_TERMS: frozenset[TermsKind] = frozenset(
    {TermsKind.EACH, TermsKind.ALLOCATE, TermsKind.PARITY, TermsKind.BANISH, TermsKind.CLAN}
)
"""The shapes of terms the table applies itself (:mod:`engine.games.vtes.referendum_terms`);
each Methuselah choosing a vampire (:attr:`TermsKind.CHOSEN`) is left to the players."""


@dataclass(frozen=True)
class TermsReading:
    """One political action card's text as a bot reads it.

    ``kind``: its shape; ``amount``: pool per counted minion (signed: a gain is positive), the
    points to allocate (0: one per Methuselah in the game), or the fixed pool of a
    :attr:`TermsKind.CHOSEN` card (negative: burned after the capacity is gained; positive: gained
    before the predator's chosen capacity is burned); ``counts``: what an :attr:`TermsKind.EACH`
    card counts (``"minion"``, ``"locked minion"``, ``"vampire in torpor"``, ``"vampire"``);
    ``capacity``: the least capacity a counted vampire has (0: any); ``others``: points go only
    to other Methuselahs than the caller; ``titles``: the titles the acting vampire must hold
    (lower case; empty: none required).
    """

    kind: TermsKind
    amount: int = 0
    counts: str = ""
    capacity: int = 0
    others: bool = False
    titles: frozenset[str] = frozenset()

    def counted(self, crypt: bool, ally: bool, zone: Zone, locked: bool, capacity: int) -> bool:
        """A card of these facts (a crypt card, an ally, its zone, locked, its capacity) is one an
        :attr:`TermsKind.EACH` card counts for its controller: a minion in play (ready or in
        torpor) of the kind it names."""
        minion = (crypt or ally) and zone in (Zone.READY, Zone.TORPOR)
        match self.counts:
            case "locked minion":
                return minion and zone == Zone.READY and locked
            case "vampire in torpor":
                return crypt and zone == Zone.TORPOR
            case "vampire":
                return crypt and minion and capacity >= self.capacity
            case _:
                return minion


_EACH = re.compile(
    r"^successful referendum means each methuselah (gains|burns) (\d+) pool for each "
    r"(locked minion|minion|vampire in torpor|vampire) (?:they|he or she) controls?"
    r"(?: with capacity (\d+) or more)?\.$"
)
_ALLOCATE = re.compile(
    r"^allocate (\d+|x) points among two or more (other )?methuselahs(?:, where x is the number of "
    r"methuselahs in the game)?\. successful referendum means each methuselah burns 1 pool for each "
    r"point allocated\.$"
)
_BANISH = (
    "choose a ready younger vampire. successful referendum means the chosen vampire is moved to the uncontrolled region"
)
_PARITY = (
    "choose a methuselah who has more pool than you do and allocate 3 of their pool among 1 or more "
    "other methuselahs (including you). successful referendum means the pool is distributed as you chose."
)
_CHOSEN = re.compile(
    r"^successful referendum means each methuselah can choose a ready vampire they control\. each "
    r"methuselah (?:gains pool equal to their chosen vampire's capacity, then burns (\d+) pool|gains (\d+) "
    r"pool, then burns pool equal to the capacity of their predator's chosen vampire)\.$"
)
_REQUIRES = re.compile(r"^requires an? ([a-z0-9 ,]+)\.$")
_ONCE_A_GAME = "can be played or called in a game."
_TITLES = frozenset({"primogen", "prince", "baron", "justicar", "bishop", "archbishop", "cardinal", "regent"})


def _reading_of(line: str) -> TermsReading | None:
    """The reading of one line of a political action card's text, lower case, or None."""
    if m := _EACH.match(line):
        sign = 1 if m.group(1) == "gains" else -1
        return TermsReading(TermsKind.EACH, sign * int(m.group(2)), m.group(3), int(m.group(4) or 0))
    if m := _ALLOCATE.match(line):
        return TermsReading(TermsKind.ALLOCATE, 0 if m.group(1) == "x" else int(m.group(1)), others=bool(m.group(2)))
    if line.startswith(_BANISH):
        return TermsReading(TermsKind.BANISH)
    if line == _PARITY:
        return TermsReading(TermsKind.PARITY, 3)
    if m := _CHOSEN.match(line):
        return TermsReading(TermsKind.CHOSEN, -int(m.group(1)) if m.group(1) else int(m.group(2)))
    if (per := clan_terms.per_vampire(line)) is not None:
        return TermsReading(TermsKind.CLAN, per)
    return None


@functools.cache
def terms_reading(cid: int) -> TermsReading | None:
    """The reading of the political action card with krcg id ``cid`` (its terms a bot can choose
    and apply: pool per minion, points to allocate, a vampire banished, pool shifted, a vampire
    chosen by each Methuselah), or None: another card, or a text with another sentence. A
    sentence "Only one … can be played or called in a game." is no term; "Requires a prince or
    justicar." becomes :attr:`TermsReading.titles`."""
    info = card_base().info(cid)
    if info is None or "Political Action" not in info.types:
        return None
    reading: TermsReading | None = None
    titles: frozenset[str] = frozenset()
    for raw in info.text.splitlines():
        line = " ".join(raw.lower().split())
        if not line or line == "boon." or (line.startswith("only one ") and line.endswith(_ONCE_A_GAME)):
            continue
        if m := _REQUIRES.match(line):
            words = frozenset(w for w in re.split(r",? or |, ", m.group(1)) if w)
            titles = words if words <= _TITLES else titles  # another requirement: the offers check it
            continue
        found = _reading_of(line)
        if found is None or reading is not None:
            return None
        reading = found
    return replace(reading, titles=titles) if reading is not None else None


@dataclass(frozen=True)
class Terms:
    """A referendum's terms as a bot records them and applies them once it passes.

    ``text``: the sentence recorded (seat names as ``{sN}`` placeholders, at most 200
    characters); ``pool``: ``(seat, delta)`` pool changes, no delta 0; ``banish``: the vampire
    moved to the uncontrolled region (its blood kept), or None; ``cause``: the cause phrase of the
    acts that apply them (the card's name); ``worth``: the caller's gain over the others' mean
    (pool), how much the bot wants it; ``choice``: the ``terms`` act's fields that state the
    choices when the table applies the terms itself (:mod:`engine.games.vtes.referendum_terms`),
    None when the players apply them.
    """

    text: str
    pool: tuple[tuple[int, int], ...] = ()
    banish: Pos | None = None
    cause: str = "referendum"
    worth: float = 0.0
    choice: dict[str, object] | None = None

    def act(self) -> Act:
        """The ``terms`` act recording these terms (with the choices the table applies)."""
        return {"do": Do.TERMS, "text": self.text, **(self.choice or {})}


def _cause(name: str) -> str:
    """A card's name as an act's cause phrase (letters, digits, spaces and ``_.,'-``, 40 at most)."""
    words = re.sub(r"[^A-Za-z0-9 _.,'-]", "", name).strip()[:40].strip()
    return words if words and words[0].isalnum() else "referendum"


def _clockwise(view: VtesView, seat: int) -> list[int]:
    """The other Methuselahs in the game, clockwise from ``seat``'s prey."""
    order = list(view.in_game())
    if seat not in order:
        return order
    i = order.index(seat)
    return order[i + 1 :] + order[:i]


def _pool_words(changes: Sequence[tuple[int, int]]) -> str:
    return ", ".join(f"{seat_ref(s)} {d:+d} pool" for s, d in changes)


def _worth(seat: int, changes: Sequence[tuple[int, int]], seats: Sequence[int]) -> float:
    delta = dict(changes)
    others = [delta.get(s, 0) for s in seats if s != seat]
    return delta.get(seat, 0) - (sum(others) / len(others) if others else 0)


def bot_terms(view: VtesView, seat: int, card: CardView, minion: CardView) -> Terms | None:
    """The terms the bot of ``seat`` records for ``card`` (a political action card) called by its
    vampire ``minion``, with the choices the card asks for made in its interest (points and pool
    on its prey first, the prey's strongest younger vampire banished, the richest Methuselah's
    pool), written as a sentence naming the players (``{sN}``) and cards; None when the card has
    no reading (:func:`terms_reading`), its requirement is not met or no choice is possible."""
    cid = card_id(card.card) if card.card else None
    reading = terms_reading(cid) if cid is not None else None
    if reading is None or cid is None:
        return None
    info = card_base().info(cid)
    name = info.name if info is not None else card.name
    title = ""
    if minion.card:
        crypt = card_base().info(minion.card)
        title = crypt.title.lower() if crypt is not None and not view.title_contested(minion.pos) else ""
    if reading.titles and title not in reading.titles:
        return None
    seats = view.in_game()
    cause = _cause(name)
    changes: list[tuple[int, int]] = []
    choice: dict[str, object] | None = {} if reading.kind == TermsKind.EACH else None
    match reading.kind:
        case TermsKind.EACH:
            for s in seats:
                n = sum(1 for c in view.cards if c.controller == s and _counted(c, reading))
                if n:
                    changes.append((s, reading.amount * n))
            per = f"{abs(reading.amount)} pool per {reading.counts}" + (
                f" with capacity {reading.capacity} or more" if reading.capacity else ""
            )
            text = f"{name}: {_pool_words(changes)} ({per} controlled)"
        case TermsKind.ALLOCATE:
            points = reading.amount or len(seats)
            takers = _clockwise(view, seat)
            if len(takers) < 2 and reading.others:
                return None
            if len(takers) < 2:
                takers = [*takers, seat]
            if not takers:
                return None
            changes = [(takers[0], -(points - 1)), (takers[1], -1)]
            text = f"{name}: {_pool_words(changes)} ({points} points allocated)"
            choice = {"changes": [[s, -d] for s, d in changes]}
        case TermsKind.PARITY:
            mine = view.players[seat].pool
            richer = [s for s in _clockwise(view, seat) if view.players[s].pool > mine]
            if not richer:
                return None
            rich = max(richer, key=lambda s: view.players[s].pool)
            changes = [(rich, -reading.amount), (seat, reading.amount)]
            text = f"{name}: {reading.amount} of {seat_ref(rich)}'s pool go to {seat_ref(seat)}"
            choice = {"seat": rich, "changes": [[seat, reading.amount]]}
        case TermsKind.CLAN:  # the clan that serves the caller best against the others
            ways = [(k, clan_terms.changes(view, k, reading.amount)) for k in clan_terms.in_play(view)]
            if not ways:
                return None
            clan, changes = max(ways, key=lambda kc: (_worth(seat, kc[1], seats), kc[0]))
            text = f"{name}: {clan}; {_pool_words(changes) or 'nobody gains pool'} (as things stand)"
            choice = {"clan": clan}
        case TermsKind.CHOSEN:
            chosen = {s: _best_capacity(view, s) for s in seats}
            for s in seats:
                if reading.amount < 0:
                    delta = chosen[s] + reading.amount
                else:
                    delta = reading.amount - chosen[view.players[s].predator]
                if delta:
                    changes.append((s, delta))
            text = (
                f"{name}: {_pool_words(changes)} (each Methuselah's chosen vampire read as its ready "
                "vampire of highest capacity; dispute to choose another)"
            )
        case TermsKind.BANISH:
            younger = [
                c
                for c in view.cards
                if c.crypt and c.zone == Zone.READY and c.controller != seat and 0 < c.capacity < minion.capacity
            ]
            if not younger:
                return None
            prey = view.players[seat].prey
            target = max(younger, key=lambda c: (c.controller == prey, c.capacity, c.pos))
            carried = [c.name for c in view.cards if c.on == target.pos]
            text = (
                f"{name}: {seat_ref(target.controller)}'s {target.name} moves to the uncontrolled region, "
                f"keeping its {target.counters} blood"
            )
            if carried:
                text += "; the cards on it go to the ash heap as it leaves play (keep them by hand)"
            return Terms(
                _fit(text),
                banish=target.pos,
                cause=cause,
                worth=float(target.capacity),
                choice={"card": target.as_list()},
            )
    if not changes:
        return None
    return Terms(_fit(text), tuple(changes), cause=cause, worth=_worth(seat, changes, seats), choice=choice)


def _fit(text: str) -> str:
    """The terms text within the 200 characters a ``terms`` act holds (P7)."""
    return text if len(text) <= 200 else text[:199] + "…"


def _counted(c: CardView, reading: TermsReading) -> bool:
    """``c`` is a minion an :attr:`TermsKind.EACH` card counts."""
    return reading.counted(c.crypt, "Ally" in c.types, c.zone, c.locked, c.capacity)


def _best_capacity(view: VtesView, seat: int) -> int:
    """The capacity of ``seat``'s ready vampire of highest capacity (0: none)."""
    return max((c.capacity for c in view.controlled(seat) if c.crypt), default=0)


def terms_acts(view: VtesView, terms: Terms) -> list[Act]:
    """The ordinary acts that apply passed ``terms`` now: one ``pool`` act for the pool changes
    of the Methuselahs still in the game; for a banished vampire still ready, a ``move`` to the
    uncontrolled region and a ``blood`` act giving it back its blood. Empty when nothing is left
    to apply."""
    acts: list[Act] = []
    changes = [[s, d] for s, d in terms.pool if s in view.in_game() and d]
    if changes:
        acts.append({"do": Do.POOL, "changes": changes, "cause": terms.cause})
    target = view.card(terms.banish) if terms.banish is not None else None
    if target is not None and target.zone == Zone.READY:
        where = [target.pos[0], target.pos[1]]
        acts.append({"do": Do.MOVE, "cards": [where], "to": Target.UNCONTROLLED, "cause": terms.cause})
        if target.counters:
            acts.append({"do": Do.BLOOD, "card": where, "delta": target.counters, "cause": terms.cause})
    return acts


# --- reactions: when one fits a window ------------------------------------------------------------


_INTERCEPT_ONLY = re.compile(r"^\+\d+ intercept\.?$")


def reaction_moment(a: Action, view: VtesView, seat: int) -> Moment:
    """What the open action ``a`` is for ``seat`` as its view shows it (:class:`Moment`)."""

    def owner(pos: Pos | tuple[()]) -> int | None:
        card = view.card(pos) if pos else None
        return card.controller if card is not None else None

    entitled = seat in view.blockers() and seat not in a.declined
    locked = any(c.locked for c in view.controlled(seat) if c.crypt or "Ally" in c.types)
    return Moment.of(a.kind, a.targets, owner(a.target_card), owner(a.blocker), entitled, locked, seat)


def reaction_fits(text: str, a: Action, view: VtesView, seat: int) -> bool:
    """Whether a reaction card could be played in ``a`` by ``seat``, read from its "Only usable …"
    sentences for what a window decides (a bleed at you, an action directed at you, a referendum,
    a block by your minion, a locked minion waking to block:
    :mod:`engine.games.vtes.reaction_conditions`) and from an effect that is only "+N
    intercept" (for a Methuselah who may block); per Discipline level, the card fits when one
    level does. True when the text names no such condition. This only spares a player a stop
    where the card cannot be played."""
    moment = reaction_moment(a, view, seat)
    general = [
        x for x in (" ".join(line.lower().split()) for line in text.splitlines()) if x and not LEVEL_PREFIX.match(x)
    ]
    for line in fitting_levels(text, moment):
        effect = LEVEL_PREFIX.sub("", line) if line else " ".join(general)
        if moment.may_block or not _INTERCEPT_ONLY.match(effect):
            return True
    return False
