"""The VTES game object behind the interface of :mod:`engine.games.base` (DESIGN.md, "Games
behind one interface"; shared/rules/vtes.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.games.base import (
    Act,
    Draw,
    EndEvent,
    GameError,
    IllegalMove,
    MalformedAct,
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
from engine.games.vtes import rules, scoring
from engine.games.vtes.act_records import StrikeAct
from engine.games.vtes.actions import blockers
from engine.games.vtes.acts import act_name, esc, parse_act
from engine.games.vtes.cards import card_base
from engine.games.vtes.combat import StrikeChoice, step_words, strike_words
from engine.games.vtes.politics import terms_template
from engine.games.vtes.spec import SPEC
from engine.games.vtes.state import Methuselah, VtesState, format_vp, ruleset_of
from engine.games.vtes.vocab import (
    ACTION_VERBS,
    ActionKind,
    CryptGroups,
    Do,
    Poll,
    Ruleset,
    Step,
    Target,
    TransferKind,
)

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
            options=opts,
            players=tuple(Methuselah(seat=s) for s in range(seats)),
        )

    def pending(self, state: VtesState) -> Pending:
        """Queued table operations first; else the seats that may act: in play, the acting
        Methuselah first, then every other Methuselah in the game in seating order (any of them may
        record a change by hand). The table waits for (``awaited``) the holder of the impulse in an
        open action (shared/rules/vtes-actions.md P1), else the acting Methuselah."""
        if state.queue:
            return Pending(ops=state.queue, waiting=_waiting_ops(state.queue[0]))
        if state.step == Step.JOINING:
            missing = tuple(p.seat for p in state.players if not p.declared)
            return Pending(actors=missing, waiting="waiting for deck sizes")
        if state.step == Step.PLAY:
            order = state.in_game()
            i = order.index(state.acting)
            actors = order[i:] + order[:i]
            referendum = state.open_referendum
            if referendum is not None:
                if referendum.step == Poll.VOTING:
                    left = tuple(s for s in order if s not in referendum.done)
                    return Pending(actors=actors, waiting="polling: votes and ballots", awaited=left)
                who = seat_ref(referendum.impulse)
                return Pending(actors=actors, waiting=f"{who}: the referendum", awaited=(referendum.impulse,))
            fight = state.open_combat
            if fight is not None:
                who = seat_ref(fight.impulse)
                return Pending(
                    actors=actors, waiting=f"{who}: combat, {step_words(fight.step)}", awaited=(fight.impulse,)
                )
            action = state.open_action
            if action is not None:
                # Anyone may record by hand; the table waits for the impulse (vtes-actions.md P1).
                who = seat_ref(action.impulse)
                return Pending(actors=actors, waiting=f"{who} holds the impulse", awaited=(action.impulse,))
            return Pending(
                actors=actors, waiting=f"{seat_ref(state.acting)}: {state.phase} phase", awaited=(state.acting,)
            )
        return Pending()

    def resolve(self, state: VtesState, op: Op, outcome: object) -> tuple[VtesState, tuple[Note, ...]]:
        """Fold the outcome of the first queued operation (see :func:`rules.resolve_op`)."""
        return rules.resolve_op(state, op, outcome)

    def to_open(self, state: VtesState, seat: int, act: Act) -> tuple[Pos, ...]:
        """Positions ``act`` turns face up that ``seat`` opens with it (its own hand or
        uncontrolled cards). Raises MalformedAct for an act of the wrong shape, IllegalMove for a
        card it does not hold."""
        return rules.opens(state, seat, act)

    _checked: tuple[VtesState, int, Act, Mapping[Pos, str], tuple[VtesState, tuple[Note, ...]]] | None = None
    """The last act :meth:`check` ran and what it gave: :meth:`apply` of the very same state, act
    and cards (the same objects, as a table checks a move then folds it) returns it instead of
    running the rules again. States are frozen and :func:`rules.run_act` is a pure function."""

    def check(self, state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> None:
        """Raise MalformedAct (the act's shape is wrong) or IllegalMove (the rules refuse it now),
        with a sentence, unless ``seat`` may make ``act`` now."""
        self._checked = (state, seat, act, revealed, rules.run_act(state, seat, act, revealed))

    def apply(
        self, state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]
    ) -> tuple[VtesState, tuple[Note, ...]]:
        """The state after a checked act, and its narration (ousts, VP, turns)."""
        last = self._checked  # one read: another thread's check may replace it meanwhile
        if last is not None and last[0] is state and last[1] == seat and last[2] is act and last[3] is revealed:
            return last[4]
        return rules.run_act(state, seat, act, revealed)

    def view(self, state: VtesState, seat: int | None, known: Mapping[Pos, str]) -> views.VtesView:
        """What ``seat`` may know: see :func:`engine.games.vtes.view.build_view` (imported on
        first use: reading a log for its result builds no view)."""
        from engine.games.vtes import view as views

        return views.build_view(state, seat, known)

    def legal_acts(self, view: views.VtesView) -> list[Act]:
        """See :func:`engine.games.vtes.view.legal_acts`."""
        from engine.games.vtes import view as views

        return views.legal_acts(view)

    def describe(self, state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
        """The act in a player's words, e.g. ``"{s1}'s Theo Bell (G2) bleeds {s2} for 2"``."""
        return describe_act(state, seat, act, revealed)

    def result(self, state: VtesState) -> Result | None:
        """See :func:`engine.games.vtes.scoring.game_result`."""
        return scoring.game_result(state)

    def abandon(self, state: VtesState, seat: int) -> tuple[VtesState, tuple[Note, ...]]:
        """See :func:`engine.games.vtes.rules.abandon_seat`."""
        return rules.abandon_seat(state, seat)


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


def _name(state: VtesState, pos: object, revealed: Mapping[Pos, str]) -> str:
    if not isinstance(pos, (list, tuple)) or len(pos) != 2:
        return "a card"
    key = (pos[0], pos[1])
    card = next((c for c in state.cards if c.pos == key), None)
    ident = revealed.get(key) or (card.card if card else "")
    info = card_base().info(ident) if ident else None
    if info is not None:
        return esc(info.name)
    if card is not None and card.crypt:
        return "a face-down vampire"
    return "a card"


def _names(state: VtesState, raw: object, revealed: Mapping[Pos, str]) -> str:
    if not isinstance(raw, list):
        return "cards"
    names = [_name(state, p, revealed) for p in raw]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_TARGET_WORDS: dict[str, str] = {
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


def _zone_words(to: object) -> str:
    """Where an act's ``to`` sends cards, in words (an unknown value as written)."""
    return _TARGET_WORDS.get(to, str(to)) if isinstance(to, str) else str(to)


def describe_act(state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> Note:
    """The act in a player's words (a Note with ``{sN}`` placeholders for seat names). Never raises:
    an act of the wrong shape is described as well as its fields allow."""
    me = seat_ref(seat)
    try:
        do: Do | None = act_name(act)
    except MalformedAct:
        do = None

    def n(key: str) -> str:
        return _name(state, act.get(key), revealed)

    seats: tuple[int, ...] = (seat,)
    match do:
        case Do.DECK:
            text = f"{me} brings a crypt of {act.get('crypt')} and a library of {act.get('library')} cards"
        case Do.PHASE:
            text = f"{me} ends the {state.phase} phase"
        case Do.END_TURN:
            text = f"{me} ends the turn"
        case Do.EDGE:
            text = f"{me} gains 1 pool from the Edge"
        case Do.DRAW:
            k = act.get("n", 1)
            text = f"{me} draws {k} card{'s' if k != 1 else ''}"
        case Do.PLAY:
            text = f"{me} plays {n('card')}"
            to = act.get("to", Target.ASH)
            if to == Target.ON:
                text += f" on {n('on')}"
            elif to != Target.ASH:
                text += f" to {_zone_words(to)}"
            costs = []
            if act.get("pool"):
                costs.append(f"{act['pool']} pool")
            if act.get("blood"):
                costs.append(f"{act['blood']} blood from {n('minion')}")
            if costs:
                text += ", paying " + " and ".join(costs)
            if act.get("bleed_mod"):
                text += " (+bleed)"
            numbers = _numbers_words(act)
            if numbers:
                text += f": {numbers}"
        case Do.DISCARD:
            text = f"{me} discards {n('card')}"
        case Do.MOVE:
            to = act.get("to")
            where = f"on {n('on')}" if to == Target.ON else f"to {_zone_words(to)}"
            text = f"{me} moves {_names(state, act.get('cards'), revealed)} {where}"
        case Do.BURN:
            text = f"{me} burns {_names(state, act.get('cards'), revealed)}"
        case Do.LOCK | Do.UNLOCK:
            text = f"{me} {do}s {_names(state, act.get('cards'), revealed)}"
        case Do.BLOOD | Do.LIFE:
            delta = act.get("delta", 0)
            sign = "+" if isinstance(delta, int) and delta > 0 else ""
            text = f"{me}: {n('card')} {sign}{delta} {do} ({esc(str(act.get('cause', '')))})"
        case Do.POOL:
            cause = esc(str(act.get("cause", "")))
            raw = act.get("changes")
            if not isinstance(raw, list):
                raw = [[act.get("seat", seat), act.get("delta", 0)]]
            parts = []
            for item in raw:
                try:
                    target, delta = item
                except (TypeError, ValueError):
                    continue
                sign = "+" if isinstance(delta, int) and delta > 0 else ""
                parts.append(f"{seat_ref(target) if isinstance(target, int) else '?'} {sign}{delta} pool")
                if isinstance(target, int) and target not in seats:
                    seats = seats + (target,)
            text = f"{me}: {', '.join(parts)} ({cause})"
        case Do.ACTION:
            text, seats = _announce_words(state, seat, act, revealed)
        case Do.BLOCK:
            text = f"{me} attempts to block with {n('minion')}"
            action = state.open_action
            intercept = act.get("intercept", 0)
            if action is not None and isinstance(intercept, int):
                text += f" (intercept {intercept} against stealth {action.stealth})"
        case Do.PASS:
            text = f"{me} passes"
            if (
                state.open_action is not None
                and state.open_action.window == "A"
                and seat in _blockers(state)
                and seat not in state.open_action.declined
            ):
                text += " and declines to block"
        case Do.ADJUST:
            source = n("by") if "by" in act else esc(str(act.get("cause", "")))
            text = f"{me}: {_numbers_words(act)} ({source})"
        case Do.ACTION_END:
            text = f"{me}: {n('by')} ends the action"
        case Do.DISPUTE:
            text = f"{me} disputes act {act.get('act')}"
        case Do.DIABLERISE:
            text = f"{me} diablerises"
        case Do.MANEUVER:
            text = f"{me}: {n('minion')} maneuvers"
        case Do.STRIKE:
            text = f"{me}: {n('minion')} strikes"
            try:
                record = parse_act(act)
                choice = StrikeChoice.of(record, (0, 0)) if isinstance(record, StrikeAct) else None
            except GameError:
                choice = None
            if choice is not None:
                played = f" with {n('card')}" if "card" in act else ""
                text += f"{played}: {strike_words(choice.strike)}"
                if choice.additional:
                    text += f", {choice.additional} additional strike{'s' if choice.additional != 1 else ''}"
        case Do.PREVENT:
            text = f"{me}: {n('minion')} prevents damage"
        case Do.PRESS:
            text = f"{me}: {n('minion')} presses"
        case Do.TERMS:
            text = f"{me} sets the terms: {terms_template(str(act.get('text', ''))[:120])}"
        case Do.VOTE:
            side = "for" if act.get("for", True) else "against"
            source = esc(str(act.get("source")))
            what = n("card") if "card" in act else ("the Edge" if source == "edge" else "the calling card")
            text = f"{me} votes {side} ({source}: {what})"
        case Do.DONE:
            text = f"{me} is done voting"
        case Do.COMBAT:
            text = f"{_names(state, act.get('minions'), revealed)} enter combat"
        case Do.INFLUENCE:
            text = f"{me} influences out {n('card')}"
        case Do.TRANSFER:
            kind = act.get("kind")
            k = act.get("n", 1)
            if kind == TransferKind.POOL:
                text = f"{me} transfers {k} pool to {n('card')}"
            elif kind == TransferKind.BLOOD:
                text = f"{me} moves {k} blood from {n('card')} back to pool"
            else:
                text = f"{me} moves the top card of the crypt to the uncontrolled region (4 transfers and 1 pool)"
        case Do.HAND_SIZE:
            target = act.get("seat", seat)
            who = seat_ref(target) if isinstance(target, int) else "?"
            text = f"{me} changes {who}'s hand size by {act.get('delta')}"
        case Do.SHUFFLE:
            target = act.get("seat", seat)
            who = seat_ref(target) if isinstance(target, int) else "?"
            text = f"{me} shuffles {who}'s {act.get('zone')}"
        case Do.ACTION_END:
            text = f"{me}: the minion action ends"
        case Do.WITHDRAW:
            text = f"{me} announces withdrawal"
        case Do.TIME:
            text = f"{me} calls time"
        case None:
            text = f"{me} does something unknown"
    if do is not None and "lift" in act:
        text += f", setting aside the {act.get('lift')} rule by {n('by')}"
    elif do is not None and do not in (Do.ACTION_END, Do.ADJUST) and "by" in act:
        text += f" (by {n('by')})"
    return Note(text, seats)


def _blockers(state: VtesState) -> tuple[int, ...]:
    return blockers(state.open_action, state.in_game()) if state.open_action is not None else ()


ACTION_KINDS = frozenset(k.value for k in ActionKind)


def _announce_words(state: VtesState, seat: int, act: Act, revealed: Mapping[Pos, str]) -> tuple[str, tuple[int, ...]]:
    """An ``action`` announcement in words: who acts with whom, at what."""
    kind = act.get("kind")
    verb = ACTION_VERBS.get(ActionKind(kind), "acts") if kind in ACTION_KINDS else "acts"
    text = f"{seat_ref(seat)}'s {_name(state, act.get('minion'), revealed)} {verb}"
    seats: tuple[int, ...] = (seat,)
    target = act.get("target")
    if kind == ActionKind.BLEED:
        if not isinstance(target, int):
            target = state.prey(seat)
        text += f" {seat_ref(target)}" if isinstance(target, int) and target >= 0 else ""
        text += f" for {act.get('amount', 1)}"
        seats = (seat, target) if isinstance(target, int) and target >= 0 else seats
    elif "target_card" in act:
        text += f" {_name(state, act.get('target_card'), revealed)}"
    elif isinstance(target, int):
        text += f" against {seat_ref(target)}"
        seats = (seat, target)
    if "card" in act:
        text += f" with {_name(state, act.get('card'), revealed)}"
    extras = [
        f"{k.replace('_', ' ')} {act[k]}" for k in ("stealth", "cost_blood", "cost_pool", "cost_rescued") if k in act
    ]
    if extras:
        text += f" ({', '.join(extras)})"
    return text, seats


def _numbers_words(act: Act) -> str:
    """The action numbers a ``play`` or ``adjust`` changes, in words (``stealth +1, bleed +1``)."""
    parts = []
    for key, word in (("stealth", "stealth"), ("intercept", "intercept"), ("amount", "amount")):
        value = act.get(key)
        if isinstance(value, int) and value:
            parts.append(f"{word} {value:+d}")
    if isinstance(act.get("target"), int):
        parts.append(f"new target {seat_ref(act['target'])}")
    return ", ".join(parts)


VTES = VtesGame()
"""The VTES game module object (name ``"vtes"``)."""

__all__ = ["VTES", "IllegalMove", "VtesGame", "describe_act", "format_vp"]
