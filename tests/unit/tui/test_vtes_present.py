"""What the VTES screen says in words (tui.games.vtes.present): whose turn and phase, transfers
left, the withdrawal and why it fails, time calls; a card's krcg text; the Methuselahs' lines."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine.games.vtes.cards import card_base
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import Phase, Ruleset, Status, Zone
from tests.support.local_session import NAMES
from tests.support.vtes_table import advance, dealt_vtes
from tui.games.vtes.present import card_text, methuselah_lines, named, play_todo, rulings_text, turn_line


@pytest.fixture(scope="module")
def view() -> Any:
    local = dealt_vtes(11)
    advance(local, lambda v: v.acting == 0 and v.phase == Phase.INFLUENCE and len(v.controlled(0, Zone.READY)) >= 1)
    return local.seats[0].view()


def test_the_turn_line_says_whose_phase_and_what_is_left(view: Any) -> None:
    names = NAMES[: view.seats]
    four = replace(view, transfers=4)
    assert turn_line(four, names) == f"Turn {view.turn}: your influence phase; 4 transfers left."
    assert turn_line(replace(view, transfers=1), names).endswith("; 1 transfer left.")
    other = replace(view, acting=view.players[0].prey, phase=Phase.MINION)
    assert turn_line(other, names) == f"Turn {view.turn}: {names[view.players[0].prey]}'s minion phase."


def test_a_withdrawal_and_why_it_fails_name_the_seats(view: Any) -> None:
    names = NAMES[: view.seats]
    me = replace(view.players[0], withdrawing=True, withdraw_fail="{s0} lost pool ({s2}'s bleed)")
    line = turn_line(replace(view, players=(me, *view.players[1:])), names)
    assert f"withdrawal announced: it will fail, Mina lost pool ({names[2]}'s bleed)" in line
    assert "withdrawing (fails)" in str(methuselah_lines(replace(view, players=(me, *view.players[1:])), names))


def test_time_calls_and_ousted_methuselahs(view: Any) -> None:
    names = NAMES[: view.seats]
    called = replace(view, ruleset=Ruleset.TOURNAMENT, time_calls=(0,))
    assert "time called by Mina" in turn_line(called, names)
    assert "time is called" in turn_line(replace(called, time_calls=(0, 1), time_called=True), names)
    out = replace(view.players[1], status=Status.OUSTED)
    lines = str(methuselah_lines(replace(view, players=(view.players[0], out, *view.players[2:])), names))
    assert "ousted" in lines


def test_a_card_s_text_and_rulings_come_from_krcg(view: Any) -> None:
    vampire = view.controlled(0, Zone.READY)[0]
    text = str(card_text(vampire))
    assert vampire.name in text and f"capacity {vampire.capacity}" in text and "Vampire" in text
    assert "Rulings" in str(rulings_text(vampire))
    assert "face-down" in str(card_text(replace(vampire, card="", name="")))
    assert named("{s1} bleeds {s0}", ["Mina", "Lisa"]) == "Lisa bleeds Mina"


def test_the_methuselahs_header_says_what_its_marks_mean_within_80_columns(view: Any) -> None:
    names = NAMES[: view.seats]
    lines = str(methuselah_lines(replace(view, edge=0), names)).splitlines()
    assert "▶ turn" in lines[0] and "◆ Edge" in lines[0]
    assert "◆" in lines[1]  # Mina, first, holds the Edge
    assert all(len(line) <= 78 for line in lines)  # inside the panel's padding at 80 columns


def test_rulings_name_the_cards_they_refer_to_without_krcg_markup(view: Any) -> None:
    from engine.games.vtes.cards import card_base

    tarot = card_base().lookup("Shilmulo Tarot")
    vampire = view.controlled(0, Zone.READY)[0]
    card = replace(vampire, card=f"{tarot.id}-1", name="Shilmulo Tarot")
    text = str(rulings_text(card))
    assert "Alastor" in text and "{" not in text and "|" not in text


def _hand_card(name: str) -> CardView:
    """The card called ``name`` in seat 0's hand, as its view shows it."""
    base = card_base()
    info = next(i for i in base.every_info() if i.name == name)
    return CardView((0, 0), 0, 0, Zone.HAND, False, f"{info.id}-1", info.name, info.capacity, info.types, info.text)


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Lost in Crowds", ""),  # its stealth is on the action: nothing is left to do
        ("Visions of Gehenna", "Visions of Gehenna is played: apply the rest of its text by hand (e reads it)."),
        ("Effective Management", ""),  # the table moves the crypt's top card: nothing is left to do
        ("Wider View", "Wider View is played: pay its cost (pool -1), then resolve its text by hand (e reads it)."),
    ],
)
def test_after_a_play_only_what_the_table_did_not_apply_is_left_to_do(name: str, said: str) -> None:
    card = _hand_card(name)
    todo = play_todo(card, {"do": "play", "card": card.as_list()}, None)
    assert todo.startswith(said) if said else todo == "", todo
