"""Canonical MessagePack (PROTOCOL.md 1).

``encode`` writes the one canonical encoding of a value; ``hash_input`` and ``sha256`` build every
hash input of the protocol as the canonical encoding of ``[domain, *fields]``. ``decode`` accepts
only the canonical encoding of a protocol value, within explicit :class:`Limits`; ``check_map`` and
its helpers check the shape of decoded, untrusted values.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

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
        return msgpack.packb(_canon(value), use_bin_type=True)
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
    containers (arrays and maps) nested in one another (``[]`` has depth 1, ``[[1]]`` depth 2).
    """

    max_bytes: int = 4 * 1024 * 1024
    max_bin: int = 1024 * 1024
    max_str: int = 64 * 1024
    max_array: int = 100_000
    max_map: int = 256
    max_depth: int = 16


DEFAULT_LIMITS = Limits()
"""Limits for protocol entries, log frames and wire frames (4 MiB, as PROTOCOL.md 7)."""

# Format bytes that are never protocol data.
_FLOATS = frozenset((0xCA, 0xCB))
_EXTS = frozenset((0xC7, 0xC8, 0xC9, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8))
_SCALAR_WIDTH = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}
_LEN_WIDTH = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4, 0xDC: 2, 0xDD: 4, 0xDE: 2, 0xDF: 4}


def _scan(data: bytes, limits: Limits) -> None:
    """Walk the msgpack headers of ``data`` before msgpack builds anything.

    msgpack preallocates an array from its declared length, so nested over-long headers would cost
    memory far beyond the input; here every declared count must fit in the bytes that remain, the
    depth is bounded, and types the protocol never carries are refused with a sentence.
    """
    end = len(data)
    pos = 0
    # One [items still to read, is a map] per open container; the top level is one value.
    stack: list[list] = [[1, False]]
    while stack:
        top = stack[-1]
        if top[0] == 0:
            stack.pop()
            continue
        is_key = top[1] and top[0] % 2 == 0
        top[0] -= 1
        if pos >= end:
            raise CodecError("The data ends in the middle of a value.")
        b = data[pos]
        pos += 1
        if is_key and not (0xA0 <= b <= 0xBF or 0xD9 <= b <= 0xDB):
            raise CodecError("A map key is not a str; protocol maps have str keys only.")
        if b <= 0x7F or b >= 0xE0 or b in (0xC0, 0xC2, 0xC3):
            continue
        if b in _FLOATS:
            raise CodecError("Floats are not protocol data.")
        if b in _EXTS:
            raise CodecError("MessagePack extension types are not protocol data.")
        if b == 0xC1:
            raise CodecError("The data holds the unused MessagePack byte 0xc1.")
        if b in _SCALAR_WIDTH:
            pos += _SCALAR_WIDTH[b]
            continue
        if b in _LEN_WIDTH:
            width = _LEN_WIDTH[b]
            if pos + width > end:
                raise CodecError("The data ends in the middle of a value.")
            n = int.from_bytes(data[pos : pos + width], "big")
            pos += width
        else:
            n = b & (0x1F if 0xA0 <= b <= 0xBF else 0x0F)
        if 0xA0 <= b <= 0xBF or 0xD9 <= b <= 0xDB:
            if n > limits.max_str:
                raise LimitError(f"A str of {n} bytes is over the limit of {limits.max_str}.")
            pos += n
        elif 0xC4 <= b <= 0xC6:
            if n > limits.max_bin:
                raise LimitError(f"A bin of {n} bytes is over the limit of {limits.max_bin}.")
            pos += n
        else:
            is_map = 0x80 <= b <= 0x8F or b in (0xDE, 0xDF)
            if is_map and n > limits.max_map:
                raise LimitError(f"A map of {n} pairs is over the limit of {limits.max_map}.")
            if not is_map and n > limits.max_array:
                raise LimitError(f"An array of {n} items is over the limit of {limits.max_array}.")
            if len(stack) > limits.max_depth:
                raise LimitError(f"The data nests deeper than {limits.max_depth} arrays and maps.")
            items = 2 * n if is_map else n
            if items > end - pos:  # every item takes at least one byte
                raise CodecError("The data ends in the middle of a value.")
            stack.append([items, is_map])
    if pos > end:
        raise CodecError("The data ends in the middle of a value.")
    if pos < end:
        raise CodecError(f"The data has {end - pos} bytes after the end of its value.")


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
        same = encode(value) == data
    except UnicodeDecodeError:
        raise CodecError("A str is not valid UTF-8.") from None
    except Exception as err:  # noqa: BLE001 - any failure of msgpack on untrusted bytes
        raise CodecError(f"The data is not valid MessagePack ({type(err).__name__}).") from None
    if not same:
        raise CodecError(
            "The data is not in canonical form (unsorted or duplicate keys, a non-minimal int, "
            "or a str/bin swap)."
        )
    return value


# --- Schema checks for untrusted values ---------------------------------------------------------

Spec = type | Callable[[Any, str], Any]
"""How a field is checked: a type (``int`` means int but never bool, ``bool`` only bool, ``bytes``,
``str``, ``list``, ``dict``, ``type(None)``), or a validator ``f(value, what) -> value`` that
returns the value (possibly normalised) or raises SchemaError naming ``what``."""

_TYPE_NAMES = {
    type(None): "nil",
    bool: "bool",
    int: "int",
    str: "str",
    bytes: "bin",
    list: "array",
    dict: "map",
}


def type_name(value: Any) -> str:
    """The protocol's name for the type of ``value`` ("int", "bin", "map", ...)."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def check_type(value: Any, spec: Spec, what: str) -> Any:
    """``value`` checked against ``spec`` (see :data:`Spec`); ``what`` names it in the error.

    Raises SchemaError. ``int`` refuses bools and ``bool`` refuses ints (PROTOCOL.md 1).
    """
    if isinstance(spec, type):
        if type(value) is not spec and not (spec is not bool and spec is not int and isinstance(value, spec)):
            article = "an" if _TYPE_NAMES.get(spec, "x")[0] in "aeiou" else "a"
            raise SchemaError(
                _sentence(f"{what} must be {article} {_TYPE_NAMES.get(spec, spec.__name__)}, "
                          f"not {type_name(value)}.")
            )
        return value
    return spec(value, what)


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
        raise SchemaError(_sentence(f"{what} must be a map, not {type_name(value)}."))
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
    check_type(value, bytes, what)
    if length is not None and len(value) != length:
        raise SchemaError(_sentence(f"{what} must be {length} bytes long, not {len(value)}."))
    return value


def check_int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as an int (never a bool) with ``lo <= value <= hi`` where given; SchemaError."""
    check_type(value, int, what)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"at least {lo}" if hi is None else f"at most {hi}" if lo is None else f"from {lo} to {hi}"
        raise SchemaError(_sentence(f"{what} must be {bounds}, not {value}."))
    return value


def check_str(value: Any, what: str, max_len: int | None = None, choices: Iterable[str] | None = None) -> str:
    """``value`` as a str of at most ``max_len`` characters, one of ``choices`` if given."""
    check_type(value, str, what)
    if max_len is not None and len(value) > max_len:
        raise SchemaError(_sentence(f"{what} must be at most {max_len} characters long."))
    if choices is not None and value not in choices:
        raise SchemaError(_sentence(f"{what} must be one of {', '.join(sorted(choices))}, not {value!r}."))
    return value


def check_list(value: Any, item: Spec, what: str, min_len: int = 0, max_len: int | None = None) -> list:
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


def list_of(item: Spec, min_len: int = 0, max_len: int | None = None) -> Callable[[Any, str], list]:
    """A Spec for an array of ``min_len`` to ``max_len`` items, each checked with ``item``."""
    return lambda value, what: check_list(value, item, what, min_len, max_len)


def nullable(spec: Spec) -> Callable[[Any, str], Any]:
    """A Spec that accepts nil or what ``spec`` accepts."""
    return lambda value, what: None if value is None else check_type(value, spec, what)


def one_of(*choices: str) -> Callable[[Any, str], str]:
    """A Spec for a str that is one of ``choices``."""
    return lambda value, what: check_str(value, what, choices=choices)
