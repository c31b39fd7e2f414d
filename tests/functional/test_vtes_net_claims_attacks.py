"""Three people at a VTES table over loopback TCP, each in a process of its own (`vampire host
--headless` and three :mod:`tests.support.hand_agent` processes), one of them trying the routes
around the rules by hand that docs/vtes-by-hand.md closes, most of them also from a client that
checks nothing (``raw``: the host's verdict is the answer):

- sources are one's own: a lift, a vote and a card's blood cost naming another Methuselah's card
  are refused;
- a claim's time: an oust by hand lapses into effect only once a witness's signed time reaches its
  due time, while the ousted one is away; back at the table, the ousted one disputes it, and
  `vampire result` lists the dispute for the judge;
- out of turn: another's action ended by a card of one's own without the impulse is refused;
- another's things: hand size, library shuffles (bounded), burns and moves of hidden library and
  hand cards, a combat of two others' minions: claims, and no peer learns a hidden card;
- floods: a flood of one's own changes by hand and of claims is bounded, and the other seats'
  entries go in between at their pace (counted in entries).

Every log ends clean in `vampire audit`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.audit import audit_file
from engine.games import all_rules
from engine.games.vtes.claims import BY_HAND, BY_HAND_RATE, CLAIM_WAIT_MS
from engine.protocol.log import read_log
from tests.support.hand_table import ROOT, Person, caught_up, hand_table, until
from tests.support.vtes_fight import JUSTICAR, PRIMOGEN, PRINCE
from tui.cli.logs import RESULT_NOT_OVER


def _deck(tmp: Path, name: str, vampire: str) -> str:
    """A deck file: twelve of one titled vampire, sixty Kine Resources Contested (a political
    action card in every hand)."""
    path = tmp / f"{name}.txt"
    path.write_text(f"Crypt (12 cards)\n12x {vampire}\n\nLibrary (60 cards)\n60x Kine Resources Contested\n")
    return str(path)


def _ready_one(people: list[Person], blood: int = 0) -> dict[int, list[int]]:
    """Each person moves a vampire of its own to its ready region (with ``blood``), by hand and at
    once (their own things); returns each seat's vampire once every peer holds them."""
    mine = {}
    for p in people:
        v = p.look()["uncontrolled"][p.seat][0]
        assert p.act({"do": "move", "cards": [v], "to": "ready"}) == {"ok": True}
        if blood:
            assert p.act({"do": "blood", "card": v, "delta": blood, "cause": "effect"}) == {"ok": True}
        mine[p.seat] = v
    until(lambda: all(all(p.look()["ready"][s] for s in mine) for p in people), "every ready vampire everywhere")
    return mine


def _everyone_passes(people: list[Person], done: Any) -> None:
    """Whoever holds the impulse passes until ``done(look)`` holds."""
    by_seat = {p.seat: p for p in people}

    def settled() -> bool:
        look = people[0].look()
        if done(look):
            return True
        window = look["action"] or look["referendum"]
        if window is not None and window[1] in by_seat:
            by_seat[window[1]].act({"do": "pass"})
        return False

    until(settled, "the window's passes")


def test_sources_are_ones_own_and_an_oust_waits_for_its_time_then_is_disputed_from_away(tmp_path: Path) -> None:
    with hand_table(tmp_path, 3) as table:
        for name, vampire in (("Ann", PRINCE), ("Ben", JUSTICAR), ("Cy", PRIMOGEN)):
            table.sit(name, _deck(tmp_path, name, vampire))
        table.seated()
        ann, ben, cy = table.by_seating()
        people = [ann, ben, cy]
        v = _ready_one(people, blood=3)
        while ann.look()["phase"] != "minion":
            assert ann.act({"do": "phase"}) == {"ok": True}

        # A lift naming another's card: refused by Ann's own table and by the host alike.
        bleed = {"do": "action", "kind": "bleed", "minion": v[ann.seat], "target": cy.seat}
        for how in ({}, {"raw": True}):
            said = ann.refused({**bleed, "lift": "target", "by": v[ben.seat]}, **how)
            assert "the card that lifts a rule must be a card you control" in said, said

        # Another's vampire named as the minion paying a card's blood cost: refused.
        kine = ann.look()["hand"][0]
        for how in ({}, {"raw": True}):
            said = ann.refused({"do": "play", "card": kine, "blood": 2, "minion": v[ben.seat]}, **how)
            assert "the minion that plays the card must be a card you control" in said, said

        # A referendum: votes naming another's card are refused; one's own title votes.
        assert ann.act({"do": "action", "kind": "political", "minion": v[ann.seat], "card": kine}) == {"ok": True}
        _everyone_passes(people, lambda look: look["action"] is None)
        until(lambda: ann.look()["referendum"] == ["terms", ann.seat], "the terms")
        assert ann.act({"do": "terms", "text": "Cy gains 1 pool"}) == {"ok": True}
        _everyone_passes(people, lambda look: look["referendum"][0] == "voting")
        caught_up(*people)
        for how in ({}, {"raw": True}):
            said = cy.refused({"do": "vote", "source": "other", "card": v[ann.seat], "count": 30}, **how)
            assert "the card that gives votes must be a card you control" in said, said
            said = cy.refused({"do": "vote", "source": "title", "card": v[ann.seat]}, **how)
            assert "is not a vampire you control" in said, said
        assert cy.act({"do": "vote", "source": "title", "card": v[cy.seat], "for": False}) == {"ok": True}

        def all_done() -> bool:
            for p in people:
                p.act({"do": "done"})
            return ann.look()["referendum"] is None

        until(all_done, "the referendum's end")

        # An oust by hand while Ben is away: it waits for its time, said by a witness's signed time.
        said = ann.refused({"do": "pool", "seat": ben.seat, "delta": -30, "cause": "Govern the Unaligned"}, raw=True)
        assert "Govern the Unaligned is not yours to name as a cause" in said, said
        ann.act({"do": "pool", "seat": ben.seat, "delta": -30, "cause": "judge ruling"})
        oust = ann.look()["claims"][-1]
        assert oust[1:4] == [ann.seat, [ben.seat], "pending"] and oust[5] > 0
        table.leave(ben.name)
        caught_up(ann, cy)
        said = cy.refused({"do": "lapse", "act": oust[0]}, raw=True)
        assert "more for an answer before its time runs out" in said, said
        assert ann.look()["status"][ben.seat] == "in"
        # Cy's clock has run on past the due time (signed 2 s past it, within the host's tolerance).
        assert cy.act({"do": "lapse", "act": oust[0]}, later_ms=CLAIM_WAIT_MS + 2000) == {"ok": True}
        until(lambda: ann.look()["status"][ben.seat] == "ousted", "Ben ousted at Ann's")
        assert ann.look()["claims"][-1][3] == "taken"

        # Ben comes back, ousted, and disputes what ousted him: the only act open to him.
        ben = table.come_back(ben.name)
        until(lambda: ben.look()["status"][ben.seat] == "ousted", "Ben's copy caught up")
        # (Until his copy has made its duties as a seat leaving the game, moves wait: "not your turn".)
        until(lambda: "you may only dispute" in ben.refused({"do": "pool", "delta": 1, "cause": "x"}), "Ben's duties")
        assert ben.act({"do": "dispute", "act": oust[0]}) == {"ok": True}
        until(lambda: ann.look()["claims"][-1][4] == [ben.seat], "Ben's dispute at Ann's")
    report = audit_file(table.save, all_rules())
    assert report.fault is None, report.text()
    result = subprocess.run(
        [sys.executable, "-m", "tui.cli", "result", str(table.save), "--format", "json"],
        cwd=ROOT,
        env=table.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == RESULT_NOT_OVER, result.stderr  # the result so far, with its disputes
    disputes = json.loads(result.stdout)["disputes"]
    listed = [d for d in disputes if d["act"] == oust[0]]
    assert listed and "judge ruling" in json.dumps(listed), disputes


def test_anothers_things_are_claims_hidden_cards_stay_hidden_and_floods_are_bounded(tmp_path: Path) -> None:
    with hand_table(tmp_path, 3) as table:
        for name, deck in (("Ann", "atraco"), ("Ben", "khursidwall"), ("Cy", "queen_of_aemilia")):
            table.sit(name, deck)
        table.seated()
        ann, ben, cy = table.by_seating()
        v = _ready_one([ann, ben, cy])

        # Ann's action, ended out of turn by Cy naming a card of his own: refused by the host.
        while ann.look()["phase"] != "minion":
            assert ann.act({"do": "phase"}) == {"ok": True}
        assert ann.act({"do": "action", "kind": "hunt", "minion": v[ann.seat]}) == {"ok": True}
        said = cy.refused({"do": "action_end", "by": v[cy.seat]}, raw=True)
        assert "you may end the action when it reaches you" in said, said
        _everyone_passes([ann, ben, cy], lambda look: look["action"] is None)
        caught_up(ann, ben, cy)
        before = cy.look()

        # Cy's hand size and library: claims with a cause; refused with none.
        said = ann.refused({"do": "hand_size", "seat": cy.seat, "delta": -3}, raw=True)
        assert "names its cause" in said, said
        assert ann.act({"do": "hand_size", "seat": cy.seat, "delta": -3, "cause": "a card"}, raw=True) == {"ok": True}
        shuffle = {"do": "shuffle", "seat": cy.seat, "zone": "library", "cause": "a card"}
        assert ann.act(shuffle, raw=True) == {"ok": True}
        assert ann.act(shuffle, raw=True) == {"ok": True}
        said = ann.refused(shuffle, raw=True)  # a whole deck event each: bounded apart
        assert "shuffles by hand at most 1 time a minute" in said, said
        # Cy's hidden cards, burned or moved by Ann: asked of Cy, and nobody learns them.
        top = before["library"][cy.seat][:3]
        held = before["hands"][cy.seat][:2]
        assert ann.act({"do": "burn", "cards": top, "cause": "a card"}, raw=True) == {"ok": True}
        assert ann.act({"do": "move", "cards": held, "to": "ash", "cause": "a card"}, raw=True) == {"ok": True}
        # A combat between Ben's and Cy's minions: a claim on both.
        fight = {"do": "combat", "minions": [v[ben.seat], v[cy.seat]], "cause": "a card"}
        assert ann.act(fight, raw=True) == {"ok": True}
        caught_up(ann, ben, cy)
        claims = ann.look()["claims"]
        assert [c[2] for c in claims] == [[cy.seat]] * 5 + [sorted([ben.seat, cy.seat])]
        assert all(c[3] == "pending" for c in claims)
        burn, move = claims[3][0], claims[4][0]
        assert claims[3][5] == 0 and claims[4][5] == 0  # no time lets them lapse
        for act in (burn, move):
            said = ben.refused({"do": "lapse", "act": act}, raw=True, later_ms=CLAIM_WAIT_MS + 2000)
            assert "moves hidden cards" in said, said
        assert cy.act({"do": "dispute", "act": move}) == {"ok": True}
        until(lambda: ann.look()["claims"][4][4] == [cy.seat], "Cy's dispute at Ann's")
        hidden = {tuple(p) for p in top + held}
        for p in (ann, ben):
            look = p.look()
            assert not hidden & {tuple(x) for x in look["known"]}, f"{p.name} knows Cy's hidden cards"
            assert not hidden & {tuple(x) for x in look["public"]}
            assert look["hand_sizes"][cy.seat] == before["hand_sizes"][cy.seat]
            assert look["library"][cy.seat] == before["library"][cy.seat]
            assert look["hands"][cy.seat] == before["hands"][cy.seat]

        # Floods from a client that checks nothing: of Ann's own pool, then of claims on Ben.
        ann.send({"flood": {"do": "pool", "delta": 1, "cause": "flood"}, "n": 60})
        steady = 8
        for _ in range(steady):
            assert ben.act({"do": "pool", "delta": 1, "cause": "steady"}) == {"ok": True}
        flood = ann.answer()
        assert flood["refused"] and all("changes by hand a minute" in r for r in flood["refused"]), flood
        claims = ann.ask({"flood": {"do": "pool", "seat": ben.seat, "delta": -1, "cause": "flood"}, "n": 30})
        assert all("changes by hand a minute" in r for r in claims["refused"]), claims
    report = audit_file(table.save, all_rules())
    assert report.fault is None, report.text()
    _bounded(table.save, ann.seat, ben.seat, steady)


def _bounded(save: Path, flooder: int, other: int, steady: int) -> None:
    """In the host's log: the flooder's changes by hand at most a burst plus the rate over their
    span (by their signed times), and between two of the other seat's steady entries at most a
    burst of the flooder's."""
    entries = read_log(save).entries
    seat_of = {e.author: i for i, e in enumerate(x for x in entries if x.kind == "join")}
    moves = [(seat_of.get(e.author), e) for e in entries if e.kind == "move"]
    by_hand = [e for s, e in moves if s == flooder and e.body["act"]["do"] in BY_HAND]
    span_ms = by_hand[-1].time - by_hand[0].time
    assert len(by_hand) <= BY_HAND_RATE.burst + span_ms * BY_HAND_RATE.per_minute // 60_000 + 1
    steadies = [e.seq for s, e in moves if s == other and e.body["act"].get("cause") == "steady"]
    assert len(steadies) == steady
    floods = [e.seq for s, e in moves if s == flooder and e.body["act"].get("cause") == "flood"]
    for a, b in zip(steadies, steadies[1:], strict=False):
        assert len([f for f in floods if a < f < b]) <= BY_HAND_RATE.burst
