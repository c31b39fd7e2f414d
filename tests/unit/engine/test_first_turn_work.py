"""Work ``vampire play`` does not do twice before the first turn (docs/protocol.md 6.9-6.12): the
host's log is fsynced at every entry and the player's and bots' copies in the same process only
when they close; a head signature is verified once per process; the shares a process made itself
are answered without being verified or queued behind the proof pool. Counted, never timed."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.games import all_rules
from engine.local import new_local_game
from engine.protocol import elgamal, entry, group
from engine.protocol.entry import sign_entry, sign_head, verify_head
from engine.protocol.identity import new_key, public_bytes
from engine.protocol.log import LogWriter, read_log
from net.local import bot_factory, until
from tui.local_play import open_play, play_dir_of


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Every os.fsync of this test, counted by the name of the file it syncs."""
    counts: Counter[str] = Counter()
    real = os.fsync

    def counted(fd: int) -> None:
        counts[os.readlink(f"/proc/self/fd/{fd}")] += 1
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    yield counts


def _log(n: int) -> tuple[list[entry.Entry], list[bytes]]:
    host = new_key()
    entries = [sign_entry(host, table=entry.ZERO32, seq=0, prev=entry.ZERO32, kind="table", body={}, time_ms=0)]
    for seq in range(1, n):
        body = {"text": f"hi {seq}"}
        entries.append(
            sign_entry(host, table=entries[0].id, seq=seq, prev=entries[-1].id, kind="chat", body=body, time_ms=seq)
        )
    heads = [sign_head(host, entries[0].id, e.seq, e.id) for e in entries]
    return entries, heads


def test_an_unsynced_copy_holds_the_same_bytes_and_is_fsynced_once_when_it_closes(
    tmp_path: Path, fsyncs: Counter[str]
) -> None:
    entries, heads = _log(6)
    synced, copy = tmp_path / "host.vtlog", tmp_path / "copy.vtlog"
    with LogWriter(synced) as a, LogWriter(copy, sync=False) as b:
        made = fsyncs[str(copy)]  # creating the file syncs its magic
        for e, h in zip(entries, heads, strict=True):
            a.append(e, h)
            b.append(e, h)
        assert fsyncs[str(copy)] == made  # none per entry
        assert fsyncs[str(synced)] >= len(entries)  # one per entry
    assert fsyncs[str(copy)] == made + 1  # once, at close
    assert copy.read_bytes() == synced.read_bytes()
    assert [e.id for e in read_log(copy).entries] == [e.id for e in entries]


def test_an_unsynced_copy_still_refuses_what_does_not_follow_and_writes_nothing(tmp_path: Path) -> None:
    entries, heads = _log(3)
    with LogWriter(tmp_path / "copy.vtlog", sync=False) as b:
        b.append(entries[0], heads[0])
        size = (tmp_path / "copy.vtlog").stat().st_size
        with pytest.raises(entry.ChainError):
            b.append(entries[2], heads[2])  # seq 1 is missing
        with pytest.raises(entry.BadSignature):
            b.append(entries[1], heads[2])  # another entry's head signature
        assert (tmp_path / "copy.vtlog").stat().st_size == size


def test_reopening_an_unsynced_copy_keeps_it_unsynced(tmp_path: Path, fsyncs: Counter[str]) -> None:
    entries, heads = _log(4)
    path = tmp_path / "copy.vtlog"
    with LogWriter(path, sync=False) as b:
        b.append(entries[0], heads[0])
    before = fsyncs[str(path)]
    with LogWriter.open_existing(path, sync=False) as b:
        for e, h in zip(entries[1:], heads[1:], strict=True):
            b.append(e, h)
        assert fsyncs[str(path)] == before
    assert len(read_log(path).entries) == 4


async def test_vampire_play_fsyncs_the_hosts_log_at_every_entry_and_each_copy_when_it_closes(
    tmp_path: Path, fsyncs: Counter[str]
) -> None:
    save = tmp_path / "game.vtlog"
    local = await open_play(
        "queen",
        ["random", "random"],
        name="Mina",
        save=save,
        options={"rounds": "1"},
        brought=None,
        games=all_rules(),
        player_bot=bot_factory("random", random.Random(3)),
    )
    folder = play_dir_of(save)
    copies = [folder / "you" / "table.vtlog", *(folder / "bots" / str(i) / "table.vtlog" for i in range(2))]
    try:
        await until(lambda: local.host.table.seq > 20, [local.session.client], 60, "the first deal")
        assert fsyncs[str(save)] >= local.host.table.seq  # the host: one per entry (PROTOCOL.md 3)
        assert all(fsyncs[str(c)] <= 1 for c in copies)  # the copies: the magic only, so far
    finally:
        await local.close()
    held = save.read_bytes()
    for c in copies:
        assert fsyncs[str(c)] <= 2  # and once more when it closed
        assert held.startswith(c.read_bytes())  # byte for byte the host's, as far as it got


def test_a_head_signature_is_verified_once_per_process_and_a_bad_one_every_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[int] = []
    real = entry.head_message

    def counted(table: bytes, seq: int, entry_id: bytes) -> bytes:
        made.append(seq)
        return real(table, seq, entry_id)

    monkeypatch.setattr(entry, "head_message", counted)
    host = new_key()
    pub, table, eid = public_bytes(host), bytes(range(32)), bytes(32)
    sig = sign_head(host, table, 7, eid)
    made.clear()
    assert all(verify_head(pub, table, 7, eid, sig) for _ in range(5))
    assert made == [7]
    # The same signature for another statement, or another signature, is verified and fails.
    assert not verify_head(pub, table, 8, eid, sig)
    assert not verify_head(pub, table, 7, bytes([1]) * 32, sig)
    assert not verify_head(public_bytes(new_key()), table, 7, eid, sig)
    bad = sig[:-1] + bytes([sig[-1] ^ 1])
    assert not verify_head(pub, table, 7, eid, bad)
    assert not verify_head(pub, table, 7, eid, bad)
    assert made == [7, 8, 7, 7, 7, 7]


@pytest.fixture
def share_checks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every elgamal.verify_share of this test, by position."""
    checked: list[int] = []
    real = elgamal.verify_share

    def counted(*args: object) -> bool:
        checked.append(int(args[3]))  # type: ignore[call-overload]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(elgamal, "verify_share", counted)
    monkeypatch.setattr(group.OWN_PROOFS, "enabled", True)  # whatever a test before left
    yield checked


def _to_first_turn(seed: int) -> None:
    """The deal to the first move owed (no move made: its opened cards are checked otherwise)."""
    game = new_local_game("queen", [None, "random", "random", "random"], {"rounds": "1"}, seed=seed)
    while not any(k == "move" for _, k in game.table.owed()):
        assert game.step()
    assert sum(e.kind == "share" for e in game.table.entries) >= 4


def test_in_one_process_the_deals_own_shares_are_not_verified(share_checks: list[int]) -> None:
    _to_first_turn(seed=4)
    assert share_checks == []


def test_with_no_proof_trusted_as_its_own_every_share_of_the_deal_is_verified(share_checks: list[int]) -> None:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(group.OWN_PROOFS, "enabled", False)
        _to_first_turn(seed=4)
    assert len(share_checks) > 0


def test_a_share_entry_signed_again_after_a_stale_answer_makes_no_share_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat owes its `share` entry of the deal at once: the host appends one and answers the
    others ``stale``; each signs the same duty again on the new head, from the shares it made
    ahead (engine.seat.Seat._early_result), not from new ones: the same bytes, no share made again."""
    made: list[int] = []
    real = elgamal.make_share

    def counted(*args: object, **kwargs: object) -> tuple[bytes, bytes]:
        made.append(int(args[2]))  # type: ignore[call-overload]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(elgamal, "make_share", counted)
    game = new_local_game("queen", ["random"] * 4, {"rounds": "1"}, seed=6)
    t = game.table
    while not any(k == "share" for _, k in t.owed()):
        assert game.step()
    owing = [game.seats[s] for s, k in t.owed() if k == "share"]
    assert len(owing) == 4
    for seat in owing:
        assert (future := seat.preparing()) is None or future.result() is not None
    first = {seat.index: seat.duty() for seat in owing}  # each signs on the same head
    assert all(duty is not None and duty[0] == "share" for duty in first.values())
    counted_ahead = len(made)
    winner, *losers = owing
    game.submit(winner, *first[winner.index])  # type: ignore[misc]  # appended; the others are stale
    for seat in losers:
        assert seat.duty() == first[seat.index]  # signed again on the new head: the same body
    assert len(made) == counted_ahead  # and no share made again
