"""Whole Vampire Queen games through the signed log and the deck protocol:
they run to the end, the saved log audits clean, the scores in the log are the rules' result,
every seat agrees with the host, and folding is deterministic."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games.base import Draw, EndEvent, Open, Shuffle
from engine.games.queen import rank
from engine.protocol import codec
from engine.protocol.log import read_log
from engine.table import Table, draws_from
from tests.support.protocol import GAMES, QUEEN_KINDS, audit_path, other_game, play, saved_game


def fold(entries) -> Table:
    t = Table(GAMES)
    for e in entries:
        t.apply(e)
    return t


def rules_replay(entries, folded: Table):
    """Drive the pure rules engine (no protocol) with the log's acts, the joint draw recomputed
    from the rand reveals and the true cards the seed reveals give; return its Result."""
    game = GAMES["queen"]
    genesis = entries[0]
    seats = [e.author for e in entries if e.kind == "join"]
    state = game.setup(genesis.body["seats"], genesis.body["options"])
    reveals: dict[str, dict[int, bytes]] = {}
    moves = [e for e in entries if e.kind == "move"]
    for e in entries:
        if e.kind == "rand-reveal":
            reveals.setdefault(e.body["purpose"], {})[seats.index(e.author)] = e.body["r"]
    events = 0
    while True:
        pending = game.pending(state)
        if pending.ops:
            for op in pending.ops:
                if isinstance(op, Draw):
                    purpose = next(p for p in reveals if p.startswith(op.purpose + "/"))
                    rs = [reveals[purpose][s] for s in range(len(seats))]
                    result = codec.sha256("rand-result", genesis.id, purpose, *rs)
                    outcome = draws_from(result, op.bounds)
                elif isinstance(op, Shuffle):
                    outcome = events
                    events += 1
                elif isinstance(op, Open):
                    assert op.to is not None, "Vampire Queen opens cards to one seat only"
                    outcome = None
                else:
                    assert isinstance(op, EndEvent)
                    outcome = folded.events[op.event].cards
                    assert outcome is not None
                state, _ = game.resolve(state, op, outcome)
            continue
        if not pending.actors:
            break
        move = moves.pop(0)
        seat = seats.index(move.author)
        act = move.body["act"]
        revealed = {p: folded.events[p[0]].cards[p[1]] for p in game.to_open(state, seat, act)}
        state, _ = game.apply(state, seat, act, revealed)
    assert not moves, "the rules engine ended before the log's last move"
    return game.result(state)


def check_finished_game(played) -> None:
    g = played.game
    host = g.host.table
    assert host.phase == "over" and host.ended and host.fault is None
    entries = read_log(played.log).entries
    assert list(entries) == list(host.entries), "the saved log is not what the host sequenced"
    kinds = Counter(e.kind for e in entries)
    assert set(kinds) == set(QUEEN_KINDS)
    n = len(g.seats)
    assert kinds["join"] == n and kinds["rand-commit"] == n and kinds["rand-reveal"] == n
    assert kinds["key"] == n and kinds["shuffle"] == n and kinds["seed-reveal"] == n
    # The deal went through the deck protocol: every seat shares, in one entry and all at once,
    # every hand but its own; each hand is opened by the shares of the n-1 others.
    assert kinds["share"] == n
    report = audit_path(played.log)
    assert report.code == 0, report.text()
    assert report.fault is None and report.finished and not report.unchecked and report.checked_events == 1
    end = entries[-1]
    assert end.kind == "end" and end.author == entries[0].author
    result = host.game.result(host.gstate)
    assert end.body == {"scores": list(result.scores), "winners": list(result.winners)}
    assert report.scores == list(result.scores) and report.winners == list(result.winners)
    # An independent run of the rules engine on the log's acts and the revealed cards agrees.
    folded = fold(entries)
    replayed = rules_replay(entries, folded)
    assert list(replayed.scores) == end.body["scores"] and list(replayed.winners) == end.body["winners"]
    # Each seat's round score is the points left in its hand, as the seed reveal shows them.
    gs = host.gstate
    assert gs.round_scores[-1] == tuple(sum(rank(c) for c in hand) for hand in gs.round_hands[-1])
    # Every seat, folding on its own, holds the host's state.
    digest = host.digest()
    assert all(s.table.digest() == digest for s in g.seats)
    assert folded.digest() == digest


def test_a_four_seat_game_runs_through_the_log_and_audits_clean():
    check_finished_game(saved_game())


def test_an_eight_seat_game_runs_through_the_log_and_audits_clean():
    played = other_game()
    assert len(played.game.seats) == 8
    check_finished_game(played)
    # 8 seats: 104 of the 108 cards dealt, each hand decoded by its own seat only.
    g = played.game
    for i, seat in enumerate(g.seats):
        assert {p for p in seat.known if p[0] == 0} >= {(0, i * 13 + j) for j in range(13)}


@pytest.mark.slow
def test_a_twelve_seat_game_runs_through_the_log_and_audits_clean():
    """The most seats Vampire Queen takes: 12 key holders and 12 proven shuffles per deal."""
    played = play(12, seed=1212, name="twelve")
    assert len(played.game.seats) == 12
    check_finished_game(played)
    g = played.game
    dealt = {p for p in g.seats[0].known if p[0] == 0}
    assert dealt and all({p for p in s.known if p[0] == 0 and p not in s.table.events[0].public} for s in g.seats)
    # Each seat decoded its own hand only: no two seats know the same hidden position.
    hidden = [p for s in g.seats for p in s.known if p[0] == 0 and p[1] not in s.table.events[0].public]
    assert len(hidden) == len(set(hidden))


def test_every_seat_holds_the_hosts_digest_after_every_entry():
    played = saved_game()
    assert played.host_digests, "the session game recorded nothing"
    for seq, digest in played.host_digests.items():
        assert played.seat_digests[seq] == [digest] * 4, f"a seat differs from the host after entry {seq}"


def test_two_independent_folds_agree_after_every_entry():
    played = saved_game()
    entries = read_log(played.log).entries
    a, b = Table(GAMES), Table(GAMES)
    for e in entries:
        a.apply(e)
        b.apply(e)
        assert a.digest() == b.digest()
        if e.seq in played.host_digests:
            assert a.digest() == played.host_digests[e.seq], f"the fold differs from the live host after entry {e.seq}"
    # The digest covers the state: one entry more or less is another digest.
    partial = fold(entries[:-1])
    assert partial.digest() != a.digest()
