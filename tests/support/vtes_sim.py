"""TEST ONLY: VTES positions on an in-memory :class:`engine.sim.SimTable`, built once and copied:
decks made of chosen cards (so a hand holds exactly them), a cheap copy of a table, and the acts
tests repeat (an act and its table operations, passing an action through its windows)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence

from engine.games.base import Act, Note, OptionValue, Pos
from engine.games.vtes.card_record import CardRecord
from engine.games.vtes.cards import card_base
from engine.games.vtes.decks import Deck, bundled_decks
from engine.games.vtes.game import VTES
from engine.games.vtes.simulate import vtes_table as engine_table
from engine.games.vtes.state import Answer
from engine.games.vtes.view import CardView
from engine.games.vtes.vocab import ClaimStatus, Status, Zone
from engine.sim import SimTable


class AnsweredTable(SimTable):
    """TEST ONLY: a table whose :meth:`play` lets a card it announces through: the others pass
    its answer window (engine.games.vtes.cancels: at the default rule ``cancels=all`` every minion
    card played inside an action or a combat waits for them), so a test plays a modifier, a
    reaction or a combat card and reads its effect at once. :func:`play_raw` leaves the window
    open, for the tests of the window itself. An act made while a card already waits (a cancel,
    a pass) is played raw."""

    def play(self, seat: int, act: Act, at: int | None = None) -> tuple[Note, ...]:
        """``seat`` makes ``act``; a card it announces is then let through (:func:`answer_passes`)."""
        if isinstance(self.state.innermost, Answer):
            return play_raw(self, seat, act, at)
        notes = play_raw(self, seat, act, at)
        return (*notes, *answer_passes(self))


def play_raw(t: SimTable, seat: int, act: Act, at: int | None = None) -> tuple[Note, ...]:
    """``seat`` makes ``act`` on ``t``, as :meth:`engine.sim.SimTable.play` (an
    :class:`AnsweredTable` too): an answer window it opens stays open."""
    return SimTable.play(t, seat, act, at)


def vtes_table(decks: Sequence[Deck], options: Mapping[str, OptionValue] | None = None, seed: int = 0) -> SimTable:
    """:func:`engine.games.vtes.simulate.vtes_table`, an :class:`AnsweredTable`."""
    return engine_table(decks, options, seed, AnsweredTable)


def copy_table(t: SimTable) -> SimTable:
    """A copy of ``t`` that shares nothing mutable with it (the state is frozen; the truth, what
    each seat knows, the shuffles, the generator and the notes are copied)."""
    out = copy.copy(t)
    out.rng = copy.deepcopy(t.rng)
    out.truth = dict(t.truth)
    out.known = [dict(k) for k in t.known]
    out.public = dict(t.public)
    out.shuffled = list(t.shuffled)
    out.private_decks = {k: list(v) for k, v in t.private_decks.items()}
    out.notes = list(t.notes)
    return out


def deck_of(base: Deck, *library: tuple[str, int], name: str = "chosen") -> Deck:
    """``base``'s crypt with a library of exactly ``library`` (card name, count): with table rule
    ``library_size=off`` and at most 7 cards, the opening hand is that whole library. Raises
    KeyError for a name krcg does not know."""
    cards = card_base()
    ids = []
    for card_name, n in library:
        card = cards.lookup(card_name)
        if card is None:
            raise KeyError(card_name)
        ids.append((card.id, n))
    return Deck(name, base.crypt, tuple(sorted(ids)))


def act(t: SimTable, who: int, do: str, /, **fields: object) -> tuple[Note, ...]:
    """``who`` makes the act ``{"do": do, **fields}`` and the table runs the operations it asks;
    a card it announces is then answered by the others' passes (:func:`answer_passes`; not an act
    made while a card already waits for answers)."""
    waiting = isinstance(t.state.innermost, Answer)
    notes = t.play(who, {"do": do, **fields})
    t.run_ops()
    return notes if waiting else (*notes, *answer_passes(t))


def played(t: SimTable, seat: int, a: Act) -> tuple[Note, ...]:
    """``t.play(seat, a)``, then the others' automatic passes to a card it announced
    (:func:`answer_passes`); the notes of them all."""
    notes = t.play(seat, a)
    return (*notes, *answer_passes(t))


def answer_passes(t: SimTable) -> tuple[Note, ...]:
    """While a card announced waits for answers (engine.games.vtes.cancels), the seat holding the
    impulse passes: it declines to cancel it, even with a card that could (a test that cancels
    plays that card itself). Returns the notes."""
    notes: list[Note] = []
    if isinstance(t.state.innermost, Answer):
        t.run_ops()
    while isinstance(t.state.innermost, Answer):
        notes.extend(t.play(t.state.innermost.loop.holder, {"do": "pass"}))
        t.run_ops()
    return tuple(notes)


def accept_claims(t: SimTable) -> tuple[Note, ...]:
    """Every Methuselah a waiting claim touches accepts it (docs/vtes-by-hand.md), the table running the operations each asks; return the notes."""
    notes: list[Note] = []
    for claim in t.state.claims:
        if claim.status != ClaimStatus.PENDING:
            continue
        for seat in claim.seats:
            if seat not in claim.accepted and t.state.players[seat].status == Status.IN:
                notes.extend(act(t, seat, "accept", act=claim.act))
    return tuple(notes)


def by_hand(t: SimTable, who: int, do: str, /, **fields: object) -> tuple[Note, ...]:
    """:func:`act`, then every touched Methuselah accepts the claim it makes (:func:`accept_claims`)."""
    return act(t, who, do, **fields) + accept_claims(t)


def resolve(t: SimTable, limit: int = 64) -> int:
    """Every Methuselah passes the impulse in turn until the open action closes (succeeds or is
    blocked; shared/rules/vtes-actions.md P1); return the passes made. Raises AssertionError when
    it is still open after ``limit`` passes."""
    for n in range(limit):
        action = t.state.open_action
        if action is None:
            return n
        act(t, action.impulse, "pass")
    raise AssertionError(f"the action is still open after {limit} passes")


CHOSEN_LIBRARY = (("Threats", 2), ("Conditioning", 1), ("Carlton Van Wyk", 1), ("Patrol", 3))
"""Seven cards, so a whole opening hand: two action modifiers that increase a bleed (Threats,
Conditioning), an ally (Carlton Van Wyk) and a reaction giving +1 intercept (Patrol)."""


def minion_phase_table(seats: int = 4, seed: int = 1, blood: tuple[int, ...] = (4, 1, 1, 1, 1, 1)) -> SimTable:
    """A table of ``seats`` bundled crypts, each library :data:`CHOSEN_LIBRARY` (table rule
        ``library_size=off``), where each Methuselah in seating order has moved one vampire to its
        ready region with ``blood[i]`` blood (a first player's vampire with none would have to hunt at
    once), and the first player is in its minion phase."""
    decks = bundled_decks()
    t = vtes_table(
        [deck_of(decks[s % len(decks)], *CHOSEN_LIBRARY) for s in range(seats)], {"library_size": False}, seed
    )
    for i, seat in enumerate(t.state.seating):
        v = next(c for c in t.state.cards if c.owner == seat and c.zone == "uncontrolled")
        act(t, seat, "move", cards=[list(v.pos)], to="ready")
        if blood[i]:
            act(t, seat, "blood", card=list(v.pos), delta=blood[i], cause="effect")
    first = t.state.acting
    while t.state.phase != "minion":
        act(t, first, "phase")
    return t


def settle(t: SimTable, limit: int = 400) -> int:
    """Play on until no action and no combat is under way: every Methuselah the table waits for
    passes, and a combatant whose strike is due takes the one the table offers first (the hand
    strike); return the acts made. Raises AssertionError after ``limit`` acts."""
    for n in range(limit):
        if t.state.open_action is None and t.state.open_combat is None:
            return n
        (seat,) = t.pending().awaited
        legal = VTES.legal_acts(t.view(seat))
        chosen = next((a for a in legal if a["do"] == "pass"), None) or next(a for a in legal if a["do"] == "strike")
        t.play(seat, chosen)
        t.run_ops()
    raise AssertionError(f"an action or a combat is still under way after {limit} acts")


def face_up_by_hand(t: SimTable, positions: list[Pos]) -> None:
    """Turn the contested cards at ``positions`` face up in the ready region by hand: copies of one
    vampire at several seats, which the rules keep face down (rulebook, "Contested Cards"), for
    tests of other rules that need them in play."""
    cards = tuple(
        dataclasses.replace(c, zone=Zone.READY) if c.pos in positions and c.zone == Zone.CONTESTED else c
        for c in t.state.cards
    )
    t.state = dataclasses.replace(t.state, cards=cards)


def one_vampire_table(
    vampire: str,
    library: tuple[tuple[str, int], ...],
    seed: int,
    blood: tuple[int, ...] = (4, 2, 2, 2),
    phase: str = "minion",
    rules: Mapping[str, object] | None = None,
    kind: type[SimTable] = AnsweredTable,
) -> SimTable:
    """Four seats whose crypts are twelve ``vampire`` and whose libraries are ``library`` (table rule
    ``library_size=off``: at most seven cards, the whole opening hand; ``rules``: other table rules); each Methuselah in seating
    order moves one vampire to its ready region with ``blood[i]`` blood, and the first player is in
    its ``phase`` (the minion phase unless named). Four copies of one vampire in play would be contested, face down (rulebook,
    "Contested Cards"): the table turns them face up again by hand, a position no act reaches, for
    tests that need the same Disciplines at every seat. ``kind``: the table's class (a plain
    :class:`~engine.sim.SimTable` for a test of the answer window itself)."""
    found = card_base().lookup(vampire)
    if found is None:
        raise KeyError(vampire)
    crypt = Deck(vampire, ((found.id, 12),), ())
    t = engine_table([deck_of(crypt, *library) for _ in range(4)], {"library_size": False, **(rules or {})}, seed, kind)
    moved = []
    for seat in t.state.seating:
        v = next(c for c in t.state.cards if c.owner == seat and c.zone == "uncontrolled")
        act(t, seat, "move", cards=[list(v.pos)], to="ready")
        moved.append(v.pos)
    face_up_by_hand(t, moved)
    for i, seat in enumerate(t.state.seating):
        act(t, seat, "blood", card=list(moved[i]), delta=blood[i], cause="effect")
    while t.state.phase != phase:
        act(t, t.state.acting, "phase")
    return t


def first_vampire(t: SimTable, seat: int) -> list[int]:
    """The position of ``seat``'s first ready vampire, as an act holds it."""
    return next(c.as_list() for c in t.view(seat).controlled(seat) if c.crypt)


def card_plays(t: SimTable, seat: int, name: str) -> list[Act]:
    """The ``play`` acts offered to ``seat`` for its first hand card named ``name`` (one per
    choice)."""
    view = t.view(seat)
    card = next(c.as_list() for c in view.hand if c.name == name)
    return [a for a in VTES.legal_acts(view) if a["do"] == "play" and a["card"] == card]


def to_the_strike(t: SimTable, done: list[tuple[int, Act]]) -> tuple[int, int]:
    """The acting Methuselah's (Ana's) first vampire bleeds her prey Ben and Ben's first vampire
    blocks; everyone passes up to the strike step; the acts are appended to ``done``. Returns
    Ana's and Ben's seats."""
    return to_combat_step(t, done, "strike")


def to_combat_step(t: SimTable, done: list[tuple[int, Act]], step: str) -> tuple[int, int]:
    """As :func:`to_the_strike`, up to the combat step ``step`` (a CombatStep's value) of round 1."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    for seat, chosen in (
        (ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben}),
        (ana, {"do": "pass"}),
        (ben, {"do": "block", "minion": first_vampire(t, ben)}),
    ):
        t.play(seat, chosen)
        done.append((seat, chosen))
    for _ in range(40):
        c = t.state.open_combat
        if c is not None and c.step == step:
            return ana, ben
        window = c if c is not None else t.state.open_action
        assert window is not None
        seat = window.impulse
        t.play(seat, {"do": "pass"})
        done.append((seat, {"do": "pass"}))
    raise AssertionError(f"no {step} step")


def replayed(start: SimTable, done: list[tuple[int, Act]], ops: bool = False) -> SimTable:
    """A copy of ``start`` with the acts ``done`` (seat, act) played again, in order: a log's
    replay, whose state a test compares with the table that played them; ``ops``: the table runs
    the operations each act asks before the next."""
    again = copy_table(start)
    for seat, act_ in done:
        again.play(seat, act_)
        if ops:
            again.run_ops()
    return again


def held_card(name: str, seat: int = 0, pos: Pos = (998, 0)) -> CardView:
    """The card called ``name`` (krcg's name) as ``seat``'s view would show it in its hand, at
    ``pos`` (a position no deal uses), to put in a view's hand."""
    base = card_base()
    found = base.lookup(name)
    assert found is not None, name
    info = base.info(found.id)
    assert info is not None, name
    return CardView(
        pos=pos,
        owner=seat,
        controller=seat,
        zone=Zone.HAND,
        crypt=False,
        card=f"{info.id}-1",
        name=info.name,
        types=info.types,
        text=info.text,
    )


def logged(t: SimTable, done: list[tuple[int, Act]], seat: int, act: Act) -> tuple[str, ...]:
    """``seat`` makes ``act`` (the table's operations then run), recorded in ``done`` for a
    replay; its notes rendered for seats named Ana, Ben, Cy and Dee."""
    notes = t.play(seat, act)
    t.run_ops()
    done.append((seat, act))
    return tuple(n.render(["Ana", "Ben", "Cy", "Dee"]) for n in notes)


def bleed_blocked(t: SimTable) -> tuple[int, int, list[tuple[int, Act]]]:
    """Ana (the acting Methuselah) bleeds Ben, her prey, with her first vampire and passes; Ben's
    first vampire attempts to block. Returns Ana, Ben and the acts, in order (:func:`logged`)."""
    ana = t.state.acting
    ben = t.view(ana).players[ana].prey
    done: list[tuple[int, Act]] = []
    logged(t, done, ana, {"do": "action", "kind": "bleed", "minion": first_vampire(t, ana), "target": ben})
    logged(t, done, ana, {"do": "pass"})
    logged(t, done, ben, {"do": "block", "minion": first_vampire(t, ben)})
    return ana, ben, done


def announced_through(t: SimTable, act: Act) -> tuple[list[tuple[int, Act]], list[str]]:
    """``act``, an action, announced by the acting seat, then every seat passes until it resolves:
    the acts played (seat, act) and what the table said (seats named Ana, Ben, Cy, Dee)."""
    ana = t.state.acting
    done: list[tuple[int, Act]] = [(ana, act)]
    said = [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.play(ana, act)]
    while (a := t.state.open_action) is not None:
        said += [n.render(["Ana", "Ben", "Cy", "Dee"]) for n in t.play(a.impulse, {"do": "pass"})]
        done.append((a.impulse, {"do": "pass"}))
    return done, said


def record_named(name: str) -> CardRecord:
    """The card record of the card named ``name`` (as ``vampire cards`` finds it)."""
    from engine.games.vtes.card_report import find

    rec = find(name)
    assert rec is not None, name
    return rec
