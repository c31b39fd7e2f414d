"""The text feed of `vampire join --bot` / `--spectate` tells a connection that is down in one line
and its return in one more, however many attempts it takes (the TUI keeps one line up to date)."""

from __future__ import annotations

from net.events import Connection, LinkCause, LinkState
from tui.cli import LinkLines


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def lost(detail: str = "The connection to the host was lost.", cause=LinkCause.LOST) -> Connection:
    return Connection(LinkState.DISCONNECTED, detail, retry=0.25, cause=cause)


def test_forty_failed_attempts_are_two_lines():
    lines: list[str] = []
    clock = Clock()
    link = LinkLines(lines.append, clock)
    link.show(Connection(LinkState.CONNECTING, "Connecting to 127.0.0.1:7447…"))
    link.show(Connection(LinkState.CONNECTED, "Connected to 127.0.0.1:7447."))
    link.show(lost())
    for _ in range(40):
        clock.now += 1
        link.show(Connection(LinkState.CONNECTING, "Connecting to 127.0.0.1:7447…"))
        link.show(lost("Nothing listens at 127.0.0.1:7447.", LinkCause.REFUSED))
    link.show(Connection(LinkState.CONNECTED, "Connected to 127.0.0.1:7447."))
    assert lines == [
        "Connected to 127.0.0.1:7447.",
        "The connection to the host was lost. (retrying in 0.2 s, quietly until it is back)",
        "Connected to 127.0.0.1:7447. (down 40 s; 40 more attempts)",
    ]


def test_the_host_closing_the_table_is_news_once_and_stopping_counts_the_attempts():
    lines: list[str] = []
    clock = Clock()
    link = LinkLines(lines.append, clock)
    link.show(lost())
    link.show(lost("The host closed the table.", LinkCause.HOST_CLOSED))
    link.show(lost("The host closed the table.", LinkCause.HOST_CLOSED))
    link.show(lost("Nothing listens there.", LinkCause.REFUSED))
    clock.now += 7
    link.show(Connection(LinkState.STOPPED, "Stopped."))
    assert lines == [
        "The connection to the host was lost. (retrying in 0.2 s, quietly until it is back)",
        "The host closed the table. (retrying in 0.2 s, quietly until it is back)",
        "Stopped. (down 7 s; 2 more attempts)",
    ]
