"""Acts (PROTOCOL.md 4, `move`): a seat's act in the game, with the hidden cards it plays.

A `move` body is ``{"act": <the game's act>, "open": [...]}``. The table checks that the act opens
exactly the hidden cards the game says it plays, that each is the mover's to open, that its share
is proven and that the position holds the card claimed (through :class:`~engine.table.hidden.DeckEvents`), then asks the game whether the act
is legal, and folds it. A body of the wrong shape, or an act the game finds malformed
(:class:`~engine.games.base.MalformedAct`), is refused as ``malformed``; an act the rules refuse
(:class:`~engine.games.base.IllegalMove`) as ``illegal``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.protocol import codec
from engine.protocol.log import Entry
from engine.table.hidden import parse_opens
from engine.table.vocab import Checks, EntryKind, TableRefusal

if TYPE_CHECKING:
    from engine.table.table import Fold, Table


class Acts:
    """The handler of `move` entries."""

    def __init__(self, table: Table) -> None:
        self.t = table

    def prepare_move(self, entry: Entry) -> Fold:
        t = self.t
        b = codec.check_map(entry.body, {"act": dict, "open": list}, what="a move")
        seat = t.expect(entry, EntryKind.MOVE)
        game = t.rules
        act = b["act"]
        wanted = game.to_open(t.gstate, seat, act)
        opens = parse_opens(b["open"], points=t.checks != Checks.CHEAP)
        if sorted(opens) != sorted(wanted) or len(opens) != len(b["open"]):
            raise TableRefusal("illegal", "the move must open exactly the hidden cards it plays")
        checked = t.deck_events.check_opens(seat, opens)
        if checked.cheat is not None:
            return t.cheat(entry, *checked.cheat)
        revealed = checked.revealed
        game.check(t.gstate, seat, act, revealed, entry.time)

        def fold() -> None:
            t.deck_events.fold_opens(entry.seq, seat, opens, revealed)
            t.play(seat, act, revealed, entry.time)

        return fold
