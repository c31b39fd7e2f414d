"""Simple readings of combat cards for bots (shared/rules/vtes-actions.md, §5 and P5).

The engine applies no card text: players do. A bot needs to play some cards all the same, so this
reads the one shape of text a bot can play without judgement: a line that names a Discipline level
and a plain strike, with at most a range condition ("[pot] Strike: 2 damage.", "[CEL] Strike: 3R
damage.", "[aus] Strike: dodge.", "[obf] Only usable at long range. Strike: combat ends.",
"[PRO] [COMBAT] Strike: combat ends."). Another line of the card (another level's effect) gives no
reading for its level; a sentence that binds the whole card ("Only usable at the end of a round.")
leaves the card with no reading at all. A vampire with a Discipline at superior may play a card at
inferior (the rulebook's "Disciplines"), so an inferior reading serves both levels.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from engine.games.base import Act
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.vocab import CombatStep, Do

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
    ``ranged``, ``aggravated``, ``dodge``, ``ends``: the strike's kind (P5); ``range``: "long" or
    "close" when the line is only usable at that range, else "".
    """

    levels: tuple[str, ...]
    range: str = ""
    damage: int = 0
    ranged: bool = False
    aggravated: bool = False
    dodge: bool = False
    ends: bool = False

    def usable_by(self, disciplines: frozenset[str]) -> bool:
        """True when a vampire with these krcg Discipline levels (``{"pot", "CEL"}``) may use it:
        a superior level needs the superior Discipline, an inferior one either level."""
        return all(lv in disciplines or (lv.islower() and lv.upper() in disciplines) for lv in self.levels)

    def fields(self) -> dict[str, object]:
        """The ``strike`` act's fields for this strike (without ``minion`` and ``card``)."""
        if self.dodge:
            return {"dodge": True}
        if self.ends:
            return {"ends": True}
        out: dict[str, object] = {"damage": self.damage}
        if self.ranged:
            out["ranged"] = True
        if self.aggravated:
            out["aggravated"] = True
        return out


@functools.cache
def strike_readings(cid: int) -> tuple[StrikeReading, ...]:
    """The plain strikes of the combat card with krcg id ``cid``, in printed order (one per line
    that is one); () for a card that is not a combat card or whose text binds every level."""
    info = card_base().info(cid)
    if info is None or "Combat" not in info.types:
        return ()
    out: list[StrikeReading] = []
    for raw in info.text.splitlines():
        line = raw.strip()
        if not line.startswith("["):
            return ()  # a condition on the whole card: no simple reading
        match = _LINE.match(line)
        if match is None:
            continue
        levels, only, damage, ranged, aggravated, dodge, ends = match.groups()
        out.append(
            StrikeReading(
                levels=tuple(_LEVEL.findall(levels)),
                range=only or "",
                damage=int(damage or 0),
                ranged=bool(ranged),
                aggravated=bool(aggravated),
                dodge=bool(dodge),
                ends=bool(ends),
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
_NEUTRAL = ("only usable at long range", "only usable at close range", "not usable ", "aim", "grapple")
"""Card-wide sentences that do not bind a step (a range, a round, a kind of opponent)."""


def _line_steps(body: str, previous: frozenset[CombatStep] | None) -> frozenset[CombatStep] | None:
    """The steps one Discipline level's effect is played in, from how it begins; None: any."""
    text = body.lower()
    if text.startswith(("as above", "as [")):
        return previous
    if text.startswith(("strike:", "additional strike")):
        return frozenset({CombatStep.STRIKE})
    if text.startswith(("maneuver", "press")):
        moves = {CombatStep.RANGE} if "maneuver" in text else set()
        if "press" in text:
            moves.add(CombatStep.PRESS)
        return frozenset(moves)
    if text.startswith("prevent"):
        return frozenset({CombatStep.DAMAGE})
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
        previous = steps
    return frozenset(found) if found else None


def disciplines(identity: str) -> frozenset[str]:
    """The krcg Discipline levels of the crypt card with protocol identity ``identity``
    (``{"cel", "dom", "POT"}``); empty for a library card or an unknown identity."""
    cid = card_id(identity)
    card = card_base().by_id(cid) if cid is not None else None
    return frozenset(str(d) for d in getattr(card, "disciplines", None) or ())


def best_strike(identity: str, striker: str, long: bool) -> StrikeReading | None:
    """The strongest plain strike of the card ``identity`` that the vampire ``striker`` (a protocol
    identity) may use at the range (``long``: long range, else close), the last such line (a card
    prints its superior level last); None if none."""
    cid = card_id(identity)
    if cid is None:
        return None
    here = "long" if long else "close"
    usable = [r for r in strike_readings(cid) if r.usable_by(disciplines(striker)) and r.range in ("", here)]
    return usable[-1] if usable else None


def strike_act(minion: list[int], card: list[int], reading: StrikeReading) -> Act:
    """The ``strike`` act playing ``card`` for ``minion`` (positions as lists) with ``reading``."""
    return {"do": Do.STRIKE, "minion": minion, "card": card, **reading.fields()}
