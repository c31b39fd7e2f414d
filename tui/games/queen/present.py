"""What the Vampire Queen screens show, as plain data: cards, seats, the trick, a round's end.

Pure functions of a Vampire Queen state (:class:`engine.games.queen.QueenState`); no widgets here,
so the table screen and the replay share them and tests can check them without a terminal. What
any table says (its head, its work, who it waits for) is in :mod:`tui.table_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.games.queen import HUNTERS, card_word, is_queen, rank, set_words

# --- cards ----------------------------------------------------------------------------------


def card_label(ident: str | None) -> str:
    """A card as printed in a hand: ``"7"``, ``"Q"``, ``"H15"``; ``"?"`` while hidden.
    The eight copies of a number are interchangeable in play, so the copy is not shown."""
    if ident is None:
        return "?"
    if ident in ("H15", "H20"):
        return ident
    return "Q" if is_queen(ident) else ident.split("-", 1)[0]


def card_kind(ident: str | None) -> str:
    """``"hunter"``, ``"queen"``, ``"number"`` or ``"hidden"`` (for styling; never the only cue)."""
    if ident is None:
        return "hidden"
    if ident in ("H15", "H20"):
        return "hunter"
    return "queen" if is_queen(ident) else "number"


def cards_text(cards: Sequence[str]) -> str:
    """Cards sorted by value as short labels: ``"3 7 7 Q H20"``."""
    return " ".join(card_label(c) for c in sorted(cards, key=lambda c: (rank(c), c)))


def points(cards: Sequence[str]) -> int:
    """Points of cards left in hand at a round's end (a Queen 14, a hunter its number)."""
    return sum(rank(c) for c in cards)


# --- seats ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    """One seat as the seat list shows it. ``status``: ``"to play"``, ``"passed"``, ``"played"``,
    ``"led"``, ``"out"`` (no cards) or ``""``; ``turn``: the seat the game waits for."""

    seat: int
    name: str
    me: bool
    cards: int
    hunters: tuple[int, ...]
    total: int
    status: str
    turn: bool
    waited: bool


def seat_rows(state: Any, names: Sequence[str], me: int | None, waiting: Sequence[int] = ()) -> list[SeatRow]:
    """Every seat of a Vampire Queen state. ``waiting``: seats the table waits for (any duty)."""
    rows = []
    trick = state.trick
    played: dict[int, str] = {}
    if trick is not None:
        for i, play in enumerate(trick.plays):
            played[play.seat] = "led" if i == 0 else ("passed" if play.passed else "played")
    # Between a round's scoring and the next deal no hand is dealt: the seats show the hands the
    # round ended with (hunters included), as its summary lists them, not just the hunters.
    ended = bool(state.round_hands) and not any(state.hands)
    for s in range(state.seats):
        status = played.get(s, "")
        turn = state.turn == s
        if turn:
            status = "to play"
        elif state.hands and state.phase == "play" and state.hand_count(s) == 0:
            status = "out"
        if s in state.abandoned:
            status = "abandoned"
        rows.append(
            SeatRow(
                seat=s,
                name=names[s] if s < len(names) else f"seat {s}",
                me=s == me,
                cards=len(state.round_hands[-1][s]) if ended else (state.hand_count(s) if state.hands else 0),
                hunters=state.hunters_of(s),
                total=state.totals[s] if state.totals else 0,
                status=status,
                turn=turn,
                waited=s in waiting,
            )
        )
    return rows


# --- the trick --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayRow:
    """One turn in the trick: ``what`` in words, ``cards`` as labels, ``best``: the highest so far."""

    seat: int
    name: str
    what: str
    cards: str
    best: bool
    lead: bool


def trick_rows(trick: Any, names: Sequence[str], hunter_tie: str = "last") -> list[PlayRow]:
    """The plays of a trick in order, the highest (normal trick) or the winning card so far
    (hunter trick, ties broken by the table rule ``hunter_tie``) marked ``best``."""
    if trick is None:
        return []
    best_seat = -1
    if trick.hunter:
        followers = [p for p in trick.plays[1:] if p.cards]
        if followers:
            top = max(p.value for p in followers)
            tied = [p for p in followers if p.value == top]
            best_seat = (tied[-1] if hunter_tie == "last" else tied[0]).seat
    elif any(p.cards for p in trick.plays):
        best_seat = trick.best.seat
    rows = []
    for i, play in enumerate(trick.plays):
        name = names[play.seat] if play.seat < len(names) else f"seat {play.seat}"
        if i == 0 and trick.hunter:
            what = f"leads Hunter {trick.hunter}"
        elif play.passed:
            what = "cannot play" if play.forced else "passes"
        elif trick.hunter:
            what = f"plays {card_word(play.cards[0])}"
        else:
            what = ("leads " if i == 0 else "plays ") + set_words(play.cards)
        rows.append(
            PlayRow(play.seat, name, what, cards_text(play.cards), play.seat == best_seat and bool(play.cards), i == 0)
        )
    return rows


def set_short(cards: Sequence[str]) -> str:
    """A set in words without the cards behind it: ``"a pair of 7s"`` for 7 and a Queen, ``"a
    Queen"`` for a lone Queen (the words :func:`engine.games.queen.set_words` starts with)."""
    return set_words(tuple(cards)).split(" (", 1)[0]


def beat_words(trick: Any) -> str:
    """What a follower must beat in a normal trick, in the words the trick box and the prompt both
    use: ``"beat a pair of 7s"``, ``"beat a Queen"``."""
    return f"beat {set_short(trick.best.cards)}"


def trick_title(state: Any, names: Sequence[str], me: int | None = None) -> str:
    """A line above the trick: who led what, and what a follower must do."""
    trick = state.trick
    if trick is None:
        if state.phase == "play" and state.turn >= 0:
            return "You lead the next trick" if state.turn == me else f"{names[state.turn]} leads the next trick"
        return ""
    leader = names[trick.leader]
    if trick.hunter:
        return f"HUNTER TRICK: {leader} led Hunter {trick.hunter}; everyone plays one card, the highest takes them all"
    size = trick.size
    need = "a higher card" if size == 1 else f"{size} higher cards"
    return f"{leader} led; {beat_words(trick)} with {need}, or pass"


def last_trick_line(state: Any, names: Sequence[str]) -> str:
    """What happened in the trick that just ended, for the pause between tricks."""
    trick = state.last_trick
    if trick is None:
        return ""
    if trick.hunter:
        holder = state.hunters[HUNTERS.index(trick.hunter)]
        if holder < 0:
            return ""
        return f"Last trick: {names[holder]} took Hunter {trick.hunter}."
    best = trick.best
    return f"Last trick: {names[best.seat]} won with {set_words(best.cards)}."


# --- end of a round ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundRow:
    """A seat at a round's end: its hand, the hand's points, the running total."""

    seat: int
    name: str
    hand: str
    points: int
    total: int


def round_rows(state: Any, names: Sequence[str], round_index: int = -1) -> list[RoundRow]:
    """Every hand of a finished round (default: the last) with its points and running totals."""
    hands = state.round_hands[round_index]
    scores = state.round_scores[round_index]
    upto = len(state.round_scores) if round_index == -1 else round_index + 1
    totals = [sum(r[s] for r in state.round_scores[:upto]) for s in range(state.seats)]
    return [
        RoundRow(s, names[s], cards_text(hands[s]) or "(no cards)", scores[s], totals[s]) for s in range(state.seats)
    ]


def winners_text(state: Any, names: Sequence[str], result: Any) -> str:
    """The result's summary with seat names filled in."""
    return str(result.summary).format(**{f"s{i}": n for i, n in enumerate(names)})
