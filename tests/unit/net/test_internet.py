"""The pieces of play across the internet that touch no network (``net.internet``): the relay
option, tickets told from addresses, the table's endpoint key beside its log, the one-copy write
of the bindings, and the admission's cap per endpoint id. Nothing here opens an endpoint (iroh's
port mapper would probe the gateway): those tests run in namespaces of their own
(tests/functional/test_internet_iroh.py)."""

from __future__ import annotations

import os
import stat

import pytest

from net.admission import Admission, Caps, is_loopback
from net.internet import InternetError, Relays, endpoint_key, faster_copy, is_ticket, key_path, unavailable


def test_internet_relay_option_is_n0s_relays_off_or_a_url_and_anything_else_is_a_sentence():
    assert Relays.parse(None) == Relays()
    assert Relays.parse("off") == Relays(off=True)
    assert Relays.parse("https://relay.example.org") == Relays(url="https://relay.example.org")
    assert Relays.parse(None, "203.0.113.2:7447").forwarded == "203.0.113.2:7447"
    with pytest.raises(InternetError, match="is not a relay"):
        Relays.parse("relay.example.org")
    with pytest.raises(InternetError, match="is not IP:PORT"):
        Relays.parse(None, "my-router:7447")
    with pytest.raises(InternetError, match="is not IP:PORT"):
        Relays.parse(None, "203.0.113.2:70000")


def test_an_internet_ticket_is_told_from_a_host_and_port():
    assert is_ticket(" endpointaa6eoypxpgycseamrrjl7upzl6kbi6dlfvfqwpkfi3tc ")
    assert not is_ticket("192.168.1.5:7447") and not is_ticket("localhost")


def test_the_internet_endpoint_key_is_kept_beside_the_log_made_once_private_and_reused(tmp_path):
    log = tmp_path / "table.vtlog"
    path = key_path(log)
    assert path.name == "table.vtlog.iroh-key"
    key = endpoint_key(path)
    assert len(key) == 32 and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert endpoint_key(path) == key, "the same endpoint, so the same ticket, after --resume"
    path.write_bytes(b"not a key")
    with pytest.raises(InternetError, match="is not an endpoint key"):
        endpoint_key(path)


def test_the_internet_admission_caps_connections_per_endpoint_id_as_per_address():
    peer = "iroh:" + "ab" * 32
    assert not is_loopback(peer), "an endpoint id is a remote peer, not a local socket"
    assert is_loopback("") and is_loopback("/run/vampire.sock")
    admission = Admission(Caps(per_address=2), say=lambda _line: None)
    assert admission.over_cap(peer, [peer]) is None
    why = admission.over_cap(peer, [peer, peer])
    assert why is not None and peer in why


def test_the_iroh_bindings_copy_a_write_in_one_memory_copy_and_the_bytes_arrive_whole():
    if unavailable() is not None:
        pytest.skip(unavailable())
    import iroh

    assert faster_copy(iroh) and faster_copy(iroh), "in place once, and found in place after"
    signature = os.urandom(64)
    assert iroh.Signature.from_bytes(signature).to_bytes() == signature  # through the Rust side and back
