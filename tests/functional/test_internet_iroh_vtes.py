"""A VTES set-up and a few turns across the internet (iroh) between real processes, inside a
network namespace the test makes (tests/support/internet_scenarios.py)."""

from __future__ import annotations

from tests.support.internet_scenarios import run_internet, skip_without_namespace_or_iroh


def test_a_vtes_set_up_and_a_few_turns_over_iroh_between_processes(tmp_path):
    skip_without_namespace_or_iroh()
    facts = run_internet("vtes_setup", tmp_path)
    assert facts["prefixes"] == [True, True, True], "every guest's log is the host's, as far as it got"
    assert {"key", "deck", "shuffle", "share", "move"} <= set(facts["kinds"]) and facts["moves"] >= 12
    assert facts["audit"] == 2, "the audit finds no fault in the unfinished log"
