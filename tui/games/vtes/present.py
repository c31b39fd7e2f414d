"""What the VTES table screen shows, as Rich text, from a seat's :class:`VtesView` (no Textual
here: the screen's widgets show these; the tests read them).

- :func:`methuselah_lines`: one line per Methuselah in seating order (pool, VP, Edge, prey and
  predator, hand/library(/crypt) counts, its minions in torpor and its ready minions by name,
  whose turn and phase, ousted or withdrawing; ``⚠`` on your pool when your predator's ready
  minions could oust you this turn: :func:`oust_threat`);
- :func:`board_rows`: every Methuselah's cards in play, torpor, cards on cards, uncontrolled
  region (face up to its owner only: the others' face-down cards in one row) and ash heap, as
  rows a list can select;
- :func:`card_text`: a card's krcg text (name, type, clan or disciplines, capacity, cost, text)
  and :func:`rulings_text` its rulings;
- :func:`turn_line`: whose turn and phase, the transfers left, the withdrawal, time calls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from engine.games.base import Pos
from engine.games.vtes.card_record import Coverage, record
from engine.games.vtes.cards import card_base, card_id
from engine.games.vtes.offers import plain_bleed
from engine.games.vtes.state import format_vp
from engine.games.vtes.view import CardView, VtesView
from engine.games.vtes.vocab import Phase, Ruleset, Status, Step, Target, Zone
from tui.games.vtes.faces import face

_STATUS_WORDS: dict[Status, str] = {
    Status.OUSTED: "ousted",
    Status.WITHDRAWN: "withdrawn",
    Status.ABANDONED: "abandoned",
}


def seat_name(names: Sequence[str], seat: int) -> str:
    """A seat's name (``"seat 3"`` when the table has not named it)."""
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


_SEAT_REF = re.compile(r"\{s(\d+)\}")


def named(text: str, names: Sequence[str]) -> str:
    """``text`` with its seat placeholders (``{s1}``) replaced by the seats' names (an engine's
    sentence: a refusal, why a withdrawal fails)."""
    return _SEAT_REF.sub(lambda m: seat_name(names, int(m.group(1))), text)


def order(view: VtesView) -> list[int]:
    """Seats in seating order, this seat's first (seat order before the seating draw)."""
    seating = list(view.seating) or list(range(view.seats))
    if view.seat is not None and view.seat in seating:
        i = seating.index(view.seat)
        seating = seating[i:] + seating[:i]
    return seating


#: What the Methuselahs panel's marks mean, at the end of its header (the F1 help says it too).
MARKS = "▶ turn ◆ Edge"

#: The mark on your pool when your predator's ready minions could oust you (the Linux console
#: draws it as ``!``: :mod:`tui.glyphs`).
DANGER = "⚠"


def is_minion(card: CardView) -> bool:
    """A vampire (any crypt card) or an ally."""
    return card.crypt or "Ally" in card.types


def ready_minions(view: VtesView, seat: int) -> list[CardView]:
    """The minions ``seat`` controls in its ready region, in table order."""
    return [c for c in view.controlled(seat, Zone.READY) if is_minion(c)]


def torpor_minions(view: VtesView, seat: int) -> list[CardView]:
    """The minions ``seat`` controls in torpor."""
    return [c for c in view.controlled(seat, Zone.TORPOR) if is_minion(c)]


def default_bleed(card: CardView) -> int:
    """What ``card`` bleeds with a plain bleed action: the engine's offer
    (:func:`engine.games.vtes.offers.plain_bleed`)."""
    return plain_bleed(card)


def oust_threat(view: VtesView) -> int | None:
    """The pool your predator's ready minions could bleed from you in its turn, each with its
    default bleed (:func:`default_bleed`), when it is at least your pool (they could oust you);
    None otherwise, or when this view has no seat in the game. In your predator's turn, past its
    unlock phase, only its unlocked minions count (a locked one has acted); before it, every
    ready one does (its unlock phase unlocks them all)."""
    me = view.me
    if view.step != Step.PLAY or me is None or me.status != Status.IN:
        return None
    pred = me.predator
    if not 0 <= pred < len(view.players) or pred == view.seat or view.players[pred].status != Status.IN:
        return None
    acted = view.acting == pred and view.phase != Phase.UNLOCK
    bleed = sum(default_bleed(c) for c in ready_minions(view, pred) if not (acted and c.locked))
    return bleed if bleed > 0 and bleed >= me.pool else None


_TITLES = frozenset({"the", "dr.", "sir", "lord", "lady", "count", "baron", "sister", "brother", "father"})


def _first_name(name: str) -> str:
    """A minion's name in a word or two: ``"Aksinya Daclau"`` -> ``"Aksinya"``, ``"The Baron"``
    stays whole (a title or a short word takes the next word with it)."""
    words = name.split()
    if len(words) > 1 and (words[0].lower() in _TITLES or len(words[0].strip(".,")) <= 2):
        return " ".join(words[:2])
    return words[0] if words else name


def fit_names(names: Sequence[str], room: int, counts: Sequence[int] = ()) -> str:
    """``names`` joined in at most ``room`` columns: whole (without their group), else each in a
    word, else each cut shorter, else as many as fit and ``+N`` for the rest. ``counts``: how
    many of each name there are (``Anarch Convert×2``; 1 when not given)."""
    if not names:
        return ""
    times = [f"×{n}" if n > 1 else "" for n in (*counts, *[1] * (len(names) - len(counts)))]
    whole = [_short(n) for n in names]
    firsts = [_first_name(n) for n in whole]

    def joined(parts: Sequence[str], sep: str, cut: int | None = None, keep: int | None = None) -> str:
        shown = [n[:cut].rstrip() + t for n, t in zip(parts, times, strict=True)][:keep]
        more = f"{sep}+{len(parts) - keep}" if keep is not None else ""
        return sep.join(shown) + more

    for line in (joined(whole, ", "), joined(firsts, ", "), joined(firsts, ",")):
        if len(line) <= room:
            return line
    for cut in range(max(len(n) for n in firsts) - 1, 3, -1):
        line = joined(firsts, ",", cut)
        if len(line) <= room:
            return line
    for keep in range(len(firsts) - 1, 0, -1):
        line = joined(firsts, ",", 4, keep)
        if len(line) <= room:
            return line
    return ""


def _minion_list(view: VtesView, seat: int, room: int) -> Text:
    """``seat``'s ready minions in ``room`` columns: their count, then their names (the same
    name once, with how many: ``Anarch Convert×2``; dimmed when all of them are locked),
    abbreviated to fit (:func:`fit_names`)."""
    minions = ready_minions(view, seat)
    text = Text(str(len(minions)), style="bold" if minions else "dim")
    if not minions or room < 4:
        return text
    groups: dict[str, list[CardView]] = {}
    for c in minions:
        groups.setdefault(_short(c.name or "face-down"), []).append(c)
    fitted = fit_names(list(groups), room - len(text) - 1, [len(g) for g in groups.values()])
    if not fitted:
        return text
    text.append(" ")
    # Dim the locked ones when every name is shown in order (no "+N"), one per comma.
    parts = fitted.split(",")
    if len(parts) == len(groups):
        for i, (part, group) in enumerate(zip(parts, groups.values(), strict=True)):
            text.append(part, style="dim" if all(c.locked for c in group) else "")
            if i < len(parts) - 1:
                text.append(",")
    else:
        text.append(fitted)
    return text


def methuselah_lines(view: VtesView, names: Sequence[str], wide: bool = False, width: int = 78) -> Text:
    """The Methuselahs panel: a header and one line per seat, in seating order from this seat
    (the next line is your prey, the last one your predator): pool, VP, prey, cards in hand and
    library, minions in torpor and the ready minions (how many, then their names, abbreviated to
    fit ``width`` columns; a locked one dimmed). ``▶`` marks the acting Methuselah, ``◆`` the
    Edge, ``⚠`` your pool when your predator's ready minions could oust you this turn
    (:func:`oust_threat`); a Methuselah who left the game says how. ``wide``: room for the
    predator, the crypt count and the acting one's phase too (110 columns)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    head = f"  {'Methuselah':<14}{'pool':>4}{'VP':>4}  {'prey':<9}"
    if wide:
        head += f"{'predator':<10}"
    head += f"{'hand':>4}{'lib':>4}"
    if wide:
        head += f"{'crypt':>6}"
    head += " torpor "
    if wide:
        head += f"{'phase':<16}"
    lead = len(head)
    # The marks' legend ends the header on its one line: "ready" alone where "ready minions" and
    # the legend do not both fit (a panel with padding at 80 columns).
    head += "ready minions" if lead + len("ready minions") + 1 + len(MARKS) <= width else "ready"
    text.append(head + " " * max(1, width - len(head) - len(MARKS)), style="dim")
    text.append(MARKS + "\n", style="dim")
    room = max(width - lead, 0)
    threat = oust_threat(view)
    seats = order(view)
    for i, seat in enumerate(seats):
        p = view.players[seat]
        acting = view.step == Step.PLAY and view.acting == seat
        marker = "▶ " if acting else "  "
        name = seat_name(names, seat) + (" (you)" if seat == view.seat else "")
        danger = threat is not None and seat == view.seat
        line = Text()
        line.append(marker, style="bold")
        line.append(f"{name[:13]:<13}", style="bold" if seat == view.seat else "")
        line.append("◆" if view.edge == seat else " ", style="bold yellow")
        line.append(f"{p.pool:>4}", style="bold red" if danger else "")
        line.append(DANGER if danger else " ", style="bold red")
        line.append(f"{format_vp(p.vp):>3}  ")
        prey = seat_name(names, p.prey)[:8] if p.prey >= 0 else "-"
        line.append(f"{prey:<9}")
        if wide:
            pred = seat_name(names, p.predator)[:9] if p.predator >= 0 else "-"
            line.append(f"{pred:<10}")
        line.append(f"{p.hand_count:>4}{p.library_count:>4}")
        if wide:
            line.append(f"{p.crypt_count:>6}")
        torpor = len(torpor_minions(view, seat))
        line.append(f" {torpor:^6} ", style="" if torpor else "dim")
        if wide:
            line.append_text(_phase_cell(view, acting))
        rest = Text()
        if p.status != Status.IN:
            rest.append(_STATUS_WORDS.get(p.status, str(p.status)), style="italic")
            line.stylize("strike", 2, 15)
        if p.withdrawing:
            rest.append((" " if rest else "") + "withdrawing" + (" (fails)" if p.withdraw_fail else ""), style="yellow")
        if rest:
            rest.append(" ")
        # Your predator could oust you: said after the count of your minions (their names are
        # first on the table below), in the room the names would take.
        warning = f" {DANGER} predator can oust you" if danger else ""
        if p.status == Status.IN:
            rest.append_text(_minion_list(view, seat, room - len(rest) - len(warning)))
        rest.append(warning, style="bold red")
        line.append_text(rest)
        text.append_text(line)
        if i < len(seats) - 1:
            text.append("\n")
    return text


def _phase_cell(view: VtesView, acting: bool) -> Text:
    """The wide panel's phase column: the acting Methuselah's phase, else blank."""
    if not acting:
        return Text(" " * 16)
    words = f"{view.phase} phase"
    return Text(words, style="bold reverse") + " " * max(16 - len(words), 1)


def turn_line(view: VtesView, names: Sequence[str]) -> str:
    """Whose turn and phase it is, with what this seat may still do in it: the contests it settles
    in its unlock phase, the transfers left in its influence phase, its withdrawal (and which
    condition failed), the time calls."""
    if view.step == Step.JOINING:
        return "Every Methuselah declares its deck."
    if view.step in (Step.SEATING, Step.DEALING):
        return "Seating and dealing."
    if view.step == Step.OVER:
        return "The game is over."
    who = "your" if view.acting == view.seat else f"{seat_name(names, view.acting)}'s"
    parts = [f"Turn {view.turn}: {who} {view.phase} phase"]
    if view.phase == Phase.INFLUENCE:
        parts.append(f"{view.transfers} transfer{'s' if view.transfers != 1 else ''} left")
    due = view.contests_due(view.seat) if view.seat is not None else ()
    if due:
        cards = [view.card(p) for p in due]
        what = " and ".join(_short(c.name) for c in cards if c is not None)
        parts.append(f"{what}: contested, Y pays or yields")
    me = view.me
    if me is not None and me.withdrawing:
        fail = named(me.withdraw_fail, names)
        parts.append(f"withdrawal announced{': it will fail, ' + fail if fail else ''}")
    if view.ruleset == Ruleset.TOURNAMENT and view.time_calls:
        callers = ", ".join(seat_name(names, s) for s in view.time_calls)
        parts.append("time is called" if view.time_called else f"time called by {callers}")
    return "; ".join(parts) + "."


@dataclass(frozen=True)
class BoardRow:
    """One line of the board: a heading (``card`` None) or a card; ``text``: how it reads;
    ``name``: the (start, end) characters of ``text`` that give up room first in a narrow board
    (the card's name, so that its numbers stay; :class:`tui.games.vtes.widgets.fit.NameFirst`),
    else None."""

    text: Text
    card: CardView | None = None
    name: tuple[int, int] | None = None


def card_label(card: CardView, me: int | None) -> str:
    """A card in a word: its name and counters, locked; a face-down card says so."""
    if not card.known:
        what = "face-down vampire" if card.crypt else "face-down card"
        return what + (f", {card.counters} blood" if card.counters else "")
    label = card.name
    if card.crypt and card.capacity and card.counters > card.capacity:
        # More blood than its capacity (an uncontrolled vampire may hold it): both, as they are.
        label += f" {card.counters} blood, capacity {card.capacity}"
    elif card.crypt and card.capacity:
        label += f" {card.counters}/{card.capacity} blood"
    elif card.counters:
        label += f" ({card.counters} {'blood' if card.crypt else 'counter' if card.counters == 1 else 'counters'})"
    if card.locked:
        label += " · locked"
    return label


def contest_words(view: VtesView, card: CardView) -> str:
    """What a contest does to a vampire in play in a word or two: ``"title contested"`` or
    ``"title yielded"`` (without its title's benefits, rulebook "Contested Titles"), "" for none
    (a contested card, face down, is listed under ``"contested: "`` instead). The board writes it
    before the card's name, as it does ``"contested: "``, so that a narrow panel cuts the
    counters, not the contest."""
    if view.contested(card.pos):
        return ""  # its row begins "contested: "
    if card.crypt and card.zone.in_play and view.title_contested(card.pos):
        return "title yielded" if card.pos in view.contests.yielded else "title contested"
    return ""


def face_down_words(cards: Sequence[CardView]) -> str:
    """Face-down cards in a few words: ``"3 face-down vampires (blood 4, 0, 1)"``."""
    kind = "vampire" if all(c.crypt for c in cards) else "card"
    words = f"{len(cards)} face-down {kind}{'s' if len(cards) != 1 else ''}"
    if any(c.counters for c in cards):
        words += f" (blood {', '.join(str(c.counters) for c in cards)})"
    return words


def board_rows(view: VtesView, names: Sequence[str], ash: bool = False) -> list[BoardRow]:
    """Every Methuselah's table, in seating order from this seat: its ready region (cards on a
    card indented under it), torpor, its contested cards (face down), uncontrolled region and (``ash``: each card, else a count)
    ash heap. Another seat's uncontrolled cards are face down: one row says how many and the
    blood on them (the board's room goes to the minions in play); removed cards are listed last."""
    rows: list[BoardRow] = []
    on: dict[Pos, list[CardView]] = {}
    for c in view.cards:
        if c.zone == Zone.ON and c.on:
            on.setdefault(c.on, []).append(c)

    def add(card: CardView, indent: int, prefix: str = "") -> None:
        style = "dim" if card.locked else ""
        label = card_label(card, view.seat)
        if card.owner != card.controller and card.known:
            label += f" (owner {seat_name(names, card.owner)})"
        if contest := contest_words(view, card):
            prefix += f"{contest}: "
        head = " " * indent + prefix
        name = (len(head), len(head) + len(card.name)) if card.known and label.startswith(card.name) else None
        rows.append(BoardRow(Text(head + label, style=style, no_wrap=True, overflow="ellipsis"), card, name))
        for child in on.get(card.pos, []):
            add(child, indent + 2, "└ ")

    for seat in order(view):
        p = view.players[seat]
        ready = view.controlled(seat, Zone.READY)
        torpor = view.controlled(seat, Zone.TORPOR)
        unc = view.uncontrolled(seat)
        heap = [c for c in view.cards if c.owner == seat and c.zone == Zone.ASH]
        name = seat_name(names, seat) + (" (you)" if seat == view.seat else "")
        status = "" if p.status == Status.IN else f" · {_STATUS_WORDS.get(p.status, p.status)}"
        head = Text(f"{name}{status}", style="bold reverse" if seat == view.seat else "bold", no_wrap=True)
        # Short enough for 80 columns; the uncontrolled region is listed below (○), so no count.
        head.append(f": ready {len(ready)}, torpor {len(torpor)}, ash {len(heap)}", style="")
        rows.append(BoardRow(head))
        for c in ready:
            add(c, 1)
        for c in torpor:
            add(c, 1, "torpor: ")
        for c in view.controlled(seat, Zone.CONTESTED):
            add(c, 1, "contested: ")
        hidden = [c for c in unc if not c.known] if seat != view.seat else []
        for c in unc:
            if c not in hidden:
                add(c, 1, "○ ")
        if hidden:
            # Face down to this seat: how many and the blood on them, in one row, not one each.
            rows.append(BoardRow(Text(" ○ " + face_down_words(hidden), style="dim", no_wrap=True, overflow="ellipsis")))
        if ash:
            for c in heap:
                rows.append(BoardRow(Text(f" ash: {c.name}", style="dim", no_wrap=True, overflow="ellipsis"), c))
    removed = [c for c in view.cards if c.zone == Zone.REMOVED]
    if removed:
        rows.append(BoardRow(Text("Removed from the game", style="bold")))
        for c in removed:
            rows.append(BoardRow(Text(f" {c.name or 'a card'}", style="dim"), c))
    return rows


def card_text(card: CardView | None, named: bool = True) -> Text:
    """A card's krcg text: name (``named``: the card panel has it in its title instead); type;
    clan and disciplines (a vampire) or its requirements; capacity; cost; the card's text. A
    face-down or unknown card says so."""
    if card is None:
        return Text("No card selected.", style="dim")
    if not card.known:
        return Text("A face-down card: only its owner knows it.", style="dim")
    known = face(card_id(card.card))  # krcg's facts, without krcg's dict before the first turn
    text = Text()
    if named:
        text.append(card.name + "\n", style="bold")
    line = " / ".join(card.types) or "card"
    if known is not None:
        line += known.before
        if card.capacity:
            line += f" · capacity {card.capacity}"
        line += known.after
    text.append(line + "\n", style="italic")
    text.append(card.text or "")
    return text


def rulings_text(card: CardView | None, named: bool = True) -> Text:
    """krcg's rulings for a card, one paragraph each (with their references), or a sentence that
    there are none; under a "Rulings: NAME" line when ``named`` (the card panel has it in its
    title instead)."""
    if card is None or not card.known:
        return Text("No card selected.", style="dim")
    cid = card_id(card.card)
    base = card_base().by_id(cid) if cid is not None else None
    rulings = list(getattr(base, "rulings", None) or [])
    text = Text()
    if named:
        text.append(f"Rulings: {card.name}\n", style="bold")
    if not rulings:
        text.append("krcg lists no ruling for this card.", style="dim")
        return text
    for r in rulings:
        text.append("• " + _card_references(str(getattr(r, "text", r))) + "\n")
    return text


_REFERENCE = re.compile(r"\{(?:\d+\|)?([^{}|]*)\}")


def _card_references(text: str) -> str:
    """A ruling's text with krcg's card references (``{100038|Alastor}``) as the cards' names."""
    return _REFERENCE.sub(r"\1", text)


def _short(name: str) -> str:
    """A card's name without its group: ``"Theo Bell (G2)"`` -> ``"Theo Bell"``."""
    return name.split(" (")[0]


def play_todo(card: CardView, act: Mapping[str, object], payer: CardView | None) -> str:
    """What a player still does by hand after playing ``card`` with ``act``, in one sentence: pay
    its printed cost unless the act paid it (``payer``: the vampire that would pay a blood cost),
    then apply what of its text the table does not (its record's coverage: nothing for a card the
    table applies whole), or use it while it stays in play. Empty when nothing is left to do."""
    rec = record(card.card) if card.card else None
    if rec is None:
        return f"{_short(card.name)} is played: resolve its text by hand (e reads it)." if card.text else ""
    todo: list[str] = []
    for kind, value in (("pool", rec.costs.pool), ("blood", rec.costs.blood)):
        if value and not act.get(kind):
            who = f" {_short(payer.name)}" if kind == "blood" and payer is not None else " VAMPIRE" * (kind == "blood")
            todo.append(f"pay its cost ({kind} -{value}{who})")
    if rec.coverage != Coverage.FULLY:
        if act.get("to") in (Target.READY, Target.ON):
            todo.append("use it as its text says while it stays in play (k locks it)")
        elif rec.coverage == Coverage.PARTLY:
            todo.append("apply the rest of its text by hand (e reads it)")
        else:
            todo.append("resolve its text by hand (e reads it)")
    if not todo:
        return ""
    return f"{_short(card.name)} is played: " + ", then ".join(todo) + "."


def hand_label(card: CardView, width: int = 0) -> str:
    """A hand card in the hand list: its name, and its cost when it has one (its types and text
    are in the card panel, so the name fits at 80 columns). In ``width`` cells (0: any) a name too
    long gives up its end (``…``) before the cost does: "Political Strang… · 1 pool"."""
    if not card.known:
        return "a card"
    known = face(card_id(card.card))
    cost = known.cost if known is not None else ""
    tail = f" · {cost}" if cost else ""
    name = card.name
    if width > 0 and cell_len(name + tail) > width:
        room = max(width - cell_len(tail) - 1, 4)
        name = set_cell_size(name, room).rstrip() + "…"
    return name + tail


__all__ = [
    "DANGER",
    "MARKS",
    "BoardRow",
    "board_rows",
    "card_label",
    "card_text",
    "default_bleed",
    "face_down_words",
    "fit_names",
    "hand_label",
    "is_minion",
    "methuselah_lines",
    "named",
    "order",
    "oust_threat",
    "play_todo",
    "ready_minions",
    "rulings_text",
    "seat_name",
    "torpor_minions",
    "turn_line",
]
