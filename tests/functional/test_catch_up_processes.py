"""A spectator that comes back after more than a MiB of entries catches up, between real processes
over loopback TCP (docs/protocol.md 7.1): `vampire host --headless` of a six-seat VTES table, six
`vampire join --bot` processes, and `vampire join --spectate --text`, which follows the deal a
while, is killed, and is started again once the host's log has grown by more than a MiB. The
catch-up goes to it a frame at a time as it reads, never counted in a stranger's 256 KiB queue,
and it verifies each proof of shuffle in a worker thread, its pings going on: it is dropped
neither as a slow reader nor as silent, and it ends with the host's log, byte for byte.

A seated bot process that sleeps (SIGSTOP) once play has begun comes back the same way, more
than 512 KiB behind, and ends on the host's digest. (A seat still playing never falls that far
behind: the table waits on it. Measured on a six-seat log, the longest run of entries that waits
on none of the seats still playing is 81 KiB; on a given seat still playing, 43 KiB at four
seats. A seat voted out after the deal misses the rest of the game, the decks rebuilt without
it: about 0.85 MiB.) A seated bot process killed as play
begins, with two more seats voted out after it (each vote rebuilds the decks again), is started
again once the host's log has grown more than a MiB, and catches up all of it the same way.

Slow (behind ``-m slow``): a six-seat game is what writes that much between real processes (the
deal's shuffle proofs, then its moves: about 1.4 MiB in all, where four seats write 0.7), and it
takes two to four minutes on a machine shared with other suites (the seat's, 8 to 12 minutes at a
load of 20)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.errors import VampireError
from engine.protocol.log import read_log
from tests.functional.conftest import Vampire
from tests.support.net import free_port

MIB = 1024 * 1024
DECKS = Path(__file__).resolve().parents[2] / "engine" / "games" / "vtes" / "data"
AWAY = 512 * 1024
"""What a seat sleeps through: twice the queue of a stranger (docs/protocol.md 7.1)."""
SEATS = 6
QUICK = ["--backoff-max", "0.4"]
"""Quick reconnections; the pings of a real table (every 5 s, silent after 30 s): with quick
pings (silent after 3 or 6 s) a machine loaded by other suites starves the processes long enough
for the host to drop even a bot that just connected."""


def size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def entries(path: Path) -> int:
    """Entries in the log file at ``path`` as it is being written (0 before it holds any)."""
    try:
        return len(read_log(path).entries) if path.exists() else 0
    except VampireError:
        return 0


def wait_until(condition: Callable[[], object], timeout: float, what: str, vampire: Vampire) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{vampire.outputs()}")
        time.sleep(0.1)


def host_table(vampire: Vampire, tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path, str]:
    """A headless host of a six-seat VTES table on loopback: its process, its log and its address."""
    port = free_port()
    save = tmp_path / "host.vtlog"
    table = ["--game", "vtes", "--seats", str(SEATS), "--bind", "127.0.0.1", "--port", str(port), "--save", str(save)]
    rules = ["--rule", "stall_seconds=10"]  # the votes open when the bots' --abandon-after casts them
    return vampire.start("host", "--headless", *table, *rules, *QUICK, name="host"), save, f"127.0.0.1:{port}"


def start_bot(vampire: Vampire, address: str, tmp_path: Path, name: str, *options: str) -> subprocess.Popen[bytes]:
    """A heuristic bot process called ``name`` joining the table at ``address``, its files in a
    folder of ``tmp_path`` named after it (and its output)."""
    folder = name.lower().replace(" ", "")
    return vampire.start(
        "join", address, "--bot", "heuristic", "--name", name, "--state", str(tmp_path / folder), "--quiet",
        *options, *QUICK, name=folder,
    )  # fmt: skip


def start_bots(vampire: Vampire, address: str, tmp_path: Path, count: int, *options: str) -> None:
    """``count`` heuristic bot processes named Bot 0, Bot 1… joining the table at ``address``."""
    for i in range(count):
        start_bot(vampire, address, tmp_path, f"Bot {i}", *options)


@pytest.mark.slow
def test_a_spectator_process_back_after_a_mib_of_entries_catches_up_and_is_not_dropped(vampire: Vampire, tmp_path):
    host, save, address = host_table(vampire, tmp_path)
    watched = tmp_path / "spectator" / "table.vtlog"
    spectate = ["join", address, "--spectate", "--text", "--name", "Watcher", "--state", str(tmp_path / "spectator")]
    start_bots(vampire, address, tmp_path, SEATS)
    wait_until(lambda: entries(save) >= 20, 600, "the deal to begin", vampire)
    spectator = vampire.start(*spectate, *QUICK, name="spectator-1")
    wait_until(lambda: entries(watched) >= 20, 600, "the spectator to follow the deal", vampire)
    spectator.send_signal(signal.SIGKILL)  # the network broke under it
    spectator.wait(10)
    away = size(watched)
    wait_until(lambda: size(save) > away + MIB, 900, "a MiB of entries while it is away", vampire)
    assert host.poll() is None, "the game ended before the spectator came back"
    came_back = time.monotonic()
    spectator = vampire.start(*spectate, *QUICK, name="spectator-2")
    wait_until(lambda: spectator.poll() is not None, 900, "the spectator to see the end", vampire)
    wait_until(lambda: host.poll() is not None, 60, "the host to close", vampire)
    print(f"grew {(size(save) - away) / MIB:.2f} MiB while away; back {time.monotonic() - came_back:.0f} s to the end")
    second = vampire.output("spectator-2")
    assert spectator.returncode == 0, second[-3000:]
    assert host.returncode == 0, vampire.output("host")[-3000:]
    drops = [line for line in second.splitlines() if "Connected to" in line or "retrying" in line]
    assert len(drops) == 1, drops  # connected once, never dropped while it caught up
    assert watched.read_bytes() == save.read_bytes()


def digest(output: str) -> str | None:
    """The last state digest a process printed."""
    found = [line.split()[-1] for line in output.splitlines() if line.partition("] ")[2].startswith("state digest ")]
    return found[-1] if found else None


def held_on_connecting(output: str, name: str) -> list[int]:
    """The entries the host's ``output`` says each connection of the seat ``name`` held when it
    connected; -1 for each time it dropped one."""
    marker = " connected as a player; it held "
    held = []
    for line in output.splitlines():
        said = line.partition("] ")[2]
        if said.startswith(name) and marker in said:
            held.append(int(said.split(marker)[1].split()[0]))
        elif said.startswith(f"Disconnected {name}"):
            held.append(-1)
    return held


def followed_to_the_end(
    vampire: Vampire,
    host: subprocess.Popen[bytes],
    save: Path,
    peer: subprocess.Popen[bytes],
    name: str,
    told: int,
    behind_from: int,
    back: float,
) -> tuple[int, int]:
    """Wait for the seat ``name`` (its process ``peer``, come back at ``back``, monotonic seconds)
    and the host to end; check the seat connected once in the host's output after ``told``
    characters and was never dropped, ends with the host's log byte for byte and its digest. Returns
    the entries it held when it connected, and the bytes of entries it caught up: from there to
    ``behind_from``, the host's entries when it came back (each entry's payload and 160 bytes of
    frame and signature)."""
    wait_until(lambda: peer.poll() is not None, 900, f"{name} to see the end", vampire)
    wait_until(lambda: host.poll() is not None, 60, "the host to close", vampire)
    folder = name.lower().replace(" ", "")
    hosted, out = vampire.output("host"), vampire.output(folder)
    held = held_on_connecting(hosted[told:], name)
    behind = sum(len(e.payload) + 160 for e in read_log(save).entries[held[-1] : behind_from])
    print(
        f"held {held}; caught up {behind / MIB:.2f} MiB from seq {held[-1]}; {time.monotonic() - back:.0f} s to the end"
    )
    assert peer.returncode == 0, out[-3000:]
    assert host.returncode == 0, hosted[-3000:]
    assert len(held) == 1, held  # connected once more, and never dropped while it caught up
    assert (vampire.tmp / folder / "table.vtlog").read_bytes() == save.read_bytes()
    assert digest(out) == digest(hosted) is not None
    return held[-1], behind


@pytest.mark.slow
def test_a_seat_whose_computer_slept_through_the_game_catches_up_and_ends_on_the_same_digest(
    vampire: Vampire, tmp_path
):
    """A seated bot process stopped (SIGSTOP: a laptop that slept) once play has begun: the others
    vote it out and play on, the host drops its silent connection. Woken (SIGCONT) once the log has
    grown more than twice a stranger's queue, it reconnects by itself, catches up from the seq it
    held (never dropped) and follows the table to its end, with the host's log byte for byte and the
    same digest. (A seat still playing cannot miss that much: the table waits on it; what a six-seat
    game writes after its deal, the rebuilt decks included, is about 0.85 MiB.)"""
    host, save, address = host_table(vampire, tmp_path)
    slept = tmp_path / "sleeper" / "table.vtlog"
    votes = ["--stall-after", "5", "--abandon-after", "10"]
    sleeper = start_bot(vampire, address, tmp_path, "Sleeper", *votes)
    start_bots(vampire, address, tmp_path, SEATS - 1, *votes)
    # Play has begun (a seat gone during the deal ends a game that never started).
    wait_until(lambda: "Turn 2: " in vampire.output("host"), 900, "the second turn", vampire)
    stopped = len(vampire.output("host"))
    sleeper.send_signal(signal.SIGSTOP)

    def slept_through() -> bool:
        dropped = "Disconnected Sleeper" in vampire.output("host")[stopped:]  # silent, as its pings stopped
        return host.poll() is not None or (dropped and size(save) > size(slept) + AWAY)

    wait_until(slept_through, 900, "the log to grow and the host to drop the sleeper", vampire)
    grown = size(save) - size(slept)
    assert host.poll() is None, f"the game ended before the sleeper woke ({grown / MIB:.2f} MiB)\n{vampire.outputs()}"
    at_waking, said = entries(save), len(vampire.output("host"))
    woke = time.monotonic()
    sleeper.send_signal(signal.SIGCONT)
    _, behind = followed_to_the_end(vampire, host, save, sleeper, "Sleeper", said, at_waking, woke)
    assert behind > AWAY


def big_crypt_decks(tmp_path: Path, count: int) -> list[Path]:
    """``count`` deck files in ``tmp_path`` (``deck-<i>.txt``): the bundled decks of 90 library cards
    (the most a library holds), each crypt card three times (36: a crypt has no most), so that each
    shuffle of a crypt or a library, and so each rebuild, is the largest a legal deck makes."""
    bundled = sorted(p for p in DECKS.glob("*.txt") if "Library (90 cards)" in p.read_text())
    decks = []
    for i in range(count):
        head, library, rest = bundled[i % len(bundled)].read_text().partition("Library (")
        crypt = re.sub(r"^(\d+)x ", lambda m: f"{int(m.group(1)) * 3}x ", head, flags=re.M)
        crypt = re.sub(r"Crypt \((\d+) cards", lambda m: f"Crypt ({int(m.group(1)) * 3} cards", crypt)
        decks.append(tmp_path / f"deck-{i}.txt")
        decks[-1].write_text(crypt + library + rest)
    return decks


@pytest.mark.slow
def test_a_seat_killed_in_play_and_started_again_after_a_mib_of_entries_catches_up(vampire: Vampire, tmp_path):
    """A seated bot process killed (``kill -9``: a computer that crashed) as play begins, then two
    more, each a turn after the one before was voted out (never back): each vote rebuilds the decks
    of the seats still playing without the keys it took away (PROTOCOL.md 6.3, item 8), so the
    first misses three rebuilds and the play between them. Started again with the same ``--state``
    (its key, its secrets and the log it had written, not one entry more: the command the bot
    printed to take its seat again) once the host's log has grown more than a MiB since it died, it
    reconnects as a player, catches up from the seq it held (never dropped) and follows the table
    to its end, with the host's log byte for byte and the same digest; the audit finds no fault
    (exit 2, not 0: the events the abandoned seats held keys of stay unchecked, 6.3 item 8).

    Exit 2 is what such a return gives, and no seat still playing can come back this far behind:
    the table goes on without a disconnected seat only while it owes nothing of it, and every
    draw of every seat is opened with each participant's share, so it soon waits on it (the
    longest run of entries that waits on none of one seat still playing: 43 KiB at four seats,
    :func:`tests.support.stall_table.stall_table`'s ``unwaited_kib``, checked in the default
    suite). Then it waits until the seat is back or voted out: the host needs no pause of its own
    for a seat it does not wait on. A seat that misses a MiB was voted out (this test), or was out
    of play already (ousted or withdrawn, its keys revealed as it left: 6.3 item 6), a case no
    test makes happen between processes.

    The decks are the largest legal ones (:func:`big_crypt_decks`): with the bundled decks the
    game after the first seat died wrote 1.02 MiB with one more seat gone, 1.08 MiB with two, and
    a process started again at 1 MiB (20 s to start on a loaded machine) found the table over."""
    host, save, address = host_table(vampire, tmp_path)
    kept = tmp_path / "crashed" / "table.vtlog"
    votes = ["--stall-after", "5", "--abandon-after", "10"]
    decks = iter(big_crypt_decks(tmp_path, SEATS))
    crashed = start_bot(vampire, address, tmp_path, "Crashed", *votes, "--deck", str(next(decks)))
    quitters = [
        start_bot(vampire, address, tmp_path, f"Quitter {i}", *votes, "--deck", str(next(decks))) for i in (1, 2)
    ]
    for i, deck in enumerate(decks):
        start_bot(vampire, address, tmp_path, f"Bot {i}", *votes, "--deck", str(deck))

    def said(text: str) -> int:
        return vampire.output("host").count(text)

    # Play has begun (a seat gone during the deal ends a game that never started).
    wait_until(lambda: said("Turn 1: ") > 0, 900, "the first turn", vampire)
    crashed.kill()
    crashed.wait(10)
    died, had = size(kept), entries(kept)
    for gone, quitter in enumerate(quitters, 1):
        wait_until(lambda n=gone: said("abandoned the game") >= n, 600, f"{gone} seats voted out", vampire)
        turns = said("Turn ")
        wait_until(lambda t=turns: said("Turn ") > t or host.poll() is not None, 600, "the next turn", vampire)
        quitter.kill()
        quitter.wait(10)

    def a_mib_later() -> bool:
        return host.poll() is not None or size(save) > died + MIB

    wait_until(a_mib_later, 900, "a MiB of entries after the seat died", vampire)
    grown = size(save) - died
    assert host.poll() is None, f"the game ended first ({grown / MIB:.2f} MiB)\n{vampire.outputs()}"
    at_return, told = entries(save), len(vampire.output("host"))
    back = time.monotonic()
    crashed = start_bot(vampire, address, tmp_path, "Crashed", *votes)  # as the bot said it comes back
    held, _ = followed_to_the_end(vampire, host, save, crashed, "Crashed", told, at_return, back)
    assert held == had  # what it had written when it died, not one entry more
    print(f"missed {grown / MIB:.2f} MiB of the host's log (the bytes after the {had} entries it held)")
    assert grown > MIB
    audit = vampire.run("audit", str(save), "--json", timeout=600)
    report = json.loads(audit.stdout)
    assert audit.returncode == 2, audit.stdout[-3000:] + audit.stderr[-3000:]
    assert report["fault"] is None and report["finished"], report
