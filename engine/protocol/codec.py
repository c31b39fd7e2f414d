"""Canonical MessagePack (PROTOCOL.md 1).

``encode`` writes the one canonical encoding of a value; ``hash_input`` and ``sha256`` build every
hash input of the protocol as the canonical encoding of ``[domain, *fields]``. ``decode`` accepts
only the canonical encoding of a protocol value, within explicit :class:`Limits`; ``check_map`` and
its helpers check the shape of decoded, untrusted values.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import msgpack

from engine.errors import VampireError


class CodecError(VampireError):
    """Bytes that are not one canonical protocol value, or a value the protocol cannot carry."""


def _canon(value: Any) -> Any:
    # bool before int: bool is a subclass of int and keeps its own msgpack type.
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                raise CodecError(f"map keys must be str, not {type(k).__name__}")
        return {k: _canon(value[k]) for k in sorted(value, key=lambda k: k.encode("utf-8"))}
    raise CodecError(f"the protocol cannot encode a {type(value).__name__}")


def encode(value: Any) -> bytes:
    """The canonical encoding of ``value`` (nil, bool, int, str, bytes, list/tuple, str-keyed dict).

    Raises CodecError for floats, other types and non-str map keys.
    """
    try:
        packed: bytes = msgpack.packb(_canon(value), use_bin_type=True)
        return packed
    except (OverflowError, TypeError) as err:
        raise CodecError(f"cannot encode: {err}") from None


def domain(purpose: str) -> str:
    """The domain string of a hash: ``"vampire-table/<purpose>/v1"``."""
    return f"vampire-table/{purpose}/v1"


def hash_input(purpose: str, *fields: Any) -> bytes:
    """The bytes hashed for ``purpose``: canonical encoding of ``[domain(purpose), *fields]``."""
    return encode([domain(purpose), *fields])


def sha256(purpose: str, *fields: Any) -> bytes:
    """SHA-256 (32 bytes) of ``hash_input(purpose, *fields)``."""
    return hashlib.sha256(hash_input(purpose, *fields)).digest()


# --- Decoding (PROTOCOL.md 1) -------------------------------------------------------------------


class LimitError(CodecError):
    """Bytes that exceed a decoding limit (total size, a length or the nesting depth)."""


class SchemaError(CodecError):
    """A decoded value whose shape is not the one the protocol asks for (a missing, unknown or
    mistyped field)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds applied while decoding untrusted bytes (PROTOCOL.md 1).

    ``max_bytes``: whole input, in bytes; ``max_bin`` / ``max_str``: length of one bin / str, in
    bytes; ``max_array``: elements of one array; ``max_map``: pairs of one map; ``max_depth``:
    containers (arrays and maps) nested in one another (``[]`` has depth 1, ``[[1]]`` depth 2);
    ``max_objects``: MessagePack objects in the whole input, counting the outermost value and every
    element of every array and map (a map pair is two: its key and its value) (PROTOCOL.md 7,
    "Budgets": this bound, not the byte size, is what makes the cost of decoding small).
    """

    max_bytes: int = 4 * 1024 * 1024
    max_bin: int = 1024 * 1024
    max_str: int = 64 * 1024
    max_array: int = 100_000
    max_map: int = 256
    max_depth: int = 16
    max_objects: int = 262_144


DEFAULT_LIMITS = Limits()
"""Limits for protocol entries, log frames and wire frames (4 MiB, as PROTOCOL.md 7)."""

# What each MessagePack lead byte starts: (kind, n). Kinds: _SCALAR (n: total size in bytes),
# _STR/_BIN/_ARRAY/_MAP (n: the count itself for fix forms, else -width of the count field),
# _BAD (never protocol data; n unused).
_SCALAR, _STR, _BIN, _ARRAY, _MAP, _BAD = range(6)


def _lead_bytes() -> tuple[tuple[int, int], ...]:
    table = [(_BAD, 0)] * 256
    for b in (*range(0x00, 0x80), *range(0xE0, 0x100), 0xC0, 0xC2, 0xC3):
        table[b] = (_SCALAR, 1)
    for b, size in {0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9, 0xD0: 2, 0xD1: 3, 0xD2: 5, 0xD3: 9}.items():
        table[b] = (_SCALAR, size)
    for b in range(0xA0, 0xC0):
        table[b] = (_STR, b & 0x1F)
    for b in range(0x90, 0xA0):
        table[b] = (_ARRAY, b & 0x0F)
    for b in range(0x80, 0x90):
        table[b] = (_MAP, b & 0x0F)
    for kind, firsts in ((_BIN, (0xC4, 0xC5, 0xC6)), (_STR, (0xD9, 0xDA, 0xDB))):
        for b, width in zip(firsts, (1, 2, 4), strict=True):
            table[b] = (kind, -width)
    for kind, pair in ((_ARRAY, (0xDC, 0xDD)), (_MAP, (0xDE, 0xDF))):
        for b, width in zip(pair, (2, 4), strict=True):
            table[b] = (kind, -width)
    return tuple(table)


_LEAD = _lead_bytes()
_TRUNCATED = "The data ends in the middle of a value."


def _refusal(b: int) -> str:
    if b in (0xCA, 0xCB):
        return "Floats are not protocol data."
    if b == 0xC1:
        return "The data holds the unused MessagePack byte 0xc1."
    return "MessagePack extension types are not protocol data."


def _scan(data: bytes, limits: Limits) -> None:
    """Walk the msgpack headers of ``data`` before msgpack builds anything.

    msgpack preallocates an array from its declared length, so nested over-long headers would cost
    memory far beyond the input: here every declared count must fit in the bytes that remain and
    the depth is bounded. Types the protocol never carries are refused with a sentence, and the
    keys of every map must be strs in strictly increasing UTF-8 byte order (sorted, no duplicates),
    which is what lets :func:`decode` compare with msgpack's own packer instead of ``encode``.

    Objects are counted as each container's header is read (its declared items are charged before
    any of them is walked), so a value over ``limits.max_objects`` is refused having cost at most
    that many steps, whatever its size (PROTOCOL.md 7, "Budgets").
    """
    end = len(data)
    pos = 0
    objects = 1  # the outermost value
    left, in_map, last_key = 1, False, None  # the open container: items left, map?, previous key
    stack: list[tuple[int, bool, bytes | None]] = []
    while True:
        while left == 0:
            if not stack:
                if pos > end:
                    raise CodecError(_TRUNCATED)
                if pos < end:
                    extra = end - pos
                    plural = "s" if extra > 1 else ""
                    raise CodecError(f"The data has {extra} byte{plural} after the end of its value.")
                return
            left, in_map, last_key = stack.pop()
        is_key = in_map and left % 2 == 0
        left -= 1
        if pos >= end:
            raise CodecError(_TRUNCATED)
        b = data[pos]
        kind, n = _LEAD[b]
        if kind == _SCALAR:
            if is_key:
                raise CodecError("A map key is not a str; protocol maps have str keys only.")
            pos += n
            continue
        if kind == _BAD:
            raise CodecError(_refusal(b))
        pos += 1
        if n < 0:
            if pos - n > end:
                raise CodecError(_TRUNCATED)
            n, pos = int.from_bytes(data[pos : pos - n], "big"), pos - n
        if is_key and kind != _STR:
            raise CodecError("A map key is not a str; protocol maps have str keys only.")
        if kind == _STR:
            if n > limits.max_str:
                raise LimitError(f"A str of {n} bytes is over the limit of {limits.max_str}.")
            if is_key:
                key = data[pos : pos + n]
                if last_key is not None and key <= last_key:
                    raise CodecError("The keys of a map are not sorted, or a key appears twice.")
                last_key = key
            pos += n
        elif kind == _BIN:
            if n > limits.max_bin:
                raise LimitError(f"A bin of {n} bytes is over the limit of {limits.max_bin}.")
            pos += n
        else:
            if kind == _MAP:
                if n > limits.max_map:
                    raise LimitError(f"A map of {n} pairs is over the limit of {limits.max_map}.")
                n *= 2
            elif n > limits.max_array:
                raise LimitError(f"An array of {n} items is over the limit of {limits.max_array}.")
            if n > end - pos:  # every item takes at least one byte
                raise CodecError(_TRUNCATED)
            objects += n
            if objects > limits.max_objects:
                raise LimitError(f"The data holds more than {limits.max_objects} MessagePack objects.")
            if len(stack) >= limits.max_depth:
                raise LimitError(f"The data nests deeper than {limits.max_depth} arrays and maps.")
            if n == 0:
                continue  # an empty container opens nothing: no stack step (the cheapest object)
            stack.append((left, in_map, last_key))
            left, in_map, last_key = n, kind == _MAP, None


def decode(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """The one protocol value whose canonical encoding is ``data`` (PROTOCOL.md 1).

    Returns None, bool, int, str, bytes, list or dict (str keys). Raises LimitError (a CodecError)
    when ``data`` exceeds ``limits``, and CodecError for anything else that is not exactly one
    canonical value: floats, extension types, non-str keys, trailing bytes, unsorted or duplicate
    keys, non-minimal ints, str/bin swaps, invalid UTF-8. Never raises anything else.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CodecError(f"Only bytes can be decoded, not a {type(data).__name__}.")
    data = bytes(data)
    if len(data) > limits.max_bytes:
        raise LimitError(f"{len(data)} bytes are over the limit of {limits.max_bytes}.")
    _scan(data, limits)
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            max_str_len=limits.max_str,
            max_bin_len=limits.max_bin,
            max_array_len=limits.max_array,
            max_map_len=limits.max_map,
            max_ext_len=0,
        )
        # The scan saw every map's keys sorted and distinct, so the decoded dicts are already in
        # canonical order and msgpack's packer gives exactly ``encode(value)``, much faster.
        same = msgpack.packb(value, use_bin_type=True) == data
    except UnicodeDecodeError:
        raise CodecError("A str is not valid UTF-8.") from None
    except Exception as err:
        raise CodecError(f"The data is not valid MessagePack ({type(err).__name__}).") from None
    if not same:
        raise CodecError("The data is not in canonical form (an int or a length is not in its shortest form).")
    return value


# --- Schema checks for untrusted values ---------------------------------------------------------

Spec = type | Callable[[Any, str], Any]
"""How a field is checked: a type (``int`` means int but never bool, ``bool`` only bool, ``bytes``,
``str``, ``list``, ``dict``, ``type(None)``), or a validator ``f(value, what) -> value`` that
returns the value (possibly normalised) or raises SchemaError naming ``what``."""

_TYPE_NAMES = MappingProxyType(
    {
        type(None): "nil",
        bool: "bool",
        int: "int",
        str: "str",
        bytes: "bin",
        list: "array",
        dict: "map",
    }
)


def type_name(value: Any) -> str:
    """The protocol's name for the type of ``value`` ("int", "bin", "map", ...)."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _article(name: str) -> str:
    return "an" if name[:1] in ("a", "e", "i", "o", "u") else "a"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def check_type(value: Any, spec: Spec, what: str) -> Any:
    """``value`` checked against ``spec`` (see :data:`Spec`); ``what`` names it in the error.

    Raises SchemaError. ``int`` refuses bools and ``bool`` refuses ints (PROTOCOL.md 1).
    """
    if not isinstance(spec, type):
        return spec(value, what)
    if spec is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, spec)
    if not ok:
        name = _TYPE_NAMES.get(spec, spec.__name__)
        article = _article(name)
        found = type_name(value)
        raise SchemaError(_sentence(f"{what} must be {article} {name}, not {_article(found)} {found}."))
    return value


def check_map(
    value: Any,
    required: Mapping[str, Spec],
    optional: Mapping[str, Spec] | None = None,
    what: str = "the map",
) -> dict[str, Any]:
    """``value`` checked as a map with exactly the ``required`` keys and any of the ``optional``
    ones, each checked with its :data:`Spec`.

    Returns a new dict of the checked values (optional keys that are absent stay absent).
    Raises SchemaError for a value that is not a map, a missing key, an unknown key or a bad field;
    fields are named as ``"<what> field '<key>'"``.
    """
    optional = optional or {}
    if not isinstance(value, dict):
        found = type_name(value)
        raise SchemaError(_sentence(f"{what} must be a map, not {_article(found)} {found}."))
    missing = [k for k in required if k not in value]
    if missing:
        raise SchemaError(_sentence(f"{what} is missing the field {missing[0]!r}."))
    unknown = sorted(str(k) for k in value if k not in required and k not in optional)
    if unknown:
        raise SchemaError(_sentence(f"{what} has the unknown field {unknown[0]!r}."))
    out = {}
    for key, item in value.items():
        spec = required[key] if key in required else optional[key]
        out[key] = check_type(item, spec, f"{what} field {key!r}")
    return out


def check_bytes(value: Any, length: int | None, what: str) -> bytes:
    """``value`` as a bin of exactly ``length`` bytes (any length when None); raises SchemaError."""
    checked: bytes = check_type(value, bytes, what)
    if length is not None and len(checked) != length:
        raise SchemaError(_sentence(f"{what} must be {length} bytes long, not {len(checked)}."))
    return checked


def check_int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int (never a bool) with ``lo <= value <= hi`` where given; SchemaError."""
    checked: int = check_type(value, int, what)
    if (lo is not None and checked < lo) or (hi is not None and checked > hi):
        if hi is None:
            bounds = f"at least {lo}"
        else:
            bounds = f"at most {hi}" if lo is None else f"from {lo} to {hi}"
        raise SchemaError(_sentence(f"{what} must be {bounds}, not {checked}."))
    return checked


def check_str(value: Any, what: str, max_len: int | None = None, choices: Iterable[str] | None = None) -> str:
    """``value`` as a str of at most ``max_len`` characters, one of ``choices`` if given."""
    checked: str = check_type(value, str, what)
    if max_len is not None and len(checked) > max_len:
        raise SchemaError(_sentence(f"{what} must be at most {max_len} characters long."))
    if choices is not None and checked not in choices:
        listed = ", ".join(sorted(choices))
        raise SchemaError(_sentence(f"{what} must be one of {listed}, not {checked!r}."))
    return checked


def check_list(value: Any, item: Spec, what: str, min_len: int = 0, max_len: int | None = None) -> list[Any]:
    """``value`` as an array of ``min_len`` to ``max_len`` items, each checked with ``item``.

    Returns a new list of the checked items; items are named ``"<what> item <i>"``. SchemaError.
    """
    check_type(value, list, what)
    if len(value) < min_len or (max_len is not None and len(value) > max_len):
        bounds = f"at least {min_len}" if max_len is None else f"{min_len} to {max_len}"
        if max_len == min_len:
            bounds = str(min_len)
        raise SchemaError(_sentence(f"{what} must have {bounds} items, not {len(value)}."))
    return [check_type(v, item, f"{what} item {i}") for i, v in enumerate(value)]


def bin_of(length: int) -> Callable[[Any, str], bytes]:
    """A Spec for a bin of exactly ``length`` bytes."""
    return lambda value, what: check_bytes(value, length, what)


def int_in(lo: int | None = None, hi: int | None = None) -> Callable[[Any, str], int]:
    """A Spec for an int (never a bool) from ``lo`` to ``hi`` inclusive."""
    return lambda value, what: check_int(value, what, lo, hi)


def list_of(item: Spec, min_len: int = 0, max_len: int | None = None) -> Callable[[Any, str], list[Any]]:
    """A Spec for an array of ``min_len`` to ``max_len`` items, each checked with ``item``."""
    return lambda value, what: check_list(value, item, what, min_len, max_len)


def nullable(spec: Spec) -> Callable[[Any, str], Any]:
    """A Spec that accepts nil or what ``spec`` accepts."""
    return lambda value, what: None if value is None else check_type(value, spec, what)


def one_of(*choices: str) -> Callable[[Any, str], str]:
    """A Spec for a str that is one of ``choices``."""
    return lambda value, what: check_str(value, what, choices=choices)
