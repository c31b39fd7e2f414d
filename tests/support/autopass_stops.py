"""Where the automatic pass stops a seat and nothing playable fits (shared/rules/vtes-actions.md P1).

Plays whole 4-seat VTES games between bots, one seat standing for a person: each time a window
waits for that seat, :func:`engine.games.vtes.autopass.auto_pass` either answers for it or stops
(the person would be asked). A stop *fits* when the seat has something to decide: an offered
answer beyond pass, done and the hand strike (a block, a vote, a card's strike, maneuver, press or
prevention, a card for the window), the rest of a card it just played to apply by hand, or a card
of its hand the rules accept played (or struck with) as it stands. A stop where nothing fits is a
stop the person can only answer with a pass: the count must be 0.

Run ``python -m tests.support.autopass_stops --games 10 --seed 0`` for the figures (JSON).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.games.base import Act, IllegalMove
from engine.games.vtes.autopass import auto_pass
from engine.games.vtes.decks import bundled_decks
from engine.games.vtes.game import VTES
from engine.games.vtes.offers import answers
from engine.games.vtes.state import Action, Combat, Referendum
from engine.games.vtes.vocab import CombatStep, Do
from engine.sim import SimTable, next_act

PERSON = 0
"""The seat that stands for a person (its bot still chooses what the person would)."""


@dataclass
class Stops:
    """What one run counted: ``asked`` windows that waited for the person's seat, ``passed`` by
    the automatic pass, ``stops`` where it asked, and those where nothing fits, by window."""

    games: int = 0
    asked: int = 0
    passed: int = 0
    stops: int = 0
    nothing_fits: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "asked": self.asked,
            "passed": self.passed,
            "stops": self.stops,
            "stops_nothing_fits": sum(self.nothing_fits.values()),
            "nothing_fits_by_window": dict(self.nothing_fits),
            "examples": self.examples[:10],
        }


def _window(view: object) -> str:
    top = getattr(view, "innermost", None)
    match top:
        case Referendum():
            return f"referendum {top.step.value}"
        case Combat():
            return f"combat {top.step.value}"
        case Action():
            return f"action {top.window.value}"
    return "none"


def _decides(offer_do: Do, act: dict[str, object]) -> bool:
    """An offered answer that is a decision: anything but pass, done and the plain hand strike."""
    if offer_do in (Do.PASS, Do.DONE):
        return False
    return not (offer_do == Do.STRIKE and "card" not in act)


def _a_card_fits(table: SimTable, seat: int, view: object) -> bool:
    """A card of ``seat``'s hand that the rules accept played now, as it stands."""
    top = getattr(view, "innermost", None)
    due = top.due() if isinstance(top, Combat) and top.step == CombatStep.STRIKE else ()
    for held in getattr(view, "hand", ()):
        tries = [{"do": Do.PLAY.value, "card": held.as_list()}]
        if due:  # a card played as its minion chooses a strike (an aim, a strike the table leaves by hand)
            tries.append({"do": Do.STRIKE.value, "minion": list(due[0]), "card": held.as_list()})
        for act in tries:
            try:
                positions = table.game.to_open(table.state, seat, act)
                revealed = {p: table.truth[p] for p in positions}
                table.game.check(table.state, seat, act, revealed, table.moves * 1000)
            except (IllegalMove, KeyError):
                continue
            return True
    return False


def count_stops(
    games: int = 10, seed: int = 0, seats: int = 4, max_moves: int = 100_000, rules: dict[str, object] | None = None
) -> Stops:
    """Play ``games`` games (game ``k`` on seed ``seed + k``, table rules ``rules``) and count the
    person seat's stops. Raises RuntimeError if a game does not end within ``max_moves`` acts."""
    from engine.games.vtes.bots import vtes_bot

    out = Stops()
    for k in range(games):
        rng = random.Random(seed + k)
        decks = bundled_decks()
        rng.shuffle(decks)
        chosen = [decks[s % len(decks)] for s in range(seats)]
        private: dict[tuple[int, str], list[str]] = {}
        for s, deck in enumerate(chosen):
            private.update(deck.private_decks(s))
        bots = [vtes_bot("heuristic", chosen[s], (seed + k) * 101 + s) for s in range(seats)]
        table = SimTable(VTES, seats, dict(rules or {}), seed + k, private)
        for s, deck in enumerate(chosen):
            table.play(s, deck.deck_act())

        def choose(seat: int, view: Any, legal: list[Act]) -> Act | None:
            if seat == PERSON and (offered := answers(view)):
                out.asked += 1
                if auto_pass(view) is not None:
                    out.passed += 1
                else:
                    out.stops += 1
                    decides = any(_decides(o.do, dict(o.act)) for o in offered)
                    top = view.innermost
                    decides |= isinstance(top, Action) and seat in top.applying  # the rest by hand
                    if not decides and not _a_card_fits(table, seat, view):
                        where = _window(view)
                        out.nothing_fits[where] += 1
                        hand = ", ".join(h.card or "?" for h in view.hand)
                        out.examples.append(f"game {seed + k}, {where}: hand {hand}")
            return bots[seat].choose(view, legal)

        while table.moves < max_moves and next_act(table, choose):
            pass
        if table.moves >= max_moves:
            raise RuntimeError(f"game {seed + k} has not ended after {max_moves} moves")
        out.games += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule")
    args = parser.parse_args()
    rules: dict[str, object] = dict(r.split("=", 1) for r in args.rule)
    print(json.dumps(count_stops(args.games, args.seed, rules=rules).as_json(), indent=2))


if __name__ == "__main__":
    main()
