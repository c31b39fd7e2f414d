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

A second kind of entry, ``[[by_hand]]`` with ``name`` and ``reason``, changes no reading: it says
in one line why the table leaves a card the patterns read as by hand to the players (what the
table would need: a window to cancel a card as played, a target it does not model, …). The
reason is the record's ``note``. :func:`check` refuses a reason for a card no record knows or for
a card the table applies fully or partly (a reason made stale by a better reading is removed).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from importlib import resources
from typing import TYPE_CHECKING, Any

from engine.games.vtes.card_effects import Effect, EffectKind
from engine.games.vtes.card_sentences import Reading, SentenceKind

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


@dataclass(frozen=True)
class Kept:
    """The corrections file read: ``cards``, the ``[[card]]`` corrections by card name;
    ``reasons``, each ``[[by_hand]]`` entry's one-line reason by card name."""

    cards: dict[str, Correction]
    reasons: dict[str, str]


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


def _named(raw: object, kind: str) -> tuple[str, str]:
    """The ``name`` and one-line ``reason`` of a ``[[kind]]`` entry. Raises CorrectionError."""
    name = raw.get("name") if isinstance(raw, dict) else None
    reason = raw.get("reason") if isinstance(raw, dict) else None
    if not isinstance(name, str) or not isinstance(reason, str) or not reason.strip():
        raise CorrectionError(f"a [[{kind}]] entry needs a name and a one-line reason: {raw!r}")
    if "\n" in reason.strip():
        raise CorrectionError(f"the reason for {name} is more than one line")
    return name, reason.strip()


def parse(text: str) -> Kept:
    """The corrections and by-hand reasons of a file's text. Raises CorrectionError for an entry
    that is not one: no name or no one-line reason, a ``[[card]]`` with neither ``by_hand`` nor
    ``clauses``, a ``[[by_hand]]`` with other fields, a name twice (in either kind)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CorrectionError(f"the corrections file is not TOML: {e}") from e
    out: dict[str, Correction] = {}
    reasons: dict[str, str] = {}
    for raw in data.get("card", []):
        name, reason = _named(raw, "card")
        if name in out:
            raise CorrectionError(f"{name} is corrected twice")
        by_hand = raw.get("by_hand") is True
        clauses = tuple(raw.get("clauses", ()))
        if by_hand == bool(clauses):
            raise CorrectionError(f"the correction of {name} says by_hand = true or gives its clauses (one of them)")
        for c in clauses:
            clause(c)  # raises for a malformed clause now, not when the card is first read
        out[name] = Correction(name, reason, by_hand, clauses)
    for raw in data.get("by_hand", []):
        name, reason = _named(raw, "by_hand")
        if set(raw) - {"name", "reason"}:
            raise CorrectionError(f"a [[by_hand]] entry has only a name and a reason, not {sorted(set(raw))}")
        if name in out or name in reasons:
            raise CorrectionError(f"{name} has a reason twice")
        reasons[name] = reason
    return Kept(out, reasons)


@functools.cache
def kept() -> Kept:
    """The kept file read (once)."""
    return parse(resources.files("engine.games.vtes").joinpath("corrections.toml").read_text(encoding="utf-8"))


def corrections() -> dict[str, Correction]:
    """The kept ``[[card]]`` corrections, by card name."""
    return kept().cards


def reasons() -> dict[str, str]:
    """The kept ``[[by_hand]]`` reasons, by card name."""
    return kept().reasons


def check(read: Kept, record_of: Callable[[str], CardRecord | None]) -> None:
    """Raises CorrectionError naming each entry of ``read`` that ``record_of`` (a card's record
    by its name, None for no card) refutes: a name that is no card's, a ``[[by_hand]]`` reason for
    a card the table applies fully or partly."""
    from engine.games.vtes.card_record import Coverage

    wrong: list[str] = []
    for name in [*read.cards, *read.reasons]:
        rec = record_of(name)
        if rec is None:
            wrong.append(f"{name} is no card's name")
        elif name in read.reasons and rec.coverage != Coverage.BY_HAND:
            wrong.append(f"{name} has a by-hand reason but the table applies it {rec.coverage!s}")
    if wrong:
        raise CorrectionError("; ".join(wrong))


def corrected(rec: CardRecord) -> CardRecord:
    """``rec`` with its kept correction applied (itself when it has none): a card left by hand has
    every sentence by hand; a card with clauses has those clauses; a card with a by-hand reason
    has it as its note."""
    fix = corrections().get(rec.name)
    if fix is None:
        why = reasons().get(rec.name)
        return replace(rec, note=why) if why else rec
    if fix.by_hand:
        clauses = tuple(
            replace(c, readings=tuple(Reading(r.sentence, SentenceKind.BY_HAND) for r in c.readings) or c.readings)
            for c in rec.clauses
        )
        if not any(c.readings for c in clauses):
            clauses = (*clauses, clause({"by_hand": [fix.reason]}))
        return replace(rec, clauses=clauses, note=fix.reason)
    return replace(rec, clauses=tuple(clause(c) for c in fix.clauses), note=fix.reason)
