"""What ``vampire result`` and ``vampire audit`` check, once each (PROTOCOL.md 2, 8): every entry's
signature, author key and chain; an author key validated once per key, not once per entry; the
confusables data of the names fold read only when a name is folded, the same data as the library's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import nacl.bindings
import pytest

from engine.protocol import entry as entry_module
from engine.protocol import group
from engine.protocol.log import BadAuthorKey, encode_frame, read_log, validate_author_key
from engine.table import events
from engine.table.names import confusables, name_key
from tests.support.protocol import frames_of
from tui.cli import main

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def counted_key_checks(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The keys libsodium's point validation sees from now on (the memo of checked keys emptied)."""
    seen: list[bytes] = []
    real = nacl.bindings.crypto_core_ed25519_is_valid_point

    def counting(pub: bytes) -> bool:
        seen.append(pub)
        return bool(real(pub))

    monkeypatch.setattr(nacl.bindings, "crypto_core_ed25519_is_valid_point", counting)
    entry_module._valid_point.cache_clear()
    yield seen
    entry_module._valid_point.cache_clear()


def test_reading_a_log_validates_each_author_key_once(queen_log: Path, counted_key_checks: list[bytes]) -> None:
    log = read_log(queen_log)
    authors = {e.author for e in log.entries}
    assert len(log.entries) > 10 * len(authors)  # many entries per key
    assert sorted(counted_key_checks) == sorted(authors)  # each key once, however many entries it signs
    read_log(queen_log)
    assert sorted(counted_key_checks) == sorted(authors)  # and not again in the same process


def test_a_bad_author_key_is_refused_every_time_it_is_seen(counted_key_checks: list[bytes]) -> None:
    small_order = bytes(32)  # the identity point's encoding is 01 00..; all zeros is of small order
    for _ in range(3):
        with pytest.raises(BadAuthorKey, match="small order"):
            validate_author_key(small_order)
    assert len(counted_key_checks) == 1  # its answer is kept too


@pytest.fixture
def tampered_log(queen_log: Path, tmp_path: Path) -> tuple[Path, int]:
    """A copy of the session game's log whose entry at seq 5 carries a signature with one bit
    flipped (its payload and head signature unchanged): (path, seq)."""
    data = queen_log.read_bytes()
    frame = frames_of(data)[5]
    e = frame.entry
    bad = bytes([e.signature[0] ^ 1]) + e.signature[1:]
    forged = type(e)(e.payload, bad, e.table, e.seq, e.prev, e.author, e.kind, e.body, e.time, e.id)
    path = tmp_path / "tampered.vtlog"
    path.write_bytes(data[: frame.start] + encode_frame(forged, frame.head) + data[frame.end :])
    entry_module.VERIFIED_SIGNATURES.clear()  # the memo of signatures that verified holds only good ones
    return path, e.seq


def test_a_tampered_signature_fails_result_and_audit_at_its_entry(
    tampered_log: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, seq = tampered_log
    assert main(["result", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"frame {seq}" in err and f"seq {seq}" in err and "does not verify" in err
    assert main(["audit", "--json", str(path)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["fault"]["seq"] == seq and "signature" in json.dumps(verdict["fault"])


def test_an_untampered_copy_of_that_log_reads(queen_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "copy.vtlog"
    shutil.copy(queen_log, path)
    assert main(["audit", str(path)]) == 0
    assert main(["result", str(path)]) == 1  # read whole: a Vampire Queen table has no organiser's result
    assert "no result for an organiser" in capsys.readouterr().err


def test_the_confusables_data_is_the_library_s_own() -> None:
    from confusable_homoglyphs.confusables import confusables_data

    assert confusables() == confusables_data
    assert name_key("Lіsa") == name_key("Lisa") == name_key("Li sa") == name_key("LISA")
    assert name_key("Zoë") == name_key("Zoe\u0308") != name_key("Zoe")


#: Imports the table and the command line, then folds one name; writes the modules loaded before
#: and after the fold as JSON to the file named by its first argument.
NAMES_PROBE = """
import json, sys
import engine.table, engine.audit, tui.cli
before = sorted(sys.modules)
from engine.table.names import name_key
assert name_key("L\\u0456sa") == name_key("Lisa")
json.dump({"before": before, "after": sorted(sys.modules)}, open(sys.argv[1], "w"))
"""


def test_the_table_and_the_command_line_load_no_confusables_library_nor_http(child_env, tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", NAMES_PROBE, str(out)],
        cwd=ROOT,
        env=child_env(ROOT),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    loaded = json.loads(out.read_text())
    for when in ("before", "after"):
        names = set(loaded[when])
        assert not {m for m in names if m.startswith("confusable_homoglyphs")}, when
        assert "urllib.request" not in names and "http.client" not in names, when


def test_a_departed_seat_s_share_is_computed_once_per_position(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = group.mult

    def counting(k: bytes, p: bytes, what: str = "the point") -> bytes:
        calls.append((k, p))
        return real(k, p, what)

    monkeypatch.setattr(group, "mult", counting)
    events._departed_share.cache_clear()
    x, c1 = group.hash_to_scalar("test", b"x"), group.base_mult(group.hash_to_scalar("test", b"c1"))
    assert events._departed_share(x, c1) == events._departed_share(x, c1) == real(x, c1)
    assert len(calls) == 1
    with pytest.raises(group.BadPoint):  # a bad point still raises, every time (an error is not kept)
        events._departed_share(x, bytes(32))
    with pytest.raises(group.BadPoint):
        events._departed_share(x, bytes(32))
    assert len(calls) == 3
    events._departed_share.cache_clear()


def test_a_wrong_share_late_in_a_long_share_entry_is_named_at_its_entry_and_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A share entry of many positions (a deal's) has its proofs verified on the worker threads;
    the verdict is the one a check in order gives: the entry, its author and the bad position."""
    from engine.protocol import elgamal
    from engine.table.hidden.opening import SHARES_IN_PARALLEL
    from tests.support.protocol import Cheat, audit_path, play

    threads: set[str] = set()
    real = elgamal.verify_share

    def recorded(*args: object) -> bool:
        threads.add(threading.current_thread().name)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(elgamal, "verify_share", recorded)
    # Every seat plays in this process: with its own shares trusted only the bad one would be
    # checked; trust nothing, so the whole entry goes through the parallel path.
    monkeypatch.setattr(group.OWN_PROOFS, "enabled", False)
    bad: dict[str, int] = {}

    def late_share(g: object, seat: int, kind: str, body: dict) -> dict | None:
        if bad or kind != "share" or len(body["proofs"]) < SHARES_IN_PARALLEL:
            return None
        body = dict(body)
        body["shares"] = [*body["shares"][:-1], group.mult(group.scalar_from_int(2), body["shares"][-1])]
        bad["position"] = body["positions"][-1]
        return body

    cheat = Cheat(late_share)
    played = play(4, seed=1, tamper=cheat, name="late-share")
    seat, kind, seq = cheat.fired[0]
    fault = played.game.host.table.fault
    assert fault is not None and (fault.seat, fault.seq) == (seat, seq)
    assert f"share of position {bad['position']} of event" in fault.reason and "fails its proof" in fault.reason
    report = audit_path(played.log)
    assert report.code == 1 and report.fault is not None and (report.fault.seat, report.fault.seq) == (seat, seq)
    assert any(name.startswith("vt-part") for name in threads)  # the worker threads verified shares


def test_a_vtes_act_checked_then_folded_runs_through_the_rules_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table checks a move, then folds it: the VTES rules run once for both, and the fold gives
    what running them again would; another act (another object) runs them again."""
    from engine.games.base import GameError
    from engine.games.vtes import rules
    from engine.local import new_local_game

    local = new_local_game("vtes", ["heuristic"] * 4, seed=5)
    while local.step() and local.table.entries.last.kind != "move":
        pass
    game, state = local.table.rules, local.table.gstate
    seat = game.pending(state).actors[0]
    act = game.legal_acts(game.view(state, seat, {}))[0]
    real = rules.run_act
    calls: list[int] = []

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "run_act", counted)
    revealed: dict = {}
    game.check(state, seat, act, revealed)
    after, notes = game.apply(state, seat, act, revealed)
    assert len(calls) == 1
    assert (after, notes) == real(state, seat, act, revealed)
    assert game.apply(state, seat, dict(act), revealed) == (after, notes)
    assert len(calls) == 2
    with pytest.raises(GameError):  # a refused act leaves nothing for a fold to reuse
        game.check(state, seat, {**act, "crypt": -1}, revealed)
    assert game.apply(state, seat, act, revealed) == (after, notes)
