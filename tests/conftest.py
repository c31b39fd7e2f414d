"""Test-wide set-up: no test reads or writes the user's own data or cache directory (identity keys,
saved logs, per-table state; the card cache). Every test process gets an empty one of its own, so what a developer or an
earlier run left there (recent logs listed on the home screen, keys) never changes a test. And no
test sends multicast to the LAN: ``VAMPIRE_NO_DISCOVERY=1`` for the whole run. The run's named
positions (tests/support/positions.py) are kept in one folder that every worker shares, removed
when the run ends.

Fixtures that only one folder needs live in that folder's conftest: ``tests/unit/conftest.py``
(child processes of the code base, a copy of it), ``tests/functional/conftest.py`` (the ``vampire``
command in child processes, the test-only third game)."""

from __future__ import annotations

import os
import shutil
import tempfile

from tests.support.positions import POSITIONS_ENV, new_run_folder


def pytest_configure(config) -> None:
    # No test sends LAN multicast (table discovery, direct seen reports): every process of the suite
    # inherits this; the tests that discover run in a network namespace of their own without it
    # (tests/support/netns.py).
    os.environ["VAMPIRE_NO_DISCOVERY"] = "1"
    data = tempfile.mkdtemp(prefix="vampire-test-data-")
    os.environ["XDG_DATA_HOME"] = data
    os.environ["XDG_CACHE_HOME"] = os.path.join(data, "cache")  # the VTES card cache, per run
    config._vampire_data_home = data
    # The run's named positions (tests/support/positions.py): one folder for the whole run, made by
    # the process that starts it; pytest-xdist workers inherit its name and share it.
    if not os.environ.get(POSITIONS_ENV):
        positions = str(new_run_folder())
        os.environ[POSITIONS_ENV] = positions
        config._vampire_positions = positions


def pytest_unconfigure(config) -> None:
    data = getattr(config, "_vampire_data_home", None)
    if data:
        shutil.rmtree(data, ignore_errors=True)
    positions = getattr(config, "_vampire_positions", None)
    if positions:
        shutil.rmtree(positions, ignore_errors=True)
        os.environ.pop(POSITIONS_ENV, None)
