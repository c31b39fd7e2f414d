"""The VTES command line's vocabulary: its verbs (:data:`VERBS`, with the engine's own act names
as aliases), what a command is read against (:class:`Context`: the seat's view, the seats' names,
the card selected on the board), and how a command's words name a card or a Methuselah
(:func:`take_card`, :func:`take_seat`), with the small readings every command shares (a number,
the clauses of a line, nothing left over). The grammar that turns a line into an act is
:mod:`tui.games.vtes.commands` (``play``: :mod:`tui.games.vtes.play_command`); the completion
of what is being typed, :mod:`tui.games.vtes.completion`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from engine.errors import VampireError
from engine.games.base import Pos
from engine.games.vtes.cards import card_base
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import Do, Target, Zone


class CommandError(VampireError):
    """A command line that does not make an act: the message says why, in a sentence."""


@dataclass(frozen=True)
class Verb:
    """One command: its word, the act it makes, its argument words (for help and completion),
    and what its CARD arguments are chosen among (``"hand"``, ``"mine"``: cards in play this seat
    controls, ``"uncontrolled"``: its own uncontrolled region, ``"contests"``: its contested cards
    and title-contesting vampires, ``"own"``: its face-up cards, in play or in its ash heap (the
    sources it may name: docs/vtes-by-hand.md, "Sources are one's own"), ``"any"``: every known card,
    ``""``: none) and whether it names a Methuselah."""

    word: str
    do: Do
    args: str = ""
    cards: str = ""
    seat: bool = False


VERBS: tuple[Verb, ...] = (
    Verb("next", Do.PHASE),
    Verb("phase", Do.PHASE),
    Verb("end", Do.END_TURN),
    Verb("edge", Do.EDGE),
    Verb("draw", Do.DRAW, "[N]"),
    Verb("play", Do.PLAY, "CARD [to ZONE|METHUSELAH] [on CARD] [pool N] [blood N] [basic|sup]", "hand"),
    Verb("discard", Do.DISCARD, "CARD", "hand"),
    Verb("cancel", Do.PLAY, "[CARD]", "hand"),
    Verb("move", Do.MOVE, "CARD to ZONE", "any"),
    Verb("burn", Do.BURN, "CARD | edge for CARD", "any"),
    Verb("lock", Do.LOCK, "CARD", "any"),
    Verb("unlock", Do.UNLOCK, "CARD", "any"),
    Verb("blood", Do.BLOOD, "±N CARD [for CAUSE]", "any"),
    Verb("life", Do.LIFE, "±N CARD [for CAUSE]", "any"),
    Verb("pool", Do.POOL, "±N [METHUSELAH] [for] [CAUSE]", seat=True),
    Verb("action", Do.ACTION, "KIND [MINION] [with CARD] [at METHUSELAH]", "mine", seat=True),
    Verb("bleed", Do.ACTION, "[N] [with] [MINION] [METHUSELAH]", "mine", seat=True),
    Verb("hunt", Do.ACTION, "[MINION]", "mine"),
    Verb("block", Do.BLOCK, "[MINION] [intercept N]", "mine"),
    Verb("pass", Do.PASS),
    Verb("stealth", Do.ADJUST, "±N [for CAUSE | by CARD]", "any"),
    Verb("intercept", Do.ADJUST, "±N [for CAUSE | by CARD]", "any"),
    Verb("amount", Do.ADJUST, "±N [for CAUSE | by CARD]", "any"),
    Verb("end-action", Do.ACTION_END, "CARD", "any"),
    Verb("dispute", Do.DISPUTE, "N"),
    Verb("accept", Do.ACCEPT, "N"),
    Verb("lapse", Do.LAPSE, "N"),
    Verb("retract", Do.RETRACT, "N"),
    Verb("combat", Do.COMBAT, "MINION, MINION", "any"),
    Verb("influence", Do.INFLUENCE, "VAMPIRE", "uncontrolled"),
    Verb("transfer", Do.TRANSFER, "±N VAMPIRE | crypt", "uncontrolled"),
    Verb("handsize", Do.HAND_SIZE, "±N [METHUSELAH]", seat=True),
    Verb("shuffle", Do.SHUFFLE, "library|crypt [NAME for CAUSE]"),
    Verb("contest", Do.CONTEST, "[CARD]", "contests"),
    Verb("yield", Do.YIELD, "[CARD]", "contests"),
    Verb("withdraw", Do.WITHDRAW),
    Verb("time", Do.TIME),
    Verb("deck", Do.DECK, "CRYPT LIBRARY"),
)
"""Every command, in the order help lists them."""

_BY_WORD: dict[str, Verb] = {v.word: v for v in VERBS}
# The engine's own act names are accepted too (``end_turn``, ``action_end``, ``hand_size``).
_ALIASES: dict[str, str] = {
    "end_turn": "end",
    "action_end": "end-action",
    "end_action": "end-action",
    "hand_size": "handsize",
    "n": "next",
    "announce": "action",
}

FIGHT_WORDS: tuple[str, ...] = ("strike", "maneuver", "press", "prevent", "terms", "vote", "done", "diablerise")
"""The combat and referendum commands (read by :mod:`tui.games.vtes.fight_commands`), for completion."""

ZONE_WORDS: tuple[str, ...] = tuple(t.value for t in Target if t != Target.ON)
"""The places a card is moved or played ``to`` (``on`` names a card instead)."""


LEVEL_WORDS: dict[str, str] = {"basic": "basic", "sup": "superior", "superior": "superior"}
"""The words that name a card's Discipline level at the end of ``play`` or ``strike … with CARD``,
and the level each names."""


def take_level(tokens: list[str]) -> tuple[list[str], str | None]:
    """A trailing level word (:data:`LEVEL_WORDS`) taken off ``tokens``: the rest and the level
    it names ("basic", "superior"), or None when the last token names none."""
    level = LEVEL_WORDS.get(tokens[-1].lower()) if tokens else None
    return (tokens[:-1], level) if level is not None else (tokens, None)


def basic_note(name: str, superior: str) -> str:
    """The sentence a confirmation adds when a command named no level of a card whose levels
    differ and the basic one was played: ``superior`` says what the superior level gives."""
    return f"{name.split(' (')[0]} at basic: end the command with sup for superior ({superior})."


@dataclass(frozen=True)
class Context:
    """What a command is read against: the seat's ``view``, the seats' ``names`` (seat order), and
    the card selected on the board (``selected``: its position, or None)."""

    view: VtesView
    names: Sequence[str]
    selected: Pos | None = None
    #: What a command chose that its words left unnamed (the basic level of a card whose levels
    #: differ), as sentences the confirmation adds; filled as the command is read.
    notes: list[str] = field(default_factory=list, compare=False)

    @property
    def me(self) -> int:
        """This seat (a spectator has no commands)."""
        if self.view.seat is None:
            raise CommandError("A spectator makes no moves.")
        return self.view.seat

    def candidates(self, kind: str) -> list[CardView]:
        """The known cards a CARD argument of ``kind`` is chosen among, named ones only."""
        view = self.view
        match kind:
            case "hand":
                cards = list(view.hand)
            case "mine":
                cards = [c for c in view.cards if c.controller == self.me and c.zone.in_play]
            case "uncontrolled":
                cards = list(view.uncontrolled(self.me))
            case "own":
                cards = [
                    c
                    for c in view.cards
                    if (c.zone.in_play and c.controller == self.me) or (c.owner == self.me and c.zone == Zone.ASH)
                ]
            case "contests":
                cards = [c for c in view.cards if c.controller == self.me and c.pos in view.contests_due(self.me)]
            case _:
                # A name held by several cards is read as the one in play first (then in an
                # uncontrolled region, set aside, in the hand, and last a burned or removed one):
                # "life +2 Carrion Crows" is about the ally on the table, not a copy in the ash heap.
                cards = sorted(
                    list(view.cards) + list(view.hand), key=lambda c: _PREFERRED.get(c.zone, len(_PREFERRED))
                )
        return [c for c in cards if c.name]


_PREFERRED: dict[Zone, int] = {
    Zone.READY: 0,
    Zone.TORPOR: 0,
    Zone.ON: 0,
    Zone.UNCONTROLLED: 1,
    Zone.ASIDE: 2,
    Zone.HAND: 3,
}
"""The order in which the zones' cards answer a name that several cards hold (the others last)."""


def norm(text: str) -> str:
    """``text`` as names are compared: lower case, commas as spaces, single spaces."""
    return " ".join(text.lower().replace(",", " ").split())


def bare(name: str) -> str:
    """A card name without its group suffix: ``"Theo Bell (G2)"`` -> ``"theo bell"``."""
    return norm(name.split(" (")[0])


def is_int(token: str) -> bool:
    """True when ``token`` is a whole number (``"2"``, ``"-1"``, ``"+3"``)."""
    try:
        int(token)
    except ValueError:
        return False
    return True


def take_card(tokens: Sequence[str], cards: Sequence[CardView], what: str = "card") -> tuple[CardView, list[str]]:
    """The card named by the longest run of leading ``tokens`` among ``cards`` (its full name,
    its name without the group, or the start of either; an exact name wins over a start), and
    the tokens after it. Raises CommandError when none matches."""
    if not tokens:
        raise CommandError(f"Name the {what}.")
    for exact in (True, False):
        for k in range(len(tokens), 0, -1):
            phrase = norm(" ".join(tokens[:k]))
            for c in cards:
                full, short = norm(c.name), bare(c.name)
                hit = phrase in (full, short) if exact else (full.startswith(phrase) or short.startswith(phrase))
                if hit:
                    return c, list(tokens[k:])
    known = ", ".join(sorted({c.name for c in cards})[:4])
    hint = f" (you may name: {known}{'…' if len({c.name for c in cards}) > 4 else ''})" if known else ""
    raise CommandError(f"No {what} called {' '.join(tokens)!r}{hint}.")


def take_seat(tokens: Sequence[str], ctx: Context) -> tuple[int, list[str]]:
    """The Methuselah named by the leading ``tokens`` (a name or its start, ``me``, ``prey``,
    ``predator``) and the tokens after it. Raises CommandError when none matches."""
    if not tokens:
        raise CommandError("Name the Methuselah.")
    me = ctx.me
    word = tokens[0].lower()
    player = ctx.view.players[me]
    special = {"me": me, "self": me, "prey": player.prey, "predator": player.predator}
    if word in special:
        if special[word] < 0:
            raise CommandError(f"You have no {word} now.")
        return special[word], list(tokens[1:])
    for exact in (True, False):
        for k in range(len(tokens), 0, -1):
            phrase = norm(" ".join(tokens[:k]))
            for seat, name in enumerate(ctx.names):
                n = norm(name)
                if (n == phrase) if exact else n.startswith(phrase):
                    return seat, list(tokens[k:])
    raise CommandError(f"Nobody at the table is called {' '.join(tokens)!r} ({', '.join(ctx.names)}).")


def verb_of(word: str) -> Verb | None:
    """The command ``word`` names exactly (any case; an alias is the engine's act name, e.g.
    ``end_turn``), or None."""
    word = word.lower()
    return _BY_WORD.get(_ALIASES.get(word, word))


def int_of(token: str, what: str) -> int:
    """``token`` as a number; raises CommandError naming ``what`` when it is not one."""
    try:
        return int(token)
    except ValueError:
        raise CommandError(f"{what} is a number, not {token!r}.") from None


def split_clauses(tokens: Sequence[str], keywords: frozenset[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Leading tokens up to the first keyword, then each keyword's tokens. A card's name that holds
    a keyword ("On the Qui Vive", "Wake with Evening's Freshness") is read whole, as the name."""
    head: list[str] = []
    clauses: dict[str, list[str]] = {}
    current: list[str] | None = None
    i = 0
    while i < len(tokens):
        t = tokens[i]
        name = _name_at(tokens, i)
        if name:
            (head if current is None else current).extend(tokens[i : i + name])
            i += name
            continue
        if t.lower() in keywords:
            current = clauses.setdefault(t.lower(), [])
        elif current is None:
            head.append(t)
        else:
            current.append(t)
        i += 1
    return head, clauses


def _name_at(tokens: Sequence[str], i: int) -> int:
    """How many tokens from ``i`` spell a card's whole name that holds a clause word (0: none)."""
    for name in _names_with_clause_words().get(tokens[i].lower(), ()):
        if tuple(t.lower() for t in tokens[i : i + len(name)]) == name:
            return len(name)
    return 0


@cache
def _names_with_clause_words() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Card names (lower-case words) with a word the command line reads as a clause, by first word,
    the longest first."""
    words = {"to", "on", "for", "by", "with", "at", "stealth", "amount", "intercept", "pool", "blood", "from", "keep"}
    found: dict[str, list[tuple[str, ...]]] = {}
    for info in card_base().every_info():
        name = tuple(info.name.lower().split())
        if len(name) > 1 and words & set(name):
            found.setdefault(name[0], []).append(name)
    return {k: tuple(sorted(v, key=len, reverse=True)) for k, v in found.items()}


def selected_or_first(ctx: Context, cards: Sequence[CardView], ok: Callable[[CardView], bool]) -> CardView | None:
    """The selected card if it is among ``cards`` and ``ok``, else the first that is."""
    for c in cards:
        if c.pos == ctx.selected and ok(c):
            return c
    return next((c for c in cards if ok(c)), None)


def no_rest(rest: Sequence[str], verb: str) -> None:
    """Raise CommandError when words are left (``rest``) after a command ``verb`` that takes no more."""
    if rest:
        raise CommandError(f"{verb} takes nothing after that, not {' '.join(rest)!r}.")


def is_minion(card: CardView) -> bool:
    """A vampire or an ally: a card that can act (and bleed, and be equipped)."""
    return card.crypt or "Ally" in card.types


__all__ = [
    "FIGHT_WORDS",
    "VERBS",
    "ZONE_WORDS",
    "CommandError",
    "Context",
    "Verb",
    "bare",
    "int_of",
    "is_int",
    "is_minion",
    "no_rest",
    "norm",
    "selected_or_first",
    "split_clauses",
    "take_card",
    "take_seat",
    "verb_of",
]
