"""VP, the winner, the Game win and the table's result as a tournament organiser enters it
(shared/rules/vtes.md, "Ousting and victory points", "Tournament rules", "Precise readings").

VP are integers in half-points everywhere (``3`` is 1.5 VP); :func:`format_vp` shows them. The
organiser's result (:func:`result_text`) comes as text, CSV or JSON, with the round, the table and
the players' VEKN ids when known; each player's line also reads as krcg's tournament score.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from engine.games.base import Note, Result, seat_ref
from engine.games.spec import ResultFormat, TablePlace
from engine.games.vtes.spec import VEKN
from engine.games.vtes.state import Claim, VtesState, format_vp
from engine.games.vtes.vocab import ClaimStatus, End, Status, Step

if TYPE_CHECKING:
    from krcg import models


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
    tallies = (
        ("actions", state.actions_taken),
        ("blocks", state.blocks),
        ("combats", state.combats),
        ("referendums", state.referendums),
    )
    return Result(scores=vps, winners=winners, summary=summary, abandoned=state.abandons, tallies=tallies)


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


_HOW = {End.LAST: "ended by ousts", End.TIME: "ended by time-out", End.UNSTARTED: "never started"}
"""How the game ended, in the result's words (not over yet: "not over yet")."""


@dataclass(frozen=True)
class PlayerResult:
    """One player's line of a table's result as the Archon takes it: ``position`` at the table
    (seating order from the first player, from 1), ``seat`` (the seat number in the log, join
    order), ``name``, ``vekn`` id (or None), ``vp`` in half-points, ``gw`` (a Game win)."""

    position: int
    seat: int
    name: str
    vekn: str | None
    vp: int
    gw: bool

    @property
    def score(self) -> models.Score:
        """This table's result as krcg's tournament score (``1GW3``: game wins and VP)."""
        from krcg import models  # krcg loads aiohttp: only when a score is asked for

        return models.Score(round_gw=int(self.gw), round_vp=self.vp / 2)


def player_results(state: VtesState, names: Sequence[str], vekn: Sequence[str | None] = ()) -> list[PlayerResult]:
    """The table's result, one :class:`PlayerResult` per player in seating order; ``names`` and
    ``vekn`` are in seat order (a seat past the end of ``vekn`` has none)."""
    return [
        PlayerResult(i, row.seat, names[row.seat], vekn[row.seat] if row.seat < len(vekn) else None, row.vp, row.gw)
        for i, row in enumerate(result_table(state), start=1)
    ]


def ranked(rows: Sequence[PlayerResult]) -> list[tuple[int, PlayerResult]]:
    """``rows`` ranked as players read a result: a Game win first, then the most VP, then table
    position; players with the same GW and VP share a rank (``1, 2, 2, 4``). Shape: ``[(rank,
    row), …]``, best first."""
    order = sorted(rows, key=lambda r: (-int(r.gw), -r.vp, r.position))
    out: list[tuple[int, PlayerResult]] = []
    for i, r in enumerate(order):
        same = out and (out[-1][1].gw, out[-1][1].vp) == (r.gw, r.vp)
        out.append((out[-1][0] if same else i + 1, r))
    return out


def _heading(state: VtesState, place: TablePlace) -> str:
    """``VTES result (round 2, table 3): 5 players, tournament rules, ended by ousts`` (within 80
    columns up to table 999)."""
    where = ", ".join(f"{word} {n}" for word, n in (("round", place.round), ("table", place.table)) if n is not None)
    return (
        f"VTES result{' (' + where + ')' if where else ''}: {state.seats} players, "
        f"{state.ruleset} rules, {_HOW.get(state.end, 'not over yet')}"
    )


_ZERO_WIDTH = frozenset({"Mn", "Me", "Mc", "Cf"})
"""Categories that take no cell of their own: combining marks (spacing ones join their cluster)
and format characters (ZWJ, variation selectors)."""


def _char_cells(ch: str) -> int:
    code = ord(ch)
    if (
        unicodedata.category(ch) in _ZERO_WIDTH
        or 0x1160 <= code <= 0x11FF  # Hangul medial vowels and final consonants join a syllable
        or 0xD7B0 <= code <= 0xD7FF
        or code in (0x3164, 0xFFA0)  # Hangul fillers
        or 0x1F3FB <= code <= 0x1F3FF  # skin tone modifiers join their emoji
    ):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cell_width(text: str) -> int:
    """The cells ``text`` takes in a terminal (an int >= 0): wide and full-width characters (CJK,
    emoji) two, combining marks, format characters and what a zero-width joiner joins none, a
    text character made an emoji by a variation selector 16 two, others one (Unicode's East Asian
    Width, as the standard library knows it)."""
    total = 0
    last = 0
    joined = False
    for ch in text:
        if joined:
            joined = False
            continue
        if ch == "\u200d":
            joined = True
            continue
        if ch == "\ufe0f" and last == 1:
            total += 1
            last = 2
            continue
        cells = _char_cells(ch)
        total += cells
        if cells:
            last = cells
    return total


def result_text(
    state: VtesState,
    names: Sequence[str] | None = None,
    place: TablePlace = TablePlace(),
    fmt: ResultFormat = ResultFormat.TEXT,
) -> str:
    """The table's result as an organiser enters it in the Archon (:class:`OrganiserResult`),
    in seating order: table position (from 1), player, VEKN id, VP (0.5 steps), GW (1 or 0) and the
    seat number in the log; ``place`` adds the round, the table and the VEKN ids.

    ``text``: a heading, one line per player ranked by :func:`ranked` (its rank, then table
    position and seat number), columns aligned by display width (wide CJK and emoji names too),
    then the Archon checks (at most 80 columns wide for names of 14 cells), or for a game not over
    a line saying it is unfinished instead;
    ``csv``: ``round,table,position,seat,player,vekn,vp,gw`` rows (empty cells when not given);
    ``json``: ``{"game", "round", "table", "players", "ruleset", "ended", "over", "results":
    [{"position", "seat", "name", "vekn", "vp", "gw", "score"}], "archon_checks": [sentences]}``
    (``vp`` a number, ``score`` krcg's ``1GW3``, ``ended`` ``"last"``/``"time"``/``"unstarted"``
    or null), ``"disputes": [{"act", "by", "status", "change", "cause", "disputed_by", "accepted_by"}]`` (``status``:
    pending, taken, retracted or void: docs/vtes-by-hand.md). The text lists
    every change recorded by hand that a Methuselah disputed, for the judge (vtes-actions.md P9).
    """
    names = list(names) if names is not None else [f"seat {s}" for s in range(state.seats)]
    rows = player_results(state, names, tuple(facts.get(VEKN.key) for facts in place.facts))
    problems = archon_problems(state)
    disputed = [c for c in state.claims if c.disputed]
    if fmt == ResultFormat.CSV:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["round", "table", "position", "seat", "player", "vekn", "vp", "gw"])
        for r in rows:
            writer.writerow(
                [
                    place.round or "",
                    place.table or "",
                    r.position,
                    r.seat,
                    r.name,
                    r.vekn or "",
                    format_vp(r.vp),
                    int(r.gw),
                ]
            )
        return out.getvalue().rstrip("\n")
    if fmt == ResultFormat.JSON:
        data = {
            "game": "vtes",
            "round": place.round,
            "table": place.table,
            "players": state.seats,
            "ruleset": str(state.ruleset),
            "ended": str(state.end) or None,
            "over": state.step == Step.OVER,
            "results": [
                {
                    "position": r.position,
                    "seat": r.seat,
                    "name": r.name,
                    "vekn": r.vekn,
                    "vp": r.vp / 2,
                    "gw": int(r.gw),
                    "score": str(r.score) or "0GW0",
                }
                for r in rows
            ],
            "archon_checks": problems,
            "disputes": [
                {
                    "act": c.act,
                    "by": _name(names, c.author),
                    "status": str(c.status),
                    "change": Note(c.text).render(names),
                    "cause": c.cause,
                    "disputed_by": [names[s] for s in c.disputed],
                    "accepted_by": [names[s] for s in c.accepted],
                }
                for c in disputed
            ],
        }
        return json.dumps(data, indent=2, ensure_ascii=False)
    width = max([6, *(cell_width(r.name) for r in rows)])
    with_vekn = any(r.vekn for r in rows)
    vekn_head = f"{'VEKN':<12}" if with_vekn else ""
    head = f"{'rank':<6}{'player':<{width + 2}}{vekn_head}{'VP':<5}{'GW':<4}{'#':<4}seat"
    lines = [_heading(state, place), head]
    for rank, r in ranked(rows):
        vekn_cell = f"{r.vekn or '-':<12}" if with_vekn else ""
        name = r.name + " " * (width + 2 - cell_width(r.name))  # padded by display width: CJK, emoji
        lines.append(f"{rank:<6}{name}{vekn_cell}{format_vp(r.vp):<5}{int(r.gw):<4}{r.position:<4}{r.seat}")
    # The Archon takes players by table position (the seating drawn at the start), shown in "#";
    # the log's seat number (join order) is shown so the log can be matched.
    lines.append("rank: by GW, then VP (ties share a rank); #: table position (seating order)")
    lines.append("seat: the seat number in the log")
    if state.step != Step.OVER:  # VP so far are no result: nothing to check for the Archon yet
        lines.append("Archon checks: none, the game is unfinished (no result to enter yet)")
    else:
        lines.extend(f"Archon check: {p}" for p in problems)
        if not problems:
            lines.append("Archon checks: passed")
    for c in disputed:
        who = " and ".join(names[s] for s in c.disputed)
        later = [names[s] for s in c.disputed if s in c.accepted]
        since = f", who later accepted it ({' and '.join(later)})" if later else ""
        lines.append(
            f"Disputed, for the judge: act {c.act} by {_name(names, c.author)}: {Note(c.text).render(names)} "
            f"(cause: {c.cause or 'the table'}); disputed by {who}{since}; {_standing(c, names)}"
        )
    return "\n".join(lines)


def _name(names: Sequence[str], seat: int) -> str:
    """A seat's name, or "the table" for an act no seat recorded (-1)."""
    return names[seat] if 0 <= seat < len(names) else "the table"


def _standing(c: Claim, names: Sequence[str]) -> str:
    """Where a disputed claim stands, in words for the judge (its ``how`` names seats)."""
    how = Note(c.how).render(names)
    match c.status:
        case ClaimStatus.PENDING:
            return "it has taken no effect"
        case ClaimStatus.TAKEN:
            return f"it took effect ({how or 'applied by the table'})"
        case _:
            return how or str(c.status)
