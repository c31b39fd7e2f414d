"""The lobby and the table's life (PROTOCOL.md 4): the `table` entry that opens it, `join` and
`leave` before the start, `start`, `chat`, `abandon` votes during play, and the host's `end`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import VampireError
from engine.games.base import CHAT, TABLE_OPTIONS, GameError, Note, game_options, table_option
from engine.protocol import codec
from engine.protocol.log import Entry, validate_author_key
from engine.table.chat import DEFAULT_CHAT_LIMIT, ChatBudget
from engine.table.names import name_key
from engine.table.vocab import Phase, TableRefusal

if TYPE_CHECKING:
    from engine.table.table import Fold, Table

MAX_NAME = 32
"""The longest player's name, in characters (a table name may be twice as long)."""

MAX_CHAT = 500
"""The longest chat line, in characters."""


def free_name(wanted: str, taken: Sequence[str]) -> str:
    """The name a joining seat takes when it asks for ``wanted`` and ``taken`` are the names already
    seated: ``wanted`` cleaned as a `join` folds it (surrounding blanks dropped) when no seated
    name has its key (:func:`~engine.table.names.name_key`: NFC, case, blanks, invisible
    characters and confusable look-alikes aside), else the first free ``"wanted 2"``,
    ``"wanted 3"``…, its stem shortened so the whole stays within :data:`MAX_NAME` characters.
    The table's fold of a `join` renames so itself (docs/protocol.md 7.4, "Names"), so every peer seats the
    same name. A blank ``wanted`` is returned as it is (the table refuses it with its own
    sentence)."""
    name = wanted.strip()
    used = {name_key(t) for t in taken}
    if not name or name_key(name) not in used:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in used:
            return candidate
        n += 1


def renamed_sentence(asked: str, seated: str) -> str | None:
    """One line for a player who asked to sit as ``asked`` and sits as ``seated`` because another
    seat held that name (:func:`free_name`); None when the seat has the name it asked for."""
    if asked.strip() == seated:
        return None
    return f"The name {asked.strip()} is taken at this table: you sit as {seated}."


@dataclass
class SeatRecord:
    """A seated player: Ed25519 public ``key`` (32 bytes), ``name``, private deck-list commitment
    (the 32-byte Merkle root of its leaves, or None when the seat brings no deck), ``facts``: what
    the player stated in its `join`, by key (the game's seat facts, each checked by the game's
    rule: :class:`~engine.games.base.SeatFact`); ``bot``: the seat said in its `join`
    that a program plays it (docs/protocol.md 4.1), so every peer can show it as a bot."""

    key: bytes
    name: str
    deck: bytes | None = None
    facts: dict[str, str] = field(default_factory=dict)
    bot: bool = False


def _author_key(entry: Entry) -> None:
    try:
        validate_author_key(entry.author)
    except VampireError as err:
        raise TableRefusal("malformed", str(err)) from None


class Lobby:
    """Handlers for the entries that open, fill, start, talk at and close a table."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.chat: dict[bytes, ChatBudget] = {}
        """Each seat's chat buckets, by key (:mod:`engine.table.chat`)."""

    def prepare_table(self, entry: Entry) -> Fold:
        """The genesis entry: the game (a name ``games`` knows), its options, the seat count and
        the table's name; its author is the host."""
        t = self.t
        b = codec.check_map(
            entry.body,
            {"game": str, "options": dict, "seats": int, "name": str, "carddb": codec.nullable(str)},
            what="the table entry",
        )
        _author_key(entry)
        game = t.games.get(b["game"])
        if game is None:
            raise TableRefusal("illegal", f"this program does not know the game {b['game']!r}")
        if not game.min_seats <= b["seats"] <= game.max_seats:
            raise TableRefusal("illegal", f"{game.title} is played by {game.min_seats} to {game.max_seats} players")
        try:
            for option in TABLE_OPTIONS:
                table_option(b["options"], option.name)
            game.setup(b["seats"], game_options(b["options"]))
        except GameError as err:
            raise TableRefusal("illegal", str(err)) from None
        if not 0 < len(b["name"]) <= MAX_NAME * 2:
            raise TableRefusal("malformed", "a table name is 1 to 64 characters")

        def fold() -> None:
            t.table_id = entry.id
            t.host = entry.author
            t.game = game
            t.game_name = b["game"]
            t.options = dict(b["options"])
            t.nseats = b["seats"]
            t.name = b["name"]
            t.phase = Phase.LOBBY

        return fold

    def prepare_join(self, entry: Entry) -> Fold:
        t = self.t
        facts = t.game.seat_facts if t.game is not None else ()
        b = codec.check_map(
            entry.body,
            {"name": str, "deck": codec.nullable(codec.bin_of(32))},
            {"bot": bool, **{fact.key: str for fact in facts}},  # optional: absent reads as it always did
            what="a join",
        )
        if t.phase != Phase.LOBBY:
            raise TableRefusal("illegal", "the game has started: no more seats")
        if len(t.seats) >= t.nseats:
            raise TableRefusal("illegal", "every seat is taken")
        _author_key(entry)
        if t.seat_of(entry.author) is not None:
            raise TableRefusal("illegal", "that key already holds a seat at this table")
        name = b["name"].strip()
        if not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise TableRefusal("malformed", f"a player's name is 1 to {MAX_NAME} printable characters")
        # A name whose key a seated name holds is renamed, the same way on every peer.
        name = free_name(name, [s.name for s in t.seats])
        for fact in facts:
            if fact.key in b and not fact.valid(b[fact.key]):
                raise TableRefusal("malformed", f"a {fact.label} is {fact.form}")
        stated = {fact.key: b[fact.key] for fact in facts if fact.key in b}
        bot = b.get("bot")
        if bot is False:  # one value, one encoding: a seat a person plays leaves the field out
            raise TableRefusal("malformed", "a join says `bot` only as true (a person's join leaves it out)")

        def fold() -> None:
            t.seats.append(SeatRecord(entry.author, name, b["deck"], stated, bot=bot is True))
            t.notes.append(Note(f"{{s{len(t.seats) - 1}}} takes seat {len(t.seats) - 1}."))

        return fold

    def prepare_leave(self, entry: Entry) -> Fold:
        t = self.t
        codec.check_map(entry.body, {}, what="a leave")
        seat = t.author_seat(entry)
        if t.phase != Phase.LOBBY:
            raise TableRefusal("illegal", "a seat can be left only before the game starts; use abandon votes after")

        def fold() -> None:
            t.notes.append(Note(f"{t.seats[seat].name} leaves the table."))
            del t.seats[seat]

        return fold

    def prepare_start(self, entry: Entry) -> Fold:
        t = self.t
        codec.check_map(entry.body, {}, what="a start")
        if entry.author != t.host:
            raise TableRefusal("not-your-turn", "only the host starts the game")
        if t.phase != Phase.LOBBY:
            raise TableRefusal("illegal", "the game has already started")
        if len(t.seats) != t.nseats:
            raise TableRefusal("illegal", f"the table has {len(t.seats)} of its {t.nseats} players")
        game = t.rules

        def fold() -> None:
            t.gstate = game.setup(t.nseats, game_options(t.options))
            t.phase = Phase.RUNNING
            t.notes.append(Note(f"The game of {game.title} starts."))

        return fold

    def prepare_chat(self, entry: Entry) -> Fold:
        t = self.t
        b = codec.check_map(entry.body, {"text": str}, what="a chat line")
        seat = t.seat_of(entry.author)
        if seat is None and entry.author != t.host:
            raise TableRefusal("not-your-turn", "only players and the host can chat")
        text = b["text"].strip()
        if not 0 < len(text) <= MAX_CHAT or not text.isprintable():
            raise TableRefusal("malformed", f"a chat line is 1 to {MAX_CHAT} printable characters")
        who = f"{{s{seat}}}" if seat is not None else "The host"
        size = len(text.encode())
        budget = None if seat is None else self.chat.setdefault(entry.author, ChatBudget(DEFAULT_CHAT_LIMIT))
        if budget is not None and (why := budget.refusal(entry.time, size)) is not None:
            raise TableRefusal("illegal", why)

        def fold() -> None:
            if budget is not None:
                budget.spend(entry.time, size)
            t.notes.append(Note(f"{who}: {text.replace('{', '{{').replace('}', '}}')}", (), CHAT))

        return fold

    def prepare_abandon(self, entry: Entry) -> Fold:
        """A vote to end the wait for a seat the table waits on (PROTOCOL.md 6.5): once more than
        half of the other seats still playing voted for it while the table waited on it (every one
        of them under table rule ``abandon_by_all``), the seat is recorded as having abandoned. A
        seat that does not vote counts neither way; a seat out of the game has no vote; a vote
        signed before the wait has lasted table rule ``stall_seconds`` is refused
        (:meth:`Table.stall_vote_refusal`)."""
        t = self.t
        b = codec.check_map(entry.body, {"seat": int}, what="an abandon vote")
        voter = t.author_seat(entry)
        target: int = b["seat"]
        if t.phase != Phase.RUNNING:
            raise TableRefusal("illegal", "abandon votes are for a running game")
        if target in t.abandoned:
            raise TableRefusal("illegal", f"seat {target} is already recorded as having abandoned")
        if target not in t.waiting_on() or target == voter or voter in t.abandoned:
            raise TableRefusal("illegal", f"seat {target} does not owe the table anything now")
        if voter not in t.playing():
            raise TableRefusal("illegal", f"seat {voter} is out of the game and has no abandon vote")
        if (early := t.stall_vote_refusal(target, entry.time)) is not None:
            raise TableRefusal("illegal", early)
        votes = t.abandon_votes.get(target, set()) | {voter}
        game = t.rules

        def fold() -> None:
            t.abandon_votes[target] = votes
            t.notes.append(Note(f"{{s{voter}}} votes to end the wait for {{s{target}}}.", (voter, target)))
            if t.abandon_carried(target):
                t.abandoned.append(target)
                t.work = None
                t.queue = []
                t.gstate, notes = game.abandon(t.gstate, target)
                t.notes.extend(notes)
                if game.result(t.gstate) is not None:
                    t.phase = Phase.OVER

        return fold

    def prepare_end(self, entry: Entry) -> Fold:
        """The host's closing entry, which states the game's result."""
        t = self.t
        b = codec.check_map(entry.body, {"scores": list, "winners": list}, what="the end entry")
        if entry.author != t.host:
            raise TableRefusal("not-your-turn", "only the host ends the table")
        if t.phase != Phase.OVER or t.ended:
            raise TableRefusal("illegal", "the game is not over")
        result = t.rules.result(t.gstate)
        if result is None or b["scores"] != list(result.scores) or b["winners"] != list(result.winners):
            raise TableRefusal("illegal", "the end entry does not state the game's result")

        def fold() -> None:
            t.ended = True

        return fold
