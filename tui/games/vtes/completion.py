"""Completion of the VTES command line as it is typed: whole command lines that complete what is
typed so far, the command word first, then the card, zone or Methuselah being typed (the words
of :mod:`tui.games.vtes.command_words`, read against the seat's view).
"""

from __future__ import annotations

from engine.games.vtes.vocab import ActionKind, Do, Zone
from tui.games.vtes.command_words import FIGHT_WORDS, VERBS, ZONE_WORDS, Context, bare, is_int, norm, verb_of

_WITH_MINION = ("bleed", "hunt", "block")
"""The action words whose minion may follow ``with`` (``hunt with Troius``)."""


def completions(line: str, ctx: Context) -> list[str]:
    """Whole command lines that complete ``line`` (what is typed so far), best first: the
    command word, then the card, zone or Methuselah being typed. Empty when nothing fits."""
    if not line.strip() or ctx.view.seat is None:
        return []
    ends_with_space = line.endswith(" ")
    tokens = line.split()
    if len(tokens) == 1 and not ends_with_space:
        word = tokens[0].lower()
        words = [v.word for v in VERBS] + list(FIGHT_WORDS)
        return [w for w in words if w.startswith(word) and w != word]
    verb = verb_of(tokens[0])
    if verb is None:
        return []
    args = tokens[1:]
    if verb.do == Do.BURN and [a.lower() for a in args[:2]] == ["edge", "for"] and (args[2:] or ends_with_space):
        # burn edge for CARD: a card of this seat's own (docs/vtes-by-hand.md, "Burning the Edge for a card")
        partial = " ".join(args[2:]) + (" " if ends_with_space and args[2:] else "")
        own = _fitting([c.name for c in ctx.candidates("own")], partial)
        return [f"{tokens[0]} edge for {name}" for name in own]
    # Skip leading numbers and finished clauses: what is typed now starts after the last keyword.
    keywords = {"to", "on", "pool", "blood", "from", "keep"} if verb.do in (Do.PLAY, Do.MOVE) else set()
    if verb.word == "action":
        keywords = {"with", "at"}
    start = 0
    clause = ""
    for i, t in enumerate(args):
        if t.lower() in keywords:
            start, clause = i + 1, t.lower()
    while start < len(args) and (is_int(args[start]) or (verb.word in _WITH_MINION and args[start].lower() == "with")):
        start += 1
    if verb.word == "action" and start == 0 and (len(args) > 1 or (args and ends_with_space)):
        start = 1  # the kind is typed: the minion comes next
    done = args[:start]
    partial = " ".join(args[start:]) + (" " if ends_with_space and args[start:] else "")
    choices: list[str]
    if verb.word == "action" and not done:
        choices = [k.value for k in ActionKind]
    elif verb.word == "action" and clause == "":
        choices = [c.name for c in ctx.candidates("mine")]
    elif clause == "to":
        choices = [z for z in ZONE_WORDS]
    elif clause in ("pool", "blood", "keep"):
        return []
    elif clause == "from":
        choices = [c.name for c in ctx.candidates("mine")]
    elif clause == "on" or verb.cards:
        kind = "any" if clause == "on" else verb.cards
        choices = [c.name for c in ctx.candidates(kind)]
        if verb.seat:
            choices += list(ctx.names)
    elif verb.seat:
        choices = list(ctx.names)
    elif verb.do == Do.SHUFFLE:
        choices = [Zone.LIBRARY.value, Zone.CRYPT.value]
    else:
        return []
    if verb.do == Do.TRANSFER and not done:
        choices = ["crypt", *choices]
    if verb.do == Do.BURN and not done:
        choices = ["edge for", *choices]
    head = " ".join([tokens[0], *done])
    return [f"{head} {name}" for name in _fitting(choices, partial)]


def _fitting(choices: list[str], partial: str) -> list[str]:
    """The ``choices`` (names or words) that complete ``partial``, once each, in their order: those
    whose name, or name without the group, starts with it, other than the very words typed."""
    partial_n = norm(partial)
    seen: list[str] = []
    for name in choices:
        n, b = norm(name), bare(name)
        if (n.startswith(partial_n) or b.startswith(partial_n)) and n != partial_n and name not in seen:
            seen.append(name)
    return seen


__all__ = ["completions"]
