"""Three people at a VTES table over TCP, each in a process of its own (`vampire host --headless`
and three :mod:`tests.support.hand_agent` processes on loopback), one of them trying every route
around the rules by hand (docs/vtes-by-hand.md): an oust by hand, another's hidden cards, hand
size, crypt, a combat of two others' minions; another's card as a cause. Each is refused with its
sentence or becomes a claim that changes nothing until the touched Methuselah answers from their
own process (accepts or disputes); no peer learns the cards of a hand another seat tried to burn;
and the host's log passes the audit."""

from __future__ import annotations

from pathlib import Path

from engine.audit import audit_file
from engine.games import all_rules
from engine.games.vtes.claims import CLAIM_WAIT_MS
from tests.support.hand_table import caught_up, hand_table, until


def test_three_people_over_tcp_none_changes_anothers_things_without_their_answer(tmp_path: Path) -> None:
    with hand_table(tmp_path, 3) as table:
        for name, deck in (("Ann", "atraco"), ("Ben", "khursidwall"), ("Cy", "queen_of_aemilia")):
            table.sit(name, deck)
        table.seated()
        ann, ben, cy = table.by_seating()
        # Each brings out a vampire of its own (no cause, no claim).
        for person in (ann, ben, cy):
            mine = person.look()["uncontrolled"][person.seat][0]
            assert person.act({"do": "move", "cards": [mine], "to": "ready"}) == {"ok": True}
        until(lambda: all(ann.look()["ready"][p.seat] for p in (ann, ben, cy)), "three ready vampires at Ann's")
        (ben_ready,) = ann.look()["ready"][ben.seat]

        # 1. An oust by hand: a claim; Ben's pool does not move until Ben answers. Its cause names
        # no card Ann has (a card's name would be refused: item 4).
        ann.act({"do": "pool", "seat": ben.seat, "delta": -30, "cause": "judge ruling"})
        oust = ann.look()["claims"][-1]
        caught_up(ann, ben, cy)  # each answers from its own copy
        assert oust[1:4] == [ann.seat, [ben.seat], "pending"]
        assert cy.look()["pools"][ben.seat] == 30 and cy.look()["status"][ben.seat] == "in"
        refused = ann.act({"do": "lapse", "act": oust[0]})["refused"]
        assert "other than" in refused  # not by its own author
        refused = cy.act({"do": "lapse", "act": oust[0]})["refused"]
        assert "more for an answer before its time runs out" in refused
        assert ben.act({"do": "dispute", "act": oust[0]}) == {"ok": True}
        until(lambda: cy.look()["claims"][-1][4] == [ben.seat], "dispute at Cy's")
        assert cy.look()["pools"][ben.seat] == 30

        # 2. Another's hidden cards: the burn of Ben's hand waits for Ben, and nobody learns them.
        hand = ann.look()["hands"][ben.seat][:3]
        ann.act({"do": "burn", "cards": hand, "cause": "a card"})
        burn = ann.look()["claims"][-1]
        assert burn[3] == "pending" and burn[5] == 0  # no time lets it lapse
        for other in (ann, cy):
            look = other.look()
            assert not set(map(tuple, hand)) & set(map(tuple, look["known"]))
            assert not set(map(tuple, hand)) & set(map(tuple, look["public"]))
        assert "moves hidden cards" in cy.act({"do": "lapse", "act": burn[0]})["refused"]
        caught_up(ann, ben, cy)
        assert ben.act({"do": "dispute", "act": burn[0]}) == {"ok": True}

        # 3. Acts with no cause: another's hand size, library, a combat of two others' minions.
        for act in (
            {"do": "hand_size", "seat": ben.seat, "delta": -2},
            {"do": "shuffle", "seat": ben.seat, "zone": "crypt"},
        ):
            assert "names its cause" in ann.act(act)["refused"]
        # A combat between two others' minions: a claim on both; one dispute holds it.
        (cy_ready,) = ann.look()["ready"][cy.seat]
        ann.act({"do": "combat", "minions": [ben_ready, cy_ready], "cause": "a card"})
        fight = ann.look()["claims"][-1]
        assert fight[2] == sorted([ben.seat, cy.seat]) and fight[3] == "pending"
        caught_up(ann, ben, cy)
        assert cy.act({"do": "dispute", "act": fight[0]}) == {"ok": True}
        assert "only the Methuselah whose things" in ann.act({"do": "accept", "act": fight[0]})["refused"]
        assert ben.act({"do": "accept", "act": fight[0]}) == {"ok": True}  # Cy's dispute still holds it
        assert ann.look()["claims"][-1][3] == "pending"
        # 4. Another's card as a cause: refused, whoever's things the change touches.
        said = ann.act({"do": "pool", "delta": 1, "cause": "gain", "by": ben_ready})["refused"]
        assert "must be a card you control" in said
        said = ann.act({"do": "pool", "seat": ben.seat, "delta": -30, "cause": "Govern the Unaligned"})["refused"]
        assert "Govern the Unaligned is not yours to name as a cause" in said, said
        # 5. A claim Ben accepts from his own process takes effect at once.
        ann.act({"do": "pool", "seat": ben.seat, "delta": -2, "cause": "misplay"})
        small = ann.look()["claims"][-1]
        caught_up(ann, ben, cy)
        assert ben.act({"do": "accept", "act": small[0]}) == {"ok": True}
        until(lambda: ann.look()["pools"][ben.seat] == 28, "accepted claim at Ann's")
    report = audit_file(table.save, all_rules())
    assert report.fault is None, report.text()


def test_over_tcp_made_up_stealth_and_a_strike_by_hand_wait_for_the_touched_one(tmp_path: Path) -> None:
    """In a window, a number or a strike with no card named that works on another Methuselah is
    a claim the window waits for: Ann's made-up stealth against Ben's block holds the block until
    Ben answers from his own process (he disputes: the block goes on without it); in the combat
    that follows, Ann's strike of 5 aggravated with no card holds the strike step until its time
    runs out, said by Cy (a witness), never before."""
    with hand_table(tmp_path, 3) as table:
        for name, deck in (("Ann", "atraco"), ("Ben", "khursidwall"), ("Cy", "queen_of_aemilia")):
            table.sit(name, deck)
        table.seated()
        ann, ben, cy = table.by_seating()
        for person in (ann, ben):
            mine = person.look()["uncontrolled"][person.seat][0]
            assert person.act({"do": "move", "cards": [mine], "to": "ready"}) == {"ok": True}
        until(lambda: all(ann.look()["ready"][p.seat] for p in (ann, ben)), "two ready vampires at Ann's")
        (lucia,), (marek,) = ann.look()["ready"][ann.seat], ann.look()["ready"][ben.seat]
        assert ann.act({"do": "blood", "card": lucia, "delta": 3, "cause": "influence"}) == {"ok": True}
        while ann.look()["phase"] != "minion":
            assert ann.act({"do": "phase"}) == {"ok": True}
        assert ann.act({"do": "action", "kind": "bleed", "minion": lucia}) == {"ok": True}
        assert ann.act({"do": "pass"}) == {"ok": True}
        caught_up(ann, ben, cy)
        assert ben.act({"do": "block", "minion": marek}) == {"ok": True}
        caught_up(ann, ben, cy)
        assert ann.act({"do": "adjust", "stealth": 5, "cause": "made up"}) == {"ok": True}
        stealth = ann.look()["claims"][-1]
        caught_up(ann, ben, cy)
        assert stealth[1:4] == [ann.seat, [ben.seat], "pending"] and ben.look()["action"][2] == 0
        assert "the window waits for" in cy.refused({"do": "pass"})
        assert ben.act({"do": "dispute", "act": stealth[0]}) == {"ok": True}
        until(lambda: ann.look()["claims"][-1][3] == "void", "the dispute at Ann's")
        assert ann.look()["action"][2] == 0
        # The block goes on without it: everyone passes in turn, and the combat opens.
        while (look := ann.look())["combat"] is None or look["combat"][0] != "strike":
            holder = (look["combat"] or look["action"])[1]
            person = next(p for p in (ann, ben, cy) if p.seat == holder)
            caught_up(ann, ben, cy)
            assert person.act({"do": "pass"}) == {"ok": True}, look
            caught_up(ann, ben, cy)
        assert ann.act({"do": "strike", "minion": lucia, "damage": 5, "aggravated": True}) == {"ok": True}
        strike = ann.look()["claims"][-1]
        caught_up(ann, ben, cy)
        assert strike[1:4] == [ann.seat, [ben.seat], "pending"]
        assert "the window waits for" in ben.refused({"do": "strike", "minion": marek})
        assert "more for an answer" in cy.refused({"do": "lapse", "act": strike[0]})
        assert cy.act({"do": "lapse", "act": strike[0]}, later_ms=CLAIM_WAIT_MS + 1000) == {"ok": True}
        until(lambda: ann.look()["claims"][-1][3] == "taken", "the lapse at Ann's")
        assert ben.act({"do": "strike", "minion": marek}) == {"ok": True}
    report = audit_file(table.save, all_rules())
    assert report.fault is None, report.text()
