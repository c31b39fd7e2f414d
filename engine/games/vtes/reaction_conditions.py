"""A reaction card's "Only usable …" sentences against the open action (rulebook, "Requirements
for Playing Cards": a card's text may restrict when it is played; "Card Types": Reaction).

One statement of what each phrase asks of the action, read twice: by the offers and the automatic
pass (:func:`engine.games.vtes.readings.reaction_fits`, from a seat's view), and by the rules as the
card is played (:func:`engine.games.vtes.plays.check_play`, from the table's state), so that a
reaction the table would not offer is refused with the card's own sentence. A phrase the table does
not know is met (the card is left to the players).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.games.vtes.block_readings import ANY_SEAT
from engine.games.vtes.vocab import ActionKind

LEVEL_PREFIX = re.compile(r"^(?:\[[a-z]{3}\]\s*)+")
"""The Discipline levels a line of card text opens with (``"[ani] "``, ``"[dom][obt] "``)."""


@dataclass(frozen=True)
class Moment:
    """What the open action is for the Methuselah who would play a reaction: ``bleed``: it is a
    bleed; ``at_you``: it is directed at them; ``your_card``: its target card is theirs;
    ``your_blocker``: their minion is attempting to block it; ``may_block``: they are entitled to
    block it and have not declined, or their minion is attempting to; ``locked``: they have a ready
    locked minion."""

    bleed: bool
    at_you: bool
    your_card: bool
    your_blocker: bool
    may_block: bool
    locked: bool
    any_seat: bool = False

    @classmethod
    def of(
        cls,
        kind: ActionKind,
        targets: tuple[int, ...],
        target_card: int | None,
        blocker: int | None,
        entitled: bool,
        locked: bool,
        seat: int,
    ) -> Moment:
        """The moment for ``seat`` of an action of ``kind`` directed at ``targets``, whose target
        card and blocking minion have the controllers ``target_card`` and ``blocker`` (None: none);
        ``entitled``: ``seat`` may still attempt to block; ``locked``: it has a ready locked
        minion."""
        return cls(
            bleed=kind == ActionKind.BLEED,
            at_you=seat in targets,
            your_card=target_card == seat,
            your_blocker=blocker == seat,
            may_block=entitled or blocker == seat,
            locked=locked,
        )

    def meets(self, sentence: str) -> bool:
        """Whether the moment meets ``sentence`` (lower case), as far as the table reads it: a
        block attempt "ignoring the normal prey, predator or target restrictions" (Eagle's Sight)
        is one whoever may block by default."""
        lifted = replace(self, any_seat=ANY_SEAT in sentence)
        return all(fits or not any(p in sentence for p in phrases) for phrases, fits in lifted._phrases())

    def _phrases(self) -> tuple[tuple[tuple[str, ...], bool], ...]:
        at_you_bleed = self.bleed and self.at_you
        return (
            (("during a referendum", "during the polling step"), False),
            (("is bleeding you", "bleeds you", "bleed action directed at you", "bleed against you"), at_you_bleed),
            (("during a bleed action",), self.bleed),
            (
                ("during an action directed at you", "directed at a minion or location you control"),
                self.at_you or self.your_card,
            ),
            (
                ("if this vampire blocks", "by a blocking vampire", "who has blocked", "if this baali blocks"),
                self.your_blocker,
            ),
            (("by a locked vampire", "by a locked minion"), self.may_block and self.locked),
            (("attempts to block", "attempt to block", "about to enter combat"), self.may_block or self.any_seat),
            (("would be burned", "is being burned", "being diablerized", "attempts to commit diablerie"), False),
        )


def _lines(text: str) -> tuple[list[str], list[str]]:
    """The card text's lines (lower case, spaces folded): those without a Discipline level, and
    those with one."""
    lines = [" ".join(line.lower().split()) for line in text.splitlines() if line.strip()]
    return [x for x in lines if not LEVEL_PREFIX.match(x)], [x for x in lines if LEVEL_PREFIX.match(x)]


def fitting_levels(text: str, moment: Moment) -> list[str]:
    """The lines of the reaction's ``text`` with a Discipline level whose sentences, with the
    card's lines without one, the ``moment`` meets (``[""]`` for a card with no level when it
    meets them; ``[]`` when none is met). Every phrase counts, in any sentence: what the offers
    read to spare a player a stop where the card could not matter."""
    general, levels = _lines(text)
    return [line for line in levels or [""] if moment.meets(" ".join([*general, line]))]


_SENTENCE = re.compile(r"[^.]+\.?")


def unmet(text: str, moment: Moment, disciplines: frozenset[str] | None = None) -> str | None:
    """The first "Only usable …" sentence of the reaction's ``text`` the ``moment`` does not meet
    (one of the lines without a Discipline level, or, when no level's sentences are all met, the
    first level's), as printed; None when the card may be played now. With ``disciplines`` (the
    playing minion's, krcg's spelling), only the levels it may play count (rulebook,
    "Disciplines": a superior level needs the superior Discipline). Only the card's conditions
    count here, not its effects' "if this vampire blocks": what the rules refuse as it is played."""
    general, levels = _lines(text)
    if disciplines is not None:
        printed = [x for x in text.splitlines() if LEVEL_PREFIX.match(x.strip().lower())]
        levels = [line for line, raw in zip(levels, printed, strict=False) if _usable(raw, disciplines)]

    def only(line: str) -> list[str]:
        said = (s.strip() for s in _SENTENCE.findall(LEVEL_PREFIX.sub("", line)))
        return [s.rstrip(".") for s in said if s.startswith("only usable")]

    for s in (s for line in general for s in only(line)):
        if not moment.meets(s):
            return s
    if not levels:
        return None
    missed = [next((s for s in only(line) if not moment.meets(s)), None) for line in levels]
    if any(m is None for m in missed):
        return None
    return missed[0]


_LEVEL = re.compile(r"\[([a-zA-Z]{3})\]")


def _usable(line: str, disciplines: frozenset[str]) -> bool:
    """A minion with ``disciplines`` may play the levels ``line`` opens with (any one of them)."""
    opening = LEVEL_PREFIX.match(line.strip().lower())
    found = _LEVEL.findall(line.strip()[: opening.end()] if opening else "")
    return any(lv in disciplines or (lv.islower() and lv.upper() in disciplines) for lv in found)
