"""A host that forks its table (a test double, PROTOCOL.md 3 and 7): it shows one peer, the
victim, its own branch and hides that from everyone else.

:class:`ForkingHost` signs a second `chat` for the seq of the next `chat` it appends and sends
that one to the victim only; from then on the victim's pings and pongs carry the victim's branch
as the host's head, the host relays nobody's report to the victim and the victim's report to
nobody, sends the victim no further entries and drops its submissions unanswered. Only the
peers' own signed reports, sent to each other directly, can show the fork.
"""

from __future__ import annotations

from typing import Any

from engine.protocol.codec import decode
from engine.protocol.log import Entry, sign_entry, sign_head
from net.framing import HEADER, frame_bytes
from net.host import Host, Peer
from net.messages import Entries, Hello, Submit


class ForkingHost(Host):
    """See the module. Set :attr:`victim` (a public key) before the `chat` that forks; after it,
    :attr:`alternative` holds (the victim's entry, its head signature) and :attr:`real` the
    entry everyone else got."""

    victim: bytes | None = None
    alternative: tuple[Entry, bytes] | None = None
    real: Entry | None = None
    hide: bool = True
    """Filter the pings as the module says; False: a careless forger whose relays still carry
    every report (and whose pings show the victim the real head), caught by the relayed reports."""

    def broadcast(self, entry: Entry, head_sig: bytes) -> None:
        if self.alternative is not None:
            for peer in self.peers:  # everyone but the victim, who holds the other branch
                if peer.synced and peer.key != self.victim:
                    peer.outbox.send(frame_bytes(Entries(entry.seq, [[entry.wire_array(), head_sig]]).to_map()))
            return
        if entry.kind != "chat" or self.victim is None:
            return super().broadcast(entry, head_sig)
        key = self.sequencer.key
        alt = sign_entry(
            key,
            table=entry.table,
            seq=entry.seq,
            prev=entry.prev,
            kind="chat",
            body={"text": "only the victim reads this"},
            time_ms=entry.time,
        )
        self.alternative = (alt, sign_head(key, entry.table, entry.seq, alt.id))
        self.real = entry
        for peer in self.peers:
            if not peer.synced:
                continue
            if peer.key == self.victim:
                peer.outbox.send(frame_bytes(Entries(alt.seq, [[alt.wire_array(), self.alternative[1]]]).to_map()))
            else:
                peer.outbox.send(frame_bytes(Entries(entry.seq, [[entry.wire_array(), head_sig]]).to_map()))

    def _on_submit(self, peer: Peer, msg: Submit) -> None:
        if self.alternative is not None and peer.key == self.victim:
            return  # dropped unanswered: the victim's moves never reach the others
        super()._on_submit(peer, msg)

    def _welcome(self, peer: Peer, hello: Hello) -> bool:
        welcomed = super()._welcome(peer, hello)
        send = peer.outbox.send

        def filtered(message: dict[str, Any] | bytes) -> bool:
            m = message if isinstance(message, dict) else decode(bytes(message[HEADER:]))
            if m.get("t") not in ("ping", "pong") or self.alternative is None or not self.hide:
                return send(message)
            m = dict(m)
            if peer.key == self.victim:
                alt, alt_head = self.alternative
                m["head"] = [alt.seq, alt.id, alt_head]
                m["relay"] = []
            else:
                m["relay"] = [r for r in m["relay"] if r[0] != self.victim]
            return send(m)

        peer.outbox.send = filtered  # type: ignore[method-assign]
        return welcomed
