"""The import-linter contracts of pyproject.toml (DESIGN.md, "Boundaries") hold the line: on a copy
of the code base with one forbidden import added, ``lint-imports`` fails and names the contract
that import breaks, and the import itself; on an unchanged copy every contract is kept.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

#: ``lint-imports`` of this interpreter's environment.
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

#: (module file in the copy, the import added to it, the contract it breaks, the report's line).
FORBIDDEN = [
    pytest.param(
        "engine/protocol/codec.py",
        "import engine.games.queen",
        "the table and the protocol never name a game",
        "engine.protocol.codec -> engine.games.queen",
        id="the protocol names a game",
    ),
    pytest.param(
        "engine/table/table.py",
        "import engine.games.vtes.bots",
        "the table and the protocol never name a game",
        "engine.table.table -> engine.games.vtes.bots",
        id="the table names a game's bot",
    ),
    pytest.param(
        "engine/games/base.py",
        "import engine.protocol.deck",
        "the rules know no cryptography and no table",
        "engine.games.base -> engine.protocol.deck",
        id="the rules reach for the deck protocol",
    ),
    pytest.param(
        "tui/screens/help.py",
        "import tui.cli",
        "nothing imports the composition root",
        "tui.screens.help -> tui.cli",
        id="a screen imports the composition root",
    ),
    pytest.param(
        "engine/games/base.py",
        "import net.framing",
        "layers: tui above net above engine",
        "engine.games.base -> net.framing",
        id="the engine imports net",
    ),
    pytest.param(
        "net/framing.py",
        "import tui.messages",
        "layers: tui above net above engine",
        "net.framing -> tui.messages",
        id="net imports tui",
    ),
    pytest.param(
        "engine/sim.py",
        "import socket",
        "the engine opens no socket and no terminal",
        "engine.sim -> socket",
        id="the engine opens a socket",
    ),
    pytest.param(
        "engine/protocol/identity.py",
        "import engine.paths",
        "the protocol and the table know no user's files",
        "engine.protocol.identity -> engine.paths",
        id="the protocol reaches for the user's folder",
    ),
    pytest.param(
        "engine/paths.py",
        "import engine.table.lobby",
        "the user's files load no cryptography, no table and no game",
        "engine.paths -> engine.table.lobby",
        id="the profiles check a VEKN id with the table",
    ),
    pytest.param(
        "engine/paths.py",
        "import engine.games.vtes.spec",
        "the user's files load no cryptography, no table and no game",
        "engine.paths -> engine.games.vtes.spec",
        id="the profiles name a game to check what they keep",
    ),
    pytest.param(
        "engine/bots/__init__.py",
        "import engine.games.queen.expert",
        "the table and the protocol never name a game",
        "engine.bots -> engine.games.queen.expert",
        id="the game-neutral bots name a game's bot",
    ),
    pytest.param(
        "engine/games/vtes/bots.py",
        "import engine.table.lobby",
        "the rules know no cryptography and no table",
        "engine.games.vtes.bots -> engine.table.lobby",
        id="a game's bot reaches for the table",
    ),
    pytest.param(
        "tui/games/vtes/key_acts.py",
        "import engine.games.vtes.combat",
        "a game's screen knows no rule internal",
        "tui.games.vtes.key_acts -> engine.games.vtes.combat",
        id="a screen restates a combat rule",
    ),
    pytest.param(
        "tui/games/vtes/table.py",
        "import engine.games.vtes.readings",
        "a game's screen knows no rule internal",
        "tui.games.vtes.table -> engine.games.vtes.readings",
        id="a screen reads card text itself",
    ),
    pytest.param(
        "net/admission.py",
        "import net.host",
        "admission control decides on addresses, kinds and bytes, never on the table",
        "net.admission -> net.host",
        id="admission control reaches back into the host",
    ),
]


def lint_imports(where: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` in ``where`` (its pyproject.toml), analysing the packages there, no cache."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=where, env=env, capture_output=True, text=True, timeout=300
    )


def verdicts(report: str) -> dict[str, str]:
    """Each contract's verdict (``KEPT`` or ``BROKEN``) from lint-imports' summary lines (a
    contract with ignored imports ends its line with their count: "KEPT (80 ignored imports)")."""
    out = {}
    for line in report.splitlines():
        name, _, verdict = re.sub(r" \(\d+ ignored imports?\)$", "", line).rpartition(" ")
        if verdict in ("KEPT", "BROKEN") and name:
            out[name] = verdict
    return out


@pytest.mark.parametrize(("module", "line", "contract", "evidence"), FORBIDDEN)
def test_a_forbidden_import_breaks_its_contract(
    code_copy: Path, child_env: Callable[[Path], dict[str, str]], module, line, contract, evidence
):
    path = code_copy / module
    path.write_text(path.read_text() + f"\n{line}  # the forbidden import under test\n")
    done = lint_imports(code_copy, child_env(code_copy))
    assert done.returncode != 0, done.stdout
    assert verdicts(done.stdout).get(contract) == "BROKEN", done.stdout
    assert evidence in done.stdout, done.stdout


def test_the_code_base_as_it_is_keeps_every_contract(code_copy: Path, child_env: Callable[[Path], dict[str, str]]):
    done = lint_imports(code_copy, child_env(code_copy))
    found = verdicts(done.stdout)
    assert len(found) >= 5, done.stdout + done.stderr
    assert set(found.values()) == {"KEPT"} and done.returncode == 0, done.stdout


def test_a_game_added_tomorrow_is_under_the_contract_without_being_named(
    code_copy: Path, child_env: Callable[[Path], dict[str, str]]
):
    """The contract names no game (``engine.games.*``): a new game's package is covered as it is."""
    fourth = code_copy / "engine" / "games" / "fourth"
    fourth.mkdir()
    (fourth / "__init__.py").write_text('"""A fourth game."""\n')
    seat = code_copy / "engine" / "seat.py"
    seat.write_text(seat.read_text() + "\nimport engine.games.fourth  # the forbidden import under test\n")
    done = lint_imports(code_copy, child_env(code_copy))
    assert verdicts(done.stdout).get("the table and the protocol never name a game") == "BROKEN", done.stdout
    assert "engine.seat -> engine.games.fourth" in done.stdout, done.stdout
