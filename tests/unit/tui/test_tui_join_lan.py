"""The join form's tables heard on the LAN (PROTOCOL.md 9), by keys: listed live as they come,
fill and go; the one picked is joined with the host key and table id its announcement named.
The tables are handed to the screen as its browser would (no multicast in the test suite)."""

from __future__ import annotations

import pytest

from engine.protocol.identity import new_key, public_bytes, short_fingerprint
from net.discovery import HeardTable
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import VampireApp
from tui.screens.home import HomeScreen
from tui.session import JoinSpec


class JoinRecorder:
    def __init__(self) -> None:
        self.asked: list[JoinSpec] = []

    def local(self, spec):  # pragma: no cover - not used here
        raise AssertionError("no local table in these tests")

    def host(self, spec):  # pragma: no cover - not used here
        raise AssertionError("no hosting in these tests")

    def join(self, spec: JoinSpec):
        self.asked.append(spec)
        from engine.errors import VampireError

        raise VampireError("the test stops here")


@pytest.fixture(autouse=True)
def no_recent_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tui.screens.home.recent_logs", lambda *a, **k: [])


def heard(name: str, taken: int, total: int, port: int) -> HeardTable:
    return HeardTable(
        f"{name}._vampire-table._tcp.local.",
        name,
        "queen",
        taken,
        total,
        bytes([port % 256]) * 32,
        public_bytes(new_key()),
        ("192.0.2.7",),
        port,
        2,
    )


async def test_the_join_form_lists_tables_live_and_joins_the_one_picked_with_its_pin() -> None:
    factory = JoinRecorder()
    app = VampireApp(factory=factory, name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        await pilot.press("down", "down")  # "Join a table"
        status = screen.query_one("#join-lan")
        await eventually(lambda: "LAN discovery is off" in shown(status), 5, "the sentence", pilot=pilot)
        listed = screen.query_one("#join-heard")
        assert not listed.display
        # Two tables heard, one of them full.
        longest = "A very long table name that goes on"
        open_table, full_table = heard(longest, 2, 12, 7447), heard("Full house", 4, 4, 7448)
        screen.tables_heard([open_table, full_table])
        await pilot.pause()
        assert listed.display and not status.display
        rows = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert rows[0].startswith(longest[:28]) and "2/12 seats" in rows[0] and open_table.fingerprint in rows[0]
        assert "4/4 seats, full" in rows[1] and listed.get_option_at_index(1).disabled
        # Nothing cut off at 80x24: each line fits inside the list's border (and a scrollbar).
        lines = [line for r in rows for line in r.splitlines()]
        assert all(len(line) <= listed.size.width - 4 for line in lines), (lines, listed.size.width)
        # The open table fills a seat; the full one closes.
        filled = heard(longest, 3, 12, 7447)
        filled = HeardTable(**{**filled.__dict__, "host": open_table.host, "table": open_table.table})
        screen.tables_heard([filled])
        await pilot.pause()
        assert listed.option_count == 1 and "3/12" in str(listed.get_option_at_index(0).prompt)
        # Picking it joins it, pinned to the announced host key and table id.
        listed.focus()
        listed.highlighted = 0
        await pilot.press("enter")
        await eventually(lambda: bool(factory.asked), 5, "the join", pilot=pilot)
    spec = factory.asked[0]
    assert spec.address == "192.0.2.7:7447" and spec.pin == (open_table.host, open_table.table)
    assert short_fingerprint(spec.pin[0]) == open_table.fingerprint


async def test_tab_reaches_the_first_open_table_heard_and_enter_joins_it() -> None:
    """By keys alone: the join form, Tab past the address, the name and the button, to the list;
    Enter joins the first table with a free seat (a full one listed above it is passed over)."""
    factory = JoinRecorder()
    app = VampireApp(factory=factory, name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, HomeScreen), 10, "home", pilot=pilot)
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        await pilot.press("down", "down", "enter")  # into the join form, at its address
        full, open_table = heard("A full house", 4, 4, 7448), heard("Lan party", 1, 3, 7447)
        screen.tables_heard([full, open_table])
        await pilot.press("tab", "tab", "tab")
        assert app.focused is screen.query_one("#join-heard")
        await pilot.press("enter")
        await eventually(lambda: bool(factory.asked), 5, "the join", pilot=pilot)
    assert factory.asked[0].address == "192.0.2.7:7447" and factory.asked[0].pin == (open_table.host, open_table.table)


def test_a_fork_and_a_silent_player_reach_the_screen_as_sentences(tmp_path) -> None:
    from engine.protocol.log import ForkEvidence, Head, sign_head
    from net.events import Fork, Silent
    from tui.events import as_session_event

    key = new_key()
    table = bytes(32)
    a, b = bytes([1]) * 32, bytes([2]) * 32
    evidence = ForkEvidence(
        public_bytes(key),
        Head(table, 4, a, sign_head(key, table, 4, a)),
        Head(table, 4, b, sign_head(key, table, 4, b)),
    )
    event = as_session_event(Fork(evidence, tmp_path / "t.vtfork"))
    assert event.kind == "error" and a.hex() in event.text and b.hex() in event.text
    assert str(tmp_path / "t.vtfork") in event.text and "vampire audit" in event.text
    event = as_session_event(Silent((2,), ("Mina",), (3,), 9))
    assert event.kind == "error" and "Mina" in event.text
    assert as_session_event(Silent((), (), (), 9)).kind == "other"  # nobody silent any more: nothing to say
