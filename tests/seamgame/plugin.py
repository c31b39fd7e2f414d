"""A game installed as a plugin, without installing anything: a ``.dist-info`` folder (the
metadata pip would write) holding ``entry_points.txt``, in a folder a child process puts on its
``sys.path`` (``PYTHONPATH``). :func:`importlib.metadata.entry_points` reads it as it reads an
installed distribution's, so that the registries (:mod:`engine.games`, :mod:`tui.games`) find
the game as they find the games that ship.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

GAMES = "vampire_table.games"
FRONT_ENDS = "vampire_table.frontends"


def install(where: Path, dist: str, groups: Mapping[str, Mapping[str, str]]) -> Path:
    """Write ``<where>/<dist>-0.1.dist-info/`` with a ``METADATA`` naming ``dist`` and an
    ``entry_points.txt`` with ``groups`` (group -> entry name -> ``"module:ATTR"``); returns
    ``where``, the folder to put on ``sys.path``."""
    info = where / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {value}" for name, value in points.items()]
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines))
    return where


def install_high_card(where: Path) -> Path:
    """High Card (:mod:`tests.seamgame`) declared as an installed game with its front end."""
    return install(
        where,
        "vampire-highcard",
        {GAMES: {"highcard": "tests.seamgame.spec:SPEC"}, FRONT_ENDS: {"highcard": "tests.seamgame.front:FRONT_END"}},
    )
