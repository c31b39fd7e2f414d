"""How many CPUs a process may run on: the size of its thread pools for the work that releases the
GIL (libsodium's arithmetic, Ed25519 verification)."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """How many CPUs this process may run on: ``os.sched_getaffinity(0)`` where the system has it
    (a process limited by ``taskset`` or a container's cpuset gets its own count), else
    ``os.cpu_count()``; at least 1."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, count)
