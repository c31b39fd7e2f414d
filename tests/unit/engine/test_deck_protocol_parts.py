"""The deck protocol in four parts (engine/table/hidden: set-up, opening, disputes, closing;
PROTOCOL.md 6.3), the joint draws and the acts change the table's own fields only through the
table's methods (the shuffle events' records are the deck protocol's to fill), and the table refuses
an event out of order."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.games.base import GameError
from engine.table import ShuffleEvent, Table

ROOT = Path(__file__).resolve().parents[3]
PARTS = sorted((ROOT / "engine" / "table" / "hidden").glob("*.py")) + [
    ROOT / "engine" / "table" / "events.py",
    ROOT / "engine" / "table" / "draws.py",
    ROOT / "engine" / "table" / "acts.py",
]
MUTATORS = {"append", "extend", "update", "pop", "remove", "clear", "insert", "setdefault", "add", "discard"}


def _is_table(node: ast.expr) -> bool:
    """``t`` or ``self.t``: the table a part was given."""
    if isinstance(node, ast.Name):
        return node.id == "t"
    return isinstance(node, ast.Attribute) and node.attr == "t" and isinstance(node.value, ast.Name)


def _table_field(node: ast.expr) -> str | None:
    """``x`` of ``t.x`` / ``self.t.x`` (possibly subscripted), else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and _is_table(node.value):
        return node.attr
    return None


def _writes(name: str, source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [
                t for target in node.targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])
            ]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            field = _table_field(node.func.value)
            if field is not None:
                found.append(f"{name}:{node.lineno}: t.{field}.{node.func.attr}(…)")
        for target in targets:
            field = _table_field(target)
            if field is not None:
                found.append(f"{name}:{node.lineno}: t.{field} written")
    return found


def test_the_deck_protocol_draws_and_acts_write_no_field_of_the_table():
    assert len(PARTS) >= 9, [p.name for p in PARTS]
    assert [w for path in PARTS for w in _writes(path.name, path.read_text(encoding="utf-8"))] == []


def test_the_guard_sees_a_write_through_the_table():
    source = "def f(self, t):\n    t.work = None\n    self.t.queue.append(1)\n    t.lists[0] = []\n"
    assert len(_writes("probe", source)) == 3


def _event(number: int) -> ShuffleEvent:
    return ShuffleEvent(number, "deck", 4, (0, 1), None, None, number, (0, 1))


def test_an_event_out_of_order_is_refused_and_changes_nothing():
    table = Table({})
    table.add_event(_event(0))
    with pytest.raises(GameError, match="shuffle event 2 added as event 1"):
        table.add_event(_event(2))
    assert [ev.number for ev in table.events] == [0]
