"""The VTES game object behind the interface of :mod:`engine.games.base` (DESIGN.md, "Games
behind one interface"; shared/rules/vtes.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    GameError,
    IllegalMove,
    Note,
    Op,
    Open,
    OptionError,
    OptionSpec,
    Pending,
    Pos,
    Result,
    Shuffle,
    parse_options,
    seat_ref,
)
from engine.games.vtes import deck_events, rules, scoring
from engine.games.vtes.act_records import (
    ActionAct,
    ActionEndAct,
    AdjustAct,
    BareAct,
    BlockAct,
    BurnAct,
    CombatAct,
    CombatCardAct,
    ContestAct,
    CounterAct,
    DeckAct,
    DiableriseAct,
    DiscardAct,
    DisputeAct,
    DisputeWhyAct,
    DrawAct,
    EdgeBurnAct,
    HandSizeAct,
    InfluenceAct,
    LockAct,
    MoveAct,
    PlayAct,
    PoolAct,
    PreventAct,
    ShuffleAct,
    StrikeAct,
    TermsAct,
    TransferAct,
    VoteAct,
    VtesAct,
)
from engine.games.vtes.actions import blockers
from engine.games.vtes.acts import esc, parse_act
from engine.games.vtes.cards import card_base
from engine.games.vtes.claims import may_dispute, window_held
from engine.games.vtes.combat import StrikeChoice
from engine.games.vtes.damage import strike_words
from engine.games.vtes.politics import cast_words, terms_template
from engine.games.vtes.readings import strength_of
from engine.games.vtes.spec import SPEC
from engine.games.vtes.state import (
    Answer,
    Combat,
    Methuselah,
    OpenWindow,
    Referendum,
    VtesState,
    format_vp,
    ruleset_of,
)
from engine.games.vtes.vocab import (
    ActionKind,
    CryptGroups,
    Do,
    Lift,
    News,
    Poll,
    Ruleset,
    Step,
    Target,
    TransferKind,
    Zone,
    action_phrase,
    step_words,
)
from engine.games.vtes.work import Work

if TYPE_CHECKING:
    from engine.games.vtes import view as views


class VtesGame:
    """Vampire: The Eternal Struggle, card-agnostic: the engine keeps the structure, players
    apply card texts through acts (see :mod:`engine.games.vtes` for the act vocabulary).

    States are :class:`~engine.games.vtes.state.VtesState`; views are
    :class:`~engine.games.vtes.view.VtesView`.
    """

    name = SPEC.name
    title = SPEC.title
    min_seats = SPEC.min_seats
    max_seats = SPEC.max_seats
    seat_facts = SPEC.seat_facts
    option_schema: tuple[OptionSpec, ...] = (
        OptionSpec(
            "library_size",
            bool,
            True,
            "check that every library holds 60 to 90 cards",
        ),
        OptionSpec(
            "ruleset",
            str,
            Ruleset.STANDARD.value,
            "standard, or tournament (4 or 5 seats; withdrawal 0.5 VP; time limit; Game wins)",
            choices=tuple(r.value for r in Ruleset),
        ),
        OptionSpec(
            "polling",
            str,
            "done",
            "done: polling closes when every Methuselah is done; 15s: also 15 s after the last vote",
            choices=("done", "15s"),
        ),
        OptionSpec(
            "crypt_groups",
            str,
            CryptGroups.TOURNAMENT.value,
            "check that a crypt holds one group or two consecutive groups (tournament: at tournament tables only)",
            choices=tuple(c.value for c in CryptGroups),
        ),
        OptionSpec(
            "cancels",
            str,
            "all",
            "which plays wait for the others' cancels as they are played: all (a master card, and a minion "
            "card played from the hand inside an action or a combat), or master (a master card only: "
            "minion cards apply at once and none may be canceled as played)",
            choices=("master", "all"),
            added=True,
        ),
        OptionSpec(
            "impulse_seconds",
            int,
            0,
            "seconds after which the Methuselah holding the impulse passes by itself (0: no impulse clock)",
            low=0,
            high=3600,
            added=True,
        ),
    )

    def setup(self, seats: int, options: Mapping[str, object]) -> VtesState:
        """The state before anything happened: every seat must first declare its deck sizes.

        Raises GameError for a seat count outside 2–6, OptionError for a bad option or a
        tournament table that does not seat 4 or 5 (rules, "Seating", "Precise readings").
        """
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            raise GameError(f"VTES is played by {self.min_seats} to {self.max_seats} Methuselahs, not {seats}")
        opts = parse_options(self.option_schema, options)
        if ruleset_of(opts) == Ruleset.TOURNAMENT and seats not in (4, 5):
            raise OptionError(f"a tournament table seats 4 or 5 Methuselahs, not {seats}")
        return VtesState(
            seats=seats,
            # The impulse clock is the seats' (their drivers pass on time): the rules never read it.
            options=tuple((k, v) for k, v in opts if k != "impulse_seconds"),
            players=tuple(Methuselah(seat=s) for s in range(seats)),
        )

    def pending(self, state: VtesState) -> Pending:
        """Queued table operations first; else the seats that may act: in play, the acting
        Methuselah first, then every other Methuselah in the game in seating order (any of them may
        record a change by hand). The table waits for (``awaited``) the holder of the innermost open
        window's impulse (shared/rules/vtes-actions.md P1; while polling, those not done), else the
        acting Methuselah. ``playing``: the Methuselahs in the game; ``position``: the turn, the
        phase and the open windows (a change by hand answers no window), or, with no window open,
        every act that plays the turn (``answers``: not a change by hand nor a claim's answer;
        PROTOCOL.md 6.5). While a claim made in a window holds it, the table waits for the touched
        Methuselahs' answers, and ``clock_until`` is the claim's due time: until then it lapses by
        itself rather than stalls (docs/vtes-by-hand.md)."""
        playing = state.in_game() if state.step == Step.PLAY else None
        if state.queue:
            return Pending(ops=state.queue, waiting=_waiting_ops(state.queue[0]), playing=playing)
        if state.step == Step.JOINING:
            missing = tuple(p.seat for p in state.players if not p.declared)
            return Pending(actors=missing, waiting="waiting for deck sizes")
        if state.step == Step.PLAY:
            order = state.in_game()
            i = order.index(state.acting)
            # A Methuselah out of the game may still dispute what ousted it (claims.may_dispute).
            out = tuple(p.seat for p in state.players if p.seat not in order and may_dispute(state, p.seat))
            actors = order[i:] + order[:i] + out
            top = state.innermost
            if top is not None:
                # Anyone may record by hand; the table waits for the innermost window's impulse
                # (vtes-actions.md P1), or, while polling, for those not done. Only what moves a
                # window (a pass, a play, a block, a strike, a vote) answers it.
                held = window_held(state.claims)
                return Pending(
                    actors=actors,
                    waiting=_window_words(state, top),
                    awaited=_awaited(state, top),
                    playing=playing,
                    position=(state.turn, state.phase, state.windows),
                    clock_until=held.due if held is not None else 0,
                )
            # No window: an act of the acting Methuselah that plays its turn answers; a change
            # by hand or a claim's answer does not (claims.ANSWERS_NOTHING).
            return Pending(
                actors=actors,
                waiting=f"{seat_ref(state.acting)}: {state.phase} phase",
                awaited=(state.acting,),
                playing=playing,
                position=(state.turn, state.phase, state.answers),
            )
        return Pending()

    def resolve(self, state: VtesState, op: Op, outcome: object) -> tuple[VtesState, tuple[Note, ...]]:
        """Fold the outcome of the first queued operation (see :func:`engine.games.vtes.deck_events.resolve_op`)."""
        return deck_events.resolve_op(state, op, outcome)

    def to_open(self, state: VtesState, seat: int, act: Act) -> tuple[Pos, ...]:
        """Positions ``act`` turns face up that ``seat`` opens with it (its own hand or
        uncontrolled cards). Raises MalformedAct for an act of the wrong shape, IllegalMove for a
        card it does not hold."""
        return rules.opens(state, seat, act)

    _checked: tuple[VtesState, int, Act, Mapping[Pos, str], int, tuple[VtesState, tuple[Note, ...]]] | None = None
    """The last act :meth:`check` ran and what it gave: :meth:`apply` of the very same state, act,
    cards and time (the same objects, as a table checks a move then folds it) returns it instead
    of running the rules again. States are frozen and :func:`rules.run_act` is a pure function."""

    def check(self, state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0) -> None:
        """Raise MalformedAct (the act's shape is wrong) or IllegalMove (the rules refuse it now),
        with a sentence, unless ``seat`` may make ``act`` now, at time ``at`` (the entry's signed
        time, ms: claims and the bound on changes by hand count it)."""
        self._checked = (state, seat, act, revealed, at, rules.run_act(state, seat, act, revealed, at))

    def apply(
        self, state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str], at: int = 0
    ) -> tuple[VtesState, tuple[Note, ...]]:
        """The state after a checked act, and its narration (ousts, VP, turns)."""
        last = self._checked  # one read: another thread's check may replace it meanwhile
        if (
            last is not None
            and last[0] is state
            and last[1] == seat
            and last[2] is act
            and last[3] is revealed
            and last[4] == at
        ):
            return last[5]
        return rules.run_act(state, seat, act, revealed, at)

    def view(self, state: VtesState, seat: int | None, known: Mapping[Pos, str]) -> views.VtesView:
        """What ``seat`` may know: see :func:`engine.games.vtes.view.build_view` (imported on
        first use: reading a log for its result builds no view)."""
        from engine.games.vtes import view as views

        return views.build_view(state, seat, known)

    def legal_acts(self, view: views.VtesView) -> list[Act]:
        """See :func:`engine.games.vtes.offers.legal_acts`."""
        from engine.games.vtes.offers import legal_acts

        return legal_acts(view)

    def describe(self, state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
        """The act in a player's words, e.g. ``"{s1}'s Theo Bell (G2) bleeds {s2} for 2"``."""
        return describe_act(state, seat, act, revealed)

    def result(self, state: VtesState) -> Result | None:
        """See :func:`engine.games.vtes.scoring.game_result`."""
        return scoring.game_result(state)

    def abandon(self, state: VtesState, seat: int) -> tuple[VtesState, tuple[Note, ...]]:
        """See :func:`engine.games.vtes.deck_events.abandon_seat`."""
        return deck_events.abandon_seat(state, seat)


def _awaited(state: VtesState, top: OpenWindow) -> tuple[int, ...]:
    """The seats the innermost window waits for: its impulse's holder; while polling, every
    Methuselah in the game not done (7.1); while a claim made in it holds it, those it touches
    who have not accepted it (docs/vtes-by-hand.md)."""
    held = window_held(state.claims)
    if held is not None:  # a claim made in the window: it waits for the touched ones' answers
        return tuple(s for s in held.seats if s not in held.accepted)
    if isinstance(top, Referendum) and top.step == Poll.VOTING:
        return tuple(s for s in state.in_game() if s not in top.done)
    return (top.loop.holder,) if top.loop.holder >= 0 else ()


def _window_words(state: VtesState, top: OpenWindow) -> str:
    """What the innermost window waits for, in words with seat placeholders."""
    held = window_held(state.claims)
    if held is not None:
        who = " and ".join(seat_ref(s) for s in held.seats if s not in held.accepted)
        return f"{who}: the answer to act {held.act}, a change by hand"
    who = seat_ref(top.loop.holder)
    match top:
        case Referendum() if top.step == Poll.VOTING:
            return "polling: votes and ballots"
        case Referendum():
            return f"{who}: the referendum"
        case Combat():
            return f"{who}: combat, {step_words(top.step)}"
        case Answer():
            return f"{who}: may cancel a card as it is played"
        case _:
            return f"{who} holds the impulse"


def _waiting_ops(op: Op) -> str:
    match op:
        case Shuffle():
            return "shuffling"
        case Open():
            return "opening cards"
        case EndEvent():
            return "revealing shuffle seeds"
        case Draw():
            return "drawing seats"
        case _:
            return "running card operations"


def _name(state: VtesState, pos: Pos | None, revealed: Mapping[Pos, str]) -> str:
    """The card at ``pos`` in words, as far as the table knows it (None: "a card")."""
    if pos is None:
        return "a card"
    card = next((c for c in state.cards if c.pos == pos), None)
    ident = revealed.get(pos) or (card.card if card else "")
    info = card_base().info(ident) if ident else None
    if info is not None:
        return esc(info.name)
    if card is not None and card.crypt:
        return "a face-down vampire"
    return "a card"


def _names(state: VtesState, cards: tuple[Pos, ...], revealed: Mapping[Pos, str]) -> str:
    names = [_name(state, p, revealed) for p in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_TARGET_WORDS: dict[Target, str] = {
    Target.READY: "the ready region",
    Target.TORPOR: "torpor",
    Target.ASH: "the ash heap",
    Target.REMOVED: "out of the game",
    Target.HAND: "hand",
    Target.LIBRARY: "the top of the library",
    Target.LIBRARY_BOTTOM: "the bottom of the library",
    Target.CRYPT: "the top of the crypt",
    Target.CRYPT_BOTTOM: "the bottom of the crypt",
    Target.UNCONTROLLED: "the uncontrolled region",
}


def _zone_words(to: Target) -> str:
    """Where an act's ``to`` sends cards, in words."""
    return _TARGET_WORDS.get(to, str(to))


MAX_MALFORMED = 300
"""The most characters of a malformed act's name and of what is wrong with it a narration
quotes (a log's bad map may hold a long text)."""


def describe_act(state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
    """The act in a player's words (a Note with ``{sN}`` placeholders for seat names), read from
    its record (:func:`~engine.games.vtes.acts.parse_act`). Never raises: an act whose map does
    not parse (a log's bad map) is narrated as such, naming its ``do`` and what is wrong."""
    try:
        record = parse_act(act)
    except GameError as err:
        return _malformed_words(seat, act, err)
    return describe_record(state, seat, record, revealed)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_MALFORMED else text[: MAX_MALFORMED - 1] + "…"


def _malformed_words(seat: int, act: object, err: GameError) -> Note:
    """One sentence for an act that does not parse: its ``do`` (when it names one) and the
    MalformedAct's sentence."""
    raw = act.get("do") if isinstance(act, dict) else None
    name = f"{esc(_clip(raw))} act" if isinstance(raw, str) and raw else "act"
    return Note(f"{seat_ref(seat)} makes a malformed {name}: {esc(_clip(str(err)))}", (seat,))


def _vote_words(
    state: VtesState, seat: int, record: VoteAct, revealed: Mapping[Pos, str], n: Callable[[Pos | None], str]
) -> str:
    """A vote in the words its referendum's narration uses, with the tally it leaves
    (:func:`~engine.games.vtes.politics.cast_words`); with no referendum polling (an act being
    written, a refused one), the act alone: ``"{s1} votes for (title: Ingrid Rossler (G2))"``."""
    w = Work(state, seat, record.do)
    w.revealed = revealed
    try:
        return cast_words(w, record)
    except (GameError, KeyError):  # no referendum polling, or a card no longer where the act names it
        pass
    side = "for" if record.for_ is None or record.for_ else "against"
    source = esc(str(record.source))
    what = n(record.card) if record.card is not None else ("the Edge" if source == "edge" else "the calling card")
    return f"{seat_ref(seat)} votes {side} ({source}: {what})"


def describe_record(state: VtesState, seat: int, record: VtesAct, revealed: Mapping[Pos, str]) -> Note:
    """The parsed act ``record`` of ``seat`` in a player's words (a Note naming the seats it
    touches)."""
    me = seat_ref(seat)
    do = record.do

    def n(pos: Pos | None) -> str:
        return _name(state, pos, revealed)

    seats: tuple[int, ...] = (seat,)
    match record:
        case DeckAct():
            text = f"{me} brings a crypt of {record.crypt} and a library of {record.library} cards"
        case BareAct():
            text = _bare_words(state, seat, do)
        case EdgeBurnAct():
            text = f"{me} burns the Edge for {n(record.by)}"
        case DrawAct():
            k = 1 if record.n is None else record.n
            text = f"{me} draws {k} card{'s' if k != 1 else ''}"
        case PlayAct():
            text = _play_words(me, record, n)
        case DiscardAct():
            text = f"{me} discards {n(record.card)}"
        case MoveAct():
            where = f"on {n(record.on)}" if record.to == Target.ON else f"to {_zone_words(record.to)}"
            text = f"{me} moves {_names(state, record.cards, revealed)} {where}"
        case BurnAct():
            text = f"{me} burns {_names(state, record.cards, revealed)}"
        case LockAct():
            text = f"{me} {do}s {_names(state, record.cards, revealed)}"
        case CounterAct():
            sign = "+" if record.delta > 0 else ""
            text = f"{me}: {n(record.card)} {sign}{record.delta} {do} ({esc(record.cause)})"
        case PoolAct():
            text, seats = _pool_words(seat, record)
        case ActionAct():
            text, seats = _announce_words(state, seat, record, revealed)
        case BlockAct():
            text = f"{me} attempts to block with {n(record.minion)}"
            action = state.open_action
            if action is not None:
                text += f" (intercept {record.intercept or 0} against stealth {action.stealth})"
        case AdjustAct():
            source = n(record.by) if record.by is not None else esc(record.cause or "")
            text = f"{me}: {_numbers_words(record)} ({source})"
        case ActionEndAct():
            text = f"{me}: {n(record.by)} ends the action"
        case DisputeAct():
            verb = {Do.DISPUTE: "disputes", Do.ACCEPT: "accepts", Do.RETRACT: "retracts"}.get(do)
            text = f"{me} {verb} act {record.act}" if verb else f"{me}: act {record.act}'s time has run out"
            if isinstance(record, DisputeWhyAct) and record.why:
                text += f": {esc(record.why)}"
        case DiableriseAct():
            text = f"{me} diablerises"
        case CombatCardAct():
            text = f"{me}: {n(record.minion)} {'maneuvers' if do == Do.MANEUVER else 'presses'}"
        case StrikeAct():
            held = next((c.card for c in state.cards if c.pos == record.minion), "")
            text = _strike_words(me, record, n, strength_of(held or revealed.get(record.minion or (-1, -1), "")))
        case PreventAct():
            text = f"{me}: {n(record.minion)} prevents damage"
        case TermsAct() if record.changes is not None or record.seat is not None or record.card is not None:
            text = f"{me} chooses the terms"  # the table words them (engine.games.vtes.referendum_terms)
        case TermsAct():
            text = f"{me} sets the terms: {terms_template(record.text[:120])}"
        case VoteAct():
            text = _vote_words(state, seat, record, revealed, n)
        case CombatAct():
            text = f"{_names(state, record.minions, revealed)} enter combat"
        case InfluenceAct():
            text = f"{me} influences out {n(record.card)}"
        case ContestAct():
            verb = "pays to keep contesting" if do == Do.CONTEST else "yields"
            text = f"{me} {verb} {n(record.card)}"
        case TransferAct():
            k = 1 if record.n is None else record.n
            if record.kind == TransferKind.POOL:
                text = f"{me} transfers {k} pool to {n(record.card)}"
            elif record.kind == TransferKind.BLOOD:
                text = f"{me} moves {k} blood from {n(record.card)} back to pool"
            else:
                text = f"{me} moves the top card of the crypt to the uncontrolled region (4 transfers and 1 pool)"
            if record.by is not None:
                text += f" with {n(record.by)}"
        case HandSizeAct():
            who = seat_ref(seat if record.seat is None else record.seat)
            text = f"{me} changes {who}'s hand size by {record.delta}"
        case ShuffleAct():
            who = seat_ref(seat if record.seat is None else record.seat)
            text = f"{me} shuffles {who}'s {record.zone}"
    lift: Lift | None = getattr(record, "lift", None)
    by: Pos | None = getattr(record, "by", None)
    if lift is not None:
        text += f", setting aside the {lift} rule by {n(by)}"
    elif by is not None and not isinstance(record, (ActionEndAct, AdjustAct, EdgeBurnAct)):
        text += f" (by {n(by)})"
    news = ""
    if isinstance(record, BareAct) and do == Do.PASS:
        news = News.PASSED_NO_BLOCK if _declines_block(state, seat) else News.PASSED
    elif isinstance(record, BareAct) and do == Do.DONE:
        news = News.DONE_VOTING
    return Note(text, seats, news)


def _bare_words(state: VtesState, seat: int, do: Do) -> str:
    """An act with no field in words."""
    me = seat_ref(seat)
    match do:
        case Do.PHASE:
            return f"{me} ends the {state.phase} phase"
        case Do.END_TURN:
            return f"{me} ends the turn"
        case Do.EDGE:
            return f"{me} gains 1 pool from the Edge"
        case Do.PASS:
            return f"{me} passes" + (" and declines to block" if _declines_block(state, seat) else "")
        case Do.DONE:
            return f"{me} is done voting"
        case Do.WITHDRAW:
            return f"{me} announces withdrawal"
        case Do.TIME:
            return f"{me} calls time"
    return f"{me}: {do}"  # every act of BareAct is named above


def _declines_block(state: VtesState, seat: int) -> bool:
    """Whether ``seat``'s pass now declines to block the open action (6.2): it may block it and
    has a ready unlocked minion to block with (a seat that has none passes, as the action box says
    that nobody may block)."""
    action = state.open_action
    if action is None or action.window != "A" or seat in action.declined or seat not in _blockers(state):
        return False
    for c in state.cards:
        if c.controller == seat and c.zone == Zone.READY and not c.locked:
            info = card_base().info(c.card) if c.card else None
            if c.crypt or (info is not None and "Ally" in info.types):
                return True
    return False


def _play_words(me: str, record: PlayAct, n: Callable[[Pos | None], str]) -> str:
    """A ``play`` in words: the card, where it goes, its cost, what it changes."""
    text = f"{me} plays {n(record.card)}"
    to = record.to or Target.ASH
    if to == Target.ON:
        text += f" on {n(record.on)}"
    elif to != Target.ASH:
        text += f" to {_zone_words(to)}"
    costs = []
    if record.pool:
        costs.append(f"{record.pool} pool")
    if record.blood:
        costs.append(f"{record.blood} blood from {n(record.minion)}")
    if costs:
        text += ", paying " + " and ".join(costs)
    if record.bleed_mod:
        text += " (+bleed)"
    if record.fail_block:
        text += " (the block attempt fails)"
    if record.lock_failed:
        text += " (failed blockers lock)"
    if record.bar is not None:
        text += f" ({n(record.bar)} cannot block)"
    if record.bar_vampires:
        text += " (vampires cannot block)"
    if record.end_action:
        text += " (the action ends)"
    if record.wake_cost:
        text += f" (burns {record.wake_cost} blood unless it blocks)"
    numbers = _numbers_words(record)
    if numbers:
        text += f": {numbers}"
    return text


def _pool_words(seat: int, record: PoolAct) -> tuple[str, tuple[int, ...]]:
    """A ``pool`` change in words, and the seats it touches (the author's first)."""
    changes = record.changes or ((seat if record.seat is None else record.seat, record.delta or 0),)
    seats: tuple[int, ...] = (seat,)
    parts = []
    for target, delta in changes:
        sign = "+" if delta > 0 else ""
        parts.append(f"{seat_ref(target)} {sign}{delta} pool")
        if target not in seats:
            seats = seats + (target,)
    return f"{seat_ref(seat)}: {', '.join(parts)} ({esc(record.cause)})", seats


def _strike_words(me: str, record: StrikeAct, n: Callable[[Pos | None], str], strength: int) -> str:
    """A ``strike`` in words: the strike it chooses (as far as its numbers are in range); a hand
    strike with the minion's printed ``strength``, the damage the table deals (5.4)."""
    text = f"{me}: {n(record.minion)} strikes"
    try:
        choice = StrikeChoice.of(record, (0, 0))
    except GameError:
        return text
    s = replace(choice.strike, damage=strength) if choice.strike.hand else choice.strike
    played = f" with {n(record.card)}" if record.card is not None else ""
    text += f"{played}: {strike_words(s)}"
    if choice.additional:
        text += f", {choice.additional} additional strike{'s' if choice.additional != 1 else ''}"
    return text


def _blockers(state: VtesState) -> tuple[int, ...]:
    return blockers(state.open_action, state.in_game()) if state.open_action is not None else ()


def _announce_words(
    state: VtesState, seat: int, record: ActionAct, revealed: Mapping[Pos, str]
) -> tuple[str, tuple[int, ...]]:
    """An ``action`` announcement in words: who acts with whom, at what."""
    target = state.prey(seat) if record.target is None and record.kind == ActionKind.BLEED else record.target
    named = [target] if isinstance(target, int) and target >= 0 else []
    text = action_phrase(
        record.kind,
        f"{seat_ref(seat)}'s",
        _name(state, record.minion, revealed),
        [seat_ref(s) for s in named],
        target_card=None if record.target_card is None else _name(state, record.target_card, revealed),
        amount=(1 if record.amount is None else record.amount) if record.kind == ActionKind.BLEED else record.amount,
        card=None if record.card is None else _name(state, record.card, revealed),
    )
    costs = (
        ("stealth", record.stealth),
        ("cost blood", record.cost_blood),
        ("cost pool", record.cost_pool),
        ("cost rescued", record.cost_rescued),
    )
    extras = [f"{word} {value}" for word, value in costs if value is not None]
    if extras:
        text += f" ({', '.join(extras)})"
    return text, (seat, *named)


def _numbers_words(record: PlayAct | AdjustAct) -> str:
    """The action numbers a ``play`` or ``adjust`` changes, in words (``stealth +1, bleed +1``)."""
    parts = []
    for word, value in (("stealth", record.stealth), ("intercept", record.intercept), ("amount", record.amount)):
        if value:
            parts.append(f"{word} {value:+d}")
    if record.target is not None:
        parts.append(f"new target {seat_ref(record.target)}")
    return ", ".join(parts)


VTES = VtesGame()
"""The VTES game module object (name ``"vtes"``)."""

__all__ = ["VTES", "IllegalMove", "VtesGame", "describe_act", "describe_record", "format_vp"]
