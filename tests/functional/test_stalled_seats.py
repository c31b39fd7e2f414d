"""No seat holds a VTES table for longer than the stall vote allows (PROTOCOL.md 6.5), over TCP
between real processes: a headless host, three heuristic bot processes that vote to abandon a seat
the table has waited on for a few seconds, and a staller (:mod:`tests.support.staller`) that goes
silent while the table waits on it in an action, a combat or a referendum. It is voted out, the
windows it held go on without it, the game ends, and the audit finds no fault (its exit is 2, not
0: the events the abandoned seat held a key of can never be recomputed, PROTOCOL.md 6.6).

With one accomplice that never votes, the two others are a majority of the three; a staller that
keeps making changes by hand to its own pool does not restart the wait it is voted on, in a window
or in its own turn, nor hold back the stall clock the vote reads.

Each table here plays a four-seat deal between real processes (a minute or more on a shared
machine), so only the accomplice's runs in the default suite, and only until a turn has begun
without the staller (the game to its end and its audit are the slow variant); the staller holding an impulse or
its own turn, with an accomplice and changes by hand, is voted out on an injected clock by the
seats' own drivers in one process there too (tests/unit/engine/test_abandon_votes.py), and the
combat and referendum windows a seat gone from leave are tests/unit/engine/test_vtes_absent_seats.py."""

from __future__ import annotations

import pytest

from tests.support.stall_table import Held, stall_table

VOTE_AFTER = 8.0
"""Seconds of a wait after which the bots vote (the table's clock: entries' times). They vote on
any wait, the deal's too: at 3 s, on a machine at a load of 16 to 20, the staller was voted out in
the deal twice (its process 26 s slow to send its shuffle), and the game never started."""


STRANGER_QUEUE_KIB = 256
"""A stranger's send queue (docs/protocol.md 7.1): a seat still playing is never that far behind."""


def voted_out_and_ended(held: Held) -> None:
    assert held.stalled, "the staller never held the window"
    assert held.held is not None, "the staller was never voted out"
    assert held.held >= 0
    assert held.ended, "the game did not end after the staller was voted out"
    assert held.audit == 2  # no fault; the abandoned seat's events stay unchecked


def test_an_accomplice_that_never_votes_does_not_protect_a_staller_holding_an_actions_impulse(tmp_path):
    """The two voting bots out of three carry the vote; the table goes on without the staller (a
    turn begins after it is voted out, and the processes stop there: the game to its end is the
    slow test below); the audit of the log so far finds no fault (exit 2: unfinished). A seat
    still playing never falls far behind: the table waits on each within a few dozen KiB of
    entries. (Libraries cut short, table rule library_size=off, made it no quicker: a deck that
    is not one the program ships loads krcg's card data in each of the four processes.)"""
    held = stall_table(tmp_path, "action", accomplice=True, vote_after=VOTE_AFTER, limit=300, to_the_end=False)
    assert held.stalled, "the staller never held the window"
    assert held.held is not None and held.held >= 0, "the staller was never voted out"
    assert held.votes == 2  # the accomplice's missing vote counts neither way
    assert held.went_on, "no turn began after the staller was voted out"
    assert held.audit == 2  # no fault; unfinished, and the abandoned seat's events stay unchecked
    assert held.unwaited_kib is not None and held.unwaited_kib < STRANGER_QUEUE_KIB


@pytest.mark.slow
def test_an_accomplice_that_never_votes_does_not_keep_a_staller_from_a_game_that_ends(tmp_path):
    held = stall_table(tmp_path, "action", accomplice=True, vote_after=VOTE_AFTER, limit=300)
    voted_out_and_ended(held)
    assert held.votes == 2  # the accomplice's missing vote counts neither way


@pytest.mark.slow
@pytest.mark.parametrize("window", ["action", "combat", "referendum"])
def test_a_seat_gone_silent_in_a_window_is_voted_out_and_the_game_ends(tmp_path, window):
    voted_out_and_ended(stall_table(tmp_path, window, vote_after=VOTE_AFTER, limit=300, setup_limit=600))


@pytest.mark.slow
def test_a_stallers_own_changes_by_hand_do_not_restart_the_wait(tmp_path):
    held = stall_table(tmp_path, "action", by_hand=1.0, vote_after=VOTE_AFTER, limit=300)
    voted_out_and_ended(held)
    assert held.by_hand >= 2  # it made changes by hand while it stalled, and was voted out anyway


@pytest.mark.slow
def test_a_seat_that_holds_its_own_turn_with_changes_by_hand_is_voted_out(tmp_path):
    """Its own turn waits on it to play the turn; its changes by hand to its pool answer nothing."""
    held = stall_table(tmp_path, "turn", by_hand=1.0, vote_after=VOTE_AFTER, limit=300)
    voted_out_and_ended(held)
    assert held.by_hand >= 2


@pytest.mark.slow
@pytest.mark.parametrize("window", ["combat", "referendum"])
def test_an_accomplice_and_changes_by_hand_together_do_not_keep_a_staller_in_a_window(tmp_path, window):
    """The staller holds a combat's or a referendum's step, makes a change by hand every second, and
    one of the three others never votes: the two others are a majority of the three, and the wait
    they vote on is the one its changes by hand did not restart."""
    held = stall_table(
        tmp_path, window, accomplice=True, by_hand=1.0, vote_after=VOTE_AFTER, limit=300, setup_limit=600
    )
    voted_out_and_ended(held)
    assert held.votes == 2 and held.by_hand >= 2
