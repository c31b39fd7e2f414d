"""A VTES act in a player's words (engine.games.vtes.game.describe_act, DESIGN.md "Games behind one
interface"): every act is narrated from its parsed record (engine.games.vtes.act_records), and a
map that does not parse (a log's bad map) is narrated as such, in one sentence, never raising."""

from __future__ import annotations

import typing
from dataclasses import fields
from types import UnionType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.base import Pos
from engine.games.vtes.act_records import RECORDS
from engine.games.vtes.acts import ACT_FIELDS, REQUIRED, parse_act, read_field
from engine.games.vtes.game import describe_act, describe_record
from engine.games.vtes.state import VtesState
from engine.games.vtes.vocab import Do
from tests.support.vtes_sim import minion_phase_table

NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def state() -> VtesState:
    return minion_phase_table().state


def a_card(state: VtesState) -> list[int]:
    return list(next(c.pos for c in state.cards if c.zone == "ready"))


def examples(state: VtesState) -> dict[Do, dict[str, object]]:
    """One well-formed act of every kind (its map), naming a card in play."""
    card = a_card(state)
    other = list(next(c.pos for c in state.cards if c.zone == "ready" and list(c.pos) != card))
    return {
        Do.DECK: {"crypt": 12, "library": 60},
        Do.PHASE: {},
        Do.END_TURN: {},
        Do.EDGE: {},
        Do.BURN_EDGE: {"by": card},
        Do.DRAW: {"n": 2},
        Do.PLAY: {"card": card, "to": "ready", "pool": 1, "stealth": 1},
        Do.DISCARD: {"card": card},
        Do.MOVE: {"cards": [card], "to": "torpor", "cause": "bleed"},
        Do.BURN: {"cards": [card, other]},
        Do.LOCK: {"cards": [card]},
        Do.UNLOCK: {"cards": [card]},
        Do.BLOOD: {"card": card, "delta": 2, "cause": "hunt"},
        Do.LIFE: {"card": card, "delta": -1, "cause": "burn"},
        Do.POOL: {"changes": [[1, -1], [2, 1]], "cause": "cost"},
        Do.COMBAT: {"minions": [card, other]},
        Do.INFLUENCE: {"card": card},
        Do.TRANSFER: {"kind": "pool", "card": card, "n": 2},
        Do.HAND_SIZE: {"seat": 1, "delta": 1},
        Do.SHUFFLE: {"zone": "library"},
        Do.ACTION: {"minion": card, "kind": "bleed", "target": 1, "amount": 2},
        Do.BLOCK: {"minion": card, "intercept": 1},
        Do.PASS: {},
        Do.ADJUST: {"stealth": 1, "cause": "gain"},
        Do.ACTION_END: {"by": card},
        Do.DISPUTE: {"act": 3},
        Do.ACCEPT: {"act": 3},
        Do.LAPSE: {"act": 3},
        Do.RETRACT: {"act": 3},
        Do.DIABLERISE: {},
        Do.MANEUVER: {"minion": card},
        Do.STRIKE: {"minion": card, "damage": 2, "aggravated": True},
        Do.PREVENT: {"minion": card, "normal": 1},
        Do.PRESS: {"minion": card},
        Do.TERMS: {"text": "{s1} burns 1 pool"},
        Do.VOTE: {"source": "edge", "for": False},
        Do.DONE: {},
        Do.WITHDRAW: {},
        Do.TIME: {},
        Do.CONTEST: {"card": card},
        Do.YIELD: {"card": card},
    }


def test_every_act_kind_is_narrated_from_its_record(state: VtesState) -> None:
    acts = examples(state)
    assert set(acts) == set(Do)
    for do, fields_ in acts.items():
        act = {"do": do.value, **fields_}
        record = parse_act(act)
        note = describe_act(state, 0, act, {})
        assert note == describe_record(state, 0, record, {})
        assert "malformed" not in note.text and note.render(NAMES)


def test_the_words_of_well_formed_acts(state: VtesState) -> None:
    card = a_card(state)

    def said(**act: object) -> str:
        return describe_act(state, 0, act, {}).render(NAMES)

    assert said(do="deck", crypt=12, library=60) == "Ana brings a crypt of 12 and a library of 60 cards"
    assert said(do="draw") == "Ana draws 1 card"
    assert said(do="pool", delta=-2, cause="bleed") == "Ana: Ana -2 pool (bleed)"
    assert said(do="hand_size", seat=2, delta=1) == "Ana changes Cy's hand size by 1"
    assert said(do="vote", source="edge") == "Ana votes for (edge: the Edge)"
    burned = said(do="burn_edge", by=card)  # the card's name once, not again as "(by …)"
    assert burned.startswith("Ana burns the Edge for ") and "(by" not in burned
    assert said(do="transfer", kind="crypt").startswith("Ana moves the top card of the crypt")
    assert said(do="dispute", act=4) == "Ana disputes act 4"
    assert said(do="terms", text="{s1} and {x}") == "Ana sets the terms: Ben and {x}"
    assert said(do="shuffle", zone="crypt") == "Ana shuffles Ana's crypt"
    assert said(do="strike", minion=card).endswith(" strikes: hand strike, 1 damage")


@pytest.mark.parametrize(
    ("act", "words"),
    [
        ("not a map", "Ana makes a malformed act: an act is a map with a 'do' field"),
        ({}, "Ana makes a malformed act: there is no None act at a VTES table"),
        ({"do": "fly"}, "Ana makes a malformed fly act: there is no 'fly' act at a VTES table"),
        ({"do": 7}, "Ana makes a malformed act: there is no 7 act"),
        ({"do": "draw", "n": "two"}, "Ana makes a malformed draw act: 'n' of the draw act must be a whole number"),
        ({"do": "play"}, "Ana makes a malformed play act: the play act needs 'card'"),
        ({"do": "pass", "x": 1}, "Ana makes a malformed pass act: the pass act has no 'x' field"),
        ({"do": "pass", 1: 2, "y": 3}, "Ana makes a malformed pass act: the pass act has no 'y' field"),
        ({"do": "combat", "minions": [[1, 1]]}, "Ana makes a malformed combat act: combat is between two minions"),
        ({"do": "{s9} {", "x": 1}, "Ana makes a malformed {s9} { act: there is no '{s9} {' act"),
    ],
)
def test_a_bad_map_is_narrated_as_such(state: VtesState, act: object, words: str) -> None:
    note = describe_act(state, 0, act, {})  # type: ignore[arg-type]
    assert note.seats == (0,)
    assert note.render(NAMES).startswith(words)


def test_a_long_bad_name_is_cut(state: VtesState) -> None:
    text = describe_act(state, 0, {"do": "x" * 5000}, {}).render(NAMES)
    assert len(text) < 700 and text.endswith("…")


# Msgpack-able values: what a log's map may hold after decoding.
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=12)
    | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.integers(), inner, max_size=4),
    max_leaves=12,
)
known_keys = st.sampled_from(sorted({"do", *(k for keys in ACT_FIELDS.values() for k in keys)}))
maps = st.one_of(
    st.dictionaries(known_keys | st.text(max_size=6) | st.integers(), values, max_size=8),
    st.builds(
        lambda do, rest: {**rest, "do": do},
        st.sampled_from([d.value for d in Do]),
        st.dictionaries(known_keys, values | st.lists(st.integers(0, 40), min_size=2, max_size=2), max_size=6),
    ),
    values,
)


@settings(max_examples=400, deadline=None)
@given(act=maps)
def test_any_map_is_narrated_and_nothing_raises(state: VtesState, act: object) -> None:
    note = describe_act(state, 1, act, {})  # type: ignore[arg-type]
    assert note.render(NAMES)
    assert 1 in note.seats


def test_required_fields_are_the_records_fields_without_default() -> None:
    for do, record in RECORDS.items():
        assert REQUIRED.get(do, ()) == record.required()
        missing = {"do": do.value}
        if record.required():
            with pytest.raises(Exception, match="needs|must|list"):
                parse_act(missing)


def test_every_field_reads_to_its_records_type(state: VtesState) -> None:
    """read_field (a field name means one thing in every act) gives what the record declares."""
    acts = examples(state)
    for do, record in RECORDS.items():
        hints = typing.get_type_hints(record)
        for f in fields(record):
            key = "for" if f.name == "for_" else f.name
            if f.name == "do" or key not in acts[do]:
                continue
            value = read_field(do, {"do": do.value, **acts[do]}, key)
            declared = hints[f.name]
            allowed = typing.get_args(declared) if isinstance(declared, UnionType) else (declared,)
            assert any(_fits(value, t) for t in allowed), (do, key, value, declared)


def _fits(value: object, t: object) -> bool:
    if t is type(None):
        return value is None
    if t is Pos or typing.get_origin(t) is tuple:
        return isinstance(value, tuple)
    return isinstance(value, t) and not (t is int and isinstance(value, bool))  # type: ignore[arg-type]


def test_a_hand_strike_is_narrated_with_the_strength_the_card_prints(state: VtesState) -> None:
    """A hand strike deals the minion's printed strength (5.4): the act's line says the damage the
    table deals (a tester read "hand strike, 1 damage" then "takes 2 damage" for a strength-2 ally)."""
    import dataclasses

    from engine.games.vtes.cards import card_base

    found = card_base().lookup("Emerald Legionnaire")
    assert found is not None
    pos = tuple(a_card(state))
    cards = tuple(dataclasses.replace(c, card=f"{found.id}-1") if c.pos == pos else c for c in state.cards)
    legionnaire = dataclasses.replace(state, cards=cards)
    line = describe_act(legionnaire, 0, {"do": "strike", "minion": list(pos)}, {}).render(NAMES)
    assert line.endswith(" strikes: hand strike, 2 damage"), line
