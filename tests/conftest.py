"""Test-wide set-up: no test reads or writes the user's own data or cache directory (identity keys,
saved logs, per-table state; the card cache). Every test process gets an empty data directory of
its own, so what a developer or an earlier run left there (recent logs listed on the home screen,
keys) never changes a test; the card cache (the same cards whoever writes it) is the run's. And no
test sends multicast to the LAN: ``VAMPIRE_NO_DISCOVERY=1`` for the whole run.

Each run has one folder (:func:`tests.support.positions.new_run_folder`: on the RAM disk
``/dev/shm`` where the machine has one), made by the process that starts the run, which every
pytest-xdist worker shares and which is removed when the run ends. It holds the run's named
positions (tests/support/positions.py), the VTES card cache, pytest's ``tmp_path`` folders
(``tmp``, unless ``--basetemp`` names another) and every temporary file of the run and of the
processes it starts (``TMPDIR``, ``tmp-files``): the logs the tests write are fsynced at every
entry, as a table writes them, which costs a disk write each and next to nothing in RAM. Pass
``--basetemp`` to keep a failed test's files after the run.

Fixtures that only one folder needs live in that folder's conftest: ``tests/unit/conftest.py``
(child processes of the code base, a copy of it), ``tests/functional/conftest.py`` (the ``vampire``
command in child processes, the test-only third game)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.positions import POSITIONS_ENV, new_run_folder


@pytest.hookimpl(tryfirst=True)  # before pytest's own tmp_path set-up reads --basetemp
def pytest_configure(config) -> None:
    # No test sends LAN multicast (table discovery, direct seen reports): every process of the suite
    # inherits this; the tests that discover run in a network namespace of their own without it
    # (tests/support/netns.py).
    os.environ["VAMPIRE_NO_DISCOVERY"] = "1"
    # The run's folder: one for the whole run, made by the process that starts it; pytest-xdist
    # workers inherit its name (and TMPDIR) and share it, and take their basetemp from this process.
    if not os.environ.get(POSITIONS_ENV):
        run = new_run_folder()
        os.environ[POSITIONS_ENV] = str(run)
        config._vampire_positions = str(run)
        files = run / "tmp-files"
        files.mkdir()
        os.environ["TMPDIR"] = tempfile.tempdir = str(files)
        if config.option.basetemp is None:
            config.option.basetemp = str(run / "tmp")
    data = tempfile.mkdtemp(prefix="vampire-test-data-")
    os.environ["XDG_DATA_HOME"] = data
    # The VTES card cache: one for the whole run, written by the first process that reads krcg and
    # read by every other (its workers, the processes their tests start).
    os.environ["XDG_CACHE_HOME"] = os.path.join(os.environ[POSITIONS_ENV], "cache")
    config._vampire_data_home = data


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    # pytest keeps each test module's assertion-rewritten code in __pycache__ (``*-pytest-*.pyc``,
    # git-ignored), but writes none where PYTHONDONTWRITEBYTECODE is set: then every worker of every
    # run rewrites every test module again (about 7 s of CPU each). Kept while collecting, as
    # scripts/_env.sh keeps the project's own compiled modules.
    keep = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = keep


def pytest_unconfigure(config) -> None:
    data = getattr(config, "_vampire_data_home", None)
    if data:
        shutil.rmtree(data, ignore_errors=True)
    positions = getattr(config, "_vampire_positions", None)
    if positions:
        shutil.rmtree(positions, ignore_errors=True)
        os.environ.pop(POSITIONS_ENV, None)
        if Path(os.environ.get("TMPDIR", "")).parent == Path(positions):
            os.environ.pop("TMPDIR", None)
            tempfile.tempdir = None
