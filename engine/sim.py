"""Simulation: a game driven by an in-memory stand-in for the table (DESIGN.md, "Games behind one
interface").

:class:`SimTable` answers the same hidden-card requests the real table answers through the deck
protocol (shuffle, open to a seat, open to everyone, end an event, joint draws), from one seeded
generator, so that any simulated game is reproducible from its seed. It keeps the truth of every
position and what each seat knows, so bots see exactly what a real seat would see.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    Game,
    IllegalMove,
    Note,
    Op,
    Open,
    Pending,
    Pos,
    Release,
    Result,
    Shuffle,
)
from engine.games.spec import Bot

MOVE_MS = 1000
"""The simulated time a move takes (milliseconds), for a game whose rules count time."""


class SimTable:
    """A game plus the hidden truth behind it, for simulation and tests.

    ``private_decks`` maps ``(owner seat, deck name)`` to that seat's deck list (card identities),
    for games with private decks. Raises the game's OptionError/GameError from setup.
    """

    def __init__(
        self,
        game: Game,
        seats: int,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        private_decks: Mapping[tuple[int, str], Sequence[str]] | None = None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.rng = random.Random(seed)
        self.state = game.setup(seats, dict(options or {}))
        self.truth: dict[Pos, str] = {}
        #: Per seat, every identity it may know: those opened to it and every public one (a public
        #: identity is written here for every seat as it is written to ``public``, by
        #: :meth:`_open_to_everyone` alone), so a view reads one plain map.
        self.known: list[dict[Pos, str]] = [{} for _ in range(seats)]
        self.public: dict[Pos, str] = {}
        #: Each shuffle event's cards in their shuffled order (``truth`` of its positions, by index).
        self.shuffled: list[tuple[str, ...]] = []
        self.events = 0
        self.private_decks = {k: list(v) for k, v in (private_decks or {}).items()}
        self.notes: list[Note] = []
        self.moves = 0

    # -- the table side ------------------------------------------------------------------------

    def pending(self) -> Pending:
        return self.game.pending(self.state)

    def run_ops(self) -> Pending:
        """Run every table operation the game waits for, until it waits for a move or is over;
        return what it waits for then."""
        while True:
            pending = self.game.pending(self.state)
            if not pending.ops:
                return pending
            for op in pending.ops:
                outcome = self._outcome(op)
                self.state, notes = self.game.resolve(self.state, op, outcome)
                self.notes.extend(notes)

    def _outcome(self, op: Op) -> Any:
        if isinstance(op, Shuffle):
            if op.cards:
                cards = list(op.cards)
            elif op.source:
                cards = [self.truth[p] for p in op.source]
            elif op.owner is not None:
                cards = list(self.private_decks[(op.owner, op.deck)])
            else:
                raise ValueError(f"shuffle of {op.deck}: no card list, no source and no owner")
            if len(cards) != op.count:
                raise ValueError(f"shuffle of {op.deck}: {len(cards)} cards, expected {op.count}")
            self.rng.shuffle(cards)
            event = self.events
            self.events += 1
            self.shuffled.append(tuple(cards))
            self.truth.update({(event, index): card for index, card in enumerate(cards)})
            return event
        if isinstance(op, Open):
            if op.to is None:
                self._open_to_everyone({p: self.truth[p] for p in op.positions})
                return tuple(self.truth[p] for p in op.positions)
            for p in op.positions:
                self.known[op.to][p] = self.truth[p]
            return None
        if isinstance(op, EndEvent):
            row = self.shuffled[op.event] if 0 <= op.event < len(self.shuffled) else ()
            self._open_to_everyone({(op.event, index): ident for index, ident in enumerate(row)})
            return row
        if isinstance(op, Draw):
            return tuple(self.rng.randrange(n) for n in op.bounds)
        if isinstance(op, Release):
            return None  # nothing is locked here: the stand-in holds the truth
        raise TypeError(f"unknown table operation {op!r}")

    def _open_to_everyone(self, revealed: Mapping[Pos, str]) -> None:
        """Make ``revealed`` public: every seat may know it from now on."""
        if not revealed:
            return
        self.public.update(revealed)
        for known in self.known:
            known.update(revealed)

    # -- the seats' side -----------------------------------------------------------------------

    def known_to(self, seat: int | None) -> dict[Pos, str]:
        """Identities ``seat`` may know: public ones plus those opened to it."""
        return dict(self.public if seat is None else self.known[seat])

    def view(self, seat: int | None) -> Any:
        return self.game.view(self.state, seat, self.public if seat is None else self.known[seat])

    def play(self, seat: int, act: Act, at: int | None = None) -> tuple[Note, ...]:
        """Check and apply ``act`` by ``seat`` at time ``at`` (ms; None: :data:`MOVE_MS` for each
        move played so far, a simulated clock every run folds alike); the cards it opens become
        public.

        Raises the game's IllegalMove, leaving the state unchanged.
        """
        at = self.moves * MOVE_MS if at is None else at
        positions = self.game.to_open(self.state, seat, act)
        revealed: dict[Pos, str] = {}
        if positions:
            # The real table opens only keys the seat holds; here a seat can only open what it knows.
            known = self.known[seat]
            if any(p not in known for p in positions):
                raise IllegalMove("that card is not in your hand")
            revealed = {p: self.truth[p] for p in positions}
        self.game.check(self.state, seat, act, revealed, at)
        line = self.game.describe(self.state, seat, act, revealed)
        self.state, notes = self.game.apply(self.state, seat, act, revealed, at)
        self._open_to_everyone(revealed)
        self.moves += 1
        self.notes.append(line)
        self.notes.extend(notes)
        return (line, *notes)

    def result(self) -> Result | None:
        return self.game.result(self.state)


@dataclass
class GameRecord:
    """One finished simulated game."""

    result: Result
    moves: int
    notes: list[Note] = field(default_factory=list)


Chooser = Callable[[int, Any, list[Act]], Act | None]
"""Chooses a seat's act: ``(seat, view, legal acts) -> act``, or None when that seat waits."""


def next_act(table: SimTable, choose: Chooser) -> bool:
    """Run the table's pending work, then play the act of the first awaited seat whose ``choose``
    gives one (seats with no legal act are skipped). Returns False when nothing is pending (the
    game is over).

    Raises RuntimeError if no awaited seat would act (a rules or bot bug).
    """
    pending = table.run_ops()
    if not pending.actors:
        return False
    for seat in pending.actors:
        view = table.view(seat)
        legal = table.game.legal_acts(view)
        if not legal:
            continue
        act = choose(seat, view, legal)
        if act is not None:
            table.play(seat, act)
            return True
    raise RuntimeError(f"no seat of {pending.actors} would act")


def bots_choose(bots: Sequence[Bot]) -> Chooser:
    """The chooser in which each seat's bot (``bots[seat].choose(view, legal)``) decides."""
    return lambda seat, view, legal: bots[seat].choose(view, legal)


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
    private_decks: Mapping[tuple[int, str], Sequence[str]] | None = None,
    on_note: Callable[[Note], None] | None = None,
    max_moves: int = 100_000,
) -> GameRecord:
    """Play one whole game between ``bots`` (one per seat, each with ``choose(view, legal)``).

    Raises RuntimeError if the game has not ended after ``max_moves`` moves, or if no seat would
    act (a rules bug).
    """
    table = SimTable(game, len(bots), options, seed, private_decks)
    choose = bots_choose(bots)
    seen = 0
    while True:
        if table.moves >= max_moves and table.run_ops().actors:
            raise RuntimeError(f"game {seed} has not ended after {max_moves} moves")
        try:
            going = next_act(table, choose)
        except RuntimeError as e:
            raise RuntimeError(f"{e} (seed {seed})") from None
        if on_note:
            for note in table.notes[seen:]:
                on_note(note)
        seen = len(table.notes)
        if not going:
            result = table.result()
            assert result is not None, "a game with nothing pending must have a result"
            return GameRecord(result, table.moves, table.notes)
