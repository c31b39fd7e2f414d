"""Canonical MessagePack with limits, and the schema checks for untrusted values (PROTOCOL.md 1)."""

from __future__ import annotations

import hashlib

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import VampireError
from engine.protocol.codec import (
    DEFAULT_LIMITS,
    CodecError,
    LimitError,
    Limits,
    SchemaError,
    bin_of,
    check_bytes,
    check_int,
    check_list,
    check_map,
    check_str,
    check_type,
    decode,
    domain,
    encode,
    hash_input,
    int_in,
    list_of,
    nullable,
    one_of,
    sha256,
)

# Protocol values: the types PROTOCOL.md 1 allows, nested.
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.text(max_size=20)
    | st.binary(max_size=40)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)
DEEP = Limits(max_depth=64)


def same(a, b) -> bool:
    """Equal values of equal types all the way down (so True is not 1 and b"a" is not "a")."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def rejects(data: bytes, limits: Limits = DEFAULT_LIMITS) -> str:
    with pytest.raises(CodecError) as info:
        decode(data, limits)
    return str(info.value)


# --- the encoder the project started with ---


def test_hash_inputs_are_the_canonical_array_of_domain_and_fields():
    assert domain("head") == "vampire-table/head/v1"
    assert hash_input("rand", b"\x01", 2) == encode(["vampire-table/rand/v1", b"\x01", 2])
    assert sha256("rand", b"\x01", 2) == hashlib.sha256(hash_input("rand", b"\x01", 2)).digest()


def test_encoding_sorts_keys_by_utf8_bytes_and_refuses_floats():
    expected = msgpack.packb({"a": 2, "b": 1, "é": 3}, use_bin_type=True)
    assert encode({"b": 1, "a": 2, "é": 3}) == expected
    with pytest.raises(CodecError):
        encode(1.5)
    with pytest.raises(CodecError):
        encode({1: 2})


def test_codec_errors_are_the_projects_errors():
    assert issubclass(CodecError, VampireError)
    assert issubclass(LimitError, CodecError) and issubclass(SchemaError, CodecError)


# --- canonical round trips ---


@given(values)
def test_every_protocol_value_round_trips_through_its_one_encoding(value):
    data = encode(value)
    back = decode(data, DEEP)
    assert encode(back) == data
    assert same(back, decode(encode(back), DEEP))


@given(st.dictionaries(st.text(max_size=8), scalars, max_size=8))
def test_decoded_maps_come_back_with_the_same_entries(value):
    assert same(decode(encode(value)), dict(value))


def test_tuples_encode_as_arrays_and_decode_as_lists():
    assert decode(encode((1, (b"x", "y")))) == [1, [b"x", "y"]]


# --- one value, one encoding ---


def test_unsorted_map_keys_are_refused():
    assert "not sorted" in rejects(b"\x82\xa1b\x01\xa1a\x02")  # {"b": 1, "a": 2}
    rejects(encode([{"a": 1}])[:1] + b"\x82\xa2ab\x01\xa1a\x02")  # "ab" before "a", nested


def test_keys_are_sorted_by_utf8_bytes_not_by_code_point_order_of_python():
    # U+FF61 sorts before U+10000 as code points, after it as UTF-16, and before it as UTF-8.
    assert decode(encode({"\U00010000": 1, "\uff61": 2})) == {"\uff61": 2, "\U00010000": 1}
    assert list(decode(encode({"b": 1, "a": 2, "é": 3}))) == ["a", "b", "é"]


def test_duplicate_map_keys_are_refused():
    assert "twice" in rejects(b"\x82\xa1a\x01\xa1a\x02")  # {"a": 1, "a": 2}


@pytest.mark.parametrize(
    "data",
    [
        b"\xcc\x05",  # 5 as uint8
        b"\xcd\x00\xff",  # 255 as uint16
        b"\xcf" + (1).to_bytes(8, "big"),  # 1 as uint64
        b"\xd0\x05",  # 5 as int8: non-negative ints are unsigned
        b"\xd0\xff",  # -1 as int8: it is a negative fixint
        b"\xd1\xff\x80",  # -128 as int16
    ],
)
def test_non_minimal_ints_are_refused(data):
    rejects(data)


@pytest.mark.parametrize(
    "data",
    [
        b"\xd9\x01a",  # "a" as str8
        b"\xc5\x00\x01x",  # b"x" as bin16
        b"\xdc\x00\x01\x01",  # [1] as array16
        b"\xde\x00\x01\xa1a\x01",  # {"a": 1} as map16
    ],
)
def test_non_minimal_lengths_are_refused(data):
    rejects(data)


@pytest.mark.parametrize("data", [b"\xca\x3f\xc0\x00\x00", b"\xcb" + bytes(8)])
def test_floats_are_refused(data):
    assert "Floats" in rejects(data)


@pytest.mark.parametrize(
    "data",
    [b"\xd4\x01\x00", b"\xd6\xff\x00\x00\x00\x00", b"\xc7\x01\x05\x00", b"\x91\xd5\x02\x00\x00"],
)
def test_extension_types_are_refused_even_timestamps(data):
    assert "extension" in rejects(data)


@pytest.mark.parametrize(
    "data",
    [b"\x81\x01\x01", b"\x81\xc4\x01a\x01", b"\x81\xc0\x01", b"\x81\x90\x01", b"\x81\xc2\x01"],
)
def test_map_keys_that_are_not_str_are_refused(data):
    assert "key" in rejects(data)


def test_text_must_be_valid_utf8():
    assert "UTF-8" in rejects(b"\xa2\xff\xfe")
    rejects(b"\xa3\xed\xa0\x80")  # an encoded surrogate


def test_bin_and_str_stay_apart():
    assert decode(encode(b"abc")) == b"abc" and decode(encode("abc")) == "abc"
    with pytest.raises(SchemaError):
        check_type(b"abc", str, "the name")
    with pytest.raises(SchemaError):
        check_type("abc", bytes, "the commitment")


@pytest.mark.parametrize("data", [b"\x01\x02", b"\xc0\xc0", encode({"a": 1}) + b"\x00"])
def test_trailing_bytes_are_refused(data):
    assert "after the end" in rejects(data)


@pytest.mark.parametrize(
    "data",
    [b"", b"\xcd\x01", b"\xa5abc", b"\x92\x01", b"\xc4\x05ab", b"\xdd\x00\x00", b"\x81\xa1a"],
)
def test_truncated_values_are_refused(data):
    rejects(data)


def test_the_unused_format_byte_is_refused():
    rejects(b"\xc1")


def test_only_bytes_can_be_decoded():
    with pytest.raises(CodecError):
        decode("not bytes")  # type: ignore[arg-type]


# --- limits ---

SMALL = Limits(max_bytes=64, max_bin=8, max_str=8, max_array=4, max_map=2, max_depth=3)


@pytest.mark.parametrize(
    "value",
    [b"x" * 9, "x" * 9, [0] * 5, {"a": 1, "b": 2, "c": 3}, [[[[]]]], [b"x" * 8] * 4 + [b"x" * 30]],
)
def test_values_over_the_limits_are_refused(value):
    with pytest.raises(LimitError):
        decode(encode(value), SMALL)


@pytest.mark.parametrize("value", [b"x" * 8, "x" * 8, [0] * 4, {"a": 1, "b": 2}, [[[]]]])
def test_values_at_the_limits_are_accepted(value):
    assert same(decode(encode(value), SMALL), value)


def test_depth_counts_nested_arrays_and_maps():
    assert decode(encode([{"a": [1]}]), Limits(max_depth=3)) == [{"a": [1]}]
    with pytest.raises(LimitError):
        decode(encode([{"a": [[1]]}]), Limits(max_depth=3))


def test_nesting_far_beyond_the_limit_is_refused_without_recursion():
    with pytest.raises(LimitError):
        decode(b"\x91" * 100_000 + b"\xc0")


def test_declared_lengths_must_fit_in_the_bytes_given():
    # Each header declares 65535 items; msgpack would preallocate them all, nested.
    rejects(b"\xdc\xff\xff" * 10 + b"\xc0")
    rejects(b"\xdf\x00\x00\x00\x10" + b"\xa1a\x01")
    with pytest.raises(LimitError):
        decode(b"\xdd\xff\xff\xff\xff")


def test_the_default_limits_fit_protocol_entries():
    assert Limits(4 * 1024 * 1024, 1024 * 1024, 64 * 1024, 100_000, 256, 16) == DEFAULT_LIMITS


# --- fuzzing: any bytes give a value or a CodecError ---


def canonical_by_definition(data: bytes) -> bool:
    """PROTOCOL.md 1 read literally: the value decodes and re-encodes to the same bytes."""
    try:
        return encode(msgpack.unpackb(data, raw=False, strict_map_key=False)) == data
    except Exception:
        return False


def check_decodes_or_refuses(data: bytes, limits: Limits = DEFAULT_LIMITS) -> None:
    try:
        value = decode(data, limits)
    except LimitError:
        return
    except CodecError:
        assert not canonical_by_definition(data)  # refused for a reason, not a limit
        return
    assert encode(value) == data  # what is accepted is canonical


@settings(max_examples=400)
@given(st.binary(max_size=64))
def test_random_bytes_decode_or_raise_codec_error(data):
    check_decodes_or_refuses(data)


@settings(max_examples=400)
@given(st.binary(min_size=1, max_size=8).map(lambda head: head + bytes(16)))
def test_random_headers_decode_or_raise_codec_error(data):
    check_decodes_or_refuses(data, SMALL)


@settings(max_examples=400)
@given(values, st.data())
def test_mutated_encodings_decode_or_raise_codec_error(value, data):
    raw = bytearray(encode(value))
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        at = data.draw(st.integers(0, max(len(raw) - 1, 0)))
        if op == "flip" and raw:
            raw[at] ^= data.draw(st.integers(1, 255))
        elif op == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        elif op == "delete" and raw:
            del raw[at]
        elif op == "truncate":
            del raw[at:]
    check_decodes_or_refuses(bytes(raw))
    check_decodes_or_refuses(bytes(raw), SMALL)


# --- schema checks ---


def test_an_int_is_never_a_bool_and_a_bool_never_an_int():
    assert check_type(3, int, "the seq") == 3
    with pytest.raises(SchemaError, match="must be an int, not a bool"):
        check_type(True, int, "the seq")
    with pytest.raises(SchemaError, match="must be a bool, not an int"):
        check_type(1, bool, "the flag")


def test_check_map_returns_the_checked_fields():
    body = {"event": 2, "commit": b"c" * 32, "note": None}
    required = {"event": int_in(0), "commit": bin_of(32)}
    checked = check_map(body, required, {"note": nullable(str)}, "the shuffle body")
    assert checked == body and checked is not body


def test_check_map_accepts_absent_optional_fields():
    assert check_map({"a": 1}, {"a": int}, {"b": str}, "the body") == {"a": 1}


def test_check_map_names_a_missing_field():
    with pytest.raises(SchemaError, match=r"^The shuffle body is missing the field 'commit'\.$"):
        check_map({"event": 1}, {"event": int, "commit": bytes}, what="the shuffle body")


def test_check_map_refuses_unknown_fields():
    with pytest.raises(SchemaError, match=r"^The shuffle body has the unknown field 'extra'\.$"):
        check_map({"event": 1, "extra": 0}, {"event": int}, what="the shuffle body")


def test_check_map_names_a_mistyped_field():
    message = r"^The shuffle body field 'event' must be an int, not a str\.$"
    with pytest.raises(SchemaError, match=message):
        check_map({"event": "1"}, {"event": int}, what="the shuffle body")


def test_check_map_refuses_what_is_not_a_map():
    with pytest.raises(SchemaError, match="must be a map, not an array"):
        check_map([1], {"a": int}, what="the body")


def test_validators_name_the_item_at_fault():
    with pytest.raises(SchemaError, match=r"field 'points' item 1 must be 32 bytes long, not 3\."):
        check_map({"points": [b"p" * 32, b"abc"]}, {"points": list_of(bin_of(32))}, what="the lock body")


def test_small_checks():
    assert check_bytes(b"ab", 2, "the key") == b"ab"
    assert check_bytes(b"abc", None, "the salt") == b"abc"
    with pytest.raises(SchemaError, match="at least 0, not -1"):
        check_int(-1, "the seq", lo=0)
    with pytest.raises(SchemaError, match="from 0 to 3"):
        check_int(4, "the seat", 0, 3)
    with pytest.raises(SchemaError, match="one of player, spectator"):
        one_of("player", "spectator")("host", "the role")
    with pytest.raises(SchemaError, match="at most 3 characters"):
        check_str("abcd", "the name", max_len=3)
    with pytest.raises(SchemaError, match="must have 2 items, not 1"):
        check_list([1], int, "the pair", 2, 2)
    assert nullable(int)(None, "x") is None and nullable(int)(3, "x") == 3
