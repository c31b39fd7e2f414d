"""TEST ONLY: VTES positions for combat and referendum tests (shared/rules/vtes-actions.md 5–7):
a table in the first player's minion phase whose libraries are seven chosen cards (so each opening
hand is the whole library), one ready vampire per Methuselah, and the acts those tests repeat
(passing a combat step or a window, refusals that leave the table unchanged)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from engine.games.base import Act, IllegalMove, MalformedAct, Note
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.decks import Deck, bundled_decks
from engine.games.vtes.state import CardState
from engine.sim import SimTable
from tests.support.vtes_sim import act, deck_of, face_up_by_hand, vtes_table

FIGHT_LIBRARY = (
    ("Kine Resources Contested", 2),
    ("Immortal Grapple", 1),
    ("Raven Spy", 1),
    ("Carlton Van Wyk", 1),
    ("Threats", 1),
    ("Patrol", 1),
)
"""Seven cards, so a whole opening hand: two political action cards (Kine Resources Contested), a
combat card (Immortal Grapple), a retainer (Raven Spy), an ally (Carlton Van Wyk), an action
modifier (Threats) and a reaction (Patrol)."""

PRINCE, JUSTICAR, PRIMOGEN = "Volker, The Puppet Prince", "Anastasz di Zagreb", "Reginald Moore"
"""Three vampires with printed titles (krcg ``.title``): a prince, a justicar and a primogen."""


@dataclass(frozen=True)
class Fight:
    """A table in Ana's minion phase (seats clockwise Ana, Ben, Cy, Dee; Dee holds the Edge) and
    one ready vampire each as ``[event, index]`` lists: Ana's Lucia, Ben's Marek, Cy's Nico, Dee's
    Sasha; ``extra``: more vampires moved to the ready region, by name."""

    t: SimTable
    ana: int
    ben: int
    cy: int
    dee: int
    lucia: list[int]
    marek: list[int]
    nico: list[int]
    sasha: list[int]
    extra: dict[str, list[int]] = dataclasses.field(default_factory=dict)


def _name(t: SimTable, seat: int, pos: tuple[int, ...]) -> str:
    cid = card_id(t.known[seat][pos])
    assert cid is not None
    info = card_base().info(cid)
    assert info is not None
    return info.name


def _vampire(t: SimTable, seat: int, pos: tuple[int, ...]) -> str:
    info = card_base().info(t.known[seat][pos])
    assert info is not None
    return info.character


def _uncontrolled(t: SimTable, seat: int) -> list[CardState]:
    return [c for c in t.state.cards if c.owner == seat and c.zone == "uncontrolled"]


def fight_table(
    seed: int = 1,
    blood: Sequence[int] = (4, 1, 1, 1),
    crypt: Deck | None = None,
    library: Sequence[tuple[str, int]] = FIGHT_LIBRARY,
) -> Fight:
    """Four seats with bundled crypts (or ``crypt``'s for every seat) and ``library`` (seven cards:
    a whole opening hand; table rule ``library_size=off``); each Methuselah in seating order moves its first
    uncontrolled vampire to the ready region with ``blood[i]`` blood (the first that is not a vampire
    already moved; where every one is, the copies would be contested, face down, rulebook "Contested
    Cards", and the table turns them face up again by hand: a position no act reaches, for tests
    that need one vampire's Disciplines at every seat); Ana is in her minion phase and Dee holds the
    Edge."""
    decks = bundled_decks()
    bases = [crypt or decks[s % len(decks)] for s in range(4)]
    t = vtes_table([deck_of(base, *library) for base in bases], {"library_size": False}, seed)
    seats = t.state.seating
    vampires = []
    moved: set[str] = set()
    for i, seat in enumerate(seats):
        waiting = _uncontrolled(t, seat)
        v = next((c for c in waiting if _vampire(t, seat, c.pos) not in moved), waiting[0])
        moved.add(_vampire(t, seat, v.pos))
        vampires.append(list(v.pos))
        act(t, seat, "move", cards=[list(v.pos)], to="ready")
    face_up_by_hand(t, [tuple(v) for v in vampires])
    for i, seat in enumerate(seats):
        if blood[i]:
            act(t, seat, "blood", card=vampires[i], delta=blood[i], cause="effect")
    while t.state.phase != "minion":
        act(t, seats[0], "phase")
    t.state = dataclasses.replace(t.state, edge=seats[3])
    return Fight(t, *seats, *vampires)


def one_crypt_fight(vampire: str, library: Sequence[tuple[str, int]], seed: int = 3) -> Fight:
    """:func:`fight_table` whose every crypt is twelve ``vampire``, with ``library``; Ana's and
    Ben's vampires have 4 blood, Cy's and Dee's 1."""
    found = card_base().lookup(vampire)
    assert found is not None, vampire
    return fight_table(seed=seed, blood=(4, 4, 1, 1), crypt=Deck(vampire, ((found.id, 12),), ()), library=library)


def titled_table(first_seed: int = 1, library: Sequence[tuple[str, int]] = FIGHT_LIBRARY) -> Fight:
    """Worked example 4's table: every crypt is four each of :data:`PRINCE`, :data:`JUSTICAR` and
    :data:`PRIMOGEN`; the first seed from ``first_seed`` that deals Ana a prince and Ben a justicar
    and a primogen among their uncontrolled vampires. Lucia is Ana's prince (3 blood), Marek Ben's
    justicar (3 blood), ``extra["primogen"]`` Ben's primogen, moved to torpor; Cy and Dee control
    no vampire. Real cards, dealt and revealed by the table's own moves: the views stay consistent.
    ``library``: every seat's seven library cards."""
    base = card_base()
    ids = tuple(sorted((base.lookup(n).id, 4) for n in (PRINCE, JUSTICAR, PRIMOGEN)))  # type: ignore[union-attr]
    crypt = Deck("titled", ids, ())
    for seed in range(first_seed, first_seed + 50):
        decks = [deck_of(crypt, *library) for _ in range(4)]
        t = vtes_table(decks, {"library_size": False}, seed)
        ana, ben, cy, dee = t.state.seating
        mine = {seat: {_name(t, seat, c.pos): list(c.pos) for c in _uncontrolled(t, seat)} for seat in (ana, ben)}
        prince = next((p for n, p in mine[ana].items() if n.startswith("Volker")), None)
        justicar = next((p for n, p in mine[ben].items() if n.startswith("Anastasz")), None)
        primogen = next((p for n, p in mine[ben].items() if n.startswith("Reginald")), None)
        if prince is None or justicar is None or primogen is None:
            continue
        act(t, ana, "move", cards=[prince], to="ready")
        act(t, ana, "blood", card=prince, delta=3, cause="effect")
        act(t, ben, "move", cards=[justicar], to="ready")
        act(t, ben, "blood", card=justicar, delta=3, cause="effect")
        act(t, ben, "move", cards=[primogen], to="torpor")
        while t.state.phase != "minion":
            act(t, ana, "phase")
        t.state = dataclasses.replace(t.state, edge=dee)
        return Fight(t, ana, ben, cy, dee, prince, justicar, [], [], {"primogen": primogen})
    raise AssertionError("no seed dealt the titled vampires")


def card(t: SimTable, pos: Sequence[int]) -> CardState:
    return next(c for c in t.state.cards if list(c.pos) == list(pos))


def in_hand(t: SimTable, seat: int, name: str, nth: int = 0) -> list[int]:
    """The position of ``seat``'s ``nth`` hand card called ``name``."""
    return [c.as_list() for c in t.view(seat).hand if c.name == name][nth]


def refused(t: SimTable, seat: int, act_: Act, words: str) -> IllegalMove:
    """``seat``'s ``act_`` is refused with a sentence holding ``words`` (literal text), as an
    illegal act, not a malformed one; the table is unchanged."""
    before, notes, moves = t.state, list(t.notes), t.moves
    with pytest.raises(IllegalMove, match=re.escape(words)) as err:
        t.play(seat, act_)
    assert not isinstance(err.value, MalformedAct)
    assert t.state is before and t.notes == notes and t.moves == moves
    return err.value


def to_step(t: SimTable, step: str) -> None:
    """Everyone passes (the hand strike when a strike is due) until the combat reaches ``step``."""
    for _ in range(24):
        c = t.state.open_combat
        assert c is not None
        if c.step == step:
            return
        due = c.due()
        t.play(c.impulse, {"do": "strike", "minion": list(due[0])} if c.step == "strike" else {"do": "pass"})
        t.run_ops()
    raise AssertionError(f"the combat never reached {step}")


def bleed_blocked(f: Fight) -> None:
    """Lucia bleeds Ben; Ana passes; Ben blocks with Marek; all pass: blocked, a combat opens."""
    t = f.t
    act(t, f.ana, "action", kind="bleed", minion=f.lucia)
    act(t, f.ana, "pass")
    act(t, f.ben, "block", minion=f.marek)
    for seat in (f.ana, f.ben, f.cy, f.dee):
        act(t, seat, "pass")
    assert t.state.open_action is None and t.state.open_combat is not None


def combat_loop(t: SimTable, order: Sequence[int]) -> None:
    """Every Methuselah passes the combat step under way in ``order``, each holding the impulse."""
    for seat in order:
        c = t.state.open_combat
        assert c is not None and c.impulse == seat, (c, seat)
        act(t, seat, "pass")


KINE = "Kine Resources Contested"
"""A political action card of :data:`FIGHT_LIBRARY`."""


def called(f: Fight) -> list[int]:
    """Lucia takes a political action with a Kine Resources Contested; nobody blocks; it succeeds
    and the referendum waits for Ana's terms. Returns the calling card's position."""
    t, ana, ben, cy, dee = f.t, f.ana, f.ben, f.cy, f.dee
    kine = in_hand(t, ana, KINE)
    act(t, ana, "action", kind="political", minion=f.lucia, card=kine)
    a = t.state.open_action
    assert (a.kind, a.stealth, a.directed, a.card) == ("political", 1, False, tuple(kine))
    assert card(t, kine).zone == "aside" and card(t, f.lucia).locked
    assert t.view(ana).blockers() == (ben, dee) and t.view(ana).impulse_order() == (ana, ben, dee, cy)
    for window in ("A", "C"):
        for seat in (ana, ben, dee, cy):
            assert (t.state.open_action.window, t.state.open_action.impulse) == (window, seat)
            act(t, seat, "pass")
    assert t.state.open_action is None
    r = t.state.open_referendum
    assert (r.caller, r.minion, r.card, r.step, r.impulse) == (ana, tuple(f.lucia), tuple(kine), "terms", ana)
    assert t.state.referendums == 1
    return kine


def role_names(f: Fight) -> list[str]:
    """Each seat's name by its role, in seat order (Ana, Ben, Cy, Dee clockwise from the first)."""
    by_seat = dict(zip((f.ana, f.ben, f.cy, f.dee), ("Ana", "Ben", "Cy", "Dee"), strict=True))
    return [by_seat[s] for s in range(4)]


def passed_out(f: Fight, done: list[tuple[int, Act]]) -> list[str]:
    """Everyone holding the impulse passes until the open action is over (each pass appended to
    ``done``, a log to replay); the narration, with :func:`role_names`."""
    said = []
    while f.t.state.open_action is not None:
        seat = f.t.state.open_action.impulse
        said += [n.render(role_names(f)) for n in f.t.play(seat, {"do": "pass"})]
        f.t.run_ops()  # cards a success draws are opened to their player (the deck protocol)
        done.append((seat, {"do": "pass"}))
    return said


def fight_named(f: Fight, text: str) -> str:
    """``text`` with its seat references rendered as Ana, Ben, Cy and Dee (the fight's seats)."""
    names = [""] * 4
    for seat, name in zip((f.ana, f.ben, f.cy, f.dee), ("Ana", "Ben", "Cy", "Dee"), strict=True):
        names[seat] = name
    return Note(text).render(names)


def to_terms(f: Fight, card: str, done: list[tuple[int, Act]]) -> None:
    """Lucia (a :func:`titled_table`'s prince) calls a referendum with ``card``; nobody blocks:
    the terms step. The acts are appended to ``done``."""
    t = f.t
    calling = {"do": "action", "kind": "political", "minion": f.lucia, "card": in_hand(t, f.ana, card)}
    steps = [(f.ana, calling)] + [(s, {"do": "pass"}) for _ in ("A", "C") for s in (f.ana, f.ben, f.dee, f.cy)]
    for seat, act_ in steps:
        t.play(seat, act_)
        t.run_ops()
        done.append((seat, act_))
    assert t.state.open_referendum.step == "terms"


def lucia_passes_it(f: Fight, done: list[tuple[int, Act]]) -> None:
    """Everyone passes before votes; Ana casts the calling card's vote and Lucia's 2 (prince);
    everyone is done: it passes 3 to 0. The acts are appended to ``done``."""
    steps = [(s, {"do": "pass"}) for s in (f.ana, f.ben, f.dee, f.cy)]
    steps += [
        (f.ana, {"do": "vote", "source": "calling"}),
        (f.ana, {"do": "vote", "source": "title", "card": f.lucia}),
    ]
    steps += [(s, {"do": "done"}) for s in (f.ana, f.ben, f.cy, f.dee)]
    for seat, act_ in steps:
        f.t.play(seat, act_)
        done.append((seat, act_))
    assert f.t.state.open_referendum is None
