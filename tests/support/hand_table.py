"""TEST ONLY: a VTES table of people each in a process of its own over loopback TCP: `vampire host
--headless` and one :mod:`tests.support.hand_agent` process per person, driven line by line from
the test (:class:`Person`); a person may leave (the process stops) and come back with the same key
and copy of the table (:meth:`HandTable.leave`, :meth:`HandTable.come_back`)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.net import free_port

ROOT = Path(__file__).resolve().parents[2]
QUICK = ["--ping", "0.5", "--backoff-max", "0.4"]


class Person:
    """One agent process: :meth:`ask` sends a line and returns the answer; :meth:`send` and
    :meth:`answer` do the two halves apart (while this person waits, the test drives others)."""

    def __init__(self, name: str, proc: subprocess.Popen[str]) -> None:
        self.name = name
        self.proc = proc
        assert proc.stdout is not None and proc.stdin is not None
        line = proc.stdout.readline()
        assert line, f"{name}'s agent stopped before its seat"
        self.seat: int = json.loads(line)["seated"]

    def send(self, what: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(what) + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"{self.name}'s agent stopped"
        return json.loads(line)

    def ask(self, what: dict[str, Any]) -> dict[str, Any]:
        self.send(what)
        return self.answer()

    def act(self, act: dict[str, Any], **how: Any) -> dict[str, Any]:
        """The act's answer; ``how``: ``raw=True``, ``later_ms=N`` (see the agent)."""
        return self.ask({"act": act, **how})

    def refused(self, act: dict[str, Any], **how: Any) -> str:
        """The sentence refusing ``act`` (the test fails if it is taken)."""
        said = self.act(act, **how)
        assert "refused" in said, f"{self.name}'s {act} was taken"
        return said["refused"]

    def look(self) -> dict[str, Any]:
        return self.ask({"look": True})

    def stop(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class HandTable:
    """The running table: its ``port``, the host's log ``save``, the people by name."""

    tmp: Path
    port: int
    save: Path
    env: dict[str, str]
    people: dict[str, Person] = field(default_factory=dict)
    decks: dict[str, str] = field(default_factory=dict)
    starting: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    """The processes started by :meth:`sit` that hold no seat yet."""

    def _spawn(self, name: str) -> subprocess.Popen[str]:
        home = self.tmp / "people" / name
        return subprocess.Popen(
            [sys.executable, "-m", "tests.support.hand_agent", str(self.port), name, self.decks[name], str(home)],
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(self.tmp / f"{name}.err", "ab"),
            text=True,
        )

    def sit(self, name: str, deck: str) -> None:
        """Start ``name``'s process with ``deck`` (a bundled deck's name or a file); it is a
        :class:`Person` once every person has sat (:meth:`seated`)."""
        self.decks[name] = deck
        self.starting[name] = self._spawn(name)

    def seated(self) -> None:
        """Wait for every person started by :meth:`sit` to hold a seat at the dealt table."""
        while self.starting:
            name, proc = next(iter(self.starting.items()))
            self.people[name] = Person(name, proc)
            del self.starting[name]

    def leave(self, name: str) -> None:
        """``name`` goes away: the process stops, and its connection with it."""
        self.people[name].stop()

    def come_back(self, name: str) -> Person:
        """``name`` runs the same command again: same key, same copy of the table, same seat."""
        self.people[name] = Person(name, self._spawn(name))
        return self.people[name]

    def by_seating(self) -> list[Person]:
        """The people in seating order, the first player first."""
        order = next(iter(self.people.values())).look()["seating"]
        by_seat = {p.seat: p for p in self.people.values()}
        return [by_seat[s] for s in order]


@contextlib.contextmanager
def hand_table(tmp_path: Path, seats: int) -> Iterator[HandTable]:
    """A headless host for ``seats`` people on 127.0.0.1; the test seats them (:meth:`HandTable.sit`,
    :meth:`HandTable.seated`). Stops every process afterwards."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    save = tmp_path / "vtes.vtlog"
    args = ["host", "--headless", "--game", "vtes", "--seats", str(seats), "--bind", "127.0.0.1", "--port", str(port)]
    with open(tmp_path / "host.out", "wb") as host_out:
        host = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", *args, "--save", str(save), *QUICK],
            cwd=ROOT,
            env=env,
            stdout=host_out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    table = HandTable(tmp_path, port, save, env)
    try:
        until(save.exists, "host's log")
        yield table
    finally:
        for proc in table.starting.values():
            proc.kill()
        for person in table.people.values():
            person.stop()
        host.terminate()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()


def caught_up(*people: Person) -> None:
    """Wait until every one of ``people`` holds the same acts (their copies folded the same log):
    a person's own check reads its own copy."""
    until(lambda: len({p.look()["acts"] for p in people}) == 1, "every copy caught up")


def until(cond: Callable[[], Any], what: str) -> Any:
    """Wait until ``cond()`` is truthy and return it (a fail-safe of 60 s, not a measure)."""
    deadline = time.monotonic() + 60
    while not (value := cond()):
        assert time.monotonic() < deadline, f"no {what}"
        time.sleep(0.05)
    return value
