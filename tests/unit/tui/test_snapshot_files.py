"""Every snapshot kept in tests/unit/tui/snapshots/ belongs to a test that still exists.

syrupy fails a run that leaves a snapshot unused, but not a run split over pytest-xdist workers
(scripts/test): each worker sees only its own tests. So a renamed or removed snapshot test would
leave its SVG behind unnoticed; this test keeps that check, in any run.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SNAPSHOTS = HERE / "snapshots"

#: A snapshot's file name: the test's name, then its parameters' ids in brackets, then ``.N`` for
#: the second and later snapshots of one test.
NAME = re.compile(r"^(?P<test>test_\w+?)(\[.*\])?(\.\d+)?\.svg$")


def _tests_in(module: Path) -> set[str]:
    """The names of the test functions a module defines (at its top level)."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    }


@pytest.mark.parametrize("folder", sorted(p.name for p in SNAPSHOTS.iterdir() if p.is_dir()))
def test_every_snapshot_names_a_test_of_its_module(folder: str) -> None:
    module = HERE / f"{folder}.py"
    assert module.is_file(), f"snapshots/{folder}/ has no test module {module.name}"
    tests = _tests_in(module)
    stray = []
    for svg in sorted((SNAPSHOTS / folder).iterdir()):
        match = NAME.match(svg.name)
        if match is None or match["test"] not in tests:
            stray.append(svg.name)
    assert not stray, f"snapshots/{folder}/ keeps snapshots of no test in {module.name}: {stray}"
