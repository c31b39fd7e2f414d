"""Reading untrusted VTES acts (shared/rules/vtes.md, "Precise readings"; vtes-actions.md P2–P9):
the act vocabulary (:data:`ACT_FIELDS`), the field readers and :func:`parse_act`, which every act
passes before any rule is asked: it reads the map once into a typed record
(:mod:`engine.games.vtes.act_records`) and the rules read only the record.

An act is a canonical map with a ``"do"`` key (a :class:`~engine.games.vtes.vocab.Do`). An act
of the wrong shape (not a map, an unknown name or field, a field of the wrong type or outside the
act's vocabulary) raises :class:`MalformedAct`; a value the rules refuse raises
:class:`IllegalMove`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from engine.games.base import Act, IllegalMove, MalformedAct, Pos, act_position
from engine.games.vtes.act_records import LIMIT_WORDS, RECORDS, REPLACE_WORDS, VtesAct, make_record
from engine.games.vtes.vocab import (
    MOVE_TARGETS,
    PLAY_TARGETS,
    ActionKind,
    DeckPart,
    Do,
    Lift,
    Target,
    TransferKind,
    VoteSource,
)

_ACTION_NUMBERS = frozenset({"stealth", "intercept", "amount", "target"})

ACT_FIELDS: dict[Do, frozenset[str]] = {do: record.keys() for do, record in RECORDS.items()}
"""Every act (its ``"do"``) and the fields it may carry besides ``"do"``: the fields of its
record (:data:`~engine.games.vtes.act_records.RECORDS`)."""

_DO_BY_NAME: dict[str, Do] = {d.value: d for d in Do}

CAUSE_MAX = 60
"""The longest cause a change by hand may give, in characters."""
_CAUSE_BARRED = frozenset("{}[]<>\\`")
"""Characters a cause may not hold: the narration's seat references (``{s1}``) and the marks a
screen reads as markup."""
MAX_DELTA = 1000
CLAN_MAX = 40
"""The longest clan name an act may give, in characters (the rule checks it names a clan)."""


# --- reading untrusted acts -------------------------------------------------------------------


def read_int(act: Act, key: str, default: int | None = None, low: int | None = None, high: int | None = None) -> int:
    """Field ``key``: an int (``default`` when absent) within ``low``..``high``. Raises
    MalformedAct when missing without a default or not an int, IllegalMove out of range."""
    if key not in act:
        if default is None:
            raise MalformedAct(f"the {act['do']} act needs a whole number {key!r}")
        return default
    value = act[key]
    if type(value) is not int:
        raise MalformedAct(f"{key!r} of the {act['do']} act must be a whole number")
    if low is not None and value < low:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be at least {low}, not {value}")
    if high is not None and value > high:
        raise IllegalMove(f"{key!r} of the {act['do']} act must be at most {high}, not {value}")
    return value


def read_bool(act: Act, key: str, default: bool) -> bool:
    """Field ``key``: a bool (``default`` when absent). Raises MalformedAct for another type."""
    if key not in act:
        return default
    value = act[key]
    if type(value) is not bool:
        raise MalformedAct(f"{key!r} of the {act['do']} act must be true or false")
    return value


def read_word[W: StrEnum](act: Act, key: str, choices: tuple[W, ...], default: W | None = None) -> W:
    """Field ``key``: one of ``choices`` (``default`` when absent). Raises MalformedAct when
    missing without a default, or not one of them."""
    if key not in act:
        if default is None:
            raise MalformedAct(f"the {act['do']} act needs {key!r}: one of {', '.join(choices)}")
        return default
    value = act[key]
    for choice in choices:
        if isinstance(value, str) and value == choice:
            return choice
    raise MalformedAct(f"{key!r} of the {act['do']} act must be one of {', '.join(choices)}")


def read_seat(act: Act, key: str, default: int) -> int:
    """Field ``key``: a seat number (``default`` when absent). Raises MalformedAct for a value
    that is not an int; the caller checks that the seat can be named here."""
    value = act.get(key, default)
    if type(value) is not int:
        raise MalformedAct(f"{key!r} of the {act['do']} act must be a seat number")
    return value


read_pos = act_position


def read_positions(act: Act, key: str) -> tuple[Pos, ...]:
    """Field ``key``: a non-empty list of distinct positions, in the act's order. Raises
    MalformedAct otherwise."""
    raw = act.get(key)
    if not isinstance(raw, list) or not raw:
        raise MalformedAct(f"the {act['do']} act must list its {key} as [event, index] pairs")
    out = [read_pos(item, "cards") for item in raw]
    if len(set(out)) != len(out):
        raise MalformedAct(f"the {act['do']} act names one of its cards twice")
    return tuple(out)


def read_cause(act: Act) -> str:
    """Field ``cause``: a short phrase in the player's own words ("bleed", "her +1 bleed
    ability"): up to :data:`CAUSE_MAX` printable characters, starting with a letter or digit,
    none of :data:`_CAUSE_BARRED`. Raises MalformedAct otherwise."""
    value = act.get("cause")
    if not isinstance(value, str) or not _is_cause(value):
        raise MalformedAct(f"the {act['do']} act needs a cause: a short phrase such as bleed, burn, cost, hunt or gain")
    return value


def _is_cause(value: object) -> bool:
    """``value`` is a cause :func:`read_cause` takes."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= CAUSE_MAX
        and value[0].isalnum()
        and value.isprintable()
        and not _CAUSE_BARRED.intersection(value)
    )


def within(
    do: Do, key: str, value: int | None, low: int | None = None, high: int | None = None, default: int = 0
) -> int:
    """A number field of a ``do`` act (``default`` when absent) checked against ``low``..``high``.
    Raises IllegalMove out of range, with the sentence :func:`read_int` gives."""
    number = default if value is None else value
    if low is not None and number < low:
        raise IllegalMove(f"{key!r} of the {do} act must be at least {low}, not {number}")
    if high is not None and number > high:
        raise IllegalMove(f"{key!r} of the {do} act must be at most {high}, not {number}")
    return number


def esc(text: str) -> str:
    """Escape text for a Note template."""
    return text.replace("{", "{{").replace("}", "}}")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def act_name(act: Act) -> Do:
    """The name of an untrusted act. Raises MalformedAct for a non-map, an unknown ``"do"`` or a
    field the act does not take."""
    if not isinstance(act, dict):
        raise MalformedAct("an act is a map with a 'do' field")
    raw = act.get("do")
    do = _DO_BY_NAME.get(raw) if isinstance(raw, str) else None
    if do is None:
        known = ", ".join(sorted(_DO_BY_NAME))
        raise MalformedAct(f"there is no {raw!r} act at a VTES table (the acts are: {known})")
    extra = sorted(set(act) - ACT_FIELDS[do] - {"do"}, key=lambda k: (type(k) is not str, str(k)))  # any key type
    if extra:
        raise MalformedAct(f"the {do} act has no {extra[0]!r} field")
    return do


def read_field(do: Do, act: Act, key: str) -> Any:
    """Field ``key`` read to its type (a field name means the same in every act): an int, a bool,
    a text, a vocabulary word, a position, a tuple of positions or of ``(seat, delta)`` pairs.
    Raises MalformedAct."""
    match key:
        case (
            ("crypt" | "library" | "n" | "pool" | "blood" | "amount" | "delta" | "stealth" | "intercept" | "act")
            | (
                "cost_blood"
                | "cost_pool"
                | "cost_rescued"
                | "add_blood"
                | "gain_pool"
                | "move_blood"
                | "votes"
                | "draws"
            )
            | ("wake_cost" | "strength" | "environmental" | "gain_blood" | "life")
        ):
            return read_int(act, key)
        case "controller" | "seat" | "target":
            return read_seat(act, key, -1)
        case (
            "no_replace"
            | "bleed_mod"
            | "lock"
            | "unlock"
            | "wake"
            | "block"
            | "end_if_blocked"
            | "fail_block"
            | "lock_failed"
            | "bar_vampires"
            | "end_action"
            | "unlock_actor"
            | "aggravated"
            | "ranged"
            | "first"
            | "dodge"
            | "ends"
            | "other"
            | "for"
            | "burn"
            | "printed"
            | "torpor"
            | "grapple"
            | "close"
            | "press"
            | "round"
            | "limit_all"
            | "whole_combat"
        ):
            return read_bool(act, key, False)
        case "limit":
            return read_word(act, key, LIMIT_WORDS)
        case "replace":
            return read_word(act, key, REPLACE_WORDS)
        case "take":
            return read_bool(act, key, True)
        case "damage" | "steal" | "normal" | "agg" | "additional" | "count":
            return read_int(act, key)
        case "retainer":
            return read_pos(act[key], "retainer")
        case "text":
            if not isinstance(act[key], str):
                raise MalformedAct(f"{key!r} of the {act['do']} act must be a text")
            return act[key]
        case "clan":
            if not isinstance(act[key], str) or not 0 < len(act[key]) <= CLAN_MAX:
                raise MalformedAct(f"'clan' of the {act['do']} act must be a clan's name")
            return act[key]
        case "source":
            return read_word(act, key, tuple(VoteSource))
        case "target_card" | "by" | "add_to" | "bar" | "aim" | "equip" | "ash_hand" | "lock_minion":
            return read_pos(act[key], "card")
        case "lift":
            return read_word(act, key, tuple(Lift))
        case "card":
            return read_pos(act[key], "card")
        case "on":
            return read_pos(act[key], "card it goes on")
        case "minion":
            return read_pos(act[key], "minion")
        case "cards" | "minions":
            return read_positions(act, key)
        case "ash_library":
            return () if isinstance(act[key], (list, tuple)) and not act[key] else read_positions(act, key)
        case "cause":
            return read_cause(act)
        case "why":
            if not _is_cause(act[key]):
                raise MalformedAct(
                    f"'why' of the {act['do']} act is a short phrase: up to {CAUSE_MAX} printable characters, starting "
                    f"with a letter or a digit, none of {''.join(sorted(_CAUSE_BARRED))}"
                )
            return act[key]
        case "changes":
            raw = act[key]
            if (
                not isinstance(raw, list)
                or not raw
                or not all(isinstance(x, (list, tuple)) and len(x) == 2 and all(type(v) is int for v in x) for x in raw)
            ):
                raise MalformedAct("'changes' must list [seat, delta] pairs")
            return tuple((x[0], x[1]) for x in raw)
        case "to":
            return read_word(act, key, PLAY_TARGETS if do == Do.PLAY else MOVE_TARGETS)
        case "kind":
            return read_word(act, key, tuple(ActionKind) if do == Do.ACTION else tuple(TransferKind))
        case "zone":
            return read_word(act, key, (DeckPart.LIBRARY, DeckPart.CRYPT))
    raise AssertionError(f"no reader for the field {key!r}")  # every key of ACT_FIELDS has one


REQUIRED: dict[Do, tuple[str, ...]] = {do: record.required() for do, record in RECORDS.items() if record.required()}
"""The fields an act cannot do without: its record's fields with no default
(:meth:`~engine.games.vtes.act_records.ActRecord.required`); the others of :data:`ACT_FIELDS` are
None when left out."""


def parse_act(act: Act) -> VtesAct:
    """Read an untrusted act once into its typed record (:mod:`engine.games.vtes.act_records`),
    checking everything about it that no state could change: its name, its fields and their
    types, the fields it needs and the ones that go together. Raises MalformedAct with a
    sentence. The rules (IllegalMove, numbers out of range included) are checked only after this,
    on the record; ``parse_act(act).to_map() == act`` for the canonical map of a log."""
    do = act_name(act)
    values = {key: read_field(do, act, key) for key in sorted(set(act) - {"do"})}
    for key in REQUIRED.get(do, ()):
        if key not in act:
            read_missing(do, act, key)
    if ("lift" in act) != ("by" in act) and "lift" in act:
        raise MalformedAct("a lifted rule needs 'by': the card that lifts it")
    match do:
        case Do.PLAY | Do.MOVE:
            if act.get("to") == Target.ON and "on" not in act:
                raise MalformedAct("a card put on another card needs 'on': the [event, index] of that card")
            if "on" in act and act.get("to") != Target.ON:
                raise MalformedAct("'on' goes only with to='on'")
            if do == Do.PLAY and act.get("blood") and "minion" not in act:
                raise MalformedAct("a blood cost needs 'minion': the vampire that pays it")
            if do == Do.PLAY and act.get("move_blood") and "minion" not in act:
                raise MalformedAct("moved blood needs 'minion': the vampire it comes from")
        case Do.POOL:
            if "changes" in act and ("seat" in act or "delta" in act):
                raise MalformedAct("a pool act gives either 'seat' and 'delta' or 'changes', not both")
            if "changes" not in act and "delta" not in act:
                read_missing(do, act, "delta")
        case Do.COMBAT:
            if len(act["minions"]) != 2:
                raise MalformedAct("combat is between two minions: list exactly two")
        case Do.ADJUST:
            if not set(act) & _ACTION_NUMBERS:
                raise MalformedAct("an adjust act changes stealth, intercept, amount or target")
            if "by" not in act and "cause" not in act:
                raise MalformedAct("an adjust act names its source: 'by' (a card) or 'cause'")
            if "blood" in act and ("by" not in act or "intercept" not in act):
                raise MalformedAct("an adjust act with 'blood' names the card 'by' that gives the 'intercept'")
        case Do.TRANSFER:
            if act["kind"] == TransferKind.CRYPT:
                if "card" in act or "n" in act:
                    raise MalformedAct("a crypt transfer takes no 'card' and no 'n'")
            elif "card" not in act:
                read_missing(do, act, "card")
        case _:
            pass
    return make_record(do, values)


def read_missing(do: Do, act: Act, key: str) -> None:
    """Raise the MalformedAct that reading the missing field ``key`` raises."""
    match key:
        case "to":
            read_word(act, key, PLAY_TARGETS if do == Do.PLAY else MOVE_TARGETS)
        case "kind":
            read_word(act, key, tuple(ActionKind) if do == Do.ACTION else tuple(TransferKind))
        case "zone":
            read_word(act, key, (DeckPart.LIBRARY, DeckPart.CRYPT))
        case "cause":
            read_cause(act)
        case "cards" | "minions":
            read_positions(act, key)
        case "text":
            raise MalformedAct(f"the {do} act needs its 'text'")
        case "source":
            read_word(act, key, tuple(VoteSource))
        case "card" | "minion" | "by":
            raise MalformedAct(f"the {do} act needs {key!r}: the [event, index] pair of that card")
        case _:
            read_int(act, key)
