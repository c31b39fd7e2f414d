"""Decoding budgets (PROTOCOL.md 7, "Budgets"): a frame holds at most 262,144 MessagePack objects,
nested at most 16 deep, in at most 4 MiB, and the object count is checked as decoding goes, so the
most expensive frame a peer can send costs little and what it costs is linear in its size.

The bounds below are for the worst frames found (``WORST_CANDIDATES``: the most objects the budget
allows, each kind the cheapest to send and the costliest to build, and the deepest nesting). What a
decode costs is counted, not timed: the header scan takes one Python step per object it walks (a
look-up of the object's lead byte, counted here), then msgpack builds the value in C, one object at
a time. Each worst frame costs at most the budget's 262,144 steps and objects (0.05-0.21 s on the
2-core development machine under load) and raises the process's peak resident size by at most
22 MiB. The attack the budget answers (a 4 MiB frame of 100,000-element arrays of empty arrays:
four million objects, 2.5 s and 254 MiB before) is refused after at most 262,144 steps, with
nothing built. ``MAX_MIB`` is 64, about three times the worst.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine.protocol import codec
from engine.protocol.codec import DEFAULT_LIMITS, encode
from net.framing import MAX_FRAME, WireError, parse_frame_body

BUDGET = DEFAULT_LIMITS.max_objects
MAX_MIB = 64


def filled(item: Any, per_item: int, budget: int = BUDGET) -> dict[str, Any]:
    """The frame map ``{"t": "x", "a0": [item, ...], "a1": [...], ...}`` holding as many copies of
    ``item`` (``per_item`` objects each) as the object budget allows (arrays of at most 100,000
    items, the per-array limit)."""
    message: dict[str, Any] = {}
    left = budget - 3  # the outer map and its "t" pair
    i = 0
    while left >= 2 + per_item:
        count = min(DEFAULT_LIMITS.max_array, (left - 2) // per_item)
        message[f"a{i}"] = [item] * count
        left -= 2 + count * per_item
        i += 1
    message["t"] = "x"  # after the "a" keys: the map is in canonical order as it is built
    return message


def packed(message: dict[str, Any]) -> bytes:
    """``message`` packed as built (its keys already in canonical order): the same bytes as
    ``encode``, made in C, since these frames are large. ``decode`` checks they are canonical."""
    return msgpack.packb(message, use_bin_type=True)


def chain(depth: int) -> list[Any]:
    """``[[...[]...]]``, ``depth`` arrays nested in one another (``depth`` objects)."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


# Every frame here holds the most objects the budget allows, each kind of object the cheapest to
# send and the costliest to build (a new list, dict, int, str or bytes each), at the deepest nesting.
WORST_CANDIDATES = {
    "empty arrays": (lambda: filled([], 1)),
    "empty maps": (lambda: filled({}, 1)),
    "nils": (lambda: filled(None, 1)),
    "64-bit ints": (lambda: filled(2**64 - 1, 1)),
    "1-character strs": (lambda: filled("é", 1)),
    "1-byte bins": (lambda: filled(b"x", 1)),
    "maps of 255 keys": (lambda: filled({f"k{j:03d}": 0 for j in range(255)}, 511)),
    "16-deep chains": (lambda: filled(chain(14), 14)),
}


class _CountedLeads(tuple):
    """The codec's table of MessagePack lead bytes, counting its look-ups: the header scan makes
    one for every object it walks, its one Python step per object."""

    steps = 0

    def __getitem__(self, index: Any) -> Any:
        self.steps += 1
        return super().__getitem__(index)


def objects_in(value: Any) -> int:
    """The MessagePack objects in a decoded value: itself, and every item, key and value inside."""
    if isinstance(value, list):
        return 1 + sum(objects_in(v) for v in value)
    if isinstance(value, dict):
        return 1 + sum(1 + objects_in(v) for v in value.values())
    return 1


def decode_work(body: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, BaseException | None]:
    """(steps of the header scan, objects msgpack built, the error raised or None) to read
    ``body`` as a frame the way the host does."""
    leads = _CountedLeads(codec._LEAD)
    monkeypatch.setattr(codec, "_LEAD", leads)
    built: list[Any] = []
    unpackb = msgpack.unpackb

    def counted_unpackb(data: bytes, **kw: Any) -> Any:
        built.append(unpackb(data, **kw))
        return built[-1]

    monkeypatch.setattr(msgpack, "unpackb", counted_unpackb)
    error: BaseException | None = None
    try:
        parse_frame_body(body)
    except WireError as err:
        error = err
    monkeypatch.undo()
    return leads.steps, sum(objects_in(v) for v in built), error


@pytest.mark.parametrize("name", sorted(WORST_CANDIDATES))
def test_the_costliest_frames_under_the_budget_decode_quickly(name, monkeypatch):
    body = packed(WORST_CANDIDATES[name]())
    assert len(body) <= MAX_FRAME
    steps, built, error = decode_work(body, monkeypatch)
    assert error is None, f"{name}: {error}"
    assert 0 < steps <= BUDGET, f"{name}: {steps} steps to scan {len(body)} bytes"
    assert built == steps, f"{name}: {built} objects built, {steps} walked"


ATTACK = {"a": [[[]] * 100_000] * 40, "t": "x"}
"""4 MiB of 100,000-element arrays of empty arrays: four million objects."""


def test_the_attack_frame_is_refused_after_its_budget_and_costs_little(monkeypatch):
    body = packed(ATTACK)
    assert len(body) > 4_000_000
    steps, built, error = decode_work(body, monkeypatch)
    assert isinstance(error, WireError) and error.code == "too-large"
    assert "262144" in str(error)
    assert steps <= BUDGET and built == 0  # of its four million objects


_MEMORY_PROBE = """
import json, resource, sys
from tests.unit.net.test_net_budgets import ATTACK, WORST_CANDIDATES, packed
from net.framing import WireError, parse_frame_body
bodies = [packed(make()) for make in WORST_CANDIDATES.values()] + [packed(ATTACK)]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
grew = []
for body in bodies:
    try:
        value = parse_frame_body(body)
    except WireError:
        pass
    value = None
    grew.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)
print(json.dumps(grew))
"""


def test_no_frame_under_the_budget_costs_much_memory():
    # In a process of its own: the peak resident size (ru_maxrss, KiB on Linux) only grows, so after
    # the frames are built it measures the costliest decode, with msgpack's allocations included.
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE], cwd=root, capture_output=True, text=True, timeout=120, check=True
    )
    grew_mib = max(json.loads(out.stdout)) / 1024
    assert grew_mib < MAX_MIB, f"decoding the costliest frame took {grew_mib:.1f} MiB"


def test_the_object_budget_is_exact():
    assert parse_frame_body(packed(filled(None, 1, BUDGET)))  # 262,144 objects pass
    over = filled(None, 1, BUDGET)
    over["z"] = None  # two objects more
    with pytest.raises(WireError) as err:
        parse_frame_body(packed(over))
    assert err.value.code == "too-large"


def test_a_frame_over_the_object_budget_is_refused_at_the_header_that_declares_it():
    # One array declaring 100,000 items inside a frame already near the budget: refused when its
    # header is read, before any of its items is walked.
    message = filled(None, 1, BUDGET - 50_000)
    message["z"] = [None] * 100_000
    with pytest.raises(WireError) as err:
        parse_frame_body(packed(message))
    assert err.value.code == "too-large"


def test_nesting_counts_empty_containers_too():
    with pytest.raises(WireError) as err:
        parse_frame_body(encode({"t": "x", "a": chain(16)}))  # 17 deep with the outer map
    assert err.value.code == "too-large"
    assert parse_frame_body(encode({"t": "x", "a": chain(15)}))
