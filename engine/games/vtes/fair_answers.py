"""How a bot answers a claim on its things, standing in for a fair opponent (docs/vtes-by-hand.md,
"A bot's answer": the rule is stated there once; this module is its one place in code).

A bot takes a claimant's word only as far as a card bears it out:

- A change **in its favour** (its pool, a card's blood or life, its hand size raised): accepted.
- A cause that **names a card** (its words are a card's name, or ``by`` names one): the table has
  already checked that the card is the claimant's and in sight (in play, set aside by its action,
  or in its ash heap this turn: :mod:`engine.games.vtes.causes`). The bot accepts when the card's
  text speaks of what the claim changes (:data:`WORDS`: pool for a pool change, blood for blood,
  burn for a burn…) and the claim, with what this claimant already took from the bot for that card
  and that kind of change this turn, is at most the largest number the text prints in those
  sentences (:data:`FREE_WORDS` where it prints none, or only X). A card whose every clause the
  table applies is disputed: its change by hand would apply it twice.
- A cause in **free words** ("judge ruling", "misplay", a title): the bot takes the claimant's word
  for at most :data:`FREE_WORDS` a turn (one blood, one life, a lock, a combat…), never for pool
  (pool is what ousts), nor a card burned or moved (:data:`_NAMED_ONLY`: name the card). Words that
  burn or move counters ("burn 1 pool") do not let a card burn or move cards.

Otherwise the bot disputes, and says why in the dispute (its ``why``: "Bot disputes act 12: …").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.games.vtes.card_record import Coverage, record
from engine.games.vtes.card_sentences import sentences
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.state import Claim
from engine.games.vtes.view import VtesView
from engine.games.vtes.vocab import Do

FREE_WORDS = 1
"""How much a bot takes on a claimant's word a turn, all kinds of change together (one blood, one
life, a lock, a combat, a number of an action by one), and what a card whose text prints no
number for the change (or only X) is taken to do. Never pool, nor a card burned or moved."""

WORDS: dict[str, tuple[str, ...]] = {
    Do.POOL: ("pool", "bleed"),
    Do.BLOOD: ("blood",),
    Do.LIFE: ("life", "damage"),
    Do.HAND_SIZE: ("hand size",),
    Do.SHUFFLE: ("shuffle",),
    Do.COMBAT: ("combat",),
    Do.LOCK: ("lock",),
    Do.UNLOCK: ("unlock",),
    Do.BURN: ("burn",),
    Do.MOVE: ("move", "put", "return", "discard", "control", "hand", "library", "torpor", "uncontrolled"),
    Do.ADJUST: ("stealth", "intercept", "bleed"),
    Do.MANEUVER: ("maneuver",),
    Do.PRESS: ("press",),
    Do.PREVENT: ("prevent",),
    Do.STRIKE: ("strike",),
}
"""What a card's text says when it can make a change of each kind (words of its sentences, lower
case; "lock" is also in "unlock")."""

_NUMBER_WORDS = {w: i for i, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight"), 1)}
_NUMBER = re.compile(rf"\b(\d+|{'|'.join(_NUMBER_WORDS)})\b")
_NAMED_ONLY: dict[str, str] = {Do.POOL: "pool", Do.BURN: "card burned", Do.MOVE: "card moved"}
"""The changes a bot never takes on a claimant's word: pool (it ousts), a card burned, a card moved
(to another's control, out of play, onto another card)."""
_COUNTERS = re.compile(
    rf"\b(?:burn|move|put|add|remove|pay|gain|lose)\w* (?:(?:\d+|x|an?|{'|'.join(_NUMBER_WORDS)}) )?"
    r"(?:additional )?(?:pool|blood|counters?|life)\b"
)
"""Words that burn or move counters, not cards: no burn or move of a card by them."""
_FAVOURS = frozenset({Do.POOL, Do.BLOOD, Do.LIFE, Do.HAND_SIZE})
"""The kinds of change whose rise is in the touched Methuselah's favour."""


@dataclass(frozen=True)
class Verdict:
    """A bot's answer to one claim: ``accept`` it, or dispute it with ``why`` (words, at most
    :data:`~engine.games.vtes.acts.CAUSE_MAX` characters); ``spends``: ``(source, kind, size)``
    counted against the claimant's bound this turn when accepted (``source``: the card's name key,
    "" for free words; ``kind``: the change's ``do``, "" for free words), None when nothing is."""

    accept: bool
    why: str = ""
    spends: tuple[str, str, int] | None = None


type Spent = Callable[[int, str, str], int]
"""What a claimant (seat) already took from this bot this turn for a source and a kind (same keys
as :attr:`Verdict.spends`)."""


def verdict(view: VtesView, claim: Claim, spent: Spent) -> Verdict:
    """The answer of the bot at ``view.seat`` to ``claim`` on its things (module docstring)."""
    change = dict(claim.change)
    do = str(change.get("do", ""))
    size, favour = _size(view, change)
    if favour:
        return Verdict(True)
    card = _card(view, change)
    if card is None:
        if do in _NAMED_ONLY:
            return Verdict(False, f"no card named: a bot takes no {_NAMED_ONLY[do]} on your word")
        if spent(claim.author, "", "") + size > FREE_WORDS:
            return Verdict(False, f"no card named: a bot takes {FREE_WORDS} a turn on your word")
        return Verdict(True, spends=("", "", size))
    rec = record(card)
    if rec is None:
        return Verdict(False, "the card named is not in the card database")
    name = rec.name[:24]
    if rec.coverage == Coverage.FULLY:
        return Verdict(False, f"the table applies it itself: {name}")
    most = _most(rec.info.text, WORDS.get(do, ()))
    if most is None:
        return Verdict(False, f"its card says nothing of {do.replace('_', ' ')}: {name}")
    key = str(rec.id)
    if spent(claim.author, key, do) + size > most:
        return Verdict(False, f"its card does at most {most} a turn: {name}")
    return Verdict(True, spends=(key, do, size))


def names_card(view: VtesView, claim: Claim) -> bool:
    """Whether ``claim``'s cause names a card (else it is in free words, or a title)."""
    return _card(view, dict(claim.change)) is not None


def on_your_word(bot: str) -> str:
    """What a screen says to a person whose claim on bot ``bot``'s things names no card."""
    return (
        f"{bot} is a bot: on your word it takes no pool and no card burned or moved, and at most {FREE_WORDS} a "
        "turn of anything else; name the card you apply (F1: By hand)"
    )


def _size(view: VtesView, change: dict[str, object]) -> tuple[int, bool]:
    """How much the change takes from the bot at ``view.seat`` (at least 1), and whether it only
    gives to it instead (a rise of its pool, a card's blood or life, its hand size)."""
    do = change.get("do")
    seat = view.seat
    deltas: list[int] = []
    if do == Do.POOL:
        pairs = change.get("changes") or ((change.get("seat"), change.get("delta")),)
        deltas = [d for s, d in _pairs(pairs) if s == seat]
    elif do in (Do.BLOOD, Do.LIFE, Do.HAND_SIZE):
        delta = change.get("delta")
        deltas = [delta] if isinstance(delta, int) else []
    elif do in (Do.MOVE, Do.BURN, Do.LOCK, Do.UNLOCK):
        cards = change.get("cards")
        return (max(1, len(cards)) if isinstance(cards, tuple) else 1), False
    else:
        numbers = [abs(v) for k, v in change.items() if k != "act" and type(v) is int]
        return max([1, *numbers]), False
    if do in _FAVOURS and deltas and all(d >= 0 for d in deltas):
        return 0, True
    return max(1, sum(-d for d in deltas if d < 0)), False


def _pairs(value: object) -> list[tuple[object, int]]:
    if not isinstance(value, tuple):
        return []
    return [(p[0], p[1]) for p in value if isinstance(p, tuple) and len(p) == 2 and type(p[1]) is int]


def _card(view: VtesView, change: dict[str, object]) -> str | int | None:
    """The card a claim's cause names: its ``by`` card, else the card its ``cause`` words name
    (the table checked either is the claimant's, in sight), else None (free words, a title)."""
    by = change.get("by")
    if isinstance(by, tuple) and len(by) == 2:
        seen = view.card((by[0], by[1]))
        if seen is not None and seen.card:
            return card_id(seen.card)
    cause = change.get("cause")
    ids = card_base().named(cause) if isinstance(cause, str) else ()
    return ids[0] if ids else None


def _most(text: str, words: tuple[str, ...]) -> int | None:
    """The largest number ``text`` prints in its sentences that speak of ``words``
    (:data:`FREE_WORDS` where they print none, or X), or None when none speaks of them."""
    said = [s for line in text.splitlines() for s in sentences(line) if any(w in _cards_of(s, words) for w in words)]
    if not said:
        return None
    numbers = [_value(n) for s in said for n in _NUMBER.findall(s)]
    return max([FREE_WORDS, *numbers])


def _cards_of(sentence: str, words: tuple[str, ...]) -> str:
    """``sentence`` as read for ``words``: for a burn or a move of cards, without the words that
    burn or move counters ("burn 1 pool", "move 2 blood")."""
    return _COUNTERS.sub("", sentence) if words in (WORDS[Do.BURN], WORDS[Do.MOVE]) else sentence


def _value(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]
