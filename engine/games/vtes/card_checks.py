"""A card's requirements checked as it is played (the rulebook's "Requirements for Playing Cards";
shared/rules/vtes-actions.md P2, P9): the clan, the Discipline and the title its record requires
of the minion that plays it, and the capacity. Each refusal is a sentence naming what is missing,
and a card named in the act may lift it (:attr:`~engine.games.vtes.vocab.Lift.REQUIREMENT`).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.base import Pos
from engine.games.vtes import standing
from engine.games.vtes.acts import esc
from engine.games.vtes.cancel_reading import Cancelled, cancels_only
from engine.games.vtes.card_effects import EACH, EffectKind
from engine.games.vtes.card_record import CardRecord, Timing, meets_disciplines, record
from engine.games.vtes.cards import CardInfo, PlayPlace, card_base, play_place
from engine.games.vtes.contests import as_titled
from engine.games.vtes.state import Limited
from engine.games.vtes.vocab import DeckPart, Lift, LimitScope, Phase
from engine.games.vtes.work import Work


def check_requirements(w: Work, card: Pos, minion: Pos | None) -> None:
    """Refuse (``w.refuse``, liftable) the card at ``card`` played by ``minion`` when the minion
    lacks what the card requires (:func:`missing_requirement`), or its printed limit is spent
    (:func:`take_limit`). Nothing is checked without a minion (a master card) or for a card or
    minion the table does not know."""
    info = w.info(card)
    rec = record(info.id) if info is not None else None
    who = standing.at(w, minion) if minion is not None else None
    if rec is None or who is None or minion is None:
        return
    who = as_titled(who, w.contests, minion)
    missing = missing_requirement(rec, who, w.name(minion))
    if missing is not None:
        w.refuse(Lift.REQUIREMENT, missing)
    take_limit(w, card, minion)


def take_limit(w: Work, card: Pos, minion: Pos | None) -> None:
    """The card at ``card``, played by ``minion`` (None: by no minion, a master card), against
    the limits its text prints on how often it is played (as the act states them, else its
    record's ``limits``; but those of one action, which :func:`engine.games.vtes.plays.check_play` checks against the action's
    plays): refused (``w.refuse``, liftable) in the card's words when one is spent; else the play
    is kept (``w.limited``) until the limit ends."""
    info = w.info(card)
    rec = record(info.id) if info is not None else None
    if rec is None:
        return
    terms = w.terms if w.terms is not None and w.terms.card == card else None
    for limit in terms.limits_of(rec) if terms is not None else rec.limits_at(False):
        if limit.scope == LimitScope.ACTION or (limit.minion and minion is None):
            continue
        who: Pos | tuple[()] = minion if limit.minion and minion is not None else ()
        if any(x.card == rec.id and x.minion == who and x.scope == limit.scope for x in w.limited):
            by = f"{w.name(who)} has played one" if who else "one has been played"
            w.refuse(Lift.ONCE, f'{esc(rec.name)} says "{limit.words}": {by} already')
            continue
        w.limited = (*w.limited, Limited(who, rec.id, limit.scope))
    if (
        minion is not None
        and rec.keeps_ally_locked
        and not any(x.scope == LimitScope.UNLOCK for x in rec.requires.limits)
    ):
        w.limited = (*w.limited, Limited(minion, rec.id, LimitScope.UNLOCK))  # for its next unlock phase


def end_limits(w: Work, *scopes: LimitScope) -> None:
    """The printed limits of ``scopes`` end (a round, a combat is over)."""
    w.limited = tuple(x for x in w.limited if x.scope not in scopes)


def _sect(who: CardInfo) -> str | None:
    """The sect (lower case) of the minion ``who`` as printed: "" for an ally or a retainer (of
    no sect); None for a vampire whose text names none (not checked)."""
    if who.kind != DeckPart.CRYPT:
        return ""
    rec = record(who.id)
    return rec.printed.sect.lower() or None if rec is not None else None


def missing_requirement(rec: CardRecord, who: CardInfo, them: str) -> str | None:
    """What the minion ``who`` (named ``them``) lacks of what the card ``rec`` requires, as the
    refusal's sentence: one of its clans, its Discipline (one of a choice, all of a combination,
    at either level), one of its titles, its sect (one it names, none it bars: rulebook,
    "Requirements for Playing Cards"), its least capacity; None when it lacks nothing. The
    offers read it too, so that a card is offered only to a minion that may play it."""
    q = rec.requires
    name = esc(rec.name)
    if q.clans and who.clan not in q.clans:
        return f"{name} requires a {' or '.join(q.clans)} minion, and {them} is {who.clan or 'of no clan'}"
    if q.disciplines and not meets_disciplines(rec, frozenset(who.disciplines)):
        joiner = " and " if q.discipline_rule == "Combo" else " or "
        return f"{name} requires {joiner.join(d.upper() for d in q.disciplines)}, which {them} does not have"
    title = who.title.lower()
    if q.titles and not (title in q.titles or ("titled vampire" in q.titles and title)):
        return f"{name} requires a {' or '.join(q.titles)}, and {them} is {who.title or 'untitled'}"
    sect = _sect(who)
    if q.sects and sect is not None and sect not in q.sects:
        article = "an" if q.sects[0][0] in "aeiou" else "a"
        return f"{name} requires {article} {' or '.join(s.title() for s in q.sects)} minion, and {them} is {sect.title() or 'of no sect'}"
    if sect and sect in q.not_sects:
        return f"{name} requires a non-{sect.title()} minion, and {them} is {sect.title()}"
    if q.capacity and who.capacity < q.capacity:
        return f"{name} requires a vampire with capacity {q.capacity} or more, and {them} has {who.capacity}"
    return None


def master_timing(rec: CardRecord, own_turn: bool, phase: Phase) -> str | None:
    """Why the master card ``rec`` cannot be played now, as the refusal's sentence: in another
    Methuselah's turn (``own_turn`` False) unless it is out-of-turn, in its Methuselah's own turn
    outside its master ``phase`` (rulebook, "Card Types": Master; "2. Master Phase"). None: it
    may, or it is no master card. The automatic pass reads it too, so that a master card in hand
    stops a seat only where it may be played."""
    if Timing.MASTER not in rec.requires.timing:
        return None
    name = esc(rec.name)
    if not own_turn:
        if Timing.OUT_OF_TURN in rec.requires.timing:
            return None
        return (
            f'{name} is a master card: it is played in your own master phase (rulebook, "2. Master Phase"); '
            "only an out-of-turn master card is played in another Methuselah's turn"
        )
    if phase != Phase.MASTER:
        out = Timing.OUT_OF_TURN in rec.requires.timing
        kind = "an out-of-turn master card: in your own turn" if out else "a master card:"
        return (
            f"{name} is {kind} it is played in your master phase, and this is your {phase} phase "
            '(rulebook, "2. Master Phase")' + ("; it is also played in another Methuselah's turn" if out else "")
        )
    return None


def missing_target(rec: CardRecord, blood: Sequence[int]) -> str | None:
    """Why the card ``rec`` has nothing to act on, as the refusal's sentence: one that moves blood
    from "a vampire you control" to its player's pool (Minion Tap; not "each ready vampire", nor
    a card put on the vampire it taps) needs a ready vampire of the player's with blood (``blood``: the blood on each ready
    vampire the player controls, in counters); None when there is one, or the card names no such
    target. The offers read it too, so that such a card is offered only where it can act
    (rulebook, "Requirements for Playing Cards": a card is played only where its effect can be
    resolved)."""
    move = next((e for e in rec.effects if e.kind == EffectKind.MOVE_BLOOD and e.whom != EACH), None)
    info = card_base().info(rec.id)
    if info is not None and play_place(info) == PlayPlace.ON_MINION:
        return None  # put on the vampire it taps (Villein): where the card goes is checked as it goes
    if move is None or any(b >= max(move.least, 1) for b in blood):
        return None
    what = f"{move.least} blood or more" if move.least > 1 else "blood"
    return f"{esc(rec.name)} moves blood from a ready vampire you control, and none of yours has {what}"


def missing_cancel(rec: CardRecord, waits: Cancelled | None) -> str | None:
    """Why the card ``rec``, whose only effect is a cancel "as it is played"
    (:func:`engine.games.vtes.cancel_reading.cancels_only`), has nothing to cancel, as the
    refusal's sentence: it needs a card of its kind announced and waiting for answers (``waits``:
    what the card waiting in the innermost answer window is, :func:`engine.games.vtes.cancel_reading.waiting`;
    :mod:`engine.games.vtes.cancels`). None when it has something to cancel, or is no such card
    (rulebook, "Cancel"; "Requirements for Playing Cards": a card is played only where its effect
    can be resolved). The offers read it too."""
    what = cancels_only(rec)
    name = esc(rec.name)
    if what == "master card" and waits != what:
        return f"{name} cancels a master card as it is played, and no master card waits for answers now"
    if what == "minion card" and waits != what:
        return (
            f"{name} cancels a minion card as it is played, and none is being played now: the table waits for "
            "answers to an action modifier, a reaction or a combat card played during an action or a combat"
        )
    return None
