"""The combat and the referendum under way in words, from a seat's :class:`VtesView`
(shared/rules/vtes-actions.md 5, 7, P5–P7): the combatants with their blood or life, the round,
the range and the step, each side's chosen strike and what the damage will do; the terms, the
votes for and against by source, and who has not finished. No Textual here: the combat and
referendum boxes (:mod:`tui.games.vtes.widgets.combat`, ``.referendum``) show these; the tests read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Pos
from engine.games.vtes.damage import DamageResult, damage_result, prevented, strike_words
from engine.games.vtes.offers import answers, vote_sources
from engine.games.vtes.state import (
    PRISCI_VOTES,
    Combat,
    Referendum,
    Strike,
    Vote,
)
from engine.games.vtes.terms_choices import terms_choices
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import CombatStep, Do, Poll, VoteSource, step_words
from tui.games.vtes.present import named, seat_name


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


def _works(combat: Combat, s: Strike) -> bool:
    """At long range only ranged strikes, dodge and combat ends work (5.4)."""
    return not combat.long or s.ranged or s.dodge or s.ends


def _after(card: CardView, combat: Combat, s: Strike) -> tuple[int, DamageResult | None]:
    """What ``s`` does to ``card`` (its target) in the pair under way: the blood it steals, then
    the damage after the prevention recorded (P5) by the engine's arithmetic (P6); None: no damage."""
    stolen = min(s.steal, card.counters) if card.crypt else 0
    n, a = (0, s.damage) if s.aggravated else (s.damage, 0)
    n, a = prevented(combat, card.pos, n, a)
    if not (n or a):
        return stolen, None
    return stolen, damage_result(card.counters - stolen, card.crypt, card.zone == "torpor", n, a)


def _stops(view: VtesView, combat: Combat, s: Strike) -> bool:
    """``s`` is a normal strike that will not be made: the other side's first strike sends its
    striker to torpor or burns it first (5.5)."""
    if s.first:
        return False
    for other in combat.strikes:
        if other.minion == s.minion or not other.first or other.dodge or not _works(combat, other):
            continue
        striker = view.card(s.minion)
        if other.retainer or striker is None or any(x.minion == s.minion and x.dodge for x in combat.strikes):
            continue
        _, result = _after(striker, combat, other)
        if result is not None and (result.burned or (result.wounded and striker.zone != "torpor")):
            return True
    return False


def foresee(view: VtesView, combat: Combat, s: Strike) -> str:
    """What strike ``s`` of the pair under way will do once resolved, as things stand (5.4–5.5,
    P5–P6, the arithmetic of :func:`engine.games.vtes.combat.damage_result`): its target's dodge,
    the range, a first strike that stops it, stolen blood (what the striker gains), the
    prevention recorded, and the damage: ``"Troius mended, 7 blood left"``, ``"Oleg dodges it"``,
    ``"Zafira gains 1 blood (Darius 5 left)"``. Empty for a strike that deals nothing the engine
    resolves (dodge, combat ends, a card's strike applied by hand)."""
    if s.dodge or s.ends or s.other:
        return ""
    if not _works(combat, s):
        return "misses at long range"
    if any(x.ends and _works(combat, x) for x in combat.strikes):
        return "no effect: the combat ends first"
    target = s.retainer or (combat.opposing if s.minion == combat.acting else combat.acting)
    card = view.card(target)
    if card is None:
        return ""
    name = _short(card.name) or "it"
    if not s.retainer and any(x.minion == target and x.dodge for x in combat.strikes):
        return f"{name} dodges it"
    if _stops(view, combat, s):
        return "no strike: the first strike resolves before it"
    stolen, result = _after(card, combat, s)
    parts = []
    if stolen:
        striker = view.card(s.minion)
        room = striker.capacity - striker.counters if striker is not None and striker.capacity else stolen
        gain = max(0, min(stolen, room))
        who = _short(striker.name) if striker is not None else "the striker"
        drains = f", {stolen - gain} to the bank" if gain < stolen else ""
        parts.append(f"{who} gains {gain} blood{drains} ({name} {card.counters - stolen} left)")
    if s.damage and result is None:
        parts.append(f"{name} prevents it all")
    elif result is not None and not card.crypt:
        parts.append(f"{name} burned" if result.burned else f"{name} {result.left} life left")
    elif result is not None and result.burned:
        parts.append(f"{name} burned")
    elif result is not None and result.wounded and card.zone != "torpor":
        parts.append(f"{name} to torpor with {result.left} blood")
    elif result is not None:
        parts.append(f"{name} {'mended, ' if not result.wounded else ''}{result.left} blood left")
    return "; ".join(parts)


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
        card = view.card(s.minion)
        effect = foresee(view, combat, s)  # whom it hits and how: "→ Troius to torpor with 7 blood"
        parts.append(f"{_short(card.name) if card else 'it'}: {strike_words(s)}" + (f" → {effect}" if effect else ""))
    if combat.step == CombatStep.STRIKE:
        waiting = combat.due()
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
    offered = answers(view)
    if seat is None or not offered:
        return []
    if combat.step == CombatStep.STRIKE:
        keys = [("s", "hand strike"), (":", "strike N…")]
        held = next((view.card(o.card) for o in offered if o.do == Do.STRIKE and o.card is not None), None)
        if held is not None:
            keys.append((":", f"strike with {_short(held.name)}"))
        return keys
    mine = [m for m in (combat.acting, combat.opposing) if (c := view.card(m)) is not None and c.controller == seat]
    keys = [(".", "pass")]
    if any(o.do == Do.MANEUVER for o in offered):
        keys.insert(0, ("m", "maneuver"))
    if any(o.do == Do.PRESS for o in offered):
        keys.insert(0, ("P", "press"))
    if mine and combat.step == CombatStep.DAMAGE:
        keys.insert(0, (":", "prevent N"))
    return keys


def vote_source_words(view: VtesView, vote: Vote) -> str:
    """Where ``vote`` comes from (7.2): ``"title: Volker"`` (the titled vampire), ``"card: Kine
    Resources Contested"`` (the political action card), ``"calling: …"``, ``"edge"``."""
    card = _card(view, vote.ref)
    return f"{vote.source}: {_short(card.name)}" if card is not None and card.name else str(vote.source)


def referendum_lines(view: VtesView, names: Sequence[str], r: Referendum, by_itself: bool = False) -> tuple[str, str]:
    """Two lines: the terms (or who is setting them); the votes for and against by source and who
    has not finished, or who holds the impulse before votes. ``by_itself``: this seat is done
    voting by itself now (its automatic act, on its way): named so among those not done."""
    if r.hunted:
        card = _card(view, r.hunted)
        head = f"Blood hunt on {_short(card.name) if card else 'the diablerist'}: if it passes, it burns"
    elif r.step == Poll.TERMS:
        head = f"Referendum: {_who(view, names, r.caller)} {'set' if r.caller == view.seat else 'sets'} the terms"
    else:
        head = f"Referendum called by {_who(view, names, r.caller)}: {named(r.terms, names)}"
    if r.step == Poll.VOTING:
        sides = []
        for side, word in ((True, "for"), (False, "against")):
            votes = [v for v in r.votes if v.side == side and v.source != VoteSource.BALLOT]
            parts = [f"{seat_name(names, v.seat)} {v.count} ({vote_source_words(view, v)})" for v in votes]
            if r.ballots(side):
                prisci = f"{PRISCI_VOTES} from prisci" if r.prisci() is side else "prisci tied"
                parts.append(f"{r.ballots(side)} ballot{'s' if r.ballots(side) != 1 else ''}, {prisci}")
            sources = ", ".join(parts)
            sides.append(f"{word} {r.total(side)}" + (f": {sources}" if sources else ""))
        left = [s for s in view.in_game() if s not in r.done]
        who = [_who(view, names, s) + (" (by itself)" if by_itself and s == view.seat else "") for s in left]
        waiting = ", ".join(who) or "nobody"
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
        if r.caller != seat:
            return []
        return [("V", "choose terms"), (":", "terms N|TEXT")] if terms_choices(view, r) else [(":", "terms TEXT")]
    if r.step == Poll.BEFORE:
        return [(".", "pass")] if r.impulse == seat else []
    if seat in r.done:
        return []
    keys = [(".", "done")]
    if vote_sources(view, seat):
        keys.insert(0, ("V", "vote"))
    return keys
