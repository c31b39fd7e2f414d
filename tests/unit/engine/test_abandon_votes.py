"""Abandon votes (PROTOCOL.md 6.5): a seat the table waits on is recorded as having abandoned once
more than half of the other seats still playing voted for it during this wait (every one of them
under table rule ``abandon_by_all``); a seat that does not vote counts neither way. Only what
answers the table restarts the wait: the waited-on seat's own changes by hand keep its wait and
the votes already cast."""

from __future__ import annotations

import pytest

from engine.local import LocalGame, new_local_game
from engine.table import TableRefusal
from tests.support.vtes_table import played_vtes


def stalled_queen(options: dict[str, object] | None = None) -> tuple[LocalGame, int]:
    """A Vampire Queen table of four random bots, played until it waits on one seat's move; the
    vote to end a wait opens at once unless ``options`` say otherwise (``stall_seconds``)."""
    local = new_local_game("queen", ["random"] * 4, {"rounds": 1, "stall_seconds": 0, **(options or {})}, seed=3)
    t = local.table
    while not (t.phase == "running" and t.work is None and len(t.waiting_on()) == 1):
        assert local.step()
    return local, t.waiting_on()[0]


def vote(local: LocalGame, voter: int, target: int) -> None:
    local.submit(local.seats[voter], "abandon", {"seat": target})


def test_more_than_half_of_the_others_carry_the_vote_and_one_that_does_not_vote_counts_neither_way():
    local, stalled = stalled_queen()
    voters = [s for s in range(4) if s != stalled]
    vote(local, voters[0], stalled)
    assert local.table.abandoned == []  # one of three is not more than half
    vote(local, voters[1], stalled)  # the third never votes
    assert local.table.abandoned == [stalled]


def test_a_table_rule_may_require_every_other_seat():
    local, stalled = stalled_queen({"abandon_by_all": True})
    voters = [s for s in range(4) if s != stalled]
    vote(local, voters[0], stalled)
    vote(local, voters[1], stalled)
    assert local.table.abandoned == []
    vote(local, voters[2], stalled)
    assert local.table.abandoned == [stalled]


def test_a_bad_table_rule_is_refused_in_a_sentence():
    with pytest.raises(Exception, match="abandon_by_all"):
        new_local_game("queen", ["random"] * 4, {"abandon_by_all": "maybe"}, seed=3)


def test_a_vote_signed_before_the_wait_has_lasted_the_tables_time_is_refused_in_a_sentence():
    local, stalled = stalled_queen({"stall_seconds": 30})
    t = local.table
    wait = t.waited(stalled)
    assert wait is not None
    voter = local.seats[next(s for s in range(4) if s != stalled)]
    voter.clock = lambda: wait.time_ms + 29_999
    with pytest.raises(TableRefusal, match=f"waited on seat {stalled} for 29 s; a vote to end the wait opens at 30 s"):
        vote(local, voter.index, stalled)
    assert t.abandon_votes == {} and t.waited(stalled) == wait  # nothing changed
    voter.clock = lambda: wait.time_ms + 30_000
    vote(local, voter.index, stalled)
    assert t.abandon_votes == {stalled: {voter.index}}


def test_a_table_waits_thirty_seconds_before_a_vote_unless_its_rule_says_otherwise():
    local = new_local_game("queen", ["random"] * 4, {"rounds": 1}, seed=3)
    assert local.table.stall_seconds == 30 and "stall_seconds" not in local.table.options  # not recorded
    with pytest.raises(Exception, match="stall_seconds must be at least 0"):
        new_local_game("queen", ["random"] * 4, {"stall_seconds": -1}, seed=3)


def test_votes_end_with_the_wait_they_were_cast_in():
    local, stalled = stalled_queen()
    t = local.table
    voter = next(s for s in range(4) if s != stalled)
    vote(local, voter, stalled)
    assert t.abandon_votes == {stalled: {voter}}
    assert local.step()  # the stalled seat plays after all
    assert stalled not in t.abandon_votes
    with pytest.raises(TableRefusal, match="does not owe the table anything now"):
        vote(local, voter, stalled)


def _holds_an_impulse(view) -> bool:
    """Seat 0 holds the impulse of another Methuselah's action."""
    a = view.action
    return a is not None and a.actor != 0 and a.impulse == 0


def _own_turn(view) -> bool:
    """Seat 0 plays its own turn, past its unlock phase, with no window open."""
    return view.acting == 0 and not view.windows and view.step == "play" and view.phase in ("master", "minion")


@pytest.mark.parametrize(
    ("until", "answer"),
    [(_holds_an_impulse, "pass"), (_own_turn, "phase")],
    ids=["holding an impulse", "in its own turn"],
)
def test_a_change_by_hand_of_the_waited_on_seat_restarts_no_wait_and_keeps_the_votes(until, answer):
    local = played_vtes(until)
    t = local.table
    assert t.waiting_on() == [0]
    since = t.waited(0)
    voter = next(s for s in t.playing() if s != 0)
    local.seats[voter].clock = lambda: since.time_ms + 1000 * t.stall_seconds  # once the vote is open
    vote(local, voter, 0)
    me = local.seats[0]
    for delta in (1, -1, 1):  # a staller keeping itself alive with harmless counters
        local.submit(me, "move", me.move_body({"do": "pool", "seat": 0, "delta": delta, "cause": "a card"}))
    local.submit(me, "chat", {"text": "still thinking"})
    wait = t.waited(0)
    assert t.waiting_on() == [0] and (wait.seq, wait.time_ms) == (since.seq, since.time_ms)
    assert t.abandon_votes == {0: {voter}}  # the vote stands: the others can still carry it
    # What moves the table answers (a pass in the window; a step of its own turn): the wait
    # on seat 0 ends or starts again from that entry, and the votes go with it.
    entry = local.submit(me, "move", me.move_body({"do": answer}))
    wait = t.waited(0)
    assert (wait is None or wait.seq == entry.seq) and 0 not in t.abandon_votes


def test_the_seat_the_impulse_reaches_is_waited_on_from_the_entry_that_passed_it():
    local = played_vtes(_holds_an_impulse)
    t = local.table
    me = local.seats[0]
    entry = local.submit(me, "move", me.move_body({"do": "pass"}))
    for seat in t.waiting_on():
        assert t.waited(seat) is not None and t.waited(seat).seq <= entry.seq


class _Replica:
    """What a seat driver reads of its replica: the seat and its table."""

    def __init__(self, seat) -> None:
        self.seat = seat
        self.table = seat.table
        self.caught_up = True
        self.public = seat.public
        self.opened = None  # the host's welcome said nothing of when it opened the table


class _Channel:
    connected = True

    def __init__(self) -> None:
        self.sent: list = []

    def may_send(self) -> bool:
        return True

    def transmit(self, msg) -> None:
        self.sent.append(msg)


def test_under_an_impulse_clock_the_holder_passes_after_its_seconds_of_an_injected_clock():
    from engine.protocol.log import Entry
    from net.driver import Liveness, SeatDriver
    from net.events import Listeners

    local = played_vtes(_holds_an_impulse)
    t = local.table
    me = local.seats[0]
    me.table.options["impulse_seconds"] = 30  # the table rule (the seat's clock reads it, not the game)
    since = t.waited(0).time_ms
    now = [since + 29_000.0]
    channel = _Channel()
    driver = SeatDriver(_Replica(me), channel, Listeners(), liveness=Liveness(clock=lambda: now[0]))
    driver.check_waiting()
    assert channel.sent == []  # 29 s: the clock has not run out
    now[0] = since + 30_000.0
    driver.check_waiting()
    (chat,) = channel.sent
    said = Entry.from_wire(chat.entry)
    assert said.kind == "chat" and said.body["text"] == "My impulse clock ran out after 30 s: I pass."
    local.host.submit(said)  # the host takes it, every seat folds it; the pass follows
    local.broadcast(said)
    driver.folded(said, live=True)
    driver.pump()
    passed = Entry.from_wire(channel.sent[-1].entry)
    assert passed.kind == "move" and passed.body["act"] == {"do": "pass"}


def _passes_by_itself(view) -> bool:
    """Seat 0 holds the impulse of a window's loop with nothing it could play: the game's
    automatic pass takes its answer (engine.games.vtes.autopass)."""
    from engine.games.vtes.autopass import auto_pass

    top = view.windows[-1] if view.windows else None
    return top is not None and top.loop.holder == 0 and bool(top.loop.order) and auto_pass(view) is not None


def test_under_an_impulse_clock_the_automatic_pass_of_a_seat_with_nothing_to_play_comes_at_once():
    """The impulse clock never delays the pass of a seat that has nothing to play: with table rule
    impulse_seconds at 30, a person's seat holding such an impulse passes with no time passed on
    its clock, and says nothing of a clock."""
    from engine.protocol.log import Entry
    from net.driver import Liveness, SeatDriver
    from net.events import Listeners

    local = played_vtes(_passes_by_itself)
    me = local.seats[0]
    me.table.options["impulse_seconds"] = 30
    since = local.table.waited(0).time_ms
    channel = _Channel()
    driver = SeatDriver(_Replica(me), channel, Listeners(), liveness=Liveness(clock=lambda: since))
    driver.check_waiting()
    driver.pump()
    (sent,) = channel.sent
    passed = Entry.from_wire(sent.entry)
    assert passed.kind == "move" and passed.body["act"] == {"do": "pass"}


VOTE_AFTER = 30.0
"""Seconds of a wait after which the voting seats vote (on the injected clock)."""


@pytest.mark.parametrize("until", [_holds_an_impulse, _own_turn], ids=["holding an impulse", "in its own turn"])
async def test_a_staller_with_an_accomplice_and_changes_by_hand_is_voted_out_on_the_injected_clock(until):
    """The stall tests of real processes (tests/functional/test_stalled_seats.py), in one process on
    an injected clock: seat 0 stalls and changes its pool by hand every 10 s; seats 1 and 2 vote
    after 30 s of the table's wait, seat 3 (the accomplice) never votes. Its changes by hand hold
    its stall clock back not at all: the two votes come 30 s into its wait, as for a silent seat,
    carry it, and the table goes on without seat 0."""
    from engine.protocol.log import Entry
    from net.driver import Liveness, SeatDriver
    from net.events import Listeners

    local = played_vtes(until)
    t = local.table
    assert t.waiting_on() == [0]
    since = t.waited(0).time_ms
    now = [float(since)]
    for s in (1, 2, 3):
        local.seats[s].clock = lambda: int(now[0])  # entries are signed on the drivers' clock
    voters = {
        s: (
            SeatDriver(
                _Replica(local.seats[s]),
                channel := _Channel(),
                Listeners(),
                liveness=Liveness(stall_after=1.0, abandon_after=None if s == 3 else VOTE_AFTER, clock=lambda: now[0]),
            ),
            channel,
        )
        for s in (1, 2, 3)
    }

    def at(seconds: float) -> list[Entry]:
        """Each voter checks the wait at ``seconds`` into it; what they sent, taken by the host."""
        now[0] = since + seconds * 1000
        sent = []
        for driver, channel in voters.values():
            driver.check_waiting()
            while channel.sent:
                entry = Entry.from_wire(channel.sent.pop(0).entry)
                local.host.submit(entry)
                local.broadcast(entry)
                for other, _ in voters.values():
                    other.folded(entry, live=True)
                driver.pump()
                sent.append(entry)
        return sent

    me = local.seats[0]
    me.clock = lambda: int(now[0])  # its entries signed on the same injected clock
    for seconds in (5, 10, 15, 20, 25, 29.9):  # every 5 s, and just before the vote opens
        assert at(seconds) == []
        delta = 1 if seconds % 10 else -1
        kept_alive = local.submit(
            me, "move", me.move_body({"do": "pool", "seat": 0, "delta": delta, "cause": "a card"})
        )
        for driver, _ in voters.values():
            driver.folded(kept_alive, live=True)
    voted_at = VOTE_AFTER  # its stall clock held back not at all
    assert at(voted_at - 0.01) == [] and t.abandoned == []
    # Each voter's driver sends its vote; then, seat 0 out, what the table owes without it (the
    # drivers make those duties too, when their seat's part is ready).
    votes = [e for e in at(voted_at) if e.kind == "abandon"]
    assert [(t.seat_of(e.author), e.kind, e.body) for e in votes] == [
        (1, "abandon", {"seat": 0}),
        (2, "abandon", {"seat": 0}),
    ]
    assert t.abandoned == [0]
    moved = 0
    while moved < 50 and local.step():  # the table goes on without seat 0
        assert 0 not in t.waiting_on()
        moved += 1
    assert moved == 50 or t.ended


def test_while_a_claim_holds_the_window_the_vote_waits_for_the_touched_ones_after_the_claims_own_time():
    """Seat 0, holding the impulse of seat 1's bleed of seat 3, lowers the bleed by a rule with no
    card: a claim on seats 1 and 3 that holds the window (docs/vtes-by-hand.md). The table now
    waits for their answers, not seat 0's impulse; the claim lapses by itself after its 30 s, so
    their wait is no stall before then: on an injected clock, seat 2's driver reports and votes
    only once the claim's time and then the vote's 30 s have run."""
    from engine.games.vtes.claims import CLAIM_WAIT_MS
    from engine.protocol.log import Entry
    from net.driver import Liveness, SeatDriver
    from net.events import Listeners, Waiting

    local = played_vtes(_holds_an_impulse)
    t = local.table
    me = local.seats[0]
    action = me.view().action
    assert (action.actor, action.targets) == (1, (3,))
    entry = local.submit(me, "move", me.move_body({"do": "adjust", "amount": -1, "cause": "made up"}))
    (claim,) = [c for c in t.gstate.claims if c.act == t.gstate.acts]
    assert t.waiting_on() == [1, 3] and t.waited(0) is None
    assert t.waited(1).seq == entry.seq and t.waited(1).clock_until == claim.due == entry.time + CLAIM_WAIT_MS
    now = [float(entry.time)]
    channel = _Channel()
    heard: list[Waiting] = []
    listeners = Listeners()
    listeners.subscribe(lambda event: heard.append(event) if isinstance(event, Waiting) else None)
    voter = SeatDriver(
        _Replica(local.seats[2]),
        channel,
        listeners,
        liveness=Liveness(stall_after=VOTE_AFTER, abandon_after=VOTE_AFTER, clock=lambda: now[0]),
    )
    for seconds in (VOTE_AFTER, CLAIM_WAIT_MS / 1000, CLAIM_WAIT_MS / 1000 + VOTE_AFTER - 0.01):
        now[0] = entry.time + seconds * 1000
        voter.check_waiting()
        assert channel.sent == [] and not any(w.seats for w in heard), seconds
    now[0] = claim.due + VOTE_AFTER * 1000
    voter.check_waiting()
    assert heard[-1].seats == (1, 3)
    votes = [Entry.from_wire(m.entry) for m in channel.sent]
    assert [(e.kind, e.body) for e in votes] == [("abandon", {"seat": 1})]  # one in flight; seat 3's follows


@pytest.mark.parametrize("until", [_holds_an_impulse, _own_turn], ids=["holding an impulse", "in its own turn"])
def test_a_seat_at_work_by_hand_is_offered_to_the_vote_when_a_silent_one_would_be(until):
    """The clock the stall vote and every screen read (engine.table.waits.WaitClock): a change by
    hand 25 s into the wait (a card's text applied, or a staller keeping itself alive) is taken
    and kept as the seat's latest work, for the screens, but holds its stall clock back not at
    all, nor does a chat line after it: 30 s into the wait it is 30 s, and the host takes a vote."""
    from engine.table.waits import WaitClock

    local = played_vtes(until)
    t = local.table
    wait = t.waited(0)
    since = wait.time_ms
    me = local.seats[0]
    pool = t.gstate.players[0].pool
    me.clock = lambda: since + 25_000
    local.submit(me, "move", me.move_body({"do": "pool", "seat": 0, "delta": 1, "cause": "a card"}))
    me.clock = lambda: since + 28_000
    local.submit(me, "chat", {"text": "applying it"})
    assert t.gstate.players[0].pool == pool + 1  # what it applied by hand is applied
    assert (t.waited(0).seq, t.waited(0).time_ms, t.waited(0).at_work_ms) == (wait.seq, since, since + 25_000)
    clock = WaitClock()
    assert clock.read(t.waits, since, None)[0] == 0  # seen from the start of its wait
    assert clock.read(t.waits, since + 28_000, None)[0] == 28.0  # not from its change by hand
    assert clock.read(t.waits, since + 30_000, None)[0] == 30.0
    assert t.stall_vote_refusal(0, since + 30_000) is None  # the vote opens when a silent seat's would


def test_the_impulse_clock_builds_a_seats_view_once_per_entry_however_often_it_is_read():
    """A seat's driver reads the table's wait a few times a second; the game's clock reads the
    seat's view, which changes only when an entry is folded. Counted: ten reads at one head build
    one view (before: ten, each milliseconds of a bot's loop at VTES, more under load)."""
    from net.driver import Liveness, SeatDriver
    from net.events import Listeners

    local = played_vtes(_holds_an_impulse)
    me = local.seats[0]
    built: list[int] = []
    view = me.view

    def counted():
        built.append(local.table.seq)
        return view()

    me.view = counted
    now = [float(local.table.waited(0).time_ms)]
    driver = SeatDriver(_Replica(me), _Channel(), Listeners(), liveness=Liveness(clock=lambda: now[0]))
    for _ in range(10):
        now[0] += 100
        driver.check_waiting()
    assert built == [local.table.seq]
