"""Canonical MessagePack (PROTOCOL.md 1).

``encode`` writes the one canonical encoding of a value; ``hash_input`` and ``digest`` build every
hash input of the protocol as the canonical encoding of ``[domain, *fields]``.
"""

from __future__ import annotations

import hashlib
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
