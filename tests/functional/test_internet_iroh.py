"""Play across the internet (``net.internet``, iroh): a whole Vampire Queen game by ticket between
real processes, a guest killed and joining again, a host resumed with the same ticket, and a
flood of connections held by the same caps and budget as TCP's (the VTES set-up and the NATs are
in test_internet_iroh_vtes.py and test_internet_nat.py, so the suite's workers share them). Every endpoint runs inside a network
namespace the test makes, with relays and discovery off (iroh's port mapper probes the gateway
and multicasts even then: nothing may leave this machine). Also: the base install and ``vampire
--help`` without iroh, and where iroh is a dependency. ``scripts/test -k "iroh or internet"``
runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from net.internet import unavailable
from tests.functional.test_net_processes import SEATS
from tests.support.internet_scenarios import run_internet, skip_without_namespace_or_iroh

ROOT = Path(__file__).resolve().parents[2]


def test_a_vampire_queen_game_over_iroh_survives_a_guest_killed_and_a_host_resumed_with_the_same_ticket(tmp_path):
    skip_without_namespace_or_iroh()
    facts = run_internet("game", tmp_path)
    first, second = facts["tickets"]
    assert first == second, "the resumed host listens as the same endpoint: the guests' ticket still holds"
    assert facts["same_logs"] == [True, True, True], "every guest holds the host's log byte for byte"
    assert facts["audit"] == 0, "vampire audit finds the log complete and every check passed"
    assert facts["entries"] > facts["rejoined_with"]
    first_run, resumed = facts["iroh_seated"]
    assert first_run >= SEATS + 1, "the host saw its guests, and the one killed back, as internet endpoints"
    assert resumed >= SEATS, "the resumed host saw every guest come back as an internet endpoint"


def test_a_flood_of_iroh_connections_is_held_by_the_caps_and_budget_of_tcp_ones(tmp_path):
    skip_without_namespace_or_iroh()
    facts = run_internet("flood", tmp_path)
    assert facts["held_of_one_endpoint"] == 2, "one endpoint id is capped as one IP address is"
    assert facts["most_unseated"] <= facts["max_unseated"] == 3
    assert facts["byes_of_the_oldest"] == ["full", "full", "full"], "the oldest strangers made room"
    assert facts["refusals"] >= 5
    assert facts["peer_kinds"] == ["iroh"]


NO_IROH = """
import sys
class NoIroh:
    def find_spec(self, name, path=None, target=None):
        if name == "iroh" or name.startswith("iroh."):
            raise ImportError("no iroh here")
        return None
sys.meta_path.insert(0, NoIroh())
from tui.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""``vampire`` on a computer where iroh is not installed (the import fails)."""


def _vampire_without_iroh(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(home), VAMPIRE_NO_DISCOVERY="1", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", NO_IROH, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_without_iroh_vampire_help_works_and_internet_says_why_in_one_sentence(tmp_path):
    helped = _vampire_without_iroh("--help", home=tmp_path)
    assert helped.returncode == 0 and "host" in helped.stdout
    hosted = _vampire_without_iroh("host", "--internet", "--headless", home=tmp_path)
    assert hosted.returncode != 0
    said = hosted.stderr.strip().splitlines()[-1]
    assert "needs the iroh package" in said and said.count(". ") == 0, said
    assert "Traceback" not in hosted.stderr
    joined = _vampire_without_iroh("join", "endpointabc", "--bot", "heuristic", home=tmp_path)
    assert joined.returncode != 0 and "needs the iroh package" in joined.stderr
    assert not any((tmp_path / "vampire-table").rglob("*.vtlog")), "nothing was opened"


def test_internet_play_is_a_dependency_only_where_iroh_has_a_wheel():
    from packaging.markers import Marker

    text = Path(ROOT / "pyproject.toml").read_text()
    line = next(x for x in text.splitlines() if x.strip().startswith('"iroh=='))
    marker = Marker(line.split(";", 1)[1].rstrip('",'))
    where = {
        ("linux", "x86_64"): True,
        ("linux", "aarch64"): True,
        ("darwin", "arm64"): True,
        ("win32", "AMD64"): True,
        ("darwin", "x86_64"): False,  # Intel macOS: no wheel, the base install goes on without it
        ("linux", "armv7l"): False,
        ("linux", "i686"): False,
    }
    for (system, machine), wanted in where.items():
        env = {"sys_platform": system, "platform_machine": machine}
        assert marker.evaluate(env) is wanted, (system, machine)


@pytest.mark.internet_relays
def test_a_game_over_iroh_through_n0s_public_relays(tmp_path):
    """Opt-in (``scripts/test -m internet_relays``), for a person whose machine may reach the
    internet: a headless host with n0's relays and three guests by ticket play a table to its end."""
    if unavailable() is not None:
        pytest.skip(unavailable())
    from tests.support.internet_scenarios import InternetTable

    class PublicTable(InternetTable):
        RELAY: list[str] = []

    table = PublicTable(tmp_path)
    try:
        table.start_all()
        table.wait_all(600)
        table.check_identical()
    finally:
        table.close()
