"""The kept corrections of the card readings (``corrections.toml`` beside this module): for each
card the patterns of :mod:`engine.games.vtes.card_effects` misread, what the table reads instead,
with a one-line reason.

The file is a list of ``[[card]]`` tables: ``name`` (the card's unique name), ``reason`` (one line,
shown by ``vampire cards``), and either ``by_hand = true`` (the whole card is left to the players,
for the reason given) or ``clauses``: the card's clauses in full, each a table with ``levels``
(krcg's Discipline levels, ``["dom"]``; ``[]`` for the whole card), ``type`` (optional: the card
type the clause is played as), ``effects`` (tables of :class:`~engine.games.vtes.card_effects.Effect`
fields, ``kind`` as its value: ``{kind = "stealth", amount = 1}``) and ``by_hand`` (the clause's
sentences the players apply). A test checks that each correction still differs from the reading
of the patterns (a correction made useless by a better pattern is removed).
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, fields, replace
from importlib import resources
from typing import TYPE_CHECKING, Any

from engine.games.vtes.card_effects import Effect, EffectKind, Reading, SentenceKind

if TYPE_CHECKING:
    from engine.games.vtes.card_record import CardRecord, Clause


class CorrectionError(ValueError):
    """The corrections file holds an entry that is not a correction (the sentence says which)."""


@dataclass(frozen=True)
class Correction:
    """One kept correction: the card's ``name``, the ``reason``, ``by_hand`` (the whole card left
    to the players) or ``clauses`` (the card's clauses in full, as :func:`clause` reads them)."""

    name: str
    reason: str
    by_hand: bool = False
    clauses: tuple[dict[str, Any], ...] = ()


_EFFECT_FIELDS = {f.name for f in fields(Effect)}


def effect(raw: dict[str, Any]) -> Effect:
    """An :class:`Effect` from its table in the file. Raises CorrectionError for an unknown kind
    or field."""
    if not isinstance(raw, dict) or set(raw) - _EFFECT_FIELDS or "kind" not in raw:
        raise CorrectionError(f"an effect is a table of {sorted(_EFFECT_FIELDS)} with a kind, not {raw!r}")
    try:
        return Effect(**{**raw, "kind": EffectKind(raw["kind"])})
    except ValueError as e:
        raise CorrectionError(f"no effect kind {raw['kind']!r}") from e


def clause(raw: dict[str, Any]) -> Clause:
    """A :class:`~engine.games.vtes.card_record.Clause` from its table in the file: its effects
    as one sentence read as them, its ``by_hand`` sentences as such."""
    from engine.games.vtes.card_record import Clause

    if not isinstance(raw, dict) or set(raw) - {"levels", "type", "effects", "by_hand"}:
        raise CorrectionError(f"a clause is a table of levels, type, effects and by_hand, not {raw!r}")
    effects = tuple(effect(e) for e in raw.get("effects", ()))
    readings = []
    if effects:
        readings.append(Reading("; ".join(e.words() for e in effects), SentenceKind.EFFECT, effects))
    readings += [Reading(str(s), SentenceKind.BY_HAND) for s in raw.get("by_hand", ())]
    return Clause(tuple(str(x) for x in raw.get("levels", ())), str(raw.get("type", "")), tuple(readings))


def parse(text: str) -> dict[str, Correction]:
    """The corrections of a file's text, by card name. Raises CorrectionError for an entry that
    is not one (no name, no reason, neither ``by_hand`` nor ``clauses``, a name twice)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CorrectionError(f"the corrections file is not TOML: {e}") from e
    out: dict[str, Correction] = {}
    for raw in data.get("card", []):
        name, reason = raw.get("name"), raw.get("reason")
        if not isinstance(name, str) or not isinstance(reason, str) or not reason.strip():
            raise CorrectionError(f"a correction needs a name and a one-line reason: {raw!r}")
        if name in out:
            raise CorrectionError(f"{name} is corrected twice")
        by_hand = raw.get("by_hand") is True
        clauses = tuple(raw.get("clauses", ()))
        if by_hand == bool(clauses):
            raise CorrectionError(f"the correction of {name} says by_hand = true or gives its clauses (one of them)")
        for c in clauses:
            clause(c)  # raises for a malformed clause now, not when the card is first read
        out[name] = Correction(name, reason.strip(), by_hand, clauses)
    return out


@functools.cache
def corrections() -> dict[str, Correction]:
    """The kept corrections, by card name (read once)."""
    return parse(resources.files("engine.games.vtes").joinpath("corrections.toml").read_text(encoding="utf-8"))


def corrected(rec: CardRecord) -> CardRecord:
    """``rec`` with its kept correction applied (itself when it has none): a card left by hand has
    every sentence by hand; a card with clauses has those clauses."""
    fix = corrections().get(rec.name)
    if fix is None:
        return rec
    if fix.by_hand:
        clauses = tuple(
            replace(c, readings=tuple(Reading(r.sentence, SentenceKind.BY_HAND) for r in c.readings) or c.readings)
            for c in rec.clauses
        )
        if not any(c.readings for c in clauses):
            clauses = (*clauses, clause({"by_hand": [fix.reason]}))
        return replace(rec, clauses=clauses, note=fix.reason)
    return replace(rec, clauses=tuple(clause(c) for c in fix.clauses), note=fix.reason)
