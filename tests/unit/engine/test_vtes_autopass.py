"""The automatic pass (the game spec's ``auto_act``, :func:`engine.games.vtes.autopass.auto_pass`):
it takes every answer whose only choice is a pass (a bleed between two other Methuselahs, the cards
before votes when no card of the hand could be played then) and never finishes a Methuselah's
voting while it holds a vote it could still cast (shared/rules/vtes-actions.md 5.1, 7.1–7.2, P1,
P7).

Tables from :mod:`tests.support.vtes_fight`: seats clockwise Ana, Ben, Cy, Dee in Ana's minion
phase, Dee holding the Edge; every hand the seven cards of FIGHT_LIBRARY (two Kine Resources
Contested, Immortal Grapple, Raven Spy, Carlton Van Wyk, Threats, Patrol)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.games.base import Act
from engine.games.vtes.autopass import applying_by_hand, auto_pass
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.game import VTES
from engine.games.vtes.offers import answers, legal_acts, vote_sources, window_cards
from engine.games.vtes.readings import combat_steps, reaction_fits
from engine.games.vtes.simulate import _seat_bots
from engine.games.vtes.spec import SPEC
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import Do, Window
from engine.sim import SimTable, next_act
from tests.support.vtes_fight import Fight, fight_table, in_hand, one_crypt_fight, titled_table
from tests.support.vtes_sim import act, copy_table

KINE = "Kine Resources Contested"


@pytest.fixture(scope="module")
def titled() -> Fight:
    return titled_table()


@pytest.fixture
def f(titled: Fight) -> Fight:
    return dataclasses.replace(titled, t=copy_table(titled.t))


@pytest.fixture(scope="module")
def fight() -> Fight:
    return fight_table()


def _fits(f: Fight, name: str, seat: int) -> bool:
    found = card_base().lookup(name)
    assert found is not None and f.t.state.open_action is not None
    return reaction_fits(found.text, f.t.state.open_action, f.t.view(seat), seat)


def test_reactions_for_a_bled_or_blocking_methuselah_do_not_stop_the_others(fight: Fight) -> None:
    """Lucia bleeds Ben: a reaction that reduces "a bleed against you", or whose vampire "attempts
    to block" or is "about to enter combat", fits Ben (bled, may block) and not Cy or Dee."""
    f = dataclasses.replace(fight, t=copy_table(fight.t))
    act(f.t, f.ana, "action", kind="bleed", minion=f.lucia)
    for name in ("Visions of Zapathasura", "Guardian Vigil", "Obedience"):
        assert _fits(f, name, f.ben), name
        assert not _fits(f, name, f.cy) and not _fits(f, name, f.dee), name


def _call_kine(f: Fight) -> None:
    """Lucia calls a referendum with a Kine Resources Contested; nobody blocks; Ana records the terms."""
    t = f.t
    act(t, f.ana, "action", kind="political", minion=f.lucia, card=in_hand(t, f.ana, KINE))
    for _window in ("A", "C"):
        for seat in (f.ana, f.ben, f.dee, f.cy):
            act(t, seat, "pass")
    act(t, f.ana, "terms", text="Each Methuselah gains 1 pool")


def _to_polling(f: Fight, auto: bool = False) -> int:
    """Lucia calls a referendum with a Kine Resources Contested; nobody blocks; Ana records the
    terms; the loop before votes, each seat passing by hand or (``auto``) by the automatic pass.
    Returns the stops before votes: the seats the automatic pass left to decide."""
    t = f.t
    _call_kine(f)
    stops = 0
    for seat in (f.ana, f.ben, f.dee, f.cy):
        assert t.state.open_referendum.impulse == seat
        chosen = auto_pass(t.view(seat)) if auto else None
        stops += chosen is None
        act(t, seat, "pass")
    assert t.state.open_referendum.step == "voting"
    return stops


def test_before_votes_a_hand_with_no_card_for_a_referendum_passes_by_itself(f: Fight) -> None:
    """Every hand holds political action cards (burned in polling, not played before it), an
    action modifier for a bleed and an intercept reaction: no stop before votes (it was 4)."""
    assert _to_polling(f, auto=True) == 0


def test_a_card_played_while_polling_stops_its_holder_in_polling_not_before_votes(f: Fight) -> None:
    """Delaying Tactics ("Only usable during the polling step of a political action"), a reaction
    in Cy's hand: no stop before votes (it cannot be played then), and Cy, his one vote cast, is
    not done by himself in polling while he holds it."""
    t = f.t
    _call_kine(f)
    for seat in (f.ana, f.ben, f.dee):
        act(t, seat, "pass")
    view = t.view(f.cy)
    tactics = _held(view, f.cy, "Delaying Tactics")
    assert auto_pass(view) == {"do": "pass"}
    assert auto_pass(dataclasses.replace(view, hand=(*view.hand, tactics))) == {"do": "pass"}
    act(t, f.cy, "pass")
    act(t, f.cy, "vote", source="card", card=in_hand(t, f.cy, KINE))
    view = t.view(f.cy)
    assert auto_pass(view) == {"do": "done"}
    assert auto_pass(dataclasses.replace(view, hand=(*view.hand, tactics))) is None


@pytest.mark.parametrize(
    ("seat", "name"),
    [
        ("ben", "Ventrue Headquarters"),  # a master card of the master phase, in another's turn
        ("ana", "Ventrue Headquarters"),  # the caller's own: her master phase is over
        ("ana", "Voter Captivation"),  # "Only usable after resolution of a political action …"
        ("ana", "Awe"),  # "Only usable during the polling step of a political action"
    ],
)
def test_before_votes_a_card_that_cannot_be_played_then_does_not_stop_its_holder(
    f: Fight, seat: str, name: str
) -> None:
    """Cards whose text speaks of referendums or votes but that cannot be played before votes:
    the seat passes by itself (a tester's hand of Ventrue Headquarters and a caller's of Camarilla
    Conclave and Awe stopped with nothing named)."""
    t = f.t
    _call_kine(f)
    who = getattr(f, seat)
    if who != f.ana:
        act(t, f.ana, "pass")
    view = t.view(who)
    assert auto_pass(view) == {"do": "pass"}
    assert auto_pass(dataclasses.replace(view, hand=(*view.hand, _held(view, who, name)))) == {"do": "pass"}


def test_the_automatic_pass_never_finishes_voting_while_a_vote_is_left(f: Fight) -> None:
    """In polling: the caller holds the calling card, a prince and a political card in hand; Dee
    the Edge and a political card; Cy only a political card: none is done by itself until its
    votes are cast (one from political action cards at most, 7.2); then each is."""
    t = f.t
    _to_polling(f)
    for seat in (f.ana, f.cy, f.dee):
        assert auto_pass(t.view(seat)) is None
    sources = [a["source"] for a in legal_acts(t.view(f.ana)) if a["do"] == "vote"]
    assert sources == ["calling", "title", "card"]  # the card is offered (V lists it)
    act(t, f.ana, "vote", source="title", card=f.lucia)
    assert auto_pass(t.view(f.ana)) is None  # the calling card, or a card from hand, is left
    act(t, f.ana, "vote", source="calling")
    assert auto_pass(t.view(f.ana)) == {"do": "done"}
    act(t, f.cy, "vote", source="card", card=in_hand(t, f.cy, KINE), **{"for": False})
    assert auto_pass(t.view(f.cy)) == {"do": "done"}
    act(t, f.dee, "vote", source="edge")
    assert auto_pass(t.view(f.dee)) is None  # Dee's political card is left
    act(t, f.dee, "vote", source="card", card=in_hand(t, f.dee, KINE))
    assert auto_pass(t.view(f.dee)) == {"do": "done"}


def _has_a_choice(view: VtesView, seat: int) -> bool:
    """``seat`` has something to decide besides a pass: a block or a card of its window in an
    action; in combat, a combat card its text does not bind to another step, for its own minion;
    before votes, a card that speaks of a referendum or votes; in polling, a vote to cast or a
    card that gives votes."""
    if view.referendum is not None:
        r = view.referendum
        if r.step == "voting":
            return bool(vote_sources(view, seat)) or any("votes" in c.text.lower() for c in view.hand)
        return any(w in c.text.lower() for c in view.hand for w in ("referendum", "vote", "ballot", "polling"))
    if view.combat is not None:
        c = view.combat
        mine = any((m := view.card(p)) is not None and m.controller == seat for p in (c.acting, c.opposing))
        for held in view.hand:
            cid = card_id(held.card) if "Combat" in held.types else None
            steps = combat_steps(cid) if cid is not None else frozenset()
            if mine and (steps is None or c.step in steps):
                return True
        return False
    a = view.action
    # The rest of a card it played in this action, to apply by hand (autopass.applying_by_hand).
    applying = a is not None and applying_by_hand(view, seat, a)
    return bool(window_cards(view)) or view.may_block(seat) or applying


@pytest.mark.parametrize("seed", [3, 4])
def test_a_person_among_bots_is_stopped_only_where_there_is_a_choice(seed: int) -> None:
    """Whole 4-seat games of bots, one seat played as a person with the automatic pass on
    (choosing as a bot would whenever it stops): during the bots' turns every stop offers that
    person something to decide, and the automatic pass answers the rest."""
    bots, private = _seat_bots(["heuristic"] * 4, seed)
    table = SimTable(VTES, 4, {}, seed, private)
    person = 0
    assert SPEC.auto_act is not None
    stops = autos = 0

    def choose(seat: int, view: VtesView, legal: list[Act]) -> Act | None:
        nonlocal autos, stops
        if seat == person and view.step == "play" and view.acting != seat:
            assert SPEC.auto_act is not None
            chosen = SPEC.auto_act(view)
            if chosen is not None:
                autos += 1
                return chosen
            awaited = table.pending().awaited
            if seat in awaited and {a["do"] for a in legal} <= {"pass", "done", "vote"}:
                stops += 1
                assert _has_a_choice(view, seat), (view.action, view.combat, view.referendum)
        return bots[seat].choose(view, legal)

    while table.moves < 30_000 and next_act(table, choose):
        pass
    assert table.state.step == "over"
    assert autos > 10 * max(stops, 1), (autos, stops)


def _held(view: VtesView, seat: int, name: str) -> CardView:
    """The card ``name`` as if it were in ``seat``'s hand (in place of its first card's position)."""
    found = card_base().lookup(name)
    assert found is not None
    info = card_base().info(found.id)
    assert info is not None
    return CardView(
        pos=view.hand[0].pos, owner=seat, controller=seat, zone=view.hand[0].zone, crypt=False,
        card=f"{found.id}-1", name=info.name, types=info.types, text=info.text,
    )  # fmt: skip


def test_polling_stays_open_for_a_caller_who_holds_a_card_that_gives_votes(f: Fight) -> None:
    """Ana, who called, has cast her calling card's and her prince's votes: with Perfect Paragon in
    hand ("Only usable during the polling step of a political action. This vampire gets +3
    votes", an action modifier: hers to play) she is not done by herself; Cy, who did not call,
    cannot play it (an action modifier is the acting Methuselah's) and is done once his vote is cast."""
    t = f.t
    _to_polling(f)
    act(t, f.ana, "vote", source="title", card=f.lucia)
    act(t, f.ana, "vote", source="calling")
    view = t.view(f.ana)
    assert auto_pass(view) == {"do": "done"}
    paragon = _held(view, f.ana, "Perfect Paragon")
    assert auto_pass(dataclasses.replace(view, hand=(*view.hand[1:], paragon))) is None
    act(t, f.cy, "vote", source="card", card=in_hand(t, f.cy, KINE))
    cy = t.view(f.cy)
    assert auto_pass(dataclasses.replace(cy, hand=(*cy.hand[1:], _held(cy, f.cy, "Perfect Paragon")))) == {"do": "done"}


def test_a_seat_that_played_a_card_applied_by_hand_keeps_the_impulse_to_apply_it(fight: Fight) -> None:
    """Lucia bleeds Ben and Ana holds the impulse with nothing to play: she passes by herself. Once
    she has played, in this action, a card the table does not apply whole (its record's coverage),
    the impulse the play returned to her stays hers until she answers (P1): she applies the rest
    by hand first (the action's ``applying``, set by the rules as she plays it); once she has
    passed, in any later window of the action, she passes by herself again. A card the table
    applies whole leaves the automatic pass as it was."""
    from engine.games.vtes.card_record import Coverage, every_record

    f = dataclasses.replace(fight, t=copy_table(fight.t))
    act(f.t, f.ana, "action", kind="bleed", minion=f.lucia)
    view = f.t.view(f.ana)
    a = view.action
    assert a is not None and a.impulse == f.ana
    no_cards = dataclasses.replace(view, hand=())
    assert auto_pass(no_cards) == {"do": "pass"}
    by_hand = next(r for r in every_record() if r.coverage != Coverage.FULLY and "Action Modifier" in r.types)
    fully = next(r for r in every_record() if r.coverage == Coverage.FULLY and "Action Modifier" in r.types)
    minion = tuple(f.lucia)

    def after(cid: int, applying: tuple[int, ...]) -> VtesView:
        played = dataclasses.replace(a, played=((minion, cid),), applying=applying)
        return dataclasses.replace(no_cards, windows=(played,))

    assert auto_pass(after(by_hand.id, (f.ana,))) is None
    assert auto_pass(after(by_hand.id, ())) == {"do": "pass"}  # she has passed once since: applied
    assert auto_pass(after(fully.id, ())) == {"do": "pass"}


def test_a_modifier_that_only_stops_blocks_stops_the_actor_only_while_a_block_may_come() -> None:
    """Daring the Dawn ("[for] Vampires cannot block this action. This vampire takes 2
    unpreventable environmental aggravated damage …"): Lodin bleeds Ben, who may block with his
    ready vampire: offered, and Ana is stopped. With Ben's vampire locked (nobody may block), or
    once Ben has declined (window C), it can change nothing: not offered, and Ana passes by herself
    (a tester's own hunt stopped in both)."""
    f = one_crypt_fight("Lodin (Olaf Holte)", [("Daring the Dawn", 7)])
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)

    def daring(view: VtesView) -> bool:
        return any(o.do == Do.PLAY for o in answers(view))

    view = t.view(f.ana)
    assert view.may_still_block() == (f.ben,)
    assert daring(view) and auto_pass(view) is None
    locked = tuple(dataclasses.replace(c, locked=True) if c.pos == tuple(f.marek) else c for c in view.cards)
    nobody = dataclasses.replace(view, cards=locked)
    assert nobody.may_still_block() == ()
    assert not daring(nobody) and auto_pass(nobody) == {"do": "pass"}
    while (a := t.state.open_action) is not None and (a.window != Window.DECLINED or a.impulse != f.ana):
        act(t, a.impulse, "pass")
    view = t.view(f.ana)
    assert not daring(view) and auto_pass(view) == {"do": "pass"}
