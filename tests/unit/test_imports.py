"""What each command that needs no screen loads (DESIGN.md, "The command line"): ``vampire audit``,
``vampire simulate``, ``vampire replay --text`` and ``vampire deck`` import neither Textual nor the
network layer, and reading a Vampire Queen log never loads the VTES card database (krcg).

Each command runs once in a child process (the console script's ``main``), which writes the names
of every module it loaded when it exits.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The console script with a hook that writes ``sorted(sys.modules)`` as JSON to the file named by
#: ``VT_LOADED`` at exit (after ``main`` returned, whatever it imported on the way).
PROBE = """
import atexit, json, os, sys

def _write_loaded():
    with open(os.environ["VT_LOADED"], "w") as out:
        json.dump(sorted(sys.modules), out)

atexit.register(_write_loaded)
from tui.cli import main
sys.exit(main())
"""

COMMANDS = {
    "audit": ("audit", "{log}"),
    "simulate": ("simulate", "--games", "1"),  # what a game loads: one is enough
    "replay --text": ("replay", "{log}", "--text"),
    "result": ("result", "{log}"),
    "rules": ("rules",),
    "deck": ("deck", "engine/games/vtes/data/atraco.txt"),
}
#: A Vampire Queen table has no organiser's result: the command says so and exits 1, having
#: loaded all it loads for any log.
EXIT = {"result": 1}


@pytest.fixture(scope="module")
def loaded(
    queen_log: Path, child_env: Callable[[Path], dict[str, str]], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], set[str]]:
    """A function ``command -> names of the modules it loaded``; each command runs once."""
    seen: dict[str, set[str]] = {}

    def modules_of(command: str) -> set[str]:
        if command not in seen:
            out = tmp_path_factory.mktemp("loaded") / "modules.json"
            args = [arg.format(log=queen_log) for arg in COMMANDS[command]]
            env = {**child_env(ROOT), "VT_LOADED": str(out)}
            done = subprocess.run(
                [sys.executable, "-c", PROBE, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
            )
            assert done.returncode == EXIT.get(command, 0), done.stdout + done.stderr
            seen[command] = set(json.loads(out.read_text()))
        return seen[command]

    return modules_of


def of_package(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_the_probe_sees_what_a_command_loads(loaded):
    assert "engine.audit" in loaded("audit") and "engine.sim" in loaded("simulate")


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_without_a_screen_loads_no_textual(loaded, command):
    assert of_package(loaded(command), "textual") == []


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_without_a_screen_loads_no_network_module(loaded, command):
    assert of_package(loaded(command), "net") == []


@pytest.mark.parametrize("command", ["audit", "replay --text"])
def test_reading_a_vampire_queen_log_loads_no_vtes_card_database(loaded, command):
    assert of_package(loaded(command), "krcg") == []
    # The command line lists every game with its title: it reads each game's spec (and the words it uses), no card data.
    spec_only = {"engine.games.vtes", "engine.games.vtes.spec", "engine.games.vtes.vocab"}
    assert [m for m in of_package(loaded(command), "engine.games.vtes") if m not in spec_only] == []


#: Checking a VEKN id as ``--vekn`` does (checked by its game's seat fact, then kept in the
#: profile), in a child process that writes ``sorted(sys.modules)`` as JSON to the file named by
#: ``VT_LOADED``.
VEKN_PROBE = """
import json, os, sys
from engine.kits import profile_facts
assert profile_facts("Mina", {"vekn": " 1003456 "}, "vtes") == {"vekn": "1003456"}
with open(os.environ["VT_LOADED"], "w") as out:
    json.dump(sorted(sys.modules), out)
"""


def test_checking_a_vekn_id_loads_no_cryptography_and_no_table(child_env, tmp_path):
    out = tmp_path / "modules.json"
    env = {**child_env(ROOT), "VT_LOADED": str(out), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run(
        [sys.executable, "-c", VEKN_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    modules = set(json.loads(out.read_text()))
    assert "engine.paths" in modules and "engine.games.vtes.spec" in modules
    for package in ("cryptography", "nacl", "engine.table", "engine.protocol"):
        assert of_package(modules, package) == [], package
