"""A political action card's terms, chosen by its caller and applied by the table if the
referendum passes (shared/rules/vtes-actions.md 7.1, P7; rulebook, "Political Actions").

The cards whose text is one of the shapes :func:`engine.games.vtes.readings.terms_reading` reads
are applied here: pool burned or gained for each minion of a kind each Methuselah controls (no
choice: counted as the referendum passes), points allocated among Methuselahs (Kine Resources
Contested), pool of a richer Methuselah shared out (Parity Shift), a ready younger vampire sent back
to the uncontrolled region (Banishment), pool for each vampire of a chosen clan (Consanguineous
Boon: :mod:`engine.games.vtes.clan_terms`). The caller states the choices on the ``terms`` act
(``changes``: ``[seat, points]`` pairs; ``seat``: the richer Methuselah; ``card``: the vampire;
``clan``: the clan; ``printed``: the terms of a card that leaves no choice);
the table checks them against the card, writes the terms in its own words and keeps them on the
referendum. A card of another shape, or terms given as text alone, stay the players' to apply.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.base import IllegalMove, Pos, seat_ref
from engine.games.vtes import card_actions, clan_terms
from engine.games.vtes.act_records import TermsAct
from engine.games.vtes.readings import TABLE_TERMS, TermsKind, TermsReading, terms_reading
from engine.games.vtes.state import CardState, Referendum
from engine.games.vtes.vocab import Target, Zone
from engine.games.vtes.work import Work


def reading_of(w: Work, r: Referendum) -> TermsReading | None:
    """The terms reading of ``r``'s calling card when the table applies that shape, else None."""
    info = w.info(r.card) if r.card else None
    reading = terms_reading(info.id) if info is not None else None
    return reading if reading is not None and reading.kind in TABLE_TERMS else None


def chosen(w: Work, r: Referendum, act: TermsAct) -> Referendum:
    """``r`` with the terms of ``act`` recorded: checked against the calling card and written in
    the table's words when the table applies them (:data:`~engine.games.vtes.readings.TABLE_TERMS`, choices given or none needed),
    else the act's text as the caller's words. Raises IllegalMove, with the sentence, for choices
    the card does not allow or choices for a card the table does not apply."""
    reading = reading_of(w, r)
    choices = act.changes is not None or act.seat is not None or act.card is not None or act.clan is not None
    burn = card_actions.burn_terms(w, r.card)
    if burn is not None:  # a referendum to burn a card in play: its terms leave no choice
        if choices:
            raise IllegalMove(f"{burn.split(':')[0]} leaves no choice: its terms are as printed")
        if act.printed:
            return replace(r, terms=burn, table=True)
        return replace(r, terms=" ".join(act.text.split()))
    if act.printed and (reading is None or reading.kind != TermsKind.EACH or choices):
        raise IllegalMove("terms 'as printed' are for a card that leaves no choice: give the choices, or text alone")
    if reading is None:
        if choices:
            raise IllegalMove("the table applies no choice for this referendum: give its terms as text alone")
        return replace(r, terms=" ".join(act.text.split()))
    name = w.name(r.card) if r.card else "the card"
    if act.clan is not None and reading.kind != TermsKind.CLAN:
        raise IllegalMove(f"{name} has no clan to choose")
    match reading.kind:
        case TermsKind.EACH:
            if choices:
                raise IllegalMove(f"{name} leaves no choice: its terms are as printed")
            if not act.printed:  # text alone: the players apply them, as in logs written before
                return replace(r, terms=" ".join(act.text.split()))
            per = f"{abs(reading.amount)} pool for each {reading.counts} they control" + (
                f" with capacity {reading.capacity} or more" if reading.capacity else ""
            )
            verb = "gains" if reading.amount > 0 else "burns"
            return replace(r, terms=f"{name}: each Methuselah {verb} {per}", table=True)
        case _ if not choices:
            return replace(r, terms=" ".join(act.text.split()))  # the players apply them
        case TermsKind.ALLOCATE:
            shares = _allocation(w, r, reading, act)
            words = ", ".join(f"{seat_ref(s)} burns {n}" for s, n in shares)
            total = sum(n for _, n in shares)
            return replace(
                r, terms=f"{name}: {words} ({total} points allocated)", shares=_signed(shares, -1), table=True
            )
        case TermsKind.PARITY:
            rich, shares = _parity(w, r, act)
            words = ", ".join(f"{n} to {seat_ref(s)}" for s, n in shares)
            return replace(
                r,
                terms=f"{name}: {seat_ref(rich)} burns 3 pool, {words}",
                shares=((rich, -3), *shares),
                table=True,
            )
        case TermsKind.CLAN:
            clan = _clan(act)
            verb = "gains" if reading.amount > 0 else "burns"
            words = f"{name}: {clan}; each Methuselah {verb} {abs(reading.amount)} pool for each {clan} vampire they control"
            return replace(r, terms=words, clan=clan, table=True)
        case TermsKind.BANISH:
            target = _banished(w, r, act)
            words = (
                f"{name}: {seat_ref(w.cards[target].controller)}'s {w.name(target)} moves to the uncontrolled region"
            )
            return replace(r, terms=words, banish=target, table=True)
    raise AssertionError(reading.kind)  # every shape of TABLE_TERMS is matched


def _signed(shares: tuple[tuple[int, int], ...], sign: int) -> tuple[tuple[int, int], ...]:
    return tuple((s, sign * n) for s, n in shares)


def _allocation(w: Work, r: Referendum, reading: TermsReading, act: TermsAct) -> tuple[tuple[int, int], ...]:
    """The points of an allocation card, checked: two or more Methuselahs in the game (others than
    the caller when the card says "other"), at least 1 point each, all the card's points."""
    if act.seat is not None or act.card is not None or not act.changes:
        raise IllegalMove("allocate the points: changes, [seat, points] pairs, and nothing else")
    points = reading.amount or len(w.in_game())
    shares = _shares(w, act.changes)
    if len(shares) < 2:
        raise IllegalMove("allocate the points among two or more Methuselahs")
    if reading.others and any(s == r.caller for s, _ in shares):
        raise IllegalMove("allocate the points among other Methuselahs than you")
    if sum(n for _, n in shares) != points:
        raise IllegalMove(f"allocate exactly {points} points")
    return shares


def _parity(w: Work, r: Referendum, act: TermsAct) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The richer Methuselah and the 3 pool shared out, checked: ``seat`` in the game with more
    pool than the caller; 3 points among one or more others than that Methuselah."""
    rich = act.seat
    if rich is None or act.card is not None or not act.changes:
        raise IllegalMove("choose a Methuselah (seat) and share out 3 of their pool (changes: [seat, points])")
    if rich not in w.in_game() or w.p(rich).pool <= w.p(r.caller).pool:
        raise IllegalMove(f"{seat_ref(rich)} has no more pool than you: choose a Methuselah who has more")
    shares = _shares(w, act.changes)
    if any(s == rich for s, _ in shares):
        raise IllegalMove(f"the pool goes to other Methuselahs than {seat_ref(rich)}")
    if sum(n for _, n in shares) != 3:
        raise IllegalMove("share out exactly 3 pool")
    return rich, shares


def _shares(w: Work, changes: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """``(seat, points)`` pairs, each seat in the game once, each at least 1 point."""
    seats = [s for s, _ in changes]
    if len(set(seats)) != len(seats):
        raise IllegalMove("name each Methuselah once")
    for s, n in changes:
        if s not in w.in_game():
            raise IllegalMove(f"seat {s} is not a Methuselah in the game")
        if n < 1:
            raise IllegalMove("each Methuselah named gets 1 point or more")
    return tuple(changes)


def _clan(act: TermsAct) -> str:
    """The clan chosen: a clan of the card database (rulebook, "Clans"), and nothing else."""
    if act.clan is None or act.changes is not None or act.seat is not None or act.card is not None:
        raise IllegalMove("choose the clan: clan, and nothing else")
    if act.clan not in clan_terms.clans():
        raise IllegalMove(f"{act.clan!r} is not a clan (a clan's name as the cards print it: Tremere, Banu Haqim)")
    return act.clan


def _banished(w: Work, r: Referendum, act: TermsAct) -> Pos:
    """The vampire chosen: a ready vampire younger than the acting one (lower capacity)."""
    target = act.card
    if target is None or act.changes is not None or act.seat is not None:
        raise IllegalMove("choose the ready younger vampire: card, and nothing else")
    if target not in w.cards:
        raise IllegalMove("there is no such card")
    c, info = w.cards[target], w.info(target)
    acting = w.info(r.minion) if r.minion else None
    if not c.crypt or c.zone != Zone.READY or info is None:
        raise IllegalMove(f"{w.name(target)} is not a ready vampire")
    if acting is None or info.capacity >= acting.capacity:
        raise IllegalMove(f"{w.name(target)} is not younger than the acting vampire (a lower capacity)")
    return target


def apply(w: Work, r: Referendum) -> None:
    """The passed referendum's terms, applied by the table (each change narrated with the card's
    name): pool counted now for each minion of the kind, the allocated pool, the banished vampire
    (if still ready) moved with its blood."""
    if r.table and card_actions.burn_terms(w, r.card) is not None:
        card_actions.burned_by_vote(w, r.card)
        return
    reading = reading_of(w, r)
    if reading is None:
        return
    name = w.name(r.card) if r.card else "the referendum"
    changes: list[tuple[int, int]] = []
    if reading.kind == TermsKind.EACH:
        for s in w.in_game():
            n = sum(1 for c in w.cards.values() if c.controller == s and _counted(w, c, reading))
            if n:
                changes.append((s, reading.amount * n))
    elif reading.kind == TermsKind.CLAN and r.clan:
        for s in w.in_game():
            n = sum(1 for c in w.cards.values() if c.controller == s and _of_clan(w, c, r.clan))
            if n:
                changes.append((s, reading.amount * n))
    elif reading.kind == TermsKind.PARITY and r.shares:
        (rich, burn), *gains = r.shares
        left = -w.pool_delta(rich, burn, name) if rich in w.in_game() else 0
        w.note(f"{name}: {seat_ref(rich)} burns {left} pool", rich)
        for s, n in gains:
            given = min(n, left)
            left -= given
            if given and s in w.in_game():
                w.pool_delta(s, given, name)
                w.note(f"{name}: {seat_ref(s)} gains {given} pool", s)
    else:
        changes = list(r.shares)
    for s, d in changes:
        if s in w.in_game():
            moved = w.pool_delta(s, d, name)
            w.note(f"{name}: {seat_ref(s)} {'gains' if moved >= 0 else 'burns'} {abs(moved)} pool", s)
    if r.banish and r.banish in w.cards and w.cards[r.banish].zone == Zone.READY:
        _banish(w, r.banish, name)


def _banish(w: Work, pos: Pos, name: str) -> None:
    """The vampire goes to its controller's uncontrolled region with its blood; the table keeps no
    card on an uncontrolled vampire, so the cards on it go to the ash heap (narrated)."""
    blood, seat = w.cards[pos].counters, w.cards[pos].controller
    carried = [p for p, c in w.cards.items() if c.zone == Zone.ON and c.on == pos]
    w.move(pos, Target.UNCONTROLLED)
    if blood:
        w.setc(pos, counters=blood)
    text = f"{name}: {w.name(pos)} moves to {seat_ref(seat)}'s uncontrolled region with its {blood} blood"
    if carried:
        text += "; the cards on it go to the ash heap (keep them on it by hand)"
    w.note(text, seat)


def _of_clan(w: Work, c: CardState, clan: str) -> bool:
    """``c`` is a vampire of ``clan`` its controller controls (ready or in torpor)."""
    info = w.info(c.pos)
    return info is not None and clan_terms.counted(clan, info.clan, c.crypt, c.zone)


def _counted(w: Work, c: CardState, reading: TermsReading) -> bool:
    """A card an :attr:`TermsKind.EACH` card counts for its controller (:meth:`TermsReading.counted`)."""
    info = w.info(c.pos)
    ally = info is not None and "Ally" in info.types and not c.crypt
    return reading.counted(c.crypt, ally, c.zone, c.locked, info.capacity if info is not None else 0)
