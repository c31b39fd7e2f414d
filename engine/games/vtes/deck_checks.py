"""What a table's rules refuse in a VTES deck (shared/rules/vtes.md, "Setup"): its sizes (a crypt
of at least 12 cards; with the table rule ``library_size``, a library of 60 to 90) and, with the
table rule ``crypt_groups``, a crypt of more than two consecutive groups.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.games.vtes.cards import CardBase, card_base
from engine.games.vtes.deck_formats import DeckFileError
from engine.games.vtes.state import CRYPT_MIN, LIBRARY_MAX, LIBRARY_MIN
from engine.games.vtes.vocab import CryptGroups, Ruleset

if TYPE_CHECKING:
    from engine.games.vtes.decks import Deck


def size_problems(deck: Deck, *, library_size: bool = True) -> list[str]:
    """Why a table would refuse ``deck``'s sizes: a crypt under 12 cards; with the table rule
    ``library_size``, a library outside 60 to 90 cards, else an empty one (rules, "Setup")."""
    problems = []
    if deck.crypt_size < CRYPT_MIN:
        problems.append(f"the crypt has {deck.crypt_size} cards, and a crypt needs at least {CRYPT_MIN}")
    if library_size and not LIBRARY_MIN <= deck.library_size <= LIBRARY_MAX:
        problems.append(
            f"the library has {deck.library_size} cards, and a library needs {LIBRARY_MIN} to "
            f"{LIBRARY_MAX} (table rule library_size)"
        )
    elif not library_size and deck.library_size < 1:
        problems.append("the library is empty")
    return problems


def check_sizes(deck: Deck, *, library_size: bool = True) -> None:
    """Raise :class:`DeckFileError` unless the crypt holds at least 12 cards and (when the table rule
    ``library_size`` is on) the library 60 to 90 (rules, "Setup")."""
    problems = size_problems(deck, library_size=library_size)
    if problems:
        label = f"deck {deck.name!r}: " if deck.name else ""
        raise DeckFileError(label + "; ".join(problems))


def crypt_groups_rule(options: Mapping[str, object]) -> bool:
    """Whether the table rule ``crypt_groups`` applies at a table with ``options`` (its option
    values, possibly partial): ``on``, or ``tournament`` (the default) at a table whose
    ``ruleset`` is tournament."""
    rule = options.get("crypt_groups", CryptGroups.TOURNAMENT)
    return rule == CryptGroups.ON or (
        rule == CryptGroups.TOURNAMENT and options.get("ruleset", Ruleset.STANDARD) == Ruleset.TOURNAMENT
    )


def crypt_group_problem(deck: Deck, base: CardBase | None = None) -> str | None:
    """Why the VEKN rule on crypt groups refuses ``deck`` (a crypt holds vampires of one group or
    of two consecutive groups; group ANY counts as any), naming the groups found and their cards,
    or None when the crypt keeps it."""
    base = base or card_base()
    groups: dict[int, int] = {}
    for cid, count in deck.crypt:
        info = base.info(cid)
        value = info.group if info is not None else ""
        if value[:1] == "G" and value[1:].isdigit():
            groups[int(value[1:])] = groups.get(int(value[1:]), 0) + count
    if not groups or (len(groups) <= 2 and max(groups) - min(groups) <= 1):
        return None
    found = [f"{g} ({n} card{'s' if n != 1 else ''})" for g, n in sorted(groups.items())]
    listed = ", ".join(found[:-1]) + " and " + found[-1]
    return (
        f"the crypt holds vampires of groups {listed}, and a crypt holds one group or two "
        "consecutive groups (table rule crypt_groups)"
    )


def table_problems(deck: Deck, options: Mapping[str, object], base: CardBase | None = None) -> list[str]:
    """Why a table with ``options`` (its option values, possibly partial) would refuse ``deck``:
    its sizes (:func:`size_problems`, table rule ``library_size``, on by default) and its crypt's
    groups (:func:`crypt_group_problem`, when :func:`crypt_groups_rule` applies)."""
    problems = size_problems(deck, library_size=bool(options.get("library_size", True)))
    group = crypt_group_problem(deck, base) if crypt_groups_rule(options) else None
    return problems + ([group] if group else [])


# --- deck files ------------------------------------------------------------------------------------
