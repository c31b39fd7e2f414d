"""The automatic pass stops a person only where something fits (shared/rules/vtes-actions.md P1):
whole 4-seat games of bots, one seat standing for a person, counted by
:mod:`tests.support.autopass_stops` (``python -m tests.support.autopass_stops --games 10`` for the
figures of the note). Seed 5 holds a card the table applies only in part, played by the person's
acting minion: the automatic pass leaves the person one stop to apply the rest, not one in each
window of the action."""

from __future__ import annotations

from tests.support.autopass_stops import count_stops


def test_no_stop_of_the_automatic_pass_where_nothing_fits():
    stops = count_stops(games=3, seed=5)
    assert stops.games == 3
    assert sum(stops.nothing_fits.values()) == 0, stops.examples
    assert 0 < stops.stops < stops.asked and stops.passed > 3 * stops.stops, stops.as_json()
