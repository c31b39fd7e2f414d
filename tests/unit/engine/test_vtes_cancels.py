"""Cancel a card as it is played (rulebook, "Cancel"; engine.games.vtes.cancels): a master card
played waits for the other Methuselahs' answers; Sudden Reversal or Wash cancels it, its cost unpaid
and its effect absent; every pass lets it apply. Four seats, each library the same seven cards."""

from __future__ import annotations

import pytest

from engine.games.base import Act, IllegalMove
from engine.games.vtes import VTES
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.bots import VtesBot
from engine.games.vtes.card_coverage import coverage_of
from engine.games.vtes.card_record import Coverage
from engine.games.vtes.card_report import find
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck, bundled_decks
from engine.games.vtes.simulate import vtes_table
from engine.games.vtes.state import Answer
from engine.sim import SimTable
from tests.support.vtes_fight import refused
from tests.support.vtes_sim import card_plays, copy_table, one_vampire_table, replayed

LIBRARY = (("Zillah's Valley", 2), ("Tribute to the Master", 1), ("Sudden Reversal", 2), ("Wash", 2))
NAMES = ["Ana", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def start() -> SimTable:
    return one_vampire_table("Arika", LIBRARY, seed=5, phase="master", kind=SimTable)


def _said(t: SimTable, first: int) -> list[str]:
    """The log, the seats named Ana, Ben, Cy and Dee in seating order from ``first`` (Ana)."""
    seating = t.state.seating
    names = [""] * len(seating)
    for i, name in enumerate(NAMES):
        names[seating[(seating.index(first) + i) % len(seating)]] = name
    return [n.render(names) for n in t.notes]


def _valley(t: SimTable, done: list[tuple[int, Act]]) -> tuple[int, list[int]]:
    """Ana plays Zillah's Valley on her first uncontrolled Arika; returns Ana and that vampire."""
    ana = t.state.acting
    play = card_plays(t, ana, "Zillah's Valley")[0]
    t.play(ana, play)
    t.run_ops()
    done.append((ana, play))
    return ana, play["add_to"]


def _blood(t: SimTable, pos: list[int]) -> int:
    return next(c.counters for c in t.state.cards if list(c.pos) == pos)


def _card(t: SimTable, seat: int, name: str) -> list[int]:
    return next(c.as_list() for c in t.view(seat).hand if c.name == name)


def _do(t: SimTable, done: list[tuple[int, Act]], seat: int, a: Act) -> None:
    t.play(seat, a)
    t.run_ops()
    done.append((seat, a))


def _let_through(t: SimTable, done: list[tuple[int, Act]]) -> None:
    """Every seat asked passes the card announced last (the innermost answer window), which then
    applies: a cancel cancels the card below it."""
    card = t.state.innermost.card
    while isinstance(t.state.innermost, Answer) and t.state.innermost.card == card:
        _do(t, done, t.state.innermost.loop.holder, {"do": "pass"})


def _replays(start: SimTable, t: SimTable, done: list[tuple[int, Act]]) -> None:
    assert replayed(start, done, ops=True).state == t.state


def test_a_master_card_waits_for_answers_before_its_cost_and_effect(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, vampire = _valley(t, done)
    ben, cy, dee = (t.state.seating[(t.state.seating.index(ana) + i) % 4] for i in (1, 2, 3))
    answer = t.state.innermost
    assert isinstance(answer, Answer) and answer.loop.order == (ben, cy, dee) and answer.loop.holder == ben
    assert t.state.players[ana].pool == 30 and _blood(t, vampire) == 0  # announced: nothing paid nor applied
    assert "Ana plays Zillah's Valley: the others may cancel it as it is played" in _said(t, ana)
    assert VTES.pending(t.state).awaited == (ben,)
    with pytest.raises(IllegalMove, match="Zillah's Valley waits for the others' answers"):
        t.play(ana, {"do": "phase"})
    for seat in (ben, cy, dee):
        _do(t, done, seat, {"do": "pass"})
    assert t.state.innermost is None
    assert t.state.players[ana].pool == 25 and _blood(t, vampire) == 4  # its 5 pool paid, its 4 blood added
    _replays(start, t, done)


def test_sudden_reversal_cancels_it_its_cost_unpaid_and_its_effect_absent(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, vampire = _valley(t, done)
    ben = t.state.innermost.loop.holder
    reversal = _card(t, ben, "Sudden Reversal")
    offered = [a for a in VTES.legal_acts(t.view(ben)) if a["do"] == "play"]
    assert reversal in [a["card"] for a in offered]
    assert auto_pass(t.view(ben)) is None  # Ben holds a card that cancels it: his to decide
    _do(t, done, ben, next(a for a in offered if a["card"] == reversal))
    inner = t.state.innermost  # a cancel is a master card: it waits for answers in its turn
    assert isinstance(inner, Answer) and inner.seat == ben and inner.loop.holder != ben and ana in inner.loop.order
    _let_through(t, done)
    assert t.state.innermost is None
    assert t.state.players[ana].pool == 30 and _blood(t, vampire) == 0
    ash = {c.name for c in t.view(ana).cards if c.zone == "ash"}
    assert {"Zillah's Valley", "Sudden Reversal"} <= ash
    cancelled = "Ben cancels Ana's Zillah's Valley with Sudden Reversal: its cost is not paid and it has no effect"
    assert cancelled in _said(t, ana)
    assert not card_plays(t, ana, "Tribute to the Master")  # the canceled card used her master phase action
    with pytest.raises(IllegalMove, match="used your master phase action"):
        t.play(ana, {"do": "play", "card": _card(t, ana, "Tribute to the Master")})
    _replays(start, t, done)


def test_wash_fits_the_players_predator_or_prey_only_and_gives_back_the_master_phase_action(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, vampire = _valley(t, done)
    ben = t.state.innermost.loop.holder
    _do(t, done, ben, {"do": "pass"})
    cy = t.state.innermost.loop.holder
    with pytest.raises(
        IllegalMove,
        match="Wash cancels a master card played by your predator or prey, and the player of Zillah's Valley is neither",
    ):
        t.play(cy, {"do": "play", "card": _card(t, cy, "Wash")})
    assert _card(t, cy, "Wash") not in [a.get("card") for a in VTES.legal_acts(t.view(cy))]
    _do(t, done, cy, {"do": "pass"})
    dee = t.state.innermost.loop.holder
    _do(t, done, dee, {"do": "play", "card": _card(t, dee, "Wash")})
    _let_through(t, done)
    assert t.state.players[ana].pool == 30 and _blood(t, vampire) == 0
    assert "Wash: Ana gets +1 master phase action" in _said(t, ana)
    assert t.state.master_actions == 0
    assert card_plays(t, ana, "Tribute to the Master")  # her master phase action is back
    _replays(start, t, done)


def test_what_does_not_cancel_it_is_refused_with_its_sentence(start: SimTable) -> None:
    t, done = copy_table(start), []
    ana, _ = _valley(t, done)
    ben = t.state.innermost.loop.holder
    cy = t.state.innermost.loop.order[1]
    before = t.state
    with pytest.raises(
        IllegalMove,
        match="only a card that cancels it as it is played may be played now, and Tribute to the Master does not",
    ):
        t.play(ben, {"do": "play", "card": _card(t, ben, "Tribute to the Master")})
    with pytest.raises(IllegalMove, match="holds the impulse: you may answer Zillah's Valley when it reaches you"):
        t.play(cy, {"do": "play", "card": _card(t, cy, "Sudden Reversal")})
    with pytest.raises(IllegalMove, match="holds the impulse"):  # the player answers not her own card
        t.play(ana, {"do": "play", "card": _card(t, ana, "Sudden Reversal")})
    assert t.state is before


def test_a_seat_with_no_card_that_cancels_it_passes_by_itself_and_a_bot_cancels() -> None:
    t = one_vampire_table(
        "Arika", (("Zillah's Valley", 2), ("Tribute to the Master", 1)), seed=5, phase="master", kind=SimTable
    )
    ana = t.state.acting
    t.play(ana, card_plays(t, ana, "Zillah's Valley")[0])
    t.run_ops()
    ben = t.state.innermost.loop.holder
    assert auto_pass(t.view(ben)) == {"do": "pass"}
    s = copy_table(one_vampire_table("Arika", LIBRARY, seed=5, phase="master", kind=SimTable))
    s.play(ana, card_plays(s, ana, "Zillah's Valley")[0])
    s.run_ops()
    chosen = VtesBot(seed=1).choose(s.view(ben), VTES.legal_acts(s.view(ben)))
    assert chosen is not None and chosen["do"] == "play"
    assert next(c.name for c in s.view(ben).hand if c.as_list() == chosen["card"]) in ("Sudden Reversal", "Wash")


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Sudden Reversal", Coverage.FULLY),
        ("Wash", Coverage.PARTLY),  # the action it gives for an out-of-turn master is by hand
        ("Direct Intervention", Coverage.PARTLY),  # an action card's or a strike card's cancel is by hand
    ],
)
def test_the_coverage_counts_a_cancel_of_a_master_card(name: str, kind: Coverage) -> None:
    rec = find(name)
    assert rec is not None and coverage_of(rec) == kind


def test_a_whole_bot_game_with_master_cards_and_cancels_ends() -> None:
    """Four bots with bundled decks and four Sudden Reversals each; the first seat also plays the
    first master card it is offered in each of its master phases (the bots play none): every such
    card waits for the others' answers, the bots cancel some, and the game still ends."""
    reversal = card_base().lookup("Sudden Reversal")
    assert reversal is not None
    decks = [Deck(d.name, d.crypt, tuple(sorted((*d.library, (reversal.id, 4))))) for d in bundled_decks()[:4]]
    t = vtes_table(decks, {"library_size": False}, 3)
    bots = [VtesBot(decks[s], seed=s) for s in range(4)]
    announced = 0
    for _ in range(6000):
        pending = t.pending()
        if not pending.actors:
            break
        seat = pending.awaited[0] if pending.awaited else pending.actors[0]
        view = t.view(seat)
        legal = VTES.legal_acts(view)
        chosen = bots[seat].choose(view, legal)
        if seat == 0 and view.innermost is None and view.acting == 0 and view.phase == "master":
            master = next((a for a in legal if a["do"] == "play" and "Master" in _types(view, a)), None)
            chosen = master if master is not None and not view.master_actions else chosen
        assert chosen is not None, f"seat {seat} does nothing"
        t.play(seat, chosen)
        t.run_ops()
        announced += isinstance(t.state.innermost, Answer) and t.state.innermost.loop.order != ()
    assert t.state.step == "over"
    said = " ".join(n.render(NAMES) for n in t.notes)
    assert announced and "the others may cancel it as it is played" in said
    assert "with Sudden Reversal: its cost is not paid and it has no effect" in said


def _types(view, a: Act) -> tuple[str, ...]:
    card = next((c for c in view.hand if c.as_list() == a["card"]), None)
    return card.types if card is not None else ()


def test_a_cancel_with_nothing_to_cancel_is_refused_and_not_offered() -> None:
    """A card whose only effect is a cancel "as it is played" needs a card to cancel (rulebook,
    "Cancel"): in its player's master phase, with no master card announced and no action under
    way, Direct Intervention and Sudden Reversal are refused with their sentence, the table
    unchanged, and neither is offered."""
    library = (("Direct Intervention", 2), ("Sudden Reversal", 2), ("Zillah's Valley", 2))
    t = one_vampire_table("Arika", library, seed=5, phase="master", kind=SimTable)
    ana = t.state.acting
    for name, words in (
        (
            "Direct Intervention",
            "Direct Intervention cancels a minion card as it is played, and none is being played now",
        ),
        (
            "Sudden Reversal",
            "Sudden Reversal cancels a master card as it is played, and no master card waits for answers now",
        ),
    ):
        refused(t, ana, {"do": "play", "card": _card(t, ana, name)}, words)
        offered = [a for a in VTES.legal_acts(t.view(ana)) if a["do"] == "play" and a["card"] == _card(t, ana, name)]
        assert offered == []
    # the master phase action is still there: Zillah's Valley is offered and taken
    assert card_plays(t, ana, "Zillah's Valley")
