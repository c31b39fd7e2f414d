"""Decoding budgets (PROTOCOL.md 7, "Budgets"): a frame holds at most 262,144 MessagePack objects,
nested at most 16 deep, in at most 4 MiB, and the object count is checked as decoding goes, so the
most expensive frame a peer can send costs little and what it costs is linear in its size.

The bounds below are for the worst frame found: decoding a frame of 262,144 objects (which every
frame under the budget is at most) took 0.06-0.15 s and at most 19 MiB on the 2-core development
machine, quiet. ``MAX_SECONDS`` is 1 s, six times that on a machine busy with the rest of the
suite, and still under half of what one frame of the attack the budget answers cost before (a
4 MiB frame of 100,000-element arrays of empty arrays: 2.3-2.7 s and about 300 MB); that frame is
now refused after its first 262,144 objects. ``MAX_MIB`` is 64, over three times the worst measured
(a host of four players holds far more than that anyway).
"""

from __future__ import annotations

import time
import tracemalloc
from typing import Any

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
    message: dict[str, Any] = {"t": "x"}
    left = budget - 3  # the outer map and its "t" pair
    i = 0
    while left >= 2 + per_item:
        count = min(DEFAULT_LIMITS.max_array, (left - 2) // per_item)
        message[f"a{i}"] = [item] * count
        left -= 2 + count * per_item
        i += 1
    return message


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


def decode_cost(body: bytes) -> tuple[float, float, BaseException | None]:
    """(best of 3 wall-clock seconds, peak MiB allocated, the error raised or None) to read ``body``
    as a frame the way the host does."""
    error: BaseException | None = None
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        try:
            parse_frame_body(body)
        except WireError as err:
            error = err
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    try:
        parse_frame_body(body)
    except WireError:
        pass
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return best, peak, error


@pytest.mark.parametrize("name", sorted(WORST_CANDIDATES))
def test_the_costliest_frames_under_the_budget_decode_quickly(name):
    body = encode(WORST_CANDIDATES[name]())
    assert len(body) <= MAX_FRAME
    seconds, mib, error = decode_cost(body)
    assert error is None, f"{name}: {error}"
    assert seconds < MAX_SECONDS, f"{name}: {seconds:.3f} s to decode {len(body)} bytes"
    assert mib < MAX_MIB, f"{name}: {mib:.1f} MiB to decode {len(body)} bytes"


def test_the_attack_frame_is_refused_after_its_budget_and_costs_little():
    # 4 MiB of 100,000-element arrays of empty arrays: four million objects.
    message = {"t": "x", "a": [[[]] * 100_000] * 40}
    body = encode(message)
    assert len(body) > 4_000_000
    seconds, mib, error = decode_cost(body)
    assert isinstance(error, WireError) and error.code == "too-large"
    assert "262144" in str(error)
    assert seconds < MAX_SECONDS and mib < MAX_MIB


def test_the_object_budget_is_exact():
    assert parse_frame_body(encode(filled(None, 1, BUDGET)))  # 262,144 objects pass
    over = filled(None, 1, BUDGET)
    over["z"] = None  # two objects more
    with pytest.raises(WireError) as err:
        parse_frame_body(encode(over))
    assert err.value.code == "too-large"


def test_a_frame_over_the_object_budget_is_refused_at_the_header_that_declares_it():
    # One array declaring 100,000 items inside a frame already near the budget: refused when its
    # header is read, before any of its items is walked.
    message = filled(None, 1, BUDGET - 50_000)
    message["z"] = [None] * 100_000
    with pytest.raises(WireError) as err:
        parse_frame_body(encode(message))
    assert err.value.code == "too-large"


def test_nesting_counts_empty_containers_too():
    with pytest.raises(WireError) as err:
        parse_frame_body(encode({"t": "x", "a": chain(16)}))  # 17 deep with the outer map
    assert err.value.code == "too-large"
    assert parse_frame_body(encode({"t": "x", "a": chain(15)}))
