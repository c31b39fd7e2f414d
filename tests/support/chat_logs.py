"""Logs written entry by entry with real signatures: a Vampire Queen genesis by the host, then the
host's `chat` lines (the host chats without limit), each frame signed and chained as a host writes it
(docs/protocol.md 4). Long valid logs for the audit, the replays and their memory bounds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.protocol.entry import Entry
from engine.protocol.identity import new_key
from engine.protocol.log import LOG_MAGIC, ZERO32, encode_frame, sign_entry, sign_head


def host_genesis(host: Ed25519PrivateKey, name: str = "t") -> Entry:
    """A one-round 4-seat Vampire Queen `table` entry signed by ``host``, table name ``name``."""
    return sign_entry(
        host,
        table=ZERO32,
        seq=0,
        prev=ZERO32,
        kind="table",
        body={"game": "queen", "options": {"rounds": 1}, "seats": 4, "name": name, "carddb": None},
        time_ms=0,
    )


def write_chat_log(
    path: Path | str,
    count: int,
    *,
    name: str = "t",
    body: Callable[[int], dict[str, Any]] = lambda seq: {"text": f"line {seq}"},
) -> None:
    """Write a log of ``count`` entries at ``path``: the genesis, then a host `chat` entry for each
    seq ≥ 1 with ``body(seq)`` (by default its seq in words: ``"line 7"``)."""
    host = new_key()
    genesis = host_genesis(host, name)
    with open(path, "wb") as f:
        f.write(LOG_MAGIC + encode_frame(genesis, sign_head(host, genesis.id, 0, genesis.id)))
        prev = genesis
        for seq in range(1, count):
            entry = sign_entry(host, table=genesis.id, seq=seq, prev=prev.id, kind="chat", body=body(seq), time_ms=seq)
            f.write(encode_frame(entry, sign_head(host, genesis.id, seq, entry.id)))
            prev = entry
