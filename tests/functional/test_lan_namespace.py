"""LAN discovery and direct seen reports for real, inside a network namespace each test makes
(PROTOCOL.md 7 and 9): nothing they send can leave it. Skipped, with the reason, on a machine
that does not allow an unprivileged network namespace."""

from __future__ import annotations

import json

import pytest

from tests.support.netns import netns_unavailable, run_scenario

pytestmark = pytest.mark.skipif(netns_unavailable() is not None, reason=netns_unavailable() or "")


def scenario(name: str, *args: str) -> dict:
    done = run_scenario(name, *args)
    assert done.returncode == 0, f"the {name} scenario failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_two_hosts_are_both_listed_by_join_and_a_bot_with_no_address_will_not_guess():
    facts = scenario("two_hosts")
    assert facts["announced"] == [True, True]
    assert facts["hosts_heard"] == facts["fingerprints"]  # the full host keys, as announced
    names = sorted(row[0] for row in facts["heard"])
    # The second table's name came with a right-to-left override and an escape: both are gone.
    assert names == ["Ana's[31m table", "Mina's table"]
    assert all(len(row[5]) == 64 for row in facts["heard"])  # the table ids, once known
    listing = facts["list"]
    assert listing["rc"] == 0
    lines = listing["out"].splitlines()
    assert len(lines) == 2
    for row in facts["heard"]:
        line = next(x for x in lines if x.startswith(row[0]))
        assert f"{row[2]}/{row[3]} seats" in line and row[4] in line  # seats taken, host fingerprint
    assert "\u202e" not in listing["out"] and "\x1b" not in listing["out"]
    bot = facts["bot"]
    assert bot["rc"] == 2 and "Several tables are open" in bot["err"] and len(bot["out"].splitlines()) == 2


def test_a_table_that_fills_is_updated_then_withdrawn_and_a_bot_joins_the_only_open_one():
    facts = scenario("fills")
    seats_heard = [s[0][2] if s else None for s in facts["seen"]]
    # Heard empty, then each seat as it filled, then gone when the host closed.
    assert seats_heard[0] == 0 and seats_heard[-1] is None
    assert [n for n in seats_heard if n is not None] == sorted(n for n in seats_heard if n is not None)
    assert {1, 2, 3} <= set(seats_heard)
    assert all(s[0][5] == facts["table"] for s in facts["seen"] if s)
    assert facts["first_seat"]  # the bot with no address took the first seat
    assert facts["none_open"]["rc"] == 1 and "no table with a free seat" in facts["none_open"]["err"]
    assert "3/3 seats" in facts["list"]["out"]


def test_a_host_that_hides_a_fork_from_its_relays_is_caught_by_the_direct_reports(tmp_path):
    facts = scenario("fork_multicast", str(tmp_path))
    assert facts["multicast"] == [True, True] and min(facts["received"]) >= 1
    for fork in facts["forks"]:
        # Each peer holds both heads: the one it was shown and the one the other peer sent it.
        assert fork["ids"] == facts["expected_ids"]
        assert fork["proven"] is True and fork["path"].endswith("table.vtfork")
    audit = facts["audit"]
    assert audit["rc"] == 1 and audit["out"].startswith("FORK PROVEN: The host (")
    for entry_id in facts["expected_ids"]:
        assert entry_id in audit["out"]


def test_vampire_host_announces_and_three_bots_with_no_address_find_it_and_play_it_to_the_end():
    """The whole path a second terminal takes: `vampire host` announces; `vampire join --list`
    hears it; `vampire join --bot` with no address joins it (pinned to the announced key)."""
    facts = scenario("cli_host")
    host = facts["host"]
    assert facts["host_rc"] == 0, host
    assert 'Announced on the LAN as "Mina\'s table"' in host
    lines = facts["list"]["out"].splitlines()
    assert len(lines) == 1 and lines[0].startswith("Mina's table  queen  0/3 seats  host ")
    address = host.split("Give your friends this address: ")[1].split()[0]
    assert lines[0].endswith(address) and address.startswith("10.86.84.1:")
    digest = host.split("state digest ")[-1].split()[0]
    for bot in facts["bots"]:
        assert bot["rc"] == 0, bot
        assert f"Joining {address} as " in bot["out"] and f"state digest {digest}" in bot["out"]


def test_the_join_form_lists_an_announced_table_live_as_it_fills_and_closes():
    facts = scenario("tui_join")
    first, filled, gone = facts["rows"]
    assert len(first) == 1 and first[0].startswith("Lan party  0/3 seats") and facts["fingerprint"] in first[0]
    assert len(filled) == 1 and "1/3 seats" in filled[0]
    assert gone == [] and "none heard yet" in facts["status"]
