"""Whole games between separate OS processes over loopback TCP (`vampire host --headless` and three
`vampire join --bot`, the fewest a Vampire Queen table seats), with crashes: the host or a client
SIGKILLed mid-game, and a client killed between writing its seed and publishing what it derived.
Nothing accepted is lost, and every peer ends with the host's log, byte for byte, and its state
digest (DESIGN.md, "Nothing lost")."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.games import all_rules
from engine.protocol.identity import public_bytes
from engine.protocol.log import read_log
from engine.protocol.secrets import SecretsFile
from engine.table import Table
from net.local import load_or_make_key
from tests.support.net import free_port
from tui.cli import CRASH_ENV

ROOT = Path(__file__).resolve().parents[2]
QUICK = ["--ping", "0.5", "--backoff-max", "0.4"]
SEATS = 3
"""The bot processes at the table: what is checked holds for any number, and the fewest is the cheapest."""
DIGEST = re.compile(r"state digest ([0-9a-f]{64})")


class BotTable:
    """A host process and :data:`SEATS` bot client processes for one Vampire Queen table of one round."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.save = tmp / "host.vtlog"
        self.env = {k: v for k, v in os.environ.items() if k != CRASH_ENV}
        self.env.update(XDG_DATA_HOME=str(tmp / "data"), PYTHONUNBUFFERED="1")
        self.procs: list[subprocess.Popen] = []
        self.host: subprocess.Popen | None = None
        self.clients: list[subprocess.Popen | None] = [None] * SEATS
        self.runs = 0

    def _spawn(self, args: list[str], name: str, env: dict | None = None) -> subprocess.Popen:
        self.runs += 1
        out = open(self.tmp / f"{name}.{self.runs}.out", "wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "tui.cli", *args],
            cwd=ROOT,
            env=env or self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        proc.out_path = out.name  # type: ignore[attr-defined]
        out.close()
        self.procs.append(proc)
        return proc

    def start_host(self, resume: bool = False) -> None:
        fresh = ["--save", str(self.save), "--seats", str(SEATS), "--rule", "rounds=1"]
        where = ["--resume", str(self.save)] if resume else fresh
        self.host = self._spawn(
            ["host", "--headless", "--bind", "127.0.0.1", "--port", str(self.port), *where, *QUICK], "host"
        )

    def state(self, i: int) -> Path:
        return self.tmp / f"client{i}"

    def start_client(self, i: int, env: dict | None = None) -> None:
        self.clients[i] = self._spawn(
            ["join", f"127.0.0.1:{self.port}", "--bot", "heuristic", "--state", str(self.state(i)), "--quiet", *QUICK],
            f"client{i}",
            env,
        )

    def start_all(self) -> None:
        self.start_host()
        for i in range(SEATS):
            self.start_client(i)

    def start_all_with_a_crash(self, seat: int, moment: str) -> None:
        """Start the host and every client, client ``seat`` set to SIGKILL itself at ``moment``
        (the product's CRASH_ENV hook); return once it has."""
        crash_env = dict(self.env, **{CRASH_ENV: moment})
        self.start_host()
        for i in range(SEATS):
            self.start_client(i, env=crash_env if i == seat else None)
        crasher = self.clients[seat]
        assert crasher is not None
        self.wait_until(lambda: crasher.poll() is not None, 60, "the client to kill itself")
        assert crasher.returncode == -signal.SIGKILL

    def host_entries(self) -> int:
        try:
            return len(read_log(self.save).entries) if self.save.exists() else 0
        except Exception:
            return 0

    def wait_until(self, condition, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{self.outputs()}")
            for p in self.procs:
                if p.poll() not in (None, 0, -signal.SIGKILL):
                    raise AssertionError(f"a process failed ({p.returncode})\n{self.outputs()}")
            time.sleep(0.02)

    def wait_all(self, timeout: float = 90) -> None:
        live = [self.host, *self.clients]
        self.wait_until(lambda: all(p.poll() is not None for p in live), timeout, "every process to finish")
        for p in live:
            assert p.returncode == 0, self.outputs()

    def kill(self, proc: subprocess.Popen) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def outputs(self) -> str:
        parts = []
        for p in self.procs:
            text = Path(p.out_path).read_text(errors="replace")
            parts.append(f"--- {p.args[3]} {Path(p.out_path).name} rc={p.poll()}\n{text[-3000:]}")
        return "\n".join(parts)

    def digests(self) -> list[str]:
        out = []
        for p in [self.host, *self.clients]:
            found = DIGEST.findall(Path(p.out_path).read_text())
            assert found, f"no digest printed by {p.args}\n{self.outputs()}"
            out.append(found[-1])
        return out

    def check_identical(self) -> Table:
        """Every peer's log equals the host's byte for byte, every digest the host's; returns the
        table folded from the host's log (by this test, independently)."""
        host_bytes = self.save.read_bytes()
        for i in range(SEATS):
            assert (self.state(i) / "table.vtlog").read_bytes() == host_bytes, f"client {i}'s log differs"
        table = Table(all_rules())
        for entry in read_log(self.save).entries:
            table.apply(entry)
        assert table.ended and table.fault is None
        assert set(self.digests()) == {table.digest().hex()}
        return table

    def close(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)


def secret_records(path: Path) -> list[list]:
    """The ``[kind, key, value]`` records of a secrets file (engine/secrets.py layout)."""
    from engine.protocol.codec import decode

    data = path.read_bytes()
    assert data.startswith(b"VTSEC1\n")
    pos, out = 7, []
    while pos + 4 <= len(data):
        n = int.from_bytes(data[pos : pos + 4], "big")
        out.append(decode(data[pos + 4 : pos + 4 + n]))
        pos += 4 + n
    return out


@pytest.fixture
def bot_table(tmp_path):
    t = BotTable(tmp_path)
    yield t
    t.close()


def audit_if_available(path: Path) -> None:
    from tui.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    if "audit" not in sub.choices:
        return  # the auditor is another part's; this test runs it once it exists
    done = subprocess.run(
        [sys.executable, "-m", "tui.cli", "audit", str(path)], cwd=ROOT, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()


def test_bot_processes_play_a_whole_game_and_hold_the_hosts_log_byte_for_byte(bot_table):
    bot_table.start_all()
    bot_table.wait_all()
    table = bot_table.check_identical()
    assert len(table.seats) == SEATS
    kinds = {e.kind for e in table.entries}
    assert {"join", "start", "key", "shuffle", "share", "move", "seed-reveal", "end"} <= kinds
    audit_if_available(bot_table.save)


def test_a_host_killed_mid_game_resumes_from_its_file_and_nothing_is_lost(bot_table):
    bot_table.start_all()
    bot_table.wait_until(lambda: bot_table.host_entries() >= 45, 60, "the game to be under way")
    bot_table.kill(bot_table.host)
    before = read_log(bot_table.save).entries
    client_logs = [read_log(bot_table.state(i) / "table.vtlog").entries for i in range(SEATS)]
    bot_table.start_host(resume=True)
    bot_table.wait_all()
    table = bot_table.check_identical()
    final = table.entries
    assert [e.id for e in final[: len(before)]] == [e.id for e in before]
    for held in client_logs:
        assert [e.id for e in final[: len(held)]] == [e.id for e in held]
    assert "Resumed the table" in Path(bot_table.host.out_path).read_text()


def test_a_client_killed_mid_game_restarts_from_its_files_and_plays_on(bot_table):
    bot_table.start_all()
    bot_table.wait_until(lambda: bot_table.host_entries() >= 45, 60, "the game to be under way")
    victim = bot_table.clients[2]
    bot_table.kill(victim)
    held = len(read_log(bot_table.state(2) / "table.vtlog").entries)
    bot_table.start_client(2)
    bot_table.wait_all()
    table = bot_table.check_identical()
    assert len(table.entries) > held
    assert f"held {held} entries" in "".join(
        Path(p.out_path).read_text() for p in bot_table.procs if p.args[3] == "host"
    )


def test_a_bot_joined_with_no_state_folder_takes_its_seat_again_with_the_command_it_printed(bot_table):
    """`vampire join HOST --bot LEVEL` with no --state keeps its key and files as a person's join
    does, and says at once the command that seats it again; killed mid-game, that command takes
    the same seat back and the game ends with every peer on the host's digest."""
    import shlex

    bot_table.start_host()
    for i in range(SEATS - 1):
        bot_table.start_client(i)
    plain = bot_table._spawn(["join", f"127.0.0.1:{bot_table.port}", "--bot", "heuristic", *QUICK], "plain")
    bot_table.clients[SEATS - 1] = plain
    said = "takes its seat again with: "

    def printed() -> str:
        return Path(plain.out_path).read_text()

    bot_table.wait_until(lambda: said in printed(), 30, "the command that seats the bot again")
    again = printed().split(said, 1)[1].splitlines()[0]
    bot_table.wait_until(lambda: bot_table.host_entries() >= 45, 60, "the game to be under way")
    bot_table.kill(plain)
    words = shlex.split(again)
    args = words[words.index("join") :]
    assert args[1:] == [f"127.0.0.1:{bot_table.port}", "--bot", "heuristic", "--name", args[-1]]
    back = bot_table._spawn([*args, *QUICK], "plain-again")
    bot_table.clients[SEATS - 1] = back
    bot_table.wait_all()
    out = Path(back.out_path).read_text()
    assert "No seat for this peer" not in out
    assert len(set(bot_table.digests())) == 1
    table = Table(all_rules())
    for entry in read_log(bot_table.save).entries:
        table.apply(entry)
    assert table.ended and table.fault is None and not table.abandoned
    assert args[-1] in table.names
    # The table over, the key kept to sit again is gone: the name's next table gets a fresh key.
    assert not list(Path(bot_table.env["XDG_DATA_HOME"]).rglob("*-bot.key"))


def test_a_client_killed_between_storing_its_seed_and_publishing_its_shuffle_reuses_the_seed(bot_table):
    bot_table.start_all_with_a_crash(1, "shuffle")
    stored = SecretsFile(bot_table.state(1) / "seat.secrets").get("seed", 0)
    assert stored is not None, "the seed was on disk before anything derived from it was sent"
    key = load_or_make_key(bot_table.state(1) / "bot.key")
    bot_table.start_client(1)
    bot_table.wait_all()
    table = bot_table.check_identical()
    seat = table.seat_of(public_bytes(key))
    reveals = [
        e for e in table.entries if e.kind == "seed-reveal" and e.body["event"] == 0 and table.seat_of(e.author) == seat
    ]
    assert [e.body["seed"] for e in reveals] == [stored]
    assert (bot_table.state(1) / "seat.secrets").stat().st_mode & 0o777 == 0o600


def test_a_client_killed_after_committing_to_a_move_sends_the_same_act_when_it_restarts(bot_table):
    bot_table.start_all_with_a_crash(2, "move")
    records = secret_records(bot_table.state(2) / "seat.secrets")
    intents = [(key, value) for kind, key, value in records if kind == "intent"]
    assert len(intents) == 1, "the act was on disk before the host saw it"
    turn, stored = intents[0]
    bot_table.start_client(2)
    bot_table.wait_all()
    table = bot_table.check_identical()
    moves = [e for e in table.entries if e.kind == "move"]
    assert moves[turn].author == public_bytes(load_or_make_key(bot_table.state(2) / "bot.key"))
    assert moves[turn].body["act"] == stored
