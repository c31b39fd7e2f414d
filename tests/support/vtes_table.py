"""TEST ONLY: a reproducible VTES table in one process (keys, secrets, decks, bots and the clock
from a seed), and a way to play its person's seat up to a chosen moment: for the VTES screen's
snapshots and its command line's tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.games import all_rules, find_game
from engine.games.base import parse_options
from engine.games.vtes.decks import Deck
from engine.games.vtes.vocab import Phase, Step, Zone
from engine.local import LocalGame
from engine.protocol.secrets import SecretsFile
from engine.seat import Seat
from engine.sequencer import Sequencer
from tests.support.local_session import NAMES, LocalGameSession, SeededBytes, fixed_clock, seeded_key
from tests.support.positions import once_per_run


def build_vtes(
    seed: int, seats: int = 4, options: dict[str, Any] | None = None, decks: Sequence[Deck] | None = None
) -> LocalGame:
    """A reproducible VTES table in one process: the person in seat 0, heuristic bots in the
    others, every seat bringing a deck the game ships (chosen by ``seed``), or ``decks[i]``."""
    games = all_rules()
    spec = find_game("vtes")
    rng = random.Random(seed)
    typed = dict(parse_options(games["vtes"].option_schema, options or {}))
    host = Sequencer(seeded_key(rng), games, None, fixed_clock)
    host.open_table("vtes", typed, seats, "test table")
    kit = spec.kit()
    local_seats, bots = [], []
    for i in range(seats):
        key = seeded_key(rng)
        srng = random.Random(rng.random())
        deck = kit.for_bot(random.Random(rng.random()))
        deck = decks[i] if decks is not None else deck
        local_seats.append(
            Seat(
                key,
                NAMES[i],
                games,
                SecretsFile(None),
                SeededBytes(srng),
                fixed_clock,
                decks=kit.deck_lists(deck),
            )
        )
        bots.append(spec.bot("heuristic", random.Random(rng.random()), deck) if i else None)
    local = LocalGame(host, local_seats, bots)
    local.seat_everyone()
    return local


def dealt_vtes(seed: int, seats: int = 4, options: dict[str, Any] | None = None) -> LocalGame:
    """:func:`build_vtes`'s table played to the first moment it waits for seat 0 in play (decks
    declared, crypts and libraries shuffled and dealt: the costly cryptography), as a fresh copy:
    the position is built once per test run and copied (:func:`tests.support.positions.once_per_run`;
    a copy costs about a hundredth of a build). :func:`advance` from the copy plays exactly as from
    :func:`build_vtes`'s table (seat 0's bot has not chosen anything before play)."""
    rules = "".join(f"-{k}_{v}" for k, v in sorted((options or {}).items()))
    return once_per_run(f"vtes-dealt-{seed}-{seats}{rules}", lambda: _dealt(seed, seats, options))


def _dealt(seed: int, seats: int, options: dict[str, Any] | None) -> LocalGame:
    local = build_vtes(seed, seats, options)
    advance(local, lambda view: True)
    return local


def advance(local: LocalGame, until: Callable[[Any], bool], seed: int = 7, limit: int = 20000) -> None:
    """Play seat 0 with a heuristic bot until ``until(view)`` holds while the table waits for it
    (or for a bot's act). Raises RuntimeError if it never does."""
    seat = local.seats[0]
    decks = seat.decks
    policy = find_game("vtes").bot("heuristic", random.Random(seed), None)
    for _ in range(limit):
        view = seat.view()
        if view is not None and view.step == Step.PLAY and until(view):
            return
        if local.step():
            continue
        if view.step == Step.JOINING:
            act = {"do": "deck", "crypt": len(decks["crypt"]), "library": len(decks["library"])}
        else:
            act = policy.choose(view, seat.legal_acts())
        if act is None:
            raise RuntimeError(f"nobody acts (the game is over, or waits for no seat) at turn {view.turn}")
        local.submit(seat, "move", seat.move_body(act))
    raise RuntimeError("the condition never held")


def accept_as(local: LocalGame, seat: int) -> None:
    """``seat`` accepts every claim that waits for its answer, as a person there would (a bot
    accepts a claim only as its rule lets it: docs/vtes-by-hand.md, "A bot's answer")."""
    me = local.seats[seat]
    for claim in me.view().claims:
        if claim.status == "pending" and seat in claim.seats and seat not in claim.accepted:
            local.submit(me, "move", me.move_body({"do": "accept", "act": claim.act}))


def played_vtes(
    until: Callable[[Any], bool], seed: int = 11, options: dict[str, Any] | None = None, limit: int = 20000
) -> LocalGame:
    """:func:`dealt_vtes`'s table (four seats) played on by :func:`advance` until ``until(view)``
    holds, as a fresh copy: built once per test run and copied, like :func:`dealt_vtes` (the same
    table as advancing a fresh copy here). ``until`` is named by its module and qualified name: a
    lambda or a nested function has no lasting name, and its table is played anew every call."""

    def build() -> LocalGame:
        local = dealt_vtes(seed, options=options)
        advance(local, until, limit=limit)
        return local

    named = f"{until.__module__}.{until.__qualname__}"
    if "<" in named:  # <lambda>, <locals>
        return build()
    rules = "".join(f"-{k}_{v}" for k, v in sorted((options or {}).items()))
    return once_per_run(f"vtes-played-{seed}{rules}-{named}-{limit}", build)


def _influence_ready(view: Any) -> bool:
    """Seat 0 acts in its influence phase, with two transfers left, more than 3 pool and a ready
    vampire."""
    return (
        view.acting == 0
        and view.phase == Phase.INFLUENCE
        and view.transfers >= 2
        and view.players[0].pool > 3
        and len(view.controlled(0, Zone.READY)) >= 1
    )


def influence_vtes(seed: int = 11) -> LocalGame:
    """:func:`dealt_vtes`'s table played on (:func:`advance`) to seat 0's first influence phase
    with a vampire in play, transfers left and pool to spare, as a fresh copy: built once per
    run and copied, like :func:`dealt_vtes` (the same position as advancing a fresh copy: the bot
    that plays seat 0 there is made anew, from the same seed, by every :func:`advance`)."""
    return once_per_run(f"vtes-influence-{seed}", lambda: _influence(seed))


def _influence(seed: int) -> LocalGame:
    local = dealt_vtes(seed)
    advance(local, _influence_ready)
    return local


def _master_ready(view: Any) -> bool:
    """Seat 0 acts in its master phase with its master phase action left, more than 3 pool, and a
    master card in hand that is put in play (a location, "put this card in play") with a pool cost."""
    from engine.games.vtes.card_record import record

    def location(card: Any) -> bool:
        rec = record(card.card) if card.card else None
        stays = "location" in card.text.lower() or "put this card in play" in card.text.lower()
        return rec is not None and "Master" in card.types and rec.costs.pool > 0 and stays

    return (
        view.acting == 0
        and view.phase == Phase.MASTER
        and view.master_actions == 0
        and view.players[0].pool > 3
        and any(location(c) for c in view.hand)
    )


def master_app(seed: int) -> tuple[Any, Any]:
    """The app at Mina's table (seat 0) in a master phase of hers with a location that costs pool
    in her hand (:func:`_master_ready`), and its session: (VampireApp, LocalGameSession)."""
    from tui.app import Start, VampireApp

    local = once_per_run(f"vtes-master-{seed}", lambda: _advanced(seed, _master_ready))
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    return VampireApp(Start("table", session), name="Mina"), session


def _advanced(seed: int, until: Callable[[Any], bool]) -> LocalGame:
    local = dealt_vtes(seed)
    advance(local, until)
    return local


def influence_app(seed: int = 11) -> tuple[Any, Any]:
    """The app at Mina's table (seat 0) in her influence phase, with a vampire in play, transfers
    left and pool to spare (:func:`influence_vtes`), and its session: (VampireApp,
    LocalGameSession); ``seed``: the table's (:func:`build_vtes`)."""
    from tui.app import Start, VampireApp

    local = influence_vtes(seed)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    return VampireApp(Start("table", session), name="Mina"), session


def app_when(until: Callable[[Any], bool], seed: int = 11, limit: int = 60000) -> tuple[Any, Any]:
    """The app at Mina's table (seat 0), :func:`dealt_vtes`'s table played on by :func:`advance`
    until ``until(view)``, and its session: (VampireApp, LocalGameSession)."""
    from tui.app import Start, VampireApp

    local = dealt_vtes(seed)
    advance(local, until, limit=limit)
    session = LocalGameSession(local, 0, log_path=Path("mina.vtlog"))
    return VampireApp(Start("table", session), name="Mina"), session


def screen_view(app: Any) -> Any:
    """The seat's view of the game on the app's VTES table screen, or None on another screen."""
    from tui.games.vtes.table import VtesTableScreen

    screen = app.screen
    return screen.session.view() if isinstance(screen, VtesTableScreen) else None


def notes_text(app: Any) -> str:
    """The whole game log of the app's table, one note a line, with the seats' names."""
    session = app.screen.session
    return "\n".join(n.render(list(session.table.names)) for n in session.table.notes)


def said(app: Any) -> str:
    """The line under the VTES table (what a key did, or why it could not)."""
    from tests.support.tui import shown

    return shown(app.screen.query_one("#vt-say"))


class PausedKeys:
    """A key clock (:attr:`VtesTableScreen.key_clock`) for a test that presses keys at machine
    speed as a person would press them after a look at the screen: each reading is
    :data:`KEY_GUARD_S` later than the last, so the key guard (keys refused just after the
    command line closes or the screen changes) has always lapsed when the next key comes."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        from tui.games.vtes.key_guard import KEY_GUARD_S

        self.now += KEY_GUARD_S
        return self.now


def keys_after_a_look(app: Any) -> None:
    """Give the app's VTES table screen a :class:`PausedKeys` clock, on which no key waits before
    it is handled: the test's keys are played whatever changed just before them (the guard's own
    tests use a clock they move by hand)."""
    app.screen.key_clock = PausedKeys()
    app.screen.key_wait = lambda key: 0.0  # each key handled as it is typed, on that clock
