"""What a session says about links, in words: one guest's link as one sentence kept up to date
(:class:`tui.events.LinkWatch`) and the others coming and going (:class:`tui.events.PresenceWatch`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from net.events import Connection, LinkCause, LinkState
from tui.events import LinkWatch, PresenceWatch

A, B, C, ME = (bytes([i]) * 32 for i in range(4))


def _table(phase: str = "running", abandoned: frozenset[int] = frozenset()) -> Any:
    seats = [SimpleNamespace(key=k, name=n) for k, n in ((ME, "Mina"), (A, "Ann"), (B, "Bob"))]
    return SimpleNamespace(phase=phase, seats=seats, abandoned=abandoned)


def _down(detail: str, cause: LinkCause, retry: float = 2.0) -> Connection:
    return Connection(LinkState.DISCONNECTED, detail, retry, cause)


def test_a_link_down_is_one_sentence_that_counts_the_attempts_and_says_why() -> None:
    watch = LinkWatch("10.0.0.9:7447")
    first = watch.event(_down("Nothing answers at 10.0.0.9:7447: is the table open there?", LinkCause.REFUSED, 0.2))
    assert first.kind == "connection" and not first.ok
    assert first.text == (
        "Could not connect to the table at 10.0.0.9:7447. Nothing answers at 10.0.0.9:7447: is the table open "
        "there? Trying again in 1 s (attempt 2)."
    )
    assert watch.event(Connection(LinkState.CONNECTING)).kind == "other"
    assert watch.event(_down("The connection was reset.", LinkCause.LOST, 4.2)).text.endswith(
        "The connection was reset. Trying again in 4 s (attempt 3)."
    )
    back = watch.event(Connection(LinkState.CONNECTED, "Connected to 10.0.0.9:7447."))
    assert back.ok and back.text == "Connected to the table at 10.0.0.9:7447 again."
    lost = watch.event(_down("The host went silent.", LinkCause.LOST))
    assert lost.text.startswith("The connection to the table at 10.0.0.9:7447 was lost. The host went silent.")
    assert lost.text.endswith("(attempt 2).")


def test_the_host_closing_the_table_is_said_once_and_kept_while_the_link_tries_again() -> None:
    watch = LinkWatch("10.0.0.9:7447")
    watch.event(Connection(LinkState.CONNECTED))
    closed = watch.event(_down("The host closed the table.", LinkCause.HOST_CLOSED))
    assert closed.text == "The host closed the table. You are back at it if the host opens it again."
    for _ in range(5):
        again = watch.event(_down("Nothing answers at 10.0.0.9:7447: is the table open there?", LinkCause.REFUSED))
        assert again.text == closed.text
    own = LinkWatch(None)
    said = own.event(_down("[b]Closing for dinner[/b]", LinkCause.HOST_CLOSED))
    assert (
        said.text
        == "The host closed the table. It said: [b]Closing for dinner[/b]. You are back at it if the host opens it again."
    )
    assert own.event(Connection(LinkState.CONNECTED)).text == "Connected to the table again."


def test_presence_names_who_went_and_who_came_back_and_nothing_else() -> None:
    watch = PresenceWatch(me=ME)
    table = _table()
    assert watch.update({ME, A, B}, table) == []  # the baseline
    assert [c.text for c in watch.update({ME, B}, table)] == ["Ann left the table (and can come back)."]
    assert watch.update({ME, B, C}, table) == []  # C holds no seat: not news
    assert [c.text for c in watch.update({ME, A, B, C}, table)] == ["Ann is back."]
    assert watch.update({A, B}, table) == []  # my own link is the link's business
    assert watch.update({ME, A, B}, table) == []  # nor is my coming back
    assert watch.update({ME}, _table("over")) == []  # everyone goes at the end
    assert watch.update({ME, A, B}, table) == []  # and "is back" only after "disconnected"
    assert watch.update({ME, B}, _table(abandoned=frozenset({1}))) == []  # an abandoned seat is gone already
