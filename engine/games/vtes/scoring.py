"""VP, the winner, the Game win and the table's result as a tournament organiser enters it
(shared/rules/vtes.md, "Ousting and victory points", "Tournament rules", "Precise readings").

VP are integers in half-points everywhere (``3`` is 1.5 VP); :func:`format_vp` shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.games.base import Result, seat_ref
from engine.games.vtes.state import VtesState, format_vp
from engine.games.vtes.vocab import End, Status, Step


class ResultRow(NamedTuple):
    """One seat's line of a table result: ``seat`` number, ``vp`` in half-points, ``gw`` (a Game
    win)."""

    seat: int
    vp: int
    gw: bool


def winners_by_vp(vps: Sequence[int]) -> tuple[int, ...]:
    """The winner: the one seat with the most VP, even if ousted; a tie for most: no winner."""
    if not vps:
        return ()
    best = max(vps)
    top = [s for s, v in enumerate(vps) if v == best]
    return (top[0],) if len(top) == 1 else ()


def game_win(vps: Sequence[int]) -> int:
    """The seat with a Game win (at least 2 VP and strictly more than every other), else -1."""
    top = winners_by_vp(vps)
    if top and vps[top[0]] >= 4:
        return top[0]
    return -1


def result_table(state: VtesState) -> list[ResultRow]:
    """The table's result, one row per seat in seating order (turn order from the first player;
    seat order before seating). Shape: ``[ResultRow(seat, vp_halves, gw), …]``."""
    vps = [p.vp for p in state.players]
    gw = game_win(vps)
    order = state.seating or tuple(range(state.seats))
    return [ResultRow(s, vps[s], s == gw) for s in order]


def game_result(state: VtesState) -> Result | None:
    """The :class:`Result` once the game is over (scores: VP in half-points per seat; winners:
    the seat with the most VP, none on a tie), else None. The summary names seats as ``{sN}``
    placeholders (render it with :meth:`engine.games.base.Note.render`)."""
    if state.step != Step.OVER or state.queue:
        return None
    vps = tuple(p.vp for p in state.players)
    winners = winners_by_vp(vps) if state.end != End.UNSTARTED else ()
    gw = game_win(vps)
    how = {
        End.LAST: "ended by ousts",
        End.TIME: "ended by time-out",
        End.UNSTARTED: "never started",
    }.get(state.end, "ended")
    points = ", ".join(f"{seat_ref(s)} {format_vp(vps[s])}" for s in (state.seating or range(state.seats)))
    if state.end == End.UNSTARTED:
        summary = "The game never started: a seat abandoned before play."
    elif winners:
        w = winners[0]
        summary = f"{seat_ref(w)} wins with {format_vp(vps[w])} VP"
        if gw >= 0 and state.tournament:
            summary += " and a Game win"
        summary += f" (game {how}; VP: {points})."
    else:
        summary = f"No winner: a tie for the most VP (game {how}; VP: {points})."
    return Result(scores=vps, winners=winners, summary=summary, abandoned=state.abandons)


def archon_problems(state: VtesState, rows: Sequence[ResultRow] | None = None) -> list[str]:
    """Check a table result as the VEKN Archon does; return one sentence per problem (empty: the
    result is sound).

    ``rows`` default to :func:`result_table`; pass the rows an organiser typed to check them
    against the game. Checks: a tournament table seats 4 or 5; the VP, halves rounded up per
    seat, add up to the number of players; every oust is credited to the predator; half points
    belong only to time-out survivors or withdrawals (tournament); the GW marks match the rule.
    """
    rows = list(rows) if rows is not None else result_table(state)
    problems: list[str] = []
    n = state.seats
    if state.tournament and n not in (4, 5):
        problems.append(f"a tournament table seats 4 or 5 players, and this one seats {n}")
    seen = sorted(r.seat for r in rows)
    if seen != list(range(n)):
        problems.append(f"the result must have one row per seat 0 to {n - 1}")
        return problems
    vp = {r.seat: r.vp for r in rows}
    total = sum((v + 1) // 2 for v in vp.values())
    if total != n:
        problems.append(f"the table's VP, halves rounded up, add up to {total}, not to the {n} players")
    credited: dict[int, int] = {}
    for out in state.outs:
        if out.how == Status.OUSTED and out.credited:
            credited[out.predator] = credited.get(out.predator, 0) + 1
    for pred, count in sorted(credited.items()):
        if vp[pred] < 2 * count:
            problems.append(
                f"seat {pred} has {format_vp(vp[pred])} VP, fewer than the {count} oust(s) of its prey it is credited with"
            )
    survivors = {s for s in range(n) if state.players[s].status == Status.IN} if state.end == End.TIME else set()
    withdrew = {out.seat for out in state.outs if out.how == Status.WITHDRAWN}
    for s in range(n):
        if vp[s] % 2 and s not in survivors and not (s in withdrew and state.tournament):
            problems.append(
                f"seat {s} has a half VP ({format_vp(vp[s])}), but it neither survived a time-out nor withdrew"
            )
    gw = game_win([vp[s] for s in range(n)])
    for r in rows:
        if r.gw and r.seat != gw:
            problems.append(
                f"seat {r.seat} is marked with a Game win, but a GW needs at least 2 VP and strictly more than every other player"
            )
        if not r.gw and r.seat == gw:
            problems.append(
                f"seat {r.seat} has at least 2 VP and strictly more than every other player: it has a Game win"
            )
    for s in range(n):
        if vp[s] != state.players[s].vp:
            problems.append(
                f"seat {s} has {format_vp(vp[s])} VP in the result, but {format_vp(state.players[s].vp)} at the table"
            )
    return problems


def result_text(state: VtesState, names: Sequence[str] | None = None) -> str:
    """The table's result as an organiser enters it in the Archon: one line per player in seating
    order (table position from 1), with VP (0.5 steps) and GW (1 or 0), then the Archon checks."""
    names = list(names) if names is not None else [f"seat {s}" for s in range(state.seats)]
    ruleset = state.ruleset
    how = {End.LAST: "by ousts", End.TIME: "by time-out", End.UNSTARTED: "before it started"}.get(state.end, "not yet")
    lines = [f"VTES table result: {state.seats} players, ruleset {ruleset}, game ended {how}"]
    width = max([6, *(len(x) for x in names)])
    # The Archon takes players by table position (the seating drawn at the start, from 1); the
    # protocol's seat number (join order) is shown too, so the log can be matched.
    lines.append(f"{'table position':<16}{'player':<{width + 2}}{'VP':<5}{'GW':<4}joined as seat")
    for i, row in enumerate(result_table(state), start=1):
        lines.append(f"{i:<16}{names[row.seat]:<{width + 2}}{format_vp(row.vp):<5}{1 if row.gw else 0:<4}{row.seat}")
    problems = archon_problems(state)
    if problems:
        lines.extend(f"Archon check: {p}" for p in problems)
    else:
        lines.append("Archon checks: passed")
    return "\n".join(lines)
