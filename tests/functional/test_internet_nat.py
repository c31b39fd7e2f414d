"""Play across the internet through NATs: three homes, each behind a router that masquerades (the
host's with the port forward the test sets up, since no relay can run here), made of network
namespaces the test makes (tests/support/nat.py); the guests join with the ticket alone."""

from __future__ import annotations

import pytest

from net.internet import unavailable
from tests.support.internet_scenarios import across_nats
from tests.support.nat import nat_unavailable


# Three namespaces, three routers and an iroh endpoint each: minutes on a loaded 2-core machine,
# where a dial can miss its 10 s connect timeout again and again; run with `scripts/test -m slow`.
@pytest.mark.slow
async def test_two_guests_each_behind_a_nat_play_a_table_hosted_behind_a_third_with_the_ticket_alone_over_the_internet(
    tmp_path,
):
    why = nat_unavailable() or unavailable()
    if why is not None:
        pytest.skip(why + " The iroh tests run only inside network namespaces of their own.")
    facts = await across_nats(tmp_path)
    assert facts["guest_exits"] == [0, 0] and facts["host_exit"] == 0, facts["output"]
    assert facts["same_logs"] == [True, True], "every guest holds the host's log byte for byte"
    assert facts["audit"] == 0
    assert "203.0.113.2:7447" in facts["ticket_addresses"], "the ticket names the forwarded public address"
    for lines in facts["connected"]:
        assert lines and all("direct" in line for line in lines), facts["connected"]
