"""Referendums and the blood hunt (shared/rules/vtes-actions.md 6.4, 7 and reading P7).

A successful political action opens a referendum: the acting Methuselah records its terms; the
cards usable "before votes and ballots are cast" come in an impulse loop (P1); then everyone casts
votes, in any order, from the sources they hold (:class:`~engine.games.vtes.vocab.VoteSource`),
and says ``done``; polling closes when every Methuselah in the game has said ``done`` since the
last vote. More votes for than against pass it; the players apply its terms, except a blood hunt's,
which the engine applies (the diablerist burns).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.games.base import IllegalMove, MalformedAct, Pos, seat_ref
from engine.games.vtes import contests, referendum_terms, windows, x_votes
from engine.games.vtes.act_records import PlayAct, TermsAct, VoteAct
from engine.games.vtes.acts import esc, within
from engine.games.vtes.card_record import record
from engine.games.vtes.claims import own_source
from engine.games.vtes.state import OpenWindow, Referendum, Vote, clockwise_after
from engine.games.vtes.vocab import ActionKind, News, Poll, Status, Target, VoteSource, Zone
from engine.games.vtes.work import Work

TITLE_VOTES: dict[str, int] = {
    "primogen": 1,
    "prince": 2,
    "baron": 2,
    "justicar": 3,
    "inner circle": 4,
    "bishop": 1,
    "archbishop": 2,
    "cardinal": 3,
    "regent": 4,
    "priscus": 0,
    "kholo": 2,
    "magaji": 2,
}
"""Votes per printed title (7.2); a priscus casts a ballot instead (``ballot``: the prisci's 3
votes go to the majority of ballots)."""

_TERMS_MAX = 200
_VOTES_RE = re.compile(r"^(\d+) votes?$")
_SEAT_RE = re.compile(r"(\{s[0-5]\})")


def terms_template(text: str) -> str:
    """Referendum terms as a Note template: ``{s0}``…``{s5}`` name seats (a bot's terms name the
    Methuselahs so), every other brace is text."""
    return "".join(part if _SEAT_RE.fullmatch(part) else esc(part) for part in _SEAT_RE.split(text))


def title_votes(title: str) -> int:
    """The votes a printed title gives (7.2; an independent's "2 votes" as printed), 0 if none."""
    key = " ".join(title.lower().split())
    match = _VOTES_RE.match(key)
    if match:
        return int(match.group(1))
    return TITLE_VOTES.get(key, 0)


def printed_title(w: Work, pos: Pos) -> str:
    """The title printed on a vampire card (krcg), or ""."""
    info = w.info(pos)
    return "" if info is None else info.title


def poll_order(caller: int, in_game: Sequence[int]) -> tuple[int, ...]:
    """The impulse order before votes (P1, P7): the caller, its prey, its predator, then every
    other Methuselah clockwise from the caller's left."""
    if caller not in in_game:
        return tuple(in_game)
    rest = clockwise_after(caller, in_game)
    prey, predator = (rest[0], rest[-1]) if rest else (caller, caller)
    return tuple(dict.fromkeys((caller, prey, predator, *rest)))


# --- opening --------------------------------------------------------------------------------------


def open_referendum(w: Work, caller: int, minion: Pos, card: Pos | tuple[()]) -> None:
    """A successful political action (P4): the acting Methuselah records the terms first."""
    windows.put(w, Referendum(caller=caller, minion=minion, card=card, step=Poll.TERMS, loop=windows.only(caller)))
    w.referendums += 1
    w.note(f"A referendum: {seat_ref(caller)} records its terms", caller)


def open_blood_hunt(w: Work, diablerist: Pos) -> None:
    """6.4: a blood hunt follows a diablerie at once; no calling card, no blocks; the impulse
    starts with the Methuselah whose turn it is (reading, P7)."""
    name = w.name(diablerist)
    hunt = Referendum(
        caller=w.acting,
        hunted=diablerist,
        terms=f"Blood hunt: {name} burns",
        step=Poll.BEFORE,
        loop=windows.loop(poll_order(w.acting, w.in_game()), w.in_game()),
    )
    windows.put(w, hunt)
    w.referendums += 1
    w.note(f"A blood hunt is called on {name}: if it passes, {name} burns", w.cards[diablerist].controller)


def _open(w: Work) -> Referendum:
    r = w.open_referendum
    if r is None:
        raise IllegalMove("there is no referendum under way")
    return r


# --- the steps ------------------------------------------------------------------------------------


def terms(w: Work, act: TermsAct) -> None:
    """The acting Methuselah records the terms (7.1 step 1)."""
    r = _open(w)
    if r.step != Poll.TERMS:
        raise IllegalMove("the terms are recorded once, before polling")
    if w.author != r.caller:
        raise IllegalMove(f"{seat_ref(r.caller)}, who called the referendum, records its terms")
    text = act.text
    if not text.strip() or len(text) > _TERMS_MAX:
        raise MalformedAct(f"the terms are a text of 1 to {_TERMS_MAX} characters")
    chosen = referendum_terms.chosen(w, r, act)
    windows.put(w, replace(chosen, step=Poll.BEFORE, loop=windows.loop(poll_order(r.caller, w.in_game()), w.in_game())))
    if chosen.table:
        w.note(f"The terms, applied by the table if it passes: {terms_template(chosen.terms)}", r.caller)


def _may_pass(w: Work, window: OpenWindow) -> None:
    """Only the step before votes is a loop: the terms are recorded, polling is answered with
    ``done`` (7.1)."""
    assert isinstance(window, Referendum)
    if window.step == Poll.TERMS:
        raise IllegalMove(_terms_first(w, window.caller))
    if window.step == Poll.VOTING:
        raise IllegalMove("polling is open: cast your votes, then say you are done")


def _open_polling(w: Work, window: OpenWindow) -> None:
    """Every Methuselah passed before votes: polling opens (7.1 step 2)."""
    assert isinstance(window, Referendum)
    windows.put(w, replace(window, step=Poll.VOTING, loop=windows.NOBODY, done=()))
    w.note("Polling is open: cast your votes (for or against), then say you are done", news=News.POLLING_OPENED)


BLOOD_HUNT_BARS = frozenset({"Action Modifier", "Reaction"})
"""Card types never played in a blood hunt referendum (rulebook, "The Blood Hunt")."""


def play_before_votes(w: Work, types: frozenset[str] | set[str] = frozenset(), name: str = "that card") -> None:
    """A card played during a referendum: before votes, on one's impulse, returning it to the
    caller; while polling, by anyone. ``types``: the card's types; in a blood hunt no action
    modifier nor reaction (rulebook, "The Blood Hunt": "This referendum is not an action, so it
    cannot be blocked, and action modifiers and reaction cards cannot be played")."""
    r = _open(w)
    if r.hunted and types & BLOOD_HUNT_BARS:
        raise IllegalMove(
            f"{name} cannot be played: a blood hunt referendum is not an action, so action modifiers and "
            'reaction cards cannot be played (rulebook, "The Blood Hunt")'
        )
    if r.step == Poll.BEFORE:
        w.must_hold_impulse(r.impulse, "play")
        windows.put(w, windows.returned(r, w.in_game()))
    elif r.step == Poll.TERMS:
        raise IllegalMove(_terms_first(w, r.caller))


def _terms_first(w: Work, caller: int) -> str:
    """Why nothing else is done while the referendum's terms are not recorded (P7)."""
    if w.author == caller:
        return "record the referendum's terms first (the terms act: what passing it does, in your words)"
    return f"{seat_ref(caller)} records the referendum's terms first"


@dataclass(frozen=True)
class Ballot:
    """A ``vote`` act parsed (P7): ``source``; ``ref``: the card or vampire it comes from (None:
    the Edge, or the calling card); ``count``: None for the source's default; ``side``."""

    source: VoteSource
    ref: Pos | None
    count: int | None
    side: bool

    @classmethod
    def of(cls, act: VoteAct) -> Ballot:
        """The ballot of a ``vote`` act. Raises IllegalMove for a count out of range."""
        return cls(
            source=act.source,
            ref=act.card,
            count=within(act.do, "count", act.count, low=1, high=30) if act.count is not None else None,
            side=act.for_ is not False,
        )


def vote(w: Work, act: VoteAct) -> None:
    """Cast votes from one source, all one way (7.2–7.3, P7). Refused outside polling, for a
    source cast already, a vampire not ready, a second political-action-card vote (the calling
    card counts), the Edge burned by a non-holder. The act's own line (:func:`cast_words`) is its
    narration: nothing more is noted."""
    r = _open(w)
    if r.step != Poll.VOTING:
        raise IllegalMove("votes are cast during polling, which has not begun")
    b = Ballot.of(act)
    mine = [v for v in r.votes if v.seat == w.author]
    match b.source:
        case VoteSource.CALLING:
            if r.hunted:
                raise IllegalMove("a blood hunt has no calling card: vote from a title, the Edge or a card (6.4)")
            if not r.card or w.author != r.caller:
                raise IllegalMove("the calling card's vote belongs to the Methuselah whose vampire called it")
            if any(v.source in (VoteSource.CALLING, VoteSource.CARD) for v in mine):
                raise IllegalMove("you already have your vote from a political action card: at most 1 (7.2)")
        case VoteSource.CARD:
            if b.ref is None:
                raise MalformedAct("a vote from a political action card names the card")
            card = w.card(b.ref)
            if card.zone != Zone.HAND or card.owner != w.author:
                raise IllegalMove("that card is not in your hand")
            info = w.info(b.ref)
            if info is not None and "Political Action" not in info.types:
                raise IllegalMove(f"{esc(info.name)} is not a political action card")
            if any(v.source in (VoteSource.CALLING, VoteSource.CARD) for v in mine):
                raise IllegalMove("you already have your vote from a political action card: at most 1 (7.2)")
            w.move(b.ref, Target.ASH)
            w.refill(w.author)
        case VoteSource.TITLE:
            if b.ref is None:
                raise MalformedAct("a title's votes name the titled vampire")
            _check_ready_vampire(w, b.ref)
            if not _cast(w, b, r)[0]:
                raise IllegalMove(
                    f"{w.name(b.ref)} has no printed title: give its votes from the card that grants them"
                )
        case VoteSource.BALLOT:
            if b.ref is None:
                raise MalformedAct("a ballot names the priscus casting it")
            if b.count is not None:
                raise IllegalMove("a priscus casts one ballot: the prisci's 3 votes go to the majority (7.2)")
            _check_ready_vampire(w, b.ref)
            if " ".join(printed_title(w, b.ref).lower().split()) != "priscus":
                raise IllegalMove(f"{w.name(b.ref)} is not a priscus: only prisci cast ballots (7.2)")
        case VoteSource.EDGE:
            if w.edge != w.author:
                raise IllegalMove("only the holder of the Edge may burn it for a vote")
            w.edge = -1
        case VoteSource.OTHER:
            if b.ref is None or b.count is None:
                raise MalformedAct("votes from another card name the card and the count")
            own_source(w, b.ref, "the card that gives votes")
    count, ref = _cast(w, b, r)
    if ref and any(v.ref == ref for v in r.votes):
        raise IllegalMove(f"{w.name(ref)}'s votes are cast already: a source votes once, all one way (7.3)")
    windows.put(w, replace(r, votes=(*r.votes, Vote(w.author, b.source, ref, count, b.side)), done=()))


def _cast(w: Work, b: Ballot, r: Referendum) -> tuple[int, Pos | tuple[()]]:
    """The votes ``b`` casts and the card they come from (``()``: the Edge), read without a check
    (7.2): the calling card's, a political action card's, a ballot's and the Edge's 1; a title's
    printed votes unless a count is given; another card's count."""
    match b.source:
        case VoteSource.CALLING:
            return 1, r.card
        case VoteSource.TITLE:
            assert b.ref is not None
            return (b.count if b.count is not None else title_votes(printed_title(w, b.ref))), b.ref
        case VoteSource.EDGE:
            return 1, ()
        case VoteSource.OTHER:
            assert b.ref is not None and b.count is not None
            return b.count, b.ref
        case _:
            assert b.ref is not None
            return 1, b.ref


def cast_words(w: Work, act: VoteAct) -> str:
    """A ``vote`` act of ``w``'s author in a player's words, with the tally it leaves (7.3):
    ``"{s1} casts 2 votes for (title: Ingrid Rossler (G2)); for 3, against 0"`` (a ballot also
    counts the prisci's ballots). ``w``: the state before the vote. Raises GameError (an
    IllegalMove) when no referendum is polling or the act names no source it could cast."""
    r = _open(w)
    b = Ballot.of(act)
    if b.ref is None and b.source not in (VoteSource.CALLING, VoteSource.EDGE):
        raise MalformedAct("the vote names no card")
    if b.source == VoteSource.OTHER and b.count is None:
        raise MalformedAct("votes from another card name the count")
    if b.source == VoteSource.CALLING and not r.card:
        raise IllegalMove("a blood hunt has no calling card")
    count, ref = _cast(w, b, r)
    r = replace(r, votes=(*r.votes, Vote(w.author, b.source, ref, count, b.side)))
    what = w.name(ref) if ref else "the Edge"
    side = "for" if b.side else "against"
    cast = "a ballot" if b.source == VoteSource.BALLOT else f"{count} vote{'s' if count != 1 else ''}"
    prisci = f"; ballots {r.ballots(True)} for, {r.ballots(False)} against" if b.source == VoteSource.BALLOT else ""
    return (
        f"{seat_ref(w.author)} casts {cast} {side} ({b.source}: {what}){prisci}; "
        f"for {r.total(True)}, against {r.total(False)}"
    )


def card_votes(w: Work, pos: Pos, act: PlayAct, name: str) -> None:
    """A card played while polling that gives its vampire votes ("this vampire gets +2 votes";
    7.2): ``act.votes`` votes of the source "other", the card at ``pos``, cast by its player for
    (``act.for_`` None or true) or against, by ``act.minion``, a ready vampire of theirs (the
    acting vampire for an action modifier: :func:`engine.games.vtes.plays.check_play`). Raises
    IllegalMove outside polling, for no vampire, or a count outside 1–30."""
    r = _open(w)
    if r.step != Poll.VOTING:
        raise IllegalMove(f"{name} gives votes during polling, which has not begun")
    count = within(act.do, "votes", act.votes, low=1, high=30)
    if act.minion is None:
        raise IllegalMove(f"{name} gives votes to the vampire that plays it: name it (minion)")
    _check_vampire_votes(w, act.minion)
    info, who = w.info(pos), w.info(act.minion)
    rec = record(info.id) if info is not None else None
    if rec is not None and who is not None:  # votes by the blood paid (Awe): no more than X gives
        levels = [c.effects for c in rec.clauses_for(frozenset(who.disciplines))]
        x_votes.check(name, levels, count, act.blood or 0)
    side = act.for_ is not False
    r = replace(r, votes=(*r.votes, Vote(w.author, VoteSource.OTHER, pos, count, side)), done=())
    windows.put(w, r)
    w.note(
        f"{name}: {w.name(act.minion)} casts {count} vote{'s' if count != 1 else ''} {'for' if side else 'against'}; "
        f"for {r.total(True)}, against {r.total(False)}",
        w.author,
    )


def _check_vampire_votes(w: Work, pos: Pos) -> None:
    """A vampire that casts votes: a ready vampire the author controls, in play (7.3)."""
    vampire = w.card(pos)
    if vampire.zone == Zone.CONTESTED:
        raise IllegalMove(contests.OUT_OF_PLAY.format(name=w.name(pos)))
    if vampire.controller != w.author or not vampire.crypt or not vampire.zone.in_play:
        raise IllegalMove(f"{w.name(pos)} is not a vampire you control")
    if vampire.zone != Zone.READY:
        raise IllegalMove(f"{w.name(pos)} is in torpor: it abstains (7.3)")


def _check_ready_vampire(w: Work, pos: Pos) -> None:
    """A title's votes or a priscus's ballot: a ready vampire of the author's whose title is neither
    contested nor yielded (7.3; rulebook, "Contested Titles")."""
    _check_vampire_votes(w, pos)
    if pos in w.contests.yielded:
        raise IllegalMove(f"{w.name(pos)} yielded its title: it gives no votes. {contests.TITLE_YIELDED}")
    if not contests.has_title(w.contests, pos):
        raise IllegalMove(f"{w.name(pos)}'s title is contested: it gives no votes. {contests.TITLE}")


def done(w: Work) -> None:
    """A Methuselah is done voting; once every Methuselah in the game is, since the last vote,
    polling closes and the referendum resolves (7.1 step 3)."""
    r = _open(w)
    if r.step != Poll.VOTING:
        raise IllegalMove("polling has not begun: pass instead")
    if w.author in r.done:
        raise IllegalMove("you are done already: the others may still vote")
    r = replace(r, done=(*r.done, w.author))
    windows.put(w, r)
    if all(s in r.done for s in w.in_game()):
        _resolve(w, r)


def _resolve(w: Work, r: Referendum) -> None:
    windows.pop(w, r)
    yes, no = r.total(True), r.total(False)
    passed = yes > no
    outcome = "passes" if passed else ("fails: a tie" if yes == no else "fails")
    w.note(
        f"The referendum {outcome}, {yes} for and {no} against: {terms_template(r.terms)}",
        r.caller,
        news=News.REFERENDUM_RESOLVED,
    )
    title_card_after(w, r, passed)
    if passed and not r.hunted and w.done and w.done[-1].kind == ActionKind.POLITICAL:
        w.done = (*w.done[:-1], replace(w.done[-1], passed_by=yes - no))  # the action's referendum
    if passed and r.hunted and r.hunted in w.cards and w.cards[r.hunted].zone.in_play:
        w.note(f"{w.name(r.hunted)} is burned by the blood hunt", w.cards[r.hunted].controller)
        w.move(r.hunted, Target.ASH)
    elif passed and r.table:
        referendum_terms.apply(w, r)
    elif passed and not r.hunted:
        w.note("Apply its terms by hand", r.caller)
    if w.time_called:
        w.end_by_time()


def title_card_after(w: Work, r: Referendum, passed: bool) -> None:
    """The calling card kept aside through its referendum (one that goes on a vampire "if this
    referendum is successful": a title, :func:`engine.games.vtes.action_success._card_after`):
    burned when the referendum fails (rulebook, "Political Actions"); when it passes, left aside
    for the caller to put on the vampire its terms chose, by hand."""
    if not r.card or r.card not in w.cards or w.cards[r.card].zone != Zone.ASIDE:
        return
    if passed:
        w.note(f"Put {w.name(r.card)} on the vampire its terms chose (move it by hand)", r.caller)
    else:
        w.move(r.card, Target.ASH)
        w.note(f"{w.name(r.card)} goes to the ash heap: its referendum failed", r.caller)


def settle_poll(w: Work) -> None:
    """After any act: a referendum whose caller left the game fails (a seat gone casts no vote,
    and the terms it called for have nobody to apply them); polling closes when the Methuselahs
    still in the game are all done (an impulse held by a Methuselah who left moves on in
    :func:`windows.settle`)."""
    r = w.open_referendum
    if r is None:
        return
    if w.p(r.caller).status != Status.IN:
        _caller_left(w, r)
    elif r.step == Poll.VOTING and all(s in r.done for s in w.in_game()):
        _resolve(w, r)


def _caller_left(w: Work, window: OpenWindow) -> None:
    """The Methuselah who called the referendum left the game: the referendum fails (7.3)."""
    assert isinstance(window, Referendum)
    windows.pop(w, window)
    w.note(
        f"{seat_ref(window.caller)} called the referendum and has left the game: the referendum fails", window.caller
    )
    title_card_after(w, window, False)
    if w.time_called:
        w.end_by_time()


windows.register(
    Referendum, windows.Kind(close=_open_polling, may_pass=_may_pass, left=_caller_left, upkeep=settle_poll)
)
