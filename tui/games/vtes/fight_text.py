"""The combat and the referendum under way in words, from a seat's :class:`VtesView`
(shared/rules/vtes-actions.md 5, 7, P5–P7): the combatants with their blood or life, the round,
the range and the step, each side's chosen strike and what the damage will do; the terms, the
votes for and against by source, and who has not finished. No Textual here: the combat and
referendum boxes (:mod:`tui.games.vtes.widgets.combat`, ``.referendum``) show these; the tests read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Pos
from engine.games.vtes.combat import due, step_words, strike_words
from engine.games.vtes.readings import best_strike
from engine.games.vtes.state import PRISCI_VOTES, Combat, Referendum, Strike
from engine.games.vtes.view import CardView, VtesView, vote_sources
from engine.games.vtes.vocab import CombatStep, Poll, VoteSource
from tui.games.vtes.present import seat_name


def _short(name: str) -> str:
    return name.split(" (")[0]


def _card(view: VtesView, pos: Pos | tuple[()]) -> CardView | None:
    return view.card(pos) if pos else None


def _who(view: VtesView, names: Sequence[str], seat: int) -> str:
    return "you" if seat == view.seat else seat_name(names, seat)


def combatant_words(view: VtesView, names: Sequence[str], pos: Pos) -> str:
    """``"Ana's Lucia (4 blood)"``: a combatant, its controller and its blood or life."""
    card = view.card(pos)
    if card is None:
        return "a minion that left"
    owner = "your" if card.controller == view.seat else f"{seat_name(names, card.controller)}'s"
    counters = f"{card.counters} {'blood' if card.crypt else 'life'}"
    where = "" if card.zone == "ready" else f", {card.zone}"
    return f"{owner} {_short(card.name) or 'minion'} ({counters}{where})"


def foresee(view: VtesView, target: Pos, strike: Strike, long: bool) -> str:
    """What ``strike`` will do to ``target`` once resolved, before prevention (P6): "mended",
    "to torpor", "burned", "misses at long range"."""
    card = view.card(target)
    if card is None:
        return ""
    if strike.dodge or strike.ends or strike.other:
        return ""
    if long and not strike.ranged:
        return "misses at long range"
    n, a = (0, strike.damage) if strike.aggravated else (strike.damage, 0)
    if not card.crypt:
        life = card.counters - n - a
        return "burned" if life <= 0 else f"{life} life left"
    blood = card.counters - strike.steal
    mended = min(n, max(blood, 0))
    blood -= mended
    wounded = n > card.counters - strike.steal or card.zone == "torpor"
    left = a
    if not wounded and left:
        wounded, left = True, left - 1
    if left > blood:
        return "burned"
    blood -= left
    if wounded:
        return f"to torpor with {blood} blood" if card.zone != "torpor" else f"{blood} blood left"
    return f"mended, {blood} blood left"


def combat_lines(view: VtesView, names: Sequence[str], combat: Combat) -> tuple[str, str]:
    """Two lines: the combatants, round, range and step; then each side's chosen strike with what
    it will do, or whose strike or impulse the table waits for."""
    ranged = combat.step not in (CombatStep.BEFORE_RANGE, CombatStep.RANGE)
    where = f", {'long' if combat.long else 'close'} range" if ranged or combat.long else ""
    head = (
        f"Round {combat.round}{where}, {step_words(combat.step)}: {combatant_words(view, names, combat.acting)} "
        f"vs {combatant_words(view, names, combat.opposing)}"
    )
    parts = []
    for s in combat.strikes:
        target = combat.opposing if s.minion == combat.acting else combat.acting
        card = view.card(s.minion)
        effect = foresee(view, target, s, combat.long)
        victim = view.card(target)
        if effect and victim is not None and effect != "misses at long range":
            effect = f"{_short(victim.name)} {effect}"  # whom it hits: "→ Troius to torpor with 7 blood"
        parts.append(f"{_short(card.name) if card else 'it'}: {strike_words(s)}" + (f" → {effect}" if effect else ""))
    if combat.step == CombatStep.STRIKE:
        waiting = due(combat)
        if waiting:
            card = view.card(waiting[0])
            whose = (
                "your"
                if card is not None and card.controller == view.seat
                else f"{_short(card.name) if card else 'its'}"
            )
            parts.append(f"{whose} strike is due" if whose == "your" else f"{whose} chooses its strike")
    elif combat.press:
        card = view.card(combat.press) if combat.press else None
        parts.append(f"{_short(card.name) if card else 'a minion'} presses to continue")
    holder = f"impulse: {_who(view, names, combat.impulse)}"
    parts.append(holder)
    return head, " · ".join(parts)


def combat_keys(view: VtesView, combat: Combat) -> list[tuple[str, str]]:
    """The keys this seat may press in the combat now: (key, words)."""
    seat = view.seat
    if seat is None or combat.impulse != seat:
        return []
    if combat.step == CombatStep.STRIKE:
        keys = [("s", "hand strike"), (":", "strike N…")]
        waiting = due(combat)
        striker = view.card(waiting[0]) if waiting else None
        if striker is not None and striker.card:
            for held in view.hand:
                if held.card and "Combat" in held.types and best_strike(held.card, striker.card, combat.long):
                    keys.append((":", f"strike with {_short(held.name)}"))
                    break
        return keys
    mine = [m for m in (combat.acting, combat.opposing) if (c := view.card(m)) is not None and c.controller == seat]
    keys = [(".", "pass")]
    if mine and combat.step == CombatStep.RANGE:
        keys.insert(0, ("m", "maneuver"))
    if mine and combat.step == CombatStep.PRESS:
        keys.insert(0, ("P", "press"))
    if mine and combat.step == CombatStep.DAMAGE:
        keys.insert(0, (":", "prevent N"))
    return keys


def referendum_lines(view: VtesView, names: Sequence[str], r: Referendum) -> tuple[str, str]:
    """Two lines: the terms (or who is setting them); the votes for and against by source and who
    has not finished, or who holds the impulse before votes."""
    if r.hunted:
        card = _card(view, r.hunted)
        head = f"Blood hunt on {_short(card.name) if card else 'the diablerist'}: if it passes, it burns"
    elif r.step == Poll.TERMS:
        head = f"Referendum: {_who(view, names, r.caller)} {'set' if r.caller == view.seat else 'sets'} the terms"
    else:
        head = f"Referendum called by {_who(view, names, r.caller)}: {r.terms}"
    if r.step == Poll.VOTING:
        sides = []
        for side, word in ((True, "for"), (False, "against")):
            votes = [v for v in r.votes if v.side == side and v.source != VoteSource.BALLOT]
            parts = [f"{seat_name(names, v.seat)} {v.count} ({v.source})" for v in votes]
            if r.ballots(side):
                prisci = f"{PRISCI_VOTES} from prisci" if r.prisci() is side else "prisci tied"
                parts.append(f"{r.ballots(side)} ballot{'s' if r.ballots(side) != 1 else ''}, {prisci}")
            sources = ", ".join(parts)
            sides.append(f"{word} {r.total(side)}" + (f": {sources}" if sources else ""))
        left = [s for s in view.in_game() if s not in r.done]
        waiting = ", ".join(_who(view, names, s) for s in left) or "nobody"
        return head, f"{' · '.join(sides)} · not done: {waiting}"
    holder = f"impulse: {_who(view, names, r.impulse)}"
    what = "before votes" if r.step == Poll.BEFORE else "terms"
    return head, f"{what} · {holder}"


def referendum_keys(view: VtesView, r: Referendum) -> list[tuple[str, str]]:
    """The keys this seat may press in the referendum now: (key, words)."""
    seat = view.seat
    if seat is None:
        return []
    if r.step == Poll.TERMS:
        return [(":", "terms TEXT")] if r.caller == seat else []
    if r.step == Poll.BEFORE:
        return [(".", "pass")] if r.impulse == seat else []
    if seat in r.done:
        return []
    keys = [(".", "done")]
    if vote_sources(view, seat):
        keys.insert(0, ("V", "vote"))
    return keys
