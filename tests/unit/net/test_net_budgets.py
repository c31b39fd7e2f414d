"""Decoding budgets (PROTOCOL.md 7, "Budgets"): a frame holds at most 262,144 MessagePack objects,
nested at most 16 deep, in at most 4 MiB, and the object count is checked as decoding goes, so the
most expensive frame a peer can send costs little and what it costs is linear in its size.

The bounds below are for the worst frames found (``WORST_CANDIDATES``: the most objects the budget
allows, each kind the cheapest to send and the costliest to build, and the deepest nesting): on the
2-core development machine, under a load average of 5 from other work, each decodes in
0.05-0.21 s (best of 3) and raises the process's peak resident size by at most 22 MiB; most of the
time is the header scan, one Python step per object. ``MAX_SECONDS`` is 1 s, about five times that, and still well under what one frame of the attack
the budget answers cost before (a 4 MiB frame of 100,000-element arrays of empty arrays: 2.5 s and
254 MiB measured here, 2.3-2.7 s and about 300 MB in the report); that frame is now refused after
its first 262,144 objects, in 0.1 s and no measurable memory. ``MAX_MIB`` is 64, about three
times the worst.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine.protocol.codec import DEFAULT_LIMITS, encode
from net.framing import MAX_FRAME, WireError, parse_frame_body

BUDGET = DEFAULT_LIMITS.max_objects
MAX_SECONDS = 1.0
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


def decode_seconds(body: bytes) -> tuple[float, BaseException | None]:
    """(best of 3 wall-clock seconds, the error raised or None) to read ``body`` as a frame the
    way the host does."""
    error: BaseException | None = None
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        try:
            parse_frame_body(body)
        except WireError as err:
            error = err
        best = min(best, time.perf_counter() - start)
    return best, error


@pytest.mark.parametrize("name", sorted(WORST_CANDIDATES))
def test_the_costliest_frames_under_the_budget_decode_quickly(name):
    body = packed(WORST_CANDIDATES[name]())
    assert len(body) <= MAX_FRAME
    seconds, error = decode_seconds(body)
    assert error is None, f"{name}: {error}"
    assert seconds < MAX_SECONDS, f"{name}: {seconds:.3f} s to decode {len(body)} bytes"


ATTACK = {"a": [[[]] * 100_000] * 40, "t": "x"}
"""4 MiB of 100,000-element arrays of empty arrays: four million objects."""


def test_the_attack_frame_is_refused_after_its_budget_and_costs_little():
    body = packed(ATTACK)
    assert len(body) > 4_000_000
    seconds, error = decode_seconds(body)
    assert isinstance(error, WireError) and error.code == "too-large"
    assert "262144" in str(error)
    assert seconds < MAX_SECONDS


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
