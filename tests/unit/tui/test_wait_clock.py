"""Every screen at a table, a spectator's too, counts the table's wait on a seat on the table's wait
clock (engine.table.waits: from the entry that made the seat owe it, restarted only by its answer;
PROTOCOL.md 6.5): who, how long, and from when the others may vote to end it. A chat line of the
waited-on seat changes the table's head but not its wait, so the count and the vote's key stay.
The clock is the session's, moved by the test."""

from __future__ import annotations

from engine.local import LocalGame
from tests.support.local_session import LocalGameSession, SpectatorSession, build_local
from tests.support.poll import eventually
from tests.support.tui import shown
from tui.app import Start, VampireApp
from tui.games.queen.table import TableScreen
from tui.session import SessionEvent


def waiting_on_lisa(levels: list[str | None]) -> LocalGame:
    """A Vampire Queen table stepped until it waits on Lisa's (seat 1's) move alone."""
    local = build_local(5, levels, {"rounds": 1}, names=["Mina", "Lisa", "Scott"])
    t = local.host.table
    while not (t.phase == "running" and t.work is None and t.waiting_on() == [1] and (1, "move") in t.owed()):
        if not local.step():  # the person's turn: it plays its first legal act
            mina = local.seats[0]
            local.submit(mina, "move", mina.move_body(mina.legal_acts()[0]))
    return local


def status(app: VampireApp) -> str:
    return shown(app.screen.query_one("#waiting"))


async def test_a_spectator_sees_whom_the_table_waits_on_for_how_long_and_when_the_vote_opens() -> None:
    local = waiting_on_lisa(["heuristic"] * 3)
    session = SpectatorSession(local)
    since = local.host.table.waited(1)
    assert since is not None
    now = [float(since.time_ms)]
    session.clock = lambda: now[0]
    app = VampireApp(Start("table", session), name="Watcher")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await eventually(lambda: "Waiting for Lisa" in status(app), 10, "whom the table waits on", pilot=pilot)
        assert "kept the table waiting" not in status(app)  # a short wait is not counted
        now[0] += 20_000
        await eventually(lambda: "20 s" in status(app), 10, "the count", pilot=pilot)
        assert "Lisa has kept the table waiting 20 s; from 30 s the others may vote to end the wait." in status(app)
        now[0] += 55_000
        await eventually(lambda: "75 s" in status(app), 10, "the count past the vote's time", pilot=pilot)
        assert "Lisa has kept the table waiting 75 s: the players may vote to end the wait." in status(app)
        assert not app.screen.check_action("abandon", ())  # a spectator has no vote


async def test_a_screen_catching_up_counts_no_wait_until_it_holds_the_hosts_head() -> None:
    """The waits of a table folded on the way to the host's head are over: a screen counts none
    while its session catches up, and counts the wait still open once it has caught up."""
    local = waiting_on_lisa(["heuristic"] * 3)
    session = SpectatorSession(local)
    since = local.host.table.waited(1)
    assert since is not None
    session.clock = lambda: float(since.time_ms) + 20_000
    session.catching_up = True
    app = VampireApp(Start("table", session), name="Watcher")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await eventually(lambda: "Waiting for Lisa" in status(app), 10, "whom the table waits on", pilot=pilot)
        assert "kept the table waiting" not in status(app)
        session.catching_up = False
        session._emit(SessionEvent("link", text="Connected.", ok=True))  # as the session says it
        await eventually(lambda: "20 s" in status(app), 10, "the count once caught up", pilot=pilot)


async def test_a_player_sees_the_same_count_and_the_waited_on_seats_chat_resets_neither_it_nor_the_vote() -> None:
    local = waiting_on_lisa([None, "heuristic", "heuristic"])
    session = LocalGameSession(local, 0, auto=False)
    since = local.host.table.waited(1)
    assert since is not None
    now = [float(since.time_ms) + 75_000]
    session.clock = lambda: now[0]
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await eventually(
            lambda: isinstance(app.screen, TableScreen) and app.screen, 10, "the table", pilot=pilot
        )
        await eventually(lambda: "E votes to end the wait" in status(app), 10, "the vote's offer", pilot=pilot)
        assert "Lisa has kept the table waiting 75 s: E votes to end the wait." in status(app)
        lisa = local.seats[1]
        local.submit(lisa, "chat", {"text": "one moment"})  # looks alive, answers nothing
        session._emit(SessionEvent("entry", seq=local.host.table.seq - 1))
        now[0] += 5_000
        await eventually(lambda: "80 s" in status(app), 10, "the count going on", pilot=pilot)
        assert screen._stalled_seat() == 1 and local.host.table.waited(1) == since


async def test_a_person_alone_with_their_own_bots_is_not_told_they_keep_the_table_waiting() -> None:
    """This program's own bots never vote to end a wait: a person thinking at a table of them reads
    "Your turn.", not that they keep the table waiting and that the others may vote."""
    local = build_local(5, [None, "heuristic", "heuristic"], {"rounds": 1}, names=["Mina", "Lisa", "Scott"])
    t = local.host.table
    while not (t.phase == "running" and t.work is None and t.waiting_on() == [0] and (0, "move") in t.owed()):
        local.step()
    session = LocalGameSession(local, 0, auto=False)
    since = t.waited(0)
    assert since is not None and set(session.bots) == {1, 2}
    session.clock = lambda: float(since.time_ms) + 45_000
    app = VampireApp(Start("table", session), name="Mina")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, TableScreen), 10, "the table", pilot=pilot)
        await eventually(lambda: status(app).startswith("Your turn."), 10, "your turn", pilot=pilot)
        assert "kept the table waiting" not in status(app)
        assert app.screen.query_one("#waiting").has_class("-your-turn")


def _seat_0s_own_turn(view) -> bool:
    """Seat 0 plays its own VTES turn, past its unlock phase, with no window open."""
    return view.acting == 0 and not view.windows and view.step == "play" and view.phase in ("master", "minion")


async def test_a_seat_changing_things_by_hand_is_shown_at_work_and_offered_to_the_vote_on_time() -> None:
    """A VTES seat in its own turn changes its pool by hand 25 s into its wait (applying a card's
    text, or keeping itself alive): another player's screen says it is at work, for the people
    deciding on a vote, but counts its wait from the start of its turn all the same, and offers
    the vote at 30 s, as for a silent seat (PROTOCOL.md 6.5)."""
    from tests.support.vtes_table import played_vtes
    from tui.games.vtes.table import VtesTableScreen

    local = played_vtes(_seat_0s_own_turn)
    t = local.host.table
    since = t.waited(0)
    assert since is not None and t.waiting_on() == [0]
    now = [float(since.time_ms) + 25_000]
    session = LocalGameSession(local, 1, auto=False)
    session.clock = lambda: now[0]
    stalling = local.seats[0]
    stalling.clock = lambda: int(now[0])
    app = VampireApp(Start("table", session), name="Lisa")
    async with app.run_test(size=(80, 24)) as pilot:
        await eventually(lambda: isinstance(app.screen, VtesTableScreen), 30, "the table", pilot=pilot)
        name = t.names[0]
        await eventually(lambda: f"{name} has kept the table waiting 25 s" in status(app), 10, "the count", pilot=pilot)
        local.submit(stalling, "move", stalling.move_body({"do": "pool", "seat": 0, "delta": 1, "cause": "a card"}))
        session._emit(SessionEvent("entry", seq=t.seq - 1))
        now[0] += 3_000
        await eventually(
            lambda: f"{name} has kept the table waiting 28 s, a change by hand 3 s ago;" in status(app),
            10,
            "the count from the start of the wait, and the change by hand",
            pilot=pilot,
        )
        now[0] += 2_000
        await eventually(
            lambda: f"{name} has kept the table waiting 30 s, a change by hand 5 s ago: E votes" in status(app),
            10,
            "the vote offered at 30 s",
            pilot=pilot,
        )
        assert local.host.table.waited(0).seq == since.seq  # the wait itself goes on
