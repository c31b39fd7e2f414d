"""Fixtures for the functional tests: the ``vampire`` command in child processes, with the same
environment every time, and the test-only third game registered where a test asks for it.

Child processes never look for tables on the LAN (``VAMPIRE_NO_DISCOVERY=1``): the tests use
loopback only, and a machine running several suites at once must not see the others' tables.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games import register_game, unregister_game
from engine.games.spec import GameSpec
from tests.seamgame.plugin import install_high_card
from tests.seamgame.spec import SPEC as HIGH_CARD
from tests.support.cli import child_env

ROOT = Path(__file__).resolve().parents[2]

#: The console script as a child process: what ``vampire ARGS`` runs (``tui.cli:main`` reading
#: ``sys.argv``), with this interpreter.
VAMPIRE = [sys.executable, "-c", "import sys; from tui.cli import main; sys.exit(main())"]


@pytest.fixture(autouse=True, scope="session")
def no_discovery() -> Iterator[None]:
    """Child processes (and this one) look for no table on the LAN."""
    before = os.environ.get("VAMPIRE_NO_DISCOVERY")
    os.environ["VAMPIRE_NO_DISCOVERY"] = "1"
    yield
    if before is None:
        os.environ.pop("VAMPIRE_NO_DISCOVERY", None)
    else:
        os.environ["VAMPIRE_NO_DISCOVERY"] = before


class Vampire:
    """Runs ``vampire`` commands in child processes, from the repository root, with ``env``: this
    process's environment, an empty data directory of the test's own, the repository on
    ``PYTHONPATH`` (so that a game the test suite defines can be imported) and unbuffered output."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = child_env(tmp)
        self.env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        self.procs: list[subprocess.Popen[bytes]] = []

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run ``vampire ARGS`` to its end; stdout and stderr as text."""
        return subprocess.run(
            [*VAMPIRE, *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def run_python(self, code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run ``python -c CODE`` with the same environment as :meth:`run`; stdout and stderr as text."""
        return subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def start(self, *args: str, name: str) -> subprocess.Popen[bytes]:
        """Start ``vampire ARGS`` in the background, its output (both streams) in ``<tmp>/<name>.out``."""
        with open(self.tmp / f"{name}.out", "wb") as out:
            proc = subprocess.Popen(
                [*VAMPIRE, *args],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        self.procs.append(proc)
        return proc

    def output(self, name: str) -> str:
        return (self.tmp / f"{name}.out").read_text(errors="replace")

    def outputs(self) -> str:
        """Every started process's output, for a failure message."""
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}" for path in sorted(self.tmp.glob("*.out"))
        )

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)


@pytest.fixture
def vampire(tmp_path: Path) -> Iterator[Vampire]:
    """The ``vampire`` command in child processes (killed at the end of the test if still running)."""
    runner = Vampire(tmp_path)
    yield runner
    runner.close()


@pytest.fixture
def high_card(vampire: Vampire) -> Iterator[GameSpec]:
    """High Card, the game that exists only in the test suite, registered in this process
    (:func:`engine.games.register_game`) and installed as a plugin for every child process
    ``vampire`` starts (its entry points in a ``.dist-info`` on their ``PYTHONPATH``:
    :func:`tests.seamgame.plugin.install_high_card`); forgotten again afterwards."""
    register_game(HIGH_CARD)
    plugins = install_high_card(vampire.tmp / "plugins")
    vampire.env["PYTHONPATH"] = os.pathsep.join((str(plugins), vampire.env["PYTHONPATH"]))
    yield HIGH_CARD
    unregister_game(HIGH_CARD.name)


@pytest.fixture
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command run in this process (its screen replaced by the test) takes its standard input
    and output for a terminal, as a person's are (tui.terminal)."""
    monkeypatch.setattr("tui.terminal.not_a_terminal", lambda *streams: None)
