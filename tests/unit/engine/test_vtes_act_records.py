"""VTES acts read once into typed records: every act keeps its map and its bytes in the log, a bad
map is refused with its sentence, and a number out of range is refused by the rule in its turn."""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any

import pytest

from engine.games.base import IllegalMove, MalformedAct
from engine.games.vtes.act_records import (
    RECORDS,
    ActionAct,
    BareAct,
    PlayAct,
    PoolAct,
    StrikeAct,
    VoteAct,
)
from engine.games.vtes.acts import ACT_FIELDS, parse_act
from engine.games.vtes.game import VTES
from engine.games.vtes.vocab import ActionKind, Do, Lift, Target, VoteSource
from engine.protocol.codec import encode

_TERMS = {"limit": "each round", "limit_all": False, "replace": "after this action"}
_BY = {"lift": "timing", "by": [7, 3]}
FULL: list[dict[str, Any]] = [
    {"do": "deck", "crypt": 12, "library": 60},
    *({"do": d} for d in ("phase", "end_turn", "edge", "pass", "done", "withdraw", "time")),
    {"do": "burn_edge", "by": [2, 0]},
    {"do": "draw", "n": 2},
    {"do": "draw"},
    {"do": "play", "card": [5, 1]},
    {
        "do": "play",
        "card": [5, 1],
        "to": "on",
        "on": [6, 0],
        "controller": 1,
        "no_replace": True,
        "pool": 1,
        "blood": 2,
        "minion": [6, 0],
        "stealth": 1,
        "intercept": -1,
        "amount": 2,
        "target": 2,
        "bleed_mod": True,
        "lock": False,
        "wake": False,
        "unlock": True,
        "move_blood": 2,
        "add_blood": 3,
        "add_to": [7, 2],
        "votes": 2,
        "for": False,
        "strength": 2,
        "environmental": 1,
        "grapple": True,
        "close": False,
        "gain_blood": 3,
        "press": True,
        "aggravated": True,
        "whole_combat": False,
        "limit": "each round",
        "limit_all": True,
        "replace": "after combat",
    }
    | _BY,
    {
        "do": "play",
        "card": [5, 1],
        "fail_block": True,
        "end_action": True,
        "unlock_actor": True,
        "bar": [6, 0],
        "bar_vampires": True,
        "lock_failed": True,
        "wake_cost": 1,
        "block": True,
        "end_if_blocked": True,
        "minion": [6, 0],
    },
    {"do": "discard", "card": [5, 1], "no_replace": False},
    {"do": "discard", "card": [5, 1], "lift": "once", "by": [7, 3]},
    {"do": "move", "cards": [[5, 2], [5, 1]], "to": "library_bottom"},
    {
        "do": "move",
        "cards": [[5, 1]],
        "to": "on",
        "on": [6, 0],
        "controller": 0,
        "no_replace": True,
        "cause": "x",
        "by": [7, 3],
    },
    {"do": "burn", "cards": [[5, 1], [6, 0]], "no_replace": True, "cause": "burn", "by": [7, 3]},
    {"do": "lock", "cards": [[6, 0]], "cause": "card", "by": [7, 3]},
    {"do": "unlock", "cards": [[6, 0]], "cause": "card", "by": [7, 3]},
    {"do": "blood", "card": [6, 0], "delta": -2, "cause": "hunt", "by": [7, 3]},
    {"do": "life", "card": [6, 1], "delta": 1, "cause": "gain", "by": [7, 3]},
    {"do": "pool", "seat": 1, "delta": -1, "cause": "bleed", "by": [7, 3]},
    {"do": "pool", "delta": 2, "cause": "gain"},
    {"do": "pool", "changes": [[0, 1], [1, -1]], "cause": "gain"},
    {"do": "combat", "minions": [[6, 0], [8, 1]], "cause": "card", "by": [7, 3]},
    {"do": "influence", "card": [2, 0]},
    {"do": "contest", "card": [2, 0]},
    {"do": "yield", "card": [2, 0]},
    {"do": "transfer", "kind": "pool", "card": [2, 0], "n": 2},
    {"do": "transfer", "kind": "blood", "card": [2, 0]},
    {"do": "transfer", "kind": "crypt"},
    {"do": "transfer", "kind": "blood", "card": [2, 0], "n": 1, "by": [3, 1]},
    {"do": "hand_size", "seat": 1, "delta": 1, "cause": "card", "by": [7, 3]},
    {"do": "hand_size", "delta": -1},
    {"do": "shuffle", "zone": "crypt", "seat": 0, "cause": "card", "by": [7, 3]},
    {"do": "shuffle", "zone": "library"},
    {"do": "play", "card": [5, 1], "to": "ready", "ash_hand": [7, 2], "ash_library": [[7, 3], [7, 4]]},
    {"do": "play", "card": [5, 1], "to": "ready", "ash_hand": [7, 2], "ash_library": []},
    {"do": "play", "card": [5, 1], "lock_minion": [6, 0]},
    {"do": "action", "minion": [6, 0], "kind": "hunt"},
    {"do": "action", "minion": [6, 0], "kind": "rescue", "target_card": [8, 1], "cost_rescued": 1},
    {"do": "action", "minion": [6, 0], "kind": "other", "card": [5, 1], "add_blood": 3, "add_to": [2, 1]},
    {"do": "action", "minion": [6, 0], "kind": "bleed", "card": [5, 1], "gain_pool": 1, "limit": "each turn"},
    {"do": "action", "minion": [6, 0], "kind": "employ", "card": [5, 1], "life": 2},
    {
        "do": "action",
        "minion": [6, 0],
        "kind": "bleed",
        "card": [5, 1],
        "limit_all": True,
        "replace": "after this action",
    },
    {"do": "action", "minion": [6, 0], "kind": "bleed", "card": [5, 1], "unlock": True, "draws": 2},
    {"do": "action", "minion": [6, 0], "kind": "other", "card": [5, 1], "burn": True, "target_card": [8, 1]},
    {
        "do": "action",
        "minion": [6, 0],
        "kind": "bleed",
        "card": [5, 1],
        "target": 2,
        "target_card": [8, 1],
        "stealth": 1,
        "amount": 3,
        "cost_blood": 1,
        "cost_pool": 2,
    }
    | _BY,
    {"do": "block", "minion": [8, 1]},
    {"do": "block", "minion": [8, 1], "intercept": 1} | _BY,
    {"do": "adjust", "stealth": 1, "intercept": -1, "amount": 1, "target": 0, "cause": "rule"} | _BY,
    {"do": "adjust", "target": 1, "by": [7, 3]},
    {"do": "adjust", "intercept": 1, "blood": 1, "by": [7, 3]},
    {"do": "action_end", "by": [7, 3], "cause": "card"},
    {"do": "dispute", "act": 4},
    {"do": "dispute", "act": 4, "why": "no card named"},
    {"do": "accept", "act": 4},
    {"do": "lapse", "act": 4},
    {"do": "retract", "act": 4},
    {"do": "diablerise"},
    {"do": "diablerise", "take": False},
    {"do": "maneuver", "minion": [6, 0], "card": [5, 1], "press": True, **_TERMS, **_BY},
    {"do": "press", "minion": [6, 0]},
    {"do": "press", "minion": [6, 0], "card": [5, 1], "press": False, **_TERMS, **_BY},
    {"do": "strike", "minion": [6, 0]},
    {"do": "strike", "minion": [6, 0], "card": [5, 1], "torpor": True, "limit": "each round"},
    {"do": "strike", "minion": [6, 0], "card": [5, 1], "limit_all": True, "replace": "after combat"},
    {"do": "strike", "minion": [6, 0], "card": [5, 1], "burn": True},
    {"do": "strike", "minion": [6, 0], "aim": [5, 2]},
    {"do": "play", "card": [5, 1], "minion": [6, 0], "equip": [5, 2]},
    {
        "do": "strike",
        "minion": [6, 0],
        "damage": 2,
        "aggravated": True,
        "ranged": True,
        "first": False,
        "dodge": False,
        "ends": False,
        "steal": 1,
        "retainer": [9, 0],
        "other": True,
        "additional": 1,
        "unlock": True,
        "card": [5, 1],
        **_BY,
    },
    {
        "do": "prevent",
        "minion": [6, 0],
        "normal": 1,
        "agg": 2,
        "card": [5, 1],
        "blood": 1,
        "round": True,
        "press": True,
        "limit": "each round",
        "limit_all": True,
        "replace": "after combat",
        **_BY,
    },
    {"do": "terms", "text": "Theo Bell burns 1 blood"},
    {"do": "terms", "text": "Kine Resources Contested", "changes": [[1, 3], [2, 1]]},
    {"do": "terms", "text": "Parity Shift", "seat": 1, "changes": [[0, 3]]},
    {"do": "terms", "text": "Banishment", "card": [4, 2]},
    {"do": "terms", "text": "Ancilla Empowerment, as printed", "printed": True},
    {"do": "terms", "text": "Consanguineous Boon: Tremere", "clan": "Tremere"},
    {"do": "vote", "source": "card", "card": [5, 1], "count": 1, "for": False},
    {"do": "vote", "source": "edge"},
]


def _tuples(value: Any) -> Any:
    """A field with its positions (or pairs) as tuples; a list of them stays a list."""
    if isinstance(value, list):
        return [tuple(x) for x in value] if value and isinstance(value[0], list) else tuple(value)
    return value


@pytest.mark.parametrize("act", FULL, ids=lambda act: str(act["do"]))
def test_every_act_reads_into_its_record_and_gives_back_its_map_and_its_bytes(act):
    record = parse_act(act)
    assert type(record) is RECORDS[Do(act["do"])]
    assert record.to_map() == act
    assert encode(record.to_map()) == encode(act)
    # positions given as tuples (an act built in memory) read the same and log the same bytes
    as_tuples = {k: _tuples(v) for k, v in act.items()}
    assert parse_act(as_tuples) == record
    assert encode(parse_act(as_tuples).to_map()) == encode(act)


def test_every_act_and_every_field_has_a_sample():
    covered = {Do(act["do"]): set(act) - {"do"} for act in FULL}
    for act in FULL:
        covered[Do(act["do"])] |= set(act) - {"do"}
    assert covered == {do: set(keys) for do, keys in ACT_FIELDS.items()}


def test_a_record_holds_typed_fields_and_cannot_change():
    play = parse_act(max((act for act in FULL if act["do"] == "play"), key=len))
    assert isinstance(play, PlayAct)
    assert (play.card, play.to, play.on, play.lift, play.by) == ((5, 1), Target.ON, (6, 0), Lift.TIMING, (7, 3))
    assert play.no_replace is True and play.pool == 1 and play.target == 2
    action = parse_act({"do": "action", "minion": [6, 0], "kind": "bleed"})
    assert isinstance(action, ActionAct) and action.kind is ActionKind.BLEED
    assert action.card is None and action.stealth is None  # absent: the rule's default applies
    vote = parse_act({"do": "vote", "source": "title", "for": False})
    assert isinstance(vote, VoteAct) and vote.source is VoteSource.TITLE and vote.for_ is False
    pool = parse_act({"do": "pool", "changes": [[0, 1], [1, -1]], "cause": "gain"})
    assert isinstance(pool, PoolAct) and pool.changes == ((0, 1), (1, -1))
    assert isinstance(parse_act({"do": "pass"}), BareAct)
    strike = parse_act({"do": "strike", "minion": [6, 0], "retainer": [9, 0]})
    assert isinstance(strike, StrikeAct) and strike.retainer == (9, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.card = (1, 1)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("act", "sentence"),
    [
        (["not", "a", "map"], "an act is a map with a 'do' field"),
        ({"do": "draw", "cards": [[1, 2]]}, "the draw act has no 'cards' field"),
        ({"do": "draw", "n": True}, "'n' of the draw act must be a whole number"),
        ({"do": "deck", "crypt": 12}, "the deck act needs a whole number 'library'"),
        ({"do": "play", "card": [1, -2]}, "the card must be given as an [event, index] pair"),
        ({"do": "play", "card": [1, 2], "no_replace": 1}, "'no_replace' of the play act must be true or false"),
        ({"do": "play", "card": [1, 2], "to": "on"}, "a card put on another card needs 'on': the [event, index] of that card"),
        ({"do": "play", "card": [1, 2], "on": [3, 4]}, "'on' goes only with to='on'"),
        ({"do": "play", "card": [1, 2], "blood": 1}, "a blood cost needs 'minion': the vampire that pays it"),
        ({"do": "play", "card": [1, 2], "lift": "locked"}, "a lifted rule needs 'by': the card that lifts it"),
        ({"do": "play", "card": [1, 2], "controller": "me"}, "'controller' of the play act must be a seat number"),
        ({"do": "move", "cards": [[1, 2], [1, 2]], "to": "ash"}, "the move act names one of its cards twice"),
        ({"do": "burn", "cards": [[1, 2]], "to": "ash"}, "the burn act has no 'to' field"),
        ({"do": "lock", "cards": [[1, 2]], "cause": ""}, "the lock act needs a cause: a short phrase such as bleed, burn, cost, hunt or gain"),
        ({"do": "pool", "cause": "gain", "changes": [[0, 1]], "delta": 1}, "a pool act gives either 'seat' and 'delta' or 'changes', not both"),
        ({"do": "pool", "cause": "gain", "changes": [[0]]}, "'changes' must list [seat, delta] pairs"),
        ({"do": "combat", "minions": [[1, 2]]}, "combat is between two minions: list exactly two"),
        ({"do": "adjust", "intercept": 1, "blood": 1, "cause": "rule"}, "an adjust act with 'blood' names the card 'by' that gives the 'intercept'"),
        ({"do": "adjust", "stealth": 1}, "an adjust act names its source: 'by' (a card) or 'cause'"),
        ({"do": "diablerise", "take": "yes"}, "'take' of the diablerise act must be true or false"),
        ({"do": "strike", "minion": [1, 2], "retainer": [1]}, "the retainer must be given as an [event, index] pair"),
        ({"do": "terms", "text": 3}, "'text' of the terms act must be a text"),
        ({"do": "terms", "text": "x", "clan": 3}, "'clan' of the terms act must be a clan's name"),
        ({"do": "vote", "source": "edge", "for": "no"}, "'for' of the vote act must be true or false"),
        ({"do": "transfer", "kind": "crypt", "n": 1}, "a crypt transfer takes no 'card' and no 'n'"),
        ({"do": "shuffle", "zone": "hand"}, "'zone' of the shuffle act must be one of library, crypt"),
        ({"do": "dispute", "act": 4, "why": "{s0} cheats"}, "'why' of the dispute act is a short phrase: up to 60 printable characters, starting with a letter or a digit, none of <>[\\]`{}"),
        ({"do": "dispute", "act": 4, "why": "a" * 61}, "'why' of the dispute act is a short phrase: up to 60 printable characters, starting with a letter or a digit, none of <>[\\]`{}"),
        ({"do": "accept", "act": 4, "why": "fine"}, "the accept act has no 'why' field"),
    ],
)  # fmt: skip
def test_a_map_of_the_wrong_shape_is_refused_with_its_sentence_and_changes_nothing(act, sentence):
    state = VTES.setup(2, {})
    before = copy.deepcopy(state)
    with pytest.raises(MalformedAct) as err:
        parse_act(act)
    assert str(err.value) == sentence
    with pytest.raises(MalformedAct, match="^" + re.escape(sentence) + "$"):
        VTES.check(state, 0, act, {})
    assert state == before


def test_a_number_out_of_range_is_refused_by_the_rule_that_reads_it_in_its_turn():
    state = VTES.setup(2, {})
    # the range is the rule's: a well-formed map reads, and the deck rule refuses the number
    assert parse_act({"do": "deck", "crypt": 501, "library": 60}).to_map()["crypt"] == 501
    with pytest.raises(IllegalMove, match="^'crypt' of the deck act must be at most 500, not 501$"):
        VTES.check(state, 0, {"do": "deck", "crypt": 501, "library": 60}, {})
    state, _ = VTES.apply(state, 0, {"do": "deck", "crypt": 12, "library": 60}, {})
    # a seat that has declared hears that first, whatever its numbers
    with pytest.raises(IllegalMove, match="^you have already declared your deck sizes$"):
        VTES.check(state, 0, {"do": "deck", "crypt": 501, "library": 60}, {})
