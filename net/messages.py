"""The messages of the wire (PROTOCOL.md 7; byte layouts in docs/protocol.md, part 3).

Each message is a canonical map with a ``t`` key naming its type and exactly the fields listed
here (an unknown or missing field is ``malformed``). A **head** on the wire is the array
``[seq, entry id (bin 32), head signature (bin 64)]``: the host's claim that the entry with that id
is at that seq of the table (PROTOCOL.md 3); the table id it covers is the connection's.

:func:`parse_message` checks a decoded frame map and returns one of the dataclasses below;
``to_map()`` gives the map to send.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.errors import VampireError
from engine.protocol.codec import (
    CodecError,
    bin_of,
    check_list,
    check_map,
    check_str,
    encode,
    int_in,
    list_of,
    nullable,
    one_of,
)
from engine.protocol.identity import public_bytes
from engine.protocol.log import BadAuthorKey, Head, validate_author_key

VERSION = 2
"""The protocol version a ``hello`` and a ``welcome`` carry in ``v`` (2: the signed hello of
PROTOCOL.md 7; a peer of version 1 speaks before the host's challenge and is told ``version``)."""

HELLO_DOMAIN = "vampire-table/hello/v2"
"""The first element of the array a ``hello`` signature covers (PROTOCOL.md 7, item 2)."""

NONCE_BYTES = 32
"""Bytes of the random nonce of a ``challenge``."""

DEFAULT_PORT = 7447
"""The TCP port a host listens on, and a peer connects to, unless told otherwise."""

Role = Literal["player", "spectator"]
"""What a peer says it is in its ``hello``: a player (takes a seat) or a spectator (watches)."""

ROLES: tuple[Role, ...] = get_args(Role)

MessageType = Literal[
    "challenge", "hello", "welcome", "entries", "submit", "accepted", "rejected", "ping", "pong", "bye"
]
"""The ``t`` field of every message of the wire."""

WireHead = list[Any]
"""A head on the wire, ``[seq, entry id (bin 32), head signature (bin 64)]`` once checked."""

WireEntry = list[bytes]
"""An entry on the wire, ``[payload, signature]``."""

WireMap = dict[str, Any]
"""A message as the map a frame carries."""

MAX_TEXT = 500
"""The longest ``detail`` or ``reason`` str accepted, in characters."""

MAX_RELAY = 64
"""The most heads one ``ping``/``pong`` relays."""


class MessageError(VampireError):
    """A frame whose map is not one of the protocol's messages (wire code ``malformed``)."""

    code = "malformed"


# --- heads --------------------------------------------------------------------------------------


def _head_array(value: Any, what: str) -> WireHead:
    items = check_list(value, lambda v, w: v, what, 3, 3)
    int_in(0)(items[0], f"{what} seq")
    bin_of(32)(items[1], f"{what} entry id")
    bin_of(64)(items[2], f"{what} signature")
    return items


def head_to_wire(head: Head | None) -> WireHead | None:
    """A head as ``[seq, entry id, signature]`` (nil for None)."""
    return None if head is None else [head.seq, head.entry_id, head.signature]


def head_from_wire(value: WireHead, table: bytes) -> Head:
    """The :class:`~engine.protocol.log.Head` of a checked wire head for ``table`` (32-byte table id)."""
    return Head(table, value[0], value[1], value[2])


# --- messages -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Challenge:
    """First frame of a connection, host to peer (PROTOCOL.md 7, item 1). ``nonce``: 32 random
    bytes, new for every connection; ``host``: the host's 32-byte public key (the genesis author);
    ``table``: the table id (None before the genesis)."""

    t: ClassVar[MessageType] = "challenge"
    nonce: bytes
    host: bytes
    table: bytes | None

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {"t": self.t, "nonce": self.nonce, "host": self.host, "table": self.table}


@dataclass(frozen=True)
class Hello:
    """The peer's answer to the ``challenge`` (PROTOCOL.md 7, item 2). ``table``: the table id the
    peer expects (None: it holds nothing yet); ``last``: the last seq it holds (None: none);
    ``role``: ``player`` or ``spectator``; ``key``: its 32-byte Ed25519 public key; ``sig``: its
    64-byte signature over :func:`hello_message` for the challenge answered (see :func:`sign_hello`)."""

    t: ClassVar[MessageType] = "hello"
    table: bytes | None
    last: int | None
    role: Role
    key: bytes
    sig: bytes
    v: int = VERSION

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {
            "t": self.t,
            "v": self.v,
            "table": self.table,
            "last": self.last,
            "role": self.role,
            "key": self.key,
            "sig": self.sig,
        }


def hello_message(host: bytes, nonce: bytes, table: bytes | None, role: Role, key: bytes) -> bytes:
    """The bytes a ``hello`` signature covers: the canonical encoding of
    ``["vampire-table/hello/v2", host key, nonce, table, role, key]`` (PROTOCOL.md 7, item 2), with
    ``table`` the hello's own field (bin 32 or nil). Binding the host's key and the connection's
    nonce makes a signed hello worthless on any other connection, and to any other host."""
    return encode([HELLO_DOMAIN, host, nonce, table, role, key])


def sign_hello(
    key: Ed25519PrivateKey, challenge: Challenge, *, table: bytes | None, last: int | None, role: Role
) -> Hello:
    """The ``hello`` answering ``challenge``, signed with ``key`` (the peer's identity)."""
    public = public_bytes(key)
    sig = key.sign(hello_message(challenge.host, challenge.nonce, table, role, public))
    return Hello(table, last, role, public, sig)


def verify_hello(hello: Hello, challenge: Challenge) -> str | None:
    """Why ``hello`` does not answer ``challenge`` (a sentence), or None when it does.

    The key is validated as an author key first (PROTOCOL.md 2: a small-order or non-canonical key
    could make a signature verify for any message), then the signature over :func:`hello_message`
    with this connection's nonce and the host's key."""
    try:
        validate_author_key(hello.key)
    except BadAuthorKey as err:
        return f"The hello's key cannot sign: {err}"
    message = hello_message(challenge.host, challenge.nonce, hello.table, hello.role, hello.key)
    try:
        Ed25519PublicKey.from_public_bytes(hello.key).verify(hello.sig, message)
    except (InvalidSignature, ValueError):
        return "The hello's signature does not verify for this connection's challenge and its key."
    return None


@dataclass(frozen=True)
class Welcome:
    """The host's answer to a good ``hello``. ``table``: table id; ``host``: the host's public key
    (the genesis author); ``head``: the host's head; ``mine``: the host's head at the peer's
    ``last`` seq (None when the peer said it holds nothing), so the peer can check its copy;
    ``opened``: when this run of the host opened the table (ms since the epoch, the host's clock;
    None: not said), so no peer counts a wait across the time the table was down (PROTOCOL.md 6.5).
    ``entries`` frames with everything after ``last`` follow."""

    t: ClassVar[MessageType] = "welcome"
    table: bytes
    host: bytes
    head: WireHead
    mine: WireHead | None
    v: int = VERSION
    opened: int | None = None

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        out: WireMap = {
            "t": self.t,
            "v": self.v,
            "table": self.table,
            "host": self.host,
            "head": self.head,
            "mine": self.mine,
        }
        if self.opened is not None:
            out["opened"] = self.opened
        return out


@dataclass(frozen=True)
class Entries:
    """A run of consecutive entries starting at seq ``start`` (``from`` on the wire): each item
    is ``[[payload, signature], head signature]``."""

    t: ClassVar[MessageType] = "entries"
    start: int
    items: list[list[Any]]

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {"t": self.t, "from": self.start, "items": self.items}


@dataclass(frozen=True)
class Submit:
    """A player's entry for the host to sequence: ``entry`` is ``[payload, signature]``; ``n``
    is the submitter's request number, echoed in the answer."""

    t: ClassVar[MessageType] = "submit"
    n: int
    entry: WireEntry

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {"t": self.t, "n": self.n, "entry": self.entry}


@dataclass(frozen=True)
class Accepted:
    """The host appended submission ``n``; ``head`` is its head signature."""

    t: ClassVar[MessageType] = "accepted"
    n: int
    head: WireHead

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {"t": self.t, "n": self.n, "head": self.head}


@dataclass(frozen=True)
class SubmitRejected:
    """The host refused submission ``n`` (wire type ``rejected``): ``code`` (``stale``, ``not-your-turn``, ``illegal``,
    ``malformed``, ``bad-signature``, ``too-large``, ``chain``, ``wrong-table``, ``not-your-key``,
    ``already-seated``, ``spectator``, ``host-error``), ``detail`` (a sentence) and the host's
    ``head`` (None before the genesis)."""

    t: ClassVar[MessageType] = "rejected"
    n: int
    code: str
    detail: str
    head: WireHead | None

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {"t": self.t, "n": self.n, "code": self.code, "detail": self.detail, "head": self.head}


@dataclass(frozen=True)
class Ping:
    """Liveness and fork detection (PROTOCOL.md 3, 7 "Seen reports"): ``head`` is the sender's
    latest head (None: it holds none); ``fsig`` (a peer's pings; None from the host, or with no
    head) is the sender's seen signature over that head (:func:`net.seen.sign_seen`): with the
    connection's key and the head's signature it is the sender's seen report [key, fsig, hsig].
    ``relay`` (host to peers only; peers send ``[]``) lists ``[key, head, fsig]`` for each
    connected player: the report it sent last, verbatim (``[key, head]`` from a host that keeps
    no seen signature)."""

    t: ClassVar[MessageType] = "ping"
    head: WireHead | None
    relay: list[list[Any]]
    fsig: bytes | None = None

    def to_map(self) -> WireMap:
        """The message as the map a frame carries (``fsig`` only when there is one)."""
        out: WireMap = {"t": self.t, "head": self.head, "relay": self.relay}
        if self.fsig is not None:
            out["fsig"] = self.fsig
        return out


@dataclass(frozen=True)
class Pong(Ping):
    """The answer to a ``ping``, of the same layout."""

    t: ClassVar[MessageType] = "pong"


@dataclass(frozen=True)
class Bye:
    """The sender closes the connection: ``code`` (why, as a word: ``done``, ``replaced``,
    ``bad-hello``, ``silent``, ``flood``, ``malformed``, ...) and ``reason`` (a sentence). Unsigned:
    anyone on the path may have injected it, so it is never evidence (PROTOCOL.md 7, item 3)."""

    t: ClassVar[MessageType] = "bye"
    code: str
    reason: str

    def to_map(self) -> WireMap:
        """The message as the map a frame carries."""
        return {"t": self.t, "code": self.code, "reason": self.reason}


Message = Challenge | Hello | Welcome | Entries | Submit | Accepted | SubmitRejected | Ping | Pong | Bye

_TEXT = lambda value, what: check_str(value, what, MAX_TEXT)  # noqa: E731
_CODE = lambda value, what: check_str(value, what, 32)  # noqa: E731
_HEAD = _head_array


def _entry_wire(value: Any, what: str) -> WireEntry:
    # Only the shape: Entry.from_wire checks the bytes themselves.
    return check_list(value, bytes, what, 2, 2)


def _relay(value: Any, what: str) -> list[list[Any]]:
    items = check_list(value, list, what, 0, MAX_RELAY)
    for i, item in enumerate(items):
        check_list(item, lambda v, w: v, f"{what} item {i}", 2, 3)
        bin_of(32)(item[0], f"{what} item {i} key")
        nullable(_head_array)(item[1], f"{what} item {i} head")
        if len(item) == 3:
            nullable(bin_of(64))(item[2], f"{what} item {i} seen signature")
    return items


def _entry_item(value: Any, what: str) -> list[Any]:
    item = check_list(value, lambda v, w: v, what, 2, 2)
    _entry_wire(item[0], f"{what} entry")
    bin_of(64)(item[1], f"{what} head signature")
    return item


_OPTIONAL: dict[str, dict[str, Any]] = {
    "ping": {"fsig": bin_of(64)},
    "pong": {"fsig": bin_of(64)},
    "welcome": {"opened": int_in(0)},
}
"""Fields a message may leave out (a ping's seen signature: a peer holding no head has none; a
welcome's ``opened``: a host that does not say when it opened the table)."""

_SCHEMAS: dict[str, tuple[dict[str, Any], Callable[[dict[str, Any]], Message]]] = {
    "challenge": (
        {"t": str, "nonce": bin_of(NONCE_BYTES), "host": bin_of(32), "table": nullable(bin_of(32))},
        lambda m: Challenge(m["nonce"], m["host"], m["table"]),
    ),
    "hello": (
        {
            "t": str,
            "v": int,
            "table": nullable(bin_of(32)),
            "last": nullable(int_in(0)),
            "role": one_of(*ROLES),
            "key": bin_of(32),
            "sig": bin_of(64),
        },
        lambda m: Hello(m["table"], m["last"], m["role"], m["key"], m["sig"], m["v"]),
    ),
    "welcome": (
        {"t": str, "v": int, "table": bin_of(32), "host": bin_of(32), "head": _HEAD, "mine": nullable(_HEAD)},
        lambda m: Welcome(m["table"], m["host"], m["head"], m["mine"], m["v"], m.get("opened")),
    ),
    "entries": (
        {"t": str, "from": int_in(0), "items": list_of(_entry_item, 1)},
        lambda m: Entries(m["from"], m["items"]),
    ),
    "submit": ({"t": str, "n": int_in(0), "entry": _entry_wire}, lambda m: Submit(m["n"], m["entry"])),
    "accepted": ({"t": str, "n": int_in(0), "head": _HEAD}, lambda m: Accepted(m["n"], m["head"])),
    "rejected": (
        {"t": str, "n": int_in(0), "code": _CODE, "detail": _TEXT, "head": nullable(_HEAD)},
        lambda m: SubmitRejected(m["n"], m["code"], m["detail"], m["head"]),
    ),
    "ping": (
        {"t": str, "head": nullable(_HEAD), "relay": _relay},
        lambda m: Ping(m["head"], m["relay"], m.get("fsig")),
    ),
    "pong": (
        {"t": str, "head": nullable(_HEAD), "relay": _relay},
        lambda m: Pong(m["head"], m["relay"], m.get("fsig")),
    ),
    "bye": ({"t": str, "code": _CODE, "reason": _TEXT}, lambda m: Bye(m["code"], m["reason"])),
}


def parse_message(value: dict[str, Any]) -> Message:
    """The message a decoded frame map holds. Raises MessageError for an unknown ``t``, a missing
    or unknown field, or a field of the wrong type or size."""
    kind = value.get("t")
    schema = _SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MessageError(f"There is no message of type {kind!r}.")
    fields, make = schema
    try:
        return make(check_map(value, fields, _OPTIONAL.get(str(kind)), what=f"a {kind} message"))
    except CodecError as err:
        raise MessageError(str(err)) from None
